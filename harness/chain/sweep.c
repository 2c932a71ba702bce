/* sweep.c — see sweep.h.
 *
 * Edges, in this order for every node (deterministic: dir() is sorted, dicts keep their
 * order, set elements are sorted by name):
 *   - getattr for every name of dir(v) — except on containers (dict, list, tuple, set) and
 *     scalars (str, bytes, int, float, bool, None), whose only attribute edge is __class__;
 *   - mappings: the value of each str or int key (first GC_SWEEP_MAX_ITEMS keys);
 *   - list and tuple: each element [i]; set and frozenset: each element with a name, [@name];
 *   - calls, a documented safe set only: `__subclasses__()` of a class, and every function
 *     defined in the gate module's own file, with no arguments, to capture its exception
 *     and traceback; every generator, coroutine and async-generator function that needs no
 *     argument (making one runs none of its body, and its frame may be reachable no other
 *     way); in effect mode, a forbidden primitive is called with () and with ('') (the
 *     audit hooks and the harness keep it from taking effect).
 * A value is a node the first time it is seen (by identity); bound methods and method
 * wrappers, made afresh on every access, are checked by the oracles but not expanded.  A
 * forbidden primitive is a leaf: the chain that reaches it is confirmed by replaying it
 * like a fuzz input, and kept per signature (the first is the shortest: breadth first). */
#include "sweep.h"
#include "confine.h"
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interp.h"
#include "pycompat.h"
#include "state.h"
#include "timelimit.h"
#include "xalloc.h"

#define ROOT GC_WALK_ROOT

/* A found chain's own data (gc_walk_find_ext): what `sweep --save` saves. */
typedef struct {
    gc_chain c;
    gc_outcome out;
} found;

/* One sweep's graph, findings and frontier (sweep.h): the walk (walk.h), what this mode
 * adds to it; nothing of it outlives gc_sweep_free. */
struct gc_sweep_graph {
    gc_walk *w;
    char **memo; /* primitive+bridges already replayed */
    int nmemo, capmemo;
    PyObject *gate_file; /* the gate's file: its functions are of interest (gc_sweep_frontier) */
    gc_chain *cand;      /* scratch: the chain record() confirms */
    gc_outcome *out;     /* scratch: its outcome */
};

typedef struct {
    gc_target *t;
    const gc_sweep_opts *o;
    gc_sweep_stats *st;
    PyObject *ns;
    PyObject *tramp;
    gc_sweep_graph *g;  /* what it hands its caller */
} sweep_ctx;

void gc_sweep_free(gc_sweep_graph *g)
{
    if (!g)
        return;
    gc_walk_free(g->w);
    for (int i = 0; i < g->nmemo; i++)
        free(g->memo[i]);
    Py_XDECREF(g->gate_file);
    free(g->memo);
    free(g->cand);
    free(g->out);
    free(g);
}

static const gc_walk_node *nd(const gc_sweep_graph *g, long i)
{
    return gc_walk_node_at(g->w, i);
}

/* Node i's bridges (eval.h: what its path crossed). */
static unsigned *bridges_of(const gc_sweep_graph *g, long i)
{
    return gc_walk_node_ext(g->w, i);
}

static int visited(gc_sweep_graph *g, const void *p, int hole) { return gc_walk_seen(g->w, p, hole, 1); }

static void push(gc_sweep_graph *g, PyObject *obj, PyObject *key, int parent, int kind, int depth, unsigned bridges,
                 int hole)
{
    long i = gc_walk_push(g->w, obj, key, parent, kind, depth, hole);
    *bridges_of(g, i) = bridges;
}

/* The chain of node 'i' followed by one more trailer (kind/key; kind < 0: none). */
static int chain_of(const gc_sweep_graph *g, int i, int kind, PyObject *key, gc_chain *c)
{
    int path[256], n = 0;
    for (int j = i; j >= 0 && n < 256; j = nd(g, j)->parent)
        path[n++] = j;
    gc_chain_init(c);
    c->nstmts = 1;
    gc_stmt *st = &c->s[0];
    st->is_prev = 0;
    st->ntrailers = 0;
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(nd(g, path[n - 1])->key, &len);
    if (!s || gc_chain_intern(c, s, (size_t)len, &st->root) < 0)
        return -1;
    for (int k = n - 2; k >= -1; k--) {
        int tk = k >= 0 ? nd(g, path[k])->kind : kind;
        PyObject *tkey = k >= 0 ? nd(g, path[k])->key : key;
        if (k < 0 && kind < 0)
            break;
        if (st->ntrailers >= GC_MAX_TRAILERS)
            return -1;
        gc_trailer *t = &st->t[st->ntrailers++];
        memset(t, 0, sizeof *t);
        t->kind = (gc_trailer_kind)tk;
        if (tk == GC_T_ITEM_INT) {
            t->k = PyLong_AsLong(tkey);
        } else if (tk != GC_T_CALL) {
            s = PyUnicode_AsUTF8AndSize(tkey, &len);
            if (!s || gc_chain_intern(c, s, (size_t)len, &t->s) < 0)
                return -1;
        }
    }
    PyErr_Clear();
    return 0;
}

static int memo_seen(gc_sweep_graph *g, const char *key)
{
    for (int i = 0; i < g->nmemo; i++)
        if (strcmp(g->memo[i], key) == 0)
            return 1;
    if (g->nmemo == g->capmemo) {
        g->capmemo = g->capmemo ? g->capmemo * 2 : 64;
        g->memo = gc_xrealloc(g->memo, (size_t)g->capmemo * sizeof *g->memo);
    }
    g->memo[g->nmemo++] = strdup(key);
    return 0;
}

/* The walk's confirmation of a chain (gc_walk_ops.confirm): replayed like a fuzz input,
 * kept when it escapes. */
static int confirm_chain(void *m, const void *cand, gc_walk_find *f, void *ext)
{
    found *d = ext;
    sweep_ctx *x = m;
    gc_outcome *out = x->g->out;
    char err[256];
    if (gc_run_input(x->t, cand, out, NULL, NULL, err, sizeof err) != 0 || !out->escaped)
        return 0;
    snprintf(f->f.sig, sizeof f->f.sig, "%s", out->signature);
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_escape_chain_text(out, &sb);
    snprintf(f->f.chain, sizeof f->f.chain, "%s", sb.data);
    gc_sb_free(&sb);
    f->cap = out->escape.cap;
    snprintf(f->f.kind, sizeof f->f.kind, "%s", gc_kind_name(out->escape.kind));
    snprintf(f->f.cap, sizeof f->f.cap, "%s", gc_cap_name(out->escape.cap));
    snprintf(f->f.prim, sizeof f->f.prim, "%s", out->escape.primitive);
    snprintf(f->f.detail, sizeof f->f.detail, "%s", out->escape.detail);
    snprintf(f->f.first, sizeof f->f.first, "sweep");
    f->f.count = 1;
    gc_outcome_escape_chain(out, &d->c);
    d->out = *out;
    f->f.size = gc_chain_trailer_count(&d->c);
    return 1;
}

/* A forbidden primitive (or an effect) reached by node i + edge: replay the chain like a
 * fuzz input and keep it if its signature is new (for its hole). */
static void record(sweep_ctx *x, int i, int kind, PyObject *key, const char *prim, unsigned bridges, int call,
                   int hole)
{
    gc_sweep_graph *g = x->g;
    char mk[256], shape[160];
    gc_bridges_format(bridges, shape, sizeof shape);
    snprintf(mk, sizeof mk, "%s:%s:%d:%d", prim, shape, call, hole);
    if (memo_seen(g, mk))
        return;
    gc_chain *c = g->cand;
    int saved_in_chain = gc_orc.in_chain;
    gc_orc.in_chain = 0;
    int ok = chain_of(g, i, kind, key, c) == 0;
    if (ok && call) { /* effect mode: call the primitive, with () or ('') */
        gc_stmt *st = &c->s[0];
        if (st->ntrailers >= GC_MAX_TRAILERS)
            ok = 0;
        else {
            gc_trailer *tr = &st->t[st->ntrailers++];
            memset(tr, 0, sizeof *tr);
            tr->kind = GC_T_CALL;
            tr->nargs = call - 1;
            tr->args[0].kind = GC_ARG_STR;
        }
    }
    if (ok)
        gc_walk_record(g->w, c, NULL, hole, 0);
    gc_state_begin();
    gc_orc.in_chain = saved_in_chain;
}

static int is_scalar(PyObject *v)
{
    return PyUnicode_Check(v) || PyBytes_Check(v) || PyLong_Check(v) || PyFloat_Check(v) || v == Py_None ||
           PyComplex_Check(v) || PyByteArray_Check(v);
}

static int edge_hole(sweep_ctx *x, int i, int kind, PyObject *key, PyObject *v, int *hole)
{
    return gc_walk_edge_hole(x->g->w, i, kind, key, v, hole);
}

/* One edge: node i --(kind, key)--> v (borrowed).  Oracles first, then queue it. */
static void edge(sweep_ctx *x, int i, int kind, PyObject *key, PyObject *v, unsigned bridge)
{
    gc_sweep_graph *g = x->g;
    if (gc_limit_expired && !gc_orc.escape.set)
        return; /* what a step the limit interrupted gave is the interruption, not a value */
    x->st->edges++;
    const gc_walk_node *n = nd(g, i);
    unsigned br = *bridges_of(g, i) | bridge;
    int hole;
    gc_confine_judge(); /* a write the kernel refused while taking this edge */
    if (!edge_hole(x, i, kind, key, v, &hole))
        return;
    if (gc_orc.escape.set) { /* an effect while taking this edge */
        record(x, i, kind, key, gc_orc.escape.primitive, br, 0, hole);
        gc_oracle_reset_input();
    }
    if (!v)
        return;
    const gc_prim *p = gc_oracle_forbidden(v);
    if (p) {
        if (gc_orc.mode == GC_MODE_REACH) {
            record(x, i, kind, key, p->name, br, 0, hole);
        } else { /* effect mode: reaching is not enough; call it as handler code could */
            record(x, i, kind, key, p->name, br, 1, hole);
            record(x, i, kind, key, p->name, br, 2, hole);
        }
        return; /* a leaf */
    }
    if (gc_sweep_transient(v))
        return;
    if (gc_walk_nnodes(g->w) >= x->o->max_nodes) {
        x->st->cut_nodes++;
        return;
    }
    if (!visited(g, v, hole))
        push(g, v, key, i, kind, n->depth + 1, br, hole); /* kept alive from here on */
}

static int is_gate_function(sweep_ctx *x, PyObject *f)
{
    if (!PyFunction_Check(f))
        return 0;
    PyCodeObject *co = (PyCodeObject *)PyFunction_GET_CODE(f);
    return PyUnicode_Compare(co->co_filename, x->g->gate_file) == 0;
}

/* A generator, coroutine or async-generator function that needs no argument: calling it
 * runs none of its body, and the object it makes carries a frame (gi_frame / cr_frame /
 * ag_frame) that may be reachable no other way. */
static int makes_generator(PyObject *f)
{
    if (!PyFunction_Check(f))
        return 0;
    PyCodeObject *co = (PyCodeObject *)PyFunction_GET_CODE(f);
    if (!(co->co_flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR)))
        return 0;
    PyObject *defaults = PyFunction_GET_DEFAULTS(f);
    int ndef = defaults ? (int)PyTuple_GET_SIZE(defaults) : 0;
    return co->co_argcount - ndef <= 0 && co->co_kwonlyargcount == 0;
}

/* f(); a call the node's time limit stopped (walk_nodes) gives nothing. */
static PyObject *call0(sweep_ctx *x, PyObject *f, int *raised)
{
    PyObject *args = PyTuple_New(0);
    PyObject *pair = args ? PyTuple_Pack(2, f, args) : NULL;
    Py_XDECREF(args);
    PyObject *r = pair ? PyObject_Call(x->tramp, pair, NULL) : NULL;
    Py_XDECREF(pair);
    *raised = 0;
    if (gc_limit_expired) {
        Py_CLEAR(r);
        PyErr_Clear();
        return NULL;
    }
    if (!r && !gc_orc.escape.set) {
        r = gc_exception_value();
        *raised = 1;
    }
    PyErr_Clear();
    return r;
}

/* order[0..n) sorted by the elements' (__module__, __qualname__), index as tie-break. */
static const char *str_attr(PyObject *e, const char *name, PyObject **hold)
{
    *hold = PyObject_GetAttrString(e, name);
    const char *s = *hold && PyUnicode_Check(*hold) ? PyUnicode_AsUTF8(*hold) : NULL;
    PyErr_Clear();
    return s ? s : "";
}

static void sort_by_name(PyObject *seq, Py_ssize_t *order, Py_ssize_t n)
{
    PyObject *keys = PyList_New(0);
    for (Py_ssize_t k = 0; keys && k < n; k++) {
        PyObject *e = PySequence_Fast_GET_ITEM(seq, k), *m, *q;
        const char *ms = str_attr(e, "__module__", &m), *qs = str_attr(e, "__qualname__", &q);
        PyObject *key = Py_BuildValue("(ssn)", ms, qs, k);
        Py_XDECREF(m);
        Py_XDECREF(q);
        if (key)
            PyList_Append(keys, key);
        Py_XDECREF(key);
        PyErr_Clear();
    }
    if (keys && PyList_GET_SIZE(keys) == n && PyList_Sort(keys) == 0)
        for (Py_ssize_t k = 0; k < n; k++)
            order[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(PyList_GET_ITEM(keys, k), 2));
    PyErr_Clear();
    Py_XDECREF(keys);
}

/* Attribute edges: every name of dir(v), or only __class__ on containers and scalars. */
static void expand_attrs(sweep_ctx *x, int i, PyObject *v, int container)
{
    if (container || is_scalar(v)) {
        PyObject *name = PyUnicode_FromString("__class__");
        PyObject *r = PyObject_GetAttr(v, name);
        PyErr_Clear();
        edge(x, i, GC_T_ATTR, name, r, r ? gc_bridge_attr(v, "__class__", r) : 0);
        Py_XDECREF(r);
        Py_XDECREF(name);
        return;
    }
    PyObject *names = PyObject_Dir(v);
    PyErr_Clear();
    Py_ssize_t n = names && PyList_Check(names) ? PyList_GET_SIZE(names) : 0;
    for (Py_ssize_t k = 0; k < n && !gc_limits_stopping(); k++) {
        PyObject *name = PyList_GET_ITEM(names, k);
        Py_ssize_t sz;
        const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &sz) : NULL;
        if (!s || sz > GC_MAX_NAME || !PyUnicode_IsIdentifier(name)) {
            PyErr_Clear();
            continue;
        }
        PyObject *r = PyObject_GetAttr(v, name);
        PyErr_Clear();
        edge(x, i, GC_T_ATTR, name, r, r ? gc_bridge_attr(v, s, r) : 0);
        Py_XDECREF(r);
    }
    Py_XDECREF(names);
}

/* The trailer kind a mapping key is written with, or -1 when no chain can name it. */
static int key_kind(PyObject *key)
{
    if (PyUnicode_Check(key)) {
        Py_ssize_t sz;
        if (PyUnicode_AsUTF8AndSize(key, &sz) && sz <= GC_MAX_STR)
            return GC_T_ITEM_STR;
    } else if (PyLong_CheckExact(key)) {
        long kv = PyLong_AsLong(key);
        if (!PyErr_Occurred() && kv > -GC_MAX_INT && kv < GC_MAX_INT)
            return GC_T_ITEM_INT;
    }
    PyErr_Clear();
    return -1;
}

/* How many items of a container of n the sweep walks (GC_SWEEP_MAX_ITEMS, counted as cut). */
static Py_ssize_t items_bound(sweep_ctx *x, Py_ssize_t n)
{
    if (n <= GC_SWEEP_MAX_ITEMS)
        return n;
    x->st->cut_items++;
    return GC_SWEEP_MAX_ITEMS;
}

/* Mapping edges: the value of each str or int key. */
static void expand_mapping(sweep_ctx *x, int i, PyObject *v, unsigned ib)
{
    PyObject *keys = gc_mapping_keys(v);
    PyErr_Clear();
    Py_ssize_t n = items_bound(x, keys && PyList_Check(keys) ? PyList_GET_SIZE(keys) : 0);
    for (Py_ssize_t k = 0; k < n && !gc_limits_stopping(); k++) {
        PyObject *key = PyList_GET_ITEM(keys, k);
        int kind = key_kind(key);
        if (kind < 0)
            continue;
        PyObject *r = PyObject_GetItem(v, key);
        PyErr_Clear();
        edge(x, i, kind, key, r, ib);
        Py_XDECREF(r);
    }
    Py_XDECREF(keys);
}

/* Node i is the list a `.__subclasses__()` call returned. */
static int from_subclasses(const gc_sweep_graph *g, int i)
{
    int p = nd(g, i)->parent;
    return nd(g, i)->kind == GC_T_CALL && p >= 0 && nd(g, p)->key && PyUnicode_Check(nd(g, p)->key) &&
           PyUnicode_CompareWithASCIIString(nd(g, p)->key, "__subclasses__") == 0;
}

/* {__name__: index of its first element} over seq[0..n), in the list's own order. */
static PyObject *first_named(PyObject *seq, Py_ssize_t n)
{
    PyObject *first_of = PyDict_New();
    for (Py_ssize_t k = 0; first_of && k < n; k++) {
        PyObject *nm = PyObject_GetAttrString(PySequence_Fast_GET_ITEM(seq, k), "__name__");
        PyErr_Clear();
        if (nm && PyUnicode_Check(nm) && !PyDict_GetItem(first_of, nm)) {
            PyObject *idx = PyLong_FromSsize_t(k);
            PyDict_SetItem(first_of, nm, idx);
            Py_XDECREF(idx);
        }
        Py_XDECREF(nm);
    }
    return first_of;
}

/* Sequence edges (list, tuple): [@name] where a name picks the element first (portable
 * across Python versions, as __subclasses__() orders differ), else [i].  A subclass list
 * is in address order, which differs from run to run: walk it sorted by name instead, so
 * which path first reaches a shared object is the same in every run. */
static void expand_sequence(sweep_ctx *x, int i, PyObject *v, unsigned ib)
{
    PyObject *seq = PySequence_Fast(v, "");
    Py_ssize_t n = items_bound(x, seq ? PySequence_Fast_GET_SIZE(seq) : 0);
    Py_ssize_t order[GC_SWEEP_MAX_ITEMS];
    for (Py_ssize_t k = 0; k < n; k++)
        order[k] = k;
    if (from_subclasses(x->g, i))
        sort_by_name(seq, order, n);
    PyObject *seen_names = PySet_New(NULL);
    PyObject *first_of = first_named(seq, n); /* first occurrences decide who may be named */
    for (Py_ssize_t kk = 0; kk < n; kk++) {
        Py_ssize_t k = order[kk];
        PyObject *e = PySequence_Fast_GET_ITEM(seq, k);
        PyObject *nm = PyObject_GetAttrString(e, "__name__");
        PyErr_Clear();
        PyObject *fi = nm && PyUnicode_Check(nm) && first_of ? PyDict_GetItem(first_of, nm) : NULL;
        int named = fi && PyLong_AsSsize_t(fi) == k && PyUnicode_IsIdentifier(nm) &&
                    PyUnicode_GET_LENGTH(nm) <= GC_MAX_NAME && seen_names && PySet_Contains(seen_names, nm) == 0;
        if (nm && PyUnicode_Check(nm) && seen_names)
            PySet_Add(seen_names, nm);
        if (named) {
            edge(x, i, GC_T_NAMED, nm, e, ib);
        } else {
            PyObject *idx = PyLong_FromSsize_t(k);
            edge(x, i, GC_T_ITEM_INT, idx, e, ib);
            Py_DECREF(idx);
        }
        Py_XDECREF(nm);
        PyErr_Clear();
    }
    Py_XDECREF(seen_names);
    Py_XDECREF(first_of);
    Py_XDECREF(seq);
}

/* Set edges: the elements with a name, [@name], sorted by it (set order follows
 * addresses, which differ per run). */
static void expand_set(sweep_ctx *x, int i, PyObject *v, unsigned ib)
{
    PyObject *named = PyList_New(0);
    PyObject *it = PyObject_GetIter(v), *e;
    while (named && it && (e = PyIter_Next(it))) {
        PyObject *nm = PyObject_GetAttrString(e, "__name__");
        if (nm && PyUnicode_Check(nm) && PyUnicode_IsIdentifier(nm)) {
            PyObject *pair = PyTuple_Pack(2, nm, e);
            PyList_Append(named, pair);
            Py_XDECREF(pair);
        }
        Py_XDECREF(nm);
        Py_DECREF(e);
        PyErr_Clear();
    }
    Py_XDECREF(it);
    PyErr_Clear();
    if (named && PyList_Sort(named) == 0) {
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(named) && k < GC_SWEEP_MAX_ITEMS; k++) {
            PyObject *pair = PyList_GET_ITEM(named, k);
            edge(x, i, GC_T_NAMED, PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1), ib);
        }
    }
    PyErr_Clear();
    Py_XDECREF(named);
}

/* `.__subclasses__()` of a class: its list, queued as an attribute edge then a call. */
static void expand_subclasses(sweep_ctx *x, int i, PyObject *v)
{
    gc_sweep_graph *g = x->g;
    PyObject *f = PyObject_GetAttrString(v, "__subclasses__");
    PyErr_Clear();
    if (!f)
        return;
    int raised;
    PyObject *r = call0(x, f, &raised);
    PyObject *name = PyUnicode_FromString("__subclasses__");
    int hole;
    /* (visited() only once the list is kept: a freed object's address must never
     * count as seen, or the walk would depend on the allocator) */
    int depth = nd(g, i)->depth;
    unsigned br = *bridges_of(g, i) | GC_BR_CLASS;
    if (r && !raised && PyList_Check(r) && depth + 2 <= x->o->depth && gc_walk_nnodes(g->w) + 1 < x->o->max_nodes &&
        edge_hole(x, i, GC_T_ATTR, name, f, &hole) && !visited(g, r, hole)) {
        push(g, f, name, i, GC_T_ATTR, depth + 1, br, hole);
        int fi = (int)gc_walk_nnodes(g->w) - 1;
        x->st->edges++;
        push(g, r, NULL, fi, GC_T_CALL, depth + 2, br, hole);
    }
    Py_XDECREF(name);
    Py_XDECREF(r);
    Py_DECREF(f);
}

/* Call edges, the safe set only: __subclasses__() of a class; a gate function or a
 * generator function with no arguments. */
static void expand_calls(sweep_ctx *x, int i, PyObject *v)
{
    if (PyType_Check(v)) {
        expand_subclasses(x, i, v);
    } else if (is_gate_function(x, v) || makes_generator(v)) {
        int raised;
        PyObject *r = call0(x, v, &raised);
        edge(x, i, GC_T_CALL, NULL, r, r ? gc_bridge_call(v, r, raised) : 0);
        Py_XDECREF(r);
    }
}

/* Every edge of node i, in the order the file's opening comment gives. */
static void expand(sweep_ctx *x, int i)
{
    gc_sweep_graph *g = x->g;
    PyObject *v = nd(g, i)->obj;
    int container = PyDict_Check(v) || PyList_Check(v) || PyTuple_Check(v) || PyAnySet_Check(v);
    expand_attrs(x, i, v, container);
    if (gc_limits_stopping())
        return; /* the walk ends (sweep.h): no more gate code runs */
    unsigned ib = gc_bridge_item(x->ns, v);
    int mapping = PyDict_Check(v) ||
                  (!container && !is_scalar(v) && PyObject_HasAttrString(v, "keys") &&
                   PyObject_HasAttrString(v, "__getitem__") && !PyType_Check(v));
    PyErr_Clear();
    if (mapping)
        expand_mapping(x, i, v, ib);
    else if (PyList_Check(v) || PyTuple_Check(v))
        expand_sequence(x, i, v, ib);
    else if (PyAnySet_Check(v))
        expand_set(x, i, v, ib);
    expand_calls(x, i, v);
}

/* The namespace's names, shortest first (the same object under two names is reported by
 * the shorter), then by name (a new list). */
static PyObject *roots_by_length(PyObject *ns)
{
    PyObject *keys = PyDict_Keys(ns);
    PyObject *bylen = PyList_New(0);
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(keys); k++) {
        PyObject *key = PyList_GET_ITEM(keys, k);
        PyObject *pair = PyUnicode_Check(key) ? Py_BuildValue("(nO)", PyUnicode_GET_LENGTH(key), key) : NULL;
        if (pair)
            PyList_Append(bylen, pair);
        Py_XDECREF(pair);
    }
    PyList_Sort(bylen);
    Py_DECREF(keys);
    keys = PyList_New(0);
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(bylen); k++)
        PyList_Append(keys, PyTuple_GET_ITEM(PyList_GET_ITEM(bylen, k), 1));
    Py_DECREF(bylen);
    return keys;
}

/* The roots, queued at depth 0; a root that is itself a forbidden primitive is recorded
 * (gc_walk_ops.roots). */
static int push_roots(void *m, gc_walk *w)
{
    sweep_ctx *x = m;
    gc_sweep_graph *g = x->g;
    PyObject *ns = x->ns;
    PyObject *keys = roots_by_length(ns);
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(keys); k++) {
        PyObject *key = PyList_GET_ITEM(keys, k);
        PyObject *v = PyDict_GetItem(ns, key);
        if (!PyUnicode_Check(key) || !PyUnicode_IsIdentifier(key) || !v)
            continue;
        int hole = gc_walk_root_hole(w, key, v);
        if (hole < 0)
            continue; /* closed: the gate no longer puts it in the namespace */
        const gc_prim *p = gc_oracle_forbidden(v);
        if (p) {
            push(g, v, key, -1, ROOT, 0, 0, hole);
            record(x, (int)gc_walk_nnodes(w) - 1, -1, NULL, p->name, 0, gc_orc.mode == GC_MODE_EFFECT, hole);
            continue;
        }
        if (!visited(g, v, hole))
            push(g, v, key, -1, ROOT, 0, 0, hole);
    }
    Py_DECREF(keys);
    gc_limits_hard_what = "a step of the sweep (gate code it ran by reading a name or calling a gate function)";
    gc_limits_hard_code = GC_EXIT_TARGET; /* the gate's code, as when its import cannot be stopped */
    gc_oracle_reset_input();
    gc_state_begin();
    return 0;
}

/* Node i of a level (gc_walk_ops.node): expanded, the interpreter state checked after it,
 * within the depth bound.  0, 1 when not expanded, or GC_EXIT_HARNESS when the state could
 * not be restored. */
static int walk_node(void *m, gc_walk *w, long i)
{
    sweep_ctx *x = m;
    if (gc_walk_at_depth(w, i))
        return 1;
    if (gc_sweep_transient(nd(x->g, i)->obj) || gc_sweep_skips(x->o, i))
        return 1; /* the bound __subclasses__ on the way to its call; a node that crashed the target */
    gc_orc.in_chain = 1;
    gc_limits_arm(); /* an input's limit for each node: the gate code a getattr, an item or a
                        call runs may sleep or loop, and the walk (a campaign's first phase)
                        must not wait on it for ever */
    expand(x, (int)i);
    gc_limits_disarm();
    x->st->cut_limit += gc_limit_expired;
    gc_orc.in_chain = 0;
    gc_oracle_reset_input();
    char note[256];
    if (gc_state_end(note, sizeof note) < 0) {
        gc_die_msg("interpreter state could not be restored during the sweep");
        return GC_EXIT_HARNESS;
    }
    gc_state_begin();
    return 0;
}

static const gc_walk_ops chain_walk = {
    .unit = "edges",
    .node_ext = sizeof(unsigned),
    .find_ext = sizeof(found),
    .roots = push_roots,
    .node = walk_node,
    .confirm = confirm_chain,
};

int gc_sweep(gc_target *t, const gc_sweep_opts *o, gc_sweep_stats *st, gc_sweep_graph **out)
{
    memset(st, 0, sizeof *st);
    if (out)
        *out = NULL;
    char err[512];
    PyObject *ns = gc_target_install(t, err, sizeof err);
    if (!ns) {
        gc_die_msg("%s", err);
        return GC_EXIT_TARGET;
    }
    gc_sweep_graph *g = gc_xcalloc(1, sizeof *g);
    g->gate_file = PyUnicode_DecodeFSDefault(t->spec.sandbox);
    g->cand = gc_xmalloc(sizeof *g->cand);
    g->out = gc_xmalloc(sizeof *g->out);
    double start = gc_now_s();
    sweep_ctx x = {t, o, st, ns, gc_eval_trampoline(ns), g};
    g->w = gc_walk_new(&chain_walk, &x, o, st, ns);
    int walked = gc_walk_run(g->w, g);
    gc_limits_hard_what = "the input";
    gc_limits_hard_code = GC_EXIT_HARNESS;
    Py_DECREF(ns);
    Py_XDECREF(x.tramp);
    if (walked != 0) {
        gc_sweep_free(g);
        return GC_EXIT_HARNESS;
    }
    double took = gc_now_s() - start;
    if (!o->quiet)
        fprintf(stderr, "[sweep %5.2fs] done: %ld nodes, %ld edges (%.0f edges/s), %d escape signature(s)\n", took,
                st->nodes, st->edges, took > 0 ? st->edges / took : 0.0, st->escapes);
    if (!o->no_report) {
        gc_finding *f;
        int n = gc_sweep_findings(g, &f);
        gc_sweep_report(t, o, st, f, n);
        free(f);
    }
    fflush(stdout);
    for (int k = 0; o->save && k < st->escapes; k++) {
        const found *d = gc_walk_find_ext(g->w, k);
        o->save(o->save_ctx, t, &d->c, &d->out);
    }
    if (out)
        *out = g;
    else
        gc_sweep_free(g);
    return 0;
}

int gc_sweep_findings(const gc_sweep_graph *g, gc_finding **out)
{
    return gc_walk_findings(g->w, out);
}

/* Node i is an object the fuzzer should start from: a gate function, a function's
 * __globals__ or a module's __dict__, a frame or traceback, a real module, the non-empty
 * __subclasses__() list of a class, or what a call raised. */
static int of_interest(const gc_sweep_graph *g, int i)
{
    PyObject *v = nd(g, i)->obj, *key = nd(g, i)->key;
    int p = nd(g, i)->parent;
    if (PyModule_Check(v) || PyFrame_Check(v) || PyTraceBack_Check(v) ||
        (from_subclasses(g, i) && PyList_GET_SIZE(v) > 0))
        return 1;
    if (nd(g, i)->kind == GC_T_CALL && PyExceptionInstance_Check(v))
        return 1;
    if (PyFunction_Check(v) && g->gate_file &&
        PyUnicode_Compare(((PyCodeObject *)PyFunction_GET_CODE(v))->co_filename, g->gate_file) == 0)
        return 1;
    PyErr_Clear();
    if (!PyDict_Check(v) || nd(g, i)->kind != GC_T_ATTR || !key || !PyUnicode_Check(key))
        return 0;
    return PyUnicode_CompareWithASCIIString(key, "__globals__") == 0 ||
           (p >= 0 && PyModule_Check(nd(g, p)->obj) && PyUnicode_CompareWithASCIIString(key, "__dict__") == 0);
}

int gc_sweep_frontier(const gc_sweep_graph *g, gc_strlist *chains, int max)
{
    gc_chain *c = g->cand; /* scratch: the sweep is over */
    int n = 0;
    for (long i = 0; i < gc_walk_frontier_end(g->w) && n < max; i++) { /* the complete levels' */
        if (nd(g, i)->parent < 0 || !of_interest(g, (int)i) || chain_of(g, (int)i, -1, NULL, c) != 0)
            continue;
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_chain_print_oneline(c, &sb);
        gc_sb_printf(&sb, "\n");
        if (sb.data && !gc_sl_contains(chains, sb.data)) {
            gc_sl_add(chains, sb.data);
            n++;
        }
        gc_sb_free(&sb);
    }
    return n;
}
