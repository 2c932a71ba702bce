/* fuzz_source.c — the fuzz_source target (fuzz_target.h): a source target (source.h) fuzzed
 * through its adapter's evaluate with programs (program.h).  Each input decodes to a
 * program, printed in the target's dialect and run under the source-mode oracles; an escape
 * is a finding (its line, the program's source and a DEDUP_TOKEN on stderr).  Options:
 * --target=DIR (required), --venv=DIR, --print-dict (the static words and roots at start),
 * --print-programs (each program, what came back and the kinds of value it reached: the
 * mutator's focus), --print-kinds (the harvested word
 * lists at exit), --no-feedback, --no-harvest (the
 * ablations), and a campaign's --skip-known=FILE and --escapes=record (findings.h: a known
 * signature is no finding; a new one is saved as -artifact_prefix's crash-HASH, and fuzzing
 * goes on).  Mutation edits the program (program_mutator.h) with a dictionary of the
 * adapter's roots(), the sandbox package's own string constants (its blocklists) harvested
 * at start, and the names harvested from what each evaluation returned (source_feedback.h),
 * whose Python-side features (the sandbox's lines, the kinds of value returned) go to
 * libFuzzer's extra counters.  The kinds each input reached are remembered by its bytes:
 * when the engine edits that input again they are the mutator's focus; the last inputs that
 * reached a new kind of value are the frontier, edited half the time instead of the
 * engine's pick.  The first edits are one-token programs, one per root: the implicit ones
 * (builtins by name, __builtins__) first, then roots()'s; then each technique once on each
 * (first_stage). */
#include <Python.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backstop.h"
#include "confine.h"
#include "findings.h"
#include "fuzz_target.h"
#include "hash.h"
#include "node_kinds.h"
#include "program.h"
#include "probe.h"
#include "program_mutator.h"
#include "session.h"
#include "source.h"
#include "source_feedback.h"
#include "source_sweep.h"
#include "state.h"
#include "walk_feedback.h"

static gc_target target;
static unsigned long inputs, escapes;
static gc_verdict_tally tally; /* the inputs by verdict (verdict.h), for the campaign */
static gc_node_tally nodes;     /* the ast node kinds run, and those ever accepted (node_kinds.h) */
static gc_pm_dict dict;
static int print_dict;               /* --print-dict: the static words on stderr at start */
static int no_feedback, no_harvest;  /* --no-feedback, --no-harvest: the ablations */
static int print_programs;           /* --print-programs: each program's source and outcome */
static int print_kinds;              /* --print-kinds: the harvested word lists at exit */
static int record;                   /* --escapes=record: an escape is saved, and fuzzing goes on */
static const char *artifact_prefix = "./";

/* v's strings into the dictionary: a str, or (depth > 0) the strs, keys and function or
 * class names a set, tuple, list or dict holds. */
static void harvest_value(PyObject *v, int depth)
{
    if (PyUnicode_Check(v)) {
        const char *s = PyUnicode_AsUTF8(v);
        if (s && strlen(s) < 64)
            gc_pm_dict_add(&dict, s);
        PyErr_Clear();
    } else if (depth == 0 && (PyCFunction_Check(v) || PyFunction_Check(v) || PyType_Check(v))) {
        PyObject *name = PyObject_GetAttrString(v, "__name__");
        if (name)
            harvest_value(name, 0);
        Py_XDECREF(name);
        PyErr_Clear();
    } else if (depth > 0 && (PyAnySet_Check(v) || PyTuple_Check(v) || PyList_Check(v) || PyDict_Check(v))) {
        PyObject *it = PyObject_GetIter(v), *item;
        while (it && (item = PyIter_Next(it))) {
            harvest_value(item, depth - 1);
            Py_DECREF(item);
        }
        Py_XDECREF(it);
        PyErr_Clear();
    }
}

/* A module of an installed package (beneath a site-packages folder): its public constants
 * (not __builtins__, __all__ and the like). */
static void harvest_module(PyObject *mod)
{
    PyObject *file = PyObject_GetAttrString(mod, "__file__");
    const char *f = file && PyUnicode_Check(file) ? PyUnicode_AsUTF8(file) : NULL;
    PyObject *d = f && strstr(f, "site-packages") ? PyModule_GetDict(mod) : NULL;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (d && PyDict_Next(d, &pos, &key, &value))
        if (PyUnicode_Check(key) && PyUnicode_READ_CHAR(key, 0) != '_' && !PyModule_Check(value) &&
            !PyCallable_Check(value))
            harvest_value(value, 1);
    Py_XDECREF(file);
    PyErr_Clear();
}

/* The packages the adapter's evaluate sees (its globals' modules, and the modules its
 * functions and classes come from), every loaded module of each harvested. */
static void harvest_one(PyObject *mod, void *ctx)
{
    (void)ctx;
    harvest_module(mod);
}

static void harvest(void) { gc_adapter_each_package_module(&target.adapter, harvest_one, NULL); }

/* The names the adapter's roots() gives: where programs start. */
static int add_roots(void)
{
    static char names[GC_PM_MAX_ROOTS][65];
    char err[512];
    int n = gc_adapter_roots(&target.adapter, target.spec.sandbox, names, GC_PM_MAX_ROOTS, err, sizeof err);
    if (n < 0) {
        gc_die_msg("%s", err);
        return GC_EXIT_TARGET;
    }
    for (int i = 0; i < n; i++)
        gc_pm_dict_add_root(&dict, names[i]);
    return 0;
}

/* The implicit roots: what every evaluation has in scope unless the sandbox removes it, the
 * builtins by name (the types of literals among them: str, int, list, ...) and
 * __builtins__, whatever roots() gives; with '_' ones left out when the dialect cannot
 * write them.  The same names as the source sweep's implicit roots, in the builtins module's
 * own order rather than shortest first: the fuzzer's first inputs are one a root in this
 * order, and taking the sweep's order changed which escape fuzz_source.sh's bounded run on
 * simpleeval-1.0.4 finds first (tried, undone). */
static void add_implicit_roots(int no_underscore)
{
    PyObject *mod = PyImport_ImportModule("builtins"), *key, *value;
    PyObject *d = mod ? PyModule_GetDict(mod) : NULL;
    Py_ssize_t pos = 0;
    if (!no_underscore)
        gc_pm_dict_add_implicit(&dict, "__builtins__");
    while (d && PyDict_Next(d, &pos, &key, &value)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (k && !(no_underscore && k[0] == '_'))
            gc_pm_dict_add_implicit(&dict, k);
    }
    Py_XDECREF(mod);
    PyErr_Clear();
}

/* Each root of roots() evaluated alone once: the kind of value it names is its name's from
 * the first edit on (the mutator's walks on it, the roots holding a path resolver), not only
 * once a program has kept it in a variable; then each root's lookup-readback (what
 * AttributeError.obj gives back after 'ROOT.gatecrash', where it is another object: the
 * module behind a view), for a path resolver only that object holds.  roots() gave names
 * already (add_roots), so a failure here only leaves the kinds unknown.  These are the
 * process's first evaluations, so the state check takes the signal dispositions again at
 * the first input: libFuzzer sets its handlers (its crash report, -error_exitcode) after
 * start-up. */
static void learn_roots(void)
{
    char err[512];
    PyObject *ns = gc_source_roots_ns(&target, err, sizeof err), *back = ns ? gc_source_readbacks_ns(&target, ns) : NULL;
    if (ns)
        gc_source_feedback_learn_roots(ns);
    if (back)
        gc_source_feedback_learn_readbacks(back);
    Py_XDECREF(back);
    Py_XDECREF(ns);
    PyErr_Clear();
    gc_state_signals_anew();
}

static int start_target(void *ctx);
/* An engine's parent: the target was checked in a child and is not imported here. */
static int parent;
static gc_session_opts opts;

int gc_fuzz_initialize(int *argc, char ***argv)
{
    int rc = gc_confine_note_argv(*argc, *argv);
    for (int i = 1; !rc && i < *argc; i++) {
        const char *a = (*argv)[i];
        if (strncmp(a, "--target=", 9) == 0)
            opts.target_dir = a + 9;
        else if (strncmp(a, "--venv=", 7) == 0)
            opts.venv = a + 7;
        else if (strcmp(a, "--print-dict") == 0)
            print_dict = 1;
        else if (strcmp(a, "--no-feedback") == 0)
            no_feedback = 1;
        else if (strcmp(a, "--no-harvest") == 0)
            no_harvest = 1;
        else if (strcmp(a, "--print-programs") == 0)
            print_programs = 1;
        else if (strcmp(a, "--print-kinds") == 0)
            print_kinds = 1;
        else if (strncmp(a, "--skip-known=", 13) == 0)
            gc_findings_load(a + 13);
        else if (strcmp(a, "--escapes=record") == 0)
            record = 1;
        else if (strncmp(a, "-artifact_prefix=", 17) == 0)
            artifact_prefix = a + 17;
    }
    if (rc)
        return rc;
    if (!opts.target_dir) {
        gc_die_msg("fuzz_source needs --target=DIR (a source target)");
        return GC_EXIT_USAGE;
    }
    opts.quiet = 1;
    return gc_fuzz_start_confined(*argc, *argv, start_target, &opts, &parent);
}

/* The adapter imported (confined: gc_fuzz_start_confined), its roots and dictionary learnt.
 * 0 or an exit code. */
static int start_target(void *ctx)
{
    int rc = gc_session_start(&target, ctx);
    if (rc)
        return rc;
    if (target.spec.kind != GC_TARGET_SOURCE) {
        gc_die_msg("%s is no source target (fuzz_gate fuzzes gates)", target.spec.name);
        return GC_EXIT_USAGE;
    }
    char from[128], err[512]; /* without roots(): the names the sandbox hands out (probe.h) */
    if ((rc = gc_source_find_roots(&target, from, sizeof from, err, sizeof err))) {
        gc_die_msg("%s", err);
        return rc;
    }
    if ((rc = add_roots()))
        return rc;
    add_implicit_roots((target.spec.adapter.dialect & GC_DIALECT_NO_UNDERSCORE) != 0);
    harvest();
    if (print_dict) {
        for (int i = 0; i < dict.nroots; i++)
            fprintf(stderr, "gatecrash: root: %s\n", dict.word[dict.root[i]]);
        for (int i = 0; i < dict.nimplicit; i++)
            fprintf(stderr, "gatecrash: root (implicit): %s\n", dict.word[dict.implicit[i]]);
        for (int i = 0; i < dict.npool; i++)
            fprintf(stderr, "gatecrash: dictionary: %s\n", dict.word[dict.pool[i]]);
    }
    if (gc_node_tally_init(&nodes, err, sizeof err) < 0)
        fprintf(stderr, "gatecrash: %s\n", err);
    dict.no_underscore = (target.spec.adapter.dialect & GC_DIALECT_NO_UNDERSCORE) != 0;
    gc_source_feedback_start(target.spec.sandbox, !no_feedback, !no_feedback, no_harvest ? NULL : &dict);
    if (!no_harvest)
        learn_roots();
    if (!no_feedback || !no_harvest)
        gc_walk_feedback_place();
    atexit(gc_fuzz_cleanup);
    return 0;
}

/* ---- what each input reached: the mutator's focus when it edits that input again ---- */

#define NREACHED 16384
static struct {
    uint64_t h;
    uint8_t n;
    uint16_t kind[GC_PM_MAX_FOCUS];
} reached[NREACHED];

static uint64_t input_hash(const uint8_t *d, size_t n) { return gc_fnv1a64_bytes(GC_FNV64_OFFSET, d, n) | 1; }

static void remember_kinds(const uint8_t *d, size_t n)
{
    uint64_t h = input_hash(d, n);
    size_t slot = h % NREACHED;
    reached[slot].h = h;
    reached[slot].n = (uint8_t)gc_source_feedback_kinds(reached[slot].kind, GC_PM_MAX_FOCUS);
    if (!print_programs || !reached[slot].n)
        return;
    fprintf(stderr, "gatecrash: reached:");
    for (int i = 0; i < reached[slot].n; i++)
        fprintf(stderr, "%s %s", i ? "," : "", reached[slot].kind[i] < dict.nkinds
                                                   ? dict.kind[reached[slot].kind[i]].name : "?");
    fputc('\n', stderr);
}

/* ---- the frontier: the last inputs that reached a new kind of value ---- */

#define NFRONTIER 16
static struct {
    size_t n;
    uint8_t d[GC_PM_MAX_OUTPUT];
} frontier[NFRONTIER];
static unsigned nfrontier; /* inputs ever added; the newest is at (nfrontier - 1) % NFRONTIER */

static void remember_frontier(const uint8_t *d, size_t n)
{
    if (!gc_source_feedback_new_value() || n > GC_PM_MAX_OUTPUT)
        return;
    unsigned k = nfrontier++ % NFRONTIER;
    memcpy(frontier[k].d, d, n);
    frontier[k].n = n;
}

/* Half the time the input edited is one of the frontier's instead of the engine's pick (the
 * newest most often: the i-th newest with weight 1/(i+1)), so that a walk one step further
 * is tried from where the last step got, not from a corpus of hundreds of older inputs. */
static size_t from_frontier(uint8_t *data, size_t size, size_t max_size, uint32_t seed)
{
    unsigned have = nfrontier < NFRONTIER ? nfrontier : NFRONTIER;
    if (!have || seed % 2)
        return size;
    unsigned back = (seed >> 1) % have;
    back = back ? (seed >> 8) % back : 0; /* smaller offsets more likely */
    unsigned k = (nfrontier - 1 - back) % NFRONTIER;
    if (frontier[k].n > max_size)
        return size;
    memcpy(data, frontier[k].d, frontier[k].n);
    return frontier[k].n;
}

/* The first edits, a deterministic stage (as AFL's before its random one): each root alone,
 * the implicit ones first; then each technique on each root's program, FIRST_ROUNDS times
 * over (roots()'s and the implicit ones in turn: interleaved_root) (a technique's draws differ each time: one draw of a resolver's path among a root's
 * names misses as often as not).  A root's kind is known by then (learn_roots), so a
 * technique's first step is drawn from it: what one technique and a step reach from a root
 * is tried in the campaign's first seconds, not left to the random stage's draws among every
 * node of a long program.  0 when it is over. */
#define FIRST_ROUNDS 3

/* The j-th root of the technique pairs, as gc_program_root_program numbers them (the implicit
 * ones first): roots()'s and the implicit ones taken in turn, so that neither list waits for
 * the other (a roots() of fifty exception classes, a hundred builtins left in scope). */
static int interleaved_root(int j)
{
    int ni = dict.nimplicit, nr = dict.nroots, both = 2 * (ni < nr ? ni : nr);
    if (j < both)
        return j % 2 ? j / 2 : ni + j / 2;
    return ni > nr ? j - both / 2 : ni + j - both / 2;
}

static size_t first_stage(uint8_t *data, size_t max_size, unsigned int seed)
{
    static int next_root, next_pair;
    int nroots = dict.nimplicit + dict.nroots;
    size_t one = gc_program_root_program(&dict, next_root, data, max_size);
    if (one) {
        next_root++;
        return one;
    }
    while (next_pair < FIRST_ROUNDS * nroots * GC_PM_NTECHNIQUES) {
        int r = interleaved_root(next_pair / GC_PM_NTECHNIQUES % nroots), t = next_pair % GC_PM_NTECHNIQUES;
        next_pair++;
        one = gc_program_root_program(&dict, r, data, max_size);
        if (one && (one = gc_program_technique(data, one, max_size, seed, &dict, (gc_pm_technique)t)))
            return one;
    }
    return 0;
}

size_t gc_fuzz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    size_t one = first_stage(data, max_size, seed);
    if (one)
        return one;
    size = from_frontier(data, size, max_size, seed);
    /* an input not run (the engine's second edit of one): the focus of the last one */
    uint64_t h = input_hash(data, size);
    size_t slot = h % NREACHED;
    if (reached[slot].h == h) {
        dict.nfocus = reached[slot].n;
        memcpy(dict.focus, reached[slot].kind, sizeof dict.focus);
    }
    return gc_program_mutate(data, size, max_size, seed, &dict);
}

size_t gc_fuzz_crossover(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                         size_t max_out, unsigned int seed)
{
    return gc_program_crossover(d1, s1, d2, s2, out, max_out, seed, &dict);
}

/* The backstop with the first input under AFL++; an engine's parent that runs an input
 * after all imports its target here (as fuzz_gate does). */
static void arm_once(void)
{
    gc_fuzz_arm_backstop();
    if (parent) {
        parent = 0;
        int rc = start_target(&opts);
        if (rc)
            exit(rc);
    }
}

int gc_fuzz_test_one_input(const uint8_t *data, size_t size)
{
    static gc_program p;
    static gc_verdict out;
    arm_once();
    gc_program_decode(data, size, &p);
    if (p.nstmts == 0)
        return GC_FUZZ_REJECT;
    gc_strbuf src;
    gc_sb_init(&src);
    gc_program_print(&p, target.spec.adapter.dialect, &src);
    char note[256], err[512];
    int rc = gc_source_run(&target, src.data, src.len, &out, note, sizeof note, err, sizeof err);
    if (rc) {
        gc_die_msg("%s", err);
        exit(rc);
    }
    inputs++;
    gc_tally_input(&tally, &target, &out);
    gc_node_tally_add(&nodes, src.data, src.len, (target.spec.adapter.dialect & GC_DIALECT_EXPRESSION) != 0,
                      strncmp(note, "refused by the sandbox", 22) == 0);
    if (print_programs)
        fprintf(stderr, "gatecrash: program (%s):\n%s", note, src.data);
    remember_kinds(data, size);
    remember_frontier(data, size);
    int verdict = out.timed_out || out.oom ? GC_FUZZ_REJECT : GC_FUZZ_KEEP;
    if (out.escaped && gc_findings_known(out.signature)) {
        verdict = GC_FUZZ_REJECT; /* found before: neither a finding nor worth keeping */
    } else if (out.escaped) {
        escapes++;
        gc_strbuf line;
        gc_sb_init(&line);
        gc_escape_text(&out, src.data, &line);
        fprintf(stderr, "%s\nDEDUP_TOKEN: %s\n", line.data, out.signature);
        gc_sb_free(&line);
        verdict = record ? GC_FUZZ_REJECT : GC_FUZZ_FINDING;
        if (record) {
            gc_findings_save(artifact_prefix, data, size);
            gc_findings_add(out.signature);
        }
    }
    gc_sb_free(&src);
    return verdict;
}

void gc_fuzz_cleanup(void)
{
    static int done;
    if (done++)
        return;
    fprintf(stderr, "gatecrash: fuzz_source on %s: %lu programs, %lu escapes, %lu imports undone, %lu sandbox places "
            "saturated\n", target.spec.name, inputs, escapes, gc_state_modules_dropped(), gc_source_feedback_saturated());
    gc_tally_emit(&tally, getenv("GATECRASH_STATS_FILE"));
    gc_strbuf never;
    gc_sb_init(&never);
    Py_ssize_t seen = gc_node_tally_never(&nodes, &never);
    if (seen)
        fprintf(stderr, "gatecrash: node kinds never accepted (of %zd run): %s\n", seen, never.len ? never.data : "none");
    gc_sb_free(&never);
    for (int k = 0; print_kinds && k < dict.nkinds; k++) {
        fprintf(stderr, "gatecrash: kind %s:", dict.kind[k].name);
        for (int i = 0; i < dict.kind[k].n; i++)
            fprintf(stderr, " %s", dict.word[dict.kind[k].w[i]]);
        for (int i = 0; i < dict.kind[k].nleads; i++)
            fprintf(stderr, "%s%s", i ? " " : "; leads: ", dict.word[dict.kind[k].lead[i]]);
        fputc('\n', stderr);
    }
}
