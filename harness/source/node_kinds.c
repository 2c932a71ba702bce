/* node_kinds.c — see node_kinds.h. */
#include "node_kinds.h"

#include <stdio.h>
#include <string.h>

#include "dialect.h"

typedef struct {
    const char *kind; /* the node kind and where it stands */
    const char *stmt; /* the program in a statement dialect */
    const char *expr; /* in the expression dialect, or NULL: the kind is no expression */
    int underscore;   /* the program names an '_' name: not written in the no-underscore dialect */
} node_row;

static const node_row rows[] = {
    {"Import", "import sys\nresult = 1", NULL, 0},
    {"Import in If", "if True:\n    import sys\nresult = 1", NULL, 0},
    {"Import in FunctionDef", "def f():\n    import sys\n    return 1\nresult = f()", NULL, 0},
    {"ImportFrom", "from sys import path\nresult = 1", NULL, 0},
    {"ImportFrom in If", "if True:\n    from sys import path\nresult = 1", NULL, 0},
    {"FunctionDef", "def f():\n    return 1\nresult = f()", NULL, 0},
    {"Lambda with default", "result = (lambda a=1: a)()", "(lambda a=1: a)()", 0},
    {"decorator", "def d(f):\n    return f\n@d\ndef g():\n    return 1\nresult = g()", NULL, 0},
    {"ClassDef", "class C:\n    pass\nresult = 1", NULL, 0},
    {"ClassDef with a dunder method", "class C:\n    def __repr__(self):\n        return 'c'\nresult = 1", NULL, 1},
    {"Attribute store", "def f():\n    return 1\nf.a = 1\nresult = f.a", NULL, 0},
    {"Subscript store", "d = {}\nd['a'] = 1\nresult = d['a']", NULL, 0},
    {"Delete", "d = {'a': 1}\ndel d['a']\nresult = d", NULL, 0},
    {"Global", "def f():\n    global g\n    g = 1\nf()\nresult = g", NULL, 0},
    {"While", "n = 0\nwhile n < 2:\n    n += 1\nresult = n", NULL, 0},
    {"Try", "try:\n    result = 1\nexcept Exception as e:\n    result = 2", NULL, 0},
    {"MatchValue", "match 1:\n    case 1:\n        result = 1\n    case other:\n        result = other", NULL, 0},
    {"MatchClass with keywords", "match 1:\n    case bool(real=r):\n        result = r\n    case other:\n        result = other",
     NULL, 0},
    {"Yield", "def g():\n    yield 1\nresult = [x for x in g()]", NULL, 0},
    {"AsyncFunctionDef", "async def f():\n    return 1\nresult = 1", NULL, 0},
    {"Call with keyword", "result = '{x}'.format(x=1)", "'{x}'.format(x=1)", 0},
    {"Call with starred", "result = '{}{}'.format(*[1, 2])", "'{}{}'.format(*[1, 2])", 0},
    {"JoinedStr (f-string)", "result = f'{1}'", "f'{1}'", 0},
    {"GeneratorExp", "result = [y for y in (x for x in [1])]", "[y for y in (x for x in [1])]", 0},
    {"ListComp", "result = [x for x in [1]]", "[x for x in [1]]", 0},
    {"NamedExpr (walrus)", "result = (y := 1)", "(y := 1)", 0},
    {"Starred", "result = [*[1], 2]", "[*[1], 2]", 0},
    {"IfExp", "result = 1 if True else 2", "1 if True else 2", 0},
    {"Constant naming a dunder", "result = '__class__'", "'__class__'", 0},
    {"Attribute, dunder", "result = (1).__class__", "(1).__class__", 1},
};
#define NROWS (sizeof rows / sizeof rows[0])

int gc_node_kinds_probe(gc_target *t, gc_strbuf *out, gc_node_kinds_report *r, char *err, size_t errlen)
{
    unsigned d = t->spec.adapter.dialect;
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < NROWS; i++) {
        const char *src = d & GC_DIALECT_EXPRESSION ? rows[i].expr : rows[i].stmt;
        if (!src || ((d & GC_DIALECT_NO_UNDERSCORE) && rows[i].underscore)) {
            gc_sb_printf(out, "node %-30s not in this dialect\n", rows[i].kind);
            r->skipped++;
            continue;
        }
        gc_verdict v;
        char note[256];
        int rc = gc_source_run(t, src, strlen(src), &v, note, sizeof note, err, errlen);
        if (rc)
            return rc;
        int refused = strncmp(note, "refused by the sandbox", 22) == 0;
        gc_sb_printf(out, "node %-30s %s (%s)\n", rows[i].kind, refused ? "refused" : "runs", note);
        r->refused += refused;
        r->runs += !refused;
    }
    return 0;
}

/* ---- the tally while fuzzing ---- */

int gc_node_tally_init(gc_node_tally *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    PyObject *ast = PyImport_ImportModule("ast");
    t->parse = ast ? PyObject_GetAttrString(ast, "parse") : NULL;
    t->walk = ast ? PyObject_GetAttrString(ast, "walk") : NULL;
    t->seen = PySet_New(NULL);
    t->accepted = PySet_New(NULL);
    Py_XDECREF(ast);
    if (!t->parse || !t->walk || !t->seen || !t->accepted) {
        PyErr_Clear();
        snprintf(err, errlen, "the ast module's parse and walk are not available for the node-kind tally");
        gc_node_tally_free(t);
        return -1;
    }
    return 0;
}

void gc_node_tally_add(gc_node_tally *t, const char *src, size_t len, int expression, int refused)
{
    if (!t->parse)
        return;
    PyObject *text = PyUnicode_DecodeUTF8(src, (Py_ssize_t)len, "replace");
    PyObject *tree = text ? PyObject_CallFunction(t->parse, "Oss", text, "<program>", expression ? "eval" : "exec") : NULL;
    PyObject *nodes = tree ? PyObject_CallOneArg(t->walk, tree) : NULL;
    PyObject *it = nodes ? PyObject_GetIter(nodes) : NULL, *node;
    while (it && (node = PyIter_Next(it))) {
        const char *kind = Py_TYPE(node)->tp_name; /* an expression's context is no kind of its own */
        PyObject *name = strcmp(kind, "Load") && strcmp(kind, "Store") && strcmp(kind, "Del") ? PyUnicode_FromString(kind) : NULL;
        if (name && (PySet_Add(t->seen, name) < 0 || (!refused && PySet_Add(t->accepted, name) < 0)))
            PyErr_Clear();
        Py_XDECREF(name);
        Py_DECREF(node);
    }
    Py_XDECREF(it);
    Py_XDECREF(nodes);
    Py_XDECREF(tree);
    Py_XDECREF(text);
    PyErr_Clear();
}

Py_ssize_t gc_node_tally_never(const gc_node_tally *t, gc_strbuf *out)
{
    if (!t->seen)
        return 0;
    PyObject *never = PyNumber_Subtract(t->seen, t->accepted);
    PyObject *sorted = never ? PySequence_List(never) : NULL;
    if (sorted && PyList_Sort(sorted) == 0)
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(sorted); i++)
            gc_sb_printf(out, "%s%s", i ? ", " : "", PyUnicode_AsUTF8(PyList_GET_ITEM(sorted, i)));
    Py_XDECREF(sorted);
    Py_XDECREF(never);
    PyErr_Clear();
    return PySet_GET_SIZE(t->seen);
}

void gc_node_tally_free(gc_node_tally *t)
{
    Py_CLEAR(t->parse);
    Py_CLEAR(t->walk);
    Py_CLEAR(t->seen);
    Py_CLEAR(t->accepted);
}
