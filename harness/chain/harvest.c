/* harvest.c — see harvest.h. */
#include "harvest.h"

#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#include "oracle.h"

#define WORD_MAX 127      /* longer strings are not arguments worth proposing */
#define WALK_DEPTH 5
#define WALK_BUDGET 20000 /* objects visited in the gate module's data */
#define WALK_ITEMS 512    /* elements per container */

typedef struct {
    gc_strlist *gate, *other;
    PyObject *mdict;   /* the gate module's namespace */
    PyObject *modname; /* its __name__ */
    PyObject *seen;    /* ids visited */
    long budget;
} walk;

static void add_utf8(walk *w, gc_strlist *l, const char *u)
{
    size_t n = strlen(u);
    if (n == 0 || n > WORD_MAX || gc_sl_contains(w->gate, u) || gc_sl_contains(w->other, u))
        return;
    gc_sl_add(l, u);
}

static void add_str(walk *w, gc_strlist *l, PyObject *s)
{
    const char *u = PyUnicode_AsUTF8(s);
    if (u)
        add_utf8(w, l, u);
    else
        PyErr_Clear();
}

/* Visited already (or out of budget): 1. */
static int visited(walk *w, PyObject *o)
{
    if (w->budget-- <= 0)
        return 1;
    PyObject *id = PyLong_FromVoidPtr(o);
    int in = id ? PySet_Contains(w->seen, id) : 1;
    if (in == 0 && PySet_Add(w->seen, id) < 0)
        in = 1;
    Py_XDECREF(id);
    PyErr_Clear();
    return in != 0;
}

static void walk_obj(walk *w, PyObject *o, int depth);

static void walk_attr(walk *w, PyObject *o, const char *name, int depth)
{
    PyObject *v = PyObject_GetAttrString(o, name);
    if (v)
        walk_obj(w, v, depth);
    Py_XDECREF(v);
    PyErr_Clear();
}

/* A class defined in the gate module: 1. */
static int own_class(walk *w, PyObject *o)
{
    if (!PyType_Check(o) || !(((PyTypeObject *)o)->tp_flags & Py_TPFLAGS_HEAPTYPE))
        return 0;
    PyObject *m = PyDict_GetItemString(((PyTypeObject *)o)->tp_dict, "__module__");
    return m && PyUnicode_Check(m) && PyUnicode_Compare(m, w->modname) == 0;
}

static void walk_dict(walk *w, PyObject *d, int depth, int skip_dunder)
{
    Py_ssize_t pos = 0, i = 0;
    PyObject *k, *v;
    while (PyDict_Next(d, &pos, &k, &v) && i++ < WALK_ITEMS) {
        if (skip_dunder && PyUnicode_Check(k) && PyUnicode_GetLength(k) > 4 && PyUnicode_READ_CHAR(k, 0) == '_' &&
            PyUnicode_READ_CHAR(k, 1) == '_')
            continue;
        walk_obj(w, k, depth + 1);
        walk_obj(w, v, depth + 1);
    }
}

/* Strings in the gate module's data: str keys and values, container elements, what the
 * functions and classes it defines hold in their code (co_consts, co_names). */
static void walk_obj(walk *w, PyObject *o, int depth)
{
    if (depth > WALK_DEPTH)
        return;
    if (PyUnicode_Check(o)) {
        add_str(w, w->gate, o);
        return;
    }
    if (visited(w, o))
        return;
    if (PyDict_Check(o)) {
        walk_dict(w, o, depth, 0);
    } else if (PyList_Check(o) || PyTuple_Check(o) || PyAnySet_Check(o) || PyFrozenSet_Check(o)) {
        PyObject *it = PyObject_GetIter(o), *e;
        for (int i = 0; it && i < WALK_ITEMS && (e = PyIter_Next(it)); i++) {
            walk_obj(w, e, depth + 1);
            Py_DECREF(e);
        }
        Py_XDECREF(it);
    } else if (PyFunction_Check(o) && PyFunction_GET_GLOBALS(o) == w->mdict) {
        walk_obj(w, PyFunction_GET_CODE(o), depth + 1);
        PyObject *df = PyFunction_GET_DEFAULTS(o);
        if (df)
            walk_obj(w, df, depth + 1);
    } else if (PyCode_Check(o)) {
        walk_attr(w, o, "co_consts", depth + 1);
        walk_attr(w, o, "co_names", depth + 1);
    } else if (own_class(w, o)) {
        walk_dict(w, ((PyTypeObject *)o)->tp_dict, depth, 0);
    } else if (Py_IS_TYPE(o, &PyStaticMethod_Type) || Py_IS_TYPE(o, &PyClassMethod_Type)) {
        walk_attr(w, o, "__func__", depth + 1);
    } else if (Py_IS_TYPE(o, &PyProperty_Type)) {
        walk_attr(w, o, "fget", depth + 1);
    }
    PyErr_Clear();
}

/* Paths inside scratch (the interpreter's working folder): the folder, what is in it, a
 * new name there. */
static void scratch_paths(walk *w)
{
    char cwd[3800], p[4096];
    if (!getcwd(cwd, sizeof cwd))
        return;
    add_utf8(w, w->other, cwd);
    snprintf(p, sizeof p, "%s/gatecrash-probe", cwd);
    add_utf8(w, w->other, p);
    DIR *d = opendir(cwd);
    struct dirent *e;
    for (int i = 0; d && i < 16 && (e = readdir(d)); i++)
        if (e->d_name[0] != '.') {
            snprintf(p, sizeof p, "%s/%s", cwd, e->d_name);
            add_utf8(w, w->other, p);
        }
    if (d)
        closedir(d);
}

int gc_harvest_words(gc_target *t, gc_strlist *gate, gc_strlist *other)
{
    walk w = {gate, other, NULL, NULL, PySet_New(NULL), WALK_BUDGET};
    if (!w.seen || !t->module || !PyModule_Check(t->module)) {
        PyErr_Clear();
        Py_XDECREF(w.seen);
        return 0;
    }
    w.mdict = PyModule_GetDict(t->module);
    w.modname = PyDict_GetItemString(w.mdict, "__name__");
    if (w.modname && PyUnicode_Check(w.modname))
        walk_dict(&w, w.mdict, 0, 1);
    PyObject *mods = PyImport_GetModuleDict(), *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(mods, &pos, &k, &v))
        if (PyUnicode_Check(k))
            add_str(&w, other, k);
    const char *names[256];
    int n = gc_oracle_target_names(names, 256);
    for (int i = 0; i < n; i++)
        add_utf8(&w, other, names[i]);
    scratch_paths(&w);
    Py_DECREF(w.seen);
    PyErr_Clear();
    return gate->n + other->n;
}

void gc_harvest_into_mutator(gc_target *t)
{
    gc_strlist gate = {0}, other = {0};
    gc_harvest_words(t, &gate, &other);
    gc_mutator_add_words((const char *const *)gate.v, gate.n, 1);
    gc_mutator_add_words((const char *const *)other.v, other.n, 0);
    gc_sl_free(&gate);
    gc_sl_free(&other);
}

/* Positional arguments of a code object's function: 'bound' of them are taken (self). */
static void code_arity(PyObject *code, PyObject *defaults, int bound, gc_probe_detail *d)
{
    if (!PyCode_Check(code))
        return;
    const PyCodeObject *co = (const PyCodeObject *)code;
    int n = co->co_argcount - bound;
    int nd = defaults && PyTuple_Check(defaults) ? (int)PyTuple_GET_SIZE(defaults) : 0;
    d->min_args = n - nd < 0 ? 0 : n - nd;
    d->max_args = (co->co_flags & CO_VARARGS) ? -1 : n < d->min_args ? d->min_args : n;
}

/* "($module, command, /)": positional parameters, those with a default, *args. */
static int text_arity(PyObject *v, gc_probe_detail *d)
{
    PyObject *ts = PyObject_GetAttrString(v, "__text_signature__");
    const char *s = ts && PyUnicode_Check(ts) ? PyUnicode_AsUTF8(ts) : NULL;
    int ok = s && *s == '(';
    int req = 0, opt = 0, star = 0;
    for (const char *p = ok ? s + 1 : ""; *p && *p != ')';) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, ",)");
        if (*p == '*' && p[1] != '*' && n > 1)
            star = 1;
        if (*p == '*') /* keyword-only parameters follow */
            break;
        if (*p != '$' && *p != '/' && n > 0)
            memchr(p, '=', n) ? opt++ : req++;
        p += n + (p[n] == ',');
    }
    Py_XDECREF(ts);
    PyErr_Clear();
    if (ok) {
        d->min_args = req;
        d->max_args = star ? -1 : req + opt;
    }
    return ok;
}

static void arity(PyObject *v, gc_probe_detail *d)
{
    d->min_args = 0;
    d->max_args = 2; /* not known: none to two */
    if (PyMethod_Check(v) && PyFunction_Check(PyMethod_GET_FUNCTION(v))) {
        PyObject *f = PyMethod_GET_FUNCTION(v);
        code_arity(PyFunction_GET_CODE(f), PyFunction_GET_DEFAULTS(f), 1, d);
    } else if (PyFunction_Check(v)) {
        code_arity(PyFunction_GET_CODE(v), PyFunction_GET_DEFAULTS(v), 0, d);
    } else if (PyCFunction_Check(v)) {
        int fl = PyCFunction_GET_FLAGS(v);
        if (fl & METH_NOARGS)
            d->max_args = 0;
        else if (fl & METH_O)
            d->min_args = d->max_args = 1;
        else
            text_arity(v, d);
    } else {
        /* a class: its __init__; another object: its class's __call__ */
        PyObject *owner = PyType_Check(v) ? v : (PyObject *)Py_TYPE(v);
        PyObject *m = PyObject_GetAttrString(owner, PyType_Check(v) ? "__init__" : "__call__");
        if (m && PyFunction_Check(m))
            code_arity(PyFunction_GET_CODE(m), PyFunction_GET_DEFAULTS(m), 1, d);
        else if (!(PyType_Check(v) && text_arity(v, d)) && m)
            text_arity(m, d);
        Py_XDECREF(m);
        PyErr_Clear();
    }
}

static int is_target_name(PyObject *k)
{
    static const char *names[256];
    static int n = -1;
    if (n < 0)
        n = gc_oracle_target_names(names, 256);
    const char *u = PyUnicode_AsUTF8(k);
    for (int i = 0; u && i < n; i++)
        if (strcmp(names[i], u) == 0)
            return 1;
    PyErr_Clear();
    return 0;
}

/* The str keys of 'dict', the forbidden primitives' names first. */
static void dict_names(PyObject *dict, gc_probe_detail *d)
{
    for (int pass = 0; pass < 2; pass++) {
        Py_ssize_t pos = 0, i = 0;
        PyObject *k, *v;
        while (d->nnames < GC_PROBE_NAMES && PyDict_Next(dict, &pos, &k, &v) && i++ < WALK_ITEMS) {
            Py_ssize_t len;
            const char *u = PyUnicode_Check(k) ? PyUnicode_AsUTF8AndSize(k, &len) : NULL;
            if (!u || len == 0 || len >= (Py_ssize_t)sizeof d->names[0] || is_target_name(k) != (pass == 0))
                continue;
            memcpy(d->names[d->nnames++], u, (size_t)len + 1);
        }
    }
    PyErr_Clear();
}

gc_value_kind gc_harvest_kind(PyObject *v)
{
    return !v ? GC_VK_NONE
         : PyModule_Check(v) ? GC_VK_MODULE
         : PyType_Check(v) ? GC_VK_TYPE
         : PyExceptionInstance_Check(v) ? GC_VK_EXCEPTION
         : PyTraceBack_Check(v) ? GC_VK_TRACEBACK
         : PyFrame_Check(v) ? GC_VK_FRAME
         : PyCell_Check(v) ? GC_VK_CELL
         : PyFunction_Check(v) || PyCFunction_Check(v) || PyMethod_Check(v) ? GC_VK_FUNCTION
         : PyDict_Check(v) ? GC_VK_MAPPING
         : PyList_Check(v) || PyTuple_Check(v) || PyAnySet_Check(v) ? GC_VK_SEQUENCE
         : GC_VK_OTHER;
}

/* v is a number's power, shift or product (2281701376 .__rlshift__, 5 .__pow__): the one
 * kind of call whose result grows with its argument's value (1 << 2281701376 is a 285 MB
 * integer), so a harvested int or '_' argument makes C code run to the time limit and past it,
 * where the limit's signal cannot stop it, and a number comes out, which leads nowhere.  Not
 * proposed with arguments (docs/PERFORMANCE.md, "Hybrid: the inputs that wait on the same
 * block"); a number's other methods are (__getattribute__, __reduce_ex__ lead on). */
static int number_growth(PyObject *v)
{
    static const char *const ops[] = {"__pow__", "__rpow__", "__lshift__", "__rlshift__", "__mul__", "__rmul__"};
    if (strcmp(Py_TYPE(v)->tp_name, "method-wrapper") != 0) /* a slot's, bound: __self__ and __name__ are C getters */
        return 0;
    PyObject *self = PyObject_GetAttrString(v, "__self__"), *name = PyObject_GetAttrString(v, "__name__");
    const char *n = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    int hit = 0;
    for (size_t i = 0; n && self && (PyLong_Check(self) || PyFloat_Check(self) || PyComplex_Check(self)) &&
                       i < sizeof ops / sizeof ops[0]; i++)
        hit |= strcmp(n, ops[i]) == 0;
    Py_XDECREF(self);
    Py_XDECREF(name);
    PyErr_Clear();
    return hit;
}

void gc_harvest_detail(PyObject *v, gc_probe_detail *d)
{
    memset(d, 0, offsetof(gc_probe_detail, names)); /* names[] is read up to nnames (2 KB) */
    d->kind = gc_harvest_kind(v);
    if (!v)
        return;
    PyErr_Clear();
    d->callable = PyCallable_Check(v) && !number_growth(v);
    if (d->callable)
        arity(v, d);
    PyObject *dict = NULL;
    if (PyDict_Check(v) || PyModule_Check(v))
        dict = PyDict_Check(v) ? v : PyModule_GetDict(v), Py_XINCREF(dict);
    else if (PyType_Check(v) && (((PyTypeObject *)v)->tp_flags & Py_TPFLAGS_HEAPTYPE))
        dict = ((PyTypeObject *)v)->tp_dict, Py_XINCREF(dict);
    else if (Py_TYPE(v)->tp_dictoffset != 0)
        dict = PyObject_GenericGetDict(v, NULL); /* past a __getattribute__ that refuses */
    if (dict && PyDict_Check(dict))
        dict_names(dict, d);
    Py_XDECREF(dict);
    PyErr_Clear();
}
