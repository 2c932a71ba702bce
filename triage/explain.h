/* explain.h — step-by-step account of an input for a maintainer (see explain.c): a chain's
 * every step, a program's one step (evaluate). */
#ifndef GATECRASH_EXPLAIN_H
#define GATECRASH_EXPLAIN_H

#include "eval.h"

/* Print every step and the verdict on stdout.  Returns GC_EXIT_ESCAPE, GC_EXIT_OK, or the
 * error code of a failed run. */
int gc_explain(gc_target *t, const gc_chain *c, gc_outcome *out);
/* A program that ran (its text 'src', verdict 'v', what evaluate gave back 'note'): the
 * program, what came back and the verdict, as gc_explain ends.  GC_EXIT_ESCAPE or
 * GC_EXIT_OK. */
int gc_explain_program(const gc_target *t, const char *src, const gc_verdict *v, const char *note);

#endif
