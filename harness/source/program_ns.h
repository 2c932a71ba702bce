/* program_ns.h — where a program's bindings live, found while it runs.
 *
 * Owns: the namespaces of the code a sandbox exec'd for the program (its module-level
 * globals and locals dicts), caught without the adapter's help: the "exec" audit event
 * names the code object about to run (oracle.h: gc_oracle_exec_observer), and the frame
 * hook (state.h: gc_state_frame_observer) sees the frame that runs it start, with its
 * globals and locals.  An exec the standard library makes (namedtuple, dataclasses) is not
 * the program's.  source.c starts the watch around evaluate and searches what was found. */
#ifndef GATECRASH_PROGRAM_NS_H
#define GATECRASH_PROGRAM_NS_H

#include <Python.h>

/* How many namespaces one evaluation keeps at most (the rest are not searched). */
#define GC_PROGRAM_NS_MAX 8

/* Start watching (before evaluate): 0, or -1 when the frame hook is not in place. */
int gc_program_ns_begin(void);
/* Stop watching: the namespaces found, a new list of (namespace, what it held when the
 * program's code started in it) pairs of dicts, globals before locals, each once (empty when
 * none; NULL only out of memory).  A binding the program did not make (the same object
 * under the same name as before) is the sandbox's, not what the program holds. */
PyObject *gc_program_ns_end(void);

#endif
