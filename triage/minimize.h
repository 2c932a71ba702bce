/* minimize.h — chain-level minimization of an escape.
 *
 * Owns: shrinking an escaping chain to the shortest chain that makes the same escape
 * (same kind, capability and primitive): dropping statements, deleting runs of trailers,
 * replacing a prefix by a shorter root that yields a value the rest still escapes from,
 * and preferring the shortest literal forms (.name over ['name'], fewer and shorter call
 * arguments).  Every candidate is evaluated for real, in a fresh namespace; the caller may
 * add a test that each adopted chain must pass too. */
#ifndef GATECRASH_MINIMIZE_H
#define GATECRASH_MINIMIZE_H

#include "eval.h"

typedef struct {
    int evaluations;     /* candidates run */
    int trailers_before; /* of the whole decoded input */
    int trailers_after;
} gc_min_stats;

/* A test every adopted chain must also pass (its escape holds outside this process: triage
 * runs its reproducer), or NULL.  1: keep it. */
typedef int (*gc_min_check)(void *ctx, const gc_chain *c, const gc_outcome *o);

/* 'in' must escape.  On success returns 0 and fills 'best' (resolved, trimmed) and
 * 'best_out' (its outcome, whose signature is the case's).  -1 if 'in' does not escape,
 * -2 if 'check' refuses even the starting chain.  With 'check', a smaller candidate that
 * fails it is passed over and shrinking goes on from the longer chain. */
int gc_minimize(gc_target *t, const gc_chain *in, gc_chain *best, gc_outcome *best_out, gc_min_stats *st,
                gc_min_check check, void *check_ctx);

#endif
