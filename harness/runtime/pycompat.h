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
 *   - gc_set_profile_all / gc_set_trace_all: a profile or trace function on every thread
 *     (3.12+: PyEval_Set*AllThreads; 3.11: _PyEval_SetProfile/_PyEval_SetTrace per thread).
 *   - gc_mappingproxy_mapping: what a mappingproxy wraps (its struct is private in every
 *     version, Objects/descrobject.c; its one field is the same in 3.11-3.13).
 *   - gc_mapping_keys: a mapping's keys read in the host (the sweeps), never a frame-locals
 *     proxy on CPython 3.13.0, where reading one whose generator is gone is a use after free.
 *   - sys.monitoring (3.12+) has no version differences the harness meets: monitor.h.
 * Private APIs used directly, the same on 3.11, 3.12 and 3.13 (declared in Include/cpython/,
 * exported): the PEP 523 frame hook (_PyInterpreterState_Get/SetEvalFrameFunc,
 * _PyEval_EvalFrameDefault: state.c, feedback.c), _PyType_Lookup and _PyObject_GetDictPtr
 * (eval.c, state.c), PySetObject's table and mask and PyThreadState's c_tracefunc and
 * c_profilefunc (state.c).  Internal (Py_BUILD_CORE, internal/pycore_frame.h): the frame's
 * f_globals on every version (feedback.c; program_ns.c also f_locals, and f_code on 3.11),
 * and on 3.11 f_code and cframe->use_tracing — feedback.c;
 * from 3.12 it takes the frame's code with PyUnstable_InterpreterFrame_GetCode (3.13 renamed
 * f_code to f_executable) and traces with sys.monitoring.  Internal too (internal/
 * pycore_interp.h): the interpreter's atexit list and at-fork lists, facility.c alone (their
 * entry type is atexit_callback in 3.11, atexit_py_callback from 3.12). */
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

typedef struct {
    PyObject_HEAD
    PyObject *mapping;
} gc_mappingproxy;

/* A mappingproxy's mapping, borrowed (walk_feedback.c reads a class's __dict__ with it). */
static inline PyObject *gc_mappingproxy_mapping(PyObject *proxy)
{
    return ((gc_mappingproxy *)proxy)->mapping;
}

#if PY_VERSION_HEX < 0x030d0000
#define PyObject_GetOptionalAttr _PyObject_LookupAttr
#endif

/* A profile or trace function on every thread of the interpreter (the C-call guard and the
 * line trace of source mode where they are no sys.monitoring events: 3.11, or no tool id
 * free; source.c, source_feedback.c).  3.12+: PyEval_SetProfileAllThreads
 * and PyEval_SetTraceAllThreads (public); 3.11 has neither: _PyEval_SetProfile and
 * _PyEval_SetTrace (exported, Include/cpython/ceval.h) on each thread state, with the GIL held
 * (the list cannot change under it).  Each raises the sys.setprofile / sys.settrace audit
 * event; an error (a hook refusing it) is cleared. */
static inline void gc_set_profile_all(Py_tracefunc fn)
{
#if PY_VERSION_HEX >= 0x030c0000
    PyEval_SetProfileAllThreads(fn, NULL);
#else
    for (PyThreadState *ts = PyInterpreterState_ThreadHead(PyThreadState_Get()->interp); ts;
         ts = PyThreadState_Next(ts))
        if (_PyEval_SetProfile(ts, fn, NULL) < 0)
            PyErr_Clear();
#endif
}

static inline void gc_set_trace_all(Py_tracefunc fn)
{
#if PY_VERSION_HEX >= 0x030c0000
    PyEval_SetTraceAllThreads(fn, NULL);
#else
    for (PyThreadState *ts = PyInterpreterState_ThreadHead(PyThreadState_Get()->interp); ts;
         ts = PyThreadState_Next(ts))
        if (_PyEval_SetTrace(ts, fn, NULL) < 0)
            PyErr_Clear();
#endif
}

static inline Py_ssize_t gc_allocated_blocks(void)
{
    PyObject *fn = PySys_GetObject("getallocatedblocks"); /* borrowed */
    PyObject *r = fn ? PyObject_CallNoArgs(fn) : NULL;
    Py_ssize_t n = r ? PyLong_AsSsize_t(r) : -1;
    Py_XDECREF(r);
    PyErr_Clear();
    return n;
}

/* CPython 3.13.0 (the running library's Py_Version): frames of generators, coroutines and
 * async generators can outlive what owns them there, and reading or freeing what the host
 * reads of them is a use after free (python/cpython#125723 and its neighbours, fixed in
 * 3.13.1).  1 when 'v' is such an object (a frame, a generator, coroutine or async generator,
 * a traceback, a frame-locals proxy) on 3.13.0: the sweeps' host-side reads leave it to the
 * sandbox (a program runs instead). */
static inline int gc_host_read_unsafe(PyObject *v)
{
#if PY_VERSION_HEX >= 0x030d0000
    return Py_Version < 0x030d01f0 && v &&
           (PyFrame_Check(v) || PyGen_Check(v) || PyCoro_CheckExact(v) || PyAsyncGen_CheckExact(v) ||
            PyTraceBack_Check(v) || PyFrameLocalsProxy_Check(v));
#else
    (void)v;
    return 0;
#endif
}

/* A mapping's keys, as PyMapping_Keys, for a sweep that reads what a program reached.  On
 * CPython 3.13.0 a FrameLocalsProxy can outlive the generator whose frame it reads, and reading
 * it (keys, items) is a use after free that kills the process (python/cpython#125723, fixed in
 * 3.13.1): there it has no keys (NULL, no error set), so no item of it is read either.  The
 * version is the running library's (Py_Version), not the headers'. */
static inline PyObject *gc_mapping_keys(PyObject *v)
{
    return gc_host_read_unsafe(v) ? NULL : PyMapping_Keys(v);
}

#endif
