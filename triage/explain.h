/* explain.h — step-by-step account of a chain for a maintainer (see explain.c). */
#ifndef GATECRASH_EXPLAIN_H
#define GATECRASH_EXPLAIN_H

#include "eval.h"

/* Print every step and the verdict on stdout.  Returns GC_EXIT_ESCAPE, GC_EXIT_OK, or the
 * error code of a failed run. */
int gc_explain(gc_target *t, const gc_chain *c, gc_outcome *out);

#endif
