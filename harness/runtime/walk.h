/* walk.h — the one graph walker of both sweeps (chain/sweep.h: a gate's namespace;
 * source/source_sweep.h: a source target's programs).
 *
 * Owns: a sweep's graph (a node is a value, kept alive, once per (identity, hole); the
 * parent, kind and key of the edge that reached it; its depth), the hole of an edge by
 * gc_sweep_opts.hole (a closed edge is not taken, `sweep --close`), the findings (one per
 * signature and hole, confirmed by the mode before it is kept; in report order once
 * sorted), and the walk itself: the roots, then level by level (gc_sweep_levels) each
 * node expanded, its progress shown, within the bounds.  A mode supplies (gc_walk_ops) its
 * roots, a node's edges (which it may write), its per-node and per-finding data, and how a
 * finding is confirmed (gc_walk_record).  Everything of a walk is in its gc_walk, which the
 * mode's graph holds and hands its caller: nothing is kept between walks. */
#ifndef GATECRASH_WALK_H
#define GATECRASH_WALK_H

#include "verdict.h"

typedef struct {
    PyObject *obj;      /* strong */
    PyObject *key;      /* strong: root name, attribute, key, element name; NULL for a call */
    int parent;         /* -1: a root */
    unsigned char kind; /* the mode's edge kind (GC_T_* or GC_EDGE_*), or GC_WALK_ROOT */
    unsigned char depth;
    int hole;           /* the hole its path went through (gc_sweep_opts.hole), 0: none */
} gc_walk_node;

#define GC_WALK_ROOT 255

/* One finding: its table row (hole left "": gc_walk_findings names it), what the report
 * sorts by, and the mode's data (gc_walk_find_ext). */
typedef struct {
    gc_finding f;
    gc_cap cap;
    int hole;
    int steps; /* a finding of its signature and hole with fewer steps takes its place */
} gc_walk_find;

typedef struct gc_walk gc_walk;

typedef struct {
    const char *unit;   /* what a node runs, in the progress line: "edges", "programs" */
    size_t node_ext;    /* bytes of the mode's data per node (gc_walk_node_ext), zeroed on push */
    size_t find_ext;    /* bytes per finding (gc_walk_find_ext) */
    int sort_hole;      /* findings of one signature in hole order (else in the order kept) */
    /* Queue the roots (gc_walk_push): 0 or an exit code. */
    int (*roots)(void *m, gc_walk *w);
    /* Node i's edges: 0 when expanded, 1 when not (a bound, or nothing to do: no progress
     * line or time check after it), or an exit code (> 1) that ends the walk. */
    int (*node)(void *m, gc_walk *w, long i);
    /* After a level's nodes [from, to): more of its work (NULL: none); 0 or an exit code. */
    int (*level_end)(void *m, gc_walk *w, long from, long to);
    /* The work of nodes [from, to) for the budget's projection (NULL: their count). */
    long (*work)(void *m, long from, long to);
    /* The candidate 'cand' run again: 1 when it escapes, with f->f, f->cap and its data
     * 'ext' (find_ext bytes) filled; 0 when not; or minus an exit code. */
    int (*confirm)(void *m, const void *cand, gc_walk_find *f, void *ext);
    void (*free_node)(void *ext); /* NULL: nothing to free */
} gc_walk_ops;

/* A walk of 'o' for the mode 'ops' (its context m), 'ns' the namespace the hole rule is
 * handed (borrowed: it must outlive the walk's edges).  Freed by gc_walk_free. */
gc_walk *gc_walk_new(const gc_walk_ops *ops, void *m, const gc_sweep_opts *o, gc_sweep_stats *st, PyObject *ns);
void gc_walk_free(gc_walk *w);
/* The walk's namespace (gc_walk_new's 'ns'); set it again once the roots gave it. */
void gc_walk_set_ns(gc_walk *w, PyObject *ns);

/* The walk: the roots, then the levels within o's bounds (o->level handed 'graph', the
 * mode's graph that holds w), then the findings sorted.  0 or an exit code. */
int gc_walk_run(gc_walk *w, const void *graph);
/* Node i expanded through the mode (levels and a mode's level_end use it), its progress
 * shown; 1 when the time bound stops the walk, an exit code (> 1), or 0. */
int gc_walk_step(gc_walk *w, long i);
/* Node i at the depth bound (counted in st->cut_depth)? */
int gc_walk_at_depth(gc_walk *w, long i);

long gc_walk_nnodes(const gc_walk *w);
/* Node i (moves when the graph grows: look it up again after a push or a program run). */
gc_walk_node *gc_walk_node_at(const gc_walk *w, long i);
void *gc_walk_node_ext(const gc_walk *w, long i);
/* A new node (obj and key kept alive), its data zeroed; its index. */
long gc_walk_push(gc_walk *w, PyObject *obj, PyObject *key, int parent, int kind, int depth, int hole);
/* Seen (p, hole) before?  'add': and mark it seen (only once it is kept: a freed object's
 * address must never count as seen). */
int gc_walk_seen(gc_walk *w, const void *p, int hole, int add);
/* The hole of the edge node i --(kind, key)--> v (NULL: none given back): *hole is node
 * i's, or the edge's when node i's path went through none; 0 when the edge is closed (its
 * source is something the gate hands out and its hole one of those closed), else 1. */
int gc_walk_edge_hole(gc_walk *w, long i, int kind, PyObject *key, PyObject *v, int *hole);
/* A root's hole: -1 when it is closed (not queued), else its hole or 0. */
int gc_walk_root_hole(gc_walk *w, PyObject *key, PyObject *v);

/* Is signature 'sig' kept already for 'hole' in at most 'steps' steps? */
int gc_walk_found(const gc_walk *w, const char *sig, int hole, int steps);
/* A candidate of signature 'sig' (NULL: not known before it runs) for 'hole', 'steps'
 * from a root: confirmed by the mode (gc_walk_ops.confirm) unless kept already in at most
 * as many steps, and kept when it is new for its signature and hole or shorter.  0 or an
 * exit code. */
int gc_walk_record(gc_walk *w, const void *cand, const char *sig, int hole, int steps);
int gc_walk_nfinds(const gc_walk *w);
gc_walk_find *gc_walk_find_at(const gc_walk *w, int k);
void *gc_walk_find_ext(const gc_walk *w, int k);
/* The findings as the tables hold them (malloc'd), hole names by o->hole_name. */
int gc_walk_findings(const gc_walk *w, gc_finding **out);
/* The queue's length when the last complete level ended (a frontier's end). */
long gc_walk_frontier_end(const gc_walk *w);

#endif
