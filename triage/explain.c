/* explain.c — `gatecrash explain`: what a maintainer reads to understand a case.
 *
 * Owns: the step-by-step account of a chain — for each trailer its value's type, a short
 * repr, and what it is (a gate object, a real module, a real module's dict, a frame, an
 * exception, a forbidden primitive, …) — ending with the verdict. */
#include "explain.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    gc_target *t;
    PyObject *gate_globals;
    int last_stmt;
} explain_ctx;

static int is_real_module(PyObject *v)
{
    if (!PyModule_Check(v))
        return 0;
    PyObject *name = PyModule_GetNameObject(v);
    PyObject *real = name ? PyImport_GetModule(name) : NULL;
    int r = real == v;
    Py_XDECREF(real);
    Py_XDECREF(name);
    PyErr_Clear();
    return r;
}

/* The real module whose namespace 'v' is, or NULL (borrowed name). */
static const char *module_of_dict(PyObject *v)
{
    if (!PyDict_Check(v))
        return NULL;
    PyObject *k, *m;
    Py_ssize_t pos = 0;
    PyObject *modules = PyImport_GetModuleDict();
    while (PyDict_Next(modules, &pos, &k, &m))
        if (PyModule_Check(m) && PyModule_GetDict(m) == v)
            return PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : "?";
    return NULL;
}

static int belongs_to_gate(PyObject *v, PyObject *gate_globals)
{
    if (v == gate_globals)
        return 1;
    PyObject *g = PyFunction_Check(v) ? PyFunction_GET_GLOBALS(v) : NULL;
    if (g == gate_globals)
        return 1;
    if (PyMethod_Check(v) && PyFunction_Check(PyMethod_GET_FUNCTION(v)))
        return PyFunction_GET_GLOBALS(PyMethod_GET_FUNCTION(v)) == gate_globals;
    PyObject *mod = PyObject_GetAttrString((PyObject *)Py_TYPE(v), "__module__");
    int r = 0;
    const char *gate_name = PyUnicode_AsUTF8(PyDict_GetItemString(gate_globals, "__name__"));
    if (mod && PyUnicode_Check(mod) && gate_name)
        r = strcmp(PyUnicode_AsUTF8(mod), gate_name) == 0;
    Py_XDECREF(mod);
    PyErr_Clear();
    return r;
}

static void describe(explain_ctx *x, PyObject *v, char *buf, size_t len)
{
    const gc_prim *p = gc_oracle_lookup(v);
    if (p) {
        int forbidden = p->spec->cap != GC_CAP_HARNESS && gc_policy_forbids(&x->t->policy, p->spec->cap);
        snprintf(buf, len, "%s primitive %s%s", forbidden ? "FORBIDDEN" : p->spec->cap == GC_CAP_HARNESS ? "harness-refused" : "allowed",
                 p->name, forbidden ? " (real, unwrapped)" : "");
        return;
    }
    const char *dictmod;
    if (v == x->gate_globals) {
        snprintf(buf, len, "the gate module's own namespace (%s globals)", x->t->spec.name);
    } else if (v == PyImport_GetModuleDict()) {
        snprintf(buf, len, "the REAL sys.modules");
    } else if (PyModule_Check(v)) {
        const char *name = PyModule_GetName(v);
        PyErr_Clear();
        snprintf(buf, len, "%s module %s", is_real_module(v) ? "REAL" : "gate proxy", name ? name : "?");
    } else if ((dictmod = module_of_dict(v))) {
        snprintf(buf, len, "REAL module's namespace (%s.__dict__)", dictmod);
    } else if (PyFrame_Check(v)) {
        PyCodeObject *code = PyFrame_GetCode((PyFrameObject *)v);
        snprintf(buf, len, "frame of %s (%s)", PyUnicode_AsUTF8(code->co_name), PyUnicode_AsUTF8(code->co_filename));
        Py_DECREF(code);
    } else if (PyTraceBack_Check(v)) {
        snprintf(buf, len, "traceback");
    } else if (PyExceptionInstance_Check(v)) {
        snprintf(buf, len, "exception (a call raised: its value is the exception)");
    } else if (belongs_to_gate(v, x->gate_globals)) {
        snprintf(buf, len, "gate object (defined by %s)", x->t->spec.name);
    } else {
        buf[0] = '\0';
    }
    PyErr_Clear();
}

static void on_step(void *ctx, const gc_step_info *s)
{
    explain_ctx *x = ctx;
    if (s->stmt != x->last_stmt) {
        printf("statement %d:\n", s->stmt + 1);
        x->last_stmt = s->stmt;
    }
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_chain_print_prefix(s->resolved, s->stmt, s->trailer, "; ", &sb);
    /* only this statement's text */
    const char *text = sb.data;
    for (const char *p = sb.data; (p = strstr(p, "; ")); p += 2)
        text = p + 2;
    printf("  %s\n", text);
    if (!s->value) {
        printf("      -> failed: %s (the statement ends; '_' is None)\n", s->error ? s->error : "?");
    } else {
        char what[256], rep[100];
        describe(x, s->value, what, sizeof what);
        PyObject *r = PyObject_Repr(s->value);
        const char *rs = r ? PyUnicode_AsUTF8(r) : NULL;
        snprintf(rep, sizeof rep, "%s", rs ? rs : "<repr failed>");
        if (rs && strlen(rs) >= sizeof rep - 1)
            memcpy(rep + sizeof rep - 4, "...", 4);
        for (char *c = rep; *c; c++) /* a repr is the gate's text: one line, no control bytes */
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = ' ';
        Py_XDECREF(r);
        PyErr_Clear();
        printf("      -> %s  %s%s%s%s\n", Py_TYPE(s->value)->tp_name, rep, what[0] ? "  [" : "", what,
               what[0] ? "]" : "");
    }
    gc_sb_free(&sb);
}

/* The verdict lines every explain ends with; the exit code. */
static int verdict(const gc_target *t, const gc_verdict *v, const char *input)
{
    if (v->escaped) {
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_escape_text(v, input, &sb);
        printf("verdict: ESCAPE — %s %s primitive %s reached%s%s\n", gc_kind_name(v->escape.kind),
               gc_cap_name(v->escape.cap), v->escape.primitive, v->escape.detail[0] ? ": " : "", v->escape.detail);
        printf("signature: %s\n%s\n", v->signature, sb.data);
        gc_sb_free(&sb);
        return GC_EXIT_ESCAPE;
    }
    char cause[128];
    if (gc_verdict_of(t, v, cause, sizeof cause) == GC_VERDICT_INCONCLUSIVE) {
        printf("verdict: inconclusive — %s: the harness did not see it run as the host runs it, so it neither "
               "escaped nor was blocked\n", cause);
        return GC_EXIT_INCONCLUSIVE;
    }
    printf("verdict: blocked — no forbidden primitive was reached%s%s\n", v->refused[0] ? "; the harness refused " : "",
           v->refused);
    return GC_EXIT_OK;
}

int gc_explain(gc_target *t, const gc_chain *c, gc_outcome *out)
{
    explain_ctx x = {t, NULL, -1};
    PyObject *mod_dict = t->module ? PyModule_GetDict(t->module) : NULL;
    x.gate_globals = mod_dict;
    char err[512];
    int rc = gc_run_input(t, c, out, on_step, &x, err, sizeof err);
    if (rc) {
        fprintf(stderr, "gatecrash: error: %s\n", err);
        return rc;
    }
    gc_strbuf chain;
    gc_sb_init(&chain);
    gc_escape_chain_text(out, &chain);
    rc = verdict(t, &out->verdict, chain.data);
    gc_sb_free(&chain);
    return rc;
}

int gc_explain_program(const gc_target *t, const char *src, const gc_verdict *v, const char *note)
{
    printf("program (%s, through its adapter's evaluate):\n", t->spec.name);
    for (const char *line = src; *line;) {
        size_t n = strcspn(line, "\n");
        printf("  %.*s\n", (int)n, line);
        line += n + (line[n] == '\n');
    }
    printf("      -> %s\n", v->escaped ? "the oracles saw the escape below" : note);
    return verdict(t, v, src);
}
