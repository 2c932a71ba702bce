/* harvest.h — what the chain mutator learns from the interpreter.
 *
 * Owns: the words harvested for calls' string arguments — the strings of the gate module's
 * own data (str keys and values of its dicts, lists, tuples and sets, the string constants
 * and names in the code of the functions and classes it defines), the module names in
 * sys.modules, the forbidden primitives' names and paths inside scratch — and the detail
 * probe's look at one value: whether it is callable and the positional arguments its
 * signature takes (the code object's counts, a builtin's __text_signature__, the method
 * flags of a C function), and the names it has (instance, module or class __dict__ keys,
 * a mapping's str keys, the forbidden primitives' first), read past a __getattribute__ or
 * __dir__ that hides them.  Reads only: no user code runs but a mapping's own key order. */
#ifndef GATECRASH_HARVEST_H
#define GATECRASH_HARVEST_H

#include <Python.h>

#include "fsutil.h"
#include "mutator.h"
#include "target.h"

/* The words, after the target is open: the gate's own strings into 'gate', the rest into
 * 'other' (de-duplicated across both).  Returns how many in all. */
int gc_harvest_words(gc_target *t, gc_strlist *gate, gc_strlist *other);

/* The same, handed to the chain mutator (gc_mutator_add_words). */
void gc_harvest_into_mutator(gc_target *t);

/* What kind of value 'v' is (NULL: GC_VK_NONE), for the mutator's probe. */
gc_value_kind gc_harvest_kind(PyObject *v);
/* What 'v' is, for the mutator's detail probe (fills every field of d). */
void gc_harvest_detail(PyObject *v, gc_probe_detail *d);

#endif
