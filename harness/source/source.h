/* source.h — source-mode targets: sandboxes that take Python source text.
 *
 * Owns: running one program through a source target's evaluate (bound by adapter.h) under
 * the oracles: the C-call guard (a profile function that checks every C-level call before
 * it runs), the bounded search of the returned value for forbidden primitives and of what
 * the program holds (its namespaces: program_ns.h, or the adapter's namespace()), and what
 * came back (a value, the sandbox's own refusal, another exception).  Around each evaluate
 * the sandbox's line trace of source_feedback.h runs, and the outcome goes to it (both
 * no-ops until fuzz_source starts them). */
#ifndef GATECRASH_SOURCE_H
#define GATECRASH_SOURCE_H

#include <Python.h>

#include "verdict.h"
#include "target.h"

/* How deep and how wide the returned value is searched (containers, exception attributes). */
#define GC_SOURCE_SEARCH_DEPTH 6
#define GC_SOURCE_SEARCH_NODES 4096

/* Is the line feedback a sys.monitoring tool's events (3.12+, a tool id free and its
 * callbacks registered), not a trace function?  Registers them the first time, as the
 * first gc_source_run does. */
int gc_source_monitored(void);

/* One program through evaluate, under the oracles, time limits and state check.  'note'
 * says what came back ("returned int", "refused by the sandbox: …", "raised …").  Returns
 * 0, or an exit code with err filled (GC_EXIT_HARNESS: state could not be restored). */
int gc_source_run(gc_target *t, const char *src, size_t len, gc_verdict *out, char *note, size_t notelen,
                  char *err, size_t errlen);
/* The same, and the program's value in *value (a new reference; NULL when it raised): what
 * evaluate gave back, or where that is None in a statement dialect the program's `result`
 * binding found in its namespace.  The source sweep walks on from it. */
int gc_source_run_value(gc_target *t, const char *src, size_t len, gc_verdict *out, PyObject **value, char *note,
                        size_t notelen, char *err, size_t errlen);

/* The forbidden primitive the returned value's search (gc_source_run_value's) finds in v,
 * a value the host holds: its name, or NULL.  Nothing is set (the source sweep's host-side
 * search predicts an escape with it, then runs the program to confirm it). */
const char *gc_source_value_reaches(PyObject *v);

#endif
