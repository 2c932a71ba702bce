/* fuzz_gate.c — the fuzz_gate target (fuzz_gate.h): fuzz_target.h for chains on one gate.
 * Compiled into each of its binaries: coverage-instrumented with driver.c in fuzz_gate and
 * fuzz_gate_afl (its branches are signal: CMakeLists.txt), plain in fuzz_gate-test. */
#include "fuzz_gate.h"

#include <stdint.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
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
#include "findings.h"
#include "fsutil.h"
#include "fuzz_target.h"
#include "hangs.h"
#include "harvest.h"
#include "hash.h"
#include "mutator.h"
#include "nscache.h"
#include "pycompat.h"
#include "state.h"
#include "timelimit.h"

static gc_fuzz_gate_config cfg;
static gc_target target;
static gc_verdict_tally tally; /* the chains run, by verdict (verdict.h), for the campaign */
static struct timespec started;
static unsigned long execs, evaluated; /* inputs; inputs that decoded to a chain and ran */
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
             "limit %lu, process creations stopped by the backstop %lu, full state checks %lu, known hangs not run again %lu\n",
             execs, evaluated, s->installs, s->reuses, s->drops, s->watched, s->restores, gc_state_total_repairs(),
             gc_limit_timeouts, gc_limit_ooms, gc_backstop_blocked, gc_state_total_checks(), gc_hangs_skipped);
    fputs(line, stderr);
    gc_tally_emit(&tally, cfg.stats_file);
    /* $GATECRASH_STATS_FILE: one line per process, appended in one write (libFuzzer's
     * fork-mode jobs log to files it deletes; the campaign and the soak add these up) */
    int fd = cfg.stats_file ? open(cfg.stats_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (fd >= 0) {
        ssize_t w = write(fd, line, strlen(line));
        (void)w;
        close(fd);
    }
}

void gc_fuzz_cleanup(void)
{
    static int done;
    if (done++)
        return;
    print_stats();
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

static gc_value_kind probe(const gc_chain *c, int stmt);
static int detail_probe(const gc_chain *c, int stmt, gc_probe_detail *d);

/* The configuration into the harness library's settings: the one place they are set. */
static void apply_config(void)
{
    gc_nscache_enabled = cfg.reuse;
    gc_eval_step_errors = 0; /* the probe reads values, never why a step failed (naive loop too) */
    gc_input_time_limit = cfg.input_timeout;
    gc_eval_may_run = gc_hangs_may_run; /* a block this process confirmed is not waited on again */
    gc_feedback_signals = cfg.signals;
    gc_feedback_enabled = cfg.feedback;
    for (int i = 0; i < cfg.nknown_files; i++)
        gc_findings_load(cfg.known_files[i]);
    if (cfg.known_hangs)
        gc_hangs_share(cfg.known_hangs);
}

/* The gate is loaded: the mutator learns its roots and the oracle's targets. */
static void prepare_mutator(void)
{
    static char roots[64][65];
    static const char *ptrs[64];
    int n = gc_session_roots(&target, roots, 64);
    for (int i = 0; i < n; i++)
        ptrs[i] = roots[i];
    gc_mutator_set_roots(ptrs, n);
    if (gc_feedback_enabled) {
        gc_feedback_gate_module(target.module);
        gc_feedback_baseline_classes();
    }
    static const char *targets[256];
    gc_mutator_set_targets(targets, gc_oracle_target_names(targets, 256));
    if (cfg.chain_mutator)
        gc_mutator_set_probe(probe);
    gc_mutator_harvest = cfg.chain_mutator == 1;
    if (gc_mutator_harvest) { /* calls get harvested arguments (harvest.h) */
        gc_harvest_into_mutator(&target);
        gc_mutator_set_detail_probe(detail_probe);
    }
}

/* The target imported (confined: gc_fuzz_start_confined), the mutator prepared.  0 or an
 * exit code. */
static int start_target(void *ctx)
{
    (void)ctx;
    int rc = gc_session_start(&target, &cfg.session);
    if (rc)
        return rc;
    atexit(gc_fuzz_cleanup);
    clock_gettime(CLOCK_MONOTONIC, &started);
    prepare_mutator();
    return 0;
}

/* An engine's parent: the target was checked in a child and is not imported here. */
static int parent;

int gc_fuzz_initialize(int *argc, char ***argv)
{
    int rc = gc_confine_note_argv(*argc, *argv); /* the folders this process's run writes */
    if (!rc)
        rc = gc_fuzz_gate_configure(&cfg, *argc, *argv);
    if (rc)
        return rc;
    apply_config();
    if (cfg.escapes == GC_ESCAPES_RECORD)
        without_aslr(*argv);
    /* the Python-side features go to AFL++'s map, not to libFuzzer's counters */
    if (cfg.afl && gc_feedback_enabled && !gc_feedback_attach_afl()) {
        gc_die_msg("AFL++'s runtime did not take the Python-side features' edges");
        return GC_EXIT_HARNESS;
    }
    rc = gc_fuzz_start_confined(*argc, *argv, start_target, NULL, &parent);
    if (rc)
        return rc;
    setenv("GATECRASH_LOG_SHOWN", "1", 1);
    return 0;
}

/* Involuntary context switches of this thread so far: another task took the processor. */
static long preempted(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : -1;
}

/* This thread's processor time, in seconds. */
static double thread_cpu_s(void)
{
    struct timespec ts;
    return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0 ? (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 : 0;
}

/* gc_run_input with the confirmed hangs left out (hangs.h), and the step running at this
 * run's deadline, if it passed, noted; at a slice's 2nd, 4th, 8th... overrun, c runs once
 * more, with CONFIRM_FACTOR times the limit, to confirm it (that run's outcome is only looked
 * at for that).  Every run of an input or a probe goes through here. */
#define CONFIRM_FACTOR 10
static int run_limited(const gc_chain *c, gc_outcome *out, gc_step_cb cb, gc_open_input *keep, char *err,
                       size_t errlen)
{
    static gc_outcome again;
    gc_hangs_prepare(c);
    int rc = keep ? gc_input_open(&target, c, out, cb, keep, err, errlen)
                  : gc_run_input(&target, c, out, cb, NULL, err, errlen);
    if (rc || out->stop_stmt < 0 || out->escaped)
        return rc;
    if (keep && (rc = gc_input_close(keep, err, errlen)) != 0) /* stopped: nothing to go on from */
        return rc;
    int n = gc_hangs_note(c, out->stop_stmt, out->stop_trailer);
    if (n < 2 || (n & (n - 1)))
        return 0;
    double limit = gc_input_time_limit; /* the confirming run gets ten times the limit: a step that
                                           is only slow (a spawn the backstop stops, on a busy machine)
                                           ends within it and is not a hang */
    gc_input_time_limit = limit * CONFIRM_FACTOR;
    long before = preempted();
    double cpu = thread_cpu_s();
    rc = gc_run_input(&target, c, &again, NULL, NULL, err, errlen);
    cpu = thread_cpu_s() - cpu;
    gc_input_time_limit = limit;
    /* The machine did not keep the step from running: nothing took the processor from this
     * thread (a sleep has nothing to lose), or it still ran for a quarter of the confirming
     * run's time (a loop on a machine whose every core is busy, as in a campaign with a job
     * per core: there the watchdog's own wake-up at the deadline takes the thread's core, so
     * without this no loop was ever confirmed and every job waited on them again). */
    int ran = before >= 0 && (preempted() == before || cpu >= limit * CONFIRM_FACTOR / 4);
    if (rc == 0 && !again.escaped && again.stop_stmt == out->stop_stmt && again.stop_trailer == out->stop_trailer && ran)
        gc_hangs_confirm(c, out->stop_stmt, out->stop_trailer);
    return rc;
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
    probe_kind = gc_harvest_kind(s->value);
}

/* Confinement is on since before the import (gc_fuzz_start_confined); the seccomp backstop
 * goes on with the first input (or probe) in AFL++'s forked processes.  A process taken for
 * an engine's parent that runs an input after all imports its target here, confined. */
static void arm_backstop(void)
{
    gc_fuzz_arm_backstop();
    if (parent) {
        parent = 0;
        int rc = start_target(NULL);
        if (rc)
            exit(rc);
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
static int mutating; /* a mutation is under way: the probes may use the caches */

static void remember_kind(uint64_t key, gc_value_kind kind)
{
    kind_cache[key % KIND_CACHE].h = key;
    kind_cache[key % KIND_CACHE].kind = (unsigned char)kind;
}

/* The caches' key of chain c: its hash (gc_chain_hash), the same for the chain an input
 * decodes to when it runs and when it is mutated (a mutation extends a chain step by step,
 * so the chain probed is not always the input being mutated).  0 when the probe is not for
 * the last statement or no mutation is under way. */
static uint64_t chain_key(const gc_chain *c, int stmt)
{
    return mutating && stmt == c->nstmts - 1 ? gc_chain_hash(c) : 0;
}

/* An input and the probes of the mutation that follows it share an input window (eval.h,
 * gc_open_input): the engine mostly mutates the input it has just run, and the mutator
 * extends a chain a trailer at a time, probing each extension.  So a probe of the chain that
 * ran last needs no evaluation at all, and one of an extension runs only its new trailer on
 * the value the run before ended on (each chain evaluated again from its root cost a fifth
 * of fuzz_gate's time).  The window closes (window_done: the state check and repair of all
 * that ran in it) when the mutation ends, or when another input starts. */
static gc_open_input window;
static uint64_t ran_hash; /* the chain the window's value is the end of */
static int ran_stmts, ran_trailers;

static void window_done(void)
{
    char err[256];
    int fb = gc_feedback_enabled; /* what finalizers do at the close is no input's feature */
    gc_feedback_enabled = 0;
    int rc = gc_input_close(&window, err, sizeof err);
    gc_feedback_enabled = fb;
    if (rc) {
        gc_die_msg("%s (after %lu inputs)", err, execs);
        exit(rc);
    }
}

/* What the window holds is the end of chain c, whose gc_chain_hash is h. */
static void window_ran(const gc_chain *c, uint64_t h)
{
    ran_hash = h;
    ran_stmts = c->nstmts;
    ran_trailers = c->nstmts ? c->s[c->nstmts - 1].ntrailers : 0;
}

/* Chain c is the one the open window ran with 'more' more trailers on its last statement. */
static int window_ran_before(const gc_chain *c, int more)
{
    int last = c->nstmts - 1;
    return window.open && window.ev.kept && c->nstmts == ran_stmts && last >= 0 &&
           c->s[last].ntrailers == ran_trailers + more && gc_chain_hash_upto(c, ran_trailers) == ran_hash;
}

static void trace_input(const char *prefix, const gc_chain *c);

/* A probe's run of chain c, cb seeing its steps: -1 when it failed or escaped.  The
 * Python-side features are off: the engine clears them before the input it runs next, so
 * what a probe would set is never read. */
static int probe_run(const gc_chain *c, uint64_t key, gc_step_cb cb)
{
    static gc_outcome out;
    char err[256];
    arm_backstop();
    int fb = gc_feedback_enabled;
    gc_feedback_enabled = 0;
    trace_input("probe: ", c);
    int rc = -1, again = window_ran_before(c, 0);
    if (mutating && probe_stmt == c->nstmts - 1 && (again || window_ran_before(c, 1))) {
        gc_hangs_prepare(c);
        rc = gc_input_more(&window, c, again, &out, cb);
    }
    if (rc != 0) { /* from its root */
        window_done();
        rc = run_limited(c, &out, cb, mutating ? &window : NULL, err, sizeof err);
    }
    gc_feedback_enabled = fb;
    window_ran(c, key ? key : gc_chain_hash(c));
    return rc != 0 || out.escaped ? -1 : 0;
}

static gc_value_kind probe(const gc_chain *c, int stmt)
{
    uint64_t key = chain_key(c, stmt);
    if (key && kind_cache[key % KIND_CACHE].h == key)
        return (gc_value_kind)kind_cache[key % KIND_CACHE].kind;
    probe_stmt = stmt;
    probe_kind = GC_VK_NONE;
    if (probe_run(c, key, probe_step) != 0)
        probe_kind = GC_VK_NONE;
    if (key)
        remember_kind(key, probe_kind);
    return probe_kind;
}

/* The detail probe: the same evaluation, and a closer look (harvest.h) at the value that
 * ends statement 'stmt', taken inside the input's window (its time limit and state check),
 * since reading a mapping's keys may run the gate's code.  Cached by chain_key, like the
 * kind. */
#define DETAIL_CACHE 512
static struct {
    uint64_t h;
    gc_probe_detail d;
} detail_cache[DETAIL_CACHE];
static gc_probe_detail *detail_out;

/* *to = *from, names[] up to nnames only (the rest of its 2 KB is never read) */
static void detail_copy(gc_probe_detail *to, const gc_probe_detail *from)
{
    memcpy(to, from, offsetof(gc_probe_detail, names));
    memcpy(to->names, from->names, (size_t)from->nnames * sizeof from->names[0]);
}

static void detail_step(void *ctx, const gc_step_info *s)
{
    (void)ctx;
    const gc_stmt *st = &s->resolved->s[s->stmt];
    if (s->stmt == probe_stmt && s->trailer == st->ntrailers - 1)
        gc_harvest_detail(s->value, detail_out);
}

static int detail_probe(const gc_chain *c, int stmt, gc_probe_detail *d)
{
    uint64_t key = chain_key(c, stmt);
    if (key && detail_cache[key % DETAIL_CACHE].h == key) {
        detail_copy(d, &detail_cache[key % DETAIL_CACHE].d);
        return 0;
    }
    probe_stmt = stmt;
    memset(d, 0, offsetof(gc_probe_detail, names));
    detail_out = d;
    if (probe_run(c, key, detail_step) != 0)
        d->kind = GC_VK_NONE;
    if (key) {
        detail_cache[key % DETAIL_CACHE].h = key;
        detail_copy(&detail_cache[key % DETAIL_CACHE].d, d);
    }
    if (key && d->kind != GC_VK_NONE) /* the statement's end: what the probe would say */
        remember_kind(key, d->kind);
    return 0;
}

/* Three edits in four are chain-level; the rest, and any the chain mutator cannot make,
 * are the engine's own byte-level mutations. */
size_t gc_fuzz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    if (!cfg.chain_mutator || seed % 4 == 0)
        return 0;
    mutating = 1;
    size_t n = gc_mutate_chain(data, size, max_size, seed);
    mutating = 0;
    window_done();
    return n;
}

size_t gc_fuzz_crossover(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                         size_t max_out, unsigned int seed)
{
    return cfg.chain_mutator ? gc_crossover_chain(d1, s1, d2, s2, out, max_out, seed) : 0;
}

/* The input's resolved chain, for a fresh process to run what this one ran (fuzz_gate.h):
 * written before the engine saves the input, atomically, so a reader finds all or nothing. */
static void record_resolved(const uint8_t *data, size_t size, const gc_outcome *o)
{
    if (!cfg.resolved_dir[0])
        return;
    static gc_chain ran;
    gc_outcome_ran_chain(o, &ran);
    char hex[41], path[4200];
    gc_sha1_hex(data, size, hex);
    snprintf(path, sizeof path, "%s/%s", cfg.resolved_dir, hex);
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_sb_printf(&sb, "# resolved chain of crash input %s, as the fuzzing process ran it\n# signature: %s\n# escape: ",
                 hex, o->signature);
    gc_escape_chain_text(o, &sb);
    gc_sb_putc(&sb, '\n');
    gc_chain_print(&ran, &sb);
    if (gc_mkdirs(cfg.resolved_dir) < 0 || gc_write_atomic(path, sb.data, sb.len, 0) != 0)
        fprintf(stderr, "gatecrash: error: cannot save %s\n", path);
    gc_sb_free(&sb);
}

/* Resident memory now, and the peak, at input 2^16, 2^17, ... and at 100k, 1M, 10M: the
 * engines report only the peak, which one input's short-lived allocation (within the
 * per-input budget) raises for good; growth shows in the resident size.  With it, what
 * Python holds (its allocated blocks, the modules loaded), to tell the interpreter's growth
 * from the engine's corpus. */
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

/* $GATECRASH_TRACE_INPUTS: chain c, before it runs, as a line of the trace ('prefix' "probe: "
 * for the mutator's probe runs, which no input replays: a crash there shows as one). */
static void trace_input(const char *prefix, const gc_chain *c)
{
    static FILE *tf; /* the process's one trace file */
    if (!cfg.trace_inputs)
        return;
    if (!tf)
        tf = fopen(cfg.trace_inputs, "w");
    if (tf)
        trace_chain(tf, prefix, c);
}

/* Upkeep of a long process, before each input: give freed memory back every 4096 inputs
 * (after one input's short-lived big allocation glibc keeps the pages: its mmap threshold
 * rises to the freed size, and the process looks like it grows; a trim costs well under a
 * millisecond), and collect cyclic garbage every 65536 (it piles up in the oldest
 * generation, which CPython collects rarely).  Figures: docs/PERFORMANCE.md. */
static void upkeep(void)
{
    if ((execs & 4095) == 0)
        malloc_trim(0);
    if ((execs & 65535) == 0)
        gc_eval_collect_first = 1;
    report_memory();
}

/* --escapes=continue|record (benchmarks: time to each signature): one line per new
 * signature, the input saved in record mode; no finding. */
static void report_new_escape(const uint8_t *data, size_t size, const gc_outcome *o)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double t = (double)(now.tv_sec - started.tv_sec) + (double)(now.tv_nsec - started.tv_nsec) / 1e9;
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_escape_chain_text(o, &sb);
    fprintf(stderr, "gatecrash: NEW-ESCAPE %.3f %lu %s via %s\n", t, execs, o->signature, sb.data);
    if (cfg.escapes == GC_ESCAPES_RECORD) {
        record_resolved(data, size, o); /* (saved and fuzzing goes on: findings.h) */
        gc_findings_save(cfg.artifact_prefix, data, size);
    }
    gc_sb_free(&sb);
    gc_findings_add(o->signature);
}

/* An escape that is a finding: its line (and JSON), the engine's dedup token, the resolved
 * chain. */
static void report_escape(const uint8_t *data, size_t size, const gc_outcome *o)
{
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_escape_line(&target, o, &sb);
    fprintf(stderr, "%s\n", sb.data);
    if (cfg.json) {
        gc_sb_clear(&sb);
        gc_escape_json(&target, o, &sb);
        fprintf(stderr, "%s\n", sb.data);
    }
    /* -minimize_crash keeps inputs whose token matches: the same escape */
    fprintf(stderr, "DEDUP_TOKEN: %s\n", o->signature);
    gc_sb_free(&sb);
    record_resolved(data, size, o);
}

/* Run the decoded chain, feeding the probe cache; exits on a harness error. */
static void run_chain(gc_chain *chain, gc_outcome *outcome)
{
    char err[512];
    arm_backstop();
    current = chain;
    in_input = 1;
    trace_input("", chain);
    probe_stmt = chain->nstmts - 1;
    probe_kind = GC_VK_NONE;
    int rc = run_limited(chain, outcome, cfg.chain_mutator ? probe_step : NULL, cfg.chain_mutator ? &window : NULL,
                         err, sizeof err);
    if (rc == 0 && outcome->escaped)
        window_done(); /* an escape: the engine may end the run now */
    uint64_t h = gc_chain_hash(chain);
    window_ran(chain, h);
    in_input = 0;
    if (cfg.chain_mutator) { /* for the probe, when this input is mutated */
        remember_kind(h, outcome->escaped ? GC_VK_NONE : probe_kind);
    }
    if (rc) {
        gc_die_msg("%s (after %lu inputs)", err, execs);
        exit(rc);
    }
}

int gc_fuzz_test_one_input(const uint8_t *data, size_t size)
{
    static gc_chain chain;    /* large: keep off the stack */
    static gc_outcome outcome;
    window_done(); /* the one before's, if no mutation ended it */
    execs++;
    upkeep();
    /* a mutation's output is the chain the mutator wrote: copied, not parsed again (and the
     * next mutation, of these bytes, starts from this copy) */
    const gc_chain *mutated = cfg.chain_mutator ? gc_mutated_chain(data, size) : NULL;
    if (mutated)
        gc_chain_copy(&chain, mutated);
    else
        gc_chain_parse(data, size, GC_PARSE_LENIENT, &chain, NULL);
    if (cfg.chain_mutator)
        gc_mutate_parsed(data, size, &chain);
    if (chain.nstmts == 0)
        return GC_FUZZ_REJECT; /* nothing to run: do not add to the corpus */
    evaluated++;
    run_chain(&chain, &outcome);
    gc_tally_input(&tally, &target, &outcome.verdict);
    if (outcome.timed_out && !outcome.escaped) {
        if (cfg.trace_timeouts) /* which chains block (docs/PERFORMANCE.md, "time limit") */
            trace_chain(stderr, outcome.known_hang ? "gatecrash: KNOWN-HANG via " : "gatecrash: TIMEOUT via ", &chain);
        return GC_FUZZ_REJECT; /* a hang, stopped: not worth keeping */
    }
    if (!outcome.escaped)
        return GC_FUZZ_KEEP;
    if (gc_findings_known(outcome.signature))
        return GC_FUZZ_REJECT; /* found before: neither a finding nor worth keeping in the corpus */
    if (cfg.escapes != GC_ESCAPES_CRASH) {
        report_new_escape(data, size, &outcome);
        return GC_FUZZ_REJECT;
    }
    report_escape(data, size, &outcome);
    return GC_FUZZ_FINDING;
}
