/* source_feedback.c — see source_feedback.h. */
#include "source_feedback.h"

#include <frameobject.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "hash.h"
#include "monitor.h"
#include "oracle.h"
#include "pycompat.h"
#include "state.h"

#define GC_SF_COUNTERS 8192

/* libFuzzer reads every array in this section (feedback.c's too) after each input. */
__attribute__((section("__libfuzzer_extra_counters"), used)) static uint8_t counters[GC_SF_COUNTERS];

static int trace_on, values_on;
static gc_pm_dict *dict;
static char adapter_path[PATH_MAX];

static void hit(uint32_t h)
{
    counters[h % GC_SF_COUNTERS] = 1;
}

/* Value features ever hit in this process, and whether the last outcome hit a new one. */
static uint8_t ever[GC_SF_COUNTERS / 8];
static int new_value;

/* The mutator's focus: the dictionary's kinds the outcome reached, and where the input's
 * walks in the host ended (one slot a walk, its deepest kind). */
static uint16_t last_kinds[GC_PM_MAX_FOCUS], walk_kinds[GC_PM_MAX_FOCUS];
static int nlast, nwalk;

static void hit_value(uint32_t h)
{
    uint32_t c = h % GC_SF_COUNTERS;
    new_value |= !(ever[c / 8] & (1u << (c % 8)));
    ever[c / 8] |= (uint8_t)(1u << (c % 8));
    counters[c] = 1;
}

int gc_source_feedback_new_value(void)
{
    return new_value;
}

void gc_source_feedback_start(const char *adapter, int trace, int values, gc_pm_dict *d)
{
    snprintf(adapter_path, sizeof adapter_path, "%s", adapter ? adapter : "");
    trace_on = trace;
    values_on = values;
    dict = d;
}

/* ---- whose code ---- */

enum { OWN_PROGRAM, OWN_ADAPTER, OWN_SANDBOX, OWN_OTHER };
static const char *const owner_names[] = {"program", "adapter", "sandbox", "other"};

/* The code objects seen, by address: whose, their key, and whether their frames are watched
 * (3.12+: local events set).  Each entry holds its code object, so an address is never
 * another code's while it is here. */
static struct code_entry {
    PyObject *co;
    uint32_t key;
    int own, watched;
} codes[1024];

static struct code_entry *code_entry(PyCodeObject *co)
{
    struct code_entry *e = &codes[((uintptr_t)co >> 4) & 1023];
    if (e->co == (PyObject *)co)
        return e;
    const char *f = PyUnicode_Check(co->co_filename) ? PyUnicode_AsUTF8(co->co_filename) : NULL;
    const char *qn = PyUnicode_Check(co->co_qualname) ? PyUnicode_AsUTF8(co->co_qualname) : NULL;
    PyErr_Clear();
    int own = !f                                           ? OWN_OTHER
              : *adapter_path && strcmp(f, adapter_path) == 0 ? OWN_ADAPTER
              : strstr(f, "/site-packages/")                 ? OWN_SANDBOX
              : f[0] == '<' && strncmp(f, "<frozen", 7) != 0 ? OWN_PROGRAM
                                                             : OWN_OTHER;
    /* the program's code by name alone: where it starts changes with every edit */
    uint32_t line = own == OWN_PROGRAM ? 0 : (uint32_t)co->co_firstlineno;
    uint32_t k = gc_fnv1a32_str(gc_fnv1a32_str(0x5eedu ^ line, qn ? qn : "?"), owner_names[own]);
    Py_XSETREF(e->co, Py_NewRef((PyObject *)co));
    e->key = k, e->own = own, e->watched = 0;
    return e;
}

/* Whose a code object is, and (key) its identity that is the same in every process. */
static int code_info(PyCodeObject *co, uint32_t *key)
{
    struct code_entry *e = code_entry(co);
    *key = e->key;
    return e->own;
}

static void learn_locals(PyFrameObject *fr);

/* ---- the sandbox's lines ---- */

static int monitored; /* 3.12+: the features come from sys.monitoring events, not a trace */

/* 3.11 (and 3.12+ without a free tool id): a trace function.  Any frame but the sandbox's
 * and the adapter's is told at its start to send no line events (f_trace_lines), so the
 * program's and the standard library's lines cost one call each frame, not one each line. */
static int line_trace(PyObject *obj, PyFrameObject *fr, int what, PyObject *arg)
{
    (void)obj, (void)arg;
    if (what != PyTrace_LINE && what != PyTrace_CALL && what != PyTrace_RETURN)
        return 0;
    PyCodeObject *co = PyFrame_GetCode(fr);
    uint32_t key;
    int own = code_info(co, &key);
    if (what == PyTrace_RETURN) {
        if (own == OWN_PROGRAM && dict)
            learn_locals(fr);
    } else if (own == OWN_SANDBOX || own == OWN_ADAPTER) {
        hit(key * 31u + (uint32_t)(what == PyTrace_LINE ? PyFrame_GetLineNumber(fr) : 0));
    } else if (what == PyTrace_CALL && PyObject_SetAttrString((PyObject *)fr, "f_trace_lines", Py_False) < 0) {
        PyErr_Clear();
    }
    Py_DECREF(co);
    return 0;
}

#if GC_MONITORING
/* 3.12+: events of gatecrash's sys.monitoring tool (monitor.h), set locally on the code
 * objects whose features count, as their first frame starts (watch_frame): PY_START and
 * LINE on the sandbox's and the adapter's, PY_RETURN and PY_YIELD on the program's (its
 * names' kinds); PY_UNWIND (a program frame left by an exception) is global.  No other code
 * is instrumented for them.  Disabling a location after its first event and restarting them
 * all before the next input (sys.monitoring.restart_events) costs more than it saves: the
 * restart makes every code object the next input runs instrument itself again (on
 * RestrictedPython, 3.12: about 45 us an evaluation against 22-25 us with every line's event). */
/* A place whose feature every input sets tells inputs apart no more: the features are set,
 * not counted (hit), so only an input that reaches a place first is new coverage, and
 * libFuzzer's reductions keep the smallest input of each feature, which for such a place is
 * one of the seeds.  So a place (a line, or a function's entry) hit in SATURATED inputs
 * gives its feature that last time and asks CPython for no more of its events (DISABLE,
 * never restarted): the evaluator's hot lines stop costing a callback each time they run,
 * and every place reached for the first time still is new coverage.  Disabling after the
 * first hit in an input and restarting between inputs (what PEP 669 offers) was measured
 * slower: the restart makes every code object the next input runs instrument itself again.
 * A slot holds one place (its full hash): a place whose slot another holds is never
 * disabled. */
#define SATURATED 1000
#define PLACES 65536
static struct {
    uint32_t h;
    uint32_t last_input; /* the input that counted it last (inputs, from 1) */
    uint32_t inputs;     /* the inputs it was hit in */
} places[PLACES];
static uint32_t input_no;
static unsigned long nsaturated;

/* The features (as line_trace's) of the sandbox's and the adapter's code: each function
 * entered (line 0) and each line run.  1 when the place is saturated. */
static int hit_line(PyCodeObject *co, int line)
{
    uint32_t key;
    int own = code_info(co, &key);
    if (own != OWN_SANDBOX && own != OWN_ADAPTER)
        return 0;
    uint32_t h = key * 31u + (uint32_t)line, slot = (h ^ (h >> 16)) % PLACES;
    hit(h);
    if (places[slot].inputs && places[slot].h != h)
        return 0;
    places[slot].h = h;
    if (places[slot].last_input != input_no) {
        places[slot].last_input = input_no;
        nsaturated += ++places[slot].inputs == SATURATED;
    }
    return places[slot].inputs >= SATURATED;
}

static PyObject *on_start(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    if (n < 1 || !gc_orc.in_chain || !PyCode_Check(args[0]) || !hit_line((PyCodeObject *)args[0], 0))
        Py_RETURN_NONE;
    return Py_NewRef(gc_monitor_disable);
}

static PyObject *on_line(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    if (n < 2 || !gc_orc.in_chain || !PyCode_Check(args[0]))
        Py_RETURN_NONE;
    int saturated = hit_line((PyCodeObject *)args[0], (int)PyLong_AsLong(args[1]));
    PyErr_Clear();
    return saturated ? Py_NewRef(gc_monitor_disable) : Py_NewRef(Py_None);
}

/* PY_RETURN, PY_YIELD, PY_UNWIND (code, offset, value): a program frame leaving; the frame
 * is still the thread's current one. */
static PyObject *on_leave(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    uint32_t key;
    PyFrameObject *fr = n >= 1 && gc_orc.in_chain && dict && PyCode_Check(args[0]) &&
                                code_info((PyCodeObject *)args[0], &key) == OWN_PROGRAM
                            ? PyEval_GetFrame()
                            : NULL;
    PyCodeObject *co = fr ? PyFrame_GetCode(fr) : NULL;
    if (co && (PyObject *)co == args[0])
        learn_locals(fr);
    Py_XDECREF(co);
    Py_RETURN_NONE;
}

static PyMethodDef monitor_defs[] = {
    {"gatecrash_sandbox_start", (PyCFunction)(void (*)(void))on_start, METH_FASTCALL, NULL},
    {"gatecrash_sandbox_line", (PyCFunction)(void (*)(void))on_line, METH_FASTCALL, NULL},
    {"gatecrash_program_leave", (PyCFunction)(void (*)(void))on_leave, METH_FASTCALL, NULL},
};

int gc_source_feedback_monitor(void)
{
    static const int events[][2] = {{GC_MON_PY_START, 0}, {GC_MON_LINE, 1},       {GC_MON_PY_RETURN, 2},
                                    {GC_MON_PY_YIELD, 2}, {GC_MON_PY_UNWIND, 2}};
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        if (gc_monitor_on(events[i][0], &monitor_defs[events[i][1]]) < 0)
            return -1;
    monitored = 1;
    return 1 << GC_MON_PY_UNWIND;
}

/* Every frame, as it starts (state.c's frame hook): its code's local events, once. */
static PyObject *watch_frame(PyThreadState *ts, struct _PyInterpreterFrame *f, int throwflag)
{
    PyObject *exc = PyErr_GetRaisedException(); /* a frame resumed by throw() carries one */
    PyCodeObject *co = (PyCodeObject *)PyUnstable_InterpreterFrame_GetCode(f);
    struct code_entry *e = co ? code_entry(co) : NULL;
    if (e && !e->watched) {
        e->watched = 1;
        int mask = e->own == OWN_SANDBOX || e->own == OWN_ADAPTER ? (1 << GC_MON_PY_START) | (1 << GC_MON_LINE)
                   : e->own == OWN_PROGRAM && dict              ? (1 << GC_MON_PY_RETURN) | (1 << GC_MON_PY_YIELD)
                                                                : 0;
        if (mask)
            gc_monitor_local((PyObject *)co, mask);
    }
    Py_XDECREF(co);
    PyErr_SetRaisedException(exc);
    return _PyEval_EvalFrameDefault(ts, f, throwflag);
}
#else
int gc_source_feedback_monitor(void) { return -1; }
#endif

unsigned long gc_source_feedback_saturated(void)
{
#if GC_MONITORING
    return nsaturated;
#else
    return 0;
#endif
}

void gc_source_feedback_begin(void)
{
    nlast = nwalk = 0;
    new_value = 0;
#if GC_MONITORING
    input_no++;
#endif
    if (!trace_on)
        return;
#if GC_MONITORING
    if (monitored) {
        gc_state_frame_observer = watch_frame;
        return;
    }
#endif
    gc_set_trace_all(line_trace);
}

void gc_source_feedback_thread(void)
{
    if (trace_on && !monitored && PyThreadState_Get()->c_tracefunc != line_trace)
        PyEval_SetTrace(line_trace, NULL);
}

void gc_source_feedback_end(void)
{
    if (trace_on && !monitored)
        gc_set_trace_all(NULL);
}

/* ---- what came back ---- */

static int globals_kind(PyObject *o, char *kind, size_t n);

/* Does a walk that reaches v get somewhere: a module, a module's namespace, a frame, a
 * function (its globals), a generator or coroutine (its frame), or a primitive? */
static int leads_somewhere(PyObject *v)
{
    char kind[96];
    return PyModule_Check(v) || PyFrame_Check(v) || PyFunction_Check(v) || PyGen_Check(v) || PyCoro_CheckExact(v) ||
           PyAsyncGen_CheckExact(v) || gc_oracle_lookup(v) || globals_kind(v, kind, sizeof kind);
}

/* Does o's attribute through the class dict entry v (a member or getset descriptor: C that
 * reads a field or a getter of CPython's or an extension's, no Python code) lead somewhere? */
static int descriptor_leads(PyObject *o, PyObject *v)
{
    if (!Py_IS_TYPE(v, &PyMemberDescr_Type) && !Py_IS_TYPE(v, &PyGetSetDescr_Type))
        return 0;
    PyObject *r = Py_TYPE(v)->tp_descr_get(v, o, (PyObject *)Py_TYPE(o));
    int leads = r && leads_somewhere(r);
    Py_XDECREF(r);
    PyErr_Clear();
    return leads;
}

/* The names a value of this kind has, read from dicts (no code runs): a module's own, a
 * class's and its metaclass's along their MROs, a module's namespace's keys (GC_PM_GLOBALS_KIND),
 * else its type's along the MRO.  Its leads: the module's or namespace's keys whose value
 * leads somewhere, and the descriptors that lead somewhere on o itself. */
static void harvest_names(PyObject *o, const char *kind)
{
    PyObject *dicts[64];
    int nd = 0, globals = gc_pm_kind_is_globals(kind);
    if (PyModule_Check(o) || globals)
        dicts[nd++] = globals ? o : PyModule_GetDict(o);
    PyTypeObject *types[2] = {PyType_Check(o) ? (PyTypeObject *)o : Py_TYPE(o), PyType_Check(o) ? Py_TYPE(o) : NULL};
    for (int t = 0; t < 2 && types[t] && !globals; t++) {
        PyObject *mro = types[t]->tp_mro;
        for (Py_ssize_t i = 0; mro && PyTuple_Check(mro) && i < PyTuple_GET_SIZE(mro) && nd < 64; i++)
            dicts[nd++] = gc_type_dict((PyTypeObject *)PyTuple_GET_ITEM(mro, i));
    }
    for (int i = 0; i < nd; i++) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (dicts[i] && PyDict_Next(dicts[i], &pos, &k, &v)) {
            const char *s = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
            if (s && strlen(s) < 64)
                gc_pm_dict_add_kind(dict, kind, s);
            int own = i == 0 && (PyModule_Check(o) || globals);
            if (s && strlen(s) < 64 && (own ? leads_somewhere(v) : !PyType_Check(o) && descriptor_leads(o, v)))
                gc_pm_dict_add_lead(dict, gc_pm_dict_kind(dict, kind), s);
            PyErr_Clear();
        }
    }
}

/* Has this kind been harvested?  (A kind is harvested once: its names do not change.) */
static int seen_kind(const char *kind)
{
    static uint32_t seen[2048];
    uint32_t h = gc_fnv1a32_str(GC_FNV32_OFFSET, kind) | 1;
    for (size_t probe = 0; probe < 2048; probe++) {
        uint32_t *s = &seen[(h + probe) % 2048];
        if (*s == h)
            return 1;
        if (!*s) {
            *s = h;
            return 0;
        }
    }
    return 1;
}

/* A short identifier-like string into the pool (dict keys, an exception's name). */
static void harvest_string(PyObject *s)
{
    const char *u = dict && PyUnicode_Check(s) ? PyUnicode_AsUTF8(s) : NULL;
    if (u && *u && strlen(u) < 40 && strspn(u, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") ==
                                         strlen(u))
        gc_pm_dict_add(dict, u);
    PyErr_Clear();
}

/* A code object's part of a feature: the program's and the adapter's code by name, other
 * code by whose it is. */
static uint32_t code_feature(uint32_t h, PyObject *code)
{
    uint32_t key;
    if (!code || !PyCode_Check(code))
        return h;
    int own = code_info((PyCodeObject *)code, &key);
    return own == OWN_PROGRAM || own == OWN_ADAPTER ? h * 131u + key : gc_fnv1a32_str(h, owner_names[own]);
}

/* The frame behind f (new, or NULL), f's reference given up: a walk back along f_back. */
static PyFrameObject *back_of(PyFrameObject *f)
{
    PyFrameObject *back = PyFrame_GetBack(f);
    Py_DECREF(f);
    return back;
}

/* A frame's code and the code of the frames behind it (f_back, up to four): each hop of a
 * walk back, and a running generator's frame against a finished one's, is a new feature. */
static uint32_t frame_feature(uint32_t h, PyFrameObject *f)
{
    Py_XINCREF(f);
    for (int i = 0; f && i < 5; i++, f = back_of(f)) {
        PyCodeObject *co = PyFrame_GetCode(f);
        h = code_feature(h * 7u + 1u, (PyObject *)co);
        Py_DECREF(co);
    }
    Py_XDECREF(f);
    return h;
}

/* Is o a loaded module's namespace (a function's __globals__, a frame's f_globals)?  Its kind
 * then into 'kind': GC_PM_GLOBALS_KIND and the module's name. */
static int globals_kind(PyObject *o, char *kind, size_t n)
{
    static PyObject *key;
    if (!key)
        key = PyUnicode_InternFromString("__name__");
    PyObject *name = key && PyDict_CheckExact(o) ? PyDict_GetItemWithError(o, key) : NULL;
    PyObject *mods = PyImport_GetModuleDict();
    PyObject *m = name && PyUnicode_Check(name) && PyDict_Check(mods) ? PyDict_GetItemWithError(mods, name) : NULL;
    const char *s = m && PyModule_Check(m) && PyModule_GetDict(m) == o ? PyUnicode_AsUTF8(name) : NULL;
    PyErr_Clear();
    if (s)
        snprintf(kind, n, GC_PM_GLOBALS_KIND "%s", s);
    return s != NULL;
}

/* The value's feature (its kind, and for code-carrying values the code's name and owner);
 * its kind's name into 'kind'. */
static uint32_t value_feature(PyObject *o, char *kind, size_t n)
{
    PyObject *code = NULL;
    uint32_t finished = 0;
    if (PyModule_Check(o)) {
        const char *m = PyModule_GetName(o);
        snprintf(kind, n, "module %s", m ? m : "?");
        PyErr_Clear();
    } else if (PyType_Check(o)) {
        snprintf(kind, n, "class %s", ((PyTypeObject *)o)->tp_name);
    } else if (!globals_kind(o, kind, n)) {
        snprintf(kind, n, "%s", Py_TYPE(o)->tp_name);
        if (PyFrame_Check(o))
            return frame_feature(gc_fnv1a32_str(0xfea7u, kind), (PyFrameObject *)o);
        if (PyFunction_Check(o))
            code = Py_XNewRef(PyFunction_GetCode(o));
        else if (PyCode_Check(o))
            code = Py_NewRef(o);
        else if (PyGen_Check(o) && !(code = PyObject_GetAttrString(o, "gi_code")))
            PyErr_Clear();
        if (PyGen_Check(o)) { /* finished (no frame) or not */
            PyObject *fr = PyObject_GetAttrString(o, "gi_frame");
            finished = fr == Py_None;
            Py_XDECREF(fr);
            PyErr_Clear();
        }
    }
    uint32_t h = code_feature(gc_fnv1a32_str(0xfea7u ^ finished, kind), code);
    Py_XDECREF(code);
    return h;
}

typedef struct {
    int nodes;
} walk_ctx;

/* The outcome's kinds first, then where the input's walks ended. */
int gc_source_feedback_kinds(uint16_t *out, int max)
{
    int n = nlast < max ? nlast : max;
    memcpy(out, last_kinds, (size_t)n * sizeof *out);
    for (int i = 0; i < nwalk && n < max; i++) {
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= out[j] == walk_kinds[i];
        if (!dup)
            out[n++] = walk_kinds[i];
    }
    return n;
}

static void visit(walk_ctx *w, PyObject *o, int depth, uint32_t parent);

/* Can a value of o's kind be the mutator's focus?  Containers are walked into, not on. */
static int focusable(PyObject *o)
{
    return !PyList_Check(o) && !PyTuple_Check(o) && !PyDict_Check(o);
}

/* What o holds: a sequence's and a dict's items, an exception's values; each visited with
 * what holds it by category (1 sequence, 2 dict, 3 exception): [generator] is not a
 * generator, but a value wrapped in each exception class is not new each time. */
static void visit_items(walk_ctx *w, PyObject *o, int depth)
{
    if (PyTuple_Check(o) || PyList_Check(o)) {
        Py_ssize_t n = PyTuple_Check(o) ? PyTuple_GET_SIZE(o) : PyList_GET_SIZE(o);
        for (Py_ssize_t i = 0; i < n && i < 16; i++)
            visit(w, PyTuple_Check(o) ? PyTuple_GET_ITEM(o, i) : PyList_GET_ITEM(o, i), depth + 1, 1);
    } else if (PyDict_Check(o)) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        for (int i = 0; i < 32 && PyDict_Next(o, &pos, &k, &v); i++) {
            harvest_string(k);
            if (i < 16)
                visit(w, v, depth + 1, 2);
        }
    } else if (PyExceptionInstance_Check(o)) {
        PyBaseExceptionObject *e = (PyBaseExceptionObject *)o;
        PyObject *more[3] = {NULL, NULL, NULL};
        if (PyObject_TypeCheck(o, (PyTypeObject *)PyExc_AttributeError))
            more[0] = ((PyAttributeErrorObject *)o)->obj, more[1] = ((PyAttributeErrorObject *)o)->name;
        else if (PyObject_TypeCheck(o, (PyTypeObject *)PyExc_NameError))
            more[1] = ((PyNameErrorObject *)o)->name;
        else if (PyObject_TypeCheck(o, (PyTypeObject *)PyExc_StopIteration))
            more[0] = ((PyStopIterationObject *)o)->value;
        if (more[1])
            harvest_string(more[1]);
        PyObject *vals[5] = {e->args, e->cause, e->context, more[0], more[2]};
        for (int i = 0; i < 5; i++)
            if (vals[i])
                visit(w, vals[i], depth + 1, 3);
    }
}

/* One value reached: the feature (what holds it, 0 for the outcome itself, and what it is)
 * and its kind's names. */
static void visit(walk_ctx *w, PyObject *o, int depth, uint32_t parent)
{
    if (depth > GC_SF_DEPTH || --w->nodes < 0)
        return;
    char kind[96];
    uint32_t h = value_feature(o, kind, sizeof kind);
    if (values_on)
        hit_value(parent * 31u + h);
    if (dict && !seen_kind(kind))
        harvest_names(o, kind);
    int k = dict ? gc_pm_dict_kind(dict, kind) : -1, dup = 0;
    for (int i = 0; i < nlast; i++)
        dup |= last_kinds[i] == k;
    if (k >= 0 && !dup && nlast < GC_PM_MAX_FOCUS && focusable(o))
        last_kinds[nlast++] = (uint16_t)k;
    visit_items(w, o, depth);
}

/* Name 'name' holds v: v's kind (its names harvested as any value reached's) is the name's,
 * for the mutator's walks on it. */
static void learn_name(const char *name, PyObject *v)
{
    char kind[96];
    value_feature(v, kind, sizeof kind);
    if (!seen_kind(kind))
        harvest_names(v, kind);
    gc_pm_dict_name_kind(dict, name, gc_pm_dict_kind(dict, kind));
}

void gc_source_feedback_learn_readbacks(PyObject *ns)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    char name[64]; /* the dictionary's word size (gc_pm_dict) */
    while (dict && ns && PyDict_Next(ns, &pos, &key, &value)) {
        const char *root = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (root && snprintf(name, sizeof name, "%s.%s", root, GC_PM_ABSENT) < (int)sizeof name)
            learn_name(name, value);
    }
    PyErr_Clear();
}

void gc_source_feedback_learn_roots(PyObject *ns)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (dict && ns && PyDict_Next(ns, &pos, &key, &value)) {
        const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (name)
            learn_name(name, value);
    }
    PyErr_Clear();
}

/* A program frame returning: the kind of value each of its names holds (read from its
 * locals; the values' kinds harvested as any value reached), for the mutator's walks on
 * those names. */
static void learn_locals(PyFrameObject *fr)
{
#if PY_VERSION_HEX >= 0x030c0000
    PyObject *raised = PyErr_GetRaisedException(); /* a frame left by an exception carries one */
#else
    PyObject *exc_type, *exc_value, *exc_tb;
    PyErr_Fetch(&exc_type, &exc_value, &exc_tb);
#endif
    PyObject *loc = PyFrame_GetLocals(fr), *items = loc ? PyMapping_Items(loc) : NULL;
    for (Py_ssize_t i = 0; items && PyList_Check(items) && i < PyList_GET_SIZE(items) && i < 32; i++) {
        PyObject *kv = PyList_GET_ITEM(items, i);
        const char *name = PyTuple_Check(kv) && PyTuple_GET_SIZE(kv) == 2 && PyUnicode_Check(PyTuple_GET_ITEM(kv, 0))
                               ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(kv, 0))
                               : NULL;
        if (!name)
            continue;
        learn_name(name, PyTuple_GET_ITEM(kv, 1));
    }
    Py_XDECREF(items);
    Py_XDECREF(loc);
    PyErr_Clear();
#if PY_VERSION_HEX >= 0x030c0000
    PyErr_SetRaisedException(raised);
#else
    PyErr_Restore(exc_type, exc_value, exc_tb);
#endif
}

int gc_source_feedback_in_program(int depth)
{
    PyFrameObject *f = PyEval_GetFrame(); /* borrowed */
    Py_XINCREF(f);
    int in = 0;
    for (int i = 0; f && i < depth && !in; i++, f = back_of(f)) {
        PyCodeObject *co = PyFrame_GetCode(f);
        uint32_t key;
        in = code_info(co, &key) == OWN_PROGRAM;
        Py_DECREF(co);
    }
    Py_XDECREF(f);
    return in;
}

/* At most this many walk paths are kept as keys of the dictionary (its words are shared). */
#define MAX_PATH_KEYS 1024

/* The last part of a walk's path (`a.b[k]`: k), into out[n]: its length, 0 when none. */
static size_t last_part(const char *path, char *out, size_t n)
{
    const char *dot = strrchr(path, '.'), *br = strrchr(path, '[');
    const char *at = dot > br ? dot + 1 : br ? br + 1 : path;
    size_t len = strcspn(at, "]");
    if (!len || len >= n)
        return 0;
    memcpy(out, at, len);
    out[len] = 0;
    return len;
}

uint32_t gc_source_feedback_reached(PyObject *o, uint32_t h, int part, const char *path, int *slot)
{
    static int npaths, before = -1; /* the kind the walk's previous part reached */
    char kind[96], w[64];
    h = h * 31u + value_feature(o, kind, sizeof kind) + (uint32_t)part;
    if (values_on && part > 0)
        hit_value(h);
    if (!dict)
        return h;
    if (!seen_kind(kind))
        harvest_names(o, kind);
    int k = gc_pm_dict_kind(dict, kind);
    if (part > 0 && before >= 0 && path && leads_somewhere(o) && last_part(path, w, sizeof w))
        gc_pm_dict_add_lead(dict, before, w);
    before = k;
    if (k >= 0 && path && npaths < MAX_PATH_KEYS)
        npaths += gc_pm_dict_path_kind(dict, path, k);
    if (k >= 0 && slot && focusable(o)) {
        if (*slot < 0 && nwalk < GC_PM_MAX_FOCUS)
            *slot = nwalk++;
        if (*slot >= 0)
            walk_kinds[*slot] = (uint16_t)k;
    }
    return h;
}

void gc_source_feedback_outcome(PyObject *value, PyObject *exc, int refused)
{
    if (!values_on && !dict)
        return;
    uint32_t h = gc_fnv1a32_str(0x0u, refused ? "refused" : exc ? Py_TYPE(exc)->tp_name : "value");
    if (values_on)
        hit(h);
    walk_ctx w = {GC_SF_NODES};
    if (!refused && (value || exc))
        visit(&w, value ? value : exc, 0, 0);
    PyErr_Clear();
}
