/* state.c — see state.h.  Change detection uses CPython 3.11's per-dict version tag
 * (ma_version_tag), which every mutation of a dict bumps: comparing one integer per watched
 * dict is what makes checking after every input affordable. */
#include "state.h"

#include <Python.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle.h"

typedef struct {
    PyObject *dict;     /* the live dict (strong ref) */
    PyObject *snap;     /* a copy taken at snapshot time */
    uint64_t tag;       /* version tag before the current chain */
    char name[64];
} watched_dict;

typedef struct {
    PyObject *list;     /* live list (strong ref) */
    PyObject *snap;     /* tuple copy */
    const char *name;
} watched_list;

static watched_dict *dicts;
static size_t ndicts;
static watched_list lists[3];
static int rec_limit;
static mode_t saved_umask;
static unsigned long total_repairs;

static uint64_t tag_of(PyObject *d) { return ((PyDictObject *)d)->ma_version_tag; }

static int watch_dict(PyObject *d, const char *name)
{
    watched_dict *nd = realloc(dicts, (ndicts + 1) * sizeof *dicts);
    if (!nd)
        return -1;
    dicts = nd;
    watched_dict *w = &dicts[ndicts];
    w->dict = d;
    Py_INCREF(d);
    w->snap = PyDict_Copy(d);
    if (!w->snap)
        return -1;
    w->tag = tag_of(d);
    snprintf(w->name, sizeof w->name, "%s", name);
    ndicts++;
    return 0;
}

int gc_state_snapshot(char *err, size_t errlen)
{
    PyObject *modules = PyImport_GetModuleDict();
    if (watch_dict(modules, "sys.modules") < 0)
        goto fail;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(modules, &pos, &k, &v)) {
        if (!PyModule_Check(v))
            continue;
        PyObject *d = PyModule_GetDict(v);
        const char *n = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : "?";
        if (!d || watch_dict(d, n ? n : "?") < 0)
            goto fail;
    }
    PyObject *os = PyImport_ImportModule("os");
    PyObject *environ = os ? PyObject_GetAttrString(os, "environ") : NULL;
    PyObject *data = environ ? PyObject_GetAttrString(environ, "_data") : NULL;
    Py_XDECREF(os);
    Py_XDECREF(environ);
    if (!data || !PyDict_Check(data) || watch_dict(data, "os.environ") < 0) {
        Py_XDECREF(data);
        goto fail;
    }
    Py_DECREF(data);
    static const char *lnames[3] = {"path", "meta_path", "path_hooks"};
    for (int i = 0; i < 3; i++) {
        PyObject *l = PySys_GetObject(lnames[i]);
        if (!l || !PyList_Check(l))
            goto fail;
        Py_INCREF(l);
        lists[i].list = l;
        lists[i].snap = PyList_AsTuple(l);
        lists[i].name = lnames[i];
        if (!lists[i].snap)
            goto fail;
    }
    rec_limit = Py_GetRecursionLimit();
    saved_umask = umask(022);
    umask(saved_umask);
    return 0;
fail:
    PyErr_Clear();
    snprintf(err, errlen, "could not snapshot the interpreter state");
    return -1;
}

void gc_state_begin(void)
{
    for (size_t i = 0; i < ndicts; i++)
        dicts[i].tag = tag_of(dicts[i].dict);
}

static void note_add(char *note, size_t len, const char *what)
{
    size_t n = strlen(note);
    if (n + 3 >= len || strstr(note, what))
        return;
    snprintf(note + n, len - n, "%s%s", n ? ", " : "", what);
}

/* Put back every key the snapshot has.  Keys the chain added are dropped only when
 * 'drop_added' (os.environ): sys.modules and module namespaces grow legitimately through
 * lazy imports and caches. */
static int restore_dict(watched_dict *w, int drop_added)
{
    int changed = 0;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(w->snap, &pos, &k, &v)) {
        PyObject *cur = PyDict_GetItemWithError(w->dict, k);
        if (cur != v) {
            if (PyDict_SetItem(w->dict, k, v) < 0)
                return -1;
            changed = 1;
        }
    }
    if (drop_added && PyDict_GET_SIZE(w->dict) != PyDict_GET_SIZE(w->snap)) {
        PyObject *keys = PyDict_Keys(w->dict);
        for (Py_ssize_t i = 0; keys && i < PyList_GET_SIZE(keys); i++) {
            PyObject *key = PyList_GET_ITEM(keys, i);
            if (!PyDict_Contains(w->snap, key)) {
                PyDict_DelItem(w->dict, key);
                changed = 1;
            }
        }
        Py_XDECREF(keys);
    }
    PyErr_Clear();
    return changed;
}

int gc_state_end(char *note, size_t len)
{
    int repairs = 0;
    note[0] = '\0';
    for (size_t i = 0; i < ndicts; i++) {
        watched_dict *w = &dicts[i];
        if (tag_of(w->dict) == w->tag)
            continue;
        /* sys.modules and module namespaces may grow through lazy imports and caches:
         * what was there must stay; os.environ must be exactly as it was. */
        int r = restore_dict(w, strcmp(w->name, "os.environ") == 0);
        if (r < 0)
            return -1;
        if (r > 0) {
            repairs++;
            note_add(note, len, w->name);
        }
    }
    for (int i = 0; i < 3; i++) {
        watched_list *l = &lists[i];
        Py_ssize_t n = PyTuple_GET_SIZE(l->snap);
        int same = PyList_GET_SIZE(l->list) == n;
        for (Py_ssize_t j = 0; same && j < n; j++)
            same = PyList_GET_ITEM(l->list, j) == PyTuple_GET_ITEM(l->snap, j);
        if (!same) {
            if (PyList_SetSlice(l->list, 0, PyList_GET_SIZE(l->list), l->snap) < 0)
                return -1;
            repairs++;
            char what[32];
            snprintf(what, sizeof what, "sys.%s", l->name);
            note_add(note, len, what);
        }
    }
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd) || strcmp(cwd, gc_orc.scratch) != 0) {
        if (chdir(gc_orc.scratch) != 0)
            return -1;
        repairs++;
        note_add(note, len, "working folder");
    }
    if (Py_GetRecursionLimit() != rec_limit) {
        Py_SetRecursionLimit(rec_limit);
        repairs++;
        note_add(note, len, "recursion limit");
    }
    if (!PyGC_IsEnabled()) {
        PyGC_Enable();
        repairs++;
        note_add(note, len, "gc disabled");
    }
    mode_t m = umask(saved_umask);
    if (m != saved_umask) {
        repairs++;
        note_add(note, len, "umask");
    }
    total_repairs += (unsigned long)repairs;
    return repairs;
}

unsigned long gc_state_total_repairs(void) { return total_repairs; }
