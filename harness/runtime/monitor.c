/* monitor.c — see monitor.h. */
#include "monitor.h"

#if GC_MONITORING
#include "oracle.h"

PyObject *gc_monitor_missing, *gc_monitor_disable;
static int tool = -1, refused;
static PyObject *mon, *set_local_fn; /* sys.monitoring and its set_local_events */

/* The harness's own sys.monitoring calls: never judged as an input's. */
static PyObject *own_call(const char *method, const char *fmt, ...)
{
    int armed = gc_orc.armed;
    gc_orc.armed = 0;
    va_list va;
    va_start(va, fmt);
    PyObject *args = Py_VaBuildValue(fmt, va);
    va_end(va);
    PyObject *fn = args ? PyObject_GetAttrString(mon, method) : NULL;
    PyObject *r = fn ? PyObject_CallObject(fn, args) : NULL;
    Py_XDECREF(fn);
    Py_XDECREF(args);
    PyErr_Clear();
    gc_orc.armed = armed;
    return r;
}

static int claim(void)
{
    if (tool >= 0 || refused)
        return tool >= 0 ? 0 : -1;
    refused = 1;
    mon = PySys_GetObject("monitoring"); /* borrowed: sys keeps it */
    if (!mon)
        return -1;
    Py_INCREF(mon);
    for (int id = 4; id >= 3 && tool < 0; id--) {
        PyObject *r = own_call("use_tool_id", "(is)", id, "gatecrash");
        tool = r ? id : -1;
        Py_XDECREF(r);
    }
    gc_monitor_missing = PyObject_GetAttrString(mon, "MISSING");
    gc_monitor_disable = PyObject_GetAttrString(mon, "DISABLE");
    set_local_fn = PyObject_GetAttrString(mon, "set_local_events");
    PyErr_Clear();
    if (tool < 0 || !gc_monitor_missing || !gc_monitor_disable || !set_local_fn)
        return tool = -1;
    refused = 0;
    return 0;
}

int gc_monitor_on(int event, PyMethodDef *def)
{
    if (claim() < 0)
        return -1;
    PyObject *fn = PyCFunction_New(def, NULL);
    PyObject *r = fn ? own_call("register_callback", "(iiO)", tool, 1 << event, fn) : NULL;
    Py_XDECREF(fn);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

int gc_monitor_global(int mask)
{
    static int global;
    PyObject *r = tool >= 0 ? own_call("set_events", "(ii)", tool, global | mask) : NULL;
    global |= r ? mask : 0;
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* Called for code objects as their frames start (the caller's exception, if any, is kept):
 * set_local_events is looked up once. */
int gc_monitor_local(PyObject *code, int mask)
{
    PyObject *exc = PyErr_GetRaisedException(); /* a frame resumed by throw() carries one */
    int armed = gc_orc.armed;
    gc_orc.armed = 0;
    PyObject *r = tool >= 0 ? PyObject_CallFunction(set_local_fn, "iOi", tool, code, mask) : NULL;
    gc_orc.armed = armed;
    Py_XDECREF(r);
    PyErr_Clear();
    PyErr_SetRaisedException(exc);
    return r ? 0 : -1;
}

#endif
