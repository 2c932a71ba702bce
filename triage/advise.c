/* advise.c — the sweep's report by hole, and `advise`: which holes to close (holes.h).
 *
 * The cut.  Every hole is the FIRST edge of a path that leaves what the gate hands out
 * (the region R: the roots and what plain edges reach from them), so hole labels sit only
 * on edges leaving R, and closing a hole removes its edges wherever their source is in R.
 * The cut is found by closing and re-sweeping: close every closable hole the sweep shows,
 * sweep again (closing one can uncover another whose region the first one's walk did not
 * reach within the depth), until only holes a namespace gate cannot close are left; then
 * drop each hole whose reopening alone uncovers no closable hole.  Minimum label cuts are
 * NP-hard in general (one label covers many edges), but here each hole kept has a witness:
 * with every other hole of the cut closed, a chain still leaves R through it and reaches a
 * primitive, and on that chain no other edge leaving R is a hole anyone reported; any cut
 * must then close it or an edge of that chain after it.  So the result is a minimal cut
 * (no hole can be dropped), and minimum unless one unreported edge further along the
 * witness chains could stand in for two or more holes at once; `--verify` (sweep --close
 * with the cut) proves it suffices at the depth. */
#include "holes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "minimize.h"
#include "source_holes.h"
#include "weakness.h"
#include "timelimit.h"
#include "xalloc.h"

/* A sweep's findings as rows (caller frees both). */
static int sweep_rows(const gc_sweep_graph *g, gc_finding **f, gc_hole_row **rows)
{
    int n = gc_sweep_findings(g, f);
    return gc_holes_group(*f, n, rows);
}

/* The summary line: holes, distinct signatures (one may be opened by several holes), bounds. */
static void print_summary(const gc_sweep_stats *st, const gc_finding *f, int n, const gc_hole_row *rows, int nrows)
{
    int sigs = 0;
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < i && strcmp(f[k].sig, f[i].sig) != 0)
            k++;
        sigs += k == i;
    }
    int weak = 0; /* rows per weakness (gc_holes_group_weakness) */
    for (int i = 0; i < nrows; i++)
        weak |= rows[i].roots[0] != '\0';
    printf("%d %s, %d escape signature(s); ", nrows, weak ? "weakness(es)" : "hole(s)", sigs);
    gc_sweep_print_counts(st);
}

static void print_json(gc_target *t, const gc_sweep_opts *o, const gc_sweep_stats *st, const char *const *closed,
                       const gc_finding *f, int n, const gc_hole_row *rows, int nrows)
{
    cJSON *j = gc_sweep_json(t, o, st, f, n); /* the sweep's own report, with what advise adds */
    cJSON *c = cJSON_AddArrayToObject(j, "closed");
    for (int i = 0; closed && closed[i]; i++)
        cJSON_AddItemToArray(c, cJSON_CreateString(closed[i]));
    cJSON_AddItemToObject(j, "holes", gc_holes_json(rows, nrows));
    gc_json_print(j);
}

void gc_holes_sweep_print(gc_target *t, const gc_sweep_opts *o, const gc_sweep_stats *st, const char *const *closed,
                          const gc_finding *f, int n, const gc_hole_row *rows, int nrows)
{
    if (o->json) {
        print_json(t, o, st, closed, f, n, rows, nrows);
        return;
    }
    char policy[512];
    gc_policy_describe(&t->policy, policy, sizeof policy);
    printf("sweep of %s (policy %s), depth %d, at most %ld nodes\n", t->spec.name, policy, o->depth, o->max_nodes);
    for (int i = 0; closed && closed[i]; i++)
        printf("closed: %s\n", closed[i]);
    if (nrows)
        gc_holes_print(stdout, rows, nrows);
    print_summary(st, f, n, rows, nrows);
}

int gc_holes_sweep(gc_target *t, gc_sweep_opts *o, const char *const *closed, gc_sweep_stats *st,
                   gc_sweep_graph **out)
{
    o->no_report = 1;
    gc_sweep_graph *g;
    int rc = gc_sweep(t, o, st, &g);
    if (out)
        *out = NULL;
    if (rc)
        return rc;
    gc_finding *f;
    gc_hole_row *rows;
    int nrows = sweep_rows(g, &f, &rows);
    const char *unmatched[64];
    int nu = gc_holes_unmatched(o->hole_ctx, closed, unmatched, 64);
    for (int i = 0; i < nu; i++)
        fprintf(stderr, "gatecrash: warning: --close '%s': no edge of this sweep is that hole\n", unmatched[i]);
    gc_holes_sweep_print(t, o, st, closed, f, st->escapes, rows, nrows);
    free(f);
    free(rows);
    if (out)
        *out = g;
    else
        gc_sweep_free(g);
    return 0;
}

/* A quiet sweep of t in its mode (a gate's namespace, or a source target's programs: one
 * walker, walk.h), its findings (caller frees).  0 or an exit code. */
static int mode_findings(gc_target *t, const gc_sweep_opts *o, gc_sweep_stats *st, gc_finding **f, int *n)
{
    *f = NULL;
    *n = 0;
    if (t->spec.kind == GC_TARGET_SOURCE) {
        gc_source_graph *g;
        int rc = gc_source_sweep(t, o, st, &g);
        if (!rc)
            *n = gc_source_sweep_findings(g, f);
        gc_source_sweep_free(g);
        return rc;
    }
    gc_sweep_graph *g;
    int rc = gc_sweep(t, o, st, &g);
    if (!rc)
        *n = gc_sweep_findings(g, f);
    gc_sweep_free(g);
    return rc;
}

/* A quiet sweep with 'closed' (a list; NULL-terminated copy made here) closed: its rows
 * (one per hole, in either mode: the cut closes holes); *cut set when a time bound or a
 * stop cut it. */
static int sweep_with(gc_target *t, const gc_sweep_opts *base, gc_hole_names *h, const gc_strlist *closed,
                      gc_hole_row **rows, int *nrows, int *cut)
{
    gc_sweep_opts o = *base;
    o.quiet = 1, o.json = 0, o.save = NULL;
    const char **c = gc_xcalloc((size_t)closed->n + 1, sizeof *c);
    for (int i = 0; i < closed->n; i++)
        c[i] = closed->v[i];
    gc_holes_sweep_setup(&o, h, c);
    o.no_report = 1;
    gc_sweep_stats st;
    gc_finding *f;
    int n, rc = mode_findings(t, &o, &st, &f, &n);
    *nrows = rc ? 0 : gc_holes_group(f, n, rows);
    *cut |= !rc && st.cut_time;
    free(f);
    free(c);
    return rc;
}

/* Can the cut close row r?  A closable hole with a name (a source target's implicit root,
 * which the sandbox does not say it hands out, opens one the rule does not name). */
static int cuttable(const gc_hole_row *r)
{
    return r->closable && strcmp(r->hole, "(not named)") != 0;
}

/* Closable holes among rows[0..n) not yet in 'cut': appended, with their rows; how many. */
static int add_closable(gc_strlist *cut, gc_hole_row **kept, int *nkept, const gc_hole_row *rows, int n)
{
    int added = 0;
    for (int i = 0; i < n; i++) {
        if (!cuttable(&rows[i]) || gc_sl_contains(cut, rows[i].hole))
            continue;
        gc_sl_add(cut, rows[i].hole);
        *kept = gc_xrealloc(*kept, (size_t)(*nkept + 1) * sizeof **kept);
        (*kept)[(*nkept)++] = rows[i];
        added++;
    }
    return added;
}

static int any_closable(const gc_hole_row *rows, int n)
{
    for (int i = 0; i < n; i++)
        if (cuttable(&rows[i]))
            return 1;
    return 0;
}

/* The cut (advise.c's opening comment): close and re-sweep until no closable hole shows,
 * then drop each hole whose reopening alone shows none (holes.h, gc_advise_cut). */
int gc_advise_cut(gc_cut_sweep sweep, void *ctx, gc_strlist *cut, gc_hole_row **kept, int *nkept,
                  gc_hole_row **rest, int *nrest)
{
    gc_hole_row *rows = NULL;
    int n, rc = 0;
    for (int round = 0; round < 64; round++) {
        if ((rc = sweep(ctx, cut, &rows, &n)))
            return rc;
        int added = add_closable(cut, kept, nkept, rows, n);
        free(rows);
        if (!added)
            break;
    }
    for (int i = 0; i < cut->n;) {
        gc_strlist without = {0};
        for (int k = 0; k < cut->n; k++)
            if (k != i)
                gc_sl_add(&without, cut->v[k]);
        rows = NULL; /* a sweep that fails gives none: the last round's are freed */
        rc = sweep(ctx, &without, &rows, &n);
        int needed = !rc && any_closable(rows, n);
        free(rows);
        if (rc || needed) {
            gc_sl_free(&without);
            if (rc)
                return rc;
            i++;
            continue;
        }
        gc_sl_free(cut); /* not needed: drop it */
        *cut = without;
        memmove(&(*kept)[i], &(*kept)[i + 1], (size_t)(*nkept - i - 1) * sizeof **kept);
        (*nkept)--;
    }
    return sweep(ctx, cut, rest, nrest); /* the proof: the sweep again, the cut closed */
}

typedef struct {
    gc_target *t;
    const gc_sweep_opts *o;
    gc_hole_names *names; /* every sweep's, for what closing a hole means (its edges' keys) */
    int cut; /* a sweep was cut short (gc_sweep_stats.cut_time): nothing it gave is proven */
    gc_strlist *found; /* then: the closable holes found so far (the cut's, and that sweep's) */
} target_sweep;

#define ADVISE_CUT_SHORT (-1) /* sweep_target: the sweep was cut short (not an exit code) */

/* gc_cut_sweep over the real target; a sweep cut short ends the search (the cut needs whole
 * sweeps): ADVISE_CUT_SHORT, no rows. */
static int sweep_target(void *ctx, const gc_strlist *closed, gc_hole_row **rows, int *nrows)
{
    target_sweep *s = ctx;
    int rc = sweep_with(s->t, s->o, s->names, closed, rows, nrows, &s->cut);
    if (!rc && s->cut) {
        for (int i = 0; i < *nrows; i++)
            if (cuttable(&(*rows)[i]) && !gc_sl_contains(s->found, (*rows)[i].hole))
                gc_sl_add(s->found, (*rows)[i].hole);
        free(*rows);
        *rows = NULL;
        *nrows = 0;
        rc = ADVISE_CUT_SHORT;
    }
    return rc;
}

/* The search stopped (--time, SIGINT, SIGTERM): what it had, and that it is no advice. */
static void advise_stopped(gc_target *t, const gc_sweep_opts *o, const gc_strlist *cut)
{
    if (o->json) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "target", t->spec.name);
        cJSON_AddNumberToObject(j, "depth", o->depth);
        cJSON_AddBoolToObject(j, "stopped", 1);
        cJSON *found = cJSON_AddArrayToObject(j, "closable_so_far");
        for (int i = 0; i < cut->n; i++)
            cJSON_AddItemToArray(found, cJSON_CreateString(cut->v[i]));
        cJSON_AddBoolToObject(j, "verified", 0);
        gc_json_print(j);
        return;
    }
    printf("advise for %s at depth %d: STOPPED (the time bound, or SIGINT/SIGTERM) before its sweeps were whole: "
           "INCOMPLETE, no cut found or verified; closable hole(s) found so far: %d\n", t->spec.name, o->depth,
           cut->n);
    for (int i = 0; i < cut->n; i++)
        printf("  - %s\n", cut->v[i]);
}

/* What closing the hole means here, with what its edges were ("wrap these 14 real
 * functions: os.link, ..."). */
static void closing_text(const gc_hole_names *h, const gc_hole_row *r, char *out, size_t len)
{
    char advice[400];
    gc_hole_advice(r->hole, advice, sizeof advice);
    const char *keys = gc_holes_edge_keys(h, r->hole);
    if (strstr(r->hole, "<module>"))
        snprintf(out, len, "%s; the attributes: %s", advice, keys);
    else if (gc_hole_closable(r->hole) && strstr(r->hole, " . ") && keys[0])
        snprintf(out, len, "%s; handed out as: %.300s%s", advice, keys, strlen(keys) > 300 ? ", ..." : "");
    else if (strstr(r->hole, "<primitive>") && !strstr(r->hole, "[]"))
        snprintf(out, len, "%s; these %d: %s", advice, r->nprims, r->prims);
    else
        snprintf(out, len, "%s", advice);
}

static cJSON *advise_json(gc_target *t, const gc_sweep_opts *o, const gc_hole_names *h, const gc_hole_row *kept,
                          int nkept, const gc_hole_row *rest, int nrest, int ok)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "target", t->spec.name);
    cJSON_AddNumberToObject(j, "depth", o->depth);
    cJSON *cut = gc_holes_json(kept, nkept);
    for (int i = 0; i < nkept; i++) {
        char closing[1600];
        closing_text(h, &kept[i], closing, sizeof closing);
        cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cut, i), "closing", cJSON_CreateString(closing));
    }
    cJSON_AddItemToObject(j, "cut", cut);
    cJSON_AddItemToObject(j, "not_closable", gc_holes_json(rest, nrest));
    cJSON_AddBoolToObject(j, "verified", ok);
    return j;
}

/* A source target's hole: the weakness its program shows, and the check of the sandbox it
 * passes (weakness.h), what the maintainer fixes besides the hole. */
static void print_weakness(const gc_target *t, const gc_hole_row *r)
{
    char name[160], check[400], root[80];
    if (t->spec.kind != GC_TARGET_SOURCE || gc_weakness_of_program(r->chain, name, sizeof name, check, sizeof check,
                                                                   root, sizeof root) != 0)
        return;
    printf("    weakness: %s; the check it passes: %s\n", name, check);
}

static void advise_text(gc_target *t, const gc_sweep_opts *o, const gc_hole_names *h, const gc_hole_row *kept,
                        int nkept, const gc_hole_row *rest, int nrest, int ok)
{
    if (nkept)
        printf("advise for %s at depth %d: close %d hole(s):\n", t->spec.name, o->depth, nkept);
    else
        printf("advise for %s at depth %d: nothing left to close. Every route to a forbidden primitive the sweep "
               "finds goes through a hole no namespace gate can close%s\n", t->spec.name, o->depth,
               nrest ? " (below)." : "; it finds none at all.");
    for (int i = 0; i < nkept; i++) {
        char closing[1600];
        closing_text(h, &kept[i], closing, sizeof closing);
        gc_strbuf via;
        gc_sb_init(&via);
        gc_input_oneline(kept[i].chain, GC_LINE_SEP, &via); /* a source target's program on one line */
        printf("%2d. %s  (%s; cuts %d primitive(s), %d signature(s))\n    closing it: %s\n    cuts: %.160s%s\n"
               "    via %s\n", i + 1, kept[i].hole, kept[i].caps, kept[i].nprims, kept[i].nsigs, closing,
               kept[i].prims, strlen(kept[i].prims) > 160 ? ", ..." : "", via.data ? via.data : "");
        gc_sb_free(&via);
        print_weakness(t, &kept[i]);
    }
    if (nrest) {
        printf("not closable by a namespace gate (%d): Python semantics; they need compile-time attribute "
               "restrictions, or not handing out the objects they start from:\n", nrest);
        for (int i = 0; i < nrest; i++) {
            gc_strbuf via;
            gc_sb_init(&via);
            gc_input_oneline(rest[i].chain, GC_LINE_SEP, &via);
            printf("  - %s  (%s; %d primitive(s))\n    via %s\n", rest[i].hole, rest[i].caps, rest[i].nprims,
                   via.data ? via.data : "");
            gc_sb_free(&via);
        }
    }
    if (ok && nrest)
        printf("verified: with the %d hole(s) above closed, the sweep at depth %d reaches a forbidden primitive "
               "only through the %d hole(s) no namespace gate can close.\n", nkept, o->depth, nrest);
    else if (ok)
        printf("verified: with the %d hole(s) above closed, the sweep at depth %d reaches no forbidden primitive.\n",
               nkept, o->depth);
    else
        printf("NOT verified: with the cut closed the sweep still finds a closable hole.\n");
}

int gc_advise(gc_target *t, gc_sweep_opts *o, int verify)
{
    gc_strlist cut = {0};
    gc_hole_row *kept = NULL, *rest = NULL;
    int nkept = 0, nrest = 0;
    target_sweep ts = {t, o, gc_hole_names_new(t), 0, &cut};
    int rc = gc_advise_cut(sweep_target, &ts, &cut, &kept, &nkept, &rest, &nrest);
    if (rc == ADVISE_CUT_SHORT) {
        advise_stopped(t, o, &cut);
        rc = 1; /* the proof does not hold */
    } else if (!rc) {
        int ok = !any_closable(rest, nrest);
        if (o->json) {
            cJSON *j = advise_json(t, o, ts.names, kept, nkept, rest, nrest, ok);
            gc_json_print(j);
        } else {
            advise_text(t, o, ts.names, kept, nkept, rest, nrest, ok);
        }
        rc = ok ? 0 : 1;
        if (verify && !o->json) { /* the proof as `sweep --close` gives it */
            printf("\nverification: the sweep with the cut closed\n");
            const char **c = gc_xcalloc((size_t)cut.n + 1, sizeof *c);
            for (int i = 0; i < cut.n; i++)
                c[i] = cut.v[i];
            gc_sweep_stats st;
            gc_sweep_opts vo = *o;
            vo.quiet = 1;
            gc_holes_sweep_setup(&vo, ts.names, c);
            int vrc = t->spec.kind == GC_TARGET_SOURCE ? gc_source_holes_sweep(t, &vo, c, &st, NULL)
                                                       : gc_holes_sweep(t, &vo, c, &st, NULL);
            free(c);
            if (vrc)
                rc = vrc;
        }
    }
    free(kept);
    free(rest);
    gc_sl_free(&cut);
    gc_hole_names_free(ts.names);
    return rc;
}

/* ---- the campaign's table by hole ---- */

void gc_holes_campaign_hook(void *ctx, gc_target *t, const gc_chain *c, char *hole, size_t len)
{
    (void)ctx;
    static gc_outcome out;
    char err[256];
    if (gc_hole_of_chain(t, c, &out, hole, len, err, sizeof err) != 0)
        hole[0] = '\0';
}

typedef struct {
    gc_target *t;
    const char *hole;
} same_hole;

/* gc_min_check: a smaller chain is kept only if it opens the same hole. */
static int keeps_hole(void *ctx, const gc_chain *c, const gc_outcome *o)
{
    (void)o;
    same_hole *s = ctx;
    char h[GC_HOLE_NAME];
    gc_holes_campaign_hook(NULL, s->t, c, h, sizeof h);
    return strcmp(h, s->hole) == 0;
}

#define GC_MIN_ROW_LIMIT 0.2 /* seconds a candidate may take (ten times fuzz_gate's limit) */

void gc_holes_minimize_row(gc_target *t, const char *hole, char *input, size_t cap)
{
    static gc_chain in, best;
    static gc_outcome out;
    gc_parse_error pe;
    if (gc_chain_parse((const uint8_t *)input, strlen(input), GC_PARSE_STRICT, &in, &pe) != 0)
        return;
    same_hole s = {t, hole};
    gc_min_stats ms;
    /* The campaign's jobs ran each input under fuzz_gate's 0.02 s limit, so a candidate
     * that needs more than GC_MIN_ROW_LIMIT is no smaller escape of this hole (a bounded
     * run's jobs had 2 s: there a candidate slower than this is passed over, and the row
     * keeps its longer chain).  Under the command's 2 s every candidate that reads a blocking property or
     * calls a blocking function waited it out: 26 s of a 10 s campaign's table on
     * tests/fixtures/hostile/blocking (tests/known_hangs.sh). */
    double limit = gc_input_time_limit;
    if (limit <= 0 || limit > GC_MIN_ROW_LIMIT)
        gc_input_time_limit = GC_MIN_ROW_LIMIT;
    int rc = gc_minimize(t, &in, &best, &out, &ms, keeps_hole, &s);
    gc_input_time_limit = limit;
    if (rc != 0)
        return;
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_chain_print_oneline(&best, &sb);
    if (sb.data && strlen(sb.data) <= strlen(input))
        snprintf(input, cap, "%s", sb.data);
    gc_sb_free(&sb);
}

void gc_holes_campaign_table(gc_target *t, const gc_campaign_result *r, const char *name, long seconds,
                             int by_weakness,
                             void (*minimize_row)(gc_target *t, const char *hole, char *input, size_t cap),
                             long confirm_seconds)
{
    gc_campaign_print_head(r, name);
    gc_hole_row *rows;
    int n = by_weakness ? gc_holes_group_weakness(r->found, r->nfound, &rows) : gc_holes_group(r->found, r->nfound, &rows);
    if (confirm_seconds > 0) /* each row's input as found: its kind and primitive are known */
        gc_holes_confirm(t, rows, n, confirm_seconds);
    time_t end = time(NULL) + seconds;
    int minimized = 0;
    for (int i = 0; minimize_row && i < n && time(NULL) < end; i++, minimized++) /* rows past the time keep theirs */
        minimize_row(t, rows[i].roots[0] ? rows[i].chain_hole : rows[i].hole, rows[i].chain, /* a weakness's: */
                     sizeof rows[i].chain);                                           /* its chain's hole */
    if (n && minimize_row)
        printf("%d %s (docs/HOLES.md), shortest chain of each minimized%s:\n", n,
               by_weakness ? "weakness(es)" : "hole(s)", minimized < n ? " while time allowed" : "");
    else if (n)
        printf("%d %s (docs/HOLES.md), the shortest input of each:\n", n, by_weakness ? "weakness(es)" : "hole(s)");
    if (n)
        gc_holes_print(stdout, rows, n);
    printf("crash inputs: %s\n", r->crashes);
    free(rows);
}
