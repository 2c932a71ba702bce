/* sweep.h — the second engine: an exhaustive, deterministic, bounded breadth-first walk of
 * everything reachable from what the gate hands out.
 *
 * Owns: the object graph search (a node is an object, visited once by identity and kept
 * alive; edges are dir() names, mapping keys, sequence and set elements, and a documented
 * set of safe calls), its bounds, and its report: for every forbidden primitive reached,
 * the shortest chain, confirmed by replaying it like any fuzz input.  With a hole rule
 * (gc_sweep_opts.hole, from triage/holes.h) it walks each hole's region whole and removes
 * the edges of closed holes (`sweep --close`); it names no hole itself. */
#ifndef GATECRASH_SWEEP_H
#define GATECRASH_SWEEP_H

#include "campaign.h"
#include "eval.h"

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
    void (*save)(void *ctx, gc_target *t, const gc_chain *c, const gc_outcome *out);
    void *save_ctx;
    /* Holes (triage/holes.h names them): called for every edge src --kind, key--> dst, src
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
    int no_report;      /* print no report (the caller prints gc_sweep_findings its way) */
} gc_sweep_opts;

typedef struct {
    long nodes, edges;
    long cut_depth;     /* nodes at the depth bound, not expanded */
    long cut_nodes;     /* edges whose values were not queued: max-nodes reached */
    long cut_items;     /* containers with more than GC_SWEEP_MAX_ITEMS elements */
    int cut_time;       /* the time bound stopped the walk */
    long cut_limit;     /* nodes whose expansion the per-input time limit stopped (gate code that
                           sleeps or loops): their remaining edges are not taken */
    int escapes;        /* distinct signatures */
} gc_sweep_stats;

/* Sweep; prints the report on stdout (byte-identical for the same target, policy and
 * bounds unless cut by time) and progress on stderr.  Returns 0, or an exit code. */
int gc_sweep(gc_target *t, const gc_sweep_opts *o, gc_sweep_stats *st);

/* The hybrid campaign's seeds: the chains (one line each, newline-terminated, added to 'chains' unless there,
 * at most 'max') to the last sweep's objects of interest, in walk order (shortest first):
 * gate functions, function globals and module dicts, frames and tracebacks, real modules,
 * classes' non-empty __subclasses__() lists, the exceptions calls raised.  Returns how many were added. */
int gc_sweep_frontier(gc_strlist *chains, int max);

/* The escapes of the last sweep (malloc'd), as the release gate's report and the hybrid campaign
 * (gc_campaign_opts.presweep) take them. */
int gc_sweep_findings(gc_finding **out);

#endif
