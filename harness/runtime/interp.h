/* interp.h — the embedded CPython interpreter.
 *
 * Owns: interpreter start-up (PyConfig, the C audit hook registered first, a fixed hash
 * seed so set and dict orders — and so exploration forms — are reproducible), the scratch
 * folder every run works in, and the output sink that keeps the gate's chatter out of the
 * fuzzer's output. */
#ifndef GATECRASH_INTERP_H
#define GATECRASH_INTERP_H

#include <Python.h>

/* Start CPython.  'scratch' is an existing folder (made absolute and resolved); the process
 * changes into it, and writes may land only there.  -1 with a message on failure. */
int gc_interp_start(const char *scratch, char *err, size_t errlen);

/* The host's world: every sys.modules entry added since Python started (the harness's own
 * imports: its helpers, the extension modules the oracle table captured) taken out again,
 * before the target is imported, as a host that imports it first would have it: the
 * built-in ones too (gc, faulthandler, and the table's where the libpython has them built
 * in: Debian's _csv, select, fcntl, _posixsubprocess), but for _signal and atexit, which a
 * plain start imports (and _signal's set-up again would reset every Python signal handler,
 * the time limit's among them).  The module objects live on where the harness holds them.
 * How many were taken out. */
int gc_interp_world_restore(void);

/* Send sys.stdout/sys.stderr to a capture buffer; gc_interp_capture_end returns what was
 * written (new reference, str) and routes both to the null sink. */
int gc_interp_capture_begin(void);
PyObject *gc_interp_capture_end(void);

/* The current exception as one line "Type: message" (clears it). */
void gc_interp_error_line(char *buf, size_t len);

/* A new null sink for sys.stdout/sys.stderr (a chain can detach or close the old one). */
int gc_interp_reset_sink(void);

/* The raised exception as a value, its traceback attached (new reference; clears the
 * error; None when nothing was raised). */
PyObject *gc_exception_value(void);

#endif
