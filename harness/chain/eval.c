/* eval.c — see eval.h.
 *
 * Calls go through a tiny function `handler(f, a): return f(*a)` whose globals are the
 * namespace (so its builtins are the namespace's __builtins__): builtins that read the
 * caller's frame — globals(), locals(), vars(), dir(), super(), __import__,
 * sys._getframe() — see the handler's view, never the harness's (which has no Python
 * frames at all). */
#include "eval.h"
#include "confine.h"

#include <stdio.h>
#include <string.h>

#include "feedback.h"
#include "interp.h"
#include "timelimit.h"
#include "nscache.h"
#include "pycompat.h"
#include "state.h"
#include "xalloc.h"

#define GC_MAX_WALK 4096 /* items an exploration form may walk */

static PyObject *tramp_code;

/* C functions that only read: type's and object's introspection and the builtins that
 * read as an attribute step does.  A call of one (or of no callable: a TypeError) in which
 * no Python frame begins but the trampoline's changes nothing the state check watches, so
 * that frame is not counted as code the input ran (state.h): the check after an input of
 * class walks is skipped, as after one of attribute steps.  By their C functions, not by
 * name: a class's own __subclasses__ or a module's dir is another function. */
#define GC_MAX_READERS 32
static PyCFunction readers[GC_MAX_READERS];
static int nreaders;

/* The C function behind a builtin function or method, or a method descriptor; else NULL. */
static PyMethodDef *method_def(PyObject *f)
{
    return !f                                   ? NULL
           : PyCFunction_Check(f)               ? ((PyCFunctionObject *)f)->m_ml
           : Py_IS_TYPE(f, &PyMethodDescr_Type) ? ((PyMethodDescrObject *)f)->d_method
                                                : NULL;
}

static void add_readers(PyObject *from, const char *const *names)
{
    for (; from && *names && nreaders < GC_MAX_READERS; names++) {
        PyObject *f = PyObject_GetAttrString(from, *names);
        PyMethodDef *ml = method_def(f);
        if (ml)
            readers[nreaders++] = ml->ml_meth;
        Py_XDECREF(f);
        PyErr_Clear();
    }
}

/* object.__getstate__'s C function: given a type (bound to one, or one as its argument) it
 * returns the type's own dict (3.11: a type's instance dict is its tp_dict), which a chain
 * can then change behind the type's caches.  Found by fuzz_gate on station-1.5.0-allow-all:
 * builtin_function_or_method's dict cleared left its method cache on freed descriptors, and a
 * later input's error message (its __qualname__) read one: SEGV.  A static type's dict cannot
 * be put back either (state.c repairs heap types, through setattr).  Refused for a type;
 * an instance's state is taken as before. */
static PyCFunction getstate_fn;

static const char *refused_state_of_type(PyObject *f, PyObject *args)
{
    PyMethodDef *ml = method_def(f);
    if (!ml || !getstate_fn || ml->ml_meth != getstate_fn)
        return NULL;
    PyObject *of = PyCFunction_Check(f) ? PyCFunction_GET_SELF(f)
                   : PyTuple_GET_SIZE(args) > 0 ? PyTuple_GET_ITEM(args, 0)
                                                : NULL;
    return of && PyType_Check(of) ? "object.__getstate__ of a type" : NULL;
}

static void find_readers(void)
{
    static const char *const of_type[] = {"__subclasses__", "mro", "__dir__", "__sizeof__", "__instancecheck__",
                                          "__subclasscheck__", NULL};
    static const char *const of_object[] = {"__dir__", "__sizeof__", NULL};
    static const char *const of_builtins[] = {"dir", "getattr", "vars", "id", "len", "repr", "hash", "callable",
                                              "isinstance", "issubclass", NULL};
    PyObject *builtins = PyImport_ImportModule("builtins");
    add_readers((PyObject *)&PyType_Type, of_type);
    add_readers((PyObject *)&PyBaseObject_Type, of_object);
    add_readers(builtins, of_builtins);
    Py_XDECREF(builtins);
    PyObject *gs = PyObject_GetAttrString((PyObject *)&PyBaseObject_Type, "__getstate__");
    PyMethodDef *ml = method_def(gs); /* a static definition: it outlives the object */
    getstate_fn = ml ? ml->ml_meth : NULL;
    Py_XDECREF(gs);
    PyErr_Clear();
}

static int only_reads(PyObject *f)
{
    if (!PyCallable_Check(f))
        return 1;
    PyMethodDef *ml = method_def(f);
    for (int k = 0; ml && k < nreaders; k++)
        if (ml->ml_meth == readers[k])
            return 1;
    return 0;
}

int gc_eval_init(char *err, size_t errlen)
{
    if (tramp_code)
        return 0;
    find_readers();
    PyObject *g = PyDict_New();
    PyObject *code = g ? Py_CompileString("def handler(f, a):\n    return f(*a)\n", "<handler>",
                                          Py_file_input) : NULL;
    PyObject *r = code ? PyEval_EvalCode(code, g, g) : NULL;
    PyObject *fn = r ? PyDict_GetItemString(g, "handler") : NULL;
    if (fn) {
        tramp_code = PyFunction_GET_CODE(fn);
        Py_INCREF(tramp_code);
    }
    Py_XDECREF(r);
    Py_XDECREF(code);
    Py_XDECREF(g);
    if (!tramp_code) {
        gc_interp_error_line(err, errlen);
        return -1;
    }
    return 0;
}

/* ---- bridges ---- */

static const char *bridge_names[GC_BR_COUNT] = {
    "modattr", "globals", "self", "func", "closure", "frame", "class",
    "dict", "builtins", "sys.modules", "import", "exception", "call"};

const char *gc_bridge_name(int i) { return i >= 0 && i < GC_BR_COUNT ? bridge_names[i] : "?"; }

void gc_bridges_format(unsigned bridges, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < GC_BR_COUNT && o < len; i++)
        if (bridges & (1u << i))
            o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "+" : "", bridge_names[i]);
    if (!buf[0])
        snprintf(buf, len, "direct");
}

/* strcmp() == 0 without strcmp: in fuzz_gate libFuzzer's strcmp interceptor would record
 * every comparison (a twelfth of each input's instructions, and no signal). */
static int eq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

static int name_in(const char *n, const char *const *list)
{
    for (; *list; list++)
        if (eq(n, *list))
            return 1;
    return 0;
}

unsigned gc_bridge_attr(PyObject *v, const char *n, PyObject *r)
{
    /* fast path: a plain name (no bridge name starts otherwise) on a non-module */
    if (n[0] != '_' && n[0] != 'f' && n[0] != 't' && n[0] != 'g' && n[0] != 'c' && n[0] != 'a' &&
        n[0] != 'm' && n[0] != 'l' && !PyModule_Check(v))
        return 0;
    static const char *const globals[] = {"__globals__", "f_globals", "func_globals", NULL};
    static const char *const frames[] = {"__traceback__", "tb_frame", "tb_next", "f_back", "f_locals",
                                         "f_builtins", "gi_frame", "cr_frame", "ag_frame", "f_code",
                                         "__context__", "__cause__", NULL};
    static const char *const classes[] = {"__class__", "__base__", "__bases__", "__mro__",
                                          "__subclasses__", "mro", "__objclass__", NULL};
    static const char *const closures[] = {"__closure__", "cell_contents", NULL};
    static const char *const funcs[] = {"__func__", "__wrapped__", NULL};
    static const char *const imports[] = {"__import__", "__loader__", "__spec__", "loader", NULL};
    if (name_in(n, globals))
        return GC_BR_GLOBALS;
    if (name_in(n, frames))
        return GC_BR_FRAME;
    if (name_in(n, classes))
        return GC_BR_CLASS;
    if (name_in(n, closures))
        return GC_BR_CLOSURE;
    if (name_in(n, funcs))
        return GC_BR_FUNC;
    if (name_in(n, imports))
        return GC_BR_IMPORT;
    if (eq(n, "__self__"))
        return GC_BR_SELF;
    if (eq(n, "__dict__"))
        return GC_BR_DICT;
    if (eq(n, "__builtins__"))
        return GC_BR_BUILTINS;
    if (PyModule_Check(v)) {
        const char *mn = PyModule_GetName(v);
        PyErr_Clear();
        if (eq(n, "modules") && mn && eq(mn, "sys"))
            return GC_BR_SYSMODULES;
    }
    /* a module-valued attribute: the advisory's leak (a proxy carrying a real module) */
    return PyModule_Check(r) ? GC_BR_MODATTR : 0;
}

/* An item of sys.modules or of the namespace's builtins; the walk itself is no bridge. */
unsigned gc_bridge_item(PyObject *ns, PyObject *container)
{
    if (container == PyImport_GetModuleDict())
        return GC_BR_SYSMODULES;
    if (container == PyDict_GetItemString(ns, "__builtins__"))
        return GC_BR_BUILTINS;
    return 0;
}

unsigned gc_bridge_call(PyObject *f, PyObject *r, int raised)
{
    if (raised)
        return GC_BR_EXC;
    PyObject *fname = PyObject_GetAttrString(f, "__name__");
    const char *fs = fname && PyUnicode_Check(fname) ? PyUnicode_AsUTF8(fname) : NULL;
    unsigned b = fs && eq(fs, "__import__") ? GC_BR_IMPORT
               : fs && eq(fs, "__subclasses__") ? GC_BR_CLASS
               : PyFrame_Check(r) ? GC_BR_FRAME : GC_BR_CALL;
    Py_XDECREF(fname);
    PyErr_Clear();
    return b;
}

PyObject *gc_eval_trampoline(PyObject *ns) { return PyFunction_New(tramp_code, ns); }

int gc_eval_handler_frame(PyObject *v)
{
    if (!tramp_code || !v || !PyFrame_Check(v))
        return 0;
    PyCodeObject *co = PyFrame_GetCode((PyFrameObject *)v);
    int is = (PyObject *)co == tramp_code;
    Py_XDECREF(co);
    return is;
}

/* ---- exploration forms ---- */

/* dir(v), memoised for modules: fuzzing takes `.#K` of the same few modules millions of
 * times, and dir() builds and sorts a few hundred names each time.  A module's dir() is
 * its namespace's keys (sorted), so a change count of the namespace says when to redo it. */
#define DIR_CACHE 64
typedef struct {
    PyObject *key;  /* the module or class (strong) */
    uint64_t tag;   /* its namespace's change count (ns_tag), or its type version tag */
    PyObject *names;
} dir_entry;
static dir_entry dir_cache[DIR_CACHE];

#if PY_VERSION_HEX >= 0x030c0000
/* 3.12+ (the dict version tag is deprecated): a dict watcher counts the changes of each
 * namespace dir() was taken of, one count per cache slot of the namespace's address (two
 * namespaces sharing a slot only redo each other's dir()). */
static uint64_t ns_changes[DIR_CACHE];
static int ns_watcher = -1;
static int ns_changed(PyDict_WatchEvent ev, PyObject *d, PyObject *key, PyObject *value)
{
    (void)ev, (void)key, (void)value;
    ns_changes[((uintptr_t)d >> 4) % DIR_CACHE]++;
    return 0;
}
static uint64_t ns_tag(PyObject *d)
{
    uint64_t *n = &ns_changes[((uintptr_t)d >> 4) % DIR_CACHE];
    if (ns_watcher < 0)
        ns_watcher = PyDict_AddWatcher(ns_changed);
    if (ns_watcher < 0 || PyDict_Watch(ns_watcher, d) < 0) {
        PyErr_Clear();
        return ++*n; /* not watched: never the same twice */
    }
    return *n;
}
#else
static uint64_t ns_tag(PyObject *d) { return gc_dict_tag(d); } /* 3.11: the version tag */
#endif

/* The names kept for (key, tag) in the entry key's address picks, as a new reference;
 * NULL when there are none. */
static PyObject *dir_cached(dir_entry *cache, size_t n, PyObject *key, uint64_t tag)
{
    dir_entry *e = &cache[((uintptr_t)key >> 4) % n];
    if (e->key != key || e->tag != tag)
        return NULL;
    Py_INCREF(e->names);
    return e->names;
}

/* Keep 'names' (a new reference, returned) for (key, tag), in place of what was there. */
static PyObject *dir_keep(dir_entry *cache, size_t n, PyObject *key, uint64_t tag, PyObject *names)
{
    dir_entry *e = &cache[((uintptr_t)key >> 4) % n];
    Py_INCREF(names);
    Py_XSETREF(e->names, names);
    Py_INCREF(key);
    Py_XSETREF(e->key, key);
    e->tag = tag;
    return names;
}

/* dir() of a class, memoised too: walks take `.#K` of a few hundred classes over and over,
 * and dir(C) merges the dicts of C's whole MRO and sorts them (a third of each input's
 * instructions before).  type.__dir__(C) depends only on the dicts and bases of C and its
 * bases; CPython invalidates C's version tag whenever any of them changes (PyType_Modified
 * reaches every subclass), so (C, valid tag) is the key.  dir() of an object without an
 * instance dict whose class keeps object's __dir__ and __class__ is dir() of its class. */
#define TYPE_DIR_CACHE 512
static dir_entry type_dir_cache[TYPE_DIR_CACHE];
static PyObject *obj_dir_descr, *obj_class_descr, *str_dir, *str_class, *str_dict, *str_bases;
static PyObject *type_dir_descr, *type_dict_descr, *type_bases_descr;

/* dir(C) for a class C whose metaclass M is not type (ABCMeta, most often) is
 * type.__dir__(C) too when M keeps type's __dir__, attribute lookup, __dict__ and
 * __bases__ (which type.__dir__ reads): then C's version tag says when to redo it, as for
 * classes of type.  EnumType and others with a __dir__ of their own are not cached. */
static int plain_metaclass(PyTypeObject *m)
{
    return m->tp_getattro == PyType_Type.tp_getattro && type_dir_descr && _PyType_Lookup(m, str_dir) == type_dir_descr &&
           _PyType_Lookup(m, str_dict) == type_dict_descr && _PyType_Lookup(m, str_bases) == type_bases_descr;
}

static int tag_valid(PyTypeObject *tp, unsigned int *tag)
{
    if (!PyType_HasFeature(tp, Py_TPFLAGS_VALID_VERSION_TAG)) {
        (void)_PyType_Lookup(tp, str_dir); /* assigns a tag when it can */
        if (!PyType_HasFeature(tp, Py_TPFLAGS_VALID_VERSION_TAG) || !tp->tp_version_tag)
            return 0;
    }
    *tag = tp->tp_version_tag;
    return *tag != 0;
}

/* The class whose dir() v's dir() is, or NULL when it is not cacheable. */
static PyTypeObject *dir_class(PyObject *v)
{
    if (!str_dir) {
        str_dir = PyUnicode_InternFromString("__dir__");
        str_class = PyUnicode_InternFromString("__class__");
        str_dict = PyUnicode_InternFromString("__dict__");
        str_bases = PyUnicode_InternFromString("__bases__");
        obj_dir_descr = str_dir ? PyDict_GetItemWithError(gc_type_dict(&PyBaseObject_Type), str_dir) : NULL;
        obj_class_descr = str_class ? PyDict_GetItemWithError(gc_type_dict(&PyBaseObject_Type), str_class) : NULL;
        type_dir_descr = str_dir ? PyDict_GetItemWithError(gc_type_dict(&PyType_Type), str_dir) : NULL;
        type_dict_descr = str_dict ? PyDict_GetItemWithError(gc_type_dict(&PyType_Type), str_dict) : NULL;
        type_bases_descr = str_bases ? PyDict_GetItemWithError(gc_type_dict(&PyType_Type), str_bases) : NULL;
        PyErr_Clear();
    }
    if (!obj_dir_descr || !obj_class_descr || !str_dict || !str_bases)
        return NULL;
    if (PyType_CheckExact(v) || (PyType_Check(v) && plain_metaclass(Py_TYPE(v))))
        return (PyTypeObject *)v; /* type.__dir__ */
    PyTypeObject *tp = Py_TYPE(v);
    if (PyType_Check(v) || tp->tp_getattro != PyObject_GenericGetAttr || _PyType_Lookup(tp, str_dir) != obj_dir_descr ||
        _PyType_Lookup(tp, str_class) != obj_class_descr || !PyType_CheckExact((PyObject *)tp))
        return NULL;
    PyObject *dd = _PyType_Lookup(tp, str_dict); /* object.__dir__ reads v.__dict__ */
    if (dd && !Py_IS_TYPE(dd, &PyGetSetDescr_Type))
        return NULL;
    PyObject **dp = _PyObject_GetDictPtr(v);
    if (dp && *dp && (!PyDict_Check(*dp) || PyDict_GET_SIZE(*dp) != 0))
        return NULL;
    return tp;
}

static PyObject *dir_of(PyObject *v)
{
    if (!PyModule_CheckExact(v)) {
        PyTypeObject *tp = dir_class(v);
        unsigned int tag;
        if (!tp || !tag_valid(tp, &tag))
            return PyObject_Dir(v);
        PyObject *names = dir_cached(type_dir_cache, TYPE_DIR_CACHE, (PyObject *)tp, tag);
        if (names)
            return names;
        names = PyObject_Dir((PyObject *)tp);
        if (!names || !PyType_HasFeature(tp, Py_TPFLAGS_VALID_VERSION_TAG) || tp->tp_version_tag != tag)
            return names; /* (dir() ran code that changed the class: not cached) */
        return dir_keep(type_dir_cache, TYPE_DIR_CACHE, (PyObject *)tp, tag, names);
    }
    uint64_t tag = ns_tag(PyModule_GetDict(v));
    PyObject *names = dir_cached(dir_cache, DIR_CACHE, v, tag);
    if (names)
        return names;
    names = PyObject_Dir(v);
    return names ? dir_keep(dir_cache, DIR_CACHE, v, tag, names) : NULL;
}

static int is_identifier(const char *s, Py_ssize_t n, int dotted)
{
    if (n <= 0 || n > GC_MAX_NAME)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        char c = s[i];
        int ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (i > 0 && c >= '0' && c <= '9') || (dotted && i > 0 && c == '.');
        if (!ok)
            return 0;
    }
    return 1;
}

static int is_mapping(PyObject *v)
{
    if (PyDict_Check(v))
        return 1;
    if (PyList_Check(v) || PyTuple_Check(v) || PyUnicode_Check(v) || PyBytes_Check(v))
        return 0;
    /* hasattr() without building the names or the AttributeError each time (every [#K]) */
    static PyObject *keys, *getitem;
    if (!getitem) {
        keys = keys ? keys : PyUnicode_InternFromString("keys");
        getitem = keys ? PyUnicode_InternFromString("__getitem__") : NULL;
        if (!getitem) {
            PyErr_Clear();
            return 0;
        }
    }
    PyObject *a = NULL, *b = NULL;
    int r = PyObject_GetOptionalAttr(v, keys, &a) > 0 && PyObject_GetOptionalAttr(v, getitem, &b) > 0;
    Py_XDECREF(a);
    Py_XDECREF(b);
    PyErr_Clear();
    return r;
}

/* A set iterates in hash order, and objects hash by address: `os.supports_dir_fd[#K]`
 * named another function in every process (a crash that did not replay).  Set elements are
 * put in an order every process agrees on: by type, then __qualname__ (or __name__), then
 * repr, in place. */
static int sort_by_name(PyObject *list)
{
    Py_ssize_t n = PyList_GET_SIZE(list);
    PyObject *keyed = PyList_New(n);
    if (!keyed)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyList_GET_ITEM(list, i);
        PyObject *name = PyObject_GetAttrString(x, "__qualname__");
        if (!name || !PyUnicode_Check(name)) {
            PyErr_Clear();
            Py_XDECREF(name);
            name = PyObject_GetAttrString(x, "__name__");
        }
        if (!name || !PyUnicode_Check(name)) {
            PyErr_Clear();
            Py_XDECREF(name);
            name = PyUnicode_FromString("");
        }
        PyObject *repr = PyObject_Repr(x);
        if (!repr) {
            PyErr_Clear();
            repr = PyUnicode_FromString("");
        }
        PyObject *t = name && repr ? Py_BuildValue("(sOOO)", Py_TYPE(x)->tp_name, name, repr, x) : NULL;
        Py_XDECREF(name);
        Py_XDECREF(repr);
        if (!t) {
            Py_DECREF(keyed);
            return -1;
        }
        PyList_SET_ITEM(keyed, i, t);
    }
    /* compare the keys only: equal keys keep the set's order (tuples would compare the
     * elements themselves, which need not be orderable) */
    PyObject *sorted = NULL;
    PyObject *bi = PyImport_ImportModule("builtins");
    PyObject *op = PyImport_ImportModule("operator");
    PyObject *getter = op ? PyObject_CallMethod(op, "itemgetter", "iii", 0, 1, 2) : NULL;
    PyObject *kw = getter ? Py_BuildValue("{s:O}", "key", getter) : NULL;
    PyObject *fn = bi && kw ? PyObject_GetAttrString(bi, "sorted") : NULL;
    PyObject *args = fn ? PyTuple_Pack(1, keyed) : NULL;
    sorted = args ? PyObject_Call(fn, args, kw) : NULL;
    Py_XDECREF(args);
    Py_XDECREF(fn);
    Py_XDECREF(kw);
    Py_XDECREF(getter);
    Py_XDECREF(op);
    Py_XDECREF(bi);
    Py_DECREF(keyed);
    if (!sorted)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(PyList_GET_ITEM(sorted, i), 3);
        Py_INCREF(x);
        PyList_SetItem(list, i, x);
    }
    Py_DECREF(sorted);
    return 0;
}

/* Up to 'limit' items of v: for a mapping its keys, else its elements (a new list). */
static PyObject *walk(PyObject *v, Py_ssize_t limit, int *mapping)
{
    *mapping = is_mapping(v);
    /* an exact list, tuple or dict iterates as its items in order, running no code: copied
     * at once (a __subclasses__() list of hundreds, walked by every [@name] and [#K]) */
    if (PyList_CheckExact(v) || PyTuple_CheckExact(v)) {
        Py_ssize_t n = Py_SIZE(v) < limit ? Py_SIZE(v) : limit;
        PyObject *out = PyList_New(n);
        PyObject **from = PySequence_Fast_ITEMS(v);
        for (Py_ssize_t i = 0; out && i < n; i++)
            PyList_SET_ITEM(out, i, Py_NewRef(from[i]));
        return out;
    }
    if (PyDict_CheckExact(v) && PyDict_GET_SIZE(v) <= limit)
        return PyDict_Keys(v);
    PyObject *src = v;
    PyObject *keys = NULL;
    if (*mapping && !PyDict_Check(v)) {
        keys = PyObject_CallMethod(v, "keys", NULL);
        if (!keys)
            return NULL;
        src = keys;
    }
    PyObject *it = PyObject_GetIter(src);
    Py_XDECREF(keys);
    if (!it)
        return NULL;
    PyObject *out = PyList_New(0);
    PyObject *x;
    while (out && PyList_GET_SIZE(out) < limit && (x = PyIter_Next(it))) {
        PyList_Append(out, x);
        Py_DECREF(x);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        Py_XDECREF(out);
        return NULL;
    }
    if (PyAnySet_Check(v) && sort_by_name(out) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

static int name_of(PyObject *x, int dotted, char *buf, size_t len)
{
    /* A class whose metaclass is type itself: the name type's own __name__/__qualname__
     * getters give (they are data descriptors of type, so nothing in the class's dict
     * overrides them), read without an attribute lookup: a [@name] step asks it of every
     * __subclasses__() entry, and the lookup was fuzz_gate's largest harness function. */
    PyTypeObject *tp = Py_IS_TYPE(x, &PyType_Type) ? (PyTypeObject *)x : NULL;
    PyObject *n = tp ? (dotted ? PyType_GetQualName(tp) : PyType_GetName(tp))
                     : PyObject_GetAttrString(x, dotted ? "__qualname__" : "__name__");
    int ok = 0;
    if (n && PyUnicode_Check(n)) {
        Py_ssize_t sz;
        const char *s = PyUnicode_AsUTF8AndSize(n, &sz);
        if (s && is_identifier(s, sz, dotted) && (size_t)sz < len) {
            memcpy(buf, s, (size_t)sz);
            buf[sz] = '\0';
            ok = 1;
        }
    }
    Py_XDECREF(n);
    PyErr_Clear();
    return ok;
}

/* A static type's name after its last dot (what type's __name__ getter gives) and its
 * length, cached by the type: a static type's tp_name never changes and the type is never
 * freed, and name_is asks it of every __subclasses__() entry (a strrchr and a strlen each,
 * 2% of fuzz_gate's time). */
static const char *static_short_name(PyTypeObject *tp, size_t *len)
{
    static struct {
        PyTypeObject *tp;
        const char *s;
        size_t len;
    } cache[1024];
    size_t slot = ((uintptr_t)tp >> 4) & 1023;
    if (cache[slot].tp != tp) {
        const char *s = strrchr(tp->tp_name, '.');
        s = s ? s + 1 : tp->tp_name;
        cache[slot].tp = tp, cache[slot].s = s, cache[slot].len = strlen(s);
    }
    *len = cache[slot].len;
    return cache[slot].s;
}

/* Is x's __name__ (__qualname__ if dotted) 'name'?  A class whose metaclass is type itself is
 * compared where type's getters read it (a heap type's ht_name/ht_qualname, a static type's
 * tp_name after its last dot) with no string made: a [@name] step asks it of every
 * __subclasses__() entry, and a [#K] resolved to [@name] of every entry before it (10% of
 * fuzz_gate's time through name_of, docs/PERFORMANCE.md).
 * Others as name_of gives it. */
static int name_is(PyObject *x, int dotted, const char *name, size_t nlen)
{
    const char *s;
    Py_ssize_t sz;
    if (Py_IS_TYPE(x, &PyType_Type)) {
        PyTypeObject *tp = (PyTypeObject *)x;
        if (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) {
            PyObject *n = dotted ? ((PyHeapTypeObject *)tp)->ht_qualname : ((PyHeapTypeObject *)tp)->ht_name;
            s = n && PyUnicode_Check(n) ? PyUnicode_AsUTF8AndSize(n, &sz) : NULL;
            if (!s) {
                PyErr_Clear();
                return 0;
            }
        } else {
            size_t len;
            s = static_short_name(tp, &len);
            sz = (Py_ssize_t)len;
        }
        return (size_t)sz == nlen && memcmp(s, name, nlen) == 0 && is_identifier(s, sz, dotted);
    }
    char buf[GC_MAX_NAME + 1];
    return name_of(x, dotted, buf, sizeof buf) && strlen(buf) == nlen && memcmp(buf, name, nlen) == 0;
}

/* Is x a class of a stale copy of its module?  The module its __module__ names in sys.modules
 * holds, under its name, another class of that module and name: the harness imported the
 * module before the target and took it out of sys.modules again (interp.h
 * gc_interp_world_restore), and the target's import made it anew, so __subclasses__() lists
 * both here where a host has one.  [@name] passes over such a class (below). */
static int stale_copy(PyObject *x)
{
    if (!PyType_Check(x) || !(((PyTypeObject *)x)->tp_flags & Py_TPFLAGS_HEAPTYPE))
        return 0;
    PyHeapTypeObject *ht = (PyHeapTypeObject *)x;
    PyObject *dict = ((PyTypeObject *)x)->tp_dict;
    PyObject *mod = dict ? PyDict_GetItemString(dict, "__module__") : NULL; /* borrowed */
    PyObject *m = mod && PyUnicode_Check(mod) ? PyDict_GetItem(PyImport_GetModuleDict(), mod) : NULL;
    PyObject *md = m && PyModule_Check(m) ? PyModule_GetDict(m) : NULL;
    PyObject *live = md && ht->ht_name ? PyDict_GetItem(md, ht->ht_name) : NULL;
    int stale = 0;
    if (live && live != x && PyType_Check(live) && (((PyTypeObject *)live)->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
        PyHeapTypeObject *lt = (PyHeapTypeObject *)live;
        PyObject *lmod = ((PyTypeObject *)live)->tp_dict ? PyDict_GetItemString(((PyTypeObject *)live)->tp_dict,
                                                                                "__module__") : NULL;
        stale = lmod && PyUnicode_Check(lmod) && PyUnicode_Compare(lmod, mod) == 0 &&
                PyUnicode_Compare(lt->ht_qualname, ht->ht_qualname) == 0;
    }
    PyErr_Clear();
    return stale;
}

/* The element (or mapping value) whose __name__ (__qualname__ if dotted) is 'name': the first
 * that is no stale copy's class (stale_copy), else the first. */
static PyObject *find_named(PyObject *v, const char *name, size_t nlen)
{
    int mapping;
    int dotted = memchr(name, '.', nlen) != NULL;
    PyObject *items = walk(v, GC_MAX_WALK, &mapping);
    if (!items)
        return NULL;
    PyObject *found = NULL, *stale = NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items) && !found; i++) {
        PyObject *x = PyList_GET_ITEM(items, i);
        PyObject *val = mapping ? PyObject_GetItem(v, x) : (Py_INCREF(x), x);
        if (!val) {
            PyErr_Clear();
            continue;
        }
        if (!name_is(val, dotted, name, nlen) || (stale_copy(val) && stale))
            Py_DECREF(val);
        else if (stale_copy(val))
            stale = val;
        else
            found = val;
    }
    Py_DECREF(items);
    if (found) /* what a host has, found after a stale copy or none */
        Py_XDECREF(stale);
    else
        found = stale;
    if (!found && !PyErr_Occurred())
        PyErr_Format(PyExc_LookupError, "no element named %.*s", (int)nlen, name);
    return found;
}

/* Key x's value in mapping v, the trailer resolved to ['x'] or [x] where x is a str or an int. */
static PyObject *keyed_item(PyObject *v, PyObject *x, gc_chain *rc, gc_trailer *rt)
{
    PyObject *val = PyObject_GetItem(v, x);
    if (val && PyUnicode_Check(x)) {
        Py_ssize_t sz;
        const char *s = PyUnicode_AsUTF8AndSize(x, &sz);
        if (s && sz <= GC_MAX_STR && gc_chain_intern(rc, s, (size_t)sz, &rt->s) == 0)
            rt->kind = GC_T_ITEM_STR;
        PyErr_Clear();
    } else if (val && PyLong_CheckExact(x)) {
        long kv = PyLong_AsLong(x);
        if (!PyErr_Occurred() && kv > -GC_MAX_INT && kv < GC_MAX_INT) {
            rt->kind = GC_T_ITEM_INT;
            rt->k = kv;
        }
        PyErr_Clear();
    }
    return val;
}

/* items[idx] resolved as [@name] into rt (interned in rc), when a name picks that very
 * element first: 1, else 0 (rt untouched).  [@name] is the portable form: a list like
 * __subclasses__() is ordered differently by every Python version and by what a process
 * imported before. */
static int named_element(PyObject *items, Py_ssize_t idx, gc_chain *rc, gc_trailer *rt)
{
    PyObject *val = PyList_GET_ITEM(items, idx);
    char buf[GC_MAX_NAME + 1];
    int dotted = 0;
    int named = name_of(val, 0, buf, sizeof buf);
    if (!named && name_of(val, 1, buf, sizeof buf) && strchr(buf, '.'))
        named = dotted = 1; /* [@A.B] replays by __qualname__ */
    if (!named)
        return 0;
    size_t blen = strlen(buf);
    /* a stale copy's class (stale_copy) is passed over by [@name]; one named is its
     * counterpart there, the one a host has */
    for (Py_ssize_t i = 0; i < idx; i++)
        if (name_is(PyList_GET_ITEM(items, i), dotted, buf, blen) && !stale_copy(PyList_GET_ITEM(items, i)))
            return 0;
    if (gc_chain_intern(rc, buf, blen, &rt->s) != 0)
        return 0;
    rt->kind = GC_T_NAMED;
    return 1;
}

/* The k-th item; fills the resolved trailer with the most readable form that denotes the
 * same value again: ['key'] / [int] for mappings and sequences, [@name] for a uniquely
 * first-named element, [#k] otherwise. */
static PyObject *nth_item(PyObject *v, long k, gc_chain *rc, gc_trailer *rt)
{
    if (PyDict_CheckExact(v) && PyDict_GET_SIZE(v) > 0 && PyDict_GET_SIZE(v) <= GC_MAX_WALK) {
        /* an exact dict's K-th key as walk() lists them, found in place: no list of its keys
         * made (a module namespace of hundreds, for every [#K] on one) */
        Py_ssize_t idx = (Py_ssize_t)(k % PyDict_GET_SIZE(v)), pos = 0;
        PyObject *x = NULL, *ignored;
        for (Py_ssize_t i = 0; PyDict_Next(v, &pos, &x, &ignored) && i < idx; i++)
            ;
        Py_INCREF(x); /* looking it up may run a key's __eq__ */
        PyObject *val = keyed_item(v, x, rc, rt);
        Py_DECREF(x);
        return val;
    }
    int mapping;
    PyObject *items = walk(v, GC_MAX_WALK, &mapping);
    if (!items)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(items);
    if (n == 0) {
        Py_DECREF(items);
        PyErr_SetString(PyExc_IndexError, "nothing to walk");
        return NULL;
    }
    Py_ssize_t idx = (Py_ssize_t)(k % n);
    PyObject *x = PyList_GET_ITEM(items, idx);
    PyObject *val;
    if (mapping) {
        val = keyed_item(v, x, rc, rt);
    } else {
        val = x;
        Py_INCREF(val);
        if (!named_element(items, idx, rc, rt) && (PyList_Check(v) || PyTuple_Check(v))) {
            rt->kind = GC_T_ITEM_INT;
            rt->k = (long)idx;
        }
    }
    Py_DECREF(items);
    return val;
}

/* The call's arguments: its literals, and for '_' 'prev' (the previous statement's value). */
static PyObject *build_args(const gc_chain *c, const gc_trailer *t, PyObject *prev)
{
    PyObject *a = PyTuple_New(t->nargs);
    for (int i = 0; a && i < t->nargs; i++) {
        const gc_arg *g = &t->args[i];
        PyObject *x = NULL;
        switch (g->kind) {
        case GC_ARG_STR: x = PyUnicode_DecodeUTF8(gc_chain_str(c, g->s), g->s.len, "strict"); break;
        case GC_ARG_INT: x = PyLong_FromLong(g->ival); break;
        case GC_ARG_NONE: x = Py_None; Py_INCREF(x); break;
        case GC_ARG_TRUE: x = Py_True; Py_INCREF(x); break;
        case GC_ARG_FALSE: x = Py_False; Py_INCREF(x); break;
        case GC_ARG_PREV: x = prev; Py_INCREF(x); break;
        }
        if (!x) {
            Py_DECREF(a);
            return NULL;
        }
        PyTuple_SET_ITEM(a, i, x);
    }
    return a;
}

/* snprintf("%.*s") without the formatting machinery (a few per step) */
static void copy_name(char *dst, size_t cap, const char *src, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void step(gc_evaluator *ev, gc_outcome *out, int si, int ti, PyObject *value, const char *error)
{
    out->steps++;
    if (!value)
        out->failed_steps++;
    if (ev->cb) {
        gc_step_info info = {si, ti, value, error, &out->resolved, ev->ns};
        ev->cb(ev->cb_ctx, &info);
    }
}

/* Reach oracle on a step's value; returns 1 if it is an escape. */
static int reach_check(PyObject *v, gc_outcome *out, int si, int ti)
{
    if (gc_orc.escape.set) {
        out->esc_stmt = si;
        out->esc_trailer = ti;
        return 1;
    }
    if (gc_orc.mode != GC_MODE_REACH)
        return 0;
    const gc_prim *p = gc_oracle_lookup(v);
    if (!p || p->spec->cap == GC_CAP_HARNESS || !gc_policy_forbids(&gc_orc.policy, p->spec->cap))
        return 0;
    gc_oracle_set_escape(GC_KIND_REACH, p->spec->cap, p->name, "");
    out->esc_stmt = si;
    out->esc_trailer = ti;
    return 1;
}

/* One statement's run: what its trailers share (no allocation: it lives on the stack). */
typedef struct {
    gc_evaluator *ev;
    const gc_chain *c;
    gc_outcome *out;
    PyObject *prev;    /* borrowed: the previous statement's value (None if none), '_' */
    unsigned prev_br;  /* its bridges, which '_' carries on */
    unsigned br;       /* bridges crossed by the statement so far */
    const char *why;   /* why the current step failed, when known */
    char whybuf[160];
} stmt_run;

static void outcome_begin(gc_outcome *out, const gc_chain *c)
{
    gc_chain_copy(&out->resolved, c);
    out->escaped = 0;
    out->bridges = 0;
    out->signature[0] = '\0';
    out->steps = out->failed_steps = 0;
    out->known_hang = 0;
    out->refused[0] = '\0';
    memset(out->stmt_failed, 0, sizeof out->stmt_failed);
    out->state_repairs = out->thread_stopped = 0;
    out->state_note[0] = '\0';
    out->esc_stmt = out->esc_trailer = -1;
}

/* .name */
static PyObject *trailer_attr(stmt_run *s, PyObject *v, const gc_trailer *t)
{
    PyObject *r = NULL;
    PyObject *name = PyUnicode_DecodeUTF8(gc_chain_str(s->c, t->s), t->s.len, "strict");
    /* No one reads why a step failed while fuzzing: a missing attribute is then
     * looked up without making the AttributeError and its message (the most
     * common failed step; the same lookup, the same __getattr__ calls). */
    if (name && !gc_eval_step_errors) {
        if (PyObject_GetOptionalAttr(v, name, &r) == 0)
            s->why = "no such attribute";
    } else {
        r = name ? PyObject_GetAttr(v, name) : NULL;
    }
    Py_XDECREF(name);
    char nb[GC_MAX_NAME + 1];
    copy_name(nb, sizeof nb, gc_chain_str(s->c, t->s), t->s.len);
    if (r)
        s->br |= gc_bridge_attr(v, nb, r);
    return r;
}

/* .#K: the K-th name of dir(v), resolved to .name */
static PyObject *trailer_dir(stmt_run *s, PyObject *v, const gc_trailer *t, gc_trailer *rt)
{
    PyObject *r = NULL;
    PyObject *names = dir_of(v);
    if (names && PyList_Check(names) && PyList_GET_SIZE(names) > 0) {
        PyObject *name = PyList_GET_ITEM(names, t->k % PyList_GET_SIZE(names));
        Py_ssize_t sz;
        const char *str = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &sz) : NULL;
        if (str && is_identifier(str, sz, 0)) {
            r = PyObject_GetAttr(v, name);
            if (r) {
                if (gc_chain_intern(&s->out->resolved, str, (size_t)sz, &rt->s) == 0)
                    rt->kind = GC_T_ATTR; /* else it stays .#K, which replays too */
                s->br |= gc_bridge_attr(v, str, r);
            }
        } else if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_AttributeError, "dir() name is not an identifier");
        }
    } else if (names && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_AttributeError, "dir() is empty");
    }
    Py_XDECREF(names);
    return r;
}

/* ['key'] and [int] */
static PyObject *trailer_item(stmt_run *s, PyObject *v, const gc_trailer *t)
{
    PyObject *key = t->kind == GC_T_ITEM_STR ? PyUnicode_DecodeUTF8(gc_chain_str(s->c, t->s), t->s.len, "strict")
                                             : PyLong_FromLong(t->k);
    PyObject *r = key ? PyObject_GetItem(v, key) : NULL;
    Py_XDECREF(key);
    return r;
}

/* (args): through the trampoline, unless the harness refuses; a raise yields its exception */
static PyObject *trailer_call(stmt_run *s, PyObject *v, const gc_trailer *t)
{
    const char *no = gc_oracle_refuse_call(v);
    PyObject *args = no ? NULL : build_args(s->c, t, s->prev);
    if (args && (no = refused_state_of_type(v, args)))
        Py_CLEAR(args);
    if (no) {
        gc_oracle_set_refused(no);
        snprintf(s->whybuf, sizeof s->whybuf, "refused by the harness: %s", no);
        s->why = s->whybuf;
        return NULL;
    }
    gc_evaluator *ev = s->ev;
    PyObject *pair = args ? PyTuple_Pack(2, v, args) : NULL;
    Py_XDECREF(args);
    if (!ev->tramp)
        ev->tramp = PyFunction_New(tramp_code, ev->ns);
    unsigned long frames = gc_state_frames();
    PyObject *r = pair && ev->tramp ? PyObject_Call(ev->tramp, pair, NULL) : NULL;
    if (gc_state_frames() == frames + 1 && only_reads(v))
        gc_state_frames_harmless(1); /* the trampoline's, and the reader ran no code */
    Py_XDECREF(pair);
    for (int i = 0; i < t->nargs; i++)
        if (t->args[i].kind == GC_ARG_PREV)
            s->br |= s->prev_br; /* the value passed on brings the hops that reached it */
    if (!r && !gc_orc.escape.set) {
        r = gc_exception_value(); /* a call that raises yields its exception */
        s->br |= gc_bridge_call(v, r, 1);
    } else if (r) {
        s->br |= gc_bridge_call(v, r, 0);
    }
    return r;
}

/* One trailer applied to v (borrowed): the step's value (new reference) or NULL, its
 * bridges added to s->br, its feedback given. */
static PyObject *eval_trailer(stmt_run *s, PyObject *v, const gc_trailer *t, gc_trailer *rt)
{
    PyObject *r = NULL;
    s->why = NULL;
    switch (t->kind) {
    case GC_T_ATTR: r = trailer_attr(s, v, t); break;
    case GC_T_DIR: r = trailer_dir(s, v, t, rt); break;
    case GC_T_ITEM_STR: r = trailer_item(s, v, t); break;
    case GC_T_ITEM_INT:
        r = trailer_item(s, v, t);
        /* a class picked out of a list by position ([-1] of __subclasses__()): resolved by
         * its name, as [#K] is, for its position is this process's */
        if (r && PyType_Check(r) && PyList_CheckExact(v)) {
            Py_ssize_t n = PyList_GET_SIZE(v), idx = t->k < 0 ? n + t->k : t->k;
            if (idx >= 0 && idx < n && PyList_GET_ITEM(v, idx) == r)
                named_element(v, idx, &s->out->resolved, rt);
        }
        break;
    case GC_T_NTH: r = nth_item(v, t->k, &s->out->resolved, rt); break;
    case GC_T_NAMED: r = find_named(v, gc_chain_str(s->c, t->s), t->s.len); break;
    case GC_T_CALL: r = trailer_call(s, v, t); break;
    }
    if (!r && !s->why && s->ev->cb && gc_eval_step_errors) {
        gc_interp_error_line(s->whybuf, sizeof s->whybuf);
        s->why = s->whybuf;
    }
    PyErr_Clear();
    if (r && (t->kind == GC_T_ITEM_STR || t->kind == GC_T_ITEM_INT || t->kind == GC_T_NTH ||
              t->kind == GC_T_NAMED))
        s->br |= gc_bridge_item(s->ev->ns, v);
    if (r) {
        char nb[GC_MAX_NAME + 1];
        int named = rt->kind == GC_T_ATTR || rt->kind == GC_T_ITEM_STR || rt->kind == GC_T_NAMED;
        if (named)
            copy_name(nb, sizeof nb, gc_chain_str(&s->out->resolved, rt->s), rt->s.len);
        gc_feedback_step(v, (int)t->kind + 1, named ? nb : NULL, r);
    }
    return r;
}

/* The statement's root: the previous statement's value for '_' (its bridges carried on),
 * else a name of the namespace.  New reference, or NULL. */
static PyObject *eval_root(stmt_run *s, const gc_stmt *st)
{
    PyObject *v;
    if (st->is_prev) {
        v = s->prev;
        Py_INCREF(v);
        s->br |= s->prev_br;
    } else {
        PyObject *key = PyUnicode_DecodeUTF8(gc_chain_str(s->c, st->root), st->root.len, "strict");
        v = key ? PyDict_GetItemWithError(s->ev->ns, key) : NULL; /* __builtins__ is always there */
        Py_XINCREF(v);
        Py_XDECREF(key);
        PyErr_Clear();
        if (st->root.len == 12 && memcmp(gc_chain_str(s->c, st->root), "__builtins__", 12) == 0)
            s->br |= GC_BR_BUILTINS;
    }
    return v;
}

/* The time limit's mark of step (si, ti): see gc_limit_mark. */
#define STEP_MARK(si, ti) ((si) * (GC_MAX_TRAILERS + 1) + (ti) + 1)

/* Statement si: its root, then its trailers while each yields a value, the oracles checked
 * after every step.  Returns the statement's value (new reference; NULL when a step
 * failed); sets out->escaped when a step escaped. */
static PyObject *eval_stmt(stmt_run *s, int si)
{
    gc_outcome *out = s->out;
    const gc_stmt *st = &s->c->s[si];
    if (gc_eval_may_run && !gc_eval_may_run(si, -1)) {
        out->known_hang = 1;
        return NULL;
    }
    gc_limit_set_mark(STEP_MARK(si, -1));
    PyObject *v = eval_root(s, st);
    step(s->ev, out, si, -1, v, v ? NULL : "no such root in the namespace");
    if (v) {
        char rn[GC_MAX_NAME + 1];
        copy_name(rn, sizeof rn, gc_chain_str(s->c, st->root), st->root.len);
        gc_feedback_step(NULL, 0, st->is_prev ? "_" : rn, v);
    }
    if (v && reach_check(v, out, si, -1)) {
        out->escaped = 1;
        return v;
    }
    for (int ti = 0; v && ti < st->ntrailers && !gc_limit_expired && !gc_limit_oom; ti++) {
        if (gc_eval_may_run && !gc_eval_may_run(si, ti)) {
            out->known_hang = 1;
            break;
        }
        gc_limit_set_mark(STEP_MARK(si, ti));
        PyObject *r = eval_trailer(s, v, &st->t[ti], &out->resolved.s[si].t[ti]);
        Py_DECREF(v);
        v = r;
        gc_confine_judge(); /* a write the kernel refused during the step */
        step(s->ev, out, si, ti, v, s->why);
        if (gc_orc.escape.set || (v && reach_check(v, out, si, ti))) {
            out->escaped = 1;
            out->esc_stmt = si;
            out->esc_trailer = ti;
            break;
        }
    }
    return v;
}

/* The escape's signature: kind, capability, primitive and the bridges crossed. */
static void outcome_escape(gc_outcome *out)
{
    out->escaped = 1;
    out->escape = gc_orc.escape;
    char shape[160];
    gc_bridges_format(out->bridges, shape, sizeof shape);
    snprintf(out->signature, sizeof out->signature, "%s:%s:%s:%s", gc_kind_name(out->escape.kind),
             gc_cap_name(out->escape.cap), out->escape.primitive, shape);
}

/* What the statement that ran last ended on, kept for gc_input_more when the evaluator asks
 * (ev->keep): only a value it gave back, not a failed step's None or an escape's. */
static void keep_or_drop(gc_evaluator *ev, gc_outcome *out, PyObject *v, unsigned br, int ok)
{
    if (ev->keep && ok && v && !out->escaped && !out->known_hang && !gc_limit_expired && !gc_limit_oom)
        ev->kept = v, ev->kept_br = br;
    else
        Py_XDECREF(v);
}

int gc_eval_chain(gc_evaluator *ev, const gc_chain *c, gc_outcome *out)
{
    outcome_begin(out, c);
    gc_oracle_reset_input();
    PyObject *prev = Py_None;
    Py_INCREF(prev);
    unsigned prev_br = 0; /* the bridges of the statement before, which '_' continues */
    int ran = 0;          /* statements that ran to their end */
    gc_orc.in_chain = 1;
    for (int si = 0; si < c->nstmts && !out->escaped && !out->known_hang && !gc_limit_expired && !gc_limit_oom; si++) {
        stmt_run s; /* whybuf is written before it is read: not cleared per statement */
        s.ev = ev, s.c = c, s.out = out, s.prev = prev, s.prev_br = prev_br, s.br = 0, s.why = NULL;
        PyObject *v = eval_stmt(&s, si);
        prev_br = s.br;
        out->stmt_failed[si] = v == NULL;
        if (out->escaped) {
            out->bridges = s.br;
            Py_XDECREF(v);
            break;
        }
        ran += v != NULL;
        Py_DECREF(prev);
        prev = v ? v : (Py_INCREF(Py_None), Py_None);
    }
    gc_orc.in_chain = 0;
    gc_limit_set_mark(-1);
    gc_confine_judge();
    keep_or_drop(ev, out, prev, prev_br, ran == c->nstmts && c->nstmts > 0);
    if (gc_orc.escape.set)
        outcome_escape(out);
    snprintf(out->refused, sizeof out->refused, "%s", gc_orc.refused);
    return 0;
}

int gc_eval_collect_first;
int (*gc_eval_may_run)(int stmt, int trailer);
int gc_eval_step_errors = 1;

/* An input's window opens: its namespace (cached while nothing could have changed it), the
 * state check's and the time limit's start. */
static int window_open(gc_target *t, gc_evaluator *ev, gc_step_cb cb, void *ctx, char *err, size_t errlen)
{
    PyObject *ns = gc_nscache_get(t, err, errlen);
    if (!ns)
        return GC_EXIT_TARGET;
    *ev = (gc_evaluator){ns, NULL, cb, ctx, 0, NULL, 0};
    gc_state_begin();
    gc_limits_arm();
    if (gc_eval_collect_first) { /* inside the input's window: what finalizers change is repaired */
        gc_eval_collect_first = 0;
        PyGC_Collect();
        PyErr_Clear();
    }
    return 0;
}

/* The time limit's end, and where it stopped the input if it did. */
static void limits_done(gc_outcome *out)
{
    gc_limits_disarm();
    out->timed_out = gc_limit_expired || out->known_hang;
    out->oom = gc_limit_oom;
    int mark = gc_limit_mark_at_deadline();
    out->stop_stmt = mark < 0 ? -1 : mark / (GC_MAX_TRAILERS + 1);
    out->stop_trailer = mark < 0 ? -1 : mark % (GC_MAX_TRAILERS + 1) - 1;
}

/* The window closes: what the input held is let go, then the state is checked and repaired. */
static int window_close(gc_evaluator *ev, gc_outcome *out, char *err, size_t errlen)
{
    Py_CLEAR(ev->kept);
    Py_CLEAR(ev->tramp);
    Py_CLEAR(ev->ns);
    int rep = gc_state_end(out->state_note, sizeof out->state_note);
    if (rep < 0) {
        snprintf(err, errlen, "interpreter state could not be restored after the input: %s", out->state_note);
        return GC_EXIT_HARNESS;
    }
    if (gc_state_code_ran()) /* reads of C objects change nothing the cache watches */
        gc_nscache_after();
    out->state_repairs = rep;
    out->thread_stopped = gc_state_threads_stopped();
    return 0;
}

int gc_run_input(gc_target *t, const gc_chain *c, gc_outcome *out, gc_step_cb cb, void *ctx,
                 char *err, size_t errlen)
{
    gc_evaluator ev;
    int rc = window_open(t, &ev, cb, ctx, err, errlen);
    if (rc)
        return rc;
    gc_eval_chain(&ev, c, out);
    limits_done(out);
    return window_close(&ev, out, err, errlen);
}

int gc_input_open(gc_target *t, const gc_chain *c, gc_outcome *out, gc_step_cb cb, gc_open_input *o,
                  char *err, size_t errlen)
{
    int rc = window_open(t, &o->ev, cb, NULL, err, errlen);
    if (rc)
        return rc;
    o->open = 1;
    o->ev.keep = 1;
    gc_eval_chain(&o->ev, c, out);
    limits_done(out);
    return 0;
}

int gc_input_more(gc_open_input *o, const gc_chain *c, int again, gc_outcome *out, gc_step_cb cb)
{
    int si = c->nstmts - 1, ti = si >= 0 ? c->s[si].ntrailers - 1 : -1;
    if (!o->open || !o->ev.kept || si < 0 || (!again && (ti < 0 || gc_trailer_prev_args(&c->s[si].t[ti]))))
        return -1;
    o->ev.cb = cb;
    outcome_begin(out, c);
    gc_oracle_reset_input();
    gc_limits_arm();
    gc_orc.in_chain = 1;
    PyObject *v = o->ev.kept, *r = NULL;
    o->ev.kept = NULL;
    stmt_run s = {&o->ev, c, out, Py_None, 0, o->ev.kept_br, NULL, {0}};
    if (again) { /* the chain that ran: its last step's value shown again */
        r = v, v = NULL;
        step(&o->ev, out, si, ti, r, NULL);
    } else if (gc_eval_may_run && !gc_eval_may_run(si, ti)) {
        out->known_hang = 1;
    } else {
        gc_limit_set_mark(STEP_MARK(si, ti));
        r = eval_trailer(&s, v, &c->s[si].t[ti], &out->resolved.s[si].t[ti]);
        gc_confine_judge();
        step(&o->ev, out, si, ti, r, s.why);
    }
    Py_XDECREF(v);
    out->escaped = gc_orc.escape.set || (r && !again && reach_check(r, out, si, ti));
    out->bridges = s.br;
    out->stmt_failed[si] = r == NULL;
    gc_orc.in_chain = 0;
    gc_limit_set_mark(-1);
    gc_confine_judge();
    keep_or_drop(&o->ev, out, r, s.br, 1);
    if (gc_orc.escape.set)
        outcome_escape(out);
    limits_done(out);
    return 0;
}

int gc_input_close(gc_open_input *o, char *err, size_t errlen)
{
    static gc_outcome scratch; /* the repairs' count and note: no one asks */
    if (!o->open)
        return 0;
    o->open = 0;
    return window_close(&o->ev, &scratch, err, errlen);
}

void gc_outcome_escape_chain(const gc_outcome *o, gc_chain *out)
{
    const gc_chain *c = &o->resolved;
    int last = o->esc_stmt >= 0 ? o->esc_stmt : c->nstmts - 1;
    int first = last;
    /* not past a statement that failed: its '_' was None, which a first statement's is too */
    while (first > 0 && !o->stmt_failed[first - 1] &&
           gc_stmt_uses_prev(&c->s[first], first == last && o->esc_stmt >= 0 ? o->esc_trailer + 1 : -1))
        first--;
    *out = *c; /* same arena: strings stay valid */
    out->nstmts = 0;
    for (int i = first; i <= last; i++) {
        gc_stmt st = c->s[i];
        if (i == last && o->esc_stmt >= 0)
            st.ntrailers = o->esc_trailer + 1;
        gc_stmt *prev = out->nstmts ? &out->s[out->nstmts - 1] : NULL;
        /* not when st passes '_' on: in the folded statement it would be another value */
        if (st.is_prev && prev && !o->stmt_failed[i - 1] && gc_stmt_prev_args(&st, -1) == 0 &&
            prev->ntrailers + st.ntrailers <= GC_MAX_TRAILERS) {
            for (int j = 0; j < st.ntrailers; j++)
                prev->t[prev->ntrailers++] = st.t[j];
            continue;
        }
        out->s[out->nstmts++] = st;
    }
}

void gc_outcome_ran_chain(const gc_outcome *o, gc_chain *out)
{
    *out = o->resolved;
    if (o->esc_stmt < 0)
        return;
    out->nstmts = o->esc_stmt + 1;
    out->s[o->esc_stmt].ntrailers = o->esc_trailer + 1;
}

void gc_escape_chain_text(const gc_outcome *o, gc_strbuf *out)
{
    static gc_chain trimmed;
    gc_outcome_escape_chain(o, &trimmed);
    gc_chain_print_oneline(&trimmed, out);
}

void gc_escape_line(const gc_target *t, const gc_outcome *o, gc_strbuf *out)
{
    (void)t;
    gc_strbuf chain;
    gc_sb_init(&chain);
    gc_escape_chain_text(o, &chain);
    gc_escape_text(&o->verdict, chain.data, out);
    gc_sb_free(&chain);
}

cJSON *gc_escape_json_object(const gc_target *t, const gc_outcome *o, const char *hole)
{
    gc_strbuf chain;
    gc_sb_init(&chain);
    gc_escape_chain_text(o, &chain);
    static gc_chain trimmed;
    gc_outcome_escape_chain(o, &trimmed);
    cJSON *j = gc_escape_object(t, &o->verdict, chain.data, gc_chain_trailer_count(&trimmed), hole);
    gc_sb_free(&chain);
    return j;
}

void gc_escape_json(const gc_target *t, const gc_outcome *o, gc_strbuf *out)
{
    cJSON *j = gc_escape_json_object(t, o, "");
    gc_json_line(j, out);
    cJSON_Delete(j);
}
