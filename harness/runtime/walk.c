/* walk.c — see walk.h. */
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "timelimit.h"
#include "xalloc.h"

typedef struct {
    const void *p;
    int hole;
} vis_key;

struct gc_walk {
    const gc_walk_ops *ops;
    void *m;
    const gc_sweep_opts *o; /* during gc_walk_run only */
    gc_sweep_stats *st;
    PyObject *ns;           /* borrowed: the namespace the hole rule is handed */
    gc_walk_node *nodes;
    unsigned char *ext;     /* ops->node_ext bytes per node */
    long nnodes, capnodes;
    vis_key *vis;
    size_t viscap, visn;
    gc_walk_find *finds;    /* nfinds kept, then one scratch slot */
    unsigned char *fext;    /* ops->find_ext bytes per finding */
    int nfinds, capfinds;
    const char *(*names)(void *ctx, int hole); /* its hole names (gc_sweep_opts.hole_name) */
    void *names_ctx;
    long frontier_end;
    double start, last;     /* when the walk started; its last progress line */
};

gc_walk *gc_walk_new(const gc_walk_ops *ops, void *m, const gc_sweep_opts *o, gc_sweep_stats *st, PyObject *ns)
{
    gc_walk *w = gc_xcalloc(1, sizeof *w);
    w->ops = ops;
    w->m = m;
    w->o = o;
    w->st = st;
    w->ns = ns;
    w->names = o->hole_name;
    w->names_ctx = o->hole_ctx;
    return w;
}

void gc_walk_set_ns(gc_walk *w, PyObject *ns)
{
    w->ns = ns;
}

void gc_walk_free(gc_walk *w)
{
    if (!w)
        return;
    for (long i = 0; i < w->nnodes; i++) {
        Py_DECREF(w->nodes[i].obj);
        Py_XDECREF(w->nodes[i].key);
        if (w->ops->free_node)
            w->ops->free_node(gc_walk_node_ext(w, i));
    }
    free(w->nodes);
    free(w->ext);
    free(w->vis);
    free(w->finds);
    free(w->fext);
    free(w);
}

long gc_walk_nnodes(const gc_walk *w)
{
    return w->nnodes;
}

gc_walk_node *gc_walk_node_at(const gc_walk *w, long i)
{
    return &w->nodes[i];
}

void *gc_walk_node_ext(const gc_walk *w, long i)
{
    return w->ext + (size_t)i * w->ops->node_ext;
}

long gc_walk_frontier_end(const gc_walk *w)
{
    return w->frontier_end;
}

long gc_walk_push(gc_walk *w, PyObject *obj, PyObject *key, int parent, int kind, int depth, int hole)
{
    if (w->nnodes == w->capnodes) {
        w->capnodes = w->capnodes ? w->capnodes * 2 : 1024;
        w->nodes = gc_xrealloc(w->nodes, (size_t)w->capnodes * sizeof *w->nodes);
        w->ext = gc_xrealloc(w->ext, (size_t)w->capnodes * w->ops->node_ext + 1);
    }
    Py_INCREF(obj);
    Py_XINCREF(key);
    w->nodes[w->nnodes] = (gc_walk_node){obj, key, parent, (unsigned char)kind, (unsigned char)depth, hole};
    memset(gc_walk_node_ext(w, w->nnodes), 0, w->ops->node_ext);
    return w->nnodes++;
}

static size_t vis_slot(const vis_key *tab, size_t cap, const void *p, int hole)
{
    size_t h = (((uintptr_t)p >> 4) ^ ((size_t)(unsigned)hole * 0x9e3779b9u)) & (cap - 1);
    while (tab[h].p && (tab[h].p != p || tab[h].hole != hole))
        h = (h + 1) & (cap - 1);
    return h;
}

int gc_walk_seen(gc_walk *w, const void *p, int hole, int add)
{
    if (w->visn * 2 >= w->viscap) {
        size_t nc = w->viscap ? w->viscap * 2 : 1 << 12;
        vis_key *nv = gc_xcalloc(nc, sizeof *nv);
        for (size_t i = 0; i < w->viscap; i++)
            if (w->vis[i].p)
                nv[vis_slot(nv, nc, w->vis[i].p, w->vis[i].hole)] = w->vis[i];
        free(w->vis);
        w->vis = nv;
        w->viscap = nc;
    }
    size_t h = vis_slot(w->vis, w->viscap, p, hole);
    if (w->vis[h].p)
        return 1;
    if (add) {
        w->vis[h] = (vis_key){p, hole};
        w->visn++;
    }
    return 0;
}

int gc_walk_edge_hole(gc_walk *w, long i, int kind, PyObject *key, PyObject *v, int *hole)
{
    const gc_walk_node *n = &w->nodes[i];
    *hole = n->hole;
    if (!w->o->hole || (!v && !gc_orc.escape.set))
        return 1;
    PyObject *from = n->parent >= 0 ? w->nodes[n->parent].obj : NULL;
    int h = w->o->hole(w->o->hole_ctx, w->ns, from, n->key, n->obj, kind, key, v);
    if (h == GC_SWEEP_INSIDE) {
        *hole = 0;
        return 1;
    }
    if (h > 0 && (h & GC_SWEEP_ANYWHERE)) {
        *hole = h & ~GC_SWEEP_ANYWHERE;
        return 1;
    }
    if (n->hole != 0 && !gc_walk_seen(w, n->obj, 0, 0))
        return 1; /* outside: only the gate's own objects' edges are holes or closed */
    if (h < 0)
        return 0;
    if (n->hole == 0)
        *hole = h;
    return 1;
}

int gc_walk_root_hole(gc_walk *w, PyObject *key, PyObject *v)
{
    if (!w->o->hole)
        return 0;
    int h = w->o->hole(w->o->hole_ctx, w->ns, NULL, NULL, NULL, GC_WALK_ROOT, key, v);
    return h < 0 ? -1 : h > 0 && h != GC_SWEEP_INSIDE ? h & ~GC_SWEEP_ANYWHERE : 0;
}

/* ---- findings ---- */

int gc_walk_nfinds(const gc_walk *w)
{
    return w->nfinds;
}

gc_walk_find *gc_walk_find_at(const gc_walk *w, int k)
{
    return &w->finds[k];
}

void *gc_walk_find_ext(const gc_walk *w, int k)
{
    return w->fext + (size_t)k * w->ops->find_ext;
}

static int find_index(const gc_walk *w, const char *sig, int hole)
{
    for (int k = 0; k < w->nfinds; k++)
        if (strcmp(w->finds[k].f.sig, sig) == 0 && w->finds[k].hole == hole)
            return k;
    return -1;
}

int gc_walk_found(const gc_walk *w, const char *sig, int hole, int steps)
{
    int k = find_index(w, sig, hole);
    return k >= 0 && w->finds[k].steps <= steps;
}

/* Finding 'to' made a copy of finding 'from' (its data too). */
static void find_copy(gc_walk *w, int to, int from)
{
    w->finds[to] = w->finds[from];
    memcpy(gc_walk_find_ext(w, to), gc_walk_find_ext(w, from), w->ops->find_ext);
}

int gc_walk_record(gc_walk *w, const void *cand, const char *sig, int hole, int steps)
{
    if (sig && gc_walk_found(w, sig, hole, steps))
        return 0;
    if (w->nfinds + 1 >= w->capfinds) { /* room for the scratch slot */
        w->capfinds = w->capfinds ? w->capfinds * 2 : 32;
        w->finds = gc_xrealloc(w->finds, (size_t)w->capfinds * sizeof *w->finds);
        w->fext = gc_xrealloc(w->fext, (size_t)w->capfinds * w->ops->find_ext + 1);
    }
    int s = w->nfinds;
    gc_walk_find *f = &w->finds[s];
    memset(f, 0, sizeof *f);
    memset(gc_walk_find_ext(w, s), 0, w->ops->find_ext);
    int rc = w->ops->confirm(w->m, cand, f, gc_walk_find_ext(w, s));
    if (rc <= 0)
        return -rc;
    if (sig && strcmp(f->f.sig, sig) != 0)
        return 0; /* it escaped another way the second time */
    f->hole = hole;
    f->steps = steps;
    int at = find_index(w, f->f.sig, hole);
    if (at < 0)
        w->nfinds++;
    else if (w->finds[at].steps > steps)
        find_copy(w, at, s);
    return 0;
}

/* Does finding x come after finding y in the report: by capability, then signature (then
 * hole)? */
static int find_after(const gc_walk *w, const gc_walk_find *x, const gc_walk_find *y)
{
    if (x->cap != y->cap)
        return x->cap > y->cap;
    int c = strcmp(x->f.sig, y->f.sig);
    if (c)
        return c > 0;
    return w->ops->sort_hole && x->hole > y->hole;
}

/* The findings in report order (find_after), those it does not order as they were kept
 * (a stable insertion sort: a sweep keeps tens of them); each one's data moves with it. */
static void walk_sort(gc_walk *w)
{
    int n = w->nfinds;
    if (n < 2)
        return;
    int *idx = gc_xmalloc((size_t)n * sizeof *idx);
    for (int k = 0; k < n; k++) {
        int j = k;
        for (; j > 0 && find_after(w, &w->finds[idx[j - 1]], &w->finds[k]); j--)
            idx[j] = idx[j - 1];
        idx[j] = k;
    }
    size_t fe = w->ops->find_ext;
    gc_walk_find *finds = gc_xmalloc((size_t)n * sizeof *finds);
    unsigned char *ext = gc_xmalloc((size_t)n * fe + 1);
    for (int k = 0; k < n; k++) {
        finds[k] = w->finds[idx[k]];
        if (fe)
            memcpy(ext + (size_t)k * fe, gc_walk_find_ext(w, idx[k]), fe);
    }
    memcpy(w->finds, finds, (size_t)n * sizeof *finds);
    if (fe)
        memcpy(w->fext, ext, (size_t)n * fe);
    free(ext);
    free(finds);
    free(idx);
}

int gc_walk_findings(const gc_walk *w, gc_finding **out)
{
    *out = gc_xcalloc((size_t)w->nfinds + 1, sizeof **out);
    for (int k = 0; k < w->nfinds; k++) {
        (*out)[k] = w->finds[k].f;
        if (w->names && w->finds[k].hole > 0)
            snprintf((*out)[k].hole, sizeof (*out)[k].hole, "%s", w->names(w->names_ctx, w->finds[k].hole));
    }
    return w->nfinds;
}

/* ---- the walk ---- */

int gc_walk_at_depth(gc_walk *w, long i)
{
    if (w->nodes[i].depth < w->o->depth)
        return 0;
    w->st->cut_depth++;
    return 1;
}

int gc_walk_step(gc_walk *w, long i)
{
    int rc = w->ops->node(w->m, w, i);
    if (rc)
        return rc == 1 ? 0 : rc;
    double now = gc_now_s(); /* vDSO: every node, so a stop or the bound ends the walk at once */
    if (now - w->last >= 2 && !w->o->quiet) {
        fprintf(stderr, "[sweep %5.1fs] depth %d, nodes %ld/%ld, %s %ld (%.0f/s), escapes %d\n", now - w->start,
                w->nodes[i].depth, i, w->nnodes, w->ops->unit, w->st->edges, w->st->edges / (now - w->start),
                w->nfinds);
        w->last = now;
    }
    if (gc_sweep_out_of_time(w->o, w->start, now)) {
        w->st->cut_time = 1;
        return 1;
    }
    return 0;
}

/* One level (gc_sweep_levels): nodes [from, to), then the mode's level_end. */
static int walk_level(void *ctx, long from, long to)
{
    gc_walk *w = ctx;
    for (long i = from; i < to; i++) {
        int rc = gc_walk_step(w, i);
        if (rc)
            return rc == 1 ? 0 : rc;
    }
    return w->ops->level_end ? w->ops->level_end(w->m, w, from, to) : 0;
}

static long walk_queued(void *ctx)
{
    const gc_walk *w = ctx;
    return w->nnodes;
}

static long walk_work(void *ctx, long from, long to)
{
    const gc_walk *w = ctx;
    return w->ops->work(w->m, from, to);
}

int gc_walk_run(gc_walk *w, const void *graph)
{
    w->start = w->last = gc_now_s();
    gc_sweep_bound(w->o, w->start);
    int rc = w->ops->roots(w->m, w);
    if (!rc) {
        gc_sweep_walker lv = {walk_queued, walk_level, w, w->ops->work ? walk_work : NULL, graph};
        rc = gc_sweep_levels(w->o, w->st, &lv, w->start, &w->frontier_end);
    }
    gc_sweep_bound(w->o, 0);
    w->st->nodes = w->nnodes;
    w->st->escapes = w->nfinds;
    walk_sort(w);
    return rc;
}
