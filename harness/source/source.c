/* source.c — see source.h.  The adapter is imported by target.c exactly as a gate module
 * is (by file path, its folder on sys.path) and bound by adapter.c; this file runs programs
 * through it.
 *
 * The C-call guard sees every call of a primitive C function or method descriptor inside
 * the evaluation before the call runs: the program's code, the sandbox's own, code the
 * sandbox compiled, and C code calling it (map(os.write, ...)).  It is a libffi closure in
 * each primitive's entry point (runtime/callguard.h), so no other call pays for it; this
 * file sets its judge while evaluate runs.  A class call (Popen) is no C function call: its
 * own audit event judges it.  A write primitive CPython audits runs on to its audit event,
 * which has the call's arguments and is judged like a gate's (oracle.c).
 *
 * Threads are part of the evaluation: a sandbox that runs the program in a worker (an agent
 * executor's ThreadPoolExecutor, for its timeout) is evaluated as deployed.  Thread starts
 * are allowed (GC_PRIM_THREAD); the guard's closures and sys.monitoring's events fire on
 * every thread; 3.11's line trace is put on every thread when evaluate starts (pycompat.h:
 * gc_set_trace_all), and on a thread started during it at its first Python frame (state.c's
 * frame hook calls on_thread_frame), before any of its code runs; the time limit reaches
 * them (timelimit.c), and those still alive when the input ends are stopped (state.c). */
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callguard.h"
#include "confine.h"
#include "dialect.h"
#include "facility.h"
#include "interp.h"
#include "monitor.h"
#include "program_ns.h"
#include "pycompat.h"
#include "source_feedback.h"
#include "walk_feedback.h"
#include "state.h"
#include "timelimit.h"

/* ---- the C-call guard ---- */

/* sys.audit's method definition (what the oracle table knows it by), read before the first
 * program runs (call_evaluate). */
static PyMethodDef *sys_audit_def;

/* The judge of every primitive C function's calls (callguard.h) while evaluate runs, on
 * any of its threads, before the call runs: stopped by the oracle's rule
 * (gc_oracle_guard_prim), -1 with the refusal raised.  Reach mode: a forbidden primitive
 * called is the escape, unless its audit event judges it (a write primitive CPython audits:
 * the event has the arguments, so linecache's open(path, 'rb') under a warning is no escape
 * and open(path, 'w') still is); otherwise the evaluator's own refusals apply.
 *
 * sys.audit called by the standard library's own code (the calling frame's module's
 * top-level name is in sys.stdlib_module_names): subprocess.Popen audits its spawn in
 * Python, and that event is what judges it.  Let through, the audit hook sees the event.
 * Called by anything else (the program, or the sandbox on its behalf) it could forge an
 * event, and stays refused. */
static int stdlib_frame(PyFrameObject *frame)
{
    static PyObject *stdlib;
    if (!stdlib)
        stdlib = PySys_GetObject("stdlib_module_names"); /* borrowed, lives as long as sys */
    PyObject *g = frame ? PyFrame_GetGlobals(frame) : NULL;
    PyObject *name = g ? PyDict_GetItemString(g, "__name__") : NULL;
    PyObject *dot = PyUnicode_FromString(".");
    PyObject *parts = name && PyUnicode_Check(name) && dot ? PyUnicode_Split(name, dot, 1) : NULL;
    int in = stdlib && parts && PyList_GET_SIZE(parts) > 0 && PySet_Contains(stdlib, PyList_GET_ITEM(parts, 0)) == 1;
    Py_XDECREF(parts);
    Py_XDECREF(dot);
    Py_XDECREF(g);
    PyErr_Clear();
    return in;
}

/* Which part of the input runs: the evaluation, or the host's handling of its value after
 * it (host_handles); the guard's finding says which.  Set and put back by the one thread
 * that runs inputs, like gc_orc.in_chain. */
static int after_window;

static int judge(const gc_prim *p)
{
    if (!gc_orc.in_chain || (p->def == sys_audit_def && stdlib_frame(PyEval_GetFrame())))
        return 0;
    if (p->spec->flags & GC_PRIM_FACILITY)
        gc_facility_before_call(p->name);
    return gc_oracle_guard_prim(p, after_window ? "called after evaluate returned, by the host's handling of the value "
                                                  "(repr, compare, drop: C-call guard)"
                                                : "called inside the evaluation (C-call guard)")
               ? -1
               : 0;
}

static int monitored; /* the line feedback is sys.monitoring events */

#if GC_MONITORING
/* Once, before the first input's state is taken (state.c records the tool's global events
 * then): the line feedback's callbacks and its global event. */
static void monitor_start(void)
{
    static int started;
    if (started++)
        return;
    int mask = gc_source_feedback_monitor();
    monitored = mask >= 0 && gc_monitor_global(mask) == 0;
}
#else
static void monitor_start(void) {}
#endif

int gc_source_monitored(void)
{
    monitor_start();
    return monitored;
}

/* ---- the returned value's search ---- */

typedef struct {
    int nodes; /* budget left */
    const char *where; /* "the value evaluate gave back", "the program's namespace" */
    char root[80];     /* the searched value's own name: "result", "x" */
    int dry;           /* a find is only noted (found), the escape not set */
    const gc_prim *found;
    struct {   /* the steps from the value to the current one ("[0]", ".args"), by depth */
        const char *fmt;
        Py_ssize_t i;
    } step[GC_SOURCE_SEARCH_DEPTH + 1];
} search_ctx;

static int search(search_ctx *s, PyObject *v, int depth);

/* Search 'v', one step (fmt, i) below depth.  The path is written only for a find (path_of):
 * formatted at every node, it was 2% of an input on simpleeval. */
static int search_at(search_ctx *s, PyObject *v, int depth, const char *fmt, Py_ssize_t i)
{
    if (!v || depth >= GC_SOURCE_SEARCH_DEPTH)
        return 0;
    s->step[depth].fmt = fmt, s->step[depth].i = i;
    return search(s, v, depth + 1);
}

/* Where the value at 'depth' sits: "result[0].args[1]". */
static void path_of(const search_ctx *s, int depth, char *out, size_t n)
{
    size_t len = (size_t)snprintf(out, n, "%s", s->root);
    for (int d = 0; d < depth && len < n; d++)
        len += (size_t)snprintf(out + len, n - len, s->step[d].fmt, s->step[d].i);
}

/* An exception's values: args, __cause__, __context__, AttributeError.obj/.name,
 * StopIteration.value, and its instance __dict__ (read from the C structs: no code runs). */
static int search_exception(search_ctx *s, PyObject *v, int depth)
{
    PyBaseExceptionObject *e = (PyBaseExceptionObject *)v;
    if (search_at(s, e->args, depth, ".args", 0) || search_at(s, e->cause, depth, ".__cause__", 0) ||
        search_at(s, e->context, depth, ".__context__", 0) || search_at(s, e->dict, depth, ".__dict__", 0))
        return 1;
    if (PyObject_TypeCheck(v, (PyTypeObject *)PyExc_AttributeError)) {
        PyAttributeErrorObject *a = (PyAttributeErrorObject *)v;
        return search_at(s, a->obj, depth, ".obj", 0) || search_at(s, a->name, depth, ".name", 0);
    }
    if (PyObject_TypeCheck(v, (PyTypeObject *)PyExc_StopIteration))
        return search_at(s, ((PyStopIterationObject *)v)->value, depth, ".value", 0);
    return 0;
}

static int search_container(search_ctx *s, PyObject *v, int depth)
{
    if (PyTuple_Check(v) || PyList_Check(v)) {
        Py_ssize_t n = PyTuple_Check(v) ? PyTuple_GET_SIZE(v) : PyList_GET_SIZE(v);
        for (Py_ssize_t i = 0; i < n && s->nodes > 0; i++) {
            PyObject *it = PyTuple_Check(v) ? PyTuple_GET_ITEM(v, i) : PyList_GET_ITEM(v, i);
            if (search_at(s, it, depth, "[%zd]", i))
                return 1;
        }
        return 0;
    }
    PyObject *k, *val;
    Py_ssize_t pos = 0, i = 0;
    while (PyDict_Check(v) && s->nodes > 0 && PyDict_Next(v, &pos, &k, &val)) {
        if (search_at(s, k, depth, "{key %zd}", i) || search_at(s, val, depth, "{value %zd}", i))
            return 1;
        i++;
    }
    return 0;
}

static int search(search_ctx *s, PyObject *v, int depth)
{
    if (depth > GC_SOURCE_SEARCH_DEPTH || --s->nodes < 0)
        return 0;
    const gc_prim *p = gc_oracle_forbidden(v);
    if (p && s->dry) {
        s->found = p;
        return 1;
    }
    if (p) {
        char path[256], detail[300];
        path_of(s, depth, path, sizeof path);
        snprintf(detail, sizeof detail, "in %s, at %s", s->where, path);
        gc_oracle_set_escape(GC_KIND_REACH, p->spec->cap, p->name, detail);
        return 1;
    }
    if (PyExceptionInstance_Check(v))
        return search_exception(s, v, depth);
    return search_container(s, v, depth);
}

const char *gc_source_value_reaches(PyObject *v)
{
    search_ctx s = {.nodes = GC_SOURCE_SEARCH_NODES, .root = "result", .dry = 1};
    return v && search(&s, v, 0) && s.found ? s.found->name : NULL;
}

/* What the program holds (reach mode): each binding it made or changed in the namespaces its
 * code ran in ('spaces': (namespace, before) pairs, program_ns.h; the builtins left out),
 * searched as a returned value is, with one budget.  The program could call what it holds on
 * its next line, or the agent at its next step, whatever evaluate gives back.  1 when a
 * forbidden primitive is found (the escape set). */
static int search_namespaces(PyObject *spaces)
{
    search_ctx s = {.nodes = GC_SOURCE_SEARCH_NODES, .where = "the program's namespace"};
    for (Py_ssize_t i = 0; spaces && i < PyList_GET_SIZE(spaces) && s.nodes > 0; i++) {
        PyObject *pair = PyList_GET_ITEM(spaces, i), *k, *v;
        PyObject *d = PyTuple_GET_ITEM(pair, 0), *before = PyTuple_GET_ITEM(pair, 1);
        Py_ssize_t pos = 0;
        while (s.nodes > 0 && PyDict_Next(d, &pos, &k, &v)) {
            const char *name = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
            PyErr_Clear();
            if ((name && strcmp(name, "__builtins__") == 0) ||
                (PyDict_Check(before) && PyDict_GetItemWithError(before, k) == v))
                continue;
            PyErr_Clear();
            snprintf(s.root, sizeof s.root, "%s", name ? name : "?");
            if (search(&s, v, 0))
                return 1;
        }
    }
    return 0;
}

/* The dicts namespace() (the adapter's, optional) gives: a dict, or a list or tuple of them;
 * what else it gives, or raises, is passed over.  A new list, NULL without namespace(). */
static PyObject *adapter_dicts(gc_target *t)
{
    PyObject *r = t->adapter.ns_fn ? PyObject_CallNoArgs(t->adapter.ns_fn) : NULL;
    PyObject *seq = r && (PyList_Check(r) || PyTuple_Check(r)) ? PySequence_Fast(r, "") : NULL;
    Py_ssize_t n = seq ? PySequence_Fast_GET_SIZE(seq) : r && PyDict_Check(r) ? 1 : 0;
    PyObject *out = t->adapter.ns_fn ? PyList_New(0) : NULL;
    for (Py_ssize_t i = 0; out && i < n && i < GC_PROGRAM_NS_MAX; i++) {
        PyObject *d = seq ? PySequence_Fast_GET_ITEM(seq, i) : r;
        if (PyDict_Check(d) && PyList_Append(out, d) < 0)
            break;
    }
    Py_XDECREF(seq);
    Py_XDECREF(r);
    PyErr_Clear();
    return out;
}

/* namespace()'s dicts after evaluate onto 'spaces', each with its copy from before evaluate
 * when it is the same dict ('pre': copies of the dicts namespace() gave then), else none. */
static void adapter_namespaces(gc_target *t, PyObject *pre, PyObject *spaces)
{
    PyObject *now = adapter_dicts(t);
    for (Py_ssize_t i = 0; now && i < PyList_GET_SIZE(now); i++) {
        PyObject *d = PyList_GET_ITEM(now, i), *before = Py_None;
        for (Py_ssize_t k = 0; pre && k < PyList_GET_SIZE(pre); k++)
            if (PyTuple_GET_ITEM(PyList_GET_ITEM(pre, k), 0) == d)
                before = PyTuple_GET_ITEM(PyList_GET_ITEM(pre, k), 1);
        PyObject *pair = PyTuple_Pack(2, d, before);
        if (!pair || PyList_Append(spaces, pair) < 0)
            PyErr_Clear();
        Py_XDECREF(pair);
    }
    Py_XDECREF(now);
}

/* Before evaluate: what namespace()'s dicts hold, as (dict, copy) pairs (a new list), or NULL. */
static PyObject *adapter_before(gc_target *t)
{
    PyObject *now = adapter_dicts(t), *pre = now ? PyList_New(0) : NULL;
    for (Py_ssize_t i = 0; pre && i < PyList_GET_SIZE(now); i++) {
        PyObject *d = PyList_GET_ITEM(now, i), *copy = PyDict_Copy(d);
        PyObject *pair = copy ? PyTuple_Pack(2, d, copy) : NULL;
        if (!pair || PyList_Append(pre, pair) < 0)
            PyErr_Clear();
        Py_XDECREF(pair);
        Py_XDECREF(copy);
    }
    Py_XDECREF(now);
    return pre;
}

/* A statement program's value when evaluate gave back None (an agent executor's adapter that
 * returns the value of the last expression statement): its `result` binding, where the
 * program's namespace has one (new reference), else NULL. */
static PyObject *result_binding(const gc_target *t, PyObject *spaces)
{
    if (t->spec.adapter.dialect & GC_DIALECT_EXPRESSION)
        return NULL;
    for (Py_ssize_t i = 0; spaces && i < PyList_GET_SIZE(spaces); i++) {
        PyObject *v = PyDict_GetItemString(PyTuple_GET_ITEM(PyList_GET_ITEM(spaces, i), 0), "result");
        if (v)
            return Py_NewRef(v);
    }
    return NULL;
}

/* ---- one program ---- */

static void describe(const gc_target *t, PyObject *r, PyObject *exc, char *note, size_t notelen)
{
    if (r)
        snprintf(note, notelen, "returned %s", Py_TYPE(r)->tp_name);
    else if (PyObject_IsInstance(exc, t->adapter.refusal_types) == 1)
        snprintf(note, notelen, "refused by the sandbox: %s", Py_TYPE(exc)->tp_name);
    else
        snprintf(note, notelen, "raised %s", Py_TYPE(exc)->tp_name);
    PyErr_Clear();
}

/* A frame starting on a thread other than the inputs' while evaluate runs (3.11's line
 * trace only): a thread it started gets the line trace before its first line (its
 * sys.settrace audit event is the harness's own). */
static void on_thread_frame(PyThreadState *ts)
{
    /* Installing it raises its audit event, and a Python audit hook (one a library of the
     * sandbox added) starts a frame on this thread: without this flag that frame would
     * install it again, recursing until the stack ran out (seen with smolagents 1.26.0's
     * worker threads). */
    static _Thread_local int installing;
    (void)ts;
    if (installing)
        return;
    installing = 1;
    gc_oracle_own_event = 1;
    gc_source_feedback_thread();
    gc_oracle_own_event = 0;
    installing = 0;
}

/* The oracle window around code the input decides (evaluate, the host's handling of its
 * value): the C-call guard judges calls, and what runs counts as the input's. */
static void window_open(void)
{
    gc_callguard_judge = judge;
    gc_orc.in_chain = gc_orc.in_sandbox = 1;
}

static void window_close(void)
{
    gc_orc.in_chain = gc_orc.in_sandbox = 0;
    gc_callguard_judge = NULL;
}

/* evaluate(src) under the guard's judge; the value, or NULL with the exception in *exc;
 * the namespaces the program ran in, found (program_ns.h) or given by namespace(), in
 * *spaces (a new list). */
static PyObject *call_evaluate(gc_target *t, PyObject *src, PyObject **exc, PyObject **spaces)
{
    if (!sys_audit_def) {
        PyObject *audit = PySys_GetObject("audit"); /* borrowed */
        sys_audit_def = audit && PyCFunction_Check(audit) ? ((PyCFunctionObject *)audit)->m_ml : NULL;
    }
    if (!monitored)
        gc_state_thread_observer = on_thread_frame;
    gc_source_feedback_begin(); /* before in_chain: its audit event is the harness's */
    gc_walk_feedback_reset();
    window_open();
    PyObject *pre = adapter_before(t);
    gc_program_ns_begin();
    PyObject *r = PyObject_CallOneArg(t->adapter.eval_fn, src);
    *exc = r ? NULL : gc_exception_value();
    *spaces = gc_program_ns_end();
    if (*spaces)
        adapter_namespaces(t, pre, *spaces);
    Py_XDECREF(pre);
    window_close();
    gc_oracle_refresh(); /* the modules the program imported: their rows, before the search */
    gc_source_feedback_end();
    gc_state_thread_observer = NULL;
    return r;
}

/* 1 when a namespace of the program holds a class made by Python code or an instance with a
 * finalizer: what a collection can finalize (a class's methods hold the namespace, a cycle
 * only a collection frees).  A full collection after every input would cost more than the
 * input (nine times over on restrictedpython), so it runs only then. */
static int holds_classes(PyObject *r, PyObject *spaces)
{
    if (r && PyType_HasFeature(Py_TYPE(r), Py_TPFLAGS_HEAPTYPE))
        return 1;
    for (Py_ssize_t i = 0; spaces && i < PyList_GET_SIZE(spaces); i++) {
        PyObject *d = PyTuple_GET_ITEM(PyList_GET_ITEM(spaces, i), 0), *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Check(d) && PyDict_Next(d, &pos, &k, &v))
            if ((PyType_Check(v) && PyType_HasFeature((PyTypeObject *)v, Py_TPFLAGS_HEAPTYPE)) ||
                (PyType_HasFeature(Py_TYPE(v), Py_TPFLAGS_HEAPTYPE) && Py_TYPE(v)->tp_finalize))
                return 1;
    }
    return 0;
}

/* What the host does with the value after evaluate returned: logs its repr, str and format
 * (an f-string), compares it (== None), hashes it (a cache's key) and tests its truth, for a
 * value of a class made by Python code (where the program's methods can be: a builtin
 * type's repr runs none, and a dict's of the host's modules would run the site's printers);
 * then drops it, the exception and the program's namespaces (their finalizers run, and a
 * collection for cycles when there are classes: holds_classes).  The program's own dunder
 * methods run there, after every check the sandbox makes inside its window, so the oracles
 * stay on (the guard's judge, in_chain) under the input's time limit.  What the handling
 * raises is the host's to log, not a verdict: cleared.  Takes the three references. */
static void host_handles(PyObject *r, PyObject *exc, PyObject *spaces)
{
    int collect = holds_classes(r, spaces);
    gc_limits_arm();
    window_open();
    after_window = 1;
    if (r && PyType_HasFeature(Py_TYPE(r), Py_TPFLAGS_HEAPTYPE)) { /* a class of Python code: the program's, perhaps */
        /* each call starts with no exception set: what one raised is cleared first */
        Py_XDECREF(PyObject_Repr(r));
        PyErr_Clear();
        Py_XDECREF(PyObject_Str(r));
        PyErr_Clear();
        Py_XDECREF(PyObject_Format(r, NULL));
        PyErr_Clear();
        Py_XDECREF(PyObject_RichCompare(r, Py_None, Py_EQ));
        PyErr_Clear();
        (void)PyObject_Hash(r);
        PyErr_Clear();
        (void)PyObject_IsTrue(r);
        PyErr_Clear();
    }
    Py_XDECREF(r);
    Py_XDECREF(exc);
    Py_XDECREF(spaces);
    PyErr_Clear();
    if (collect)
        (void)PyGC_Collect();
    PyErr_Clear();
    after_window = 0;
    window_close();
    gc_limits_disarm();
}

int gc_source_run(gc_target *t, const char *text, size_t len, gc_verdict *out, char *note, size_t notelen,
                  char *err, size_t errlen)
{
    return gc_source_run_value(t, text, len, out, NULL, note, notelen, err, errlen);
}

int gc_source_run_value(gc_target *t, const char *text, size_t len, gc_verdict *out, PyObject **value, char *note,
                        size_t notelen, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (value)
        *value = NULL;
    gc_oracle_reset_input();
    PyObject *src = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "strict");
    if (!src) {
        PyErr_Clear();
        snprintf(err, errlen, "the program is not UTF-8 text");
        return GC_EXIT_USAGE;
    }
    PyObject *exc = NULL, *spaces = NULL;
    monitor_start();
    gc_state_begin();
    gc_limits_arm();
    PyObject *r = call_evaluate(t, src, &exc, &spaces);
    gc_limits_disarm();
    gc_confine_judge(); /* a write from C the kernel refused while evaluate ran (the sandbox's or the program's) */
    out->timed_out = gc_limit_expired;
    out->oom = gc_limit_oom;
    PyObject *bound = r == Py_None ? result_binding(t, spaces) : NULL;
    if (bound)
        Py_SETREF(r, bound);
    describe(t, r, exc, note, notelen);
    int refused = !r && strncmp(note, "refused", 7) == 0;
    search_ctx s = {.nodes = GC_SOURCE_SEARCH_NODES, .root = "result",
                    .where = bound ? "the program's result binding (evaluate gave back None)" : "the value evaluate gave back"};
    int judged = !gc_orc.escape.set && gc_orc.mode == GC_MODE_REACH && !out->timed_out && !out->oom;
    if (judged && !refused)
        search(&s, r ? r : exc, 0);
    /* a program the sandbox refused: what it holds the host throws away with it (a program
     * that holds the primitive and is not refused is a smaller edit away) */
    int held = judged && !refused && !gc_orc.escape.set && search_namespaces(spaces);
    if (!out->timed_out && !out->oom)
        gc_source_feedback_outcome(r, exc, refused);
    if (value)
        *value = Py_XNewRef(r);
    host_handles(r, exc, spaces);
    gc_confine_judge(); /* and one the host's handling of the value made (a finalizer's, from C) */
    out->timed_out |= gc_limit_expired;
    out->oom |= gc_limit_oom;
    Py_DECREF(src);
    out->escaped = gc_orc.escape.set;
    out->escape = gc_orc.escape;
    snprintf(out->refused, sizeof out->refused, "%s", gc_orc.refused);
    /* held in the program's namespace, not given back: a finding of its own (a minimizer
     * keeps `result = X` where `t = X` would be the other finding) */
    snprintf(out->signature, sizeof out->signature, "source:%s:%s%s", gc_kind_name(out->escape.kind),
             out->escape.primitive, held ? ":held" : "");
    out->steps = 1;
    int rep = gc_state_end(out->state_note, sizeof out->state_note);
    if (rep < 0) {
        snprintf(err, errlen, "interpreter state could not be restored after the input: %s", out->state_note);
        return GC_EXIT_HARNESS;
    }
    out->state_repairs = rep;
    out->thread_stopped = gc_state_threads_stopped();
    return 0;
}
