/* feedback.h — coverage signals from the Python side.
 *
 * libFuzzer's own coverage sees only the harness's C code, not the object graph a chain
 * walks.  This file turns each evaluated step into features libFuzzer can keep inputs
 * for: the transition (type of value, operation, type of result) and the first reach of
 * each real module, real primitive and other interesting object kind.  Written to
 * libFuzzer's extra-counters section, or into AFL++'s coverage map (gc_feedback_attach_afl);
 * a no-op array in builds without an engine. */
#ifndef GATECRASH_FEEDBACK_H
#define GATECRASH_FEEDBACK_H

#include <Python.h>

/* One evaluated step: 'in' --op(name)--> 'out'.  'name' is the attribute or str key taken
 * (NULL for other steps). */
void gc_feedback_step(PyObject *in, int op, const char *name, PyObject *out);
extern int gc_feedback_enabled;
extern int gc_feedback_names; /* the (type of value, name taken) feature; 0: off */
/* Write the features into AFL++'s coverage map instead (fuzz_gate_afl): call before the
 * fork server starts.  1 when attached, 0 when this binary has no AFL++ runtime. */
int gc_feedback_attach_afl(void);
/* This binary is linked with AFL++'s runtime. */
int gc_feedback_afl_runtime(void);

#endif
