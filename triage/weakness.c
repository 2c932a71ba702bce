/* weakness.c — see weakness.h.  The program's syntax tree is walked breadth first (ast.walk:
 * outer nodes before inner ones); the first rule of the table that some node marks names the
 * weakness.  A node marks a rule when it is an attribute `.k`, a call of `k(...)` or
 * `x.k(...)`, or getattr(x, 'k'), for a key k of the rule; a rule with 'reads' also needs an
 * except block and an attribute read of one of those keys (what an exception carries back).
 * The root: the name the marked node's walk starts from (a call's first argument that is no
 * literal, an attribute's object), inwards through attributes, items, calls and displays,
 * and from a name the program assigned to what it was assigned from; with no rule marked,
 * the root of the last statement's expression. */
#include "weakness.h"

#include <Python.h>
#include <stdio.h>
#include <string.h>

/* The one table, in the order tried: pattern -> weakness -> the check it passes. */
typedef struct {
    const char *keys;  /* "|a|b|": attribute or called names that mark it */
    const char *reads; /* "|a|b|": with an except block, also one of these read; NULL: not needed */
    const char *name, *check;
} rule;

#define FORMAT_KEYS "|format|format_map|get_field|vformat|get_value|"
static const rule rules[] = {
    {FORMAT_KEYS, "|obj|__context__|value|args|name|", "format walk, read back through an exception",
     "the walk is a format field's path ('{0.a.b}'), resolved by str.format in the host where the sandbox's "
     "attribute check never runs, and the object it stops at comes back in the exception (AttributeError.obj, "
     "__context__, .value)"},
    {FORMAT_KEYS, NULL, "format walk",
     "the walk is a format field's path ('{0.a.b}', format_map, Formatter.get_field), resolved in the host "
     "where the sandbox's attribute check never runs, and given back as the string or the field's value"},
    {"|gi_frame|cr_frame|ag_frame|tb_frame|f_back|f_globals|f_builtins|f_locals|", NULL, "frame walk",
     "the check lets frame attributes through: a generator's, coroutine's or traceback's frame gives the "
     "globals and builtins of code the sandbox did not write"},
    {"|__subclasses__|__mro__|__bases__|__base__|", NULL, "class walk",
     "the check lets a type's dunder attributes through: from any object the walk reaches every class the "
     "interpreter loaded"},
    {"|__globals__|__builtins__|__closure__|", NULL, "function's globals",
     "the check lets a function's __globals__, __builtins__ or __closure__ through: a function the sandbox "
     "hands out carries its module's globals"},
    {"|getattr|__import__|import_module|vars|modules|", NULL, "resolver handed out",
     "the sandbox hands out a resolver (getattr, __import__, import_module, vars, sys.modules) that looks up "
     "names its check never sees"},
};
static const rule direct = {NULL, NULL, "handed out directly",
                            "no check is passed: the sandbox's namespace holds the object, or an attribute of it "
                            "leads out"};


int gc_ast_isa(PyObject *ast, PyObject *node, const char *cls)
{
    PyObject *c = PyObject_GetAttrString(ast, cls);
    int r = c ? PyObject_IsInstance(node, c) == 1 : 0;
    Py_XDECREF(c);
    PyErr_Clear();
    return r;
}

PyObject *gc_ast_field(PyObject *node, const char *name)
{
    PyObject *v = PyObject_GetAttrString(node, name);
    PyErr_Clear();
    return v;
}

/* A str field's text into out ("" when not a str). */
static void str_field(PyObject *node, const char *name, char *out, size_t len)
{
    PyObject *v = gc_ast_field(node, name);
    const char *s = v && PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
    snprintf(out, len, "%s", s ? s : "");
    Py_XDECREF(v);
    PyErr_Clear();
}

static int in_keys(const char *keys, const char *k)
{
    char pat[128];
    if (!k[0] || strlen(k) > sizeof pat - 3)
        return 0;
    snprintf(pat, sizeof pat, "|%s|", k);
    return strstr(keys, pat) != NULL;
}

/* Item i of list field 'name' (new), or NULL. */
static PyObject *item(PyObject *node, const char *name, Py_ssize_t i)
{
    PyObject *l = gc_ast_field(node, name), *v = NULL;
    if (l && PyList_Check(l) && PyList_GET_SIZE(l) > i)
        v = Py_NewRef(PyList_GET_ITEM(l, i));
    Py_XDECREF(l);
    return v;
}

/* The value assigned to name 'id' by the program's first `id = ...` (new), or NULL. */
static PyObject *assigned(PyObject *ast, PyObject *nodes, const char *id)
{
    for (Py_ssize_t i = 0; nodes && i < PyList_GET_SIZE(nodes); i++) {
        PyObject *n = PyList_GET_ITEM(nodes, i);
        PyObject *t = gc_ast_isa(ast, n, "Assign") ? item(n, "targets", 0) : NULL;
        char tid[128] = "";
        if (t && gc_ast_isa(ast, t, "Name"))
            str_field(t, "id", tid, sizeof tid);
        Py_XDECREF(t);
        if (tid[0] && strcmp(tid, id) == 0)
            return gc_ast_field(n, "value");
    }
    return NULL;
}

/* The name a walk from 'node' starts from, inwards, into out ("" when none); a name the
 * program assigned is followed to what it was assigned from (kept when that is no walk). */
static void root_of(PyObject *ast, PyObject *nodes, PyObject *node, char *out, size_t len)
{
    out[0] = '\0';
    PyObject *n = Py_XNewRef(node);
    for (int depth = 0; n && depth < 64; depth++) {
        PyObject *in = NULL;
        if (gc_ast_isa(ast, n, "Name")) {
            char id[128];
            str_field(n, "id", id, sizeof id);
            snprintf(out, len, "%s", id);
            in = assigned(ast, nodes, id);
        } else if (gc_ast_isa(ast, n, "Attribute") || gc_ast_isa(ast, n, "Subscript") || gc_ast_isa(ast, n, "Starred")) {
            in = gc_ast_field(n, "value");
        } else if (gc_ast_isa(ast, n, "Call")) {
            PyObject *f = gc_ast_field(n, "func");
            in = f && gc_ast_isa(ast, f, "Name") ? item(n, "args", 0) : NULL;
            if (!in)
                in = Py_XNewRef(f);
            Py_XDECREF(f);
        } else if (gc_ast_isa(ast, n, "List") || gc_ast_isa(ast, n, "Tuple")) {
            in = item(n, "elts", 0);
        } else if (gc_ast_isa(ast, n, "Dict")) {
            in = item(n, "values", 0);
        }
        Py_SETREF(n, in);
    }
    Py_XDECREF(n);
}

/* The key node 'n' marks (into k) and the node its root is read from (new; NULL: none). */
static PyObject *mark_of(PyObject *ast, PyObject *n, char *k, size_t len)
{
    k[0] = '\0';
    if (gc_ast_isa(ast, n, "Attribute")) {
        str_field(n, "attr", k, len);
        return gc_ast_field(n, "value");
    }
    if (!gc_ast_isa(ast, n, "Call"))
        return NULL;
    PyObject *f = gc_ast_field(n, "func"), *from = NULL;
    if (f && gc_ast_isa(ast, f, "Name")) {
        str_field(f, "id", k, len);
        PyObject *a1 = strcmp(k, "getattr") == 0 ? item(n, "args", 1) : NULL;
        if (a1 && gc_ast_isa(ast, a1, "Constant"))
            str_field(a1, "value", k, len); /* getattr(x, 'k') is x.k (a built name stays getattr) */
        Py_XDECREF(a1);
    } else if (f && gc_ast_isa(ast, f, "Attribute")) {
        str_field(f, "attr", k, len);
    }
    for (Py_ssize_t i = 0; !from; i++) { /* the first argument that is no literal */
        PyObject *a = item(n, "args", i);
        if (!a)
            break;
        if (!gc_ast_isa(ast, a, "Constant"))
            from = Py_NewRef(a);
        Py_DECREF(a);
    }
    if (!from)
        from = Py_XNewRef(f);
    Py_XDECREF(f);
    return from;
}

/* 1 when some node reads an attribute in 'reads' and the program has an except block. */
static int reads_back(PyObject *ast, PyObject *nodes, const char *reads)
{
    int handler = 0, read = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(nodes); i++) {
        PyObject *n = PyList_GET_ITEM(nodes, i);
        char k[128];
        handler |= gc_ast_isa(ast, n, "ExceptHandler");
        if (gc_ast_isa(ast, n, "Attribute")) {
            str_field(n, "attr", k, sizeof k);
            read |= in_keys(reads, k);
        }
    }
    return handler && read;
}

/* The first rule a node marks, its root into 'root'; NULL when none. */
static const rule *match(PyObject *ast, PyObject *nodes, char *root, size_t len)
{
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
        if (rules[r].reads && !reads_back(ast, nodes, rules[r].reads))
            continue;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(nodes); i++) {
            char k[128];
            PyObject *from = mark_of(ast, PyList_GET_ITEM(nodes, i), k, sizeof k);
            int hit = in_keys(rules[r].keys, k);
            if (hit)
                root_of(ast, nodes, from, root, len);
            Py_XDECREF(from);
            if (hit)
                return &rules[r];
        }
    }
    return NULL;
}

/* The syntax tree of src (new), statements first, else as one expression; NULL. */
static PyObject *parse(PyObject *ast, const char *src)
{
    PyObject *t = PyObject_CallMethod(ast, "parse", "ss", src, "<program>");
    if (!t) {
        PyErr_Clear();
        t = PyObject_CallMethod(ast, "parse", "sss", src, "<program>", "eval");
    }
    PyErr_Clear();
    return t;
}

int gc_weakness_of_program(const char *src, char *name, size_t namelen, char *check, size_t checklen, char *root,
                           size_t rootlen)
{
    name[0] = check[0] = root[0] = '\0';
    PyObject *ast = PyImport_ImportModule("ast");
    PyObject *tree = ast ? parse(ast, src) : NULL;
    PyObject *walked = tree ? PyObject_CallMethod(ast, "walk", "O", tree) : NULL;
    PyObject *nodes = walked ? PySequence_List(walked) : NULL;
    int rc = nodes ? 0 : -1;
    const rule *r = nodes ? match(ast, nodes, root, rootlen) : NULL;
    if (nodes && !r) { /* the root of the last statement's (or the expression's) value */
        PyObject *body = gc_ast_field(tree, "body"), *last = NULL;
        if (body && PyList_Check(body) && PyList_GET_SIZE(body) > 0)
            last = gc_ast_field(PyList_GET_ITEM(body, PyList_GET_SIZE(body) - 1), "value");
        else if (body && !PyList_Check(body))
            last = Py_NewRef(body);
        root_of(ast, nodes, last, root, rootlen);
        Py_XDECREF(last);
        Py_XDECREF(body);
        r = &direct;
    }
    if (r) {
        snprintf(name, namelen, "%s", r->name);
        snprintf(check, checklen, "%s", r->check);
    }
    Py_XDECREF(nodes);
    Py_XDECREF(walked);
    Py_XDECREF(tree);
    Py_XDECREF(ast);
    PyErr_Clear();
    return rc;
}
