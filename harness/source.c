/* source.c — see source.h.  The adapter is imported by target.c exactly as a gate module
 * is (by file path, its folder on sys.path); this file binds what it exports and runs
 * programs through it.
 *
 * The C-call guard is a profile function (PyEval_SetProfile, PyTrace_C_CALL): CPython
 * hands it the callable of every C-level call made from Python code before the call runs,
 * so a forbidden primitive called anywhere inside the evaluation (the program's code, the
 * sandbox's own, code the sandbox compiled) is stopped and reported, audited or not. */
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "interp.h"
#include "program.h"
#include "state.h"
#include "timelimit.h"

static int json_str(char *dst, size_t n, const cJSON *j, const char *key, char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    if (!v)
        return 0;
    if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= n) {
        snprintf(err, errlen, "target.json: \"%s\" must be a non-empty string", key);
        return -1;
    }
    snprintf(dst, n, "%s", v->valuestring);
    return 0;
}

/* "refusals": ["Name", "module.Name", …] into the comma-separated s->refusals. */
static int json_refusals(gc_target_spec *s, const cJSON *j, char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "refusals"), *it;
    if (!v)
        return 0;
    size_t used = 0;
    int ok = cJSON_IsArray(v);
    const cJSON *list = ok ? v : NULL;
    cJSON_ArrayForEach(it, list)
    {
        const char *name = cJSON_IsString(it) ? it->valuestring : "";
        size_t n = strlen(name);
        ok = n > 0 && strcspn(name, ", ") == n && used + n + 2 < sizeof s->refusals;
        if (!ok)
            break;
        used += (size_t)snprintf(s->refusals + used, sizeof s->refusals - used, "%s%s", used ? "," : "", name);
    }
    if (!ok)
        snprintf(err, errlen, "target.json: \"refusals\" must be a list of exception names");
    return ok ? 0 : -1;
}

/* "dialect": ["no_underscore", "expression"] into s->dialect. */
static int json_dialect(gc_target_spec *s, const cJSON *j, char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "dialect"), *it;
    int ok = !v || cJSON_IsArray(v);
    const cJSON *list = ok ? v : NULL;
    cJSON_ArrayForEach(it, list)
    {
        const char *name = cJSON_IsString(it) ? it->valuestring : "";
        unsigned bit = strcmp(name, "no_underscore") == 0 ? GC_DIALECT_NO_UNDERSCORE
                     : strcmp(name, "expression") == 0 ? GC_DIALECT_EXPRESSION : 0;
        ok = bit != 0;
        if (!ok)
            break;
        s->dialect |= bit;
    }
    if (!ok)
        snprintf(err, errlen, "target.json: \"dialect\" must be a list of \"no_underscore\", \"expression\"");
    return ok ? 0 : -1;
}

int gc_source_spec_fields(gc_target_spec *s, const cJSON *j, char *err, size_t errlen)
{
    char venv[PATH_MAX] = "";
    if (json_str(s->entry_eval, sizeof s->entry_eval, j, "entry", err, errlen) ||
        json_str(venv, sizeof venv, j, "venv", err, errlen) || json_refusals(s, j, err, errlen) ||
        json_dialect(s, j, err, errlen))
        return GC_EXIT_USAGE;
    return venv[0] ? gc_source_set_venv(s, venv, s->dir, err, errlen) : 0;
}

int gc_source_set_venv(gc_target_spec *s, const char *dir, const char *base, char *err, size_t errlen)
{
    int n = snprintf(s->venv, sizeof s->venv, "%s%s%s", dir[0] == '/' ? "" : base, dir[0] == '/' ? "" : "/", dir);
    if (n < 0 || (size_t)n >= sizeof s->venv) {
        s->venv[0] = '\0';
        snprintf(err, errlen, "venv path %.100s... is too long", dir);
        return GC_EXIT_USAGE;
    }
    return 0;
}

/* The X.Y of pyvenv.cfg's "version" (venv) or "version_info" (virtualenv) line. */
static int venv_version(const char *venv, int *major, int *minor, char *err, size_t errlen)
{
    char path[PATH_MAX + 16], line[256];
    snprintf(path, sizeof path, "%s/pyvenv.cfg", venv);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s is not a virtual environment (no pyvenv.cfg: %s)", venv, strerror(errno));
        return -1;
    }
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        char key[32];
        found = (sscanf(line, " %31[a-z_] = %d.%d", key, major, minor) == 3 &&
                 (strcmp(key, "version") == 0 || strcmp(key, "version_info") == 0));
    }
    fclose(f);
    if (!found)
        snprintf(err, errlen, "%s names no Python version", path);
    return found ? 0 : -1;
}

int gc_source_add_venv(const gc_target_spec *s, char *err, size_t errlen)
{
    int major = 0, minor = 0;
    if (!s->venv[0])
        return 0;
    struct stat st;
    if (stat(s->venv, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "venv %s not found (ci/target-venv.sh TARGET makes a bundled target's venv)", s->venv);
        return GC_EXIT_USAGE;
    }
    if (venv_version(s->venv, &major, &minor, err, errlen) < 0)
        return GC_EXIT_USAGE;
    if (major != PY_MAJOR_VERSION || minor != PY_MINOR_VERSION) {
        snprintf(err, errlen, "venv %s is for Python %d.%d, but this gatecrash embeds CPython %s (make the venv with python%d.%d)",
                 s->venv, major, minor, PY_VERSION, PY_MAJOR_VERSION, PY_MINOR_VERSION);
        return GC_EXIT_USAGE;
    }
    char sp[PATH_MAX + 64];
    snprintf(sp, sizeof sp, "%s/lib/python%d.%d/site-packages", s->venv, major, minor);
    if (stat(sp, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "venv %s has no %s", s->venv, sp);
        return GC_EXIT_USAGE;
    }
    PyObject *site = PyImport_ImportModule("site");
    PyObject *r = site ? PyObject_CallMethod(site, "addsitedir", "s", sp) : NULL;
    Py_XDECREF(site);
    if (!r) {
        char line[512];
        gc_interp_error_line(line, sizeof line);
        snprintf(err, errlen, "adding venv %s raised %s", s->venv, line);
        return GC_EXIT_USAGE;
    }
    Py_DECREF(r);
    return 0;
}

/* A refusal name: an attribute of the adapter, "module.Name", or a builtin exception. */
static PyObject *refusal_class(gc_target *t, const char *name)
{
    PyObject *c = PyObject_GetAttrString(t->module, name);
    const char *dot = strrchr(name, '.');
    if (!c && dot) {
        PyErr_Clear();
        PyObject *modname = PyUnicode_FromStringAndSize(name, dot - name);
        PyObject *mod = modname ? PyImport_Import(modname) : NULL;
        c = mod ? PyObject_GetAttrString(mod, dot + 1) : NULL;
        Py_XDECREF(mod);
        Py_XDECREF(modname);
    }
    if (!c) {
        PyErr_Clear();
        c = PyDict_GetItemString(t->builtins, name);
        Py_XINCREF(c);
    }
    if (c && !PyExceptionClass_Check(c))
        Py_CLEAR(c);
    PyErr_Clear();
    return c;
}

static int bind_refusals(gc_target *t, char *err, size_t errlen)
{
    PyObject *list = PyList_New(0);
    for (const char *p = t->spec.refusals; list && *p;) {
        size_t n = strcspn(p, ",");
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        p += n + (p[n] == ',');
        PyObject *c = refusal_class(t, name);
        if (!c) {
            snprintf(err, errlen, "refusal '%s' is no exception class the adapter %s or builtins name", name,
                     t->spec.sandbox);
            Py_DECREF(list);
            return GC_EXIT_TARGET;
        }
        PyList_Append(list, c);
        Py_DECREF(c);
    }
    t->refusal_types = list ? PyList_AsTuple(list) : NULL;
    Py_XDECREF(list);
    return t->refusal_types ? 0 : GC_EXIT_HARNESS;
}

int gc_source_bind(gc_target *t, char *err, size_t errlen)
{
    PyObject *f = PyObject_GetAttrString(t->module, t->spec.entry_eval);
    if (!f || !PyCallable_Check(f)) {
        Py_XDECREF(f);
        PyErr_Clear();
        snprintf(err, errlen, "adapter %s has no callable entry '%s'", t->spec.sandbox, t->spec.entry_eval);
        return GC_EXIT_TARGET;
    }
    t->eval_fn = f;
    PyObject *roots = PyObject_GetAttrString(t->module, "roots");
    PyErr_Clear();
    if (roots && !PyCallable_Check(roots)) {
        Py_DECREF(roots);
        snprintf(err, errlen, "adapter %s: 'roots' is not callable", t->spec.sandbox);
        return GC_EXIT_TARGET;
    }
    t->roots_fn = roots;
    char names[8][65];
    int rc = bind_refusals(t, err, errlen);
    if (!rc && gc_source_roots(t, names, 8, err, errlen) < 0)
        rc = GC_EXIT_TARGET;
    return rc;
}

int gc_source_roots(gc_target *t, char names[][65], int max, char *err, size_t errlen)
{
    if (!t->roots_fn)
        return 0;
    PyObject *r = PyObject_CallNoArgs(t->roots_fn);
    int n = 0, ok = r && PyList_Check(r);
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(r); i++) {
        PyObject *k = PyList_GET_ITEM(r, i);
        const char *s = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
        ok = s && strlen(s) <= 64;
        if (ok && n < max)
            snprintf(names[n++], 65, "%s", s);
    }
    if (!ok) {
        char line[512] = "it returned no list of names of at most 64 characters";
        if (!r)
            gc_interp_error_line(line, sizeof line);
        snprintf(err, errlen, "adapter %s: roots() failed: %s", t->spec.sandbox, line);
    }
    Py_XDECREF(r);
    PyErr_Clear();
    return ok ? n : -1;
}

/* ---- the C-call guard ---- */

/* Should this C call be stopped?  The primitive's name, or NULL.  Reach mode: a forbidden
 * primitive called is the escape; otherwise the evaluator's own refusals apply. */
static const char *guard_verdict(PyObject *f)
{
    const gc_prim *p = gc_oracle_lookup(f);
    if (p && gc_orc.mode == GC_MODE_REACH && p->spec->cap != GC_CAP_HARNESS &&
        gc_policy_forbids(&gc_orc.policy, p->spec->cap)) {
        if (!gc_orc.escape.set)
            gc_oracle_set_escape(GC_KIND_REACH, p->spec->cap, p->name,
                                 "called inside the evaluation (C-call guard)");
        return p->name;
    }
    if (p && (p->spec->flags & GC_PRIM_CODE))
        return NULL;
    const char *why = gc_eval_refuse_call(f);
    if (why)
        gc_oracle_set_refused(why);
    return why;
}

static int call_guard(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg)
{
    (void)obj;
    (void)frame;
    if (what != PyTrace_C_CALL || !gc_orc.in_chain || !arg)
        return 0;
    const char *why = guard_verdict(arg);
    if (!why)
        return 0;
    PyErr_Format(gc_orc.blocked_exc ? gc_orc.blocked_exc : PyExc_PermissionError,
                 "gatecrash: %s blocked by the harness", why);
    return -1;
}

/* ---- the returned value's search ---- */

typedef struct {
    int nodes;          /* budget left */
    char path[256];     /* where the current value sits, "result[0].args[1]" */
} search_ctx;

static int search(search_ctx *s, PyObject *v, int depth);

/* Search 'v' at path + 'step'; the path is restored afterwards. */
static int search_at(search_ctx *s, PyObject *v, int depth, const char *fmt, Py_ssize_t i)
{
    size_t len = strlen(s->path);
    snprintf(s->path + len, sizeof s->path - len, fmt, i);
    int found = v && search(s, v, depth + 1);
    if (!found)
        s->path[len] = '\0';
    return found;
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
    const gc_prim *p = gc_oracle_lookup(v);
    if (p && p->spec->cap != GC_CAP_HARNESS && gc_policy_forbids(&gc_orc.policy, p->spec->cap)) {
        char detail[300];
        snprintf(detail, sizeof detail, "in the value evaluate gave back, at %s", s->path);
        gc_oracle_set_escape(GC_KIND_REACH, p->spec->cap, p->name, detail);
        return 1;
    }
    if (PyExceptionInstance_Check(v))
        return search_exception(s, v, depth);
    return search_container(s, v, depth);
}

/* ---- one program ---- */

static void describe(const gc_target *t, PyObject *r, PyObject *exc, char *note, size_t notelen)
{
    if (r)
        snprintf(note, notelen, "returned %s", Py_TYPE(r)->tp_name);
    else if (PyObject_IsInstance(exc, t->refusal_types) == 1)
        snprintf(note, notelen, "refused by the sandbox: %s", Py_TYPE(exc)->tp_name);
    else
        snprintf(note, notelen, "raised %s", Py_TYPE(exc)->tp_name);
    PyErr_Clear();
}

/* evaluate(src) with the guard on; the value, or NULL with the exception in *exc. */
static PyObject *call_evaluate(gc_target *t, PyObject *src, PyObject **exc)
{
    PyEval_SetProfile(call_guard, NULL); /* before in_chain: its audit event is the harness's */
    gc_orc.in_chain = 1;
    PyObject *r = PyObject_CallOneArg(t->eval_fn, src);
    gc_orc.in_chain = 0;
    *exc = r ? NULL : gc_eval_exception_value();
    PyEval_SetProfile(NULL, NULL);
    return r;
}

int gc_source_run(gc_target *t, const char *text, size_t len, gc_outcome *out, char *note, size_t notelen,
                  char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->esc_stmt = -1;
    gc_oracle_reset_input();
    PyObject *src = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "strict");
    if (!src) {
        PyErr_Clear();
        snprintf(err, errlen, "the program is not UTF-8 text");
        return GC_EXIT_USAGE;
    }
    PyObject *exc = NULL;
    gc_state_begin();
    gc_limits_arm();
    PyObject *r = call_evaluate(t, src, &exc);
    gc_limits_disarm();
    out->timed_out = gc_limit_expired;
    out->oom = gc_limit_oom;
    describe(t, r, exc, note, notelen);
    int refused = !r && strncmp(note, "refused", 7) == 0;
    search_ctx s = {GC_SOURCE_SEARCH_NODES, "result"};
    if (!gc_orc.escape.set && gc_orc.mode == GC_MODE_REACH && !refused && !out->timed_out && !out->oom)
        search(&s, r ? r : exc, 0);
    Py_XDECREF(r);
    Py_XDECREF(exc);
    Py_DECREF(src);
    out->escaped = gc_orc.escape.set;
    out->escape = gc_orc.escape;
    snprintf(out->refused, sizeof out->refused, "%s", gc_orc.refused);
    snprintf(out->signature, sizeof out->signature, "source:%s:%s", gc_kind_name(out->escape.kind),
             out->escape.primitive);
    out->steps = 1;
    int rep = gc_state_end(out->state_note, sizeof out->state_note);
    if (rep < 0) {
        snprintf(err, errlen, "interpreter state could not be restored after the input: %s", out->state_note);
        return GC_EXIT_HARNESS;
    }
    out->state_repairs = rep;
    return 0;
}
