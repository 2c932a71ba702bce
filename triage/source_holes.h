/* source_holes.h — holes of source targets: the rule of holes.h on a program's walk.
 *
 * Owns: naming the hole of an escaping program (the walk of its final expression, each
 * prefix evaluated through evaluate, the first edge gc_hole_edge names), and `sweep` by
 * hole on a source target (source_sweep.h's walk with holes.h's edge rule, one row per
 * weakness, or per hole with o->by_root).  The rule itself, the rows and their forms are holes.h's. */
#ifndef GATECRASH_SOURCE_HOLES_H
#define GATECRASH_SOURCE_HOLES_H

#include "holes.h"
#include "source_sweep.h"

/* The hole of an escaping program (source text, as evaluate runs it): the program run
 * once under the oracles, then its final expression's walk (root, then each `.name`,
 * `[key]`, call, and getattr(x, 'name') as `.name`) evaluated prefix by prefix through
 * evaluate, the statements before it kept; the first edge on it that gc_hole_edge names,
 * with what the roots give back as the namespace.  0 and 'name' filled when it escapes
 * ("" when no edge of the walk is a hole: a final expression that is no walk, or a prefix
 * the sandbox will not give back; then the statement before the final one is tried the
 * same way, its prefixes the program up to it, and so on back), -1 when it does not escape, or an exit code (err). */
int gc_source_hole_of_program(gc_target *t, const char *src, size_t len, gc_verdict *out, char *name,
                              size_t namelen, char *err, size_t errlen);

/* `sweep` by hole on a source target: gc_source_sweep with the hole rule (the holes in
 * 'closed', NULL or NULL-terminated, closed: gc_holes_sweep_setup), then its report
 * (gc_holes_sweep_print) by weakness (gc_holes_group_weakness), by hole with o->by_root,
 * and with holes closed what closing each means.  0 or an exit code; *out (when not NULL)
 * as gc_source_sweep gives it. */
int gc_source_holes_sweep(gc_target *t, gc_sweep_opts *o, const char *const *closed, gc_sweep_stats *st,
                          gc_source_graph **out);

#endif
