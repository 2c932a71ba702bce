/* nscache.c — see nscache.h.
 *
 * A watched dict's change is seen by the version's own signal: 3.11 its version tag;
 * 3.12+ (the tag is deprecated) a dict watcher, whose callback marks the watch record
 * (ptrmap.h) without allocating.  A function's slots are compared by pointer on every
 * version: cheaper than a function watcher, which CPython calls for every function made
 * or freed anywhere (and chains cannot set them: object.__setattr__ is refused).
 * Instance dicts the version's signal can miss (CPython 3.13.0, gh-125608: state.h) are
 * made ones it sees, or else compared with their copy by content.
 *
 * Every watched object is held by a strong reference, so an address cannot be reused by
 * another object while it is watched.  The walk stops at depth 2 (namespace -> value ->
 * attribute); state deeper than that which a chain changes is not seen here — which is why
 * triage confirms every escape in a fresh process (tests/reuse_reproduces.sh). */
#include "nscache.h"

#include "hash.h"
#include "ptrmap.h"
#include "pycompat.h"
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gc_nscache_enabled = 0; /* the fuzz driver turns it on; tools install fresh */

typedef enum { W_DICT, W_FUNC, W_LIST, W_CELL } wkind;

typedef struct {
    PyObject *obj;
    wkind kind;
    PyObject *snap;    /* dict: a copy made after the install */
    uint64_t tag;      /* 3.11: dict version tag (a function's: its __dict__'s) */
    unsigned char dirty;      /* 3.12+: a watcher saw a change since it was recorded */
    unsigned char by_content; /* a dict whose changes the signal can miss: compared with snap */
    const void *p[5];  /* function slots / list or cell contents */
    Py_ssize_t n;      /* list length */
    uint64_t hash;     /* list items */
} watch;

static watch *w;
static size_t nw, capw;
static PyObject *cached;
static gc_nscache_stats stats;

#define SEEN_SLOTS 8192
static const void *seen[SEEN_SLOTS];

static int mark_seen(const void *p)
{
    size_t h = ((uintptr_t)p >> 4) & (SEEN_SLOTS - 1);
    for (size_t n = 0; n < SEEN_SLOTS; n++, h = (h + 1) & (SEEN_SLOTS - 1)) {
        if (seen[h] == p)
            return 1;
        if (!seen[h]) {
            seen[h] = p;
            return 0;
        }
    }
    return 1; /* full: treat as seen (the walk is bounded anyway) */
}

#define GC_WATCHERS (PY_VERSION_HEX >= 0x030c0000)
#if GC_WATCHERS
static int dict_watcher = -1;
static gc_ptrmap at; /* a watched dict (a function's __dict__ too) or function -> index into w[] */

static int on_dict(PyDict_WatchEvent ev, PyObject *d, PyObject *key, PyObject *value)
{
    (void)ev, (void)key, (void)value;
    long i = gc_ptrmap_get(&at, d);
    if (i >= 0)
        w[i].dirty = 1;
    return 0;
}

/* Have the watcher report changes to dict d for record i (a function's record for its __dict__) */
static void watch_for(PyObject *d, size_t i)
{
    if (dict_watcher < 0)
        dict_watcher = PyDict_AddWatcher(on_dict);
    if (dict_watcher < 0 || PyDict_Watch(dict_watcher, d) < 0) {
        PyErr_Clear();
        w[i].by_content = 1; /* no watcher: compare it */
    }
    gc_ptrmap_put(&at, d, (uint32_t)i);
}

static void unwatch(PyObject *d)
{
    if (d && dict_watcher >= 0 && PyDict_Unwatch(dict_watcher, d) < 0)
        PyErr_Clear();
}
#else
static uint64_t tag_of(PyObject *d) { return gc_dict_tag(d); }
#endif

/* The same keys bound to the same objects as in its copy. */
static int same_content(PyObject *d, PyObject *snap)
{
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    if (!snap || PyDict_GET_SIZE(d) != PyDict_GET_SIZE(snap))
        return 0;
    while (PyDict_Next(snap, &pos, &k, &v))
        if (PyDict_GetItemWithError(d, k) != v) {
            PyErr_Clear();
            return 0;
        }
    return 1;
}

/* Did the dict of record x change since it was recorded (or last put back)? */
static int dict_changed(watch *x)
{
#if GC_WATCHERS
    int changed = x->dirty;
#else
    int changed = tag_of(x->obj) != x->tag;
#endif
    return changed || (x->by_content && !same_content(x->obj, x->snap));
}

/* Recorded as it is now. */
static void dict_seen(watch *x)
{
#if GC_WATCHERS
    x->dirty = 0;
#else
    x->tag = tag_of(x->obj);
#endif
}

static uint64_t list_hash(PyObject *l)
{
    uint64_t h = GC_FNV64_OFFSET;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(l); i++)
        h = gc_fnv1a64_step(h, (uintptr_t)PyList_GET_ITEM(l, i));
    return h;
}

static void fill(watch *x)
{
    PyObject *o = x->obj;
    switch (x->kind) {
    case W_DICT: dict_seen(x); break;
    case W_LIST:
        x->n = PyList_GET_SIZE(o);
        x->hash = list_hash(o);
        break;
    case W_CELL: x->p[0] = PyCell_GET(o); break;
    case W_FUNC: {
        PyFunctionObject *f = (PyFunctionObject *)o;
        x->p[0] = f->func_code;
        x->p[1] = f->func_defaults;
        x->p[2] = f->func_kwdefaults;
        x->p[3] = f->func_closure;
        x->p[4] = f->func_dict;
#if GC_WATCHERS
        x->dirty = 0;
#else
        x->tag = f->func_dict ? tag_of(f->func_dict) : 0;
#endif
        break;
    }
    }
}

/* A dict the input changed, put back as the install left it: the same keys, in the same
 * order, bound to the same objects (a drop and a fresh install cost a few hundred
 * microseconds, a hundred inputs' worth; most changes that reach the cache are these).
 * Dicts state.c watches are its to repair (it ran first: gc_run_input) and are left as it
 * left them, as a fresh install would find them.  0 when put back, -1 if it cannot be. */
static int put_back(watch *x)
{
    /* asked now: the first install comes before state.c's snapshot */
    if (!gc_state_watches(x->obj)) {
        if (!x->snap)
            return -1;
        PyDict_Clear(x->obj);
        if (PyDict_Update(x->obj, x->snap) < 0) {
            PyErr_Clear();
            return -1;
        }
    }
    dict_seen(x);
    stats.restores++;
    return 0;
}

static int same(watch *x)
{
    PyObject *o = x->obj;
    switch (x->kind) { /* the common case (nothing changed) reads one or two words */
    case W_DICT: return !dict_changed(x) || put_back(x) == 0;
    case W_CELL: return PyCell_GET(o) == x->p[0];
    case W_LIST: return PyList_GET_SIZE(o) == x->n && list_hash(o) == x->hash;
    case W_FUNC: {
        PyFunctionObject *f = (PyFunctionObject *)o;
        if (f->func_dict != x->p[4] && !x->p[4] && PyDict_GET_SIZE(f->func_dict) == 0) {
            /* a function's __dict__ is made on first access: a new, empty one is no change */
            x->p[4] = f->func_dict;
#if GC_WATCHERS
            watch_for(f->func_dict, (size_t)(x - w));
#else
            x->tag = tag_of(f->func_dict);
#endif
        }
#if GC_WATCHERS
        int dict_same = !x->dirty;
#else
        int dict_same = (f->func_dict ? tag_of(f->func_dict) : 0) == x->tag;
#endif
        return f->func_code == x->p[0] && f->func_defaults == x->p[1] && f->func_kwdefaults == x->p[2] &&
               f->func_closure == x->p[3] && f->func_dict == x->p[4] && dict_same;
    }
    }
    return 0;
}

static void add(PyObject *o, wkind kind)
{
    if (nw == capw) {
        capw = capw ? capw * 2 : 1024;
        watch *nw_ = realloc(w, capw * sizeof *w);
        if (!nw_)
            abort();
        w = nw_;
    }
    Py_INCREF(o);
    w[nw].obj = o;
    w[nw].kind = kind;
    w[nw].snap = kind == W_DICT ? PyDict_Copy(o) : NULL; /* NULL: drop on change */
    PyErr_Clear();
    memset(w[nw].p, 0, sizeof w[nw].p);
    w[nw].by_content = 0;
    fill(&w[nw]);
#if GC_WATCHERS
    if (kind == W_DICT)
        watch_for(o, nw);
    if (kind == W_FUNC && w[nw].p[4])
        watch_for((PyObject *)w[nw].p[4], nw);
#endif
    nw++;
}

static void walk(PyObject *o, int depth)
{
    if (mark_seen(o) || PyType_Check(o))
        return; /* classes: state.c watches module-level classes and puts them back */
    if (PyDict_Check(o) || PyModule_Check(o)) {
        PyObject *d = PyModule_Check(o) ? PyModule_GetDict(o) : o;
        if (PyModule_Check(o) && mark_seen(d))
            return;
        add(d, W_DICT);
        if (depth < 2) {
            PyObject *k, *v;
            Py_ssize_t pos = 0;
            while (PyDict_Next(d, &pos, &k, &v))
                walk(v, depth + 1);
        }
        return;
    }
    if (PyFunction_Check(o)) {
        add(o, W_FUNC);
        PyObject *cl = PyFunction_GET_CLOSURE(o);
        for (Py_ssize_t i = 0; cl && i < PyTuple_GET_SIZE(cl); i++)
            if (!mark_seen(PyTuple_GET_ITEM(cl, i)))
                add(PyTuple_GET_ITEM(cl, i), W_CELL);
        return;
    }
    if (PyList_Check(o)) {
        add(o, W_LIST);
        return;
    }
    /* An instance's attributes: CPython 3.11 keeps them in inline values until something
     * asks for __dict__, and a change there bumps no version tag.  Asking for it makes the
     * dict (the object behaves the same), and from then on every attribute set shows
     * (on 3.13.0 once gc_state_make_seen has given it a table of its own). */
    if (Py_TYPE(o)->tp_dictoffset == 0)
        return;
    PyObject *d = PyObject_GenericGetDict(o, NULL);
    if (!d) {
        PyErr_Clear();
        return;
    }
    if (PyDict_Check(d) && !mark_seen(d)) {
        int seen = gc_state_make_seen(o, d);
        add(d, W_DICT);
        w[nw - 1].by_content |= !seen;
        if (depth < 2) {
            PyObject *k, *v;
            Py_ssize_t pos = 0;
            while (PyDict_Next(d, &pos, &k, &v))
                walk(v, depth + 1);
        }
    }
    Py_DECREF(d);
}

void gc_nscache_reset(void)
{
    for (size_t i = 0; i < nw; i++) {
#if GC_WATCHERS
        unwatch(w[i].kind == W_DICT ? w[i].obj : w[i].kind == W_FUNC ? (PyObject *)w[i].p[4] : NULL);
#endif
        Py_DECREF(w[i].obj);
        Py_XDECREF(w[i].snap);
    }
    nw = 0;
#if GC_WATCHERS
    gc_ptrmap_clear(&at);
#endif
    Py_CLEAR(cached);
}

PyObject *gc_nscache_get(gc_target *t, char *err, size_t errlen)
{
    if (gc_nscache_enabled && cached) {
        stats.reuses++;
        Py_INCREF(cached);
        return cached;
    }
    gc_nscache_reset();
    PyObject *ns = gc_target_install(t, err, errlen);
    if (!ns)
        return NULL;
    stats.installs++;
    if (gc_nscache_enabled) {
        memset(seen, 0, sizeof seen);
        walk(ns, 0);
        stats.watched = nw;
        cached = ns;
        Py_INCREF(cached);
    }
    return ns;
}

void gc_nscache_after(void)
{
    if (!cached)
        return;
    for (size_t i = 0; i < nw; i++)
        if (!same(&w[i])) {
            if (getenv("GATECRASH_DEBUG_NSCACHE")) {
                PyObject *r = PyObject_Repr(w[i].obj);
                fprintf(stderr, "nscache drop: kind %d %.100s\n", w[i].kind, r ? PyUnicode_AsUTF8(r) : "?");
                Py_XDECREF(r);
                PyErr_Clear();
            }
            stats.drops++;
            gc_nscache_reset();
            return;
        }
}

const gc_nscache_stats *gc_nscache_stats_get(void) { return &stats; }
