/* feedback.c — see feedback.h.  Features are hashed from type and module *names*, never
 * from addresses, so the same chain yields the same features in every process. */
#define Py_BUILD_CORE 1 /* struct _PyInterpreterFrame: which module's code a frame runs */
#include "feedback.h"

#include <internal/pycore_frame.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hash.h"
#include "monitor.h"
#include "oracle.h"
#include "ptrmap.h"
#include "state.h"

#define GC_COUNTERS 4096

/* libFuzzer reads counters from this section (-use_counters, on by default). */
__attribute__((section("__libfuzzer_extra_counters"), used)) static uint8_t counters[GC_COUNTERS];

int gc_feedback_enabled = 1;
unsigned gc_feedback_signals = GC_FB_DEFAULT;

static const char *const signal_names[] = {"transitions", "names", "modules", "classes", "prims", "gate", "counts"};

int gc_feedback_parse(const char *spec, unsigned *out)
{
    unsigned m = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    int first = 1;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","), first = 0) {
        int sign = *tok == '-' ? -1 : *tok == '+' ? 1 : 0;
        const char *w = sign ? tok + 1 : tok;
        unsigned bit = 0;
        if (first && !sign && strcmp(w, "default") == 0) { m = GC_FB_DEFAULT; continue; }
        if (first && !sign && strcmp(w, "full") == 0) { m = GC_FB_FULL; continue; }
        if (first && !sign && strcmp(w, "coarse") == 0) { m = GC_FB_COARSE; continue; }
        if (first && !sign && strcmp(w, "none") == 0) { m = 0; continue; }
        for (unsigned i = 0; i < sizeof signal_names / sizeof *signal_names; i++)
            if (strcmp(w, signal_names[i]) == 0)
                bit = 1u << i;
        if (!bit)
            return -1;
        if (first && sign)
            m = GC_FB_DEFAULT; /* "-names": the default but; "+counts": the default and */
        m = sign < 0 ? m & ~bit : m | bit;
    }
    *out = m;
    return 0;
}

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

int gc_feedback_attach_afl(void)
{
    afl_attached = afl_edges[0] != 0;
    return afl_attached;
}

static void hit(uint32_t h)
{
    uint8_t *c;
    if (afl_attached) {
        uint32_t e = afl_edges[h % GC_COUNTERS];
        if (!e)
            return;
        c = &__afl_area_ptr[e];
    } else {
        c = &counters[h % GC_COUNTERS];
    }
    if (!(gc_feedback_signals & GC_FB_COUNTS))
        *c = 1;
    else if (*c < 255)
        (*c)++;
}

/* The classes the process had before the first input (gc_feedback_baseline_classes), each
 * held so that its address stays its own. */
static gc_ptrmap baseline;

static void add_class_tree(PyTypeObject *tp)
{
    if (gc_ptrmap_get(&baseline, tp) >= 0)
        return;
    gc_ptrmap_put(&baseline, Py_NewRef(tp), 0);
    PyObject *subs = PyObject_CallMethod((PyObject *)tp, "__subclasses__", NULL);
    for (Py_ssize_t i = 0; subs && PyList_Check(subs) && i < PyList_GET_SIZE(subs); i++)
        if (PyType_Check(PyList_GET_ITEM(subs, i)))
            add_class_tree((PyTypeObject *)PyList_GET_ITEM(subs, i));
    Py_XDECREF(subs);
    PyErr_Clear();
}

void gc_feedback_baseline_classes(void) { add_class_tree(&PyBaseObject_Type); }

/* The name a feature gives class tp.  A class an input made (Enum('x', 'a b'), type('x',
 * (), {})) is named by the input's own string, so its name would be a new feature for each
 * string the mutator tries and the corpus would grow without end, kept for classes no
 * fresh process has: such a class counts as its nearest class of the baseline, marked. */
static const char *class_name(PyTypeObject *tp, uint32_t *salt)
{
    if (!baseline.mask || gc_ptrmap_get(&baseline, tp) >= 0)
        return tp->tp_name;
    *salt ^= 0x4e3u;
    for (PyTypeObject *b = tp->tp_base; b; b = b->tp_base)
        if (gc_ptrmap_get(&baseline, b) >= 0)
            return b->tp_name;
    return "object";
}

static const char *type_name(PyObject *v, uint32_t *salt) { return v ? class_name(Py_TYPE(v), salt) : "<root>"; }

void gc_feedback_step(PyObject *in, int op, const char *name, PyObject *out)
{
    if (!gc_feedback_enabled || !out)
        return;
    unsigned sig = gc_feedback_signals;
    if (sig & GC_FB_TRANSITIONS) {
        uint32_t salt = 0;
        const char *from = type_name(in, &salt), *to = type_name(out, &salt);
        uint32_t h = gc_fnv1a32_str((GC_FNV32_OFFSET ^ (uint32_t)op) ^ salt, from);
        hit(gc_fnv1a32_str(h * 31u, to));
    }
    /* which edge of the object graph: the name taken from this kind of value */
    if (name && (sig & GC_FB_NAMES)) {
        uint32_t h = 0xed6eu;
        const char *from = type_name(in, &h);
        hit(gc_fnv1a32_str(gc_fnv1a32_str(h, from), name));
    }
    if (PyModule_Check(out)) {
        const char *name = (sig & GC_FB_MODULES) ? PyModule_GetName(out) : NULL;
        if (name) {
            /* a real module (the one in sys.modules) and a proxy of it are different finds */
            PyObject *nm = PyModule_GetNameObject(out);
            PyObject *real = nm ? PyImport_GetModule(nm) : NULL;
            Py_XDECREF(nm);
            uint32_t m = gc_fnv1a32_str(real == out ? 0x5eedu : 0xbeefu, name);
            Py_XDECREF(real);
            hit(m);
        }
        PyErr_Clear();
    } else if (PyType_Check(out)) {
        /* which class a walk has reached (object, type, str…): the stepping stones of class walks */
        if (sig & GC_FB_CLASSES) {
            uint32_t h = 0x7e5u;
            const char *cls = class_name((PyTypeObject *)out, &h);
            hit(gc_fnv1a32_str(h, cls));
        }
        const gc_prim *p = (sig & GC_FB_PRIMS) ? gc_oracle_lookup(out) : NULL;
        if (p)
            hit(gc_fnv1a32_str(0xfeedu, p->name));
    } else {
        const gc_prim *p = (sig & GC_FB_PRIMS) ? gc_oracle_lookup(out) : NULL;
        if (p)
            hit(gc_fnv1a32_str(0xfeedu, p->name));
        /* the subclass list of which class (a call of C.__subclasses__) */
        if ((sig & GC_FB_CLASSES) && in && PyCFunction_Check(in) && PyList_Check(out)) {
            PyObject *self = PyCFunction_GET_SELF(in);
            if (self && PyType_Check(self)) {
                uint32_t h = 0x5abc1u;
                const char *cls = class_name((PyTypeObject *)self, &h);
                hit(gc_fnv1a32_str(h, cls));
            }
        }
    }
}

/* ---- the gate module's own code ---- */

static PyObject *gate_dict;

/* A code object's identity that is the same in every process: qualname and first line. */
static uint32_t code_key(PyCodeObject *co)
{
    static struct {
        PyCodeObject *co;
        uint32_t key;
    } cache[256];
    size_t slot = ((uintptr_t)co >> 4) & 255;
    if (cache[slot].co == co)
        return cache[slot].key;
    const char *qn = PyUnicode_Check(co->co_qualname) ? PyUnicode_AsUTF8(co->co_qualname) : NULL;
    PyErr_Clear();
    uint32_t k = gc_fnv1a32_str(0x9a7eu ^ (uint32_t)co->co_firstlineno, qn ? qn : "?");
    cache[slot].co = co;
    cache[slot].key = k;
    return k;
}

#if PY_VERSION_HEX < 0x030c0000
/* 3.11: a C trace function, switched on only while a frame of the gate module runs */
static int tracing; /* our line tracer is on (a gate frame runs innermost) */

static int line_trace(PyObject *obj, PyFrameObject *fr, int what, PyObject *arg)
{
    (void)obj;
    (void)arg;
    if (what == PyTrace_LINE && gc_feedback_enabled) {
        PyCodeObject *co = PyFrame_GetCode(fr);
        hit(code_key(co) * 31u + (uint32_t)PyFrame_GetLineNumber(fr));
        Py_DECREF(co);
    }
    return 0;
}

static void set_trace(PyThreadState *ts, Py_tracefunc fn)
{
    /* what PyEval_SetTrace does, without its audit event (the oracle refuses sys.settrace
     * in chains) and without a trace object */
    ts->c_tracefunc = fn;
    ts->c_traceobj = NULL;
    ts->cframe->use_tracing = fn || ts->c_profilefunc ? 255 : 0;
}

static PyObject *gate_eval(PyThreadState *ts, struct _PyInterpreterFrame *f, int throwflag)
{
    int gate = f->f_globals == gate_dict;
    if (gate && gc_feedback_enabled)
        hit(code_key(f->f_code)); /* the function entered (3.12+: PY_START) */
    if (gate == tracing || (ts->c_tracefunc && ts->c_tracefunc != line_trace) ||
        (!ts->c_tracefunc && !gate) || !gc_feedback_enabled)
        return _PyEval_EvalFrameDefault(ts, f, throwflag);
    Py_tracefunc saved = ts->c_tracefunc;
    int saved_tracing = tracing;
    set_trace(ts, gate ? line_trace : NULL);
    tracing = gate;
    PyObject *r = _PyEval_EvalFrameDefault(ts, f, throwflag);
    set_trace(ts, saved);
    tracing = saved_tracing;
    return r;
}

static int start_gate_feedback(void) { return 0; }
#else
/* 3.12+: PEP 669 (the c_tracefunc above is only a shim over it there, and writing it does
 * nothing).  On gatecrash's sys.monitoring tool (monitor.h), PY_START and LINE events are
 * set locally on each code object of the gate the first time a frame of it starts; no
 * other code is instrumented.  Its callbacks are C functions: the same features as 3.11's
 * trace function (the function entered, each line run). */
static int monitoring_on;
#define GC_SEEN_CODES 1024
static PyObject *seen_codes[GC_SEEN_CODES]; /* gate code objects given local events (strong) */

static PyObject *on_start(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    if (n >= 1 && PyCode_Check(args[0]) && gc_feedback_enabled)
        hit(code_key((PyCodeObject *)args[0]));
    Py_RETURN_NONE;
}

static PyObject *on_line(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    if (n >= 2 && PyCode_Check(args[0]) && PyLong_Check(args[1]) && gc_feedback_enabled)
        hit(code_key((PyCodeObject *)args[0]) * 31u + (uint32_t)PyLong_AsLong(args[1]));
    Py_RETURN_NONE;
}

static PyMethodDef callbacks[] = {
    {"gatecrash_gate_start", (PyCFunction)(void (*)(void))on_start, METH_FASTCALL, NULL},
    {"gatecrash_gate_line", (PyCFunction)(void (*)(void))on_line, METH_FASTCALL, NULL},
};

static int start_gate_feedback(void)
{
    if (!monitoring_on)
        monitoring_on = gc_monitor_on(GC_MON_PY_START, &callbacks[0]) == 0 &&
                        gc_monitor_on(GC_MON_LINE, &callbacks[1]) == 0 ? 1 : -1;
    return monitoring_on > 0 ? 0 : -1;
}

static void watch_code(struct _PyInterpreterFrame *f)
{
    PyObject *co = PyUnstable_InterpreterFrame_GetCode(f);
    size_t slot = ((uintptr_t)co >> 4) % GC_SEEN_CODES, probes = 0;
    while (co && seen_codes[slot] && seen_codes[slot] != co && ++probes < GC_SEEN_CODES)
        slot = (slot + 1) % GC_SEEN_CODES;
    if (co && seen_codes[slot] != co &&
        gc_monitor_local(co, (1 << GC_MON_PY_START) | (1 << GC_MON_LINE)) == 0 && !seen_codes[slot])
        seen_codes[slot] = Py_NewRef(co); /* (a full table: set again each time) */
    Py_XDECREF(co);
}

static PyObject *gate_eval(PyThreadState *ts, struct _PyInterpreterFrame *f, int throwflag)
{
    if (f->f_globals == gate_dict && gc_feedback_enabled && monitoring_on > 0)
        watch_code(f);
    return _PyEval_EvalFrameDefault(ts, f, throwflag);
}
#endif

void gc_feedback_gate_module(PyObject *module)
{
    if (!(gc_feedback_signals & GC_FB_GATE) || !module || !PyModule_Check(module))
        return;
    if (start_gate_feedback() < 0) {
        fprintf(stderr, "gatecrash: warning: no sys.monitoring tool id free: no gate line feedback\n");
        return;
    }
    gate_dict = PyModule_GetDict(module);
    gc_state_frame_observer = gate_eval;
}
