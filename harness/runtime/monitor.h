/* monitor.h — gatecrash's own sys.monitoring tool (PEP 669, CPython 3.12 and later).
 *
 * Owns: the one tool id the harness claims (4, else 3: PEP 669 gives them no role), the C
 * callbacks registered on it, and its global and local events.  Every call is the harness's own: made disarmed (register_callback is audited,
 * and the oracle refuses it for inputs), errors cleared.  Its users: chain/feedback.c (gate
 * line feedback), source/source.c (the C-call guard) and source/source_feedback.c (the
 * sandbox's line feedback).  3.11 has no sys.monitoring: nothing here is built there. */
#ifndef GATECRASH_MONITOR_H
#define GATECRASH_MONITOR_H

#include <Python.h>

#if PY_VERSION_HEX >= 0x030c0000
#define GC_MONITORING 1

/* Event numbers, fixed by PEP 669 (3.12 has no public header for them); a mask is 1 << e. */
enum {
    GC_MON_PY_START = 0,
    GC_MON_PY_RETURN = 2,
    GC_MON_PY_YIELD = 3,
    GC_MON_CALL = 4,
    GC_MON_LINE = 5,
    GC_MON_PY_UNWIND = 12,
};

/* 'def' (static storage, METH_FASTCALL) called for 'event' on the harness's tool, claimed at
 * the first call.  0, or -1 when no tool id is free or sys.monitoring refused. */
int gc_monitor_on(int event, PyMethodDef *def);

/* The tool's global events gain 'mask'; 'code' alone gets 'mask' (local events). 0 or -1. */
int gc_monitor_global(int mask);
int gc_monitor_local(PyObject *code, int mask);

/* sys.monitoring.MISSING, a CALL event's arg0 when the call has none, and DISABLE, what a
 * callback returns to hear no more of that event at that place (valid once gc_monitor_on
 * succeeded). */
extern PyObject *gc_monitor_missing, *gc_monitor_disable;
#endif

#endif
