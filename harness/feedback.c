/* feedback.c — see feedback.h.  Features are hashed from type and module *names*, never
 * from addresses, so the same chain yields the same features in every process. */
#include "feedback.h"

#include <stdint.h>
#include <string.h>

#include "oracle.h"

#define GC_COUNTERS 8192

/* libFuzzer reads counters from this section (-use_counters, on by default). */
__attribute__((section("__libfuzzer_extra_counters"), used)) static uint8_t counters[GC_COUNTERS];

int gc_feedback_enabled = 1;

static uint32_t fnv(uint32_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static void hit(uint32_t h)
{
    uint8_t *c = &counters[h % GC_COUNTERS];
    if (*c < 255)
        (*c)++;
}

void gc_feedback_step(PyObject *in, int op, const char *name, PyObject *out)
{
    if (!gc_feedback_enabled || !out)
        return;
    uint32_t h = 2166136261u ^ (uint32_t)op;
    h = fnv(h, in ? Py_TYPE(in)->tp_name : "<root>");
    h = fnv(h * 31u, Py_TYPE(out)->tp_name);
    hit(h);
    /* which edge of the object graph: the name taken from this kind of value */
    if (name)
        hit(fnv(fnv(0xed6eu, in ? Py_TYPE(in)->tp_name : "<root>"), name));
    if (PyModule_Check(out)) {
        const char *name = PyModule_GetName(out);
        if (name) {
            /* a real module (the one in sys.modules) and a proxy of it are different finds */
            PyObject *nm = PyModule_GetNameObject(out);
            PyObject *real = nm ? PyImport_GetModule(nm) : NULL;
            Py_XDECREF(nm);
            uint32_t m = fnv(real == out ? 0x5eedu : 0xbeefu, name);
            Py_XDECREF(real);
            hit(m);
        }
        PyErr_Clear();
    } else if (PyType_Check(out)) {
        /* which class a walk has reached (object, type, str…): the stepping stones of class walks */
        hit(fnv(0x7e5u, ((PyTypeObject *)out)->tp_name));
        const gc_prim *p = gc_oracle_lookup(out);
        if (p)
            hit(fnv(0xfeedu, p->name));
    } else {
        const gc_prim *p = gc_oracle_lookup(out);
        if (p)
            hit(fnv(0xfeedu, p->name));
        /* the subclass list of which class (a call of C.__subclasses__) */
        if (in && PyCFunction_Check(in) && PyList_Check(out)) {
            PyObject *self = PyCFunction_GET_SELF(in);
            if (self && PyType_Check(self))
                hit(fnv(0x5abc1u, ((PyTypeObject *)self)->tp_name));
        }
    }
}
