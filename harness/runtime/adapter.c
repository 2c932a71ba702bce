/* adapter.c — see adapter.h.  target.json is read with cJSON, as target.c reads the rest. */
#define _GNU_SOURCE /* realpath */
#include "adapter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "diag.h"
#include "interp.h"
#include "dialect.h"

int gc_spec_string(char *dst, size_t n, const cJSON *v, const char *key, char *err, size_t errlen)
{
    if (!v)
        return 0;
    if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= n) {
        snprintf(err, errlen, "target.json: \"%s\" must be a non-empty string", key);
        return -1;
    }
    snprintf(dst, n, "%s", v->valuestring);
    return 0;
}

static int json_str(char *dst, size_t n, const cJSON *j, const char *key, char *err, size_t errlen)
{
    return gc_spec_string(dst, n, cJSON_GetObjectItemCaseSensitive(j, key), key, err, errlen);
}

/* "refusals": ["Name", "module.Name", …] into the comma-separated s->refusals. */
static int json_refusals(gc_adapter_spec *s, const cJSON *j, char *err, size_t errlen)
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
static int json_dialect(gc_adapter_spec *s, const cJSON *j, char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "dialect"), *it;
    int ok = !v || cJSON_IsArray(v);
    s->dialect |= PY_VERSION_HEX >= 0x030C0000 ? GC_DIALECT_PY312 : 0; /* the parser is this CPython's */
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

/* "steps": N (1..GC_MAX_STEPS, absent: 1) into s->dialect's step bits. */
static int json_steps(gc_adapter_spec *s, const cJSON *j, char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "steps");
    int ok = !v || (cJSON_IsNumber(v) && v->valuedouble == (double)v->valueint && v->valueint >= 1 &&
                    v->valueint <= GC_MAX_STEPS);
    if (!ok)
        snprintf(err, errlen, "target.json: \"steps\" must be a whole number from 1 to %d", GC_MAX_STEPS);
    else if (v && v->valueint > 1)
        s->dialect |= (unsigned)v->valueint << GC_DIALECT_STEPS_SHIFT;
    return ok ? 0 : -1;
}

int gc_adapter_spec_fields(gc_adapter_spec *s, const cJSON *j, const char *dir, char *err, size_t errlen)
{
    char venv[PATH_MAX] = "";
    if (json_str(s->entry, sizeof s->entry, j, "entry", err, errlen) ||
        json_str(venv, sizeof venv, j, "venv", err, errlen) || json_refusals(s, j, err, errlen) ||
        json_dialect(s, j, err, errlen) || json_steps(s, j, err, errlen))
        return GC_EXIT_USAGE;
    return venv[0] ? gc_adapter_set_venv(s, venv, dir, err, errlen) : 0;
}

int gc_adapter_set_venv(gc_adapter_spec *s, const char *dir, const char *base, char *err, size_t errlen)
{
    char joined[PATH_MAX * 2];
    int n = snprintf(joined, sizeof joined, "%s%s%s", dir[0] == '/' ? "" : base, dir[0] == '/' ? "" : "/", dir);
    if (n < 0 || (size_t)n >= sizeof s->venv) {
        s->venv[0] = '\0';
        snprintf(err, errlen, "venv path %.100s... is too long", dir);
        return GC_EXIT_USAGE;
    }
    /* absolute now: the process moves into its scratch folder before the venv is added */
    if (!realpath(joined, s->venv))
        snprintf(s->venv, sizeof s->venv, "%s", joined);
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

/* pyvenv.cfg's "include-system-site-packages = true" (venv's default is false). */
static int venv_includes_system(const char *venv)
{
    char path[PATH_MAX + 16], line[256], key[64], val[16];
    snprintf(path, sizeof path, "%s/pyvenv.cfg", venv);
    FILE *f = fopen(path, "r");
    int yes = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, " %63[a-z-] = %15s", key, val) == 2 && strcmp(key, "include-system-site-packages") == 0)
            yes = strcasecmp(val, "true") == 0;
    if (f)
        fclose(f);
    return yes;
}

/* sys.path as VENV/bin/python has it: the interpreter's own site-packages folders
 * (site.getsitepackages(): Debian's /usr/lib/python3/dist-packages among them) out, the
 * venv's added with site.addsitedir (its .pth files apply) where they were, and the system's
 * back after it only when pyvenv.cfg includes them; sys.prefix and sys.exec_prefix name the
 * venv.  0, or -1 with the Python error set. */
static int venv_path(const char *venv, const char *sp, int include_system)
{
    PyObject *site = PyImport_ImportModule("site");
    PyObject *sys_sites = site ? PyObject_CallMethod(site, "getsitepackages", NULL) : NULL;
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    PyObject *kept = sys_sites && path ? PyList_New(0) : NULL, *removed = kept ? PyList_New(0) : NULL;
    int rc = removed ? 0 : -1;
    for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(path); i++) {
        PyObject *p = PyList_GET_ITEM(path, i);
        int sys_site = PySequence_Contains(sys_sites, p);
        rc = sys_site < 0 ? -1 : PyList_Append(sys_site ? removed : kept, p);
    }
    PyObject *r = rc == 0 && PyList_SetSlice(path, 0, PyList_GET_SIZE(path), kept) == 0
                      ? PyObject_CallMethod(site, "addsitedir", "s", sp)
                      : NULL;
    rc = r ? 0 : -1;
    if (rc == 0 && include_system)
        rc = PyList_SetSlice(path, PyList_GET_SIZE(path), PyList_GET_SIZE(path), removed);
    PyObject *prefix = rc == 0 ? PyUnicode_DecodeFSDefault(venv) : NULL;
    if (rc == 0 && (!prefix || PySys_SetObject("prefix", prefix) < 0 || PySys_SetObject("exec_prefix", prefix) < 0))
        rc = -1;
    Py_XDECREF(prefix);
    Py_XDECREF(r);
    Py_XDECREF(removed);
    Py_XDECREF(kept);
    Py_XDECREF(sys_sites);
    Py_XDECREF(site);
    return rc;
}

int gc_adapter_add_venv(const gc_adapter_spec *s, char *err, size_t errlen)
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
    if (venv_path(s->venv, sp, venv_includes_system(s->venv)) < 0) {
        char line[512];
        gc_interp_error_line(line, sizeof line);
        snprintf(err, errlen, "adding venv %s raised %s", s->venv, line);
        return GC_EXIT_USAGE;
    }
    return 0;
}

/* A refusal name: an attribute of the adapter, "module.Name", or a builtin exception. */
static PyObject *refusal_class(PyObject *module, PyObject *builtins, const char *name)
{
    PyObject *c = PyObject_GetAttrString(module, name);
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
        c = PyDict_GetItemString(builtins, name);
        Py_XINCREF(c);
    }
    if (c && !PyExceptionClass_Check(c))
        Py_CLEAR(c);
    PyErr_Clear();
    return c;
}

static int bind_refusals(gc_adapter *a, const gc_adapter_spec *s, PyObject *module, PyObject *builtins,
                         const char *path, char *err, size_t errlen)
{
    PyObject *list = PyList_New(0);
    for (const char *p = s->refusals; list && *p;) {
        size_t n = strcspn(p, ",");
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        p += n + (p[n] == ',');
        PyObject *c = refusal_class(module, builtins, name);
        if (!c) {
            snprintf(err, errlen, "refusal '%s' is no exception class the adapter %s or builtins name", name, path);
            Py_DECREF(list);
            return GC_EXIT_TARGET;
        }
        PyList_Append(list, c);
        Py_DECREF(c);
    }
    a->refusal_types = list ? PyList_AsTuple(list) : NULL;
    Py_XDECREF(list);
    return a->refusal_types ? 0 : GC_EXIT_HARNESS;
}

/* ---- steps ---- */

/* A step target's eval_fn (self: the adapter's session()): the source's parts between
 * GC_STEP_MARKER lines, each run in turn by one fresh session.  The value: the one part's,
 * or a tuple of every part's (each was handed back to the host, so each is searched); an
 * exception ends the input there, as it ends an agent's run.  Called from C (gc_source_run),
 * so the C-call guard sees no call of it, only the sandbox's own calls inside. */
static PyObject *run_steps(PyObject *session_fn, PyObject *src)
{
    PyObject *sep = PyUnicode_FromString("\n" GC_STEP_MARKER "\n");
    PyObject *parts = sep && PyUnicode_Check(src) ? PyUnicode_Split(src, sep, GC_MAX_STEPS - 1) : NULL;
    PyObject *step = parts ? PyObject_CallNoArgs(session_fn) : NULL;
    Py_ssize_t n = parts ? PyList_GET_SIZE(parts) : 0;
    PyObject *values = step ? PyTuple_New(n) : NULL;
    for (Py_ssize_t i = 0; values && i < n; i++) {
        PyObject *v = PyObject_CallOneArg(step, PyList_GET_ITEM(parts, i));
        if (!v)
            Py_CLEAR(values);
        else
            PyTuple_SET_ITEM(values, i, v);
    }
    PyObject *r = values && n == 1 ? Py_NewRef(PyTuple_GET_ITEM(values, 0)) : Py_XNewRef(values);
    Py_XDECREF(values);
    Py_XDECREF(step);
    Py_XDECREF(parts);
    Py_XDECREF(sep);
    return r;
}

static PyMethodDef steps_def = {"evaluate_steps", run_steps, METH_O, "a step target's input, step by step"};

/* With steps: session() bound, eval_fn the runner of the steps.  0 or GC_EXIT_TARGET. */
static int bind_steps(gc_adapter *a, const gc_adapter_spec *s, PyObject *module, const char *path, char *err,
                      size_t errlen)
{
    if (GC_DIALECT_STEPS(s->dialect) <= 1)
        return 0;
    PyObject *session = PyObject_GetAttrString(module, "session");
    PyObject *runner = session && PyCallable_Check(session) ? PyCFunction_New(&steps_def, session) : NULL;
    Py_XDECREF(session);
    PyErr_Clear();
    if (!runner) {
        snprintf(err, errlen, "adapter %s: target.json has \"steps\", but the adapter has no callable session()", path);
        return GC_EXIT_TARGET;
    }
    Py_SETREF(a->eval_fn, runner);
    return 0;
}

int gc_adapter_bind(gc_adapter *a, const gc_adapter_spec *s, PyObject *module, PyObject *builtins,
                    const char *path, char *err, size_t errlen)
{
    PyObject *f = PyObject_GetAttrString(module, s->entry);
    if (!f || !PyCallable_Check(f)) {
        Py_XDECREF(f);
        PyErr_Clear();
        snprintf(err, errlen, "adapter %s has no callable entry '%s'", path, s->entry);
        return GC_EXIT_TARGET;
    }
    a->eval_fn = f;
    if (bind_steps(a, s, module, path, err, errlen))
        return GC_EXIT_TARGET;
    PyObject *roots = PyObject_GetAttrString(module, "roots");
    PyErr_Clear();
    if (roots && !PyCallable_Check(roots)) {
        Py_DECREF(roots);
        snprintf(err, errlen, "adapter %s: 'roots' is not callable", path);
        return GC_EXIT_TARGET;
    }
    a->roots_fn = roots;
    PyObject *ns = PyObject_GetAttrString(module, "namespace");
    PyErr_Clear();
    if (ns && !PyCallable_Check(ns)) {
        Py_DECREF(ns);
        snprintf(err, errlen, "adapter %s: 'namespace' is not callable", path);
        return GC_EXIT_TARGET;
    }
    a->ns_fn = ns;
    char names[8][65];
    int rc = bind_refusals(a, s, module, builtins, path, err, errlen);
    if (!rc && gc_adapter_roots(a, path, names, 8, err, errlen) < 0)
        rc = GC_EXIT_TARGET;
    return rc;
}

int gc_adapter_roots(const gc_adapter *a, const char *path, char names[][65], int max, char *err, size_t errlen)
{
    if (!a->roots_fn && !a->found_roots)
        return 0;
    PyObject *r = a->roots_fn ? PyObject_CallNoArgs(a->roots_fn) : Py_NewRef(a->found_roots);
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
        snprintf(err, errlen, "adapter %s: roots() failed: %s", path, line);
    }
    Py_XDECREF(r);
    PyErr_Clear();
    return ok ? n : -1;
}

void gc_adapter_write(const gc_adapter_spec *s, cJSON *j)
{
    cJSON_AddStringToObject(j, "entry", s->entry);
    if (s->venv[0])
        cJSON_AddStringToObject(j, "venv", s->venv);
    cJSON *names = cJSON_AddArrayToObject(j, "refusals");
    for (const char *p = s->refusals; *p;) {
        size_t n = strcspn(p, ",");
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        cJSON_AddItemToArray(names, cJSON_CreateString(name));
        p += n + (p[n] == ',');
    }
    cJSON *dialect = cJSON_AddArrayToObject(j, "dialect");
    if (s->dialect & GC_DIALECT_NO_UNDERSCORE)
        cJSON_AddItemToArray(dialect, cJSON_CreateString("no_underscore"));
    if (s->dialect & GC_DIALECT_EXPRESSION)
        cJSON_AddItemToArray(dialect, cJSON_CreateString("expression"));
    if (GC_DIALECT_STEPS(s->dialect) > 1)
        cJSON_AddNumberToObject(j, "steps", GC_DIALECT_STEPS(s->dialect));
}

void gc_adapter_each_package_module(const gc_adapter *a, void (*fn)(PyObject *mod, void *ctx), void *ctx)
{
    PyObject *glb = PyFunction_Check(a->eval_fn) ? PyFunction_GetGlobals(a->eval_fn) : NULL;
    PyObject *mods = PySys_GetObject("modules"), *key, *value, *mkey, *mod;
    Py_ssize_t pos = 0;
    while (glb && mods && PyDict_Next(glb, &pos, &key, &value)) {
        PyObject *name = PyObject_GetAttrString(value, PyModule_Check(value) ? "__name__" : "__module__");
        const char *n = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        size_t top = n ? strcspn(n, ".") : 0;
        Py_ssize_t mpos = 0;
        while (top && PyDict_Next(mods, &mpos, &mkey, &mod)) {
            const char *m = PyUnicode_Check(mkey) ? PyUnicode_AsUTF8(mkey) : NULL;
            if (m && strncmp(m, n, top) == 0 && (m[top] == 0 || m[top] == '.') && PyModule_Check(mod))
                fn(mod, ctx);
        }
        Py_XDECREF(name);
        PyErr_Clear();
    }
}
