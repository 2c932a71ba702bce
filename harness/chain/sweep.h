/* sweep.h — the second engine: an exhaustive, deterministic, bounded breadth-first walk of
 * everything reachable from what the gate hands out.
 *
 * Owns: the gate mode of the graph walker (runtime/walk.h, which keeps the graph, each
 * object once per hole and kept alive, the findings and the levels): its roots (the
 * namespace's names), a node's edges (dir() names, mapping keys, sequence and set elements,
 * and a documented set of safe calls), and its confirmation of a finding (the chain
 * replayed like any fuzz input); the report: for every forbidden primitive reached, the
 * shortest chain.  With a hole rule (gc_sweep_opts.hole, from triage/holes.h) the walker
 * walks each hole's region whole and removes the edges of closed holes (`sweep --close`);
 * it names no hole itself.  A sweep's graph,
 * findings and frontier are its caller's (gc_sweep_graph): nothing is kept between sweeps. */
#ifndef GATECRASH_SWEEP_H
#define GATECRASH_SWEEP_H

#include "eval.h"
#include "fsutil.h"
#include "verdict.h"

/* One sweep's graph, its findings and frontier: what gc_sweep hands its caller, read by
 * gc_sweep_findings and gc_sweep_frontier, freed by gc_sweep_free.  Nothing of a sweep is
 * kept anywhere else: two sweeps, interleaved or one after the other, are each their own. */
typedef struct gc_sweep_graph gc_sweep_graph;

/* Sweep; prints the report on stdout (byte-identical for the same target, policy and
 * bounds unless cut by time) and progress on stderr.  Returns 0, or an exit code; with 0 and
 * 'out', *out is the sweep's graph (the caller frees it), else NULL.  o->level is handed it
 * as it grows (its findings so far, in the order found). */
int gc_sweep(gc_target *t, const gc_sweep_opts *o, gc_sweep_stats *st, gc_sweep_graph **out);

/* The hybrid campaign's seeds: the chains (one line each, newline-terminated, added to 'chains' unless there,
 * at most 'max') to the objects of interest of g's complete levels (gc_sweep_levels), in walk order (shortest first):
 * gate functions, function globals and module dicts, frames and tracebacks, real modules,
 * classes' non-empty __subclasses__() lists, the exceptions calls raised.  Returns how many were added. */
int gc_sweep_frontier(const gc_sweep_graph *g, gc_strlist *chains, int max);

/* g's escapes (malloc'd), as the release gate's report and the hybrid campaign
 * (gc_campaign_opts.presweep) take them: in report order once the sweep is done, in the
 * order found while it runs. */
int gc_sweep_findings(const gc_sweep_graph *g, gc_finding **out);

void gc_sweep_free(gc_sweep_graph *g);

#endif
