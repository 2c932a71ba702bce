/* test_advise.c — advise's cut (triage/advise.c, gc_advise_cut) on small synthetic graphs,
 * no Python: the "sweep" is a table of routes, each reaching one primitive through one hole,
 * and the cut must be the fewest holes that leave nothing closable, with what is left.
 *
 * A route shows in a sweep when its hole is open and
 *   - every hole in 'needs' is closed: its region is reached only once those are (the real
 *     sweep's depth bound: closing a hole uncovers another the walk had not reached), and
 *   - no hole in 'gone' is closed: closing one of them removes an edge the route takes (one
 *     hole's label covers many edges).
 * Its findings are grouped into rows by the real gc_holes_group, which also says which holes
 * are closable (gc_hole_closable: type . __subclasses__() and cell . cell_contents are not). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "holes.h"

typedef struct {
    const char *hole, *cap, *prim;
    const char *needs[3], *gone[3];
} route;

typedef struct {
    const route *r;
    int n;
    int calls;   /* sweeps run */
    int fail_at; /* the sweep number that fails with exit 3 (0: none) */
} graph;

static int closed_has(const gc_strlist *closed, const char *h) { return h && gc_sl_contains(closed, h); }

static int shows(const route *r, const gc_strlist *closed)
{
    if (closed_has(closed, r->hole))
        return 0;
    for (int i = 0; i < 3 && r->needs[i]; i++)
        if (!closed_has(closed, r->needs[i]))
            return 0;
    for (int i = 0; i < 3 && r->gone[i]; i++)
        if (closed_has(closed, r->gone[i]))
            return 0;
    return 1;
}

static int sweep(void *ctx, const gc_strlist *closed, gc_hole_row **rows, int *nrows)
{
    graph *g = ctx;
    if (++g->calls == g->fail_at)
        return 3; /* as a sweep the gate stopped: GC_EXIT_TARGET */
    gc_finding *f = calloc((size_t)g->n + 1, sizeof *f);
    int n = 0;
    for (int i = 0; i < g->n; i++) {
        if (!shows(&g->r[i], closed))
            continue;
        snprintf(f[n].hole, sizeof f[n].hole, "%s", g->r[i].hole);
        snprintf(f[n].cap, sizeof f[n].cap, "%s", g->r[i].cap);
        snprintf(f[n].prim, sizeof f[n].prim, "%s", g->r[i].prim);
        snprintf(f[n].kind, sizeof f[n].kind, "reach");
        snprintf(f[n].sig, sizeof f[n].sig, "reach:%s:%s", g->r[i].cap, g->r[i].prim);
        snprintf(f[n].chain, sizeof f[n].chain, "route%d", i);
        n++;
    }
    *nrows = gc_holes_group(f, n, rows);
    free(f);
    return 0;
}

/* The holes of rows[0..n), one line, ", "-separated, in their order. */
static const char *names(const gc_hole_row *rows, int n)
{
    static char buf[2048];
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "", rows[i].hole);
    return buf;
}

static const char *list(const gc_strlist *l)
{
    static char buf[2048];
    buf[0] = '\0';
    for (int i = 0; i < l->n; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "", l->v[i]);
    return buf;
}

/* The cut of 'g' is want_cut (its holes in order, ", "-separated) and the proof's rows are
 * want_left, none closable. */
static void expect_cut(const char *what, graph *g, const char *want_cut, const char *want_left)
{
    gc_strlist cut = {0};
    gc_hole_row *kept = NULL, *rest = NULL;
    int nkept = 0, nrest = 0;
    int rc = gc_advise_cut(sweep, g, &cut, &kept, &nkept, &rest, &nrest);
    CHECK(rc == 0, "%s: gc_advise_cut returned %d", what, rc);
    CHECK(strcmp(list(&cut), want_cut) == 0, "%s: chose %d hole(s) [%s], expected [%s]", what, cut.n, list(&cut),
          want_cut);
    CHECK(nkept == cut.n && strcmp(names(kept, nkept), list(&cut)) == 0, "%s: the rows [%s] are not the cut [%s]",
          what, names(kept, nkept), list(&cut));
    CHECK(strcmp(names(rest, nrest), want_left) == 0, "%s: left [%s], expected [%s]", what, names(rest, nrest),
          want_left);
    for (int i = 0; i < nrest; i++)
        CHECK(!rest[i].closable, "%s: the cut leaves a closable hole open: %s", what, rest[i].hole);
    free(kept);
    free(rest);
    gc_sl_free(&cut);
}

#define SUB "type . __subclasses__()"
#define CELL "cell . cell_contents"
#define PRIM "proxy os .<primitive>"
#define MOD "proxy subprocess .<module>"
#define SELF "builtin_function_or_method . __self__"
#define GLOB "function . __globals__"
#define SET "set os.supports_fd []<primitive>"
#define G(routes) {routes, (int)(sizeof routes / sizeof routes[0]), 0, 0}

int main(void)
{
    /* independent holes: each closable one is in the cut, in the rows' order (capability,
     * then name); the ones no namespace gate can close are left */
    static const route simple[] = {
        {GLOB, "write", "os.remove", {0}, {0}},
        {PRIM, "spawn", "os.system", {0}, {0}},
        {PRIM, "spawn", "os.execv", {0}, {0}},
        {SUB, "spawn", "subprocess.Popen", {0}, {0}},
        {CELL, "write", "builtins.open", {0}, {0}},
    };
    graph g1 = G(simple);
    expect_cut("independent holes", &g1, PRIM ", " GLOB, SUB ", " CELL);

    /* closing MOD uncovers GLOB (its region was past the depth); SELF shows at first, but its
     * only route takes an edge GLOB labels too: once GLOB is closed SELF is not needed, and
     * the fewest holes that close everything closable are MOD and GLOB, not MOD, SELF, GLOB */
    static const route uncover[] = {
        {MOD, "spawn", "os.system", {0}, {0}},
        {SELF, "spawn", "os.execv", {0}, {GLOB}},
        {GLOB, "spawn", "os.fork", {MOD}, {0}},
        {SUB, "spawn", "subprocess.Popen", {0}, {0}},
    };
    graph g2 = G(uncover);
    expect_cut("an uncovered hole makes an earlier one unneeded", &g2, MOD ", " GLOB, SUB);

    /* a chain of uncovering: SET shows only with MOD and PRIM closed, PRIM only with MOD;
     * every one is needed */
    static const route chain[] = {
        {MOD, "spawn", "os.system", {0}, {0}},
        {PRIM, "write", "os.chmod", {MOD}, {0}},
        {SET, "write", "os.chown", {MOD, PRIM}, {0}},
    };
    graph g3 = G(chain);
    expect_cut("uncovered in turn", &g3, MOD ", " PRIM ", " SET, "");

    /* nothing closable: an empty cut, everything left */
    static const route none[] = {
        {SUB, "spawn", "subprocess.Popen", {0}, {0}},
        {CELL, "write", "builtins.open", {0}, {0}},
    };
    graph g4 = G(none);
    expect_cut("nothing closable", &g4, "", SUB ", " CELL);

    /* a sweep that fails (exit 3, as one the gate stops does) in a round of closing (calls 1,
     * 2), while a hole's need is tested (3, 4) or in the proof (5): its code comes back, and
     * nothing is freed twice */
    for (int at = 1; at <= 5; at++) {
        graph g5 = G(simple);
        g5.fail_at = at;
        gc_strlist cut = {0};
        gc_hole_row *kept = NULL, *rest = NULL;
        int nkept = 0, nrest = 0;
        int rc = gc_advise_cut(sweep, &g5, &cut, &kept, &nkept, &rest, &nrest);
        CHECK(rc == 3, "a sweep failing at call %d: gc_advise_cut returned %d, want 3", at, rc);
        free(kept);
        free(rest);
        gc_sl_free(&cut);
    }
    return check_summary();
}
