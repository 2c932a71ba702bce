/* report_html.c — report.html: the release gate's report as one self-contained page (see
 * report.h).  Nothing it shows is fetched: CSS inline, the chart an inline SVG, no script.
 * Every text that comes from a gate, a target, a case file or a chain goes through html(). */
#include "report.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsutil.h"
#include "xalloc.h"

/* Text as HTML: the five characters that could end an element or an attribute escaped. */
static void html(gc_strbuf *out, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '&': gc_sb_puts(out, "&amp;"); break;
        case '<': gc_sb_puts(out, "&lt;"); break;
        case '>': gc_sb_puts(out, "&gt;"); break;
        case '"': gc_sb_puts(out, "&quot;"); break;
        case '\'': gc_sb_puts(out, "&#39;"); break;
        default: gc_sb_putc(out, *s);
        }
}

static const char css[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1140px;color:#1d2330;background:#fff}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d8dde6}"
    ".verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;font-weight:600}"
    ".FAIL{background:#c0392b}.PASS{background:#1e8449}.INCONCLUSIVE{background:#b9770e}.undecided{color:#b9770e;"
    "font-weight:600}"
    "table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border:1px solid #d8dde6;padding:4px 7px;"
    "text-align:left;vertical-align:top}th{background:#eef1f6}tr:nth-child(even) td{background:#f8f9fb}"
    "code{font:12px ui-monospace,monospace;word-break:break-all}.no{color:#c0392b;font-weight:600}"
    ".yes{color:#1e8449}.new{color:#c0392b;font-weight:600}.fixed{color:#1e8449;font-weight:600}"
    "details{margin:4px 0}summary{cursor:pointer}.facts li{margin:2px 0}svg text{font:11px sans-serif}";

/* The page's head and the gate's facts. */
static void head(gc_strbuf *out, const gc_gate_report *r)
{
    char policy[512], date[32];
    gc_policy_describe(&r->t->policy, policy, sizeof policy);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    gc_sb_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>gatecrash: ");
    html(out, r->t->spec.name);
    gc_sb_printf(out, "</title>\n<style>%s</style></head>\n<body>\n<h1>gatecrash release gate: ", css);
    html(out, r->t->spec.name);
    gc_sb_printf(out, " <span class=\"verdict %s\">%s</span></h1>\n<ul class=\"facts\">\n<li>gate module: <code>",
                 gc_report_verdict(r), gc_report_verdict(r));
    html(out, r->t->spec.sandbox);
    gc_sb_puts(out, "</code></li>\n<li>policy: <code>");
    html(out, policy);
    gc_sb_printf(out, "</code> (%s mode)</li>\n<li>report written %s</li>\n",
                 r->t->spec.mode == GC_MODE_EFFECT ? "effect" : "reach", date);
    int still = 0;
    for (int i = 0; i < r->ncases; i++)
        still += r->cases[i].escaped;
    gc_sb_printf(out, "<li>saved cases replayed: %d from <code>", r->ncases);
    html(out, r->escapes_dir);
    gc_sb_printf(out, "</code>, %d still escape, %d inconclusive</li>\n", still, r->inconclusive);
    if (r->fuzz)
        gc_sb_printf(out, "<li>fuzzing: %ld s, %lu inputs, %d distinct escape(s), %lu of %lu counted inputs "
                     "inconclusive%s</li>\n", r->fuzz_seconds, r->fuzz->execs, r->fuzz->nfound,
                     r->fuzz->verdicts.inconclusive, r->fuzz->verdicts.inputs,
                     r->fuzz_undecided ? " (<span class=\"undecided\">over 10%: no pass</span>)" : "");
    gc_sb_puts(out, "</ul>\n");
}

/* The findings of one hole: each signature's primitive and chain. */
static void hole_findings(gc_strbuf *out, const gc_hole_row *h, const gc_finding *f, int nf)
{
    gc_sb_puts(out, "<details><summary>chains and primitives</summary>\n<table><tr><th>primitive</th>"
                    "<th>signature</th><th>chain</th></tr>\n");
    for (int i = 0; i < nf; i++) {
        if (strcmp(f[i].hole, h->hole) != 0)
            continue;
        gc_sb_puts(out, "<tr><td><code>");
        html(out, f[i].prim);
        gc_sb_puts(out, "</code></td><td><code>");
        html(out, f[i].sig);
        gc_sb_puts(out, "</code></td><td><code>");
        html(out, f[i].chain);
        gc_sb_puts(out, "</code></td></tr>\n");
    }
    gc_sb_puts(out, "</table></details>");
}

/* One row per hole (holes.h), with what closing it means and its findings. */
static void holes_table(gc_strbuf *out, const gc_hole_row *h, int nh, const gc_finding *f, int nf)
{
    gc_sb_printf(out, "<h2>Holes (%d)</h2>\n", nh);
    if (!nh) {
        gc_sb_puts(out, "<p>No hole: nothing escaped.</p>\n");
        return;
    }
    gc_sb_puts(out, "<table id=\"holes\"><tr><th>hole</th><th>capability</th><th>primitives</th>"
                    "<th>signatures</th><th>closable by the gate</th><th>shortest chain</th></tr>\n");
    for (int i = 0; i < nh; i++) {
        char advice[400];
        gc_hole_advice(h[i].hole, advice, sizeof advice);
        gc_sb_puts(out, "<tr class=\"hole\"><td><code>");
        html(out, h[i].hole);
        gc_sb_puts(out, "</code></td><td>");
        html(out, h[i].caps);
        gc_sb_printf(out, "</td><td>%d</td><td>%d</td><td class=\"%s\" title=\"", h[i].nprims, h[i].nsigs,
                     h[i].closable ? "yes" : "no");
        html(out, advice);
        gc_sb_printf(out, "\">%s</td><td><code>", h[i].closable ? "yes" : "no");
        html(out, h[i].chain);
        gc_sb_puts(out, "</code>");
        hole_findings(out, &h[i], f, nf);
        gc_sb_puts(out, "</td></tr>\n");
    }
    gc_sb_puts(out, "</table>\n");
}

/* ---- the campaign's progress over time (OUT/progress.tsv, campaign.h) ---- */

#define SERIES 4
typedef struct {
    int n, cap;
    double *t, *v[SERIES]; /* execs/s, corpus, signatures, holes */
} progress;

static const struct {
    const char *title, *colour;
    int column; /* in progress.tsv (execs/s: computed from column 1) */
} series[SERIES] = {{"execs/s", "#2e86c1", 1}, {"corpus", "#8e44ad", 3}, {"distinct signatures", "#d35400", 5},
                    {"distinct holes", "#c0392b", 6}};

/* progress.tsv into p (rows whose columns do not all parse are skipped).  0, or -1 when
 * there is no such file or no row. */
static int read_progress(const char *path, progress *p)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return -1;
    char line[512];
    double execs = 0;
    while (fgets(line, sizeof line, f)) {
        double c[7];
        if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf", &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6]) != 7)
            continue;
        if (p->n == p->cap) {
            p->cap = p->cap ? p->cap * 2 : 64;
            p->t = gc_xrealloc(p->t, (size_t)p->cap * sizeof *p->t);
            for (int k = 0; k < SERIES; k++)
                p->v[k] = gc_xrealloc(p->v[k], (size_t)p->cap * sizeof *p->v[k]);
        }
        p->t[p->n] = c[0];
        for (int k = 1; k < SERIES; k++)
            p->v[k][p->n] = c[series[k].column];
        /* execs/s: the rise of execs since the row before (the engines report in bursts;
         * the last row's own rate is the run's average, not the rate at its end) */
        double dt = p->n ? c[0] - p->t[p->n - 1] : 0;
        p->v[0][p->n] = dt > 0 ? (c[1] - execs) / dt : p->n ? p->v[0][p->n - 1] : 0;
        execs = c[1];
        p->n++;
    }
    fclose(f);
    return p->n ? 0 : -1;
}

/* One panel at (x, y), w x h: series k against time, its axes labelled with the maxima. */
static void panel(gc_strbuf *out, const progress *p, int k, int x, int y, int w, int h)
{
    double tmax = p->t[p->n - 1] > 0 ? p->t[p->n - 1] : 1, vmax = 0;
    for (int i = 0; i < p->n; i++)
        vmax = p->v[k][i] > vmax ? p->v[k][i] : vmax;
    double top = vmax > 0 ? vmax * 1.1 : 1;
    gc_sb_printf(out, "<g class=\"panel\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f8f9fb\" "
                      "stroke=\"#b8c0cc\"/>\n<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>\n",
                 x, y, w, h, x, y - 6, series[k].title);
    gc_sb_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text><text x=\"%d\" y=\"%d\" "
                      "text-anchor=\"end\">0</text>\n<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f s</text>\n",
                 x - 4, y + 10, top, x - 4, y + h, x + w, y + h + 14, tmax);
    gc_sb_printf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", series[k].colour);
    for (int i = 0; i < p->n; i++)
        gc_sb_printf(out, "%s%.1f,%.1f", i ? " " : "", x + w * p->t[i] / tmax, y + h - h * p->v[k][i] / top);
    gc_sb_puts(out, "\"/></g>\n");
}

/* The four panels, two by two, as one inline SVG. */
static void progress_chart(gc_strbuf *out, const char *path)
{
    gc_sb_puts(out, "<h2>Campaign progress</h2>\n");
    progress p = {0};
    if (read_progress(path, &p) != 0) {
        gc_sb_puts(out, "<p>No fuzzing campaign recorded its progress for this report.</p>\n");
        return;
    }
    gc_sb_puts(out, "<svg id=\"progress\" width=\"1100\" height=\"420\" "
                    "viewBox=\"0 0 1100 420\" role=\"img\" aria-label=\"campaign progress over time\">\n");
    for (int k = 0; k < SERIES; k++)
        panel(out, &p, k, 60 + (k % 2) * 540, 30 + (k / 2) * 200, 470, 140);
    gc_sb_puts(out, "</svg>\n");
    free(p.t);
    for (int k = 0; k < SERIES; k++)
        free(p.v[k]);
}

/* ---- what the sweep found; what changed since the previous report ---- */

static void sweep_figures(gc_strbuf *out, const gc_gate_report *r, const gc_finding *f, int nf)
{
    gc_sb_puts(out, "<h2>Sweep</h2>\n");
    if (r->sweep_depth <= 0) {
        gc_sb_puts(out, "<p>No sweep was run (<code>--sweep-depth D</code>).</p>\n");
        return;
    }
    int holes = 0;
    for (int i = 0; i < nf; i++) {
        int first = f[i].hole[0] != '\0';
        for (int k = 0; k < i && first; k++)
            first = strcmp(f[k].hole, f[i].hole) != 0;
        holes += first;
    }
    gc_sb_printf(out, "<table id=\"sweep\"><tr><th>depth</th><th>nodes reached</th><th>escape signatures</th>"
                      "<th>holes</th></tr>\n<tr><td>%ld</td><td>%ld%s</td><td>%d</td><td>%d</td></tr></table>\n",
                 r->sweep_depth, r->sweep_nodes,
                 gc_report_sweep_undecided(r) ? " <span class=\"undecided\">(none: no pass)</span>" : "", nf, holes);
}

/* Is 'hole' among the "hole" values of the array 'holes'? */
static int json_has_hole(const cJSON *holes, const char *hole)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, holes)
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(x, "hole");
        if (cJSON_IsString(n) && strcmp(n->valuestring, hole) == 0)
            return 1;
    }
    return 0;
}

static void change_row(gc_strbuf *out, const char *what, const char *hole, const char *chain)
{
    gc_sb_printf(out, "<tr><td class=\"%s\">%s</td><td><code>", strcmp(what, "still open") ? what : "open", what);
    html(out, hole);
    gc_sb_puts(out, "</code></td><td><code>");
    html(out, chain);
    gc_sb_puts(out, "</code></td></tr>\n");
}

/* New, fixed and still open holes against the previous report.json (r->previous). */
static void changes(gc_strbuf *out, const gc_gate_report *r, const gc_hole_row *h, int nh)
{
    gc_sb_puts(out, "<h2>Since the previous report</h2>\n");
    size_t len = 0;
    char *text = r->previous ? (char *)gc_read_file(r->previous, &len) : NULL;
    cJSON *prev = text ? cJSON_ParseWithLength(text, len) : NULL;
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(prev, "holes");
    free(text);
    if (!cJSON_IsArray(ph)) {
        gc_sb_puts(out, "<p>No previous report to compare with.</p>\n");
        cJSON_Delete(prev);
        return;
    }
    int nnew = 0, nfixed = 0;
    gc_strbuf rows;
    gc_sb_init(&rows);
    for (int i = 0; i < nh; i++) {
        int had = json_has_hole(ph, h[i].hole);
        nnew += !had;
        change_row(&rows, had ? "still open" : "new", h[i].hole, h[i].chain);
    }
    const cJSON *x;
    cJSON_ArrayForEach(x, ph)
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(x, "hole"), *c = cJSON_GetObjectItemCaseSensitive(x, "chain");
        int open = 0;
        for (int i = 0; cJSON_IsString(n) && i < nh && !open; i++)
            open = strcmp(h[i].hole, n->valuestring) == 0;
        if (cJSON_IsString(n) && !open) {
            nfixed++;
            change_row(&rows, "fixed", n->valuestring, cJSON_IsString(c) ? c->valuestring : "");
        }
    }
    gc_sb_printf(out, "<p id=\"changes\">%d new, %d fixed, %d still open</p>\n<table><tr><th>hole is</th>"
                      "<th>hole</th><th>chain</th></tr>\n%s</table>\n", nnew, nfixed, nh - nnew,
                 rows.data ? rows.data : "");
    gc_sb_free(&rows);
    cJSON_Delete(prev);
}

/* The saved cases and their verdicts. */
static void cases_table(gc_strbuf *out, const gc_gate_report *r)
{
    if (!r->ncases)
        return;
    gc_sb_puts(out, "<h2>Saved cases</h2>\n<table id=\"cases\"><tr><th>case</th><th>signature</th><th>verdict</th>"
                    "</tr>\n");
    for (int i = 0; i < r->ncases; i++) {
        const gc_case_result *c = &r->cases[i];
        gc_sb_puts(out, "<tr><td><code>");
        html(out, c->file);
        gc_sb_puts(out, "</code></td><td><code>");
        html(out, c->signature);
        const char *cls = c->escaped || c->unreadable ? "no" : c->inconclusive ? "undecided" : "yes";
        const char *word = c->unreadable      ? "unreadable"
                           : c->escaped       ? "still escapes"
                           : c->inconclusive  ? "inconclusive: "
                                              : "blocked";
        gc_sb_printf(out, "</code></td><td class=\"%s\">%s", cls, word);
        html(out, c->inconclusive ? c->cause : "");
        gc_sb_puts(out, "</td></tr>\n");
    }
    gc_sb_puts(out, "</table>\n");
}

int gc_report_html(const gc_gate_report *r, const gc_finding *f, int nf, const gc_hole_row *h, int nh,
                   const char *dir)
{
    gc_strbuf out;
    gc_sb_init(&out);
    head(&out, r);
    holes_table(&out, h, nh, f, nf);
    progress_chart(&out, r->progress);
    sweep_figures(&out, r, r->sweep, r->nsweep);
    changes(&out, r, h, nh);
    cases_table(&out, r);
    gc_sb_puts(&out, "</body></html>\n");
    char path[4200];
    snprintf(path, sizeof path, "%s/report.html", dir);
    int rc = gc_write_atomic(path, out.data, out.len, 0);
    gc_sb_free(&out);
    return rc;
}
