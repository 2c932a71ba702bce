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

#include "eval.h"
#include "fsutil.h"
#include "verdict.h"

/* Sweep; prints the report on stdout (byte-identical for the same target, policy and
 * bounds unless cut by time) and progress on stderr.  Returns 0, or an exit code. */
int gc_sweep(gc_target *t, const gc_sweep_opts *o, gc_sweep_stats *st);

/* The hybrid campaign's seeds: the chains (one line each, newline-terminated, added to 'chains' unless there,
 * at most 'max') to the objects of interest of the last sweep's complete levels (gc_sweep_levels), in walk order (shortest first):
 * gate functions, function globals and module dicts, frames and tracebacks, real modules,
 * classes' non-empty __subclasses__() lists, the exceptions calls raised.  Returns how many were added. */
int gc_sweep_frontier(gc_strlist *chains, int max);

/* The escapes of the last sweep (malloc'd), as the release gate's report and the hybrid campaign
 * (gc_campaign_opts.presweep) take them. */
int gc_sweep_findings(gc_finding **out);

#endif
