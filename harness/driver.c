/* driver.c — engine glue: the libFuzzer entry points (LLVMFuzzerInitialize,
 * LLVMFuzzerTestOneInput, the custom mutator).  Everything else is in the shared harness
 * library.  The same file is fuzz_gate (libFuzzer) and, compiled by afl-clang-fast and
 * linked with AFL++'s libAFLDriver, fuzz_gate_afl: persistent mode, the fork server
 * deferred until LLVMFuzzerInitialize has started Python and loaded the gate.  Which
 * engine it runs under is seen at run time (gc_feedback_afl_runtime), so OSS-Fuzz's AFL++
 * build of this file needs nothing special.
 *
 * Options (libFuzzer ignores flags that start with "--", so ours travel in the same argv
 * and survive -fork, -jobs and -minimize_crash re-executions — through a shell command
 * line, unquoted: a value with a space, such as inline requires JSON, is split there;
 * `gatecrash fuzz` passes --target=DIR of a folder it writes):
 *   --target=DIR | --sandbox=PATH --requires=JSON|@FILE   which gate (or $GATECRASH_TARGET,
 *                                                          or DIR "fuzz_gate.target" beside
 *                                                          the binary, for OSS-Fuzz)
 *   --mode=reach|effect   --json (also print the escape as one JSON object)   --quiet
 *   --mutator=bytes       libFuzzer's byte-level mutations only (no chain-aware mutator)
 *   --escapes=continue    an escape is reported once per signature ("NEW-ESCAPE seconds
 *                         inputs signature via chain") and is not a crash: benchmarks
 *   --escapes=record      the same, and the input is saved as -artifact_prefix's crash-HASH:
 *                         a deterministic campaign (gatecrash fuzz --runs N, one job); the
 *                         process re-executes itself once without address randomization
 *   --input-timeout=S     per-input time limit that interrupts Python (default 0.02; the
 *                         gatecrash command's 2; 0: off)
 *   --feedback=none       no Python-side features (libFuzzer sees only this file's coverage)
 *   --feedback=default    classes, prims: the signals shown to help (the
 *                         default with libFuzzer, see feedback.h); --feedback=full: every
 *                         signal but hit counts; --feedback=coarse: full but (type of
 *                         value, name taken) (the default with AFL++); --feedback=+gate,
 *                         -prims: the default with the gate's lines, without prims
 *   --naive=1             the naive loop: --reuse=0 --feedback=none --mutator=bytes
 *   --reuse=0             a fresh install for every input (default: reuse the installed
 *                         namespace while no input changed it, see nscache.h)
 *   --skip-known=FILE     escapes whose signature is listed in FILE (one per line) are not
 *                         crashes: a campaign stops re-finding what it already has
 *   --require-confinement exit 4 when Landlock cannot confine writes (confine.h)
 * The scratch folder is the working folder the engine is started in.
 * Every escaping input's resolved chain (what this process ran: `[#K]`/`.#K` name whatever
 * is K-th here, which a fresh process may not have) is written to resolved/<sha1 of the
 * input> beside the crash input (fsutil.h): $GATECRASH_RESOLVED_DIR, or else beside
 * -artifact_prefix.  Replay, triage and the campaign's live replay run it first.
 * Environment: GATECRASH_TRACE_INPUTS=FILE writes every chain run to FILE (flushed), to
 * find the input behind a process that ends without a report; GATECRASH_TRACE_TIMEOUTS=1
 * prints each chain stopped by the time limit. */
#include <stdint.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <malloc.h>

#include "backstop.h"
#include "confine.h"
#include "eval.h"
#include "feedback.h"
#include "fsutil.h"
#include "hash.h"
#include "mutator.h"
#include "nscache.h"
#include "pycompat.h"
#include "session.h"
#include "state.h"
#include "timelimit.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static gc_target target;
static int want_json;
static int escapes_continue; /* --escapes=continue|record: report each new signature once, no crash */
static int record_escapes; /* --escapes=record: each new signature's input is saved too */
static const char *artifact_prefix = "./"; /* libFuzzer's -artifact_prefix, which record mode honours */
static char resolved_dir[4096]; /* where escaping inputs' resolved chains go ("": nowhere) */
static struct timespec started;
static int chain_mutator = 1; /* --mutator=bytes turns the chain-aware mutator off */
static unsigned long execs, evaluated; /* inputs; inputs that decoded to a chain and ran */
static char **known;
static int nknown;

static void load_known(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0])
            continue;
        char **nk = realloc(known, (size_t)(nknown + 1) * sizeof *known);
        if (!nk)
            break;
        known = nk;
        known[nknown++] = strdup(line);
    }
    if (f)
        fclose(f);
}

static int is_known(const char *sig)
{
    for (int i = 0; i < nknown; i++)
        if (strcmp(known[i], sig) == 0)
            return 1;
    return 0;
}

static const char *opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

static gc_value_kind probe(const gc_chain *c, int stmt);

static volatile int in_input; /* an input is running: an exit now is the input's doing */
static gc_chain *current;

static void print_stats(void)
{
    if (in_input && current) { /* something the chain reached ended the process */
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_chain_print_oneline(current, &sb);
        fprintf(stderr, "gatecrash: error: the process is exiting in the middle of an input: %s\n", sb.data);
        gc_sb_free(&sb);
    }
    const gc_nscache_stats *s = gc_nscache_stats_get();
    char line[512];
    snprintf(line, sizeof line,
             "gatecrash: stats: inputs %lu, chains run %lu, namespace installs %lu, reuses %lu, drops %lu "
             "(%zu objects watched), dicts put back %lu, state repairs %lu, inputs stopped by the time limit %lu, by the memory "
             "limit %lu, process creations stopped by the backstop %lu, full state checks %lu\n",
             execs, evaluated, s->installs, s->reuses, s->drops, s->watched, s->restores, gc_state_total_repairs(),
             gc_limit_timeouts, gc_limit_ooms, gc_backstop_blocked, gc_state_total_checks());
    fputs(line, stderr);
    /* $GATECRASH_STATS_FILE: one line per process, appended in one write (libFuzzer's
     * fork-mode jobs log to files it deletes; the campaign and the soak add these up) */
    const char *path = getenv("GATECRASH_STATS_FILE");
    int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (fd >= 0) {
        ssize_t w = write(fd, line, strlen(line));
        (void)w;
        close(fd);
    }
}

/* --escapes=record: the same run twice must see the same addresses (sets of objects
 * iterate in address order, reprs print them, and what `[#K]` names follows), so the
 * process runs again without address randomization, as setarch -R would.  Where the
 * kernel refuses (a container's seccomp profile), one warning line and randomization stays. */
static void without_aslr(char **argv)
{
    int p = personality(0xffffffff);
    if (p != -1 && (p & ADDR_NO_RANDOMIZE))
        return;
    char exe[4096];
    if (p != -1 && gc_exe_path(exe, sizeof exe) == 0 && personality((unsigned long)p | ADDR_NO_RANDOMIZE) != -1)
        execv(exe, argv);
    fprintf(stderr, "gatecrash: warning: address randomization stays on (%s): this bounded run may not "
            "repeat exactly\n", strerror(errno));
}

/* The debugging traces of the header comment, read once (not per input: getenv walks the
 * whole environment). */
static const char *trace_inputs;
static int trace_timeouts;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    gc_session_opts o = {0};
    const char *v;
    gc_nscache_enabled = 1; /* cheap fresh namespaces; --reuse=0 for the naive loop */
    gc_eval_step_errors = 0; /* the probe reads values, never why a step failed (naive loop too) */
    trace_inputs = getenv("GATECRASH_TRACE_INPUTS");
    trace_timeouts = getenv("GATECRASH_TRACE_TIMEOUTS") != NULL;
    /* A chain runs in tens of microseconds; the ones that reach the limit are blocked for
     * good (subprocess._PopenSelector().select() polls with no timeout, and every station
     * proxy carries it; an event loop's run_forever, a queue's get), and each costs the
     * whole limit.  A one-minute station-1.5.0 run with the replay's 2 s spent 44 s of its
     * 64 in 22 of them; at 0.02 s a run meets 40-110 a minute (1-4% of its time).  A slow
     * but legitimate step cut short (a big import) keeps what it did (imported submodules
     * stay) and gets further the next time.  Replay, triage and the sweep keep 2 s. */
    gc_input_time_limit = 0.02;
    /* Linked with AFL++'s runtime (fuzz_gate_afl, or an OSS-Fuzz AFL++ build of this same
     * file): every signal but (type, name), which floods AFL++'s queue (thousands of
     * entries in a minute, no escape found: it keeps every input that reaches a new map
     * byte, and its mutator does not probe values); the set measured with AFL++
     * (docs/PERFORMANCE.md).  --feedback= still picks. */
    int afl = gc_feedback_afl_runtime();
    if (afl)
        gc_feedback_signals = GC_FB_COARSE;
    static char beside[4096];
    int crc = gc_confine_note_argv(*argc, *argv); /* the folders this process's run writes */
    if (crc)
        exit(crc);
    for (int i = 1; i < *argc; i++) {
        const char *a = (*argv)[i];
        if ((v = opt(a, "--target")))
            o.target_dir = v;
        else if ((v = opt(a, "--sandbox")))
            o.sandbox = v;
        else if ((v = opt(a, "--requires")))
            o.requires = v;
        else if ((v = opt(a, "--mode")))
            o.mode = v;
        else if (strcmp(a, "--json") == 0)
            want_json = 1;
        else if (strcmp(a, "--quiet") == 0)
            o.quiet = 1;
        else if ((v = opt(a, "--skip-known")))
            load_known(v);
        else if ((v = opt(a, "--mutator")))
            chain_mutator = strcmp(v, "bytes") != 0;
        else if ((v = opt(a, "--escapes"))) {
            escapes_continue = strcmp(v, "continue") == 0 || strcmp(v, "record") == 0;
            record_escapes = strcmp(v, "record") == 0;
        } else if ((v = opt(a, "-artifact_prefix")))
            artifact_prefix = v;
        else if ((v = opt(a, "--input-timeout")))
            gc_input_time_limit = atof(v);
        else if ((v = opt(a, "--feedback"))) {
            if (gc_feedback_parse(v, &gc_feedback_signals) < 0) {
                fprintf(stderr, "gatecrash: error: --feedback=%s: signals are transitions, names, modules, "
                        "classes, prims, gate, counts\n", v);
                exit(GC_EXIT_USAGE);
            }
            gc_feedback_enabled = gc_feedback_signals != 0;
        }
        else if ((v = opt(a, "--naive"))) /* the naive loop: fresh installs, blind, bytes */
            gc_nscache_enabled = gc_feedback_enabled = chain_mutator = strcmp(v, "1") != 0;
        else if ((v = opt(a, "--reuse")))
            gc_nscache_enabled = strcmp(v, "0") != 0;
    }
    if (record_escapes)
        without_aslr(*argv);
    if (afl) {
        /* AFL++'s driver reads argv when this returns (a loop count, or files to run): ours
         * must be gone.  (libFuzzer keeps them: its fork mode passes them to its jobs.) */
        int kept = 1;
        for (int i = 1; i < *argc; i++)
            if (strncmp((*argv)[i], "--", 2) != 0)
                (*argv)[kept++] = (*argv)[i];
        (*argv)[kept] = NULL;
        *argc = kept;
        /* the Python-side features go to AFL++'s map, not to libFuzzer's counters */
        if (gc_feedback_enabled && !gc_feedback_attach_afl()) {
            gc_die_msg("AFL++'s runtime did not take the Python-side features' edges");
            exit(GC_EXIT_HARNESS);
        }
    }
    /* the crash inputs' folder: the campaign says (AFL++ picks its own), else libFuzzer's prefix */
    if (getenv("GATECRASH_RESOLVED_DIR")) {
        snprintf(resolved_dir, sizeof resolved_dir, "%s", getenv("GATECRASH_RESOLVED_DIR"));
    } else if (!afl) {
        gc_resolved_path(artifact_prefix, "", 0, resolved_dir, sizeof resolved_dir);
        *strrchr(resolved_dir, '/') = '\0'; /* the folder, not a file in it */
    }
    if (!o.target_dir && !o.sandbox)
        o.target_dir = getenv("GATECRASH_TARGET");
    if (!o.target_dir && !o.sandbox) {
        snprintf(beside, sizeof beside, "%s.target", (*argv)[0]);
        if (access(beside, R_OK) == 0)
            o.target_dir = beside;
    }
    /* libFuzzer re-runs Initialize in every child; show the gate log only once per tree. */
    if (getenv("GATECRASH_LOG_SHOWN"))
        o.quiet = 1;
    int rc = gc_session_start(&target, &o);
    if (rc)
        exit(rc);
    setenv("GATECRASH_LOG_SHOWN", "1", 1);
    atexit(print_stats);
    clock_gettime(CLOCK_MONOTONIC, &started);
    static char roots[64][65];
    static const char *ptrs[64];
    int n = gc_session_roots(&target, roots, 64);
    for (int i = 0; i < n; i++)
        ptrs[i] = roots[i];
    gc_mutator_set_roots(ptrs, n);
    if (gc_feedback_enabled)
        gc_feedback_gate_module(target.module);
    static const char *targets[256];
    gc_mutator_set_targets(targets, gc_oracle_target_names(targets, 256));
    if (chain_mutator)
        gc_mutator_set_probe(probe);
    return 0;
}

/* The mutator's probe: evaluate the chain (a cached namespace makes this cheap) and say
 * what the value at the end of statement 'stmt' is. */
static int probe_stmt;
static gc_value_kind probe_kind;

static void probe_step(void *ctx, const gc_step_info *s)
{
    (void)ctx;
    if (s->stmt != probe_stmt)
        return;
    PyObject *v = s->value;
    probe_kind = !v ? GC_VK_NONE
               : PyModule_Check(v) ? GC_VK_MODULE
               : PyType_Check(v) ? GC_VK_TYPE
               : PyExceptionInstance_Check(v) ? GC_VK_EXCEPTION
               : PyTraceBack_Check(v) ? GC_VK_TRACEBACK
               : PyFrame_Check(v) ? GC_VK_FRAME
               : PyCell_Check(v) ? GC_VK_CELL
               : PyFunction_Check(v) || PyCFunction_Check(v) || PyMethod_Check(v) ? GC_VK_FUNCTION
               : PyDict_Check(v) ? GC_VK_MAPPING
               : PyList_Check(v) || PyTuple_Check(v) || PyAnySet_Check(v) ? GC_VK_SEQUENCE
               : GC_VK_OTHER;
}

/* The seccomp backstop goes on with the first input (or probe), in the process that runs
 * inputs: never in libFuzzer's fork/merge/minimize parents or AFL++'s fork server, which
 * start processes and run no input. */
static void arm_backstop(void)
{
    char err[256];
    int rc = gc_confine_self(); /* first: the supervisor and watchdog threads inherit it */
    if (rc)
        exit(rc);
    if (!gc_backstop_armed() && gc_backstop_arm(err, sizeof err) != 0) {
        gc_die_msg("%s", err);
        exit(GC_EXIT_HARNESS);
    }
}

/* What the last statement of each input run lately ended on, by a hash of the input's
 * bytes: libFuzzer mutates the input it has just run (up to -mutate_depth times in a row)
 * or a corpus entry it ran before, so the probe rarely has to evaluate a chain again. */
#define KIND_CACHE 16384
static struct {
    uint64_t h;
    unsigned char kind;
} kind_cache[KIND_CACHE];
static uint64_t mutating; /* hash of the input being mutated; 0: none */

static uint64_t hash_input(const uint8_t *d, size_t n)
{
    uint64_t h = GC_FNV64_OFFSET;
    for (size_t i = 0; i < n; i++)
        h = gc_fnv1a64_step(h, d[i]);
    return h | 1;
}

static gc_value_kind probe(const gc_chain *c, int stmt)
{
    static gc_outcome out;
    char err[256];
    if (mutating && stmt == c->nstmts - 1 && kind_cache[mutating % KIND_CACHE].h == mutating)
        return (gc_value_kind)kind_cache[mutating % KIND_CACHE].kind;
    arm_backstop();
    probe_stmt = stmt;
    probe_kind = GC_VK_NONE;
    if (gc_run_input(&target, c, &out, probe_step, NULL, err, sizeof err) != 0 || out.escaped)
        return GC_VK_NONE;
    return probe_kind;
}

/* Three edits in four are chain-level; the rest, and any the chain mutator cannot make,
 * are libFuzzer's own byte-level mutations (which also use the -dict tokens). */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    if (chain_mutator && seed % 4 != 0) {
        mutating = hash_input(data, size);
        size_t n = gc_mutate_chain(data, size, max_size, seed);
        mutating = 0;
        if (n)
            return n;
    }
    return LLVMFuzzerMutate(data, size, max_size);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed)
{
    size_t n = chain_mutator ? gc_crossover_chain(d1, s1, d2, s2, out, max_out, seed) : 0;
    if (n)
        return n;
    /* byte-level splice: a's head and b's tail */
    size_t ha = s1 ? seed % (s1 + 1) : 0, tb = s2 ? (seed / 7) % (s2 + 1) : 0;
    if (ha + (s2 - tb) > max_out)
        return 0;
    memcpy(out, d1, ha);
    memcpy(out + ha, d2 + tb, s2 - tb);
    return ha + (s2 - tb);
}

/* --escapes=record: the input is saved as libFuzzer would save a crash (prefix + "crash-" +
 * a hash of the bytes; temp file and rename), and fuzzing goes on.  One process, one seed,
 * a bounded number of runs, and no input ending the run: the same campaign twice finds the
 * same escapes (libFuzzer's fork mode cannot promise that: its jobs get time slices). */
static void record_input(const uint8_t *data, size_t size)
{
    uint64_t h = GC_FNV64_OFFSET;
    for (size_t i = 0; i < size; i++)
        h = gc_fnv1a64_step(h, data[i]);
    char path[4096];
    snprintf(path, sizeof path, "%scrash-%016llx", artifact_prefix, (unsigned long long)h);
    if (gc_write_atomic(path, (const char *)data, size, 0) != 0)
        fprintf(stderr, "gatecrash: error: cannot save %s\n", path);
}

/* The input's resolved chain, for a fresh process to run what this one ran (header above):
 * written before the engine saves the input, atomically, so a reader finds all or nothing. */
static void record_resolved(const uint8_t *data, size_t size, const gc_outcome *o)
{
    if (!resolved_dir[0])
        return;
    static gc_chain ran;
    gc_outcome_ran_chain(o, &ran);
    char hex[41], path[4200];
    gc_sha1_hex(data, size, hex);
    snprintf(path, sizeof path, "%s/%s", resolved_dir, hex);
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_sb_printf(&sb, "# resolved chain of crash input %s, as the fuzzing process ran it\n# signature: %s\n# escape: ",
                 hex, o->signature);
    gc_escape_chain_text(o, &sb);
    gc_sb_putc(&sb, '\n');
    gc_chain_print(&ran, &sb);
    if (gc_mkdirs(resolved_dir) < 0 || gc_write_atomic(path, sb.data, sb.len, 0) != 0)
        fprintf(stderr, "gatecrash: error: cannot save %s\n", path);
    gc_sb_free(&sb);
}

/* Resident memory now, and the peak, at input 2^16, 2^17, ... and at 100k, 1M, 10M: the
 * engines report only the peak, which one input's short-lived allocation (a string of
 * 100 MB, within the per-input budget) raises for good; growth shows in the resident size.
 * With it, what Python holds (its allocated blocks, the modules loaded), to tell the
 * interpreter's growth from the engine's corpus. */

static void report_memory(void)
{
    if ((execs < 65536 || (execs & (execs - 1))) && execs != 100000 && execs != 1000000 && execs != 10000000)
        return;
    long pages = -1, resident = -1;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = -1;
        fclose(f);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    /* what Python holds: blocks allocated, loaded modules */
    Py_ssize_t blocks = gc_allocated_blocks();
    PyObject *mods = PyImport_GetModuleDict();
    fprintf(stderr, "gatecrash: memory at input %lu: resident %.1f MB, peak %.1f MB, Python blocks %zd, "
            "modules %zd\n", execs,
            resident < 0 ? -1.0 : (double)resident * (double)sysconf(_SC_PAGESIZE) / 1048576.0, ru.ru_maxrss / 1024.0,
            blocks, mods ? PyDict_GET_SIZE(mods) : (Py_ssize_t)-1);
}

/* One line: 'prefix' and the chain, flushed. */
static void trace_chain(FILE *f, const char *prefix, const gc_chain *c)
{
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_chain_print_oneline(c, &sb);
    fprintf(f, "%s%s\n", prefix, sb.data);
    fflush(f);
    gc_sb_free(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gc_chain chain;    /* large: keep off the stack */
    static gc_outcome outcome;
    char err[512];
    execs++;
    /* Give freed memory back every 4096 inputs: after one input's short-lived big
     * allocation (within its budget) glibc keeps the pages (its mmap threshold rises to
     * the freed size), and a long single process then looks like it grows: on station-1.5.0
     * the resident size went 45 -> 68 MB from 100k to 1M inputs without this, 44 -> 50 MB
     * with it.  A trim costs well under a millisecond. */
    if ((execs & 4095) == 0)
        malloc_trim(0);
    /* and collect cyclic garbage every 65536: in a long process it piles up in the oldest
     * generation, which CPython collects rarely (100k -> 1M inputs on station-1.5.0:
     * Python's blocks +28% without, +14% with; resident +10.3% / +7.6%) */
    if ((execs & 65535) == 0)
        gc_eval_collect_first = 1;
    report_memory();
    gc_chain_parse(data, size, GC_PARSE_LENIENT, &chain, NULL);
    if (chain.nstmts == 0)
        return -1; /* nothing to run: do not add to the corpus */
    evaluated++;
    arm_backstop();
    current = &chain;
    in_input = 1;
    if (trace_inputs) { /* debugging: the last input before a sudden end */
        static FILE *tf;
        if (!tf)
            tf = fopen(trace_inputs, "w");
        if (tf)
            trace_chain(tf, "", &chain);
    }
    probe_stmt = chain.nstmts - 1;
    probe_kind = GC_VK_NONE;
    int rc = gc_run_input(&target, &chain, &outcome, chain_mutator ? probe_step : NULL, NULL, err, sizeof err);
    in_input = 0;
    if (chain_mutator) { /* for the probe, when this input is mutated */
        uint64_t h = hash_input(data, size);
        kind_cache[h % KIND_CACHE].h = h;
        kind_cache[h % KIND_CACHE].kind = (unsigned char)(outcome.escaped ? GC_VK_NONE : probe_kind);
    }
    if (rc) {
        gc_die_msg("%s (after %lu inputs)", err, execs);
        exit(rc);
    }
    if (outcome.timed_out && !outcome.escaped) {
        if (trace_timeouts) /* which chains block (see the time limit above) */
            trace_chain(stderr, "gatecrash: TIMEOUT via ", &chain);
        return -1; /* a hang, stopped: not worth keeping */
    }
    if (outcome.escaped && is_known(outcome.signature))
        return -1; /* found before: neither a crash nor worth keeping in the corpus */
    if (outcome.escaped && escapes_continue) { /* benchmarks: time to each signature */
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double t = (double)(now.tv_sec - started.tv_sec) + (double)(now.tv_nsec - started.tv_nsec) / 1e9;
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_escape_chain_text(&outcome, &sb);
        fprintf(stderr, "gatecrash: NEW-ESCAPE %.3f %lu %s via %s\n", t, execs, outcome.signature, sb.data);
        if (record_escapes) {
            record_resolved(data, size, &outcome);
            record_input(data, size);
        }
        gc_sb_free(&sb);
        char **nk = realloc(known, (size_t)(nknown + 1) * sizeof *known);
        if (nk) {
            known = nk;
            known[nknown++] = strdup(outcome.signature);
        }
        return -1;
    }
    if (outcome.escaped) {
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_escape_line(&target, &outcome, &sb);
        fprintf(stderr, "%s\n", sb.data);
        if (want_json) {
            gc_sb_clear(&sb);
            gc_escape_json(&target, &outcome, &sb);
            fprintf(stderr, "%s\n", sb.data);
        }
        /* -minimize_crash keeps inputs whose token matches: the same escape */
        fprintf(stderr, "DEDUP_TOKEN: %s\n", outcome.signature);
        gc_sb_free(&sb);
        record_resolved(data, size, &outcome);
        in_input = 0;
        print_stats(); /* abort() skips atexit */
        fflush(stderr);
        abort();
    }
    return 0;
}
