/* callguard.c — see callguard.h.
 *
 * Why closures: a primitive's C entry point receives its module (or self) and its
 * arguments, never the function object, so one shared entry point could not tell which
 * primitive was called.  A libffi closure is a function pointer that carries its own data
 * (the definition's original entry point and its table row) and forwards the call with the
 * signature its METH_ flags give.  CPython reads ml_meth at every call, through the
 * function object's vectorcall and through the specialised CALL instructions alike, so the
 * closure is entered by every call.  Definitions are patched where they live (the module's
 * static method table, writable in every CPython module the table names), so a function
 * object made later from the same definition (a module imported again) is guarded too. */
#include "callguard.h"

#include <ffi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gc_callguard_judge_fn gc_callguard_judge;

enum { FD_NONE, FD_OPEN, FD_CLOSE }; /* os.open and os.close: an input's own descriptors */

typedef struct {
    PyCFunction orig; /* the definition's own entry point */
    const gc_prim *prim;
    int sig, meth_o, fd_role;
    ffi_closure *closure;
    void *code; /* the closure's entry point, now the definition's ml_meth */
} guarded;

#define GC_CALLGUARD_MAX_GUARDS 1024 /* oracle.c's prims at most */
static guarded *guards;
static int nguards;
static int placed;

/* The signatures ml_flags name (Include/methodobject.h); METH_CLASS, METH_STATIC and
 * METH_COEXIST do not change the C signature. */
enum { SIG_2, SIG_3KW, SIG_FAST, SIG_FASTKW, SIG_METHOD, SIG_COUNT };
static ffi_cif cifs[SIG_COUNT];
static ffi_type *sig_args[SIG_COUNT][5];

static int sig_of(int flags)
{
    switch (flags & (METH_VARARGS | METH_FASTCALL | METH_NOARGS | METH_O | METH_KEYWORDS | METH_METHOD)) {
    case METH_NOARGS:
    case METH_O:
    case METH_VARARGS:
        return SIG_2;
    case METH_VARARGS | METH_KEYWORDS:
        return SIG_3KW;
    case METH_FASTCALL:
        return SIG_FAST;
    case METH_FASTCALL | METH_KEYWORDS:
        return SIG_FASTKW;
    case METH_METHOD | METH_FASTCALL | METH_KEYWORDS:
        return SIG_METHOD;
    default:
        return -1;
    }
}

static int prep_cifs(void)
{
    static int prepared;
    if (prepared++)
        return 0;
    ffi_type *p = &ffi_type_pointer;
    ffi_type *n = sizeof(Py_ssize_t) == 8 ? &ffi_type_sint64 : &ffi_type_sint32;
    ffi_type *shapes[SIG_COUNT][5] = {{p, p}, {p, p, p}, {p, p, n}, {p, p, n, p}, {p, p, p, n, p}};
    static const unsigned counts[SIG_COUNT] = {2, 3, 3, 4, 5};
    for (int s = 0; s < SIG_COUNT; s++) {
        memcpy(sig_args[s], shapes[s], sizeof shapes[s]);
        if (ffi_prep_cif(&cifs[s], FFI_DEFAULT_ABI, counts[s], &ffi_type_pointer, sig_args[s]) != FFI_OK)
            return prepared = 0, -1;
    }
    return 0;
}

/* Every guarded call comes here: judged while a judge is set, then forwarded unchanged.  The
 * harness's own calls are never judged: those monitor.c makes with the table disarmed
 * (sys.monitoring.set_local_events from the line feedback's frame hook, inside an input),
 * and those made while it raises its own audit events (gc_oracle_own_event). */
/* The first positional argument of a call, when it is an int (fastcall and METH_O
 * signatures), else -1. */
static long first_int(const guarded *g, void **args)
{
    PyObject *a = NULL;
    if (g->sig == SIG_FAST || g->sig == SIG_FASTKW)
        a = *(Py_ssize_t *)args[2] > 0 ? (*(PyObject *const **)args[1])[0] : NULL;
    else if (g->meth_o)
        a = *(PyObject **)args[1];
    long v = a && PyLong_Check(a) ? PyLong_AsLong(a) : -1;
    PyErr_Clear();
    return v;
}

static void on_call(ffi_cif *cif, void *ret, void **args, void *data)
{
    const guarded *g = data;
    gc_callguard_judge_fn judge = gc_orc.armed && !gc_oracle_own_event ? gc_callguard_judge : NULL;
    if (judge && g->fd_role == FD_CLOSE && gc_oracle_fd_owned(first_int(g, args), 1))
        judge = NULL; /* the input closes a descriptor it opened */
    if (judge && judge(g->prim) < 0) {
        *(PyObject **)ret = NULL;
        return;
    }
    ffi_call(cif, FFI_FN(g->orig), ret, args);
    PyObject *r = *(PyObject **)ret;
    if (judge && g->fd_role == FD_OPEN && r && PyLong_Check(r))
        gc_oracle_fd_opened((int)PyLong_AsLong(r));
}

/* Is [p, p + len) in a writable mapping?  /proc/self/maps, read once per placement: no
 * library call answers it, and a write to a read-only page would kill the process. */
static int writable(const char *maps, const void *p, size_t len)
{
    uintptr_t a = (uintptr_t)p;
    for (const char *line = maps; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        unsigned long lo, hi;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && a >= lo && a + len <= hi)
            return perms[1] == 'w';
    }
    return 0;
}

static char *read_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (size_t n; buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0;) {
        len += n;
        if (len + 1 == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* The closure for one definition, or the one already made for an entry point it shares. */
static int guard_def(PyMethodDef *def, const gc_prim *prim, const char *maps, char *err, size_t errlen)
{
    for (int i = 0; i < nguards; i++) {
        if ((void *)(void (*)(void))def->ml_meth == guards[i].code)
            return 0; /* a second row of the same definition */
        if (guards[i].orig == def->ml_meth) {
            def->ml_meth = (PyCFunction)(void (*)(void))guards[i].code;
            return 0;
        }
    }
    int sig = sig_of(def->ml_flags);
    if (sig < 0 || !writable(maps, def, sizeof *def)) {
        snprintf(err, errlen, "the C-call guard cannot be placed on %s (%s)", prim->name,
                 sig < 0 ? "unknown METH_ flags" : "its definition is read-only");
        return -1;
    }
    if (nguards >= GC_CALLGUARD_MAX_GUARDS) {
        snprintf(err, errlen, "the C-call guard cannot be placed on %s: more than %d definitions", prim->name,
                 GC_CALLGUARD_MAX_GUARDS);
        return -1;
    }
    void *code = NULL;
    guarded *g = &guards[nguards];
    g->closure = ffi_closure_alloc(sizeof(ffi_closure), &code);
    if (!g->closure || ffi_prep_closure_loc(g->closure, &cifs[sig], on_call, g, code) != FFI_OK) {
        snprintf(err, errlen, "the C-call guard cannot be placed on %s: libffi made no closure", prim->name);
        return -1;
    }
    g->orig = def->ml_meth;
    g->prim = prim;
    g->code = code;
    g->sig = sig;
    g->meth_o = (def->ml_flags & METH_O) != 0;
    g->fd_role = strcmp(prim->name, "os.open") == 0 ? FD_OPEN : strcmp(prim->name, "os.close") == 0 ? FD_CLOSE : FD_NONE;
    def->ml_meth = (PyCFunction)(void (*)(void))code;
    nguards++;
    return 0;
}

/* Is o a function object made from a definition placed here (its hash moved with ml_meth)? */
static int moved_hash(PyObject *o)
{
    if (!PyCFunction_Check(o))
        return 0;
    void *meth = (void *)(void (*)(void))((PyCFunctionObject *)o)->m_ml->ml_meth;
    for (int i = 0; i < nguards; i++)
        if (guards[i].code == meth)
            return 1;
    return 0;
}

/* A C function's hash mixes in its entry point (meth_hash), so each set and dict that held a
 * guarded function as a key before the placement (os.supports_dir_fd: `os.open in
 * os.supports_dir_fd` is how shutil picks its fd-based walk) is filed under the old hash:
 * such containers, found by the collector's list (sets and such dicts are always tracked),
 * are filled again in place.  A frozenset cannot be; none holds a primitive at start-up. */
static int rehash_one(PyObject *o)
{
    int is_set = PySet_Check(o) && !PyFrozenSet_Check(o), is_dict = PyDict_Check(o);
    if (!is_set && !is_dict)
        return 0;
    PyObject *keys = PySequence_List(o);
    int found = 0;
    for (Py_ssize_t i = 0; keys && i < PyList_GET_SIZE(keys) && !found; i++)
        found = moved_hash(PyList_GET_ITEM(keys, i));
    int rc = 0;
    if (found && is_set) {
        rc = PySet_Clear(o);
        for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(keys); i++)
            rc = PySet_Add(o, PyList_GET_ITEM(keys, i));
    } else if (found) {
        PyObject *items = PyDict_Items(o);
        PyDict_Clear(o);
        for (Py_ssize_t i = 0; items && rc == 0 && i < PyList_GET_SIZE(items); i++) {
            PyObject *kv = PyList_GET_ITEM(items, i);
            rc = PyDict_SetItem(o, PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1));
        }
        rc = items ? rc : -1;
        Py_XDECREF(items);
    }
    Py_XDECREF(keys);
    return keys ? rc : -1;
}

static int rehash_containers(void)
{
    PyObject *gc = PyImport_ImportModule("gc");
    PyObject *all = gc ? PyObject_CallMethod(gc, "get_objects", NULL) : NULL;
    int rc = all && PyList_Check(all) ? 0 : -1;
    for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(all); i++)
        rc = rehash_one(PyList_GET_ITEM(all, i));
    Py_XDECREF(all);
    Py_XDECREF(gc);
    PyErr_Clear();
    return rc;
}

/* A closure on every bound primitive's definition that has none yet: 0, or -1 with err. */
static int guard_all(char *err, size_t errlen)
{
    char *maps = read_maps();
    int rc = maps && prep_cifs() == 0 ? 0 : -1;
    if (rc < 0)
        snprintf(err, errlen, "the C-call guard cannot be placed: %s",
                 !maps ? "/proc/self/maps is unreadable" : "libffi refused a signature");
    for (int i = 0; rc == 0 && i < gc_oracle_prim_count(); i++) {
        const gc_prim *p = gc_oracle_prim(i);
        if (p->def)
            rc = guard_def(p->def, p, maps, err, errlen);
    }
    free(maps);
    return rc;
}

/* Rows bound later (gc_oracle_bound_hook: a module the host imported): their definitions
 * (most are guarded already: a C module's definitions are the same in each of its module
 * objects) and the sets and dicts those modules hold, should a new closure have moved a
 * hash (the walk of every object is start-up's alone).  A definition that cannot be guarded
 * is left to its audit event and to the reach oracle. */
static void on_bound(PyObject *const *mods, int n)
{
    char err[256];
    int before = nguards;
    if (guard_all(err, sizeof err) < 0 || nguards == before)
        return;
    for (int i = 0; i < n; i++) {
        PyObject *k, *v, *d = PyModule_GetDict(mods[i]);
        Py_ssize_t pos = 0;
        while (d && PyDict_Next(d, &pos, &k, &v))
            if (rehash_one(v) < 0)
                PyErr_Clear();
    }
}

int gc_callguard_place(char *err, size_t errlen)
{
    if (placed)
        return 0;
    guards = calloc(GC_CALLGUARD_MAX_GUARDS, sizeof *guards);
    int rc = guards ? guard_all(err, errlen) : -1;
    if (!guards)
        snprintf(err, errlen, "the C-call guard cannot be placed: out of memory");
    if (rc == 0 && rehash_containers() < 0) {
        snprintf(err, errlen, "the C-call guard was placed, but the sets holding its functions could not be filled again");
        rc = -1;
    }
    placed = rc == 0;
    if (placed)
        gc_oracle_bound_hook = on_bound;
    return rc;
}

int gc_callguard_count(void) { return nguards; }

/* ---- noted calls: a flag set by every call of a function (gc_callguard_note) ---- */

typedef struct {
    PyCFunction orig;
    volatile int *flag;
    void *code;
} noted;
static noted notes[GC_CALLGUARD_MAX_NOTES];
static int nnotes;

static void on_noted(ffi_cif *cif, void *ret, void **args, void *data)
{
    const noted *n = data;
    *n->flag = 1;
    ffi_call(cif, FFI_FN(n->orig), ret, args);
}

int gc_callguard_note(PyObject *fn, volatile int *flag)
{
    PyMethodDef *def = fn && PyCFunction_Check(fn) ? ((PyCFunctionObject *)fn)->m_ml : NULL;
    for (int i = 0; def && i < nnotes; i++)
        if (notes[i].code == (void *)(void (*)(void))def->ml_meth)
            return notes[i].flag == flag ? 0 : -1; /* noted already (a second snapshot) */
    int sig = def ? sig_of(def->ml_flags) : -1;
    char *maps = sig >= 0 && nnotes < GC_CALLGUARD_MAX_NOTES && prep_cifs() == 0 ? read_maps() : NULL;
    int ok = maps && writable(maps, def, sizeof *def);
    free(maps);
    noted *n = &notes[nnotes];
    ffi_closure *closure = ok ? ffi_closure_alloc(sizeof(ffi_closure), &n->code) : NULL;
    if (!closure || ffi_prep_closure_loc(closure, &cifs[sig], on_noted, n, n->code) != FFI_OK)
        return -1; /* (a closure made and not used is kept: there are at most a few) */
    n->orig = def->ml_meth;
    n->flag = flag;
    def->ml_meth = (PyCFunction)(void (*)(void))n->code;
    nnotes++;
    return 0;
}
