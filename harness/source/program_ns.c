/* program_ns.c — see program_ns.h.  The frame's globals and locals are fields of CPython's
 * internal frame struct (pycompat.h lists this use): no public API gives them before the
 * frame runs, and once it has returned nothing does. */
#define Py_BUILD_CORE 1 /* struct _PyInterpreterFrame: f_globals, f_locals */
#include "program_ns.h"

#include <internal/pycore_frame.h>

#include "oracle.h"
#include "state.h"

/* The code objects an exec is about to run (strong), and the namespaces found: one
 * evaluation's, between begin and end (the frame hook and the audit hook have no other way
 * to hand them over). */
static PyObject *pending[GC_PROGRAM_NS_MAX];
static int npending;
static PyObject *found; /* list */
static gc_frame_eval_fn outer; /* the frame observer before ours (the line feedback's) */

/* Is the calling frame the standard library's (its module's top-level name in
 * sys.stdlib_module_names)? */
static int stdlib_caller(void)
{
    PyFrameObject *f = PyEval_GetFrame(); /* borrowed */
    PyObject *g = f ? PyFrame_GetGlobals(f) : NULL;
    PyObject *name = g ? PyDict_GetItemString(g, "__name__") : NULL;
    PyObject *names = PySys_GetObject("stdlib_module_names");
    int in = 0;
    if (name && PyUnicode_Check(name) && names) {
        Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, PyUnicode_GET_LENGTH(name), 1);
        PyObject *top = dot >= 0 ? PyUnicode_Substring(name, 0, dot) : Py_NewRef(name);
        in = top && PySet_Contains(names, top) == 1;
        Py_XDECREF(top);
    }
    Py_XDECREF(g);
    PyErr_Clear();
    return in;
}

static void on_exec(PyObject *code)
{
    if (!found || npending >= GC_PROGRAM_NS_MAX || !PyCode_Check(code) || stdlib_caller())
        return;
    pending[npending++] = Py_NewRef(code);
}

/* The namespace 'ns' (a dict), with a copy of what it held before the program's code ran in
 * it, unless it is kept already (an agent's state, one exec a step: the first copy counts). */
static void keep(PyObject *ns)
{
    if (!ns || !PyDict_Check(ns) || PyList_GET_SIZE(found) >= GC_PROGRAM_NS_MAX)
        return;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(found); i++)
        if (PyTuple_GET_ITEM(PyList_GET_ITEM(found, i), 0) == ns)
            return;
    PyObject *before = PyDict_Copy(ns);
    PyObject *pair = before ? PyTuple_Pack(2, ns, before) : NULL;
    if (!pair || PyList_Append(found, pair) < 0)
        PyErr_Clear();
    Py_XDECREF(pair);
    Py_XDECREF(before);
}

static PyObject *on_frame(PyThreadState *ts, struct _PyInterpreterFrame *f, int throwflag)
{
    if (npending) {
#if PY_VERSION_HEX >= 0x030c0000
        PyObject *co = PyUnstable_InterpreterFrame_GetCode(f);
#else
        PyObject *co = Py_NewRef((PyObject *)f->f_code);
#endif
        for (int i = 0; i < npending; i++) {
            if (pending[i] != co)
                continue;
            PyObject *t, *v, *tb;
            PyErr_Fetch(&t, &v, &tb);
            keep(f->f_globals);
            keep(f->f_locals);
            PyErr_Restore(t, v, tb);
            Py_DECREF(pending[i]);
            pending[i] = pending[--npending];
            break;
        }
        Py_XDECREF(co);
    }
    return outer ? outer(ts, f, throwflag) : _PyEval_EvalFrameDefault(ts, f, throwflag);
}

int gc_program_ns_begin(void)
{
    Py_CLEAR(found);
    found = PyList_New(0);
    if (!found) {
        PyErr_Clear();
        return -1;
    }
    outer = gc_state_frame_observer;
    gc_state_frame_observer = on_frame;
    gc_oracle_exec_observer = on_exec;
    return 0;
}

PyObject *gc_program_ns_end(void)
{
    gc_oracle_exec_observer = NULL;
    if (gc_state_frame_observer == on_frame)
        gc_state_frame_observer = outer;
    outer = NULL;
    while (npending)
        Py_CLEAR(pending[--npending]);
    PyObject *r = found;
    found = NULL;
    return r ? r : PyList_New(0);
}
