/* probe.c — see probe.h.  Each probe is a program that does nothing a sandbox should mind,
 * run the way every input is (gc_source_run_value: the value kept), so what
 * goes wrong here goes wrong for every program the fuzzer would write. */
#include "probe.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "dialect.h"
#include "source_sweep.h"

/* A benign program in each dialect (NULL: none in the expression dialect), and the repr of
 * the value it gives back. */
typedef struct {
    const char *stmt, *expr, *want;
} probe_prog;

static const probe_prog progs[] = {
    {"result = 1", "1", "1"},           {"result = 2 + 3", "2 + 3", "5"},
    {"result = 'gc'", "'gc'", "'gc'"},  {"result = [1, 2]", "[1, 2]", "[1, 2]"},
    {"x = 4\nresult = x", NULL, "4"},
};
#define NPROGS (sizeof progs / sizeof progs[0])

static int is_expression(const gc_target *t) { return (t->spec.adapter.dialect & GC_DIALECT_EXPRESSION) != 0; }

/* ---- reporting ---- */

/* A problem: printed when every probe runs; the first fatal one kept.  A line of a kind
 * already printed is not printed again ('kind' names it, e.g. "gave None"). */
typedef struct {
    gc_probe_report *r;
    gc_probe_mode mode;
    int silent;            /* nothing printed (the expression dialect tried quietly) */
    char kinds[16][96];
    int nkinds;
    char refused[256];     /* the sandbox's last refusal of a probe */
    char why[512];         /* the first probe's problem */
} reporter;

static void problem(reporter *p, int fatal, const char *kind, const char *line)
{
    for (int k = 0; k < p->nkinds; k++)
        if (strcmp(p->kinds[k], kind) == 0)
            return;
    if (p->nkinds < 16)
        snprintf(p->kinds[p->nkinds++], sizeof p->kinds[0], "%s", kind);

    p->r->problems++;
    if (fatal && !p->r->fatal) {
        p->r->fatal = 1;
        snprintf(p->r->first, sizeof p->r->first, "%s", line);
    }
    if (p->silent || strcmp(kind, "no value") == 0) /* `check`'s last line, the caller's error line say it */
        return;
    if (p->mode == GC_PROBE_CHECK)
        printf("problem: %s\n", line);
    else if (!fatal)
        fprintf(stderr, "gatecrash: adapter problem: %s\n", line);
}

/* A problem of a probe's program that kept its value from coming back: the first is kept, for
 * the line fuzz and sweep stop with. */
static void lost(reporter *p, int fatal, const char *kind, const char *line)
{
    problem(p, fatal, kind, line);
    if (!p->why[0])
        snprintf(p->why, sizeof p->why, "%s", line);
}

/* The program as evaluate('...') shows it: newlines as \n. */
static void shown(const char *src, char *out, size_t n)
{
    size_t o = snprintf(out, n, "evaluate('");
    for (const char *s = src; *s && o + 4 < n; s++)
        o += *s == '\n' ? (size_t)snprintf(out + o, n - o, "\\n") : (size_t)snprintf(out + o, n - o, "%c", *s);
    snprintf(out + o, n - o, "')");
}

/* ---- the harness's own hooks ---- */

static int noop_hook(PyObject *o, PyFrameObject *f, int what, PyObject *arg)
{
    (void)o, (void)f, (void)what, (void)arg;
    return 0;
}

/* Can the line feedback be installed here?  3.12+: as a sys.monitoring tool's events
 * (source.c), else as a trace function.  An audit hook the adapter or its sandbox added at
 * import may refuse sys.monitoring.register_callback and sys.settrace, and CPython then
 * leaves the function unset with no error the caller sees.  (The C-call guard needs no
 * hook: it is in the primitives' own entry points, runtime/callguard.h.) */
static void probe_hooks(reporter *p)
{
    if (gc_source_monitored())
        return;
    PyThreadState *ts = PyThreadState_Get();
    PyEval_SetTrace(noop_hook, NULL);
    int trace = ts->c_tracefunc == noop_hook;
    PyEval_SetTrace(NULL, NULL);
    PyErr_Clear();
    char line[300];
    snprintf(line, sizeof line,
             "the line trace cannot be installed: an audit hook refuses %ssys.settrace (added at import); the "
             "fuzzer gets no line feedback from the sandbox",
             PY_VERSION_HEX >= 0x030c0000 ? "sys.monitoring.register_callback and " : "");
    if (!trace)
        problem(p, 0, "settrace", line);
}

/* ---- the benign programs ---- */

static int child_processes(void)
{
    int st;
    pid_t pid = waitpid(-1, &st, WNOHANG);
    return pid != -1 || errno != ECHILD;
}

/* What one probe's verdict says is wrong, if anything: a problem line; 1 when the program's
 * value came back. */
static int judge(reporter *p, const gc_target *t, const probe_prog *pp, const char *src, const gc_verdict *v,
                 PyObject *value, const char *note)
{
    char prog[128], line[512], kind[96];
    shown(src, prog, sizeof prog);
    if (v->state_note[0]) {
        snprintf(line, sizeof line, "%s left state the harness repairs after every input (%s): a fresh process "
                 "would not see it, so make the sandbox's objects fresh in each call", prog, v->state_note);
        problem(p, 0, "state", line);
    }
    if (v->escaped) {
        snprintf(line, sizeof line, "%s is an escape (%s %s %s, %s): the adapter or its sandbox reaches a "
                 "forbidden primitive on a program that does nothing, so every program would be blamed for it",
                 prog, gc_kind_name(v->escape.kind), gc_cap_name(v->escape.cap), v->escape.primitive,
                 v->escape.detail);
        lost(p, 1, "escape", line);
        return 0;
    }
    if (v->timed_out || v->oom) {
        snprintf(line, sizeof line, "%s was stopped by the per-input %s limit", prog, v->oom ? "memory" : "time");
        lost(p, 0, v->oom ? "oom" : "timeout", line);
        return 0;
    }
    if (v->refused[0]) {
        snprintf(kind, sizeof kind, "harness %s", v->refused);
        snprintf(line, sizeof line, "%s was refused by the harness (%s): the adapter's or the sandbox's own "
                 "code calls it on every program (docs/SOURCE.md, the adapter contract)", prog, v->refused);
        lost(p, 0, kind, line);
        return 0;
    }
    if (!value && strncmp(note, "refused", 7) == 0) { /* the sandbox may not have lists: a note, no problem */
        if (p->mode == GC_PROBE_CHECK && !p->silent)
            printf("note: %s %s\n", prog, note);
        if (!p->refused[0])
            snprintf(p->refused, sizeof p->refused, "%s %s", prog, note);
        return 0;
    }
    if (!value) {
        snprintf(kind, sizeof kind, "%s", note);
        snprintf(line, sizeof line, "%s %s", prog, note);
        lost(p, 0, kind, line);
        return 0;
    }
    PyObject *rep = PyObject_Repr(value);
    const char *got = rep ? PyUnicode_AsUTF8(rep) : NULL;
    int ok = got && strcmp(got, pp->want) == 0;
    if (!ok) {
        snprintf(kind, sizeof kind, "gave %s", Py_TYPE(value)->tp_name);
        snprintf(line, sizeof line, "%s gave %.60s, not %s: %s", prog, got ? got : Py_TYPE(value)->tp_name, pp->want,
                 is_expression(t) ? "an expression-dialect adapter returns the expression's value"
                                  : "a statement-dialect adapter returns the program's `result` binding");
        lost(p, 0, kind, line);
    }
    Py_XDECREF(rep);
    PyErr_Clear();
    return ok;
}

/* Every benign program once, in the dialect 'expr' or not; 'good' counts those whose value
 * came back.  0 or an exit code. */
static int probe_dialect(reporter *p, gc_target *t, int expr, int *good, char *err, size_t errlen)
{
    *good = 0;
    for (size_t k = 0; k < NPROGS; k++) {
        const char *src = expr ? progs[k].expr : progs[k].stmt;
        if (!src)
            continue;
        gc_verdict v;
        PyObject *value = NULL;
        char note[256];
        int rc = gc_source_run_value(t, src, strlen(src), &v, &value, note, sizeof note, err, errlen);
        if (rc)
            return rc;
        *good += judge(p, t, &progs[k], src, &v, value, note);
        Py_XDECREF(value);
    }
    return 0;
}

int gc_source_probe_dialect(gc_target *t, char *err, size_t errlen)
{
    gc_probe_report r = {0}, re = {0};
    reporter quiet = {.r = &r, .silent = 1}, quiet_expr = {.r = &re, .silent = 1};
    int good = 0, as_expr = 0;
    int rc = is_expression(t) ? 0 : probe_dialect(&quiet, t, 0, &good, err, errlen);
    if (!rc && !is_expression(t) && good == 0 && !r.fatal)
        rc = probe_dialect(&quiet_expr, t, 1, &as_expr, err, errlen);
    if (!rc && as_expr)
        t->spec.adapter.dialect |= GC_DIALECT_EXPRESSION;
    return rc;
}

/* The benign programs in the target's dialect; when none gives its value back in a statement
 * dialect, the same as expressions (an expression evaluator named without "expression",
 * as --adapter names every target: fuzzable, its expression statements run).  Fatal when
 * neither gives a value.  0 or an exit code. */
static int probe_programs(reporter *p, gc_target *t, int *good, char *err, size_t errlen)
{
    int had_children = child_processes(), as_expr = 0;
    int rc = probe_dialect(p, t, is_expression(t), good, err, errlen);
    if (!rc && *good == 0 && !is_expression(t) && !p->r->fatal) {
        reporter quiet = {.r = &(gc_probe_report){0}, .silent = 1};
        rc = probe_dialect(&quiet, t, 1, &as_expr, err, errlen);
    }
    if (!had_children && child_processes())
        problem(p, 0, "children", "evaluate leaves child processes behind");
    char line[700];
    if (!rc && as_expr) { /* the dialect the probes show, used from here on */
        snprintf(line, sizeof line, "no statement program gives its value back, but expressions do (evaluate('1') "
                 "gave 1): the sandbox takes expressions; target.json's \"dialect\" should have \"expression\"");
        if (p->mode == GC_PROBE_CHECK)
            problem(p, 0, "expression", line);
        *good = as_expr;
        p->r->expression = 1;
        t->spec.adapter.dialect |= GC_DIALECT_EXPRESSION;
    }
    if (!rc && *good == 0 && !p->r->fatal) {
        snprintf(line, sizeof line, "no program gives its value back, so fuzzing would find nothing: %s",
                 p->why[0] ? p->why : p->refused);
        problem(p, 1, "no value", line);
    }
    return rc;
}

/* ---- roots and time ---- */

/* The names in 'value' (a list's or tuple's strings, a dict's str keys) that the dialect
 * writes, no builtin and not yet in 'into', appended to it: how many. */
static int add_names(const gc_target *t, PyObject *value, PyObject *builtins, PyObject *into)
{
    PyObject *seq = PyDict_Check(value)                         ? PyDict_Keys(value)
                    : PyList_Check(value) || PyTuple_Check(value) ? PySequence_List(value)
                                                                  : NULL;
    int added = 0;
    for (Py_ssize_t i = 0; seq && i < PyList_GET_SIZE(seq) && PyList_GET_SIZE(into) < 1024; i++) {
        PyObject *name = PyList_GET_ITEM(seq, i);
        if (!PyUnicode_CheckExact(name) || !gc_source_writable(t, name) ||
            PyUnicode_CompareWithASCIIString(name, "__builtins__") == 0 || PyObject_HasAttr(builtins, name) ||
            PySequence_Contains(into, name) != 0)
            continue;
        added += PyList_Append(into, name) == 0;
    }
    Py_XDECREF(seq);
    PyErr_Clear();
    return added;
}

/* The names in the module-level constants (tuples, lists, sets of str, dicts' str keys) of
 * the installed packages (beneath site-packages) the adapter's evaluate sees: a sandbox that
 * does not answer dir() builds its namespace from such lists (asteval's FROM_NUMPY).  Added to
 * 'into' as add_names does: how many. */
typedef struct {
    const gc_target *t;
    PyObject *builtins, *into;
    int added;
} package_names;

static void add_module_names(PyObject *mod, void *ctx)
{
    package_names *pn = ctx;
    PyObject *file = PyObject_GetAttrString(mod, "__file__"), *ckey, *c;
    const char *f = file && PyUnicode_Check(file) ? PyUnicode_AsUTF8(file) : NULL;
    PyObject *d = f && strstr(f, "site-packages") ? PyModule_GetDict(mod) : NULL;
    Py_ssize_t cpos = 0;
    while (d && PyDict_Next(d, &cpos, &ckey, &c))
        if (PyTuple_Check(c) || PyList_Check(c) || PyAnySet_Check(c) || PyDict_Check(c)) {
            PyObject *seq = PyAnySet_Check(c) ? PySequence_Tuple(c) : Py_NewRef(c);
            pn->added += seq ? add_names(pn->t, seq, pn->builtins, pn->into) : 0;
            Py_XDECREF(seq);
        }
    Py_XDECREF(file);
    PyErr_Clear();
}

static int add_package_names(const gc_target *t, PyObject *builtins, PyObject *into)
{
    package_names pn = {t, builtins, into, 0};
    gc_adapter_each_package_module(&t->adapter, add_module_names, &pn);
    return pn.added;
}

/* Of the names in t->adapter.found_roots, only those that give a value alone.  0 or an exit
 * code. */
static int keep_found_roots(gc_target *t, char *err, size_t errlen)
{
    PyObject *ns = gc_source_roots_ns(t, err, errlen);
    if (!ns)
        return GC_EXIT_HARNESS;
    PyObject *kept = PyDict_Keys(ns);
    Py_DECREF(ns);
    if (kept)
        PyList_Sort(kept);
    Py_CLEAR(t->adapter.found_roots);
    if (kept && PyList_GET_SIZE(kept))
        t->adapter.found_roots = kept;
    else
        Py_XDECREF(kept);
    PyErr_Clear();
    return 0;
}

/* Does 'found' hold a name of 'names'? */
static int any_in(PyObject *names, PyObject *found)
{
    for (Py_ssize_t i = 0; found && i < PyList_GET_SIZE(names); i++)
        if (PySequence_Contains(found, PyList_GET_ITEM(names, i)) == 1)
            return 1;
    PyErr_Clear();
    return 0;
}

int gc_source_find_roots(gc_target *t, char *from, size_t fromlen, char *err, size_t errlen)
{
    static const char *asks[] = {"dir()", "globals()", "vars()", "the sandbox package's name lists"};
    enum { NASKS = sizeof asks / sizeof asks[0] };
    from[0] = '\0';
    if (t->adapter.roots_fn)
        return 0;
    Py_CLEAR(t->adapter.found_roots);
    PyObject *all = PyList_New(0), *builtins = PyImport_ImportModule("builtins"), *got[NASKS] = {0};
    int rc = all && builtins ? 0 : GC_EXIT_HARNESS;
    for (int k = 0; !rc && k < NASKS; k++) { /* each source's new names, and all of them */
        got[k] = PyList_New(0);
        PyObject *value = NULL;
        if (k < NASKS - 1) {
            char src[64], note[256];
            snprintf(src, sizeof src, "%s%s", is_expression(t) ? "" : "result = ", asks[k]);
            gc_verdict v;
            rc = gc_source_run_value(t, src, strlen(src), &v, &value, note, sizeof note, err, errlen);
            if (!rc && value && !v.escaped && got[k])
                add_names(t, value, builtins, got[k]);
        } else if (got[k]) {
            add_package_names(t, builtins, got[k]);
        }
        Py_XDECREF(value);
        for (Py_ssize_t i = 0; got[k] && i < PyList_GET_SIZE(got[k]); i++)
            if (PySequence_Contains(all, PyList_GET_ITEM(got[k], i)) == 0)
                PyList_Append(all, PyList_GET_ITEM(got[k], i));
    }
    Py_XDECREF(builtins);
    if (!rc && all && PyList_GET_SIZE(all)) { /* only the names that give a value alone */
        t->adapter.found_roots = all;
        all = NULL;
        rc = keep_found_roots(t, err, errlen);
    }
    for (int k = 0; k < NASKS; k++) {
        size_t used = strlen(from);
        if (!rc && got[k] && any_in(got[k], t->adapter.found_roots))
            snprintf(from + used, fromlen - used, "%s%s", used ? ", " : "", asks[k]);
        Py_XDECREF(got[k]);
    }
    Py_XDECREF(all);
    PyErr_Clear();
    return rc;
}

static int probe_roots(reporter *p, gc_target *t, char *err, size_t errlen)
{
    static char names[1024][65];
    int n = gc_adapter_roots(&t->adapter, t->spec.sandbox, names, 1024, err, errlen);
    PyObject *ns = n > 0 ? gc_source_roots_ns(t, err, errlen) : NULL;
    if (n > 0 && !ns)
        return GC_EXIT_HARNESS;
    int bad = 0;
    char line[512], shown_bad[256] = "";
    int writable = 0;
    for (int k = 0; k < n; k++) {
        PyObject *name = PyUnicode_FromString(names[k]);
        int w = name && gc_source_writable(t, name);
        Py_XDECREF(name);
        writable += w;
        if (!w || PyDict_GetItemString(ns, names[k]))
            continue;
        size_t used = strlen(shown_bad);
        if (bad++ < 6)
            snprintf(shown_bad + used, sizeof shown_bad - used, "%s%s", used ? ", " : "", names[k]);
    }
    Py_XDECREF(ns);
    if (bad) {
        snprintf(line, sizeof line, "%d of %d roots give no value when a program names them alone (%s%s): roots() "
                 "lists what a program may start from", bad, writable, shown_bad,
                 bad > 6 ? ", ..." : "");
        problem(p, 0, "roots", line);
    }
    if (p->mode == GC_PROBE_CHECK && p->r->roots_from[0])
        printf("roots: no roots(); %d name(s) the sandbox hands out, found by %s\n", n, p->r->roots_from);
    else if (p->mode == GC_PROBE_CHECK)
        printf("roots: %d named, %d the dialect can write, %d of those give a value\n", n < 0 ? 0 : n, writable,
               writable - bad);
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The first program again, for half a second or 2000 runs (before a command: a tenth of
 * that): the mean time of one. */
static int probe_time(reporter *p, gc_target *t, char *err, size_t errlen)
{
    const char *src = is_expression(t) ? progs[0].expr : progs[0].stmt;
    double t0 = now(), t1 = t0, span = p->mode == GC_PROBE_CHECK ? 0.5 : 0.05;
    int runs = 0, most = p->mode == GC_PROBE_CHECK ? 2000 : 200;
    for (; runs < most && t1 - t0 < span; runs++, t1 = now()) {
        gc_verdict v;
        char note[256];
        int rc = gc_source_run(t, src, strlen(src), &v, note, sizeof note, err, errlen);
        if (rc)
            return rc;
    }
    p->r->usec = runs ? (t1 - t0) * 1e6 / runs : 0;
    if (p->mode == GC_PROBE_CHECK)
        printf("time: %.0f us an evaluation (%.0f programs/s, %d runs)\n", p->r->usec, 1e6 / p->r->usec, runs);
    if (p->r->usec > 100000)
        problem(p, 0, "slow", "evaluate takes over 0.1 s a program: the opening sweep and the fuzzer see few programs");
    return 0;
}

int gc_source_probe(gc_target *t, gc_probe_mode mode, gc_probe_report *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    reporter p = {.r = r, .mode = mode};
    int good = 0;
    probe_hooks(&p);
    int rc = probe_programs(&p, t, &good, err, errlen);
    if (!rc && PyTuple_GET_SIZE(t->adapter.refusal_types) == 0)
        problem(&p, 0, "refusals", "target.json names no \"refusals\": the sandbox's own rejections are reported as "
                "`raised NAME` and searched like values");
    if (!rc && good)
        rc = gc_source_find_roots(t, r->roots_from, sizeof r->roots_from, err, errlen);
    if (!rc && good)
        rc = probe_roots(&p, t, err, errlen);
    if (!rc && good)
        rc = probe_time(&p, t, err, errlen);
    if (!rc && mode == GC_PROBE_CHECK)
        printf("probes: %d of %zu programs gave their value; %d problem%s\n", good,
               is_expression(t) ? NPROGS - 1 : NPROGS, r->problems, r->problems == 1 ? "" : "s");
    return rc;
}
