/* target.c — see target.h.  target.json is read with cJSON (Debian's libcjson); the
 * requires block is handed to the gate as the Python objects json.loads would give.
 *
 * A gate is code under test and may be hostile: its import and first install run under
 * the time and memory limits (GATECRASH_IMPORT_TIMEOUT or --import-timeout, default 120 s,
 * one progress line after 5 s), and a gate that
 * ends the process with os._exit (which raises no exception and no audit event) is caught
 * by this file's _exit, which the dynamic linker binds libpython's calls to: one error
 * line and exit 3 instead of a silent "nothing escaped". */
#define _GNU_SOURCE
#include "target.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "callguard.h"
#include "fsutil.h"
#include "interp.h"
#include "state.h"
#include "timelimit.h"

/* What gate code is doing right now, for _exit's message and the crash line (NULL: not
 * gate code; timelimit.h). */
#define gate_phase gc_limits_gate_phase

/* os._exit() ends in libc's _exit; so does nothing else the harness relies on (exit()
 * calls its own internal alias).  While gate code runs, an exit is the gate's doing. */
void _exit(int status)
{
    const char *phase = gate_phase ? gate_phase : gc_orc.in_chain ? "running a chain" : NULL;
    if (phase) {
        char msg[256];
        int n = snprintf(msg, sizeof msg, "gatecrash: error: the gate ended the process (exit status %d) while %s\n",
                         status, phase);
        if (n > 0) {
            ssize_t w = write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
            (void)w;
        }
        status = GC_EXIT_TARGET;
    }
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}

static char *read_text(const char *path, size_t limit, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(limit + 1);
    size_t n = buf ? fread(buf, 1, limit + 1, f) : 0;
    fclose(f);
    if (!buf || n > limit) {
        free(buf);
        snprintf(err, errlen, "%s is too large", path);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static void spec_defaults(gc_target_spec *s)
{
    memset(s, 0, sizeof *s);
    s->install = GC_INSTALL_RESTRICTIONS;
    snprintf(s->entry_install, sizeof s->entry_install, "install_restrictions");
    snprintf(s->entry_sp, sizeof s->entry_sp, "_install_subprocess_gate");
    snprintf(s->entry_fs, sizeof s->entry_fs, "_install_filesystem_gate");
    snprintf(s->module_id, sizeof s->module_id, "plugin");
    snprintf(s->adapter.entry, sizeof s->adapter.entry, "evaluate");
    s->mode = GC_MODE_REACH;
}

static int check_requires_json(const char *text, char *err, size_t errlen)
{
    cJSON *j = cJSON_Parse(text);
    if (!j) {
        const char *at = cJSON_GetErrorPtr();
        snprintf(err, errlen, "requires is not valid JSON (near \"%.20s\")", at ? at : "");
        return -1;
    }
    int ok = cJSON_IsObject(j);
    cJSON_Delete(j);
    if (!ok) {
        snprintf(err, errlen, "requires must be a JSON object");
        return -1;
    }
    return 0;
}

static int resolve_sandbox(gc_target_spec *s, const char *rel, const char *base, char *err, size_t errlen)
{
    char joined[PATH_MAX * 2];
    if (rel[0] == '/')
        snprintf(joined, sizeof joined, "%s", rel);
    else
        snprintf(joined, sizeof joined, "%s/%s", base, rel);
    const char *what = s->kind == GC_TARGET_SOURCE ? "adapter" : "sandbox module";
    if (!realpath(joined, s->sandbox)) {
        snprintf(err, errlen, "%s %s not found", what, joined);
        return GC_EXIT_TARGET;
    }
    struct stat st;
    if (stat(s->sandbox, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s %s is not a file", what, s->sandbox);
        return GC_EXIT_TARGET;
    }
    return 0;
}

/* target.json of the folder s->dir, parsed: a JSON object, or NULL with err filled. */
static cJSON *read_spec_json(const gc_target_spec *s, char *err, size_t errlen)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/target.json", s->dir);
    char *text = read_text(path, 1 << 20, err, errlen);
    if (!text)
        return NULL;
    cJSON *j = cJSON_Parse(text);
    if (!j || !cJSON_IsObject(j)) {
        const char *at = j ? "" : cJSON_GetErrorPtr(); /* points into text: print before freeing */
        snprintf(err, errlen, "%s is not a valid JSON object (near \"%.20s\")", path, at ? at : "");
        cJSON_Delete(j);
        j = NULL;
    }
    free(text);
    return j;
}

static int check_keys(const cJSON *j, char *err, size_t errlen)
{
    static const char *known[] = {"name", "sandbox", "requires", "install", "module_id",
                                  "mode", "entries", "description", "kind", "adapter", "entry",
                                  "venv", "refusals", "dialect", "steps"};
    const cJSON *it;
    cJSON_ArrayForEach(it, j)
    {
        int ok = 0;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            ok |= strcmp(it->string, known[i]) == 0;
        if (!ok) {
            snprintf(err, errlen, "target.json: unknown key \"%.60s\"", it->string);
            return -1;
        }
    }
    return 0;
}

/* "key": one of two strings, a (value va) or b (vb); absent: *dst unchanged. */
static int set_choice(int *dst, const cJSON *v, const char *key, const char *a, int va, const char *b, int vb,
                      char *err, size_t errlen)
{
    if (!v)
        return 0;
    if (cJSON_IsString(v) && strcmp(v->valuestring, a) == 0)
        *dst = va;
    else if (cJSON_IsString(v) && strcmp(v->valuestring, b) == 0)
        *dst = vb;
    else {
        snprintf(err, errlen, "target.json: \"%s\" must be \"%s\" or \"%s\"", key, a, b);
        return -1;
    }
    return 0;
}

static int set_entries(gc_target_spec *s, const cJSON *ent, char *err, size_t errlen)
{
    if (!ent)
        return 0;
    if (!cJSON_IsObject(ent)) {
        snprintf(err, errlen, "target.json: \"entries\" must be an object");
        return -1;
    }
    return gc_spec_string(s->entry_install, sizeof s->entry_install,
                   cJSON_GetObjectItemCaseSensitive(ent, "install_restrictions"), "entries.install_restrictions", err, errlen) ||
           gc_spec_string(s->entry_sp, sizeof s->entry_sp, cJSON_GetObjectItemCaseSensitive(ent, "subprocess_gate"),
                   "entries.subprocess_gate", err, errlen) ||
           gc_spec_string(s->entry_fs, sizeof s->entry_fs, cJSON_GetObjectItemCaseSensitive(ent, "filesystem_gate"),
                   "entries.filesystem_gate", err, errlen) ? -1 : 0;
}

/* Why 'name' is no safe file-name component (NULL: it is one).  A target's name names the
 * folders a campaign and triage write (out/NAME, escapes/NAME), so it is never a path: 1 to
 * GC_TARGET_NAME_MAX bytes of letters, digits and . _ - +, not starting with . or - (no "..",
 * no hidden folder, no option). */
static const char *name_unsafe(const char *name)
{
    size_t n = strlen(name);
    if (n == 0)
        return "it is empty";
    if (n > GC_TARGET_NAME_MAX)
        return "it is too long";
    if (name[0] == '.' || name[0] == '-')
        return "it starts with '.' or '-'";
    for (const char *c = name; *c; c++) {
        if (*c == '/')
            return "it has a '/'";
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return "it has a control character";
        if ((!isalnum((unsigned char)*c) || (unsigned char)*c >= 0x80) && !strchr("._-+", *c))
            return "it has a character other than letters, digits and . _ - +";
    }
    return NULL;
}

/* A name made from a file or folder name (no "name" given): its unsafe bytes replaced by '_',
 * cut to GC_TARGET_NAME_MAX bytes ("target" when nothing is left). */
static void name_from_file(const char *file, char *name, size_t len)
{
    size_t o = 0;
    for (const char *c = file; *c && o + 1 < len && o < GC_TARGET_NAME_MAX; c++) {
        int keep = (isalnum((unsigned char)*c) && (unsigned char)*c < 0x80) ||
                   (strchr("._-+", *c) && (o > 0 || (*c != '.' && *c != '-')));
        name[o++] = keep ? *c : '_';
    }
    name[o] = '\0';
    if (o == 0)
        snprintf(name, len, "target");
}

/* target.json's "name" into s->name, refused (exit 2) unless it is a safe file-name
 * component; absent: the folder's name, made safe. */
static int spec_name(gc_target_spec *s, const cJSON *v, char *err, size_t errlen)
{
    const char *base = strrchr(s->dir, '/');
    if (!v) {
        name_from_file(base ? base + 1 : s->dir, s->name, sizeof s->name);
        return 0;
    }
    const char *why = cJSON_IsString(v) ? name_unsafe(v->valuestring) : "it is not a string";
    if (why) {
        snprintf(err, errlen, "target.json: \"name\" must be a safe file name (%s): 1 to %d letters, digits and "
                 ". _ - +, not starting with '.' or '-'", why, GC_TARGET_NAME_MAX);
        return -1;
    }
    snprintf(s->name, sizeof s->name, "%s", v->valuestring);
    return 0;
}

/* The fields of target.json (its keys known) into s.  Returns 0 or an exit code. */
static int spec_fields(gc_target_spec *s, const cJSON *j, char *err, size_t errlen)
{
    if (spec_name(s, cJSON_GetObjectItemCaseSensitive(j, "name"), err, errlen) ||
        gc_spec_string(s->module_id, sizeof s->module_id, cJSON_GetObjectItemCaseSensitive(j, "module_id"),
                "module_id", err, errlen))
        return GC_EXIT_USAGE;
    int kind = GC_TARGET_GATE;
    if (set_choice(&kind, cJSON_GetObjectItemCaseSensitive(j, "kind"), "kind", "gate", GC_TARGET_GATE, "source",
                   GC_TARGET_SOURCE, err, errlen))
        return GC_EXIT_USAGE;
    s->kind = kind;
    const char *key = kind == GC_TARGET_SOURCE ? "adapter" : "sandbox";
    const cJSON *sb = cJSON_GetObjectItemCaseSensitive(j, key);
    if (!cJSON_IsString(sb) || !sb->valuestring[0]) {
        snprintf(err, errlen, "target.json: \"%s\" (path of the %s) is required", key,
                 kind == GC_TARGET_SOURCE ? "adapter" : "gate module");
        return GC_EXIT_USAGE;
    }
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(j, "requires");
    if (!cJSON_IsObject(req)) {
        snprintf(err, errlen, "target.json: \"requires\" must be a JSON object");
        return GC_EXIT_USAGE;
    }
    s->requires_json = cJSON_PrintUnformatted(req);
    int install = (int)s->install, mode = (int)s->mode;
    if (set_choice(&install, cJSON_GetObjectItemCaseSensitive(j, "install"), "install", "install_restrictions",
                   GC_INSTALL_RESTRICTIONS, "gates", GC_INSTALL_GATES, err, errlen) ||
        set_choice(&mode, cJSON_GetObjectItemCaseSensitive(j, "mode"), "mode", "reach", GC_MODE_REACH, "effect",
                   GC_MODE_EFFECT, err, errlen) ||
        set_entries(s, cJSON_GetObjectItemCaseSensitive(j, "entries"), err, errlen))
        return GC_EXIT_USAGE;
    s->install = install;
    s->mode = mode;
    int rc = kind == GC_TARGET_SOURCE ? gc_adapter_spec_fields(&s->adapter, j, s->dir, err, errlen) : 0;
    return rc ? rc : resolve_sandbox(s, sb->valuestring, s->dir, err, errlen);
}

int gc_target_spec_from_dir(const char *dir, gc_target_spec *s, char *err, size_t errlen)
{
    spec_defaults(s);
    if (!realpath(dir, s->dir)) {
        snprintf(err, errlen, "target folder %s not found", dir);
        return GC_EXIT_USAGE;
    }
    cJSON *j = read_spec_json(s, err, errlen);
    if (!j)
        return GC_EXIT_USAGE;
    int rc = check_keys(j, err, errlen) < 0 ? GC_EXIT_USAGE : spec_fields(s, j, err, errlen);
    cJSON_Delete(j);
    if (rc)
        gc_target_spec_free(s);
    return rc;
}

static int spec_from_args(gc_target_kind kind, const char *sandbox, const char *requires, gc_target_spec *s,
                          char *err, size_t errlen)
{
    spec_defaults(s);
    s->kind = kind;
    char *text;
    if (requires[0] == '@') {
        text = read_text(requires + 1, 1 << 20, err, errlen);
        if (!text)
            return GC_EXIT_USAGE;
    } else {
        text = strdup(requires);
    }
    if (check_requires_json(text, err, errlen) < 0) {
        free(text);
        return GC_EXIT_USAGE;
    }
    s->requires_json = text;
    int rc = resolve_sandbox(s, sandbox, ".", err, errlen);
    if (rc) {
        gc_target_spec_free(s);
        return rc;
    }
    snprintf(s->dir, sizeof s->dir, "%s", s->sandbox);
    char *slash = strrchr(s->dir, '/');
    if (slash)
        *slash = '\0';
    char mod[PATH_MAX];
    snprintf(mod, sizeof mod, "%s", strrchr(s->sandbox, '/') + 1);
    char *dot = strrchr(mod, '.');
    if (dot)
        *dot = '\0';
    name_from_file(mod, s->name, sizeof s->name);
    return 0;
}

int gc_target_spec_from_args(const char *sandbox, const char *requires, gc_target_spec *s,
                             char *err, size_t errlen)
{
    return spec_from_args(GC_TARGET_GATE, sandbox, requires, s, err, errlen);
}

int gc_target_spec_from_adapter(const char *adapter, const char *requires, gc_target_spec *s, char *err,
                                size_t errlen)
{
    return spec_from_args(GC_TARGET_SOURCE, adapter, requires, s, err, errlen);
}

/* A source target's own keys (gc_target_spec_from_dir reads them back). */
static void write_source_fields(const gc_target_spec *s, const char *adapter, cJSON *j)
{
    cJSON_AddStringToObject(j, "kind", "source");
    cJSON_AddStringToObject(j, "adapter", adapter);
    gc_adapter_write(&s->adapter, j);
}

char *gc_target_spec_json(const gc_target_spec *s, const char *sandbox)
{
    cJSON *j = cJSON_CreateObject(), *ent = cJSON_CreateObject();
    cJSON *req = s->requires_json ? cJSON_Parse(s->requires_json) : NULL;
    if (!j || !ent || !req) {
        cJSON_Delete(j);
        cJSON_Delete(ent);
        cJSON_Delete(req);
        return NULL;
    }
    cJSON_AddStringToObject(j, "name", s->name);
    if (s->kind == GC_TARGET_SOURCE)
        write_source_fields(s, sandbox ? sandbox : s->sandbox, j);
    else
        cJSON_AddStringToObject(j, "sandbox", sandbox ? sandbox : s->sandbox);
    cJSON_AddItemToObject(j, "requires", req);
    cJSON_AddStringToObject(j, "install", s->install == GC_INSTALL_GATES ? "gates" : "install_restrictions");
    cJSON_AddStringToObject(j, "module_id", s->module_id);
    cJSON_AddStringToObject(j, "mode", s->mode == GC_MODE_EFFECT ? "effect" : "reach");
    cJSON_AddStringToObject(ent, "install_restrictions", s->entry_install);
    cJSON_AddStringToObject(ent, "subprocess_gate", s->entry_sp);
    cJSON_AddStringToObject(ent, "filesystem_gate", s->entry_fs);
    cJSON_AddItemToObject(j, "entries", ent);
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    return text;
}

int gc_target_spec_write(const gc_target_spec *s, const char *dir, char *err, size_t errlen)
{
    char *text = gc_target_spec_json(s, NULL);
    if (!text) {
        snprintf(err, errlen, "cannot describe target %s as JSON", s->name);
        return GC_EXIT_HARNESS;
    }
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/target.json", dir);
    int rc = gc_mkdirs(dir) == 0 && gc_write_atomic(path, text, strlen(text), 0) == 0 ? 0 : GC_EXIT_HARNESS;
    if (rc)
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    free(text);
    return rc;
}

void gc_target_spec_free(gc_target_spec *s)
{
    free(s->requires_json);
    s->requires_json = NULL;
}

/* A cJSON value as Python's json.loads gives it (a number without a fraction an int); NULL
 * with a Python error set. */
static PyObject *py_of_json(const cJSON *j)
{
    if (cJSON_IsObject(j) || cJSON_IsArray(j)) {
        PyObject *out = cJSON_IsObject(j) ? PyDict_New() : PyList_New(0);
        const cJSON *e;
        cJSON_ArrayForEach(e, j)
        {
            PyObject *v = out ? py_of_json(e) : NULL;
            int bad = !v || (cJSON_IsObject(j) ? PyDict_SetItemString(out, e->string, v) : PyList_Append(out, v)) < 0;
            Py_XDECREF(v);
            if (bad)
                Py_CLEAR(out);
            if (!out)
                return NULL;
        }
        return out;
    }
    if (cJSON_IsString(j))
        return PyUnicode_FromString(j->valuestring);
    if (cJSON_IsBool(j))
        return PyBool_FromLong(cJSON_IsTrue(j));
    if (cJSON_IsNumber(j))
        return j->valuedouble == (double)(long long)j->valuedouble ? PyLong_FromLongLong((long long)j->valuedouble)
                                                                     : PyFloat_FromDouble(j->valuedouble);
    if (cJSON_IsNull(j))
        return Py_NewRef(Py_None);
    PyErr_SetString(PyExc_ValueError, "requires is not JSON");
    return NULL;
}

/* 'requires' as a Python object, read with cJSON: no json module is imported for it (the
 * target's own import makes the modules it needs, and only one copy of each). */
static PyObject *json_loads(const char *text)
{
    cJSON *j = cJSON_Parse(text);
    PyObject *r = j ? py_of_json(j) : NULL;
    if (!j)
        PyErr_SetString(PyExc_ValueError, "requires is not JSON");
    cJSON_Delete(j);
    return r;
}

static int import_gate(gc_target *t, char *err, size_t errlen)
{
    char modname[128];
    snprintf(modname, sizeof modname, "%s", strrchr(t->spec.sandbox, '/') + 1);
    char *dot = strrchr(modname, '.');
    if (dot)
        *dot = '\0';
    /* The host has the gate's folder (workbench/) on sys.path. */
    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%s", t->spec.sandbox);
    *strrchr(folder, '/') = '\0';
    PyObject *path = PySys_GetObject("path");
    PyObject *pf = PyUnicode_DecodeFSDefault(folder);
    if (!path || !pf || PyList_Insert(path, 0, pf) < 0) {
        Py_XDECREF(pf);
        gc_interp_error_line(err, errlen);
        return GC_EXIT_TARGET;
    }
    Py_DECREF(pf);
    /* importlib's own frozen modules (in sys.modules from the start): importlib.util would
     * put itself and what it imports there, where the host has none of them */
    PyObject *util = PyImport_ImportModule("_frozen_importlib_external");
    PyObject *boot = PyImport_ImportModule("_frozen_importlib");
    PyObject *spec = util && boot ? PyObject_CallMethod(util, "spec_from_file_location", "ss", modname,
                                                        t->spec.sandbox) : NULL;
    PyObject *mod = spec && spec != Py_None ? PyObject_CallMethod(boot, "module_from_spec", "O", spec) : NULL;
    int rc = 0;
    if (!mod) {
        char line[512];
        gc_interp_error_line(line, sizeof line);
        snprintf(err, errlen, "cannot load %s as a module: %s", t->spec.sandbox, line);
        rc = GC_EXIT_TARGET;
    } else {
        PyObject *modules = PyImport_GetModuleDict();
        PyDict_SetItemString(modules, modname, mod);
        PyObject *loader = PyObject_GetAttrString(spec, "loader");
        PyObject *r = loader ? PyObject_CallMethod(loader, "exec_module", "O", mod) : NULL;
        Py_XDECREF(loader);
        if (!r) {
            char line[512];
            gc_interp_error_line(line, sizeof line);
            snprintf(err, errlen, "importing %s raised %s", t->spec.sandbox, line);
            PyDict_DelItemString(modules, modname);
            PyErr_Clear();
            rc = GC_EXIT_TARGET;
        } else {
            Py_DECREF(r);
            Py_XSETREF(t->module, mod);
            mod = NULL;
        }
    }
    Py_XDECREF(mod);
    Py_XDECREF(spec);
    Py_XDECREF(util);
    Py_XDECREF(boot);
    return rc;
}

static int bind_entries(gc_target *t, char *err, size_t errlen)
{
    Py_CLEAR(t->install_fn);
    Py_CLEAR(t->sp_fn);
    Py_CLEAR(t->fs_fn);
    const char *need[2] = {NULL, NULL};
    PyObject **slot[2] = {NULL, NULL};
    if (t->spec.install == GC_INSTALL_RESTRICTIONS) {
        need[0] = t->spec.entry_install;
        slot[0] = &t->install_fn;
    } else {
        need[0] = t->spec.entry_sp;
        slot[0] = &t->sp_fn;
        need[1] = t->spec.entry_fs;
        slot[1] = &t->fs_fn;
    }
    for (int i = 0; i < 2 && need[i]; i++) {
        PyObject *f = PyObject_GetAttrString(t->module, need[i]);
        if (!f || !PyCallable_Check(f)) {
            Py_XDECREF(f);
            PyErr_Clear();
            snprintf(err, errlen, "%s has no callable install entry '%s'", t->spec.sandbox, need[i]);
            return GC_EXIT_TARGET;
        }
        *slot[i] = f;
    }
    return 0;
}

static PyObject *install_once(gc_target *t, char *err, size_t errlen);

/* A chain can break the output sink the gate prints to (sys.stdout.detach() on the real
 * sys): an install that fails is retried once with a fresh sink before it counts. */
PyObject *gc_target_install(gc_target *t, char *err, size_t errlen)
{
    const char *outer = gate_phase;
    if (!outer)
        gate_phase = "installing it";
    PyObject *ns = install_once(t, err, errlen);
    if (!ns && t->installs > 0 && gc_interp_reset_sink() == 0)
        ns = install_once(t, err, errlen);
    gate_phase = outer;
    return ns;
}

static PyObject *install_once(gc_target *t, char *err, size_t errlen)
{
    PyObject *ns = PyDict_New();
    PyObject *req = ns ? json_loads(t->spec.requires_json) : NULL; /* a fresh copy each time */
    PyObject *mid = PyUnicode_FromString(t->spec.module_id);
    PyObject *r = NULL;
    if (!ns || !req || !mid)
        goto fail;
    if (t->install_fn) {
        r = PyObject_CallFunctionObjArgs(t->install_fn, ns, req, mid, NULL);
    } else {
        PyObject *allowed = PyDict_GetItemString(req, "subprocess");
        r = PyObject_CallFunctionObjArgs(t->sp_fn, ns, allowed ? allowed : Py_True, mid, NULL);
        PyObject *globs = PyDict_GetItemString(req, "filesystem_writes");
        if (r && globs) {
            Py_DECREF(r);
            r = PyObject_CallFunctionObjArgs(t->fs_fn, ns, globs, mid, NULL);
        }
    }
    if (!r)
        goto fail;
    Py_DECREF(r);
    /* As exec() would give handler code when the gate sets no __builtins__. */
    if (!PyDict_GetItemString(ns, "__builtins__") &&
        PyDict_SetItemString(ns, "__builtins__", t->builtins) < 0)
        goto fail;
    Py_DECREF(req);
    Py_DECREF(mid);
    t->installs++;
    return ns;
fail: {
    char line[512];
    gc_interp_error_line(line, sizeof line);
    snprintf(err, errlen, "installing the gate raised %s", line);
}
    Py_XDECREF(ns);
    Py_XDECREF(req);
    Py_XDECREF(mid);
    return NULL;
}

/* Import the gate and install it once into *ns; a source target: its venv, its adapter
 * imported and bound, no install.  0 or an exit code. */
static int load_target(gc_target *t, PyObject **ns, char *err, size_t errlen)
{
    int source = t->spec.kind == GC_TARGET_SOURCE;
    int rc = source ? gc_adapter_add_venv(&t->spec.adapter, err, errlen) : 0;
    if (!rc)
        rc = import_gate(t, err, errlen);
    if (!rc)
        rc = source ? gc_adapter_bind(&t->adapter, &t->spec.adapter, t->module, t->builtins, t->spec.sandbox, err,
                                      errlen)
                    : bind_entries(t, err, errlen);
    if (rc || source)
        return rc;
    gate_phase = "installing it";
    *ns = gc_target_install(t, err, errlen);
    return *ns ? 0 : GC_EXIT_TARGET;
}

/* ---- a long import: one progress line ---- */

#define PROGRESS_AFTER 5 /* seconds */

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done;
    const char *what; /* "the adapter", "the gate" */
} progress;

/* A C thread (no Python): waits PROGRESS_AFTER s for the import to end, else says it goes on. */
static void *progress_main(void *arg)
{
    progress *p = arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += PROGRESS_AFTER;
    pthread_mutex_lock(&p->mu);
    int rc = 0;
    while (!p->done && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&p->cv, &p->mu, &until);
    if (!p->done)
        fprintf(stderr, "gatecrash: still importing %s (%d s)… (at most %g s: --import-timeout S)\n", p->what,
                PROGRESS_AFTER, gc_limits_import_seconds());
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* load_target with the progress line after PROGRESS_AFTER s. */
static int load_with_progress(gc_target *t, PyObject **ns, char *err, size_t errlen)
{
    progress p = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0,
                  t->spec.kind == GC_TARGET_SOURCE ? "the adapter" : "the gate"};
    pthread_t th;
    int started = pthread_create(&th, NULL, progress_main, &p) == 0;
    int rc = load_target(t, ns, err, errlen);
    pthread_mutex_lock(&p.mu);
    p.done = 1;
    pthread_cond_signal(&p.cv);
    pthread_mutex_unlock(&p.mu);
    if (started)
        pthread_join(th, NULL);
    return rc;
}

int gc_target_open(gc_target *t, const gc_target_spec *spec, const char *scratch, char *err,
                   size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->spec = *spec;
    t->spec.requires_json = strdup(spec->requires_json);
    if (gc_interp_start(scratch, err, errlen) < 0)
        return GC_EXIT_HARNESS;
    gc_orc.mode = spec->mode;
    PyObject *req = json_loads(spec->requires_json);
    if (!req) {
        gc_interp_error_line(err, errlen);
        return GC_EXIT_USAGE;
    }
    int prc = gc_policy_from_requires(req, &t->policy, err, errlen);
    Py_DECREF(req);
    if (prc < 0)
        return GC_EXIT_USAGE;
    gc_orc.policy = t->policy;
    /* The real primitives are captured before any gate code runs. */
    if (gc_oracle_load_table(err, errlen) < 0 || gc_callguard_place(err, errlen) < 0)
        return GC_EXIT_HARNESS;
    gc_policy_finish(&t->policy);
    gc_orc.policy = t->policy;
    PyObject *bi = PyImport_ImportModule("builtins");
    t->builtins = bi ? PyModule_GetDict(bi) : NULL;
    Py_XINCREF(t->builtins);
    Py_XDECREF(bi);

    if (gc_limits_init(err, errlen) < 0)
        return GC_EXIT_HARNESS;

    /* the state self-test's class is made now, and collected, before the target: no class of
     * the harness's is left in object.__subclasses__(), whose last entries a program may pick */
    gc_state_attr_sets_unseen();
    PyGC_Collect();
    gc_state_hold_std(); /* the harness's descriptors are the process's before the target sees it */
    gc_interp_capture_begin();
    double limit = gc_limits_import_seconds();
    gc_limits_arm_for(limit);
    gate_phase = "importing it";
    gc_limits_hard_what = "importing the gate";
    gc_limits_hard_code = GC_EXIT_TARGET;
    PyObject *ns = NULL;
    gc_interp_world_restore();
    gc_oracle_release_unloaded();
    gc_oracle_import_clear();
    gc_orc.importing = 1; /* what the target attempts now is its own (oracle.h) */
    int rc = load_with_progress(t, &ns, err, errlen);
    gc_orc.importing = 0;
    gc_oracle_refresh(); /* the modules the target imported: their rows (and tempfile's folder) now */
    gate_phase = NULL;
    int expired = gc_limit_expired, oom = gc_limit_oom;
    gc_limits_disarm();
    gc_limits_hard_what = "the input";
    gc_limits_hard_code = GC_EXIT_HARNESS;
    if (expired)
        gc_limit_timeouts--; /* not an input: the error below says it */
    if (oom)
        gc_limit_ooms--;
    t->startup_log = gc_interp_capture_end();
    if (expired || oom) {
        Py_XDECREF(ns);
        if (expired)
            snprintf(err, errlen, "%s did not finish importing and installing within %g s (the gate hangs on import? "
                     "--import-timeout S waits longer)", t->spec.sandbox, limit);
        else
            snprintf(err, errlen, "%s ran out of memory while importing and installing (limit %zu MiB)",
                     t->spec.sandbox, gc_input_memory_limit >> 20);
        return GC_EXIT_TARGET;
    }
    const char *attempt = gc_oracle_import_attempt();
    if (attempt) { /* refused, and the target's own doing, whether it caught the refusal or not */
        Py_XDECREF(ns);
        snprintf(err, errlen, "at import: %s attempted %s, refused by the harness", t->spec.sandbox, attempt);
        return GC_EXIT_TARGET;
    }
    if (rc)
        return rc;
    Py_XDECREF(ns);
    if (spec->mode == GC_MODE_EFFECT && gc_oracle_add_tail_hook(err, errlen) < 0)
        return GC_EXIT_HARNESS;
    if (gc_oracle_selftest(err, errlen) < 0)
        return GC_EXIT_HARNESS;
    return 0;
}
