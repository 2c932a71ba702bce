/* walk_feedback.c — see walk_feedback.h.
 *
 * Why wrappers in the definitions: str.format resolves its fields inside C
 * (Objects/stringlib/unicode_format.h calls PyObject_GetAttr and PyObject_GetItem), where no
 * event, trace or audit hook sees the objects a field passes through; the only place that
 * sees the call at all, whoever makes it, is the method's entry point.  CPython reads
 * ml_meth at every call (a method descriptor's and a builtin's vectorcall, the specialised
 * CALL instructions), so replacing it is seen by every call; the signatures are fixed by
 * the definitions' METH_ flags, checked before anything is replaced. */
#include "walk_feedback.h"

#include <Python.h>
#include <string.h>

#include "oracle.h"
#include "pycompat.h"
#include "source_feedback.h"

#define MAX_FIELDS 8 /* fields of one format string observed */
#define MAX_PARTS 8  /* parts of one walk observed */
#define PATH_LEN 62  /* a path key's bytes (the dictionary's words hold 63) */

static PyCFunction orig_format, orig_format_map, orig_getattr;
static PyObject *parser, *splitter; /* _string.formatter_parser, formatter_field_name_split */
static PyObject *ast_node;          /* _ast.AST: the sandbox's own view of the program */
static int busy;                     /* the observer is running: a call it makes is not observed */

/* The parts of a walk below its base, as a format field writes them: `a.b[k]`. */
typedef struct {
    char s[PATH_LEN + 2];
    size_t n;
    int ok;
} path_t;

static void path_add(path_t *p, int is_attr, PyObject *key)
{
    char part[PATH_LEN + 2];
    int n = -1;
    const char *s = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    if (PyLong_Check(key))
        n = snprintf(part, sizeof part, "[%ld]", PyLong_AsLong(key));
    else if (s)
        n = snprintf(part, sizeof part, is_attr ? (p->n ? ".%s" : "%s") : "[%s]", s);
    PyErr_Clear();
    if (n <= 0 || p->n + (size_t)n > PATH_LEN) {
        p->ok = 0;
        return;
    }
    memcpy(p->s + p->n, part, (size_t)n + 1);
    p->n += (size_t)n;
}

/* ---- lookups that run no Python code ---- */

/* A descriptor of CPython's own kinds, whose __get__ is C that runs no Python code. */
static int plain_descr(PyObject *d)
{
    PyTypeObject *t = Py_TYPE(d);
    return t == &PyMemberDescr_Type || t == &PyGetSetDescr_Type || t == &PyMethodDescr_Type ||
           t == &PyClassMethodDescr_Type || t == &PyWrapperDescr_Type || t == &PyFunction_Type ||
           t == &PyStaticMethod_Type;
}

/* d as a lookup on o (NULL: on the class tp) binds it: new, or NULL when binding it could run
 * Python code or failed. */
static PyObject *bind(PyObject *d, PyObject *o, PyTypeObject *tp)
{
    descrgetfunc get = Py_TYPE(d)->tp_descr_get;
    if (!get)
        return Py_NewRef(d);
    PyObject *r = plain_descr(d) ? get(d, o, (PyObject *)tp) : NULL;
    PyErr_Clear();
    return r;
}

static int data_descr(PyObject *d)
{
    return Py_TYPE(d)->tp_descr_set != NULL;
}

/* o's own dict's value for name (borrowed), or NULL. */
static PyObject *own_value(PyObject *o, PyObject *name)
{
    PyObject *dict = PyModule_Check(o) ? PyModule_GetDict(o) : NULL;
    if (!dict) {
        PyObject **dp = _PyObject_GetDictPtr(o);
        dict = dp ? *dp : NULL;
    }
    PyObject *v = dict && PyDict_Check(dict) ? PyDict_GetItemWithError(dict, name) : NULL;
    PyErr_Clear();
    return v;
}

/* A class's attribute as type's lookup finds it: the metaclass's data descriptors, the MRO,
 * then the metaclass's others. */
static PyObject *class_attr(PyTypeObject *c, PyObject *name)
{
    PyTypeObject *meta = Py_TYPE(c);
    PyObject *md = _PyType_Lookup(meta, name), *a = _PyType_Lookup(c, name), *r = NULL;
    Py_XINCREF(md), Py_XINCREF(a);
    if (md && data_descr(md))
        r = bind(md, (PyObject *)c, meta);
    else if (a)
        r = bind(a, NULL, c);
    else if (md)
        r = bind(md, (PyObject *)c, meta);
    Py_XDECREF(md), Py_XDECREF(a);
    return r;
}

PyObject *gc_static_attr(PyObject *o, PyObject *name)
{
    PyTypeObject *tp = Py_TYPE(o);
    PyObject *d = NULL, *r = NULL;
    if (!PyUnicode_Check(name))
        return NULL;
    if (PyType_Check(o))
        return tp->tp_getattro == PyType_Type.tp_getattro ? class_attr((PyTypeObject *)o, name) : NULL;
    if (PyMethod_Check(o)) { /* method_getattro: the method type's own names, then the function's */
        d = _PyType_Lookup(tp, name);
        return d ? bind(d, o, tp) : gc_static_attr(PyMethod_GET_FUNCTION(o), name);
    }
    if (tp->tp_getattro != PyObject_GenericGetAttr && !(PyModule_Check(o) && tp->tp_getattro == PyModule_Type.tp_getattro))
        return NULL;
    d = Py_XNewRef(_PyType_Lookup(tp, name));
    PyObject *own = d && data_descr(d) ? NULL : own_value(o, name);
    if (d && data_descr(d))
        r = bind(d, o, tp);
    else if (own)
        r = Py_NewRef(own);
    else if (d)
        r = bind(d, o, tp);
    Py_XDECREF(d);
    return r;
}

PyObject *gc_static_item(PyObject *o, PyObject *key, int ints_index)
{
    if (Py_IS_TYPE(o, &PyDictProxy_Type))
        o = gc_mappingproxy_mapping(o);
    PyObject *v = NULL;
    if (PyDict_CheckExact(o) && !(ints_index && PyLong_Check(key)))
        v = PyDict_GetItemWithError(o, key);
    else if ((PyList_CheckExact(o) || PyTuple_CheckExact(o)) && PyLong_Check(key)) {
        Py_ssize_t i = PyLong_AsSsize_t(key);
        v = i >= 0 && i < PySequence_Fast_GET_SIZE(o) ? PySequence_Fast_GET_ITEM(o, i) : NULL;
    }
    PyErr_Clear();
    return Py_XNewRef(v);
}

/* ---- a format string's fields ---- */

/* A walk from obj (a new reference, or NULL: taken) by the parts of iterator rest, each an
 * (is_attr, key) pair as formatter_field_name_split gives them, reported as reached from
 * 'seed' (the walk's own kind of feature); it ends where a lookup would run code. */
static void walk_from(PyObject *obj, PyObject *rest, uint32_t seed)
{
    path_t path = {"", 0, 1};
    int slot = -1;
    uint32_t h = obj ? gc_source_feedback_reached(obj, seed, 0, NULL, NULL) : 0;
    PyObject *part;
    for (int i = 1; obj && i <= MAX_PARTS && (part = PyIter_Next(rest)); i++) {
        int is_attr = PyTuple_Check(part) && PyTuple_GET_SIZE(part) == 2 && PyObject_IsTrue(PyTuple_GET_ITEM(part, 0)) == 1;
        PyObject *key = PyTuple_Check(part) && PyTuple_GET_SIZE(part) == 2 ? PyTuple_GET_ITEM(part, 1) : NULL;
        PyObject *next = !key ? NULL : is_attr ? gc_static_attr(obj, key) : gc_static_item(obj, key, 1);
        if (key)
            path_add(&path, is_attr, key);
        Py_DECREF(part);
        Py_SETREF(obj, next);
        if (obj)
            h = gc_source_feedback_reached(obj, h, i, path.ok ? path.s : NULL, &slot);
    }
    Py_XDECREF(obj);
    PyErr_Clear();
}

/* One field: its base (first: an index, '' the next automatic one, or a name), then each part
 * (is_attr, key) of rest, reported as reached; the walk ends where a lookup would run code. */
static void walk_field(PyObject *first, PyObject *rest, PyObject *args, PyObject *kwargs, Py_ssize_t *autonum)
{
    PyObject *obj = NULL;
    if (kwargs && !args) /* format_map: the mapping's item */
        obj = gc_static_item(kwargs, first, 0);
    else if (PyLong_Check(first) || (PyUnicode_Check(first) && PyUnicode_GET_LENGTH(first) == 0)) {
        Py_ssize_t i = PyLong_Check(first) ? PyLong_AsSsize_t(first) : (*autonum)++;
        obj = i >= 0 && i < PyTuple_GET_SIZE(args) ? Py_NewRef(PyTuple_GET_ITEM(args, i)) : NULL;
    } else if (kwargs)
        obj = gc_static_item(kwargs, first, 0);
    PyErr_Clear();
    walk_from(obj, rest, 0xf0a7u);
}

/* The fields of fmt, formatted with args and kwargs (format_map: args NULL, kwargs the
 * mapping). */
static void walk_fields(PyObject *fmt, PyObject *args, PyObject *kwargs)
{
    PyObject *it = PyObject_CallOneArg(parser, fmt), *lit;
    Py_ssize_t autonum = 0;
    for (int n = 0; it && n < MAX_FIELDS && (lit = PyIter_Next(it));) {
        PyObject *field = PyTuple_Check(lit) && PyTuple_GET_SIZE(lit) == 4 ? PyTuple_GET_ITEM(lit, 1) : NULL;
        PyObject *split = field && PyUnicode_Check(field) ? PyObject_CallOneArg(splitter, field) : NULL;
        if (split && PyTuple_Check(split) && PyTuple_GET_SIZE(split) == 2) {
            walk_field(PyTuple_GET_ITEM(split, 0), PyTuple_GET_ITEM(split, 1), args, kwargs, &autonum);
            n++;
        }
        Py_XDECREF(split);
        Py_DECREF(lit);
    }
    Py_XDECREF(it);
    PyErr_Clear();
}

/* ---- getattr chains ---- */

/* The chain the last getattr extended: its result (compared by address and type, never
 * dereferenced: no reference is held from one call to the next), feature, parts and path. */
static struct {
    PyObject *last;
    PyTypeObject *type;
    uint32_t h;
    int part, slot;
    path_t path;
} chain;

void gc_walk_feedback_reset(void)
{
    chain.last = NULL;
}

static void walk_getattr(PyObject *o, PyObject *name, PyObject *r)
{
    if (chain.last != o || chain.type != Py_TYPE(o) || chain.part >= MAX_PARTS) {
        chain.h = gc_source_feedback_reached(o, 0x6e77u, 0, NULL, NULL);
        chain.part = 0, chain.slot = -1;
        chain.path = (path_t){"", 0, 1};
    }
    path_add(&chain.path, 1, name);
    chain.h = gc_source_feedback_reached(r, chain.h, ++chain.part, chain.path.ok ? chain.path.s : NULL, &chain.slot);
    chain.last = r, chain.type = Py_TYPE(r);
}

/* ---- the wrappers ---- */

/* Observe while an evaluation runs, and not the observer's own calls. */
static int observing(void)
{
    return gc_orc.in_chain && !busy;
}

/* The exception the wrapped call left (a failed lookup's), kept aside while the observer runs. */
typedef struct {
    PyObject *type, *value, *tb;
} pending;

static pending observe_begin(void)
{
    pending e = {NULL, NULL, NULL};
#if PY_VERSION_HEX >= 0x030c0000
    e.value = PyErr_GetRaisedException();
#else
    PyErr_Fetch(&e.type, &e.value, &e.tb);
#endif
    busy = 1;
    return e;
}

static void observe_end(pending e)
{
    busy = 0;
#if PY_VERSION_HEX >= 0x030c0000
    PyErr_SetRaisedException(e.value);
#else
    PyErr_Restore(e.type, e.value, e.tb);
#endif
}

static PyObject *format_wrap(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *r = ((PyCFunctionWithKeywords)(void (*)(void))orig_format)(self, args, kwargs);
    if (observing() && PyTuple_Check(args)) {
        pending e = observe_begin();
        walk_fields(self, args, kwargs);
        observe_end(e);
    }
    return r;
}

static PyObject *format_map_wrap(PyObject *self, PyObject *mapping)
{
    PyObject *r = orig_format_map(self, mapping);
    if (observing()) {
        pending e = observe_begin();
        walk_fields(self, NULL, mapping);
        observe_end(e);
    }
    return r;
}

/* Is the getattr made for the program (its code among the 6 innermost frames: the program
 * itself, a guard or a library function it called; not a sandbox's own machinery, its AST
 * visitor's getattr(self, 'visit_' + name)) and not by the import system (a module's repr
 * reads its __spec__)? */
static int program_call(void)
{
    PyFrameObject *f = PyEval_GetFrame(); /* borrowed */
    PyCodeObject *co = f ? PyFrame_GetCode(f) : NULL;
    const char *file = co && PyUnicode_Check(co->co_filename) ? PyUnicode_AsUTF8(co->co_filename) : NULL;
    int importing = file && strncmp(file, "<frozen importlib", 17) == 0;
    Py_XDECREF(co);
    PyErr_Clear();
    return !importing && gc_source_feedback_in_program(6);
}

static PyObject *getattr_wrap(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    PyObject *r = ((PyObject * (*)(PyObject *, PyObject *const *, Py_ssize_t))(void (*)(void)) orig_getattr)(self, args, n);
    /* a syntax tree's nodes are what a sandbox reads of the program (ast.walk's getattr),
     * no walk of the program's */
    if (r && n >= 2 && observing() && !(ast_node && (PyObject_TypeCheck(args[0], (PyTypeObject *)ast_node) ||
                                                      PyObject_TypeCheck(r, (PyTypeObject *)ast_node))) &&
        program_call()) {
        pending e = observe_begin();
        walk_getattr(args[0], args[1], r);
        observe_end(e);
    }
    return r;
}

/* def's entry point replaced by wrap when its flags are 'flags': the original, or NULL. */
static PyCFunction replace(PyMethodDef *def, int flags, PyCFunction wrap)
{
    if (!def || (def->ml_flags & ~(METH_COEXIST)) != flags)
        return NULL;
    PyCFunction orig = def->ml_meth;
    def->ml_meth = wrap;
    return orig;
}

static PyMethodDef *str_method(const char *name)
{
    PyObject *d = PyDict_GetItemString(gc_type_dict(&PyUnicode_Type), name); /* borrowed */
    return d && Py_IS_TYPE(d, &PyMethodDescr_Type) ? ((PyMethodDescrObject *)d)->d_method : NULL;
}

/* ---- operator's getters ---- */

/* operator.attrgetter and itemgetter walk in C (PyObject_GetAttr per dotted part,
 * PyObject_GetItem) and run as vectorcalls, which no method definition sees: their types'
 * calls are taken through tp_call (the vectorcall flag cleared, the types' own tp_call
 * wrapped; both keep their behaviour), and after a call the walk is done again as a format
 * field's is, from the getter's own description of itself (__reduce__: its names or items). */
typedef struct {
    const char *name;
    int is_attr;
    PyTypeObject *type;
    ternaryfunc orig;
} getter_t;
static getter_t getters[] = {{"attrgetter", 1, NULL, NULL}, {"itemgetter", 0, NULL, NULL}};
#define NGETTERS (int)(sizeof getters / sizeof *getters)

/* Getter g's walks of obj: for attrgetter each dotted name, part by part; for itemgetter
 * each item. */
static void walk_getter(const getter_t *g, PyObject *self, PyObject *obj)
{
    PyObject *red = PyObject_CallMethod(self, "__reduce__", NULL);
    PyObject *what = red && PyTuple_Check(red) && PyTuple_GET_SIZE(red) >= 2 ? PyTuple_GET_ITEM(red, 1) : NULL;
    for (Py_ssize_t k = 0; what && PyTuple_Check(what) && k < PyTuple_GET_SIZE(what) && k < MAX_FIELDS; k++) {
        PyObject *w = PyTuple_GET_ITEM(what, k);
        PyObject *dot = g->is_attr && PyUnicode_Check(w) ? PyUnicode_FromString(".") : NULL;
        PyObject *keys = !g->is_attr ? PyTuple_Pack(1, w) : dot ? PyUnicode_Split(w, dot, -1) : NULL;
        Py_ssize_t nk = keys ? PySequence_Size(keys) : 0;
        PyObject *parts = keys ? PyList_New(0) : NULL, *it;
        for (Py_ssize_t j = 0; parts && j < nk; j++) {
            PyObject *key = PySequence_GetItem(keys, j);
            PyObject *pair = key ? PyTuple_Pack(2, g->is_attr ? Py_True : Py_False, key) : NULL;
            if (pair)
                PyList_Append(parts, pair);
            Py_XDECREF(pair);
            Py_XDECREF(key);
        }
        Py_XDECREF(dot);
        if (parts && (it = PyObject_GetIter(parts))) {
            walk_from(Py_NewRef(obj), it, 0x9e77u + (uint32_t)g->is_attr);
            Py_DECREF(it);
        }
        Py_XDECREF(parts);
        Py_XDECREF(keys);
        PyErr_Clear();
    }
    Py_XDECREF(red);
    PyErr_Clear();
}

static PyObject *getter_call(PyObject *self, PyObject *args, PyObject *kw)
{
    const getter_t *g = &getters[0];
    while (g < getters + NGETTERS - 1 && g->type != Py_TYPE(self))
        g++;
    PyObject *r = g->orig(self, args, kw);
    if (r && PyTuple_Check(args) && PyTuple_GET_SIZE(args) == 1 && observing() && program_call()) {
        pending e = observe_begin();
        walk_getter(g, self, PyTuple_GET_ITEM(args, 0));
        observe_end(e);
    }
    return r;
}

/* operator's getter types' calls through getter_call. */
static int place_getters(void)
{
    PyObject *m = PyImport_ImportModule("operator");
    int ok = m != NULL;
    for (int k = 0; m && k < NGETTERS; k++) {
        PyObject *t = PyObject_GetAttrString(m, getters[k].name);
        if (t && PyType_Check(t) && ((PyTypeObject *)t)->tp_call) {
            getters[k].type = (PyTypeObject *)t; /* kept: the module holds it for good */
            getters[k].orig = getters[k].type->tp_call;
            getters[k].type->tp_flags &= ~Py_TPFLAGS_HAVE_VECTORCALL;
            getters[k].type->tp_call = getter_call;
        } else {
            ok = 0;
        }
        Py_XDECREF(t);
    }
    Py_XDECREF(m);
    PyErr_Clear();
    return ok;
}

int gc_walk_feedback_place(void)
{
    static int placed, rc;
    if (placed++)
        return rc;
    PyObject *m = PyImport_ImportModule("_string");
    parser = m ? PyObject_GetAttrString(m, "formatter_parser") : NULL;
    splitter = m ? PyObject_GetAttrString(m, "formatter_field_name_split") : NULL;
    Py_XDECREF(m);
    m = PyImport_ImportModule("_ast");
    ast_node = m ? PyObject_GetAttrString(m, "AST") : NULL;
    if (ast_node && !PyType_Check(ast_node))
        Py_CLEAR(ast_node);
    Py_XDECREF(m);
    PyErr_Clear();
    if (parser && splitter) {
        orig_format = replace(str_method("format"), METH_VARARGS | METH_KEYWORDS, (PyCFunction)(void (*)(void))format_wrap);
        orig_format_map = replace(str_method("format_map"), METH_O, format_map_wrap);
    }
    PyObject *b = PyImport_ImportModule("builtins"), *ga = b ? PyObject_GetAttrString(b, "getattr") : NULL;
    orig_getattr = replace(ga && PyCFunction_Check(ga) ? ((PyCFunctionObject *)ga)->m_ml : NULL, METH_FASTCALL,
                           (PyCFunction)(void (*)(void))getattr_wrap);
    Py_XDECREF(ga);
    Py_XDECREF(b);
    PyErr_Clear();
    int getters_ok = place_getters();
    rc = orig_format && orig_format_map && orig_getattr && getters_ok ? 0 : -1;
    return rc;
}
