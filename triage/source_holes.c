/* source_holes.c — see source_holes.h.  A program's walk is read with CPython's own parser
 * (ast), the language the sandbox itself parses: its final expression, from the outside
 * in, while it is an attribute, a subscript by a literal, getattr(x, 'name') or a call.
 * When the final statement's walk names no hole, the statement before it is tried, and so
 * on (an escape stopped mid-program).  What a walk does not see: the statements before it
 * (their values are only the walk's root), an expression that is a display or an operator, and the
 * steps of a format-string field walk (str.format takes them, the sandbox never returns
 * them). */
#include "source_holes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"
#include "weakness.h"

#define GC_HOLE_STATEMENTS 16 /* statements from the end whose walks may name the hole */

/* The walk: nodes[0] the final expression, nodes[k + 1] what step k (kinds[k], keys[k])
 * is taken on; the last node is its root. */
typedef struct {
    PyObject *nodes, *kinds, *keys; /* lists */
    PyObject *head;                 /* the source before the final statement */
} walk;


/* One step inwards from 'n': appends it and returns the node it is taken on (new), or NULL
 * at the root. */
static PyObject *step_in(PyObject *ast, PyObject *n, walk *w)
{
    PyObject *inner = NULL, *key = NULL;
    int kind = -1;
    if (gc_ast_isa(ast, n, "Attribute")) {
        inner = gc_ast_field(n, "value"), key = gc_ast_field(n, "attr"), kind = GC_T_ATTR;
    } else if (gc_ast_isa(ast, n, "Subscript")) {
        PyObject *sl = gc_ast_field(n, "slice");
        PyObject *c = sl && gc_ast_isa(ast, sl, "Constant") ? gc_ast_field(sl, "value") : NULL;
        if (c && (PyUnicode_Check(c) || PyLong_CheckExact(c)))
            inner = gc_ast_field(n, "value"), key = Py_NewRef(c), kind = PyUnicode_Check(c) ? GC_T_ITEM_STR : GC_T_ITEM_INT;
        Py_XDECREF(c);
        Py_XDECREF(sl);
    } else if (gc_ast_isa(ast, n, "Call")) {
        PyObject *f = gc_ast_field(n, "func"), *args = gc_ast_field(n, "args");
        PyObject *fid = f && gc_ast_isa(ast, f, "Name") ? gc_ast_field(f, "id") : NULL;
        PyObject *a1 = args && PyList_Check(args) && PyList_GET_SIZE(args) == 2 ? PyList_GET_ITEM(args, 1) : NULL;
        PyObject *c = a1 && gc_ast_isa(ast, a1, "Constant") ? gc_ast_field(a1, "value") : NULL;
        /* the dunder-call forms of an attribute (source_sweep.c writes them where the
         * dialect refuses the plain one): X.__getattribute__('n'), type.__getattribute__(C, 'n') */
        PyObject *fattr = f && gc_ast_isa(ast, f, "Attribute") ? gc_ast_field(f, "attr") : NULL;
        int dunder = fattr && PyUnicode_CompareWithASCIIString(fattr, "__getattribute__") == 0;
        PyObject *a0 = args && PyList_Check(args) && PyList_GET_SIZE(args) == 1 ? PyList_GET_ITEM(args, 0) : NULL;
        PyObject *c0 = dunder && a0 && gc_ast_isa(ast, a0, "Constant") ? gc_ast_field(a0, "value") : NULL;
        if (fid && PyUnicode_CompareWithASCIIString(fid, "getattr") == 0 && c && PyUnicode_Check(c))
            inner = Py_NewRef(PyList_GET_ITEM(args, 0)), key = Py_NewRef(c), kind = GC_T_ATTR;
        else if (c0 && PyUnicode_Check(c0))
            inner = gc_ast_field(f, "value"), key = Py_NewRef(c0), kind = GC_T_ATTR;
        else if (dunder && c && PyUnicode_Check(c))
            inner = Py_NewRef(PyList_GET_ITEM(args, 0)), key = Py_NewRef(c), kind = GC_T_ATTR;
        else if (f)
            inner = Py_NewRef(f), kind = GC_T_CALL;
        Py_XDECREF(c0);
        Py_XDECREF(fattr);
        Py_XDECREF(c);
        Py_XDECREF(fid);
        Py_XDECREF(args);
        Py_XDECREF(f);
    }
    if (inner) {
        PyObject *k = PyLong_FromLong(kind);
        PyList_Append(w->nodes, inner);
        PyList_Append(w->kinds, k);
        PyList_Append(w->keys, key ? key : Py_None);
        Py_XDECREF(k);
    }
    Py_XDECREF(key);
    PyErr_Clear();
    return inner;
}

/* Parse 'text' as the dialect reads it and take the walk of the expression of its statement
 * 'back' from the end (0: the final one; the statements after it are left out of every
 * prefix).  0, -1 when that statement has no expression, -2 when the program has no such
 * statement. */
static int read_walk(PyObject *ast, const gc_target *t, PyObject *text, Py_ssize_t back, walk *w)
{
    int expr_only = (t->spec.adapter.dialect & GC_DIALECT_EXPRESSION) != 0;
    PyObject *parse = PyObject_GetAttrString(ast, "parse"), *args = Py_BuildValue("(O)", text);
    PyObject *kw = Py_BuildValue("{ss}", "mode", expr_only ? "eval" : "exec");
    PyObject *tree = parse && args && kw ? PyObject_Call(parse, args, kw) : NULL;
    Py_XDECREF(kw);
    Py_XDECREF(args);
    Py_XDECREF(parse);
    PyObject *body = tree ? gc_ast_field(tree, "body") : NULL, *e = NULL;
    int missing = !body || (expr_only ? back > 0 : !PyList_Check(body) || PyList_GET_SIZE(body) <= back);
    w->head = PyUnicode_FromString("");
    if (missing) {
    } else if (expr_only) {
        e = Py_NewRef(body);
    } else {
        PyObject *last = PyList_GET_ITEM(body, PyList_GET_SIZE(body) - 1 - back);
        PyObject *lineno = gc_ast_field(last, "lineno");
        PyObject *lines = PyUnicode_Splitlines(text, 1);
        Py_ssize_t before = lineno ? PyLong_AsSsize_t(lineno) - 1 : 0;
        PyObject *kept = lines && before >= 0 ? PyList_GetSlice(lines, 0, before) : NULL;
        PyObject *empty = PyUnicode_FromString("");
        if (kept && empty)
            Py_XSETREF(w->head, PyUnicode_Join(empty, kept));
        if (gc_ast_isa(ast, last, "Expr") || gc_ast_isa(ast, last, "Assign"))
            e = gc_ast_field(last, "value");
        Py_XDECREF(empty);
        Py_XDECREF(kept);
        Py_XDECREF(lines);
        Py_XDECREF(lineno);
    }
    Py_XDECREF(body);
    Py_XDECREF(tree);
    PyErr_Clear();
    if (!e || !w->head)
        return (Py_XDECREF(e), missing ? -2 : -1);
    PyList_Append(w->nodes, e);
    for (PyObject *n = e, *in; (in = step_in(ast, n, w)); n = in)
        Py_DECREF(in);
    Py_DECREF(e);
    return 0;
}

/* The value the program 'head' + (result =) 'node' gives back (new), or NULL. */
static PyObject *prefix_value(PyObject *ast, gc_target *t, const walk *w, PyObject *node, int *rc, char *err,
                              size_t errlen)
{
    int expr_only = (t->spec.adapter.dialect & GC_DIALECT_EXPRESSION) != 0;
    PyObject *src = PyObject_CallMethod(ast, "unparse", "O", node);
    PyObject *prog = src ? PyUnicode_FromFormat("%U%s%U\n", w->head, expr_only ? "" : "result = ", src) : NULL;
    Py_ssize_t len;
    const char *s = prog ? PyUnicode_AsUTF8AndSize(prog, &len) : NULL;
    static gc_verdict out;
    char note[256];
    PyObject *v = NULL;
    PyErr_Clear();
    if (s)
        *rc = gc_source_run_value(t, s, (size_t)len, &out, &v, note, sizeof note, err, errlen);
    /* a step target gives back the tuple of its parts' values: the prefix is the last part */
    Py_ssize_t parts = 1;
    for (const char *m = s; m && (m = strstr(m, "\n" GC_STEP_MARKER "\n")); m++)
        parts++;
    if (v && parts > 1 && PyTuple_Check(v) && PyTuple_GET_SIZE(v) == parts)
        Py_SETREF(v, Py_NewRef(PyTuple_GET_ITEM(v, parts - 1)));
    Py_XDECREF(prog);
    Py_XDECREF(src);
    return v;
}

static void key_text(PyObject *key, char *out, size_t len)
{
    out[0] = '\0';
    if (key && PyUnicode_Check(key))
        snprintf(out, len, "%s", PyUnicode_AsUTF8(key));
    else if (key && PyLong_Check(key))
        snprintf(out, len, "%ld", PyLong_AsLong(key));
    PyErr_Clear();
}

/* f is a method bound to obj, or to an object of obj's type: each prefix is run afresh, so
 * an object the program makes (a dict, a list) is a new one in every run. */
static int bound_like(PyObject *f, PyObject *obj)
{
    if (gc_hole_bound_to(f, obj))
        return 1;
    PyObject *self = NULL;
    if (PyCFunction_Check(f))
        self = Py_XNewRef(PyCFunction_GET_SELF(f));
    else if (strcmp(Py_TYPE(f)->tp_name, "method-wrapper") == 0)
        self = PyObject_GetAttrString(f, "__self__");
    PyErr_Clear();
    int r = self && !PyModule_Check(self) && Py_TYPE(self) == Py_TYPE(obj);
    Py_XDECREF(self);
    return r;
}

/* Walk w from its root out, each prefix evaluated, folding the edges into 'name' as
 * gc_hole_of_chain does.  0 or an exit code. */
static int name_walk(PyObject *ast, gc_target *t, const walk *w, PyObject *ns, char *name, size_t namelen,
                     char *err, size_t errlen)
{
    PyObject *file = PyUnicode_DecodeFSDefault(t->spec.sandbox);
    Py_ssize_t n = PyList_GET_SIZE(w->nodes);
    PyObject *root = PyList_GET_ITEM(w->nodes, n - 1), *rid = gc_ast_isa(ast, root, "Name") ? gc_ast_field(root, "id") : NULL;
    char cur_key[GC_MAX_NAME + 24], from_key[GC_MAX_NAME + 24] = "", h[GC_HOLE_NAME];
    key_text(rid, cur_key, sizeof cur_key);
    Py_XDECREF(rid);
    int rc = 0;
    PyObject *from2 = NULL, *from = NULL, *cur = prefix_value(ast, t, w, root, &rc, err, errlen);
    char from2_key[GC_MAX_NAME + 24] = "";
    name[0] = '\0';
    if (cur)
        gc_hole_edge(ns, file, NULL, NULL, NULL, -1, cur_key, cur, name, namelen);
    for (Py_ssize_t k = n - 2; !rc && cur && k >= 0; k--) {
        char key[GC_MAX_NAME + 24];
        key_text(PyList_GET_ITEM(w->keys, k), key, sizeof key);
        int kind = (int)PyLong_AsLong(PyList_GET_ITEM(w->kinds, k));
        PyObject *dst = prefix_value(ast, t, w, PyList_GET_ITEM(w->nodes, k), &rc, err, errlen);
        /* X.m refused where X.m() is not (a sandbox that lets dunder methods be called, not
         * read): the attribute's edge out of X ends at the call's value */
        int called = !dst && !rc && kind == GC_T_ATTR && k >= 1 &&
                     PyLong_AsLong(PyList_GET_ITEM(w->kinds, k - 1)) == GC_T_CALL;
        if (called) /* the edge keeps its name (`type . __subclasses__()`), the call's value its end */
            dst = prefix_value(ast, t, w, PyList_GET_ITEM(w->nodes, --k), &rc, err, errlen);
        int bound = kind == GC_T_CALL && from && !called && bound_like(cur, from); /* X.pop(): an edge out of X */
        int r = rc      ? 0
                : bound ? gc_hole_edge(ns, file, from2, from2_key[0] ? from2_key : NULL, from,
                                       PyModule_Check(from) ? GC_T_ATTR : GC_T_ITEM_INT, "", dst, h, sizeof h)
                        : gc_hole_edge(ns, file, from, from_key[0] ? from_key : NULL, cur, kind,
                                       kind == GC_T_CALL ? "" : key, dst, h, sizeof h);
        if (r == 2)
            name[0] = '\0'; /* back inside: a hole before this one led nowhere new */
        else if (r == 1 && (!name[0] || strstr(h, ". __subclasses__()")))
            snprintf(name, namelen, "%s", h);
        Py_XSETREF(from2, from);
        from = cur;
        cur = dst;
        snprintf(from2_key, sizeof from2_key, "%s", from_key);
        snprintf(from_key, sizeof from_key, "%s", cur_key);
        snprintf(cur_key, sizeof cur_key, "%s", key);
    }
    Py_XDECREF(from2);
    Py_XDECREF(from);
    Py_XDECREF(cur);
    Py_XDECREF(file);
    return rc;
}

int gc_source_hole_of_program(gc_target *t, const char *src, size_t len, gc_verdict *out, char *name,
                              size_t namelen, char *err, size_t errlen)
{
    char note[256];
    name[0] = '\0';
    int rc = gc_source_run(t, src, len, out, note, sizeof note, err, errlen);
    if (rc || !out->escaped)
        return rc ? rc : -1;
    PyObject *ast = PyImport_ImportModule("ast");
    PyObject *text = PyUnicode_DecodeUTF8(src, (Py_ssize_t)len, "strict");
    PyObject *ns = gc_source_roots_ns(t, err, errlen);
    PyErr_Clear();
    /* The final statement's walk, else the walk of the one before it, and so on (an escape
     * the C-call guard stopped in the middle of a program ends in statements that do not
     * walk to it): the first statement whose walk names a hole. */
    for (Py_ssize_t back = 0, more = 1; ast && text && ns && more && !rc && !name[0] && back < GC_HOLE_STATEMENTS;
         back++) {
        walk w = {PyList_New(0), PyList_New(0), PyList_New(0), NULL};
        int got = w.nodes && w.kinds && w.keys ? read_walk(ast, t, text, back, &w) : -2;
        more = got != -2;
        if (got == 0)
            rc = name_walk(ast, t, &w, ns, name, namelen, err, errlen);
        Py_XDECREF(w.nodes);
        Py_XDECREF(w.kinds);
        Py_XDECREF(w.keys);
        Py_XDECREF(w.head);
    }
    Py_XDECREF(ns);
    Py_XDECREF(text);
    Py_XDECREF(ast);
    PyErr_Clear();
    return rc;
}

/* `sweep --close` on a source target: what the maintainer changes for each hole closed
 * (holes.h's advice, and the names its edges were taken by), after the report. */
static void print_closing(const gc_sweep_opts *o, const char *const *closed)
{
    if (!closed || !closed[0] || o->json)
        return;
    printf("what closing them means for the sandbox:\n");
    for (const char *const *c = closed; *c; c++) {
        char advice[400];
        gc_hole_advice(*c, advice, sizeof advice);
        const char *keys = gc_holes_edge_keys(o->hole_ctx, *c);
        printf("  - %s: %s%s%.300s%s\n", *c, advice, keys[0] ? "; its edges: " : "", keys,
               strlen(keys) > 300 ? ", ..." : "");
    }
}

int gc_source_holes_sweep(gc_target *t, gc_sweep_opts *o, const char *const *closed, gc_sweep_stats *st,
                          gc_source_graph **out)
{
    o->no_report = 1;
    gc_source_graph *g;
    int rc = gc_source_sweep(t, o, st, &g);
    if (out)
        *out = NULL;
    if (rc)
        return rc;
    gc_finding *f;
    gc_hole_row *rows;
    int n = gc_source_sweep_findings(g, &f);
    int nrows = o->by_root ? gc_holes_group(f, n, &rows) : gc_holes_group_weakness(f, n, &rows);
    const char *unmatched[64];
    int nu = closed ? gc_holes_unmatched(o->hole_ctx, closed, unmatched, 64) : 0;
    for (int i = 0; i < nu; i++)
        fprintf(stderr, "gatecrash: warning: --close '%s': no edge of this sweep is that hole\n", unmatched[i]);
    gc_holes_sweep_print(t, o, st, closed, f, n, rows, nrows);
    print_closing(o, closed);
    free(f);
    free(rows);
    if (out)
        *out = g;
    else
        gc_source_sweep_free(g);
    return 0;
}
