/* source_sweep.h — the sweep of source targets: short programs over the roots, breadth first.
 *
 * Owns: the source mode of the graph walker (runtime/walk.h: the graph, the findings, the
 * levels, the closing of holes are its), that is the enumeration of programs in the program IR (program.h), printed in the target's
 * dialect and run through its evaluate like any input (source.h), their bounds and
 * order; the host-side search that answers an edge's program in the host where a rule
 * learned from the sandbox's own answers says what it gives (probes, sampled confirmations,
 * an escape always run; gc_sweep_opts.exhaustive runs every edge instead); the report (for every forbidden primitive reached, the shortest program,
 * confirmed by running it again), the hybrid's seeds from it (its escapes and its
 * frontier as program encodings), and what the hole rule of the layer above needs from a
 * source target: the value a program gives back, kept, and the roots' values.  A node is
 * a program whose returned value is new (by identity, kept alive); its edges are programs
 * one trailer longer (source_sweep.c lists them).  Holes are named through
 * gc_sweep_opts.hole exactly as the namespace sweep (chain/sweep.h) does; it names none itself.
 * A sweep's graph, findings and frontier are its caller's (gc_source_graph), as chain/sweep.h's. */
#ifndef GATECRASH_SOURCE_SWEEP_H
#define GATECRASH_SOURCE_SWEEP_H

#include "json.h"
#include "source.h"
#include "verdict.h"

/* One source sweep's graph, findings and frontier, as chain/sweep.h's gc_sweep_graph:
 * handed to its caller, read by the calls below, freed by gc_source_sweep_free. */
typedef struct gc_source_graph gc_source_graph;

/* Sweep a source target with o's bounds (depth: trailers after a root; max_nodes; seconds)
 * and, when set, o->hole.  Prints the report like gc_sweep unless o->no_report (the programs
 * in place of chains; o->save_program, not o->save, is handed each escape's program after
 * it) and progress on stderr.  0 or an exit code; with
 * 0 and 'out', *out is the sweep's graph (the caller frees it), else NULL. */
int gc_source_sweep(gc_target *t, const gc_sweep_opts *o, gc_sweep_stats *st, gc_source_graph **out);
void gc_source_sweep_free(gc_source_graph *g);

/* g's escapes, as gc_sweep_findings gives them (chain: the program, on one line; malloc'd). */
int gc_source_sweep_findings(const gc_source_graph *g, gc_finding **out);

/* The depth `sweep` takes on a source target by default: the generator's frame root needs
 * four trailers to the host's builtins (f_back three times, then f_builtins). */
#define GC_SOURCE_SWEEP_DEPTH 4

/* g's escapes as program encodings (the bytes fuzz_source and `replay --raw` decode), in
 * gc_source_sweep_findings' order, appended to 'out'. */
void gc_source_sweep_inputs(const gc_source_graph *g, gc_inputs *out);

/* g's frontier: the encoding of the program reaching each distinct value its complete
 * levels reached (its nodes, breadth first, at most 'max'), appended to 'out'. */
void gc_source_sweep_frontier(const gc_source_graph *g, gc_inputs *out, int max);


/* Can the dialect write `name` (a root, or `.name`)?  An identifier of at most GC_P_MAX_STRLEN
 * ASCII bytes, no keyword, and with "no_underscore" not starting with '_'. */
int gc_source_writable(const gc_target *t, PyObject *name);

/* What the sandbox hands out: {root name: the value the program naming it gives back}, for
 * each name of roots() the dialect can write (a new reference; NULL with err filled). */
PyObject *gc_source_roots_ns(gc_target *t, char *err, size_t errlen);

/* What a lookup of a name each root lacks gives back (AttributeError.obj after
 * 'ROOT.gatecrash', run through evaluate as any program): {root name: that value} for the
 * roots of 'roots' (gc_source_roots_ns's) whose readback is another object than the root (a
 * view, a proxy or a lazy module forwarded the lookup to what it wraps).  Empty in the
 * expression dialect (no try).  A new reference, NULL when out of memory. */
PyObject *gc_source_readbacks_ns(gc_target *t, PyObject *roots);

#endif
