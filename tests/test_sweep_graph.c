/* test_sweep_graph.c — a sweep hands its graph, findings and frontier to its caller
 * (chain/sweep.h gc_sweep_graph, source_sweep.h gc_source_graph, through the mode's table):
 * no operation reads what an earlier sweep left, so two sweeps with different options give
 * the same reports whether each runs alone, one after the other with the first's results
 * read last, or the second entirely inside the first (from its level callback, as a campaign
 * reads a sweep's findings while it runs).  A report here: the findings (signature, input,
 * hole, in report order) and the escapes' and frontier's inputs.  Run on a gate target and
 * on a source target (argv[1]). */
#include <Python.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fsutil.h"
#include "holes.h"
#include "mode.h"
#include "pycheck.h"
#include "timelimit.h"

static gc_target target;

typedef struct {
    gc_finding *f;
    int n;
    gc_inputs esc, front;
} report;

static void report_free(report *r)
{
    free(r->f);
    gc_inputs_free(&r->esc);
    gc_inputs_free(&r->front);
}

/* The report of a graph. */
static void report_of(const gc_mode_ops *m, const void *graph, report *r)
{
    r->n = m->sweep_findings(graph, &r->f);
    r->esc = (gc_inputs){0};
    r->front = (gc_inputs){0};
    m->sweep_inputs(graph, &r->esc, &r->front, 1 << 30);
}

static int same_inputs(const gc_inputs *a, const gc_inputs *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->len[i] != b->len[i] || memcmp(a->v[i], b->v[i], a->len[i]) != 0)
            return 0;
    return 1;
}

static void expect_same(const char *what, const report *got, const report *want)
{
    CHECK(got->n == want->n, "%s: %d findings, want %d", what, got->n, want->n);
    for (int k = 0; k < got->n && k < want->n; k++) {
        const gc_finding *a = &got->f[k], *b = &want->f[k];
        CHECK(strcmp(a->sig, b->sig) == 0 && strcmp(a->chain, b->chain) == 0 && strcmp(a->hole, b->hole) == 0,
              "%s: finding %d is [%s %s %s], want [%s %s %s]", what, k, a->sig, a->chain, a->hole, b->sig, b->chain,
              b->hole);
    }
    CHECK(same_inputs(&got->esc, &want->esc), "%s: the escapes' inputs differ (%d, want %d)", what, got->esc.n,
          want->esc.n);
    CHECK(same_inputs(&got->front, &want->front), "%s: the frontier differs (%d inputs, want %d)", what,
          got->front.n, want->front.n);
}

/* Sweep A: depth 2, its escapes named by hole; sweep B: flat, depth 3 on a gate target, 1
 * on a source target (whose programs are slower). */
static int depth_a = 2, depth_b;

/* A's hole names: its own for each sweep, as a caller keeps them (holes.h), freed at the end */
static gc_hole_names *names_a[3];
static int nnames_a;

static gc_sweep_opts opts_a(void)
{
    gc_sweep_opts o = {.depth = depth_a, .max_nodes = 2000000, .quiet = 1, .no_report = 1};
    gc_holes_sweep_setup(&o, names_a[nnames_a++] = gc_hole_names_new(&target), NULL);
    return o;
}

static gc_sweep_opts opts_b(void)
{
    return (gc_sweep_opts){.depth = depth_b, .max_nodes = 2000000, .quiet = 1, .no_report = 1};
}

/* A sweep with o, its graph into *graph (the caller frees it). */
static int sweep(const gc_mode_ops *m, gc_sweep_opts *o, void **graph)
{
    gc_sweep_stats st;
    int rc = m->sweep(&target, o, 0, NULL, &st, graph);
    CHECK(rc == 0 && *graph, "sweep to depth %d: exit %d", o->depth, rc);
    return rc;
}

/* A's level callback: after its first level, sweep B whole (and read A's findings so far
 * there, as a campaign does). */
typedef struct {
    const gc_mode_ops *m;
    report inner;
    int ran, seen_so_far;
} nested;

static void run_b_inside(void *ctx, const void *graph, int level, int complete)
{
    nested *n = ctx;
    if (level != 1 || complete != 1 || n->ran)
        return;
    gc_finding *f;
    n->seen_so_far = n->m->sweep_findings(graph, &f);
    free(f);
    gc_sweep_opts ob = opts_b();
    void *gb = NULL;
    if (sweep(n->m, &ob, &gb) == 0)
        report_of(n->m, gb, &n->inner);
    n->m->sweep_free(gb);
    n->ran = 1;
}

/* gc_sweep_levels on a walk whose roots queued nothing (every root escaped): the level
 * callback still runs once, for level 1 complete, so a campaign gets what the roots found. */
static long none_queued(void *ctx)
{
    (void)ctx;
    return 0;
}

static int no_walk(void *ctx, long from, long to)
{
    (void)ctx, (void)from, (void)to;
    return 0;
}

static void count_level(void *ctx, const void *graph, int level, int complete)
{
    (void)graph;
    int *calls = ctx;
    calls[0]++;
    calls[1] = level * 10 + complete;
}

static void roots_only(void)
{
    int calls[2] = {0, 0};
    gc_sweep_opts o = {.depth = 3, .level = count_level, .level_ctx = calls};
    gc_sweep_stats st = {0};
    gc_sweep_walker w = {none_queued, no_walk, NULL, NULL, NULL};
    long end;
    CHECK(gc_sweep_levels(&o, &st, &w, gc_now_s(), &end) == 0, "roots only: not 0");
    CHECK(calls[0] == 1 && calls[1] == 11, "roots only: the level callback ran %d time(s), last (level*10+complete) %d; "
          "want once, 11", calls[0], calls[1]);
    CHECK(st.levels == 3, "roots only: %d levels complete, want 3", st.levels);
}

int main(int argc, char **argv)
{
    roots_only();
    if (argc != 2) {
        fprintf(stderr, "usage: test_sweep_graph TARGET_DIR\n");
        return 2;
    }
    const char *scratch = check_session(&target, argv[1]);
    if (!scratch)
        return 2;
    const gc_mode_ops *m = gc_mode_ops_of(target.spec.kind);
    depth_b = target.spec.kind == GC_TARGET_SOURCE ? 1 : 3;
    report a_alone = {0}, b_alone = {0}, a_kept = {0};
    void *ga = NULL, *gb = NULL;

    /* each alone */
    gc_sweep_opts oa = opts_a(), ob = opts_b();
    if (sweep(m, &oa, &ga) == 0)
        report_of(m, ga, &a_alone);
    m->sweep_free(ga);
    if (sweep(m, &ob, &gb) == 0)
        report_of(m, gb, &b_alone);
    m->sweep_free(gb);
    CHECK(a_alone.n > 0 && (a_alone.n != b_alone.n || a_alone.front.n != b_alone.front.n),
          "the two sweeps differ (%d and %d findings, %d and %d frontier inputs): nothing to tell apart", a_alone.n,
          b_alone.n, a_alone.front.n, b_alone.front.n);

    /* one after the other, A's graph read after B ran */
    ga = gb = NULL;
    oa = opts_a();
    ob = opts_b();
    if (sweep(m, &oa, &ga) == 0 && sweep(m, &ob, &gb) == 0) {
        report b_then = {0};
        report_of(m, ga, &a_kept);
        report_of(m, gb, &b_then);
        expect_same("A read after B ran", &a_kept, &a_alone);
        expect_same("B after A", &b_then, &b_alone);
        report_free(&b_then);
    }
    m->sweep_free(ga);
    m->sweep_free(gb);

    /* B inside A: run from A's level callback after its first level */
    nested n = {m, {0}, 0, 0};
    oa = opts_a();
    oa.level = run_b_inside;
    oa.level_ctx = &n;
    ga = NULL;
    if (sweep(m, &oa, &ga) == 0) {
        report a_outer = {0};
        report_of(m, ga, &a_outer);
        CHECK(n.ran, "A's level callback ran B");
        CHECK(n.seen_so_far <= a_alone.n, "A's findings so far: %d, more than its %d in all", n.seen_so_far,
              a_alone.n);
        expect_same("B inside A", &n.inner, &b_alone);
        expect_same("A around B", &a_outer, &a_alone);
        report_free(&a_outer);
    }
    m->sweep_free(ga);

    report_free(&n.inner);
    report_free(&a_alone);
    report_free(&b_alone);
    report_free(&a_kept);
    for (int i = 0; i < nnames_a; i++)
        gc_hole_names_free(names_a[i]);
    gc_rm_tree(scratch);
    return check_summary();
}
