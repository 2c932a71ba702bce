/* state.c — see state.h.  Change detection uses CPython 3.11's per-dict version tag
 * (ma_version_tag), which every mutation of a dict bumps: comparing one integer per watched
 * dict is what makes checking after every input affordable.
 *
 * Besides module namespaces, the values every module holds at snapshot time are watched one
 * level deep: the instance dict of an object (os.environ.__dict__, a logger), the contents
 * of a module-level list (warnings.filters), dict and set (os.supports_dir_fd), and the
 * namespace of a module object that is not in sys.modules (a gate's cached proxy).  Process
 * state outside Python objects is checked with a few calls: trace/profile functions, signal
 * dispositions and mask, threads, the gc freeze count, the locale. */
#define _GNU_SOURCE
#include "state.h"

#include <Python.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backstop.h"
#include "oracle.h"
#include "pycompat.h"
#include "timelimit.h"

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
    uint64_t tag;       /* version tag before the current chain */
} hot_dict;
static hot_dict *hot;
static size_t ndicts;
static size_t *owned, nowned; /* indices of instance dicts (their owner's slot is checked too) */
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
 * frame started needs no check at all, and the dicts' version tags taken at the end of the
 * last check stay valid until a frame starts (an install, for one). */
static unsigned long py_frames, frames_at_begin, frames_at_end = (unsigned long)-1;
static int hook_set, check_every_input;
gc_frame_eval_fn gc_state_frame_observer;
static PyObject *count_frames(PyThreadState *ts, struct _PyInterpreterFrame *f, int throwflag)
{
    py_frames++;
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
static PyObject *thread_count_fn, *freeze_count_fn, *unfreeze_fn;
static long base_threads, base_frozen;
static char *saved_locale;
static int sig_snapped; /* taken at the first input: the engine sets its handlers after start-up */
static struct sigaction saved_sa[NSIG];
static sigset_t saved_mask;
static PyObject *getsignal_fn, *setsignal_fn, *saved_py_handlers; /* list, index = signal */

static uint64_t tag_of(PyObject *d) { return gc_dict_tag(d); }

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

static int watch_dict_owned(PyObject *d, PyObject *owner, int exact, const char *name)
{
    PyObject **slot = owner ? _PyObject_GetDictPtr(owner) : NULL;
    PyErr_Clear();
    if (owner && (!slot || *slot != d))
        return 0;
    if (seen_before(d))
        return 0;
    watched_dict *nd = realloc(dicts, (ndicts + 1) * sizeof *dicts);
    if (!nd)
        return -1;
    dicts = nd;
    hot_dict *nh = realloc(hot, (ndicts + 1) * sizeof *hot);
    if (!nh)
        return -1;
    hot = nh;
    watched_dict *w = &dicts[ndicts];
    w->dict = d;
    Py_INCREF(d);
    w->owner = owner;
    w->slot = slot;
    Py_XINCREF(owner);
    w->exact = exact;
    w->type = NULL;
    w->snap = PyDict_Copy(d);
    if (!w->snap)
        return -1;
    hot[ndicts] = (hot_dict){d, slot, tag_of(d)};
    if (slot) {
        size_t *no = realloc(owned, (nowned + 1) * sizeof *owned);
        if (!no)
            return -1;
        owned = no;
        owned[nowned++] = ndicts;
    }
    snprintf(w->name, sizeof w->name, "%s", name);
    ndicts++;
    return 0;
}

static int watch_dict(PyObject *d, const char *name) { return watch_dict_owned(d, NULL, 0, name); }

/* A class's own dict.  CPython 3.11 audits no class attribute set (C.x = 1 raises no
 * event), and stdlib code run by a chain does it (copyreg caches __slotnames__ on the class
 * when __getstate__ runs): dir() of its instances then differs, and so does what `.#K`
 * names in later inputs.  Heap types only: static types cannot be changed. */
static int watch_type(PyObject *t, const char *name)
{
    PyTypeObject *tp = (PyTypeObject *)t;
    if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) || (tp->tp_flags & Py_TPFLAGS_IMMUTABLETYPE) || !tp->tp_dict)
        return 0;
    size_t before = ndicts;
    if (watch_dict_owned(tp->tp_dict, NULL, 1, name) < 0)
        return -1;
    if (ndicts > before) {
        dicts[before].type = t;
        Py_INCREF(t);
    }
    return 0;
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
static int same_action(const struct sigaction *a, const struct sigaction *b)
{
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

int gc_state_snapshot(char *err, size_t errlen)
{
    seen_ids = PySet_New(NULL);
    if (!seen_ids)
        goto fail;
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
    /* os.environ must be exactly as it was: its instance dict too (_data, encodekey) */
    {
        PyObject *osm = PyImport_ImportModule("os");
        PyObject *env = osm ? PyObject_GetAttrString(osm, "environ") : NULL;
        PyObject **dp = env ? _PyObject_GetDictPtr(env) : NULL;
        int rc = dp && *dp ? watch_dict_owned(*dp, env, 1, "os.environ.__dict__") : -1;
        Py_XDECREF(env);
        Py_XDECREF(osm);
        if (rc < 0) {
            Py_DECREF(data);
            goto fail;
        }
    }
    Py_DECREF(data);
    static const char *lnames[3] = {"path", "meta_path", "path_hooks"};
    for (int i = 0; i < 3; i++) {
        PyObject *l = PySys_GetObject(lnames[i]);
        char nm[32];
        snprintf(nm, sizeof nm, "sys.%s", lnames[i]);
        if (!l || !PyList_Check(l) || watch_seq(&lists, &nlists, l, nm) < 0)
            goto fail;
    }
    /* everything else the loaded modules hold, one level deep */
    pos = 0;
    while (PyDict_Next(modules, &pos, &k, &v)) {
        if (!PyModule_Check(v))
            continue;
        const char *n = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : "?";
        if (watch_module_values(modules, PyModule_GetDict(v), n ? n : "?") < 0)
            goto fail;
    }
    rec_limit = Py_GetRecursionLimit();
    saved_umask = umask(022);
    umask(saved_umask);
    PyThreadState *ts = PyThreadState_Get();
    saved_trace = ts->c_tracefunc;
    saved_profile = ts->c_profilefunc;
    thread_count_fn = attr_of("_thread", "_count");
    freeze_count_fn = attr_of("gc", "get_freeze_count");
    unfreeze_fn = attr_of("gc", "unfreeze");
    getsignal_fn = attr_of("_signal", "getsignal");
    setsignal_fn = attr_of("_signal", "signal");
    if (!thread_count_fn || !freeze_count_fn || !unfreeze_fn || !getsignal_fn || !setsignal_fn)
        goto fail;
    base_threads = call_long(thread_count_fn);
    base_frozen = call_long(freeze_count_fn);
    const char *loc = setlocale(LC_ALL, NULL);
    saved_locale = strdup(loc ? loc : "C");
    for (int fd = 0; fd < 3; fd++)
        if (fstat(fd, &std_st[fd]) == 0)
            std_copy[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 100);
    check_every_input = getenv("GATECRASH_CHECK_EVERY_INPUT") != NULL; /* for comparison */
    _PyInterpreterState_SetEvalFrameFunc(PyThreadState_Get()->interp, count_frames);
    hook_set = 1;
    return 0;
fail:
    PyErr_Clear();
    snprintf(err, errlen, "could not snapshot the interpreter state");
    return -1;
}

void gc_state_begin(void)
{
    if (!sig_snapped)
        snapshot_signals();
    if (!hook_intact() || py_frames != frames_at_end) {
        for (size_t i = 0; i < ndicts; i++)
            hot[i].tag = tag_of(hot[i].dict);
        tags_at = global_dict_version();
    }
    frames_at_begin = py_frames;
}

int gc_state_code_ran(void) { return !hook_intact() || py_frames != frames_at_begin; }

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

/* Threads a chain started (through gate code: the harness refuses direct starts) cannot
 * be left running into later inputs: each gets SystemExit, and the harness waits up to a
 * second for them to end.  -1 if some are still alive (blocked in C). */
static int stop_threads(void)
{
    PyThreadState *me = PyThreadState_Get();
    for (int round = 0; round < 200 && call_long(thread_count_fn) > base_threads; round++) {
        for (PyThreadState *ts = PyInterpreterState_ThreadHead(me->interp); ts; ts = PyThreadState_Next(ts))
            if (ts != me)
                PyThreadState_SetAsyncExc(ts->thread_id, PyExc_SystemExit);
        Py_BEGIN_ALLOW_THREADS
        struct timespec d = {0, 5000000};
        nanosleep(&d, NULL);
        Py_END_ALLOW_THREADS
    }
    return call_long(thread_count_fn) > base_threads ? -1 : 0;
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

#define FAIL_NOTE(what) do { snprintf(note, len, "%s", what); return -1; } while (0)

int gc_state_end(char *note, size_t len)
{
    int repairs = 0;
    note[0] = '\0';
    if (!gc_state_code_ran()) { /* nothing ran that could change anything (see count_frames) */
        frames_at_end = py_frames;
        return 0;
    }
    total_checks++;
    if (hook_set && _PyInterpreterState_GetEvalFrameFunc(PyThreadState_Get()->interp) != count_frames) {
        /* someone replaced the frame hook: put it back */
        _PyInterpreterState_SetEvalFrameFunc(PyThreadState_Get()->interp, count_frames);
        repairs++;
        note_add(note, len, "frame evaluation hook");
    }
    /* first what runs on its own: threads, trace and profile functions */
    if (call_long(thread_count_fn) > base_threads) {
        if (stop_threads() < 0)
            FAIL_NOTE("a thread started during the input could not be stopped");
        repairs++;
        note_add(note, len, "threads stopped");
    }
    PyThreadState *ts = PyThreadState_Get();
    if (ts->c_tracefunc != saved_trace || ts->c_profilefunc != saved_profile) {
        if (!saved_trace)
            PyEval_SetTrace(NULL, NULL);
        if (!saved_profile)
            PyEval_SetProfile(NULL, NULL);
        PyErr_Clear();
        if (ts->c_tracefunc != saved_trace || ts->c_profilefunc != saved_profile)
            FAIL_NOTE("a trace or profile function could not be removed");
        repairs++;
        note_add(note, len, "trace/profile function");
    }
    /* an instance dict replaced as a whole changes no dict: always looked at */
    for (size_t k = 0; k < nowned; k++) {
        hot_dict *h = &hot[owned[k]];
        if (*h->slot != h->dict) {
            Py_INCREF(h->dict);
            Py_XSETREF(*h->slot, h->dict);
            h->tag = 0; /* force the content check */
            tags_at = 0;
        }
    }
    uint64_t now_at = global_dict_version();
    int dicts_moved = check_every_input || !tags_at || now_at != tags_at + 1;
    for (size_t i = 0; i < ndicts && dicts_moved; i++) {
        hot_dict *h = &hot[i];
        if (tag_of(h->dict) == h->tag)
            continue;
        watched_dict *w = &dicts[i];
        /* sys.modules and module namespaces may grow through lazy imports and caches:
         * what was there must stay; os.environ must be exactly as it was. */
        int r = w->type ? restore_type(w) : restore_dict(w, w->exact || strcmp(w->name, "os.environ") == 0);
        if (r < 0)
            FAIL_NOTE("a module namespace could not be restored");
        if (r > 0) {
            repairs++;
            note_add(note, len, w->name);
        }
        h->tag = tag_of(h->dict); /* checked: the next input starts from here */
    }
    for (size_t i = 0; i < nlists + nsets; i++) {
        watched_seq *l = i < nlists ? &lists[i] : &sets[i - nlists];
        if (seq_same(l))
            continue;
        if (seq_restore(l) < 0)
            FAIL_NOTE("a list or set could not be restored");
        if (!PyList_Check(l->obj))
            keep_table(l);
        repairs++;
        note_add(note, len, l->name);
    }
    /* the process state only system calls change: the backstop's filter tells which were
     * made (backstop.h); all of it when it cannot tell */
    unsigned dirty = check_every_input ? GC_DIRTY_ALL : gc_backstop_take_dirty();
    for (int fd = 0; fd < 3 && (dirty & GC_DIRTY_FDS); fd++) {
        struct stat st;
        if (std_copy[fd] < 0 || (fstat(fd, &st) == 0 && st.st_dev == std_st[fd].st_dev && st.st_ino == std_st[fd].st_ino))
            continue;
        if (dup2(std_copy[fd], fd) < 0)
            FAIL_NOTE("a standard file descriptor could not be restored");
        repairs++;
        note_add(note, len, "standard file descriptors");
    }
    char cwd[PATH_MAX];
    if ((dirty & GC_DIRTY_CWD) && (!getcwd(cwd, sizeof cwd) || strcmp(cwd, gc_orc.scratch) != 0)) {
        if (chdir(gc_orc.scratch) != 0)
            FAIL_NOTE("the working folder could not be restored");
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
    if (call_long(freeze_count_fn) != base_frozen) {
        PyObject *r = PyObject_CallNoArgs(unfreeze_fn);
        Py_XDECREF(r);
        PyErr_Clear();
        repairs++;
        note_add(note, len, "gc frozen");
    }
    mode_t m = dirty & GC_DIRTY_UMASK ? umask(saved_umask) : saved_umask;
    if (m != saved_umask) {
        repairs++;
        note_add(note, len, "umask");
    }
    if (sig_snapped) {
        sigset_t mask;
        sigemptyset(&mask);
        pthread_sigmask(SIG_SETMASK, NULL, &mask);
        int mask_changed = 0;
        for (int s = 1; s < NSIG; s++)
            if (sigismember(&mask, s) != sigismember(&saved_mask, s)) {
                mask_changed = 1;
            }
        if (mask_changed) {
            pthread_sigmask(SIG_SETMASK, &saved_mask, NULL);
            repairs++;
            note_add(note, len, "signal mask");
        }
        int ts_sig = gc_limits_signal();
        /* the standard signals and the timer's (real-time signals nobody sends are not checked) */
        for (int s = 1; s < NSIG && (s < SIGRTMIN || s <= ts_sig) && (dirty & GC_DIRTY_SIGNALS); s++) {
            struct sigaction cur;
            if ((s >= SIGRTMIN && s != ts_sig) || sigaction(s, NULL, &cur) != 0 || same_action(&cur, &saved_sa[s]))
                continue;
            restore_signal(s);
            repairs++;
            note_add(note, len, "signal handlers");
        }
        /* the time limit's own handler, which lives in Python's table */
        PyObject *h = ts_sig > 0 ? PyObject_CallFunction(getsignal_fn, "i", ts_sig) : NULL;
        PyErr_Clear();
        if (h && saved_py_handlers && h != PyList_GET_ITEM(saved_py_handlers, ts_sig)) {
            restore_signal(ts_sig);
            repairs++;
            note_add(note, len, "signal handlers");
        }
        Py_XDECREF(h);
    }
    const char *loc = setlocale(LC_ALL, NULL);
    if (saved_locale && (!loc || strcmp(loc, saved_locale) != 0)) {
        setlocale(LC_ALL, saved_locale);
        repairs++;
        note_add(note, len, "locale");
    }
    if (dirty)
        gc_backstop_take_dirty(); /* what the repairs above did themselves */
    tags_at = global_dict_version(); /* the tags are current as of here */
    total_repairs += (unsigned long)repairs;
    frames_at_end = py_frames;
    return repairs;
}

unsigned long gc_state_total_repairs(void) { return total_repairs; }
unsigned long gc_state_total_checks(void) { return total_checks; }
