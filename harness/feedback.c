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
int gc_feedback_names = 1;

/* AFL++ ignores that section: its feedback is the shared coverage map behind
 * __afl_area_ptr, sized by the number of edges the instrumented code registered.  So the
 * features register GC_COUNTERS edges of their own, through the same sanitizer-coverage
 * interface the compiler's instrumentation uses (AFL++'s runtime hands out map indices
 * for them and grows the map it announces to afl-fuzz), and each feature then bumps its
 * edge's map byte.  Both symbols are weak: they exist only in binaries linked with
 * AFL++'s runtime (fuzz_gate_afl); this file itself is never AFL-instrumented. */
extern uint8_t *__afl_area_ptr __attribute__((weak));
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) __attribute__((weak));
static uint32_t afl_edges[GC_COUNTERS];
static int afl_attached;

/* Registered as early as the compiler's own coverage module constructors (priority 2,
 * before AFL++'s runtime sizes and maps the shared memory and before any fork server):
 * edges registered later cannot be announced to afl-fuzz. */
__attribute__((constructor(2))) static void register_afl_edges(void)
{
    if (&__afl_area_ptr && __sanitizer_cov_trace_pc_guard_init)
        __sanitizer_cov_trace_pc_guard_init(afl_edges, afl_edges + GC_COUNTERS);
}

int gc_feedback_afl_runtime(void) { return &__afl_area_ptr != NULL; }

int gc_feedback_attach_afl(void)
{
    afl_attached = afl_edges[0] != 0;
    return afl_attached;
}

static uint32_t fnv(uint32_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static void hit(uint32_t h)
{
    if (afl_attached) {
        uint32_t e = afl_edges[h % GC_COUNTERS];
        uint8_t *c = &__afl_area_ptr[e];
        if (e && *c < 255)
            (*c)++;
        return;
    }
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
    if (name && gc_feedback_names)
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
