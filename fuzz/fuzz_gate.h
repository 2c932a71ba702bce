/* fuzz_gate.h — the fuzz_gate target: chains run on one gate under the oracles.
 *
 * Owns: fuzz_gate's configuration (every option and environment variable it reads, in one
 * struct filled in one place, gc_fuzz_gate_configure) and, in fuzz_gate.c, its side of the
 * fuzz target interface (fuzz_target.h): start-up, one input (decode, run, report an
 * escape), the chain-aware mutator and its probe cache, the known-signature list, record
 * mode, the stats line and the memory report.  None of it depends on the engine: driver.c
 * adapts libFuzzer and AFL++ to it, fuzz_runner.c runs it over files (fuzz_gate-test).
 *
 * Options (libFuzzer ignores flags that start with "--", so ours travel in the same argv
 * and survive -fork, -jobs and -minimize_crash re-executions — through a shell command
 * line, unquoted: a value with a space, such as inline requires JSON, is split there;
 * `gatecrash fuzz` passes --target=DIR of a folder it writes):
 *   --target=DIR | --sandbox=PATH --requires=JSON|@FILE   which gate (or $GATECRASH_TARGET,
 *                                                          or DIR "fuzz_gate.target" beside
 *                                                          the binary, for OSS-Fuzz)
 *   --mode=reach|effect   --json (also print the escape as one JSON object)   --quiet
 *   --mutator=bytes       the engine's byte-level mutations only (no chain-aware mutator)
 *   --escapes=continue    an escape is reported once per signature ("NEW-ESCAPE seconds
 *                         inputs signature via chain") and is not a crash: benchmarks
 *   --escapes=record      the same, and the input is saved as -artifact_prefix's crash-HASH
 *                         (findings.h): a campaign's jobs, whom an escape no longer ends,
 *                         and a deterministic campaign (gatecrash fuzz --runs N, one job); the
 *                         process re-executes itself once without address randomization
 *   --input-timeout=S     per-input time limit that interrupts Python (default 0.02; the
 *                         gatecrash command's 2; 0: off)
 *   --feedback=none       no Python-side features (the engine sees only the C coverage)
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
 *   --known-hangs=FILE    confirmed hangs (hangs.h) read from FILE at start and appended to
 *                         it: a campaign's jobs do not wait on a block an earlier job confirmed
 *   --require-confinement exit 4 when Landlock cannot confine writes (confine.h)
 * The scratch folder is the working folder the process is started in.
 * Every escaping input's resolved chain (what this process ran: `[#K]`/`.#K` name whatever
 * is K-th here, which a fresh process may not have) is written to resolved/<sha1 of the
 * input> beside the crash input (fsutil.h): $GATECRASH_RESOLVED_DIR, or else beside
 * -artifact_prefix.  Replay, triage and the campaign's live replay run it first.
 * Environment: GATECRASH_TRACE_INPUTS=FILE writes every chain run to FILE (flushed), to
 * find the input behind a process that ends without a report (the mutator's probe runs
 * too, as "probe: CHAIN": no input replays a crash there); GATECRASH_TRACE_TIMEOUTS=1
 * prints each chain stopped by the time limit ("TIMEOUT via") or ended before a confirmed
 * hang (hangs.h, "KNOWN-HANG via"); GATECRASH_STATS_FILE=FILE appends the stats line to FILE. */
#ifndef GATECRASH_FUZZ_GATE_H
#define GATECRASH_FUZZ_GATE_H

#include "session.h"

#define GC_FUZZ_GATE_MAX_KNOWN_FILES 16

typedef enum {
    GC_ESCAPES_CRASH,    /* default: an escape is a finding (the engine's crash) */
    GC_ESCAPES_CONTINUE, /* --escapes=continue: NEW-ESCAPE once per signature, no finding */
    GC_ESCAPES_RECORD    /* --escapes=record: continue, and save each new one's input */
} gc_escapes_mode;

typedef struct {
    gc_session_opts session;   /* which gate (--target/--sandbox/--requires, $GATECRASH_TARGET,
                                  BINARY.target), --mode, --quiet ($GATECRASH_LOG_SHOWN too) */
    int json;                  /* --json: the escape as a JSON object after its line */
    gc_escapes_mode escapes;   /* --escapes= */
    const char *artifact_prefix; /* libFuzzer's -artifact_prefix ("./"), which record mode honours */
    const char *known_files[GC_FUZZ_GATE_MAX_KNOWN_FILES]; /* --skip-known=FILE, each given */
    int nknown_files;
    const char *known_hangs;   /* --known-hangs=FILE: confirmed hangs shared with the campaign's other jobs */
    int chain_mutator;         /* the chain-aware mutator and its probe (0: --mutator=bytes; 2: --mutator=no-harvest,
                                * calls without harvested arguments) */
    int reuse;                 /* reuse the installed namespace (gc_nscache_enabled; --reuse=) */
    int feedback;              /* Python-side features on (gc_feedback_enabled) */
    unsigned signals;          /* which ones (gc_feedback_signals; --feedback=) */
    double input_timeout;      /* seconds (gc_input_time_limit; --input-timeout=) */
    int afl;                   /* linked with AFL++'s runtime (fuzz_gate_afl) */
    const char *trace_inputs;  /* $GATECRASH_TRACE_INPUTS: every chain run, to this file */
    int trace_timeouts;        /* $GATECRASH_TRACE_TIMEOUTS: print chains the limit stopped */
    const char *stats_file;    /* $GATECRASH_STATS_FILE: the stats line appended there too */
    char resolved_dir[4096];   /* where escaping inputs' resolved chains go ("": nowhere) */
    char beside[4096];         /* storage for BINARY.target when that is the gate */
} gc_fuzz_gate_config;

/* Fill c from the defaults, argv (flags not ours are ignored: they are the engine's) and
 * the environment.  Returns 0, or GC_EXIT_USAGE with its one error line printed. */
int gc_fuzz_gate_configure(gc_fuzz_gate_config *c, int argc, char **argv);

#endif
