/* state.c — see state.h.
 *
 * What changed is marked, not searched for: each watched dict has a record (dicts[i]) and
 * a check after an input looks only at the records marked since the last one.  The marks
 * come from the interpreter's own change signals, which differ by version:
 *   - CPython 3.11: the per-dict version tag (ma_version_tag) every mutation bumps; a check
 *     compares one integer per watched dict and marks those that moved (and skips even that
 *     when the one global counter the tags come from has not moved).
 *   - 3.12+: the tag is deprecated (removed in 3.14) and its global counter steps by more
 *     than one; the official dict watchers (PyDict_Watch) call back on every change to a
 *     watched dict (a class's included), and the callback marks its record.
 * CPython 3.13.0 (gh-125608) changes an instance's materialized __dict__ on attribute sets
 * without either signal while the dict shares the object's inline values; a start-up
 * self-test finds it (gc_state_attr_sets_unseen), and then each such dict watched is given
 * a table of its own (own_table), which the signal does see; where that does not help either
 * (the self-test says so too), the dict is compared by content in every check.
 *
 * Besides module namespaces, the values every module holds at snapshot time are watched one
 * level deep: the instance dict of an object (os.environ.__dict__, a logger), the contents
 * of a module-level list (warnings.filters), dict and set (os.supports_dir_fd), and the
 * namespace of a module object that is not in sys.modules (a gate's cached proxy).  Process
 * state outside Python objects is checked with a few calls: trace/profile functions and
 * sys.monitoring tools, signal dispositions and mask, threads, the gc freeze count, the
 * locale.  gc_state_end runs the table of checks at the end of this file. */
#define _GNU_SOURCE
#include "state.h"

#include <Python.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backstop.h"
#include "callguard.h"
#include "facility.h"
#include "fsutil.h"
#include "oracle.h"
#include "ptrmap.h"
#include "pycompat.h"
#include "timelimit.h"
#include "xalloc.h"

#define GC_WATCHERS (PY_VERSION_HEX >= 0x030c0000) /* dict watchers and sys.monitoring */

typedef struct {
    PyObject *dict;     /* the live dict (strong ref) */
    PyObject *snap;     /* a copy taken at snapshot time */
    PyObject *owner;    /* for an instance dict: its object (strong ref), else NULL */
    PyObject **slot;    /* where the owner keeps its dict (fixed while the owner lives) */
    int exact;          /* keys added by a chain are removed too (os.environ) */
    PyObject *type;     /* for a class's dict: the class (strong ref), restored through setattr */
    char name[64];
} watched_dict;

typedef struct {
    PyObject *obj;      /* live list or set (strong ref) */
    PyObject *snap;     /* tuple copy (list) or frozenset copy (set) */
    setentry *tbl;      /* set: a copy of its hash table when last seen equal to snap */
    Py_ssize_t tbl_n;
    char name[64];
} watched_seq;

static watched_dict *dicts;
/* What the check after every input reads, packed apart from the rest (dicts[i] <-> hot[i]):
 * the loop over several hundred dicts touched a 120-byte record per dict before */
typedef struct {
    PyObject *dict;
    PyObject **slot;    /* dicts[i].slot */
    uint64_t tag;       /* 3.11: version tag before the current chain */
} hot_dict;
static hot_dict *hot;
static size_t ndicts;
static size_t *owned, nowned; /* indices of instance dicts (their owner's slot is checked too) */
static size_t *by_content, nby_content; /* indices compared by content in every check (below) */

/* The records marked changed since the last check: each index at most once. */
static uint32_t *marked;
static unsigned char *is_marked;
static size_t nmarked;
static void mark(size_t i)
{
    if (!is_marked[i]) {
        is_marked[i] = 1;
        marked[nmarked++] = (uint32_t)i;
    }
}
static void clear_marks(void)
{
    for (size_t j = 0; j < nmarked; j++)
        is_marked[marked[j]] = 0;
    nmarked = 0;
}

#if GC_WATCHERS
static int dict_watcher = -1;
static gc_ptrmap watched_at; /* dict -> index into dicts[] */
static PyObject *probe_dict; /* the self-test's dict (attr_sets_unseen) */
static int probe_seen;

static int on_dict(PyDict_WatchEvent ev, PyObject *d, PyObject *key, PyObject *value)
{
    (void)ev, (void)key, (void)value;
    long i = gc_ptrmap_get(&watched_at, d);
    if (i >= 0)
        mark((size_t)i);
    else if (d == probe_dict)
        probe_seen = 1;
    return 0;
}

static int start_watchers(void)
{
    if (dict_watcher < 0)
        dict_watcher = PyDict_AddWatcher(on_dict);
    return dict_watcher >= 0 ? 0 : -1;
}

/* Record i's dict with the watcher.  A class is watched through its own dict, not with
 * PyType_Watch: every attribute set on a class writes that dict, while a type watcher
 * fires only while the class's version tag is valid (once per series of changes between
 * lookups, and never again once the class has used up its tags). */
static int watch_record(size_t i)
{
    if (start_watchers() < 0 || PyDict_Watch(dict_watcher, dicts[i].dict) < 0)
        return -1;
    gc_ptrmap_put(&watched_at, dicts[i].dict, (uint32_t)i);
    return 0;
}
#else
/* Every dict mutation and creation in CPython 3.11 takes the next value of one global
 * counter as its version tag, so a dict made now shows where the counter is: when it moved
 * by no more than that dict since the tags were last made current, no dict anywhere
 * changed, and the loop over the watched dicts can be skipped (about three checks in
 * four on station-1.5.0).  0: not known. */
static uint64_t tags_at;
static uint64_t global_dict_version(void)
{
    PyObject *d = PyDict_New();
    uint64_t v = d ? gc_dict_tag(d) : 0;
    Py_XDECREF(d);
    return v;
}
static uint64_t tag_of(PyObject *d) { return gc_dict_tag(d); }
static int watch_record(size_t i)
{
    hot[i].tag = tag_of(dicts[i].dict);
    return 0;
}
#endif

static watched_seq *lists, *sets;
static size_t nlists, nsets;
static PyObject *seen_ids; /* set of addresses of watched containers (no duplicates) */
static int rec_limit;
static mode_t saved_umask;
static unsigned long total_repairs, total_checks;
/* the standard descriptors: a chain that closes or replaces one (an open(2) whose file
 * object closed it) would silence the engine's log for the rest of the run */
static struct stat std_st[3];
static int std_copy[3] = {-1, -1, -1};

/* Python frames started, counted by a PEP 523 frame-evaluation hook.  Reading attributes and
 * items of C objects changes none of the state watched here; only code does: Python code
 * (a gate's __getattr__, a property, a finalizer, a module __getattr__) or a call, and every
 * call of a chain runs through the Python trampoline in eval.c.  So an input during which no
 * frame started needs no check at all, and the marks made since the end of the last check
 * stay valid until a frame starts (an install, for one). */
static unsigned long py_frames, frames_at_begin, frames_at_end = (unsigned long)-1;
static int hook_set, check_every_input;
gc_frame_eval_fn gc_state_frame_observer;
gc_thread_frame_fn gc_state_thread_observer;
static PyThreadState *input_ts; /* the thread that runs inputs */
static int other_thread_ran;   /* since gc_state_begin, Python code ran on another thread */
static PyObject *count_frames(PyThreadState *ts, struct _PyInterpreterFrame *f, int throwflag)
{
    py_frames++;
    if (ts != input_ts) {
        other_thread_ran = 1;
        if (gc_state_thread_observer)
            gc_state_thread_observer(ts);
    }
    if (gc_state_frame_observer)
        return gc_state_frame_observer(ts, f, throwflag);
    return _PyEval_EvalFrameDefault(ts, f, throwflag);
}
static int hook_intact(void)
{
    return hook_set && !check_every_input &&
           _PyInterpreterState_GetEvalFrameFunc(PyThreadState_Get()->interp) == count_frames;
}

/* process state */
static Py_tracefunc saved_trace, saved_profile;
static PyObject *freeze_count_fn, *unfreeze_fn, *maintain_locks_fn;
static PyObject *filters_mutated_fn; /* _warnings._filters_mutated, or NULL */
static gc_strlist scratch_kept;      /* what the scratch folder held at the snapshot */
static long base_frozen;
/* gc.get_freeze_count() walks the permanent generation's list (375 objects at start on
 * 3.12): a check after every input that ran code cost ~2 us there.  The count changes only
 * through gc.freeze and gc.unfreeze (no C API; a frozen object that dies is no change to
 * put back), so their calls are noted (gc_callguard_note) and the count read only then;
 * where they could not be noted, after every input. */
static volatile int freeze_called;
static int freeze_noted;
static uint64_t base_thread_id; /* the highest thread state id at snapshot time (below) */
static char *saved_locale;
static int sig_snapped; /* taken at the first input: the engine sets its handlers after start-up */
static struct sigaction saved_sa[NSIG];
static sigset_t saved_mask;
static PyObject *getsignal_fn, *setsignal_fn, *saved_py_handlers; /* list, index = signal */

/* Is o's address in seen_ids: 1 yes, 0 no (added now when 'add'), -1 could not tell. */
static int id_in_set(PyObject *o, int add)
{
    PyObject *id = PyLong_FromVoidPtr(o);
    int r = id ? PySet_Contains(seen_ids, id) : -1;
    if (r == 0 && add && PySet_Add(seen_ids, id) < 0)
        r = -1;
    Py_XDECREF(id);
    PyErr_Clear();
    return r;
}

/* 1 if 'o' is watched already (or cannot be recorded), else records it and returns 0. */
static int seen_before(PyObject *o) { return id_in_set(o, 1) != 0; }

int gc_state_watches(PyObject *o) { return seen_ids && id_in_set(o, 0) == 1; }

/* A new record for dict d (of 'owner', an instance, or of the class 'type', or NULL). */
static int watch_dict_full(PyObject *d, PyObject *owner, PyObject *type, int exact, const char *name)
{
    PyObject **slot = owner ? _PyObject_GetDictPtr(owner) : NULL;
    PyErr_Clear();
    if (owner && (!slot || *slot != d))
        return 0;
    if (seen_before(d))
        return 0;
    int seen = !owner || gc_state_make_seen(owner, d);
    dicts = gc_xrealloc(dicts, (ndicts + 1) * sizeof *dicts);
    hot = gc_xrealloc(hot, (ndicts + 1) * sizeof *hot);
    marked = gc_xrealloc(marked, (ndicts + 1) * sizeof *marked);
    is_marked = gc_xrealloc(is_marked, ndicts + 1);
    is_marked[ndicts] = 0;
    watched_dict *w = &dicts[ndicts];
    *w = (watched_dict){.dict = Py_NewRef(d), .owner = Py_XNewRef(owner), .slot = slot, .exact = exact,
                        .type = Py_XNewRef(type), .snap = PyDict_Copy(d)};
    snprintf(w->name, sizeof w->name, "%s", name);
    hot[ndicts] = (hot_dict){d, slot, 0};
    if (!w->snap)
        return -1;
    if (slot) {
        owned = gc_xrealloc(owned, (nowned + 1) * sizeof *owned);
        owned[nowned++] = ndicts;
    }
    if (!seen) { /* compared by content in every check */
        by_content = gc_xrealloc(by_content, (nby_content + 1) * sizeof *by_content);
        by_content[nby_content++] = ndicts;
    }
    ndicts++;
    return watch_record(ndicts - 1);
}

static int watch_dict_owned(PyObject *d, PyObject *owner, int exact, const char *name)
{
    return watch_dict_full(d, owner, NULL, exact, name);
}

static int watch_dict(PyObject *d, const char *name) { return watch_dict_owned(d, NULL, 0, name); }

/* A class's own dict.  CPython 3.11 audits no class attribute set (C.x = 1 raises no
 * event), and stdlib code run by a chain does it (copyreg caches __slotnames__ on the class
 * when __getstate__ runs): dir() of its instances then differs, and so does what `.#K`
 * names in later inputs.  Heap types only: static types cannot be changed (but through
 * their own dict, which object.__getstate__ of a type hands out: refused, eval.c). */
static int watch_type(PyObject *t, const char *name)
{
    PyTypeObject *tp = (PyTypeObject *)t;
    if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) || (tp->tp_flags & Py_TPFLAGS_IMMUTABLETYPE) || !tp->tp_dict)
        return 0;
    return watch_dict_full(tp->tp_dict, NULL, t, 1, name);
}

/* A class's dict back as it was, through setattr/delattr so that the class's slots and
 * caches follow (a direct dict write would leave a __getattr__ slot behind). */
static int restore_type(watched_dict *w)
{
    int changed = 0;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    PyObject *keys = PyDict_Keys(w->dict);
    for (Py_ssize_t i = 0; keys && i < PyList_GET_SIZE(keys); i++) {
        PyObject *key = PyList_GET_ITEM(keys, i);
        if (!PyDict_Contains(w->snap, key)) {
            if (PyObject_DelAttr(w->type, key) < 0)
                PyDict_DelItem(w->dict, key); /* not an attribute name: the dict itself */
            changed = 1;
        }
    }
    Py_XDECREF(keys);
    while (PyDict_Next(w->snap, &pos, &k, &v)) {
        PyObject *cur = PyDict_GetItemWithError(w->dict, k);
        if (cur != v) {
            if (PyObject_SetAttr(w->type, k, v) < 0 && PyDict_SetItem(w->dict, k, v) < 0)
                return -1;
            changed = 1;
        }
    }
    PyType_Modified((PyTypeObject *)w->type);
    PyErr_Clear();
    return changed;
}

/* A set's hash table, as it is now, kept for the quick test of seq_same. */
static void keep_table(watched_seq *w)
{
    PySetObject *so = (PySetObject *)w->obj;
    Py_ssize_t n = so->mask + 1;
    setentry *t = realloc(w->tbl, (size_t)n * sizeof *t);
    if (!t)
        return; /* the slow comparison still works */
    memcpy(t, so->table, (size_t)n * sizeof *t);
    w->tbl = t;
    w->tbl_n = n;
}

static int watch_seq(watched_seq **arr, size_t *n, PyObject *o, const char *name)
{
    if (seen_before(o))
        return 0;
    watched_seq *na = realloc(*arr, (*n + 1) * sizeof **arr);
    if (!na)
        return -1;
    *arr = na;
    watched_seq *w = &na[*n];
    w->snap = PyList_Check(o) ? PyList_AsTuple(o) : PyFrozenSet_New(o);
    if (!w->snap)
        return -1;
    w->obj = o;
    Py_INCREF(o);
    w->tbl = NULL;
    w->tbl_n = 0;
    if (!PyList_Check(o))
        keep_table(w);
    snprintf(w->name, sizeof w->name, "%s", name);
    (*n)++;
    return 0;
}

/* The values a module holds, one level deep. */
static int watch_module_values(PyObject *modules, PyObject *mdict, const char *mname)
{
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(mdict, &pos, &k, &v)) {
        const char *kn = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
        if (!kn) {
            PyErr_Clear();
            continue;
        }
        char name[64];
        snprintf(name, sizeof name, "%s.%s", mname, kn);
        int rc = 0;
        if (PyType_Check(v)) {
            if (watch_type(v, name) < 0)
                return -1;
            continue;
        }
        if (PyCFunction_Check(v) || PyFunction_Check(v))
            continue; /* functions: see docs */
        if (PyModule_Check(v)) {
            PyObject *mn = PyModule_GetNameObject(v);
            PyObject *in = mn ? PyDict_GetItemWithError(modules, mn) : NULL;
            Py_XDECREF(mn);
            PyErr_Clear();
            if (in != v) /* a module object outside sys.modules: a proxy */
                rc = watch_dict_owned(PyModule_GetDict(v), NULL, 1, name); /* exact: no lazy imports grow a proxy */
        } else if (PyList_CheckExact(v)) {
            rc = watch_seq(&lists, &nlists, v, name);
        } else if (PyDict_CheckExact(v)) {
            rc = watch_dict(v, name);
        } else if (PySet_CheckExact(v)) {
            rc = watch_seq(&sets, &nsets, v, name);
        } else if (Py_TYPE(v)->tp_dictoffset != 0 || (Py_TYPE(v)->tp_flags & Py_TPFLAGS_MANAGED_DICT)) {
            /* 3.11 keeps an instance's attributes in inline values until __dict__ is asked
             * for, and changes there bump no version tag: ask, so that the dict exists */
            PyObject *d = PyObject_GenericGetDict(v, NULL);
            Py_XDECREF(d);
            PyObject **dp = _PyObject_GetDictPtr(v);
            PyErr_Clear();
            if (dp && *dp && PyDict_CheckExact(*dp))
                rc = watch_dict_owned(*dp, v, 0, name);
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

static PyObject *attr_of(const char *mod, const char *name)
{
    PyObject *m = PyImport_ImportModule(mod);
    PyObject *f = m ? PyObject_GetAttrString(m, name) : NULL;
    Py_XDECREF(m);
    return f;
}

static long call_long(PyObject *fn)
{
    PyObject *r = fn ? PyObject_CallNoArgs(fn) : NULL;
    long v = r ? PyLong_AsLong(r) : -1;
    Py_XDECREF(r);
    PyErr_Clear();
    return v;
}

/* Signal dispositions and mask, as they are before the first input (the fuzzing engine
 * installs its handlers after start-up), with Python's own table for each signal. */
static void snapshot_signals(void)
{
    sig_snapped = 1;
    sigemptyset(&saved_mask);
    pthread_sigmask(SIG_SETMASK, NULL, &saved_mask);
    saved_py_handlers = PyList_New(NSIG);
    for (int s = 1; s < NSIG; s++) {
        sigaction(s, NULL, &saved_sa[s]);
        PyObject *h = saved_py_handlers && getsignal_fn ? PyObject_CallFunction(getsignal_fn, "i", s) : NULL;
        if (!h) {
            PyErr_Clear();
            h = Py_None;
            Py_INCREF(h);
        }
        if (saved_py_handlers)
            PyList_SET_ITEM(saved_py_handlers, s, h);
        else
            Py_DECREF(h);
    }
    if (saved_py_handlers) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(saved_py_handlers, 0, Py_None);
    }
}

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* added by libc whenever it sets a handler */
#endif
/* (SIG_DFL and SIG_IGN are the same with any flags: CPython sets SA_ONSTACK on each, and a
 * sandbox that puts SIGALRM back to SIG_DFL after its timeout changed nothing) */
static int same_action(const struct sigaction *a, const struct sigaction *b)
{
    if (a->sa_handler == b->sa_handler && (a->sa_handler == SIG_DFL || a->sa_handler == SIG_IGN))
        return 1;
    return a->sa_sigaction == b->sa_sigaction && ((a->sa_flags ^ b->sa_flags) & ~SA_RESTORER) == 0;
}

/* Put signal 's' back: Python's table first (it may install its own C handler), then the
 * exact disposition. */
static void restore_signal(int s)
{
    PyObject *h = saved_py_handlers ? PyList_GET_ITEM(saved_py_handlers, s) : Py_None;
    PyObject *r = NULL;
    if (setsignal_fn && h != Py_None)
        r = PyObject_CallFunction(setsignal_fn, "iO", s, h);
    else if (setsignal_fn && s != SIGKILL && s != SIGSTOP)
        r = PyObject_CallFunction(setsignal_fn, "ii", s, 0); /* SIG_DFL in Python's table */
    Py_XDECREF(r);
    PyErr_Clear();
    sigaction(s, &saved_sa[s], NULL);
}

/* sys.modules and the namespace of every module in it. */
static size_t modules_rec; /* the record of sys.modules */
static int snapshot_namespaces(PyObject *modules)
{
    modules_rec = ndicts;
    if (watch_dict(modules, "sys.modules") < 0)
        return -1;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(modules, &pos, &k, &v)) {
        if (!PyModule_Check(v))
            continue;
        PyObject *d = PyModule_GetDict(v);
        const char *n = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : "?";
        if (!d || watch_dict(d, n ? n : "?") < 0)
            return -1;
    }
    return 0;
}

/* os.environ must be exactly as it was: its _data, and its instance dict (_data, encodekey). */
static int snapshot_environ(void)
{
    PyObject *os = PyImport_ImportModule("os");
    PyObject *environ = os ? PyObject_GetAttrString(os, "environ") : NULL;
    PyObject *data = environ ? PyObject_GetAttrString(environ, "_data") : NULL;
    PyObject **dp = environ ? _PyObject_GetDictPtr(environ) : NULL;
    int rc = data && PyDict_Check(data) && dp && *dp ? 0 : -1;
    if (rc == 0)
        rc = watch_dict_owned(data, NULL, 1, "os.environ");
    if (rc == 0)
        rc = watch_dict_owned(*dp, environ, 1, "os.environ.__dict__");
    Py_XDECREF(data);
    Py_XDECREF(environ);
    Py_XDECREF(os);
    return rc;
}

static int snapshot_sys_lists(void)
{
    static const char *lnames[3] = {"path", "meta_path", "path_hooks"};
    for (int i = 0; i < 3; i++) {
        PyObject *l = PySys_GetObject(lnames[i]);
        char nm[32];
        snprintf(nm, sizeof nm, "sys.%s", lnames[i]);
        if (!l || !PyList_Check(l) || watch_seq(&lists, &nlists, l, nm) < 0)
            return -1;
    }
    return 0;
}

/* everything else the loaded modules hold, one level deep */
static int snapshot_values(PyObject *modules)
{
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(modules, &pos, &k, &v)) {
        if (!PyModule_Check(v))
            continue;
        const char *n = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : "?";
        if (watch_module_values(modules, PyModule_GetDict(v), n ? n : "?") < 0)
            return -1;
    }
    return 0;
}

/* A key that cannot be shared (not a str) turns a dict that shares its object's inline
 * values into a table of its own, and the object's attribute sets then go through the dict
 * like any dict write; the key is removed at once (content and order stay). */
static int own_table(PyObject *d)
{
    PyObject *k = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type);
    int rc = k && PyDict_SetItem(d, k, Py_None) == 0 && PyDict_DelItem(d, k) == 0 ? 0 : -1;
    Py_XDECREF(k);
    PyErr_Clear();
    return rc;
}

/* Is an attribute set on a fresh instance whose __dict__ was materialized (and given a
 * table of its own first, when 'own') seen by this version's change signal?  0 also when the test
 * itself cannot run. */
static int attr_set_seen(int own)
{
    PyObject *cls = PyObject_CallFunction((PyObject *)&PyType_Type, "s(){}", "gatecrash_selftest");
    PyObject *o = cls ? PyObject_CallNoArgs(cls) : NULL;
    PyObject *d = o && PyObject_SetAttrString(o, "a", Py_None) == 0 ? PyObject_GenericGetDict(o, NULL) : NULL;
    int seen = 0;
    if (d && own && own_table(d) < 0)
        Py_CLEAR(d);
#if GC_WATCHERS
    if (d && start_watchers() == 0 && PyDict_Watch(dict_watcher, d) == 0) {
        probe_dict = d;
        probe_seen = 0;
        seen = PyObject_SetAttrString(o, "a", Py_True) == 0 && probe_seen;
        probe_dict = NULL;
        PyDict_Unwatch(dict_watcher, d);
    }
#else
    uint64_t tag = d ? gc_dict_tag(d) : 0;
    seen = d && PyObject_SetAttrString(o, "a", Py_True) == 0 && gc_dict_tag(d) != tag;
#endif
    Py_XDECREF(d);
    Py_XDECREF(o);
    Py_XDECREF(cls);
    PyErr_Clear();
    return seen;
}

/* CPython 3.13.0 stores an attribute set into the inline values a materialized __dict__
 * shares, without bumping the dict's tag or calling its watchers (gh-125608, fixed in
 * 3.13.1).  Tried once, not assumed from the version number. */
static int sets_unseen = -1, own_table_works;
int gc_state_attr_sets_unseen(void)
{
    if (sets_unseen < 0) {
        sets_unseen = !attr_set_seen(0);
        own_table_works = sets_unseen && attr_set_seen(1);
    }
    return sets_unseen;
}

int gc_state_make_seen(PyObject *o, PyObject *d)
{
#ifdef Py_TPFLAGS_INLINE_VALUES
    int inline_values = PyType_HasFeature(Py_TYPE(o), Py_TPFLAGS_INLINE_VALUES);
#else
    int inline_values = PyType_HasFeature(Py_TYPE(o), Py_TPFLAGS_MANAGED_DICT);
#endif
    if (!gc_state_attr_sets_unseen() || !inline_values)
        return 1;
    return own_table_works && own_table(d) == 0;
}

/* ---- threads ----
 * Counted by thread state, not by threading's or _thread's books: every thread that runs
 * Python code has one, however it was started (threading, _thread, 3.13's
 * start_joinable_thread, a C extension's PyGILState_Ensure).  Thread state ids only grow,
 * so the threads an input left are those whose id is above the highest at snapshot time
 * (the thread that runs inputs and any the gate or adapter started on import). */

static uint64_t highest_thread_id(void)
{
    uint64_t hi = 0;
    for (PyThreadState *ts = PyInterpreterState_ThreadHead(PyThreadState_Get()->interp); ts; ts = PyThreadState_Next(ts))
        hi = PyThreadState_GetID(ts) > hi ? PyThreadState_GetID(ts) : hi;
    return hi;
}

static int async_sent; /* an asynchronous exception went to some thread during the input */

/* ---- workers the sandbox keeps ----
 * A sandbox may keep one worker pool for its whole life (evaluate submits every program to
 * the same concurrent.futures.ThreadPoolExecutor).  Its idle workers wait in C on the pool's
 * queue, where no exception reaches them, and a fresh process has them too once it has
 * evaluated one program: they are the sandbox's state, not something an input left.  A
 * thread still alive after the time every input's threads get to end on their own, whose
 * innermost Python frame is one of the pool waits below, is kept: an idle kept worker is
 * not the input's (not stopped, not counted); a busy one is, and gets the time limit's
 * Timeout and SystemExit as any other (the pool's work item catches them, and the worker
 * goes back to its queue).  A pool the program makes itself and drops ends its workers
 * within that time (the executor's collection wakes them with None), so they are not kept. */
#define MAX_KEPT 16
static uint64_t kept[MAX_KEPT];
static int nkept;
static const struct {
    const char *file, *func;
} pool_waits[] = {
    {"concurrent/futures/thread.py", "_worker"}, /* ThreadPoolExecutor */
    {"multiprocessing/pool.py", "worker"},       /* multiprocessing.pool.ThreadPool */
};

/* f's code is threading.py's Condition.wait. */
static int in_condition_wait(PyFrameObject *f)
{
    PyCodeObject *co = PyFrame_GetCode(f);
    const char *file = PyUnicode_Check(co->co_filename) ? PyUnicode_AsUTF8(co->co_filename) : NULL;
    const char *name = PyUnicode_Check(co->co_name) ? PyUnicode_AsUTF8(co->co_name) : NULL;
    size_t fl = file ? strlen(file) : 0;
    int in = name && fl >= 13 && strcmp(file + fl - 13, "/threading.py") == 0 && strcmp(name, "wait") == 0;
    Py_DECREF(co);
    PyErr_Clear();
    return in;
}

/* Is ts waiting for work in a pool (its innermost Python frame a pool's worker loop)? */
static int idle_in_pool(PyThreadState *ts)
{
    PyFrameObject *f = PyThreadState_GetFrame(ts);
    PyCodeObject *co = f ? PyFrame_GetCode(f) : NULL;
    const char *file = co && PyUnicode_Check(co->co_filename) ? PyUnicode_AsUTF8(co->co_filename) : NULL;
    const char *name = co && PyUnicode_Check(co->co_name) ? PyUnicode_AsUTF8(co->co_name) : NULL;
    size_t fl = file ? strlen(file) : 0;
    int idle = 0;
    for (size_t k = 0; name && k < sizeof pool_waits / sizeof *pool_waits && !idle; k++) {
        size_t sl = strlen(pool_waits[k].file);
        idle = fl >= sl && strcmp(file + fl - sl, pool_waits[k].file) == 0 && strcmp(name, pool_waits[k].func) == 0;
    }
    Py_XDECREF(co);
    Py_XDECREF(f);
    PyErr_Clear();
    return idle;
}

static int is_kept(PyThreadState *ts)
{
    for (int k = 0; k < nkept; k++)
        if (kept[k] == PyThreadState_GetID(ts))
            return 1;
    return 0;
}

/* Raise exc in every thread started since the snapshot but kept workers that are idle
 * (NULL: just count them); how many. */
static int input_threads(PyObject *exc)
{
    int n = 0;
    for (PyThreadState *ts = PyInterpreterState_ThreadHead(PyThreadState_Get()->interp); ts;
         ts = PyThreadState_Next(ts)) {
        if (PyThreadState_GetID(ts) <= base_thread_id || ts == input_ts || (nkept && is_kept(ts) && idle_in_pool(ts)))
            continue;
        n++;
        if (exc && PyThreadState_SetAsyncExc(ts->thread_id, exc) > 0)
            async_sent = 1;
    }
    return n;
}

/* The input's threads by name ("ThreadPoolExecutor-0_0", from threading's table; read from
 * its dicts, so no code of the input runs), "thread <ident>" for one threading does not know,
 * each with where it is ("threading.py:265 __enter__": its innermost Python frame). */
static void thread_place(PyThreadState *ts, char *out, size_t len)
{
    PyFrameObject *f = PyThreadState_GetFrame(ts);
    PyCodeObject *co = f ? PyFrame_GetCode(f) : NULL;
    const char *file = co && PyUnicode_Check(co->co_filename) ? PyUnicode_AsUTF8(co->co_filename) : NULL;
    const char *name = co && PyUnicode_Check(co->co_name) ? PyUnicode_AsUTF8(co->co_name) : NULL;
    const char *base = file ? strrchr(file, '/') : NULL;
    if (file && name)
        snprintf(out, len, " in %s:%d %s", base ? base + 1 : file, PyFrame_GetLineNumber(f), name);
    Py_XDECREF(co);
    Py_XDECREF(f);
    PyErr_Clear();
}

static void thread_names(char *out, size_t len)
{
    PyObject *mod = PyImport_GetModuleDict(), *thr = PyDict_GetItemString(mod, "threading");
    PyObject *active = thr && PyModule_Check(thr) ? PyDict_GetItemString(PyModule_GetDict(thr), "_active") : NULL;
    size_t o = 0;
    out[0] = '\0';
    for (PyThreadState *ts = PyInterpreterState_ThreadHead(PyThreadState_Get()->interp); ts && o + 2 < len;
         ts = PyThreadState_Next(ts)) {
        if (PyThreadState_GetID(ts) <= base_thread_id)
            continue;
        PyObject *id = PyLong_FromUnsignedLong(ts->thread_id);
        PyObject *t = id && active && PyDict_Check(active) ? PyDict_GetItemWithError(active, id) : NULL;
        PyObject **dp = t ? _PyObject_GetDictPtr(t) : NULL;
        PyObject *name = dp && *dp ? PyDict_GetItemString(*dp, "_name") : NULL;
        const char *s = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        char at[96] = "";
        thread_place(ts, at, sizeof at);
        int w = s ? snprintf(out + o, len - o, "%s%s%s", o ? ", " : "", s, at)
                  : snprintf(out + o, len - o, "%sthread %lu%s", o ? ", " : "", ts->thread_id, at);
        o += w > 0 && (size_t)w < len - o ? (size_t)w : len - o - 1;
        Py_XDECREF(id);
        PyErr_Clear();
    }
}

/* Release the GIL for 'us' microseconds: the input's threads run (and end). */
static void let_threads_run(long us)
{
    Py_BEGIN_ALLOW_THREADS
    struct timespec d = {us / 1000000, (us % 1000000) * 1000L};
    nanosleep(&d, NULL);
    Py_END_ALLOW_THREADS
}

/* CPython 3.11 and 3.12 signal a pending asynchronous exception interpreter-wide, and only
 * the thread that raises it clears the signal: one sent to a thread that ended first leaves
 * it set, and every later bytecode boundary of every thread takes the slow path.  The thread
 * that runs inputs takes one of its own and raises it here, which clears the signal. */
static void flush_async(void)
{
#if PY_VERSION_HEX < 0x030d0000
    static PyObject *flush_exc, *flush_code;
    if (!flush_exc)
        flush_exc = PyErr_NewException("gatecrash.FlushAsync", PyExc_BaseException, NULL);
    if (!flush_code)
        flush_code = Py_CompileString("None", "<gatecrash flush>", Py_eval_input);
    PyObject *g = PyEval_GetBuiltins(); /* borrowed: the code reads no name */
    if (flush_exc && flush_code && g && PyThreadState_SetAsyncExc(PyThreadState_Get()->thread_id, flush_exc) > 0)
        Py_XDECREF(PyEval_EvalCode(flush_code, g, g));
    if (PyErr_Occurred() && !PyErr_ExceptionMatches(flush_exc))
        PyErr_WriteUnraisable(NULL);
#endif
    PyErr_Clear();
    async_sent = 0;
}

/* recursion limit, umask, trace functions, the callables read later, locale, fds 0-2 */
static int snapshot_process(void)
{
    rec_limit = Py_GetRecursionLimit();
    saved_umask = umask(022);
    umask(saved_umask);
    PyThreadState *ts = PyThreadState_Get();
    saved_trace = ts->c_tracefunc;
    saved_profile = ts->c_profilefunc;
    freeze_count_fn = attr_of("gc", "get_freeze_count");
    unfreeze_fn = attr_of("gc", "unfreeze");
    PyObject *freeze_fn = attr_of("gc", "freeze");
    freeze_noted = gc_callguard_note(freeze_fn, &freeze_called) == 0 &&
                   gc_callguard_note(unfreeze_fn, &freeze_called) == 0;
    Py_XDECREF(freeze_fn);
    PyErr_Clear();
    freeze_called = 1; /* the first check reads it */
    getsignal_fn = attr_of("_signal", "getsignal");
    setsignal_fn = attr_of("_signal", "signal");
    if (!freeze_count_fn || !unfreeze_fn || !getsignal_fn || !setsignal_fn)
        return -1;
    input_ts = ts;
    base_thread_id = highest_thread_id();
    gc_limits_raise_in_threads = input_threads; /* from here on an input's threads are told apart */
    /* 3.11, 3.12; only when threading is loaded (importing it would change what class walks
     * reach), and never looked up later (an input could have replaced it by then): when it
     * is not loaded now, its _shutdown_locks is not watched either */
    PyObject *name = PyUnicode_FromString("threading");
    PyObject *threading = name ? PyImport_GetModule(name) : NULL;
    Py_XDECREF(name);
    maintain_locks_fn = threading ? PyObject_GetAttrString(threading, "_maintain_shutdown_locks") : NULL;
    Py_XDECREF(threading);
    PyErr_Clear();
    base_frozen = call_long(freeze_count_fn);
    filters_mutated_fn = attr_of("_warnings", "_filters_mutated"); /* 3.11-3.13 */
    PyErr_Clear();
    gc_dir_entries(gc_orc.scratch, &scratch_kept);
    const char *loc = setlocale(LC_ALL, NULL);
    saved_locale = strdup(loc ? loc : "C");
    gc_state_hold_std();
    return 0;
}

void gc_state_hold_std(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (std_copy[fd] < 0 && fstat(fd, &std_st[fd]) == 0)
            std_copy[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 100);
}

int gc_state_snapshot(char *err, size_t errlen)
{
    seen_ids = PySet_New(NULL);
    PyObject *modules = PyImport_GetModuleDict();
    /* the process's state first: it imports gc, which sys.modules's record then holds */
    if (!seen_ids || snapshot_process() < 0 || snapshot_namespaces(modules) < 0 || snapshot_environ() < 0 ||
        snapshot_sys_lists() < 0 || snapshot_values(modules) < 0) {
        PyErr_Clear();
        snprintf(err, errlen, "could not snapshot the interpreter state");
        return -1;
    }
    check_every_input = getenv("GATECRASH_CHECK_EVERY_INPUT") != NULL; /* for comparison */
    _PyInterpreterState_SetEvalFrameFunc(PyThreadState_Get()->interp, count_frames);
    hook_set = 1;
    return 0;
}

#if GC_WATCHERS
/* sys.monitoring (PEP 669): which of its six tool ids are in use, by what name, with which
 * global events, as at the first input (gatecrash's own tool for gate line feedback,
 * feedback.c, is registered by then).  _lsprof.Profiler().enable() claims tool 2 before the
 * harness refuses its register_callback; use_tool_id, set_events and free_tool_id raise no
 * audit event at all. */
#define GC_TOOLS 6
enum { MON_GET_TOOL, MON_GET_EVENTS, MON_USE, MON_FREE, MON_SET_EVENTS, MON_REGISTER, MON_N };
static PyObject *mon_fn[MON_N];
static PyObject *tool_name[GC_TOOLS]; /* strong; None: not in use */
static long tool_events[GC_TOOLS];
static PyObject *id_args[GC_TOOLS]; /* (id,): the per-check calls build no tuple */

/* One sys.monitoring function called with Py_BuildValue's arguments (a tuple format). */
static PyObject *mon_call(int fn, const char *fmt, ...)
{
    va_list va;
    va_start(va, fmt);
    PyObject *args = mon_fn[fn] ? Py_VaBuildValue(fmt, va) : NULL;
    va_end(va);
    PyObject *r = args ? PyObject_CallObject(mon_fn[fn], args) : NULL;
    Py_XDECREF(args);
    PyErr_Clear();
    return r;
}

/* The tools change only through use_tool_id, free_tool_id, set_events and (3.13)
 * clear_tool_id: their calls are noted, and the six ids' names and events (twelve calls)
 * read only after one; where they could not be noted, after every input. */
static volatile int tools_called = 1;
static int tools_noted;

static void snapshot_tools(void)
{
    static const char *names[MON_N] = {"get_tool", "get_events", "use_tool_id", "free_tool_id", "set_events",
                                       "register_callback"};
    PyObject *mon = PySys_GetObject("monitoring"); /* borrowed */
    for (int f = 0; mon && f < MON_N; f++) /* (Py_XSETREF: taken again, gc_state_signals_anew) */
        Py_XSETREF(mon_fn[f], PyObject_GetAttrString(mon, names[f]));
    PyObject *clear = mon ? PyObject_GetAttrString(mon, "clear_tool_id") : NULL;
    PyErr_Clear();
    tools_noted = mon_fn[MON_USE] && mon_fn[MON_FREE] && mon_fn[MON_SET_EVENTS] &&
                  gc_callguard_note(mon_fn[MON_USE], &tools_called) == 0 &&
                  gc_callguard_note(mon_fn[MON_FREE], &tools_called) == 0 &&
                  gc_callguard_note(mon_fn[MON_SET_EVENTS], &tools_called) == 0 &&
                  (!clear || gc_callguard_note(clear, &tools_called) == 0);
    Py_XDECREF(clear);
    tools_called = 1;
    for (int id = 0; id < GC_TOOLS; id++) {
        Py_XSETREF(id_args[id], Py_BuildValue("(i)", id));
        Py_XSETREF(tool_name[id], mon_call(MON_GET_TOOL, "(i)", id));
        PyObject *ev = mon_call(MON_GET_EVENTS, "(i)", id);
        tool_events[id] = ev ? PyLong_AsLong(ev) : 0;
        Py_XDECREF(ev);
        PyErr_Clear();
    }
}

static int tool_differs(int id)
{
    if (!tool_name[id] || !id_args[id])
        return 0; /* could not be read at the first input */
    PyObject *name = mon_fn[MON_GET_TOOL] ? PyObject_Call(mon_fn[MON_GET_TOOL], id_args[id], NULL) : NULL;
    PyObject *ev = mon_fn[MON_GET_EVENTS] ? PyObject_Call(mon_fn[MON_GET_EVENTS], id_args[id], NULL) : NULL;
    int same = name && ev && PyObject_RichCompareBool(name, tool_name[id], Py_EQ) == 1 &&
               PyLong_AsLong(ev) == tool_events[id];
    Py_XDECREF(name);
    Py_XDECREF(ev);
    PyErr_Clear();
    return !same;
}

/* Tool 'id' back as it was: a tool a chain claimed loses its callbacks and events and is
 * freed; one that was in use gets its name and global events back (its callbacks stay:
 * chains cannot replace them, sys.monitoring.register_callback is refused). */
static int reset_tool(int id)
{
    int armed = gc_orc.armed; /* the harness's own calls are not the chain's */
    gc_orc.armed = 0;
    if (tool_name[id] == Py_None) {
        for (int e = 0; e < 20; e++)
            Py_XDECREF(mon_call(MON_REGISTER, "(iiO)", id, 1 << e, Py_None));
        Py_XDECREF(mon_call(MON_SET_EVENTS, "(ii)", id, 0));
        Py_XDECREF(mon_call(MON_FREE, "(i)", id));
    } else {
        PyObject *name = mon_call(MON_GET_TOOL, "(i)", id);
        if (!name || PyObject_RichCompareBool(name, tool_name[id], Py_EQ) != 1) {
            Py_XDECREF(mon_call(MON_FREE, "(i)", id));
            Py_XDECREF(mon_call(MON_USE, "(iO)", id, tool_name[id]));
        }
        Py_XDECREF(name);
        Py_XDECREF(mon_call(MON_SET_EVENTS, "(il)", id, tool_events[id]));
    }
    PyErr_Clear();
    gc_orc.armed = armed;
    return tool_differs(id) ? -1 : 0;
}
#endif

/* Forget what changed between inputs: the harness's own work (an install) is the new start. */
static void forget_changes(void)
{
#if !GC_WATCHERS
    for (size_t i = 0; i < ndicts; i++)
        hot[i].tag = tag_of(hot[i].dict);
    tags_at = global_dict_version();
#endif
    clear_marks();
}

void gc_state_signals_anew(void)
{
    sig_snapped = 0;
    Py_CLEAR(saved_py_handlers);
}

void gc_state_begin(void)
{
    if (!sig_snapped) {
        snapshot_signals();
        if (gc_facility_snapshot() < 0)
            PyErr_Clear(); /* (out of memory: the atexit list is then not put back) */
#if GC_WATCHERS
        snapshot_tools();
#endif
    }
    if (!hook_intact() || py_frames != frames_at_end)
        forget_changes();
    frames_at_begin = py_frames;
    other_thread_ran = 0;
}

int gc_state_code_ran(void) { return !hook_intact() || py_frames != frames_at_begin; }
unsigned long gc_state_frames(void) { return py_frames; }
void gc_state_frames_harmless(unsigned long n) { frames_at_begin += n; }

static void note_add(char *note, size_t len, const char *what)
{
    size_t n = strlen(note);
    if (n + 3 >= len || strstr(note, what))
        return;
    snprintf(note + n, len - n, "%s%s", n ? ", " : "", what);
}

/* Put back every key the snapshot has.  Keys the chain added are dropped only when
 * 'drop_added' (os.environ): sys.modules and module namespaces grow legitimately through
 * lazy imports and caches, but never by a key that is not a str, and such a key breaks
 * every later dir() of the module ('<' between str and bool: a gate's install that lists a
 * module's names, every .#K on it), so those are dropped always. */
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
    if (PyDict_GET_SIZE(w->dict) != PyDict_GET_SIZE(w->snap)) {
        PyObject *keys = PyDict_Keys(w->dict);
        for (Py_ssize_t i = 0; keys && i < PyList_GET_SIZE(keys); i++) {
            PyObject *key = PyList_GET_ITEM(keys, i);
            if ((drop_added || !PyUnicode_Check(key)) && !PyDict_Contains(w->snap, key)) {
                PyDict_DelItem(w->dict, key);
                changed = 1;
            }
        }
        Py_XDECREF(keys);
    }
    PyErr_Clear();
    return changed;
}

/* A kept worker's books in threading (its entry in _active, 3.11/3.12's lock in
 * _shutdown_locks) are the sandbox's state from now on: the snapshots of threading's watched
 * dicts, lists and sets are taken again, so they are not put back under the worker. */
static void rebase_threading(void)
{
    for (size_t i = 0; i < nlists + nsets; i++) {
        watched_seq *w = i < nlists ? &lists[i] : &sets[i - nlists];
        PyObject *snap = strncmp(w->name, "threading.", 10) != 0 ? NULL
                         : PyList_Check(w->obj)                  ? PyList_AsTuple(w->obj)
                                                                 : PyFrozenSet_New(w->obj);
        if (snap) {
            Py_SETREF(w->snap, snap);
            if (!PyList_Check(w->obj))
                keep_table(w);
        }
    }
    for (size_t i = 0; i < ndicts; i++) {
        PyObject *snap = strncmp(dicts[i].name, "threading.", 10) == 0 ? PyDict_Copy(dicts[i].dict) : NULL;
        if (snap)
            Py_SETREF(dicts[i].snap, snap);
    }
    PyErr_Clear();
}

/* The input's threads idle in a pool wait become kept workers (above), each said once. */
static void keep_idle_workers(void)
{
    int added = 0;
    for (PyThreadState *ts = PyInterpreterState_ThreadHead(PyThreadState_Get()->interp); ts && nkept < MAX_KEPT;
         ts = PyThreadState_Next(ts)) {
        if (PyThreadState_GetID(ts) <= base_thread_id || ts == input_ts || is_kept(ts) || !idle_in_pool(ts))
            continue;
        kept[nkept++] = PyThreadState_GetID(ts);
        char at[96] = "";
        thread_place(ts, at, sizeof at);
        fprintf(stderr,
                "gatecrash: a worker the sandbox keeps across inputs (thread %lu%s) is kept: idle, it is the "
                "sandbox's state; busy, it is judged and stopped as the input's\n",
                ts->thread_id, at);
        added = 1;
    }
    if (added)
        rebase_threading();
}

/* A thread of the input's waiting in threading's Condition.wait (a multiprocessing.Queue's
 * feeder, a queue.Queue's get, an Event's wait) waits in C on its own 'waiter' lock, where no
 * exception reaches it: the lock is released, as a notify does, so the SystemExit sent first
 * is raised as the wait returns.  A wait that was notified meanwhile raises nothing here. */
static void wake_condition_waits(void)
{
    for (PyThreadState *ts = PyInterpreterState_ThreadHead(PyThreadState_Get()->interp); ts;
         ts = PyThreadState_Next(ts)) {
        if (PyThreadState_GetID(ts) <= base_thread_id || ts == input_ts || (nkept && is_kept(ts) && idle_in_pool(ts)))
            continue;
        PyFrameObject *f = PyThreadState_GetFrame(ts);
        PyObject *locals = f && in_condition_wait(f) ? PyFrame_GetLocals(f) : NULL;
        /* a dict, or (3.13) a proxy of the frame's variables: read as a mapping */
        PyObject *waiter = locals ? PyMapping_GetItemString(locals, "waiter") : NULL;
        if (waiter)
            Py_XDECREF(PyObject_CallMethod(waiter, "release", NULL));
        Py_XDECREF(waiter);
        Py_XDECREF(locals);
        Py_XDECREF(f);
        PyErr_Clear();
    }
}

/* Threads an input started (a chain through gate code; in source mode the sandbox's workers
 * and the program's own) cannot be left running into later inputs.  Those about to end (a
 * worker pool shut down without waiting) get up to 100 ms, looked at after 20 us, then less
 * often; those still there and idle in a pool wait are kept (keep_idle_workers); then each
 * other gets SystemExit, again every
 * 100 ms, and the harness waits up to a second for them to end.  0: they ended on their own;
 * 1: stopped; -1: some are still alive (blocked in C). */
static int stop_threads(void)
{
    /* a worker about to end takes tens of microseconds: look again soon, then less often */
    for (long us = 20, waited = 0; waited < 100000 && input_threads(NULL) > 0; waited += us, us = us < 5000 ? us * 2 : us)
        let_threads_run(us);
    if (input_threads(NULL))
        keep_idle_workers(); /* still there after 100 ms, and waiting for work: the sandbox's pool */
    if (!input_threads(NULL))
        return 0;
    for (int round = 0; round < 200 && input_threads(round % 20 == 0 ? PyExc_SystemExit : NULL) > 0; round++) {
        if (round % 20 == 0)
            wake_condition_waits();
        let_threads_run(5000);
    }
    return input_threads(NULL) > 0 ? -1 : 1;
}

static int seq_same(watched_seq *w)
{
    if (PyList_Check(w->obj)) {
        /* the same item objects in the same order: both keep their items as one array of
         * pointers (a module's __all__ runs to hundreds of names; one memcmp, not a loop) */
        Py_ssize_t n = PyTuple_GET_SIZE(w->snap);
        return PyList_GET_SIZE(w->obj) == n &&
               (n == 0 || memcmp(((PyListObject *)w->obj)->ob_item, ((PyTupleObject *)w->snap)->ob_item,
                                 (size_t)n * sizeof(PyObject *)) == 0);
    }
    if (PySet_GET_SIZE(w->obj) != PySet_GET_SIZE(w->snap))
        return 0;
    /* quick: the same table, slot for slot (same key objects), as when last seen equal */
    PySetObject *so = (PySetObject *)w->obj;
    if (w->tbl && so->mask + 1 == w->tbl_n && memcmp(so->table, w->tbl, (size_t)w->tbl_n * sizeof *w->tbl) == 0)
        return 1;
    /* (the snapshot is the harness's own set: iterating it runs no chain code) */
    PyObject *it = PyObject_GetIter(w->snap), *k;
    int same = it != NULL;
    while (same && (k = PyIter_Next(it))) {
        same = PySet_Contains(w->obj, k) == 1;
        Py_DECREF(k);
    }
    Py_XDECREF(it);
    if (!same || PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    keep_table(w);
    return 1;
}

static int seq_restore(watched_seq *w)
{
    if (PyList_Check(w->obj))
        return PyList_SetSlice(w->obj, 0, PyList_GET_SIZE(w->obj), w->snap);
    if (PySet_Clear(w->obj) < 0)
        return -1;
    PyObject *it = PyObject_GetIter(w->snap), *x;
    while (it && (x = PyIter_Next(it))) {
        PySet_Add(w->obj, x);
        Py_DECREF(x);
    }
    Py_XDECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

/* ---- the checks: each one piece of state, read cheaply; repaired only when it differs ---- */

static int hook_replaced(void)
{
    return hook_set && _PyInterpreterState_GetEvalFrameFunc(PyThreadState_Get()->interp) != count_frames;
}
static int put_hook_back(void)
{
    _PyInterpreterState_SetEvalFrameFunc(PyThreadState_Get()->interp, count_frames);
    return 1;
}

/* The input's threads had to be stopped (gc_state_threads_stopped; counted in gc_limit_threads) */
static int threads_stopped_now;

/* Threads ran during the input: a pre-existing one, or some it started (perhaps ended) */
static int threads_started(void) { return other_thread_ran || input_threads(NULL) > 0; }
/* Stop the input's threads; then threading's own books of them: 3.11 and 3.12 keep each
 * non-daemon thread's lock in threading._shutdown_locks until the next thread starts, so a
 * worker that ended cleanly would read as a change to that set (and a repair).  What
 * threading does itself at the next start drops them now (every such thread has ended). */
static int end_threads(char *note, size_t len)
{
    int r = stop_threads();
    other_thread_ran = 0;
    threads_stopped_now = r > 0;
    gc_limit_threads += r > 0;
    if (r >= 0 && maintain_locks_fn) {
        Py_XDECREF(PyObject_CallNoArgs(maintain_locks_fn));
        PyErr_Clear();
    }
    if (r < 0) {
        char names[240];
        thread_names(names, sizeof names);
        snprintf(note, len, "a thread started during the input (%s) could not be stopped within 1 s (blocked in C, "
                 "or it swallows SystemExit)",
                 names);
    }
    return r;
}

static int tracing_changed(void)
{
    PyThreadState *ts = PyThreadState_Get();
    return ts->c_tracefunc != saved_trace || ts->c_profilefunc != saved_profile;
}
static int remove_tracing(void)
{
    if (!saved_trace)
        PyEval_SetTrace(NULL, NULL);
    if (!saved_profile)
        PyEval_SetProfile(NULL, NULL);
    PyErr_Clear();
    return tracing_changed() ? -1 : 1;
}

static int tools_changed(void)
{
#if GC_WATCHERS
    if (!tools_called && tools_noted && !check_every_input)
        return 0;
    tools_called = 0;
    for (int id = 0; id < GC_TOOLS; id++)
        if (tool_differs(id))
            return 1;
#endif
    return 0;
}
static int reset_tools(void)
{
#if GC_WATCHERS
    for (int id = 0; id < GC_TOOLS; id++)
        if (tool_differs(id) && reset_tool(id) < 0)
            return -1;
#endif
    return 1;
}

/* An instance dict replaced as a whole changes no dict: always looked at; put back at
 * once, and its record marked so the dicts' check compares it. */
static int dict_replaced(void)
{
    int any = 0;
    for (size_t k = 0; k < nowned; k++) {
        hot_dict *h = &hot[owned[k]];
        if (*h->slot != h->dict) {
            Py_XSETREF(*h->slot, Py_NewRef(h->dict));
            mark(owned[k]);
            any = 1;
        }
    }
    return any;
}
static int counted_by_dicts(void) { return 0; }

/* Does any snapshot key of w's dict map to another object now (or, exact, is there more)? */
static int content_differs(watched_dict *w)
{
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    if (w->exact && PyDict_GET_SIZE(w->dict) != PyDict_GET_SIZE(w->snap))
        return 1;
    while (PyDict_Next(w->snap, &pos, &k, &v))
        if (PyDict_GetItemWithError(w->dict, k) != v) {
            PyErr_Clear();
            return 1;
        }
    return 0;
}

/* Mark what this version's signal shows changed (3.12+: the watchers marked it already). */
static int dicts_changed(void)
{
#if GC_WATCHERS
    for (size_t i = 0; i < ndicts && check_every_input; i++)
        mark(i);
#else
    if (check_every_input || !tags_at || global_dict_version() != tags_at + 1)
        for (size_t i = 0; i < ndicts; i++)
            if (tag_of(hot[i].dict) != hot[i].tag)
                mark(i);
#endif
    for (size_t k = 0; k < nby_content; k++)
        if (!is_marked[by_content[k]] && content_differs(&dicts[by_content[k]]))
            mark(by_content[k]);
    return nmarked > 0;
}

/* Source mode (gc_state_fresh_modules): the sys.modules entries an input added are removed
 * after it, so that the next input imports afresh what it imports, as in a fresh process: a
 * sandbox that imports on first use, or that decides by what is imported already, would
 * otherwise show each input what the ones before it imported.  Kept: a module made from a
 * C extension's definition (PyModule_GetDef): most cannot be initialised twice in a
 * process (numpy's cannot), and what one holds is not Python state an input changes by
 * importing it.  Not a repair (nothing is reported): every input that imports does it. */
int gc_state_fresh_modules;
static unsigned long modules_dropped;
static void drop_new_modules(watched_dict *w)
{
    PyObject *keys = PyDict_GET_SIZE(w->dict) > PyDict_GET_SIZE(w->snap) ? PyDict_Keys(w->dict) : NULL;
    for (Py_ssize_t i = 0; keys && i < PyList_GET_SIZE(keys); i++) {
        PyObject *key = PyList_GET_ITEM(keys, i), *v;
        if (PyDict_Contains(w->snap, key) || !(v = PyDict_GetItemWithError(w->dict, key)) ||
            (PyModule_Check(v) && PyModule_GetDef(v)))
            continue;
        modules_dropped += PyDict_DelItem(w->dict, key) == 0;
    }
    Py_XDECREF(keys);
    PyErr_Clear();
}
unsigned long gc_state_modules_dropped(void) { return modules_dropped; }

/* sys.modules and module namespaces may grow through lazy imports and caches: what was
 * there must stay; os.environ, proxies and classes must be exactly as they were.  Each
 * dict put back is one repair, named in the note. */
static int restore_marked(char *note, size_t len)
{
    int repairs = 0, failed = 0;
    size_t n = nmarked; /* (repairs below may mark more: they are this check's own) */
    for (size_t j = 0; j < n && !failed; j++) {
        watched_dict *w = &dicts[marked[j]];
        int r = w->type ? restore_type(w) : restore_dict(w, w->exact);
        if (r >= 0 && marked[j] == modules_rec && gc_state_fresh_modules)
            drop_new_modules(w);
        failed = r < 0;
        repairs += r > 0;
        if (r > 0)
            note_add(note, len, w->name);
#if !GC_WATCHERS
        hot[marked[j]].tag = tag_of(w->dict); /* checked: the next input starts from here */
#endif
    }
    clear_marks();
    return failed ? -1 : repairs;
}

static int seqs_changed(void)
{
    for (size_t i = 0; i < nlists + nsets; i++)
        if (!seq_same(i < nlists ? &lists[i] : &sets[i - nlists]))
            return 1;
    return 0;
}
static int restore_seqs(char *note, size_t len)
{
    int repairs = 0;
    for (size_t i = 0; i < nlists + nsets; i++) {
        watched_seq *l = i < nlists ? &lists[i] : &sets[i - nlists];
        if (seq_same(l))
            continue;
        if (seq_restore(l) < 0)
            return -1;
        if (!PyList_Check(l->obj))
            keep_table(l);
        repairs++;
        note_add(note, len, l->name);
    }
    return repairs;
}

static int fd_replaced(int fd)
{
    struct stat st;
    return std_copy[fd] >= 0 &&
           !(fstat(fd, &st) == 0 && st.st_dev == std_st[fd].st_dev && st.st_ino == std_st[fd].st_ino);
}
static int fds_replaced(void) { return fd_replaced(0) || fd_replaced(1) || fd_replaced(2); }
static int restore_fds(void)
{
    int repairs = 0;
    for (int fd = 0; fd < 3; fd++)
        if (fd_replaced(fd)) {
            if (dup2(std_copy[fd], fd) < 0)
                return -1;
            repairs++;
        }
    return repairs;
}

static int cwd_moved(void)
{
    char cwd[PATH_MAX];
    return !getcwd(cwd, sizeof cwd) || strcmp(cwd, gc_orc.scratch) != 0;
}
static int restore_cwd(void) { return chdir(gc_orc.scratch) == 0 ? 1 : -1; }

/* What an input left in the scratch folder (names not there at the snapshot) is removed: the
 * next input starts with the folder a fresh process has (a numpy memmap one input wrote is
 * not there for the next to find).  Marked by the backstop's write-type calls when Landlock
 * confines (backstop.h), else looked at after every input that ran code. */
static int scratch_new(gc_strlist *left) /* how many names are new; into left when not NULL */
{
    gc_strlist now = {0};
    int n = 0;
    gc_dir_entries(gc_orc.scratch, &now);
    for (int i = 0; i < now.n; i++)
        if (!gc_sl_contains(&scratch_kept, now.v[i])) {
            n++;
            if (left)
                gc_sl_add(left, now.v[i]);
        }
    gc_sl_free(&now);
    return n;
}
static int scratch_used(void) { return scratch_new(NULL) > 0; }
static int empty_scratch(void)
{
    gc_strlist left = {0};
    char path[PATH_MAX];
    scratch_new(&left);
    for (int i = 0; i < left.n; i++) {
        snprintf(path, sizeof path, "%s/%s", gc_orc.scratch, left.v[i]);
        gc_rm_tree(path);
    }
    gc_sl_free(&left);
    return scratch_used() ? -1 : 1;
}

/* A warning is shown once per place in a process (the module's __warningregistry__, the
 * "once" registry): bumping the warnings filters' version, as every change of
 * warnings.filters does, makes each input see them as a fresh process does.  Not a repair
 * (nothing is reported): done after every input that ran code. */
static void fresh_warnings(void)
{
    PyObject *r = filters_mutated_fn ? PyObject_CallNoArgs(filters_mutated_fn) : NULL;
    Py_XDECREF(r);
    PyErr_Clear();
}

static int limit_changed(void) { return Py_GetRecursionLimit() != rec_limit; }
static int reset_limit(void)
{
    Py_SetRecursionLimit(rec_limit);
    return 1;
}

static int gc_off(void) { return !PyGC_IsEnabled(); }
static int gc_on(void)
{
    PyGC_Enable();
    return 1;
}

/* More frozen than at the snapshot: unfrozen, all (what was frozen then cannot be frozen
 * alone again: 3.12 starts with some).  Fewer (an unfreeze) is the new base. */
static int gc_frozen(void)
{
    if (!freeze_called && freeze_noted && !check_every_input)
        return 0;
    freeze_called = 0;
    long n = call_long(freeze_count_fn);
    if (n > base_frozen)
        return 1;
    base_frozen = n;
    return 0;
}
static int gc_unfreeze(void)
{
    Py_XDECREF(PyObject_CallNoArgs(unfreeze_fn));
    PyErr_Clear();
    base_frozen = call_long(freeze_count_fn);
    freeze_called = 0;
    return 1;
}

/* (the umask cannot be read without setting it: the check puts it back) */
static int umask_changed(void) { return umask(saved_umask) != saved_umask; }
static int umask_was_reset(void) { return 1; }

/* ---- the signal facilities' rows (facility_table.c) ---- */

int gc_state_mask_changed(void)
{
    if (!sig_snapped)
        return 0;
    sigset_t mask;
    sigemptyset(&mask);
    pthread_sigmask(SIG_SETMASK, NULL, &mask);
    for (int s = 1; s < NSIG; s++)
        if (sigismember(&mask, s) != sigismember(&saved_mask, s))
            return 1;
    return 0;
}
int gc_state_restore_mask(void)
{
    pthread_sigmask(SIG_SETMASK, &saved_mask, NULL);
    return 1;
}

/* the standard signals and the timer's (real-time signals nobody sends are not checked) */
static int action_changed(int s)
{
    struct sigaction cur;
    int ts_sig = gc_limits_signal();
    return !(s >= SIGRTMIN && s != ts_sig) && sigaction(s, NULL, &cur) == 0 && !same_action(&cur, &saved_sa[s]);
}
static int actions_changed(void)
{
    for (int s = 1; sig_snapped && s < NSIG && (s < SIGRTMIN || s <= gc_limits_signal()); s++)
        if (action_changed(s))
            return 1;
    return 0;
}
static int restore_actions(void)
{
    int repairs = 0;
    for (int s = 1; s < NSIG && (s < SIGRTMIN || s <= gc_limits_signal()); s++)
        if (action_changed(s)) {
            restore_signal(s);
            repairs++;
        }
    return repairs;
}

/* the time limit's own handler, which lives in Python's table */
static int timer_handler_changed(void)
{
    int ts_sig = gc_limits_signal();
    if (!sig_snapped || ts_sig <= 0 || !saved_py_handlers)
        return 0;
    PyObject *h = PyObject_CallFunction(getsignal_fn, "i", ts_sig);
    PyErr_Clear();
    int changed = h && h != PyList_GET_ITEM(saved_py_handlers, ts_sig);
    Py_XDECREF(h);
    return changed;
}

int gc_state_handlers_changed(void) { return actions_changed() || timer_handler_changed(); }

/* The handlers of signals that came during the input run first, the input's own (a sandbox's
 * SIGALRM timeout that fired as the input ended): Python would otherwise find them tripped
 * with no handler of theirs left.  (signal.signal sets the disposition too, every time:
 * CPython's PyOS_setsig; the time limit's handler lives in Python's table.) */
int gc_state_restore_handlers(void)
{
    if (PyErr_CheckSignals() < 0)
        PyErr_Clear();
    int repairs = timer_handler_changed() ? (restore_signal(gc_limits_signal()), 1) : 0;
    return repairs + restore_actions();
}

static int locale_changed(void)
{
    const char *loc = setlocale(LC_ALL, NULL);
    return saved_locale && (!loc || strcmp(loc, saved_locale) != 0);
}
static int restore_locale(void)
{
    setlocale(LC_ALL, saved_locale);
    return 1;
}

/* The table: in order (what runs on its own first: the hook, threads, trace functions).
 * 'needs': the backstop's dirty bits (backstop.h) without which the state cannot have
 * changed (0: always checked).  repair returns the repairs made (each counted; a row with
 * a name notes it, the others note what they put back) or -1 when it could not. */
typedef struct {
    const char *name;
    unsigned needs;
    int (*check)(void);
    int (*repair)(void);
    int (*repair_noting)(char *note, size_t len); /* instead of repair */
    const char *failed;
} state_check;

static const state_check checks[] = {
    {"frame evaluation hook", 0, hook_replaced, put_hook_back, NULL, NULL},
    {"threads stopped", 0, threads_started, NULL, end_threads, NULL},
    {"trace/profile function", 0, tracing_changed, remove_tracing, NULL, "a trace or profile function could not be removed"},
    {"sys.monitoring tool", 0, tools_changed, reset_tools, NULL, "a sys.monitoring tool could not be removed"},
    {NULL, 0, dict_replaced, counted_by_dicts, NULL, NULL},
    {NULL, 0, dicts_changed, NULL, restore_marked, "a module namespace could not be restored"},
    {NULL, 0, seqs_changed, NULL, restore_seqs, "a list or set could not be restored"},
    {"standard file descriptors", GC_DIRTY_FDS, fds_replaced, restore_fds, NULL,
     "a standard file descriptor could not be restored"},
    {"working folder", GC_DIRTY_CWD, cwd_moved, restore_cwd, NULL, "the working folder could not be restored"},
    {"scratch files removed", GC_DIRTY_FILES, scratch_used, empty_scratch, NULL,
     "what the input left in the scratch folder could not be removed"},
    {"recursion limit", 0, limit_changed, reset_limit, NULL, NULL},
    {"gc disabled", 0, gc_off, gc_on, NULL, NULL},
    {"gc frozen", 0, gc_frozen, gc_unfreeze, NULL, NULL},
    {"umask", GC_DIRTY_UMASK, umask_changed, umask_was_reset, NULL, NULL},
    {"locale", 0, locale_changed, restore_locale, NULL, NULL},
};

/* One row: its dirty bits read when first needed (after threads are stopped), checked,
 * repaired.  The repairs made, or -1 with the note set. */
typedef struct {
    unsigned dirty;
    int dirty_read;
} dirty_bits;

static int run_check(const state_check *c, dirty_bits *d, char *note, size_t len)
{
    if (c->needs && !d->dirty_read) {
        d->dirty = check_every_input ? GC_DIRTY_ALL : gc_backstop_take_dirty();
        d->dirty_read = 1;
    }
    if ((c->needs && !(d->dirty & c->needs)) || !c->check())
        return 0;
    int n = c->repair_noting ? c->repair_noting(note, len) : c->repair();
    if (n < 0) {
        if (c->failed) /* else the repair wrote its own */
            snprintf(note, len, "%s", c->failed);
        return -1;
    }
    if (n > 0 && c->name)
        note_add(note, len, c->name);
    return n;
}

int gc_state_end(char *note, size_t len)
{
    note[0] = '\0';
    threads_stopped_now = 0;
    if (!gc_state_code_ran()) { /* nothing ran that could change anything (see count_frames) */
        frames_at_end = py_frames;
        return 0;
    }
    total_checks++;
    fresh_warnings();
    int repairs = 0;
    dirty_bits d = {0, 0};
    for (size_t i = 0; i < sizeof checks / sizeof *checks; i++) {
        int n = run_check(&checks[i], &d, note, len);
        if (n < 0)
            return -1;
        repairs += n;
    }
    /* the facilities a sandbox's own code was given (facility.h), in their table's order */
    for (size_t i = 0; sig_snapped && i < gc_facility_table_len; i++) {
        const gc_facility *f = &gc_facility_table[i];
        if (!f->changed)
            continue;
        state_check c = {f->name, f->needs, f->changed, f->repair, NULL, f->failed};
        int n = run_check(&c, &d, note, len);
        if (n < 0)
            return -1;
        repairs += n;
    }
    if (d.dirty)
        gc_backstop_take_dirty(); /* what the repairs above did themselves */
    if (async_sent)
        flush_async();
#if !GC_WATCHERS
    tags_at = global_dict_version(); /* the tags are current as of here */
#endif
    total_repairs += (unsigned long)repairs;
    frames_at_end = py_frames;
    return repairs;
}

unsigned long gc_state_total_repairs(void) { return total_repairs; }
int gc_state_threads_stopped(void) { return threads_stopped_now; }
unsigned long gc_state_total_checks(void) { return total_checks; }
