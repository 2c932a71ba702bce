/* walk_feedback.h — what a walk the host runs for the program teaches the fuzzer.
 *
 * Owns: the observers of walks a program hands to the host as data, past the sandbox's
 * attribute checks: the fields of str.format and str.format_map (their `.attr` and `[key]`
 * parts, resolved by CPython in C; the CVE-2023-41039 class), chains of builtins.getattr
 * calls (string.Formatter's get_field, functools.reduce(getattr, ...), a sandbox's guarded
 * getattr), and operator.attrgetter's and itemgetter's walks.  Each is a wrapper put in place
 * of the method's C entry point (its PyMethodDef, as the C-call guard's closures are; for
 * operator's getters, their types' tp_call, with the vectorcall flag cleared), which calls the real method and then, while an
 * evaluation runs, reports what the walk passed through part by part to source_feedback.c
 * (gc_source_feedback_reached): the kind of each object, a module by name, a function's
 * globals as its module's, a frame with its code.  A format field is walked again here with
 * lookups that run no Python code (instance and type dicts, CPython's own descriptors; a
 * property, __getattr__ or a mapping that is no dict ends the walk), so the program runs as
 * it would without the observer.  getattr is observed only when made for the program (its
 * code among the innermost frames), not by the import system.  Off until
 * gc_walk_feedback_place (fuzz_source.c); source.c resets it before each evaluation. */
#ifndef GATECRASH_WALK_FEEDBACK_H
#define GATECRASH_WALK_FEEDBACK_H

#include <Python.h>

/* The wrappers, once (source_feedback.c's start): 0, or -1 when a method's definition is
 * not of the form this build knows (that walk is then not observed). */
int gc_walk_feedback_place(void);
/* A new input: no getattr chain goes on from the last one's. */
void gc_walk_feedback_reset(void);

/* The lookups a format field's parts make, where they run no Python code (instance and type
 * dicts, CPython's own descriptors), for those who follow a walk in the host without running
 * the sandbox's code (here, and the source sweep's passages).  getattr(o, name): new, or
 * NULL (a __getattribute__ or __getattr__ of the class, a property, no such name). */
PyObject *gc_static_attr(PyObject *o, PyObject *name);
/* o[key] where o is a dict (or a class's mappingproxy of one), a list or a tuple: new, or
 * NULL.  'ints_index': an int key indexes a sequence only (a format field's `[0]`). */
PyObject *gc_static_item(PyObject *o, PyObject *key, int ints_index);

#endif
