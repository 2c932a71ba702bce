/* gate.c — see gate.h. */
#include "gate.h"
#include "mode.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "holes.h"
#include "replay.h"
#include "report.h"
#include "source_holes.h"
#include "strbuf.h"
#include "sweep.h"
#include "xalloc.h"

/* What the phases found, for the verdict and the reports. */
typedef struct {
    gc_case_result *results; /* one per saved case */
    int still, bad;          /* saved cases that still escape; unreadable ones */
    int undecided;           /* saved cases inconclusive (verdict.h) */
    gc_campaign_result fr;
    int fuzzed;              /* fr holds a finished campaign */
    gc_finding *swf;         /* the sweep's escapes */
    int nsw;
    long swnodes;            /* the nodes it reached */
} gate_run;

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int gc_gate_cases(const char *dir, int given, const char *ext, gc_strlist *cases)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (!given)
            return 0;
        gc_die_msg("escapes folder %s is not readable", dir);
        return GC_EXIT_USAGE;
    }
    struct dirent **list;
    char abs[PATH_MAX];
    /* not gc_collect_inputs: it skips .py, a program's name */
    int n = realpath(dir, abs) ? scandir(abs, &list, NULL, by_name) : -1;
    if (n < 0) {
        gc_die_msg("escapes folder %s is not readable: %s", dir, strerror(errno));
        return GC_EXIT_USAGE;
    }
    for (int i = 0; i < n; i++) {
        char p[PATH_MAX * 2];
        size_t l = strlen(list[i]->d_name), e = strlen(ext);
        snprintf(p, sizeof p, "%s/%s", abs, list[i]->d_name); /* absolute: read after the chdir to scratch */
        if (list[i]->d_name[0] != '.' && l > e && strcmp(list[i]->d_name + l - e, ext) == 0 && stat(p, &st) == 0 &&
            S_ISREG(st.st_mode))
            gc_sl_add(cases, p);
        free(list[i]);
    }
    free(list);
    return 0;
}

/* A saved case that still escapes: its result from the run, its input on one line (a
 * program's statements joined by "; "). */
static void still_escapes(gc_case_result *cr, const gc_run *r)
{
    const gc_verdict *v = &r->v;
    cr->escaped = 1;
    gc_strbuf line;
    gc_sb_init(&line);
    gc_input_oneline(r->input.data, "; ", &line);
    snprintf(cr->chain, sizeof cr->chain, "%s", line.data);
    gc_sb_free(&line);
    cr->size = r->size;
    snprintf(cr->detail, sizeof cr->detail, "%s", v->escape.detail);
    snprintf(cr->signature, sizeof cr->signature, "%s", v->signature);
    snprintf(cr->kind, sizeof cr->kind, "%s", gc_kind_name(v->escape.kind));
    snprintf(cr->cap, sizeof cr->cap, "%s", gc_cap_name(v->escape.cap));
    snprintf(cr->prim, sizeof cr->prim, "%s", v->escape.primitive);
}

/* 1. every saved case must now be blocked.  0 or GC_EXIT_HARNESS. */
static int replay_cases(gc_target *t, const gc_gate_opts *o, const gc_strlist *cases, gate_run *g)
{
    const gc_mode_ops *m = gc_mode_ops_of(t->spec.kind);
    gc_run run = {0};
    int rc = 0;
    fprintf(stderr, "gatecrash: gate %s: replaying %d saved case(s) from %s\n", t->spec.name, cases->n,
            o->escapes_dir);
    for (int i = 0; i < cases->n && rc <= 0; i++) {
        gc_case_result *cr = &g->results[i];
        const char *b = strrchr(cases->v[i], '/');
        snprintf(cr->file, sizeof cr->file, "%s", b ? b + 1 : cases->v[i]);
        char why[PATH_MAX + 1100];
        rc = m->replay(t, cases->v[i], 0, &run, why, sizeof why);
        if (rc < 0) {
            gc_die_msg("%s: not a readable %s", cases->v[i], m->inputs);
            cr->unreadable = 1;
            g->bad++;
        } else if (rc) {
            gc_die_msg("%s", why);
        } else if (run.v.escaped) {
            g->still++;
            still_escapes(cr, &run);
            m->hole(t, &run, cr->hole, sizeof cr->hole);
            printf("ESCAPES   %s: %s via %s\n", cr->file, cr->signature, cr->chain);
        } else if (gc_verdict_of(t, &run.v, cr->cause, sizeof cr->cause) == GC_VERDICT_INCONCLUSIVE) {
            snprintf(cr->signature, sizeof cr->signature, "%s", run.hdr.signature);
            cr->inconclusive = 1;
            g->undecided++;
            printf("inconclusive %s: %s\n", cr->file, cr->cause);
        } else {
            snprintf(cr->signature, sizeof cr->signature, "%s", run.hdr.signature);
            printf("blocked   %s\n", cr->file);
        }
    }
    gc_run_free(&run);
    return rc > 0 ? GC_EXIT_HARNESS : 0;
}

/* 2. fuzz from the stored corpus.  0 or the campaign's exit code. */
static int fuzz(gc_target *t, const gc_gate_opts *o, gate_run *g)
{
    fprintf(stderr, "gatecrash: gate %s: fuzzing for %lds\n", t->spec.name, o->fuzz->seconds);
    int rc = gc_campaign_run(t, o->fuzz, &g->fr);
    if (rc)
        return rc;
    g->fuzzed = 1;
    gc_holes_campaign_table(t, &g->fr, t->spec.name, 30, t->spec.kind == GC_TARGET_SOURCE,
                            gc_mode_ops_of(t->spec.kind)->minimize_row, GC_CONFIRM_TABLE_SECONDS);
    gc_tally_print(&g->fr.verdicts, stdout);
    return 0;
}

/* 3. nothing within the sweep depth.  0 or the sweep's exit code. */
static int sweep(gc_target *t, const gc_gate_opts *o, gate_run *g)
{
    fprintf(stderr, "gatecrash: gate %s: sweeping to depth %ld\n", t->spec.name, o->sweep_depth);
    gc_sweep_opts swo = {.depth = (int)o->sweep_depth, .max_nodes = 2000000, .quiet = 1};
    gc_sweep_stats sst;
    gc_hole_names *names = gc_hole_names_new(t);
    gc_holes_sweep_setup(&swo, names, NULL); /* its escapes carry their holes, for the report */
    const gc_mode_ops *m = gc_mode_ops_of(t->spec.kind);
    void *graph;
    int rc = m->sweep(t, &swo, 0, NULL, &sst, &graph);
    if (!rc)
        g->nsw = m->sweep_findings(graph, &g->swf);
    g->swnodes = sst.nodes;
    if (!rc)
        m->sweep_free(graph);
    gc_hole_names_free(names);
    return rc;
}

/* Why an inconclusive gate is no pass: each of its reasons (campaign: the campaign's, or NULL). */
static void not_a_pass(const gc_target *t, const gate_run *g, const char *campaign, int sweep)
{
    gc_strbuf why = {0};
    if (g->undecided)
        gc_sb_printf(&why, "%d saved case(s) did not run as the host runs them", g->undecided);
    if (campaign)
        gc_sb_printf(&why, "%s%s", why.len ? ", and " : "", campaign);
    if (sweep)
        gc_sb_printf(&why, "%sthe sweep reached no node (no program it ran gave back a value to walk from)",
                     why.len ? ", and " : "");
    printf("gate %s: not a pass: %s (exit 5)\n", t->spec.name, why.len ? why.data : "?");
    gc_sb_free(&why);
}

/* The reports and the verdict line; the gate's exit code. */
static int verdict(gc_target *t, const gc_gate_opts *o, int ncases, const gate_run *g)
{
    gc_rm_tree(o->scratch);
    gc_gate_report rep = {.t = t, .escapes_dir = o->escapes_dir, .cases = g->results, .ncases = ncases,
                          .fuzz = g->fuzzed ? &g->fr : NULL, .fuzz_seconds = o->fuzz->seconds,
                          .sweep_depth = o->sweep_depth, .sweep = g->swf, .nsweep = g->nsw,
                          .sweep_nodes = g->swnodes};
    rep.inconclusive = g->undecided;
    const char *undecided = g->fuzzed ? gc_campaign_undecided(&g->fr) : NULL;
    rep.fuzz_undecided = undecided != NULL;
    char progress[PATH_MAX + 16];
    snprintf(progress, sizeof progress, "%s/progress.tsv", o->fuzz->out ? o->fuzz->out : "");
    rep.progress = o->progress ? o->progress : g->fuzzed ? progress : NULL;
    rep.previous = o->previous;
    if (gc_report_write(&rep, o->report_dir, o->base) != 0) {
        gc_die_msg("cannot write the report into %s: %s", o->report_dir, strerror(errno));
        return GC_EXIT_HARNESS;
    }
    const char *word = gc_report_verdict(&rep);
    printf("gate %s: %s — %d of %d saved case(s) still escape, %d escape(s) found by fuzzing, %d by the sweep, %d "
           "saved case(s) inconclusive; report: %s/report.{md,json,sarif,html}\n",
           t->spec.name, word, g->still, ncases, g->fuzzed ? g->fr.nfound : 0, g->nsw, g->undecided, o->report_dir);
    if (strcmp(word, "INCONCLUSIVE") == 0)
        not_a_pass(t, g, undecided, gc_report_sweep_undecided(&rep));
    if (g->fuzzed && g->fr.ncrashed)
        printf("gate %s: FAIL — %d input(s) crashed the target while fuzzing (%d crash finding(s): the table's CRASH "
               "rows)\n", t->spec.name, g->fr.crash_inputs, g->fr.ncrashed);
    if (g->bad)
        return GC_EXIT_USAGE;
    return !strcmp(word, "PASS") ? GC_EXIT_OK : !strcmp(word, "INCONCLUSIVE") ? GC_EXIT_INCONCLUSIVE : GC_EXIT_ESCAPE;
}

int gc_gate(gc_target *t, const gc_gate_opts *o, const gc_strlist *cases)
{
    gate_run g = {.results = gc_xcalloc((size_t)cases->n + 1, sizeof *g.results)};
    int rc = replay_cases(t, o, cases, &g);
    if (!rc && o->fuzz->seconds > 0)
        rc = fuzz(t, o, &g);
    if (!rc && o->sweep_depth > 0)
        rc = sweep(t, o, &g);
    if (!rc)
        rc = verdict(t, o, cases->n, &g);
    free(g.swf);
    if (g.fuzzed)
        gc_campaign_result_free(&g.fr);
    free(g.results);
    return rc;
}
