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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interp.h"
#include "pycompat.h"
#include "state.h"
#include "timelimit.h"
#include "xalloc.h"

#define ROOT 255

typedef struct {
    PyObject *obj;     /* strong */
    PyObject *key;     /* strong: root/attr name, str or int key, element name; NULL for calls */
    int parent;
    unsigned char kind; /* GC_T_* or ROOT */
    unsigned char depth;
    unsigned bridges;
    int hole;          /* the hole its path went through (gc_sweep_opts.hole), 0: none */
} node;

typedef struct {
    char sig[256];
    char chain[1024];
    gc_cap cap;
    gc_chain c;
    gc_outcome out;
    int hole;
} found;

typedef struct {
    const void *p;
    int hole;
} vis_key;

/* One sweep's graph, findings and frontier (sweep.h): nothing of it outlives gc_sweep_free. */
struct gc_sweep_graph {
    node *nodes;
    long nnodes, capnodes;
    vis_key *vis;
    size_t viscap, visn;
    found *finds;
    int nfinds, capfinds;
    char **memo; /* primitive+bridges already replayed */
    int nmemo, capmemo;
    const char *(*names)(void *ctx, int hole); /* its hole names (gc_sweep_opts.hole_name) */
    void *names_ctx;
    PyObject *gate_file; /* the gate's file: its functions are of interest (gc_sweep_frontier) */
    long frontier_end;   /* the queue's length when the last complete level ended */
};

typedef struct {
    gc_target *t;
    const gc_sweep_opts *o;
    gc_sweep_stats *st;
    PyObject *ns;
    PyObject *tramp;
    gc_sweep_graph *g;  /* what it hands its caller */
    double start, last; /* when the walk started; its last progress line */
} sweep_ctx;

void gc_sweep_free(gc_sweep_graph *g)
{
    if (!g)
        return;
    for (long i = 0; i < g->nnodes; i++) {
        Py_DECREF(g->nodes[i].obj);
        Py_XDECREF(g->nodes[i].key);
    }
    for (int i = 0; i < g->nmemo; i++)
        free(g->memo[i]);
    Py_XDECREF(g->gate_file);
    free(g->nodes);
    free(g->vis);
    free(g->finds);
    free(g->memo);
    free(g);
}

static size_t vis_slot(const vis_key *tab, size_t cap, const void *p, int hole)
{
    size_t h = (((uintptr_t)p >> 4) ^ ((size_t)hole * 0x9e3779b9u)) & (cap - 1);
    while (tab[h].p && (tab[h].p != p || tab[h].hole != hole))
        h = (h + 1) & (cap - 1);
    return h;
}

/* Seen (p, hole) before?  'add': and mark it seen.  (Without holes, hole is always 0: one
 * node per object.) */
static int seen(gc_sweep_graph *g, const void *p, int hole, int add)
{
    if (g->visn * 2 >= g->viscap) {
        size_t nc = g->viscap ? g->viscap * 2 : 1 << 16;
        vis_key *nv = gc_xcalloc(nc, sizeof *nv);
        for (size_t i = 0; i < g->viscap; i++)
            if (g->vis[i].p)
                nv[vis_slot(nv, nc, g->vis[i].p, g->vis[i].hole)] = g->vis[i];
        free(g->vis);
        g->vis = nv;
        g->viscap = nc;
    }
    size_t h = vis_slot(g->vis, g->viscap, p, hole);
    if (g->vis[h].p)
        return 1;
    if (add) {
        g->vis[h] = (vis_key){p, hole};
        g->visn++;
    }
    return 0;
}

static int visited(gc_sweep_graph *g, const void *p, int hole) { return seen(g, p, hole, 1); }

static void push(gc_sweep_graph *g, PyObject *obj, PyObject *key, int parent, int kind, int depth, unsigned bridges,
                 int hole)
{
    if (g->nnodes == g->capnodes) {
        g->capnodes = g->capnodes ? g->capnodes * 2 : 4096;
        g->nodes = gc_xrealloc(g->nodes, (size_t)g->capnodes * sizeof *g->nodes);
    }
    Py_INCREF(obj);
    Py_XINCREF(key);
    g->nodes[g->nnodes++] = (node){obj, key, parent, (unsigned char)kind, (unsigned char)depth, bridges, hole};
}

/* The chain of node 'i' followed by one more trailer (kind/key; kind < 0: none). */
static int chain_of(const gc_sweep_graph *g, int i, int kind, PyObject *key, gc_chain *c)
{
    int path[256], n = 0;
    for (int j = i; j >= 0 && n < 256; j = g->nodes[j].parent)
        path[n++] = j;
    gc_chain_init(c);
    c->nstmts = 1;
    gc_stmt *st = &c->s[0];
    st->is_prev = 0;
    st->ntrailers = 0;
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(g->nodes[path[n - 1]].key, &len);
    if (!s || gc_chain_intern(c, s, (size_t)len, &st->root) < 0)
        return -1;
    for (int k = n - 2; k >= -1; k--) {
        int tk = k >= 0 ? g->nodes[path[k]].kind : kind;
        PyObject *tkey = k >= 0 ? g->nodes[path[k]].key : key;
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

/* A forbidden primitive (or an effect) reached by node i + edge: replay the chain like a
 * fuzz input and keep it if its signature is new. */
static void record(sweep_ctx *x, int i, int kind, PyObject *key, const char *prim, unsigned bridges, int call,
                   int hole)
{
    gc_sweep_graph *g = x->g;
    char mk[256], shape[160];
    gc_bridges_format(bridges, shape, sizeof shape);
    snprintf(mk, sizeof mk, "%s:%s:%d:%d", prim, shape, call, hole);
    if (memo_seen(g, mk))
        return;
    static gc_chain c;
    static gc_outcome out;
    char err[256];
    int saved_in_chain = gc_orc.in_chain;
    gc_orc.in_chain = 0;
    int ok = chain_of(g, i, kind, key, &c) == 0;
    if (ok && call) { /* effect mode: call the primitive, with () or ('') */
        gc_stmt *st = &c.s[0];
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
    if (ok && gc_run_input(x->t, &c, &out, NULL, NULL, err, sizeof err) == 0 && out.escaped) {
        int k;
        for (k = 0; k < g->nfinds; k++)
            if (strcmp(g->finds[k].sig, out.signature) == 0 && g->finds[k].hole == hole)
                break;
        if (k == g->nfinds) {
            if (g->nfinds == g->capfinds) {
                g->capfinds = g->capfinds ? g->capfinds * 2 : 32;
                g->finds = gc_xrealloc(g->finds, (size_t)g->capfinds * sizeof *g->finds);
            }
            found *f = &g->finds[g->nfinds++];
            snprintf(f->sig, sizeof f->sig, "%s", out.signature);
            gc_strbuf sb;
            gc_sb_init(&sb);
            gc_escape_chain_text(&out, &sb);
            snprintf(f->chain, sizeof f->chain, "%s", sb.data);
            gc_sb_free(&sb);
            f->cap = out.escape.cap;
            f->hole = hole;
            gc_outcome_escape_chain(&out, &f->c);
            f->out = out;
        }
    }
    gc_state_begin();
    gc_orc.in_chain = saved_in_chain;
}

static int is_scalar(PyObject *v)
{
    return PyUnicode_Check(v) || PyBytes_Check(v) || PyLong_Check(v) || PyFloat_Check(v) || v == Py_None ||
           PyComplex_Check(v) || PyByteArray_Check(v);
}

/* The hole of the edge node i --(kind, key)--> v (gc_sweep_opts.hole): *hole is node i's, or
 * the edge's when node i's path went through none.  0 when the edge is closed: its
 * source is something the gate hands out (reached through no hole, on this path or
 * another) and its hole is one of those closed. */
static int edge_hole(sweep_ctx *x, int i, int kind, PyObject *key, PyObject *v, int *hole)
{
    gc_sweep_graph *g = x->g;
    node *n = &g->nodes[i];
    *hole = n->hole;
    if (!x->o->hole || (!v && !gc_orc.escape.set))
        return 1;
    PyObject *from = n->parent >= 0 ? g->nodes[n->parent].obj : NULL;
    int h = x->o->hole(x->o->hole_ctx, x->ns, from, n->key, n->obj, kind, key, v);
    if (h == GC_SWEEP_INSIDE) {
        *hole = 0;
        return 1;
    }
    if (h > 0 && (h & GC_SWEEP_ANYWHERE)) {
        *hole = h & ~GC_SWEEP_ANYWHERE;
        return 1;
    }
    if (n->hole != 0 && !seen(g, n->obj, 0, 0))
        return 1; /* outside: only the gate's own objects' edges are holes or closed */
    if (h < 0)
        return 0;
    if (n->hole == 0)
        *hole = h;
    return 1;
}

/* One edge: node i --(kind, key)--> v (borrowed).  Oracles first, then queue it. */
static void edge(sweep_ctx *x, int i, int kind, PyObject *key, PyObject *v, unsigned bridge)
{
    gc_sweep_graph *g = x->g;
    if (gc_limit_expired && !gc_orc.escape.set)
        return; /* what a step the limit interrupted gave is the interruption, not a value */
    x->st->edges++;
    node *n = &g->nodes[i];
    unsigned br = n->bridges | bridge;
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
    if (g->nnodes >= x->o->max_nodes) {
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
    int p = g->nodes[i].parent;
    return g->nodes[i].kind == GC_T_CALL && p >= 0 && g->nodes[p].key && PyUnicode_Check(g->nodes[p].key) &&
           PyUnicode_CompareWithASCIIString(g->nodes[p].key, "__subclasses__") == 0;
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
    if (r && !raised && PyList_Check(r) && g->nodes[i].depth + 2 <= x->o->depth && g->nnodes + 1 < x->o->max_nodes &&
        edge_hole(x, i, GC_T_ATTR, name, f, &hole) && !visited(g, r, hole)) {
        push(g, f, name, i, GC_T_ATTR, g->nodes[i].depth + 1, g->nodes[i].bridges | GC_BR_CLASS, hole);
        int fi = (int)g->nnodes - 1;
        x->st->edges++;
        push(g, r, NULL, fi, GC_T_CALL, g->nodes[i].depth + 2, g->nodes[i].bridges | GC_BR_CLASS, hole);
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
    PyObject *v = g->nodes[i].obj;
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

static int cmp_found(const void *a, const void *b)
{
    const found *x = a, *y = b;
    if (x->cap != y->cap)
        return (int)x->cap - (int)y->cap;
    return strcmp(x->sig, y->sig);
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

/* The roots, queued at depth 0; a root that is itself a forbidden primitive is recorded. */
static void push_roots(sweep_ctx *x)
{
    gc_sweep_graph *g = x->g;
    const gc_sweep_opts *o = x->o;
    PyObject *ns = x->ns;
    PyObject *keys = roots_by_length(ns);
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(keys); k++) {
        PyObject *key = PyList_GET_ITEM(keys, k);
        PyObject *v = PyDict_GetItem(ns, key);
        if (!PyUnicode_Check(key) || !PyUnicode_IsIdentifier(key) || !v)
            continue;
        int hole = o->hole ? o->hole(o->hole_ctx, ns, NULL, NULL, NULL, ROOT, key, v) : 0;
        if (hole < 0)
            continue; /* closed: the gate no longer puts it in the namespace */
        const gc_prim *p = gc_oracle_forbidden(v);
        if (p) {
            push(g, v, key, -1, ROOT, 0, 0, hole);
            record(x, (int)g->nnodes - 1, -1, NULL, p->name, 0, gc_orc.mode == GC_MODE_EFFECT, hole);
            continue;
        }
        if (!visited(g, v, hole))
            push(g, v, key, -1, ROOT, 0, 0, hole);
    }
    Py_DECREF(keys);
}

/* One level of the walk (gc_sweep_levels): nodes [from, to) expanded, the interpreter state
 * checked after every node, within the depth and time bounds.  Returns 0, or
 * GC_EXIT_HARNESS when the state could not be restored. */
static int walk_nodes(void *ctx, long from, long to)
{
    sweep_ctx *x = ctx;
    gc_sweep_graph *g = x->g;
    const gc_sweep_opts *o = x->o;
    gc_sweep_stats *st = x->st;
    for (long i = from; i < to; i++) {
        if (g->nodes[i].depth >= o->depth) {
            st->cut_depth++;
            continue;
        }
        if (gc_sweep_transient(g->nodes[i].obj) || gc_sweep_skips(o, i))
            continue; /* the bound __subclasses__ on the way to its call; a node that crashed the target */
        gc_orc.in_chain = 1;
        gc_limits_arm(); /* an input's limit for each node: the gate code a getattr, an item or a
                            call runs may sleep or loop, and the walk (a campaign's first phase)
                            must not wait on it for ever */
        expand(x, (int)i);
        gc_limits_disarm();
        st->cut_limit += gc_limit_expired;
        gc_orc.in_chain = 0;
        gc_oracle_reset_input();
        char note[256];
        if (gc_state_end(note, sizeof note) < 0) {
            gc_die_msg("interpreter state could not be restored during the sweep");
            return GC_EXIT_HARNESS;
        }
        gc_state_begin();
        double now = gc_now_s(); /* vDSO: every node, so a stop or the bound ends the walk at once */
        if (now - x->last >= 2 && !o->quiet) {
            fprintf(stderr, "[sweep %5.1fs] depth %d, g->nodes %ld/%ld, edges %ld (%.0f/s), escapes %d\n",
                    now - x->start, g->nodes[i].depth, i, g->nnodes, st->edges, st->edges / (now - x->start),
                    g->nfinds);
            x->last = now;
        }
        if (gc_sweep_out_of_time(o, x->start, now)) {
            st->cut_time = 1;
            break;
        }
    }
    return 0;
}

static long queued(void *ctx)
{
    const sweep_ctx *x = ctx;
    return x->g->nnodes;
}

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
    g->names = o->hole_name;
    g->names_ctx = o->hole_ctx;
    g->gate_file = PyUnicode_DecodeFSDefault(t->spec.sandbox);
    double start = gc_now_s();
    gc_sweep_bound(o, start);
    sweep_ctx x = {t, o, st, ns, gc_eval_trampoline(ns), g, start, start};
    push_roots(&x);
    gc_limits_hard_what = "a step of the sweep (gate code it ran by reading a name or calling a gate function)";
    gc_limits_hard_code = GC_EXIT_TARGET; /* the gate's code, as when its import cannot be stopped */
    gc_oracle_reset_input();
    gc_state_begin();
    int walked = gc_sweep_levels(o, st, &(gc_sweep_walker){queued, walk_nodes, &x, NULL, g}, start, &g->frontier_end);
    gc_limits_hard_what = "the input";
    gc_limits_hard_code = GC_EXIT_HARNESS;
    gc_sweep_bound(o, 0);
    Py_DECREF(ns);
    Py_XDECREF(x.tramp);
    if (walked != 0) {
        gc_sweep_free(g);
        return GC_EXIT_HARNESS;
    }
    st->nodes = g->nnodes;
    st->escapes = g->nfinds;
    double took = gc_now_s() - start;
    if (!o->quiet)
        fprintf(stderr, "[sweep %5.2fs] done: %ld nodes, %ld edges (%.0f edges/s), %d escape signature(s)\n", took,
                g->nnodes, st->edges, took > 0 ? st->edges / took : 0.0, g->nfinds);
    if (g->nfinds > 1) /* qsort(NULL, 0) is undefined */
        qsort(g->finds, (size_t)g->nfinds, sizeof *g->finds, cmp_found);
    if (!o->no_report) {
        gc_finding *f;
        int n = gc_sweep_findings(g, &f);
        gc_sweep_report(t, o, st, f, n);
        free(f);
    }
    fflush(stdout);
    for (int k = 0; o->save && k < g->nfinds; k++)
        o->save(o->save_ctx, t, &g->finds[k].c, &g->finds[k].out);
    if (out)
        *out = g;
    else
        gc_sweep_free(g);
    return 0;
}

int gc_sweep_findings(const gc_sweep_graph *g, gc_finding **out)
{
    *out = gc_xcalloc((size_t)g->nfinds + 1, sizeof **out);
    for (int k = 0; k < g->nfinds; k++) {
        gc_finding *f = &(*out)[k];
        snprintf(f->sig, sizeof f->sig, "%s", g->finds[k].sig);
        snprintf(f->chain, sizeof f->chain, "%s", g->finds[k].chain);
        snprintf(f->kind, sizeof f->kind, "%s", gc_kind_name(g->finds[k].out.escape.kind));
        snprintf(f->cap, sizeof f->cap, "%s", gc_cap_name(g->finds[k].cap));
        snprintf(f->prim, sizeof f->prim, "%s", g->finds[k].out.escape.primitive);
        snprintf(f->detail, sizeof f->detail, "%s", g->finds[k].out.escape.detail);
        static gc_chain trimmed; /* scratch, too large for the stack: nothing is kept in it between calls */
        gc_outcome_escape_chain(&g->finds[k].out, &trimmed);
        f->size = gc_chain_trailer_count(&trimmed);
        snprintf(f->first, sizeof f->first, "sweep");
        f->count = 1;
        if (g->names && g->finds[k].hole > 0)
            snprintf(f->hole, sizeof f->hole, "%s", g->names(g->names_ctx, g->finds[k].hole));
    }
    return g->nfinds;
}

/* Node i is an object the fuzzer should start from: a gate function, a function's
 * __globals__ or a module's __dict__, a frame or traceback, a real module, the non-empty
 * __subclasses__() list of a class, or what a call raised. */
static int of_interest(const gc_sweep_graph *g, int i)
{
    PyObject *v = g->nodes[i].obj, *key = g->nodes[i].key;
    int p = g->nodes[i].parent;
    if (PyModule_Check(v) || PyFrame_Check(v) || PyTraceBack_Check(v) ||
        (from_subclasses(g, i) && PyList_GET_SIZE(v) > 0))
        return 1;
    if (g->nodes[i].kind == GC_T_CALL && PyExceptionInstance_Check(v))
        return 1;
    if (PyFunction_Check(v) && g->gate_file &&
        PyUnicode_Compare(((PyCodeObject *)PyFunction_GET_CODE(v))->co_filename, g->gate_file) == 0)
        return 1;
    PyErr_Clear();
    if (!PyDict_Check(v) || g->nodes[i].kind != GC_T_ATTR || !key || !PyUnicode_Check(key))
        return 0;
    return PyUnicode_CompareWithASCIIString(key, "__globals__") == 0 ||
           (p >= 0 && PyModule_Check(g->nodes[p].obj) && PyUnicode_CompareWithASCIIString(key, "__dict__") == 0);
}

int gc_sweep_frontier(const gc_sweep_graph *g, gc_strlist *chains, int max)
{
    static gc_chain c; /* scratch, as in gc_sweep_findings */
    int n = 0;
    for (long i = 0; i < g->frontier_end && n < max; i++) { /* the complete levels' */
        if (g->nodes[i].parent < 0 || !of_interest(g, (int)i) || chain_of(g, (int)i, -1, NULL, &c) != 0)
            continue;
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_chain_print_oneline(&c, &sb);
        gc_sb_printf(&sb, "\n");
        if (sb.data && !gc_sl_contains(chains, sb.data)) {
            gc_sl_add(chains, sb.data);
            n++;
        }
        gc_sb_free(&sb);
    }
    return n;
}
