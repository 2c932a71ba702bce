/* verdict.h — what both modes report, in types that belong to neither.
 *
 * Owns: the verdict of one input (escaped or not, the escape the oracles saw, its
 * signature, the harness's refusal, the limits that stopped it, the state repairs after
 * it) and which of the three verdicts it is (escape, blocked, inconclusive), an engine
 * process's tally of its inputs by verdict, a finding (one escape as a campaign's or a sweep's table holds it), inputs as bytes
 * (the hybrid's seeds and frontier), a sweep's options and counts, and the level loop both
 * sweeps walk (iterative deepening within a budget).  Chain mode's
 * outcome (eval.h) is a verdict plus the chain it ran; source mode's is the verdict alone.
 * Everything here knows targets and the oracles, nothing of chains or programs. */
#ifndef GATECRASH_VERDICT_H
#define GATECRASH_VERDICT_H

#include <Python.h>
#include <cjson/cJSON.h>

#include "edge.h"
#include "oracle.h"
#include "strbuf.h"
#include "target.h"

/* The verdict's members, once: gc_verdict is them, and a mode's outcome embeds them as a
 * gc_verdict named 'verdict' whose members are also its own (an anonymous struct in a
 * union, as the Linux kernel's struct_group does), so o->escaped and o->verdict are the
 * same storage and &o->verdict is what mode-neutral code takes. */
#define GC_VERDICT_MEMBERS                                                                          \
    int escaped;                                                                                    \
    gc_escape escape;                                                                               \
    unsigned bridges;       /* bridges crossed on the way to the escape (eval.h GC_BR_*) */          \
    char signature[256];                                                                            \
    int steps;                                                                                      \
    char refused[96];       /* last harness refusal, if any */                                       \
    int state_repairs;      /* interpreter state repaired after this input */                        \
    int timed_out;          /* stopped by the per-input time limit (timelimit.c): not an escape */  \
    int oom;                /* stopped by the per-input memory limit (timelimit.c): not an escape */ \
    int thread_stopped;     /* a thread it started outlived it and was stopped (state.c): a limit */ \
    int known_hang;         /* ended before a step the evaluator was told not to run (timed_out too) */ \
    char state_note[256];

typedef struct {
    GC_VERDICT_MEMBERS
} gc_verdict;

/* The three verdicts of one input (docs/ORACLES.md, "Three verdicts"): it escaped; it was
 * blocked (the sandbox refused it, or it ran and reached nothing); or it is inconclusive
 * (the harness did not see it run as its host runs it, so it says neither): a limit cut it
 * (time, memory, a thread it started stopped), or, on a source target, the harness refused
 * a call during it (the adapter, the sandbox or the program called what the harness never
 * runs, and what would have followed was not seen).  A chain's refused step is blocked:
 * the chain is the fuzzer's, and its refused call is judged before it is refused. */
typedef enum { GC_VERDICT_ESCAPE, GC_VERDICT_BLOCKED, GC_VERDICT_INCONCLUSIVE } gc_verdict_kind;
/* v's verdict on target t; when inconclusive, its cause in why (may be NULL) as a short
 * phrase ("refused by the harness: sys.addaudithook", "time limit", "memory limit",
 * "thread stopped"). */
gc_verdict_kind gc_verdict_of(const gc_target *t, const gc_verdict *v, char *why, size_t whylen);
/* "escape" | "blocked" | "inconclusive" */
const char *gc_verdict_word(gc_verdict_kind k);

/* An engine process's inputs by verdict, the inconclusive ones by cause (the fuzz targets
 * count them; a campaign adds up each process's line in its job stats file, campaign.h). */
#define GC_TALLY_CAUSES 8
#define GC_TALLY_PREFIX "gatecrash: verdicts: "
typedef struct {
    unsigned long inputs, inconclusive;
    int ncauses;                         /* the last is "other" once they are GC_TALLY_CAUSES */
    char cause[GC_TALLY_CAUSES][128];
    unsigned long count[GC_TALLY_CAUSES];
} gc_verdict_tally;
/* One input of target t counted. */
void gc_tally_input(gc_verdict_tally *y, const gc_target *t, const gc_verdict *v);
/* The tally as one line: GC_TALLY_PREFIX "N inputs, M inconclusive" then "\tCAUSE\tK" per
 * cause, "\n". */
void gc_tally_line(const gc_verdict_tally *y, char *out, size_t n);
/* The tally's line on stderr, and appended in one write to 'stats_file' (NULL: not). */
void gc_tally_emit(const gc_verdict_tally *y, const char *stats_file);
/* Every tally line of file 'path' added to y (a missing file: nothing).  Returns how many. */
int gc_tally_read(gc_verdict_tally *y, const char *path);
/* A campaign's last lines on f: its inputs, the share inconclusive and the top causes, and a
 * plain warning when it is above 10%.  Nothing when no input was counted. */
void gc_tally_print(const gc_verdict_tally *y, FILE *f);

/* One escape as the tables hold it. */
typedef struct gc_finding_s {
    char sig[256];
    char chain[1024]; /* shortest input seen, as text (a chain, or a source program) */
    char kind[16], cap[16], prim[96];
    char first[128];  /* crash file that first showed it */
    int count;
    char hole[160];   /* its hole (triage/holes.h), "" when not named */
    char detail[256]; /* the oracle's words on it (gc_escape.detail) */
    int size;         /* the input's size: a chain's trailers, a program's statements */
} gc_finding;

/* Inputs as bytes (a source program's encoding may hold NUL bytes): the hybrid's seeds. */
typedef struct {
    unsigned char **v;
    size_t *len;
    int n, cap;
} gc_inputs;
void gc_inputs_add(gc_inputs *l, const void *data, size_t len);
void gc_inputs_free(gc_inputs *l);

struct gc_chain_s;
struct gc_outcome_s;

#define GC_SWEEP_MAX_ITEMS 512 /* elements / keys walked per container */
#define GC_SWEEP_INSIDE 0x7fffffff
#define GC_SWEEP_ANYWHERE 0x40000000 /* or'd into a hole any object reaches: it replaces the path's */

typedef struct {
    int depth;          /* trailers from a root */
    long max_nodes;
    long seconds;       /* 0: no time bound */
    int json;
    int quiet;          /* no progress lines */
    /* Called after the report for each escape, in report order (NULL: report only): `sweep
     * --save` saves them as cases through triage (the layer above, triage.h). */
    void (*save)(void *ctx, gc_target *t, const struct gc_chain_s *c, const struct gc_outcome_s *out);
    /* The same for a source target's escapes (source_sweep.h): each program's text. */
    void (*save_program)(void *ctx, gc_target *t, const char *program);
    void *save_ctx;
    /* Holes (triage/holes.h names them): called for every edge src --kind (edge.h), key--> dst, src
     * having been reached from 'from' by 'from_key' (from NULL: src is the root from_key;
     * src NULL: dst is the root 'key'), 'ns' the namespace; returns the hole the edge opens
     * (> 0), 0 for none, GC_SWEEP_INSIDE when dst is back inside what the gate hands out
     * (the path's hole ends there), a hole | GC_SWEEP_ANYWHERE when any object reaches it
     * (it replaces the hole the path went through), or minus the hole when it is closed (`--close`: the
     * edge is not taken where its source is something the gate hands out).  With it, an object is a node once per hole its path
     * went through (a hole's region is walked whole, not shadowed by another's), and
     * escapes are kept per signature and hole.  NULL: no holes, one node per object. */
    int (*hole)(void *ctx, PyObject *ns, PyObject *from, PyObject *from_key, PyObject *src, int kind, PyObject *key,
                PyObject *dst);
    const char *(*hole_name)(void *ctx, int hole);
    void *hole_ctx;
    int no_report;      /* print no report (the caller prints the findings its way) */
    int exhaustive;     /* a source sweep runs every edge's program through the sandbox (the
                           walk before the host-side search; source_sweep.h) */
    int by_root;        /* a source sweep by hole: one row per hole (its root), not per
                           weakness (triage/weakness.h) */
    /* Iterative deepening.  Both sweeps walk level by level (gc_sweep_levels): level L
     * expands what level L-1 queued (level 1: the roots), and once it is complete every
     * input of at most L trailers has been run.  'level' (NULL: none) is called after each
     * complete level up to 'depth' (complete 1; level 1 also when the roots queued nothing,
     * every one escaping: the walk is whole then), handed the sweep's graph as it is then
     * (gc_sweep_walker.graph: chain/sweep.h's gc_sweep_graph, source_sweep.h's
     * gc_source_graph, whose findings calls read it), and once more after the walk when a bound
     * cut a level short (complete 0, its level the one cut), before the findings are sorted:
     * the findings so far are in the order found.  The source sweep also calls it in the
     * middle of a level (complete -1) when a burst of work there found escapes (the host
     * walks that waited for a resolver), so a campaign has them before the level ends.  With budget > 0 the walk stops at
     * 'budget' seconds, and a level starts only when its projected time (the level
     * before's, scaled by how many more nodes this one has) ends within it. */
    void (*level)(void *ctx, const void *graph, int level, int complete);
    void *level_ctx;
    double budget;
    /* Crash isolation (a campaign's sweep, run in a child process: campaign.c): the node
     * about to be expanded is written to *node_at (shared memory; NULL: not written), and the
     * nodes in skip[] (those whose expansion crashed the target in an earlier try of the same
     * sweep, which walks its nodes in the same order) are not expanded.  gc_sweep_skips. */
    volatile long *node_at;
    const long *skip;
    int nskip;
} gc_sweep_opts;

typedef struct {
    long nodes, edges;
    long cut_depth;     /* nodes at the depth bound, not expanded */
    long cut_nodes;     /* edges whose values were not queued: max-nodes reached */
    long cut_items;     /* containers with more than GC_SWEEP_MAX_ITEMS elements */
    int cut_time;       /* the time bound, or a stop asked for (gc_limits_stop), stopped the walk */
    double stopped_at;  /* then: when, in seconds from the sweep's start */
    int stop_signal;    /* then: the signal that asked (SIGINT, SIGTERM), 0: the time bound */
    long cut_limit;     /* nodes whose expansion the per-input time limit stopped (gate code that
                           sleeps or loops): their remaining edges are not taken */
    int escapes;        /* distinct signatures */
    int levels;         /* levels complete (gc_sweep_levels) */
    int cut_budget;     /* a level not started: its projected time ran past gc_sweep_opts.budget */
    long host_nodes;    /* of the nodes, the source sweep's host walks' objects (no program gave
                           them back) */
    /* the source sweep's host-side search (source_sweep.h): edges the host answered by the
     * learned rules, programs run to learn them (probes) and to check them (sampled
     * confirmations), and the checks that found a rule wrong (each re-learned) */
    long host_answered, probes, confirms, mismatches;
} gc_sweep_stats;

/* A sweep's counts, the end of its summary line: "N nodes, M edges; not expanded: ...\n". */
void gc_sweep_print_counts(const gc_sweep_stats *st);

/* The level loop of both sweeps.  A sweep's queue is breadth first: 'queued' gives its
 * length, and 'walk' expands its nodes [from, to), queuing theirs, until it is done, or a
 * bound (gc_sweep_out_of_time) sets st->cut_time, or it fails (an exit code, returned).
 * 'start' is when the sweep started (gc_now_s: its budget's).  Calls o->level as
 * gc_sweep_opts says; *complete_end: the queue's length when the last
 * complete level ended (what a frontier takes: the nodes a cut level queued are left out).
 * 'work' (NULL: a level's work is its node count) estimates the inputs nodes [from, to)
 * will run, for the budget's projection: a level of many cheap nodes (scalars, values with
 * few attributes) after one of a few large ones (modules) is not projected as long. */
typedef struct {
    long (*queued)(void *ctx);
    int (*walk)(void *ctx, long from, long to);
    void *ctx;
    long (*work)(void *ctx, long from, long to);
    const void *graph; /* the sweep's graph, what o->level is handed */
} gc_sweep_walker;
int gc_sweep_levels(const gc_sweep_opts *o, gc_sweep_stats *st, const gc_sweep_walker *w, double start,
                    long *complete_end);
/* Node i about to be expanded: written to o->node_at; 1 when it is one of o->skip[]. */
int gc_sweep_skips(const gc_sweep_opts *o, long i);
/* A walk started at 'start' (gc_now_s) is out of time at 'now': past o->seconds or o->budget,
 * or a stop was asked for (timelimit.h gc_limits_stop: `sweep`'s SIGINT/SIGTERM). */
int gc_sweep_out_of_time(const gc_sweep_opts *o, double start, double now);
/* The sweep's time bound (o->seconds, o->budget, from 'start') as the run's stop moment
 * (timelimit.h gc_limits_stop_at), so that an input still running then is interrupted too;
 * start 0: no moment again (the sweep's end).  Nothing when o has no bound. */
void gc_sweep_bound(const gc_sweep_opts *o, double start);

/* A value both sweeps make a node of only when nothing else holds it: a bound method, a
 * builtin bound to an object that is not a module, a method-wrapper (each access makes a
 * new one, so identity says nothing about it). */
int gc_sweep_transient(PyObject *v);

/* ---- an escape's text forms: one of each, for every command and both modes ----
 * 'input' is the escaping input as text: a chain on one line, or a source target's
 * program (its lines as they are). */

/* 'input' on one line, appended: its lines joined by 'sep' (GC_LINE_SEP, as the tables and
 * the escape line show a program), those that are blank or only a comment (a case file's
 * '#' header) left out. */
#define GC_LINE_SEP " \\n "
void gc_input_oneline(const char *input, const char *sep, gc_strbuf *out);
/* "gatecrash: ESCAPE <kind> <capability> <primitive> via <input> (<detail>)", a program's
 * lines joined by " \\n " (as the tables show it), no parentheses when the oracle gave no
 * detail: the one escape line. */
void gc_escape_text(const gc_verdict *v, const char *input, gc_strbuf *out);
/* The one escape JSON object (caller deletes), the same keys in every output of both
 * modes: kind, capability, primitive, signature, detail, hole ("" when not named), input,
 * size (a chain's trailers, a program's statements), target, policy. */
cJSON *gc_escape_object(const gc_target *t, const gc_verdict *v, const char *input, int size, const char *hole);
/* A source program's size: its lines (of text[0..len)) that hold more than white space. */
int gc_program_size(const char *text, size_t len);
/* The same object for a finding (a table's row). */
cJSON *gc_finding_object(const gc_target *t, const gc_finding *f);

/* The one sweep report of both modes, for findings f[0..n) in report order (by capability,
 * then signature): with o->json one JSON line (gc_sweep_json), else one line per escape
 * under its capability and the counts line. */
void gc_sweep_report(const gc_target *t, const gc_sweep_opts *o, const gc_sweep_stats *st, const gc_finding *f, int n);
/* The sweep's JSON object (caller deletes): target, policy, depth, max_nodes, nodes, edges,
 * cut {depth, max_nodes, items, time, time_limit}, escapes [gc_finding_object]. */
cJSON *gc_sweep_json(const gc_target *t, const gc_sweep_opts *o, const gc_sweep_stats *st, const gc_finding *f, int n);

#endif
