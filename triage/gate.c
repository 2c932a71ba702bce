/* gate.c — see gate.h. */
#include "gate.h"

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
#include "sweep.h"
#include "xalloc.h"

/* What the phases found, for the verdict and the reports. */
typedef struct {
    gc_case_result *results; /* one per saved case */
    int still, bad;          /* saved cases that still escape; unreadable ones */
    gc_campaign_result fr;
    int fuzzed;              /* fr holds a finished campaign */
    gc_finding *swf;         /* the sweep's escapes */
    int nsw;
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

/* A saved case that still escapes: its result from the replay's outcome; its chain, or
 * the program 'text' (len bytes) on one line ('; ' between its lines). */
static void still_escapes(gc_case_result *cr, const gc_outcome *out, const char *text, size_t len)
{
    cr->escaped = 1;
    snprintf(cr->detail, sizeof cr->detail, "%s", out->escape.detail);
    size_t n = 0;
    for (size_t k = 0; text && k < len && n + 3 < sizeof cr->chain; k++) {
        if (text[k] != '\n')
            cr->chain[n++] = text[k];
        else if (k + 1 < len)
            n += (size_t)snprintf(cr->chain + n, sizeof cr->chain - n, "; ");
    }
    cr->chain[n] = '\0';
    cr->size = text ? gc_program_size(text, len) : 0;
    if (!text) { /* a chain's case (a source outcome has no chain) */
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_escape_chain_text(out, &sb);
        snprintf(cr->chain, sizeof cr->chain, "%s", sb.data);
        gc_sb_free(&sb);
        static gc_chain trimmed;
        gc_outcome_escape_chain(out, &trimmed);
        cr->size = gc_chain_trailer_count(&trimmed);
    }
    snprintf(cr->signature, sizeof cr->signature, "%s", out->signature);
    snprintf(cr->kind, sizeof cr->kind, "%s", gc_kind_name(out->escape.kind));
    snprintf(cr->cap, sizeof cr->cap, "%s", gc_cap_name(out->escape.cap));
    snprintf(cr->prim, sizeof cr->prim, "%s", out->escape.primitive);
}

/* A saved program of a source target, run through evaluate: 0, -1 (unreadable: not UTF-8
 * text) or an exit code.  An escaping one's text is kept on one line, its hole named. */
static int replay_program(gc_target *t, const char *path, gc_case_result *cr, gc_outcome *out, char *why,
                          size_t whylen)
{
    size_t len = 0;
    char *text = (char *)gc_read_file(path, &len);
    if (!text)
        return -1;
    int rc = gc_source_hole_of_program(t, text, len, &out->verdict, cr->hole, sizeof cr->hole, why, whylen);
    rc = rc == GC_EXIT_USAGE ? -1 : rc < 0 ? 0 : rc; /* -1 there: it did not escape */
    if (rc == 0 && out->escaped)
        still_escapes(cr, out, text, len);
    free(text);
    return rc;
}

/* 1. every saved case must now be blocked.  0 or GC_EXIT_HARNESS. */
static int replay_cases(gc_target *t, const gc_gate_opts *o, const gc_strlist *cases, gate_run *g)
{
    static gc_chain chain;
    static gc_outcome out;
    fprintf(stderr, "gatecrash: gate %s: replaying %d saved case(s) from %s\n", t->spec.name, cases->n,
            o->escapes_dir);
    for (int i = 0; i < cases->n; i++) {
        gc_case_result *cr = &g->results[i];
        const char *b = strrchr(cases->v[i], '/');
        snprintf(cr->file, sizeof cr->file, "%s", b ? b + 1 : cases->v[i]);
        char why[PATH_MAX + 1100];
        gc_case_header hdr = {"", ""};
        int source = t->spec.kind == GC_TARGET_SOURCE;
        int rc = source ? replay_program(t, cases->v[i], cr, &out, why, sizeof why)
                        : gc_replay_file(t, cases->v[i], 0, &chain, &out, &hdr, why, sizeof why);
        if (rc == 0 && !source)
            snprintf(cr->signature, sizeof cr->signature, "%s", hdr.signature);
        if (rc < 0) {
            gc_die_msg("%s: not a readable %s", cases->v[i], source ? "program" : "chain file");
            cr->unreadable = 1;
            g->bad++;
        } else if (rc) {
            gc_die_msg("%s", why);
            return GC_EXIT_HARNESS;
        } else if (out.escaped) {
            g->still++;
            if (!source) /* replay_program filled it, with its program */
                still_escapes(cr, &out, NULL, 0);
            printf("ESCAPES   %s: %s via %s\n", cr->file, cr->signature, cr->chain);
        } else {
            printf("blocked   %s\n", cr->file);
        }
    }
    return 0;
}

/* 2. fuzz from the stored corpus.  0 or the campaign's exit code. */
static int fuzz(gc_target *t, const gc_gate_opts *o, gate_run *g)
{
    fprintf(stderr, "gatecrash: gate %s: fuzzing for %lds\n", t->spec.name, o->fuzz->seconds);
    int rc = gc_campaign_run(t, o->fuzz, &g->fr);
    if (rc)
        return rc;
    g->fuzzed = 1;
    gc_holes_campaign_table(t, &g->fr, t->spec.name, 30);
    return 0;
}

/* 3. nothing within the sweep depth.  0 or the sweep's exit code. */
static int sweep(gc_target *t, const gc_gate_opts *o, gate_run *g)
{
    fprintf(stderr, "gatecrash: gate %s: sweeping to depth %ld\n", t->spec.name, o->sweep_depth);
    gc_sweep_opts swo = {.depth = (int)o->sweep_depth, .max_nodes = 2000000, .quiet = 1};
    gc_sweep_stats sst;
    gc_holes_sweep_setup(&swo, t, NULL); /* its escapes carry their holes, for the report */
    int source = t->spec.kind == GC_TARGET_SOURCE;
    int rc = source ? gc_source_sweep(t, &swo, &sst) : gc_sweep(t, &swo, &sst);
    if (!rc)
        g->nsw = source ? gc_source_sweep_findings(&g->swf) : gc_sweep_findings(&g->swf);
    return rc;
}

/* The reports and the verdict line; the gate's exit code. */
static int verdict(gc_target *t, const gc_gate_opts *o, int ncases, const gate_run *g)
{
    gc_rm_tree(o->scratch);
    gc_gate_report rep = {t, o->escapes_dir, g->results, ncases, g->fuzzed ? &g->fr : NULL, o->fuzz->seconds,
                          o->sweep_depth, g->swf, g->nsw, 0, NULL, NULL};
    rep.pass = g->still == 0 && g->bad == 0 && (!g->fuzzed || g->fr.nfound == 0) && g->nsw == 0;
    char progress[PATH_MAX + 16];
    snprintf(progress, sizeof progress, "%s/progress.tsv", o->fuzz->out ? o->fuzz->out : "");
    rep.progress = o->progress ? o->progress : g->fuzzed ? progress : NULL;
    rep.previous = o->previous;
    if (gc_report_write(&rep, o->report_dir, o->base) != 0) {
        gc_die_msg("cannot write the report into %s: %s", o->report_dir, strerror(errno));
        return GC_EXIT_HARNESS;
    }
    printf("gate %s: %s — %d of %d saved case(s) still escape, %d escape(s) found by fuzzing, %d by the sweep; "
           "report: %s/report.{md,json,sarif,html}\n",
           t->spec.name, rep.pass ? "PASS" : "FAIL", g->still, ncases, g->fuzzed ? g->fr.nfound : 0, g->nsw,
           o->report_dir);
    return g->bad ? GC_EXIT_USAGE : rep.pass ? GC_EXIT_OK : GC_EXIT_ESCAPE;
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
