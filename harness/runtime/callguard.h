/* callguard.h — the C-call guard's hook: every call of a primitive C function.
 *
 * Owns: a libffi closure put in place of the C entry point (ml_meth) of every primitive in
 * the oracle table that is a C function or a method descriptor, placed after the table is
 * loaded and on the definitions of rows bound later (oracle.h: gc_oracle_bound_hook), and
 * the one judge those closures consult; os.open's results and os.close's argument (the
 * input's own descriptors, oracle.h).  A closure sees each call of its
 * primitive before the function runs, whoever makes it: Python code, C code (map(f, ...),
 * sorted(key=f), a finalizer), through any function object or bound method made from the
 * same definition, on any thread.  No other call pays anything: no profile function, no
 * sys.monitoring event, no instrumented code.  Its user is source/source.c (the judge is
 * set while an input's evaluate runs); with no judge every call runs on.  Also: noted calls
 * (gc_callguard_note), state.c's cheap change signals. */
#ifndef GATECRASH_CALLGUARD_H
#define GATECRASH_CALLGUARD_H

#include <stddef.h>

#include "oracle.h"

/* 0: the call runs; -1: refused, with the exception set (the call gives NULL). */
typedef int (*gc_callguard_judge_fn)(const gc_prim *p);
extern gc_callguard_judge_fn gc_callguard_judge;

/* After gc_oracle_load_table: the closures, once (later calls do nothing).  0, or -1 with
 * one line in err (libffi could not make a closure, or a definition is read-only). */
int gc_callguard_place(char *err, size_t errlen);

/* How many primitive definitions are guarded (the self-test checks one). */
int gc_callguard_count(void);

/* Every later call of fn (a C function object), from Python or C, on any thread, sets *flag
 * before it runs: a change signal for state that gives none of its own and costs a walk to
 * compare (state.c: the gc freeze count, sys.monitoring's tools), through the same kind of
 * closure in the definition's entry point (its hash moves with it, as a guarded one's).
 * 0, or -1 (not a C function, unknown METH_ flags, a read-only definition, libffi). */
#define GC_CALLGUARD_MAX_NOTES 16
int gc_callguard_note(PyObject *fn, volatile int *flag);

#endif
