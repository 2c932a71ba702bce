/* campaign.h — running an engine on a target and keeping score.
 *
 * Owns: the engines' command lines (libFuzzer fork mode with -fork=N; AFL++ as one -M and
 * N-1 -S afl-fuzz instances: flags, dictionary, seeds, a working corpus, artifacts; the
 * target as a generated folder, OUT/target, and paths that survive a shell), their
 * child processes and output, progress lines (libFuzzer's status lines, AFL++'s
 * fuzzer_stats) with a windowed rate and the time left, also recorded in OUT/progress.tsv
 * (with the distinct signatures and holes), each new row of the table with the time it was
 * first seen and by which engine in OUT/finds.tsv, the words harvested for AFL++'s mutator
 * (OUT/afl-words), the end-of-run corpus merge (libFuzzer's
 * -merge=1, for both engines' finds), and the live table of distinct escapes: every crash input an engine writes is
 * replayed in this process as it appears (its recorded resolved chain, else decoded as the
 * fuzzer decoded it; a source target's, as the program it decodes to, run through its
 * evaluate) and folded by signature (and hole, when the caller names holes:
 * gc_campaign_opts.hole_of); one that does not escape is named with its cause; the
 * hybrid's first phase (gc_campaign_opts.presweep): the sweep's escapes in the table and its
 * frontier in the seeds before the engine starts, the sweep run in a forked child process.
 * Also crash findings (inputs that crash the target): an engine's own crash artifacts run
 * first in a fresh process, never in this one, and a crash there, or in the sweep's child
 * (then the sweep runs again without the node it was expanding), is folded into the table's
 * CRASH rows by where it crashed; the campaign goes on.  Used by `gatecrash fuzz` and by the fuzzing half of `gatecrash gate`. */
#ifndef GATECRASH_CAMPAIGN_H
#define GATECRASH_CAMPAIGN_H

#include "chain.h"
#include "eval.h"
#include "fsutil.h"
#include "session.h"

typedef enum { GC_ENGINE_LIBFUZZER, GC_ENGINE_AFL } gc_engine;

/* OUT/known-hangs: the confirmed hangs the campaign's fuzz_gate processes share (hangs.h,
 * --known-hangs), emptied when a campaign starts. */
#define GC_KNOWN_HANGS "known-hangs"

/* Where the hybrid's first phase hands its escapes (gc_campaign_opts.presweep). */
typedef struct {
    void (*found)(void *ctx, const gc_finding *f, const void *input, size_t len);
    void *ctx;
    /* the sweep's crash isolation (gc_sweep_opts.node_at, skip, nskip): set into its options */
    volatile long *node_at;
    const long *skip;
    int nskip;
    long *nodes; /* the nodes the sweep reached, set when it ends (0: no program it ran gave back a value to walk from) */
} gc_presweep_sink;

typedef struct {
    const gc_session_opts *target; /* absolute paths */
    gc_engine engine;
    const char *fuzzer;            /* fuzz_gate (libFuzzer) or fuzz_gate_afl binary */
    const char *merger;            /* fuzz_gate, for the end-of-run -merge=1 (NULL: no merge) */
    const char *corpus_out;        /* folder the merged, pruned corpus goes to */
    const char *afl_mutator;       /* AFL++ custom mutator library (NULL: AFL++'s own stages only) */
    const char *out;               /* output folder (absolute): crashes/, corpus/, scratch/, fuzz.log */
    const char *seeds;             /* read-only seed corpus folder */
    const char *dict;              /* dictionary file */
    long seconds, jobs, seed, runs; /* runs < 0: unbounded */
    int quiet;                     /* no progress lines */
    int no_harvest;                /* calls without harvested arguments (fuzz_gate --mutator=no-harvest; AFL++'s
                                    * mutator gets no word list): the benchmark's "fuzz as before" */
    /* The hole of an escape (triage/mode.h, its mode's campaign_hole), or NULL: with it, the
     * table folds crash inputs by signature and hole, so a signature two holes open shows
     * under both.  'input' is the escaping input as text: the escape's chain trimmed as the
     * table shows it, or the program; 'v' its verdict. */
    void (*hole_of)(void *ctx, gc_target *t, const char *input, const gc_verdict *v, char *hole, size_t len);
    void *hole_ctx;
    /* The hybrid's first phase (NULL: none), before the engine starts: a sweep of 't' that
     * deepens level by level within its budget (the CLI's: a part of 'seconds', which
     * cover the sweep and the engine).  As each level completes, it hands each new escape
     * (confirmed by the sweep, named by its hole) to sink->found with its crash input
     * (a source program's encoding; NULL: the finding's chain is the input): it is
     * reported at once as found by the sweep, folded into the table without running it
     * again, and saved as OUT/crashes/crash-sweep-NNNN, numbered in the order found.  Its
     * frontier (inputs reaching the objects of interest its deepest complete level
     * reached: chains, or a source target's program encodings, into 'frontier') joins the
     * seeds in OUT/seeds, which the engine reads instead of 'seeds'.  The CLI sets it to
     * sweep.h's sweep, or source_sweep.h's for a source target.  0 or an exit code. */
    int (*presweep)(void *ctx, gc_target *t, const gc_presweep_sink *sink, gc_inputs *frontier);
    void *presweep_ctx;
} gc_campaign_opts;

typedef struct {
    gc_finding *found;
    int nfound, cap;
    int reproduced, flaky;
    gc_strlist unreproduced; /* "crash file: why it did not escape here", one per flaky input */
    int flaky_new;           /* of the flaky ones, written during this campaign (its engine
                                saw them escape; an older file may be of a sandbox since fixed) */
    unsigned long execs, corpus;
    long elapsed;
    int engine_status; /* exit code of the engine, 128+signal when killed */
    char crashes[4096]; /* where crash inputs are: a folder, or a glob for AFL++'s instances */
    unsigned long merged; /* inputs in corpus_out after the merge */
    int swept;            /* escape inputs the sweep found (crash-sweep-NNNN, in 'reproduced' too) */
    int seeded;           /* frontier chains the sweep added to the seeds */
    double swept_s;       /* the sweep's seconds (the engine had 'seconds' less them) */
    long sweep_nodes;     /* the nodes the sweep reached (-1: no sweep ran) */
    gc_verdict_tally verdicts; /* the engine's inputs by verdict (its processes' tally lines) */
    /* Crash findings: inputs that crashed the target (a fatal signal or an abort in its code,
     * seen in a fresh process: timelimit.h), one row per place (signature crash:SIG:WHERE,
     * kind "crash", cap the signal, prim where), shortest input kept; never run in the
     * campaign's process, never minimized by hole. */
    gc_finding *crashed;
    int ncrashed, crash_cap, crash_inputs;
} gc_campaign_result;

/* Why a campaign that found nothing is no all-clear (NULL: it is one): over 10% of its engine's
 * inputs were inconclusive, its sweep reached no node (no program it ran gave a value
 * back: nothing ran as the host runs it), or an input its engine saw escape did not escape
 * when run alone (an escape that needs what earlier inputs left, as a host that runs
 * programs in one process would see it).  `fuzz` then exits 5 and `gate` is INCONCLUSIVE. */
const char *gc_campaign_undecided(const gc_campaign_result *r);

/* The execs/s of a progress line.  Engines report their counts in bursts (libFuzzer's
 * fork mode once per finished job, jobs of up to 300 s; AFL++ rewrites fuzzer_stats about
 * once a minute), so the rate is taken from the newest count back to the count seen at
 * least GC_RATE_WINDOW s before it (or the run's start): it moves only when new counts
 * arrive and always spans a window, never one poll interval.  Pure: times are seconds
 * since the run started. */
#define GC_RATE_WINDOW 30
#define GC_RATE_SAMPLES 16
typedef struct {
    long t[GC_RATE_SAMPLES];
    unsigned long n[GC_RATE_SAMPLES];
    int len;
} gc_rate;
/* Record the count 'execs' seen at time 't' (a count equal to the last one adds nothing). */
void gc_rate_add(gc_rate *w, long t, unsigned long execs);
unsigned long gc_rate_per_s(const gc_rate *w);
/* Seconds left of a run bounded by 'seconds' (0: no bound) and 'runs' (< 0: no bound) at
 * 'elapsed' s, 'execs' done, 'rate' execs/s; -1 when unbounded or not known yet. */
long gc_eta_s(long elapsed, long seconds, unsigned long execs, long runs, unsigned long rate);

/* "libfuzzer" or "afl" → engine; -1 for anything else. */
int gc_engine_parse(const char *name);
/* Validate paths and make the output folders.  0 or an exit code (message printed). */
int gc_campaign_prepare(const gc_campaign_opts *o);
/* Run the engine to the end.  't' is an open target (its own scratch) used to replay
 * crash inputs.  Returns 0, or an exit code when the engine could not run. */
int gc_campaign_run(gc_target *t, const gc_campaign_opts *o, gc_campaign_result *r);
/* The counts line and one line per crash input that did not reproduce, with its cause. */
void gc_campaign_print_head(const gc_campaign_result *r, const char *target_name);
/* The head, then one row per signature (the flat table, `fuzz --by signature`). */
void gc_campaign_print_table(const gc_campaign_result *r, const char *target_name);
void gc_campaign_result_free(gc_campaign_result *r);

#endif
