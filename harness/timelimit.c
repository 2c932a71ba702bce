/* timelimit.c — a per-input time limit that interrupts Python.
 *
 * Owns: a POSIX timer per process that, when an input runs past its limit, delivers a
 * real-time signal whose Python-level handler is a C function raising gatecrash.Timeout.
 * CPython runs that handler at the next bytecode boundary and also when a blocking call
 * (poll, select, wait, sleep, read) is interrupted by the signal (PEP 475 retries only after
 * checking signals), so both a `while True` in Python and a blocked syscall end.  A loop
 * inside C code that never checks signals is beyond it: libFuzzer's -timeout stays the
 * backstop.  The signal and handler are set from C at start-up; chains cannot reach them
 * (every signal.* call is refused by the harness). */
#include "timelimit.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "oracle.h"

double gc_input_time_limit = 2.0;
volatile int gc_limit_expired;
unsigned long gc_limit_timeouts;

static timer_t timer;
static int ready;
static volatile int armed;
static PyObject *timeout_exc;

static PyObject *on_timeout(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    if (!armed)
        Py_RETURN_NONE; /* a late signal after the input ended */
    if (!gc_limit_expired)
        gc_limit_timeouts++;
    gc_limit_expired = 1;
    PyErr_SetString(timeout_exc, "gatecrash: the input ran past its time limit");
    return NULL;
}

static PyMethodDef on_timeout_def = {"gatecrash_timeout", on_timeout, METH_VARARGS, "per-input time limit"};

int gc_limits_init(char *err, size_t errlen)
{
    int sig = SIGRTMIN + 1;
    timeout_exc = PyErr_NewException("gatecrash.Timeout", PyExc_BaseException, NULL);
    PyObject *sigmod = PyImport_ImportModule("signal");
    PyObject *fn = PyCFunction_New(&on_timeout_def, NULL);
    PyObject *r = sigmod && fn && timeout_exc ? PyObject_CallMethod(sigmod, "signal", "iO", sig, fn) : NULL;
    Py_XDECREF(r);
    Py_XDECREF(fn);
    Py_XDECREF(sigmod);
    if (!r) {
        PyErr_Clear();
        snprintf(err, errlen, "could not set up the per-input time limit");
        return -1;
    }
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = sig;
    if (timer_create(CLOCK_MONOTONIC, &sev, &timer) != 0) {
        snprintf(err, errlen, "could not create the per-input timer");
        return -1;
    }
    ready = 1;
    return 0;
}

void gc_limits_arm(void)
{
    gc_limit_expired = 0;
    if (!ready || gc_input_time_limit <= 0)
        return;
    armed = 1;
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    its.it_value.tv_sec = (time_t)gc_input_time_limit;
    its.it_value.tv_nsec = (long)((gc_input_time_limit - (double)(time_t)gc_input_time_limit) * 1e9);
    /* then every 100 ms: a blocked call that swallowed one interruption gets another */
    its.it_interval.tv_nsec = 100000000L;
    timer_settime(timer, 0, &its, NULL);
}

void gc_limits_disarm(void)
{
    armed = 0;
    if (!ready)
        return;
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    timer_settime(timer, 0, &its, NULL);
}

int gc_limits_is_timeout(PyObject *exc) { return exc && timeout_exc && PyErr_GivenExceptionMatches(exc, timeout_exc); }
