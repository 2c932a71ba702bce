/* timelimit.h — the per-input time limit (see timelimit.c). */
#ifndef GATECRASH_TIMELIMIT_H
#define GATECRASH_TIMELIMIT_H

#include <Python.h>

extern double gc_input_time_limit; /* seconds; 0 turns the limit off */
extern volatile int gc_limit_expired; /* the current input ran past its limit */
extern unsigned long gc_limit_timeouts;

/* Once, after Py_Initialize: the timer and its Python-level handler. */
int gc_limits_init(char *err, size_t errlen);
void gc_limits_arm(void);    /* before an input */
void gc_limits_disarm(void); /* after it */
int gc_limits_is_timeout(PyObject *exc_type_or_value);

#endif
