/* pycompat.h — the one place where gatecrash's C code differs by CPython version.
 *
 * Owns: every use of a private CPython API or field, named here per supported version
 * (3.11, 3.12, 3.13; CMakeLists.txt refuses any other), and the spelling the rest of the
 * harness uses for it.  Public and PyUnstable_ APIs are used directly elsewhere; only what
 * has no public form on some version comes through this header:
 *   - gc_dict_tag: a dict's ma_version_tag, 3.11 only (deprecated in 3.12, removed in 3.14:
 *     there state.c, nscache.c and eval.c's dir() cache use dict watchers instead).
 *   - gc_type_dict: a static type's own dict, borrowed (3.11: tp_dict; 3.12+: tp_dict is
 *     NULL for static builtin types, PyType_GetDict — public — gives it).
 *   - PyObject_GetOptionalAttr: public from 3.13; 3.11/3.12 spell it _PyObject_LookupAttr.
 *   - gc_allocated_blocks: sys.getallocatedblocks() (_Py_GetAllocatedBlocks is not exported
 *     from 3.12; the Python-level function exists on every version).
 * The frame-evaluation hook's private pieces (_PyInterpreterFrame, f_globals, the
 * frame's code: f_code in 3.11/3.12, f_executable in 3.13) stay in feedback.c, the one file
 * that reads a frame, under the same version tests. */
#ifndef GATECRASH_PYCOMPAT_H
#define GATECRASH_PYCOMPAT_H

#include <Python.h>

#if PY_VERSION_HEX < 0x030b0000 || PY_VERSION_HEX >= 0x030e0000
#error "gatecrash supports CPython 3.11, 3.12 and 3.13"
#endif

#if PY_VERSION_HEX < 0x030c0000
static inline uint64_t gc_dict_tag(PyObject *d) { return ((PyDictObject *)d)->ma_version_tag; }
#endif

static inline PyObject *gc_type_dict(PyTypeObject *tp)
{
#if PY_VERSION_HEX >= 0x030c0000
    PyObject *d = PyType_GetDict(tp); /* new reference; the type keeps the dict alive */
    Py_XDECREF(d);
    return d;
#else
    return tp->tp_dict;
#endif
}

#if PY_VERSION_HEX < 0x030d0000
#define PyObject_GetOptionalAttr _PyObject_LookupAttr
#endif

static inline Py_ssize_t gc_allocated_blocks(void)
{
    PyObject *fn = PySys_GetObject("getallocatedblocks"); /* borrowed */
    PyObject *r = fn ? PyObject_CallNoArgs(fn) : NULL;
    Py_ssize_t n = r ? PyLong_AsSsize_t(r) : -1;
    Py_XDECREF(r);
    PyErr_Clear();
    return n;
}

#endif
