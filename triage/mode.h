/* mode.h — the two modes behind every command, each one table of operations.
 *
 * Owns: what a command does with a target of either kind, as one table per mode — chain
 * mode for gate targets (chains over a namespace), source mode for source targets
 * (programs through an adapter): what its inputs are called, where its seeds and engine
 * binaries are, its sweep's depths and time bounds; running a saved case or crash input
 * (the verdict, the input as text, what came back, the case's header), the hole of the
 * escape just run, the sweep from the roots (by hole or flat) and its findings and
 * frontier, a crash input's triage, `explain`, naming a campaign's escape by its hole, the
 * campaign's table; and, for what a mode cannot do, the one line that says so (NULL: it
 * can).  Commands (cli/) and the release gate (gate.c) go through the table and never
 * branch on the target's kind. */
#ifndef GATECRASH_MODE_H
#define GATECRASH_MODE_H

#include "campaign.h"
#include "replay.h"
#include "triage.h"
#include "verdict.h"

/* One input run by a mode. */
typedef struct {
    gc_verdict v;
    gc_strbuf input;    /* as it ran: the escape's chain on one line (the whole chain when it
                           did not escape), or the program's text */
    gc_strbuf ran;      /* what ran, cut after the escaping step: the input a plain interpreter
                           confirms (confirm.h); a chain's statements the escape's chain leaves
                           out ran too, and their effects (state they changed) may be its */
    int size;           /* the input's size (verdict.h gc_finding.size) */
    char note[256];     /* what came back when it did not escape ("12 steps, 3 failed",
                           "returned int", "refused by the sandbox: ...") */
    gc_case_header hdr; /* a saved case's header lines ("" when it has none) */
} gc_run;
void gc_run_free(gc_run *r);

typedef struct gc_mode_ops {
    const char *name;       /* "chain" | "source" */
    const char *input;      /* what one input is: "chain" | "program" */
    const char *inputs;     /* what a case file is: "chain file" | "program (*.py)" */
    const char *case_ext;   /* the release gate's case files: ".chain" | ".py" */
    const char *fuzzer;     /* the libFuzzer target beside gatecrash */
    const char *fuzzer_afl; /* the AFL++ target, NULL: none (no_afl says why) */
    const char *seeds;      /* the repository's seed folder (under GATECRASH_SOURCE_DIR) */
    int sweep_depth;        /* `sweep`'s default depth */
    int presweep_depth;     /* the campaign's opening sweep's default depth (it deepens to it) */
    long presweep_seconds;  /* the floor of its budget */
    double presweep_share;  /* its budget: this share of the campaign's --time */
    /* The inputs a FILE|DIR argument holds, appended to 'out' (a folder's chain files, or
     * its programs).  0, or -1 when it is unreadable. */
    int (*collect)(const char *arg, gc_strlist *out);
    /* 'path' (a case file, or with 'raw' a crash input decoded) run into r (its input
     * reset first).  0 when it ran; -1 unreadable or no input (one line in 'why'); or an
     * exit code when the evaluator could not run it. */
    int (*replay)(gc_target *t, const char *path, int raw, gc_run *r, char *why, size_t whylen);
    /* The hole of r's escape, r the last input replay ran ("" when not named). */
    void (*hole)(gc_target *t, const gc_run *r, char *hole, size_t len);
    /* The sweep from the roots, by hole (the default; 'closed' holes closed, NULL-terminated)
     * or flat by signature; its report printed unless o->no_report.  By hole or with holes
     * closed, the caller has set 'o' up with gc_holes_sweep_setup (holes.h), whose names
     * outlive the graph.  0 or an exit code; with
     * 0 and 'graph', *graph is the sweep's graph (the mode's: chain/sweep.h's gc_sweep_graph,
     * source_sweep.h's gc_source_graph), which the caller frees with sweep_free, else NULL.
     * o->level is handed the same graph while it grows. */
    int (*sweep)(gc_target *t, gc_sweep_opts *o, int by_hole, const char *const *closed, gc_sweep_stats *st,
                 void **graph);
    /* A sweep's escapes (malloc'd) and, as inputs its fuzzer reads, the escapes' (one per
     * finding, or none when the findings' text is the input) and its frontier's. */
    int (*sweep_findings)(const void *graph, gc_finding **out);
    void (*sweep_inputs)(const void *graph, gc_inputs *escapes, gc_inputs *frontier, int max);
    void (*sweep_free)(void *graph);
    /* One crash input minimized, de-duplicated and saved as a case. */
    void (*triage_one)(gc_target *t, const gc_triage_opts *o, const char *path, gc_triage_summary *sum);
    /* `explain FILE`: the input step by step and the verdict.  The exit code. */
    int (*explain)(gc_target *t, const char *path, int raw);
    /* A campaign's escape named by its hole (gc_campaign_opts.hole_of). */
    void (*campaign_hole)(void *ctx, gc_target *t, const char *input, const gc_verdict *v, char *hole, size_t len);
    /* A row's shortest input minimized keeping its hole, in place (NULL: kept as found). */
    void (*minimize_row)(gc_target *t, const char *hole, char *input, size_t cap);
    /* What it cannot do: one line each, NULL when it can. */
    const char *no_afl, *no_save, *no_close, *no_advise;
} gc_mode_ops;

extern const gc_mode_ops gc_chain_mode, gc_source_mode;
/* The mode of a target of kind 'kind' (target.h GC_TARGET_*). */
const gc_mode_ops *gc_mode_ops_of(int kind);

/* The campaign's options for t's mode: its hole naming (hole_of). */
void gc_mode_campaign(const gc_mode_ops *m, gc_campaign_opts *c);

#endif
