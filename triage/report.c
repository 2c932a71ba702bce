/* report.c — see report.h.  JSON and SARIF are built with cJSON (Debian's libcjson). */
#include "report.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsutil.h"
#include "holes.h"
#include "triage.h"
#include "xalloc.h"


typedef struct {
    const char *source; /* "case FILE" or "fuzzing" */
    const char *kind, *cap, *prim, *sig, *chain;
    const char *hole;   /* "" when not named */
    const char *detail;
    int size;
} escape_view;

/* Every escape in the report, cases first. */
static int escapes_of(const gc_gate_report *r, escape_view *out, int max)
{
    int n = 0;

    for (int i = 0; i < r->ncases && n < max; i++)
        if (r->cases[i].escaped)
            out[n++] = (escape_view){r->cases[i].file, r->cases[i].kind, r->cases[i].cap, r->cases[i].prim,
                                     r->cases[i].signature, r->cases[i].chain, r->cases[i].hole,
                                     r->cases[i].detail, r->cases[i].size};
    for (int i = 0; r->fuzz && i < r->fuzz->nfound && n < max; i++) {
        const gc_finding *f = &r->fuzz->found[i];
        out[n++] = (escape_view){"fuzzing", f->kind, f->cap, f->prim, f->sig, f->chain, f->hole, f->detail, f->size};
    }
    for (int i = 0; i < r->nsweep && n < max; i++) {
        const gc_finding *f = &r->sweep[i];
        out[n++] = (escape_view){"sweep", f->kind, f->cap, f->prim, f->sig, f->chain, f->hole, f->detail, f->size};
    }
    return n;
}

int gc_report_sweep_undecided(const gc_gate_report *r)
{
    return r->sweep_depth > 0 && r->sweep_nodes == 0;
}

const char *gc_report_verdict(const gc_gate_report *r)
{
    int failed = r->nsweep > 0 || (r->fuzz && (r->fuzz->nfound > 0 || r->fuzz->ncrashed > 0));
    for (int i = 0; i < r->ncases; i++)
        failed |= r->cases[i].escaped || r->cases[i].unreadable;
    int undecided = r->inconclusive || r->fuzz_undecided || gc_report_sweep_undecided(r);
    return failed ? "FAIL" : undecided ? "INCONCLUSIVE" : "PASS";
}

/* A case's verdict as the reports name it. */
static const char *case_word(const gc_case_result *c, int md)
{
    if (c->unreadable)
        return md ? "**unreadable**" : "unreadable";
    if (c->escaped)
        return md ? "**still escapes**" : "escape";
    return c->inconclusive ? md ? "**inconclusive**" : "inconclusive" : "blocked";
}

/* The escape e as a finding (a table's row). */
static void finding_of(const escape_view *e, gc_finding *x)
{
    *x = (gc_finding){.count = 1, .size = e->size};
    snprintf(x->sig, sizeof x->sig, "%s", e->sig);
    snprintf(x->chain, sizeof x->chain, "%s", e->chain);
    snprintf(x->kind, sizeof x->kind, "%s", e->kind);
    snprintf(x->cap, sizeof x->cap, "%s", e->cap);
    snprintf(x->prim, sizeof x->prim, "%s", e->prim);
    snprintf(x->hole, sizeof x->hole, "%s", e->hole);
    snprintf(x->detail, sizeof x->detail, "%s", e->detail ? e->detail : "");
}

/* Every escape as a finding with its hole (a saved case's named by running its chain
 * again), grouped: one row per hole, or on a source target one per weakness (the check its
 * programs pass, their roots and holes listed), as the terminal's tables.  The findings are
 * malloc'd into *f (caller frees). */
static int hole_rows(const gc_gate_report *r, escape_view *e, int ne, gc_finding **f, gc_hole_row **rows)
{
    *f = gc_xcalloc((size_t)ne + 1, sizeof **f);
    for (int i = 0; i < ne; i++) {
        gc_finding *x = &(*f)[i];
        finding_of(&e[i], x);
        /* a saved case: its chain run again (that touches the namespace, not the target); a
         * source target's cases were named by their replay (source_holes.h) */
        if (!x->hole[0] && r->t->spec.kind != GC_TARGET_SOURCE)
            gc_holes_name_findings((gc_target *)r->t, x, 1);
        e[i].hole = x->hole;
    }
    return r->t->spec.kind == GC_TARGET_SOURCE ? gc_holes_group_weakness(*f, ne, rows) : gc_holes_group(*f, ne, rows);
}

static void markdown_weaknesses(const gc_hole_row *h, int nh, gc_strbuf *md)
{
    gc_sb_printf(md, "## Weaknesses (%d)\n\nOne row per weakness: the check the programs pass, the roots they "
                     "start from and the holes (docs/HOLES.md) they reach, by capability.\n\n"
                     "| weakness | passes | roots | holes | capability | primitives | signatures | closable by the gate "
                     "| shortest program |\n|---|---|---|---|---|---|---|---|---|\n", nh);
    for (int i = 0; i < nh; i++)
        gc_sb_printf(md, "| `%s` | %s | %s | `%s` | %s | %d | %d | %s | `%s` |\n", h[i].hole,
                     h[i].roots[0] ? h[i].check : "-", h[i].roots[0] ? h[i].roots : "-",
                     h[i].roots[0] ? h[i].covers : h[i].hole, h[i].caps, h[i].nprims, h[i].nsigs,
                     h[i].closable ? "yes" : "no", h[i].chain);
    gc_sb_puts(md, "\n");
}

static void markdown_holes(const gc_hole_row *h, int nh, gc_strbuf *md)
{
    gc_sb_printf(md, "## Holes (%d)\n\nOne row per hole (docs/HOLES.md), by capability then hole.\n\n"
                     "| hole | capability | primitives | signatures | closable by the gate | shortest chain |\n"
                     "|---|---|---|---|---|---|\n", nh);
    for (int i = 0; i < nh; i++)
        gc_sb_printf(md, "| `%s` | %s | %d | %d | %s | `%s` |\n", h[i].hole, h[i].caps, h[i].nprims, h[i].nsigs,
                     h[i].closable ? "yes" : "no", h[i].chain);
    gc_sb_puts(md, "\n");
}

static void markdown(const gc_gate_report *r, const escape_view *e, int ne, const gc_hole_row *h, int nh,
                     gc_strbuf *md)
{
    char policy[512];
    gc_policy_describe(&r->t->policy, policy, sizeof policy);
    int escaped_cases = 0;
    for (int i = 0; i < r->ncases; i++)
        escaped_cases += r->cases[i].escaped;
    gc_sb_printf(md, "# gatecrash release gate: %s — %s\n\n", r->t->spec.name, gc_report_verdict(r));
    gc_sb_printf(md, "- gate module: `%s`\n- policy: `%s` (%s mode)\n", r->t->spec.sandbox, policy,
                 r->t->spec.mode == GC_MODE_EFFECT ? "effect" : "reach");
    gc_sb_printf(md, "- saved cases replayed: %d from `%s`, %d still escape, %d inconclusive\n", r->ncases,
                 r->escapes_dir, escaped_cases, r->inconclusive);
    if (r->fuzz)
        gc_sb_printf(md, "- fuzzing: %lds, %lu inputs, %d distinct escape(s), %lu of %lu counted inputs "
                     "inconclusive%s\n", r->fuzz_seconds, r->fuzz->execs, r->fuzz->nfound,
                     r->fuzz->verdicts.inconclusive, r->fuzz->verdicts.inputs,
                     r->fuzz_undecided ? " (**over 10%: no pass**)" : "");
    else
        gc_sb_puts(md, "- fuzzing: not run\n");
    if (r->sweep_depth > 0)
        gc_sb_printf(md, "- sweep to depth %ld: %d escape signature(s), %ld node(s) reached%s\n", r->sweep_depth,
                     r->nsweep, r->sweep_nodes, gc_report_sweep_undecided(r) ? " (**none: no pass**)" : "");
    gc_sb_puts(md, "\n");
    if (nh && r->t->spec.kind == GC_TARGET_SOURCE)
        markdown_weaknesses(h, nh, md);
    else if (nh)
        markdown_holes(h, nh, md);
    if (ne) {
        gc_sb_puts(md, "## Escapes by signature\n\n| source | kind | capability | primitive | hole | chain |\n"
                       "|---|---|---|---|---|---|\n");
        for (int i = 0; i < ne; i++)
            gc_sb_printf(md, "| %s | %s | %s | `%s` | `%s` | `%s` |\n", e[i].source, e[i].kind, e[i].cap,
                         e[i].prim, e[i].hole, e[i].chain);
        gc_sb_puts(md, "\n");
    }
    if (r->ncases) {
        gc_sb_puts(md, "## Saved cases\n\n| case | signature | verdict |\n|---|---|---|\n");
        for (int i = 0; i < r->ncases; i++)
            gc_sb_printf(md, "| `%s` | `%s` | %s%s%s |\n", r->cases[i].file, r->cases[i].signature,
                         case_word(&r->cases[i], 1), r->cases[i].cause[0] ? ": " : "", r->cases[i].cause);
    }
}

static cJSON *json_report(const gc_gate_report *r, const escape_view *e, int ne, const gc_hole_row *h, int nh)
{
    char policy[512], date[32];
    gc_policy_describe(&r->t->policy, policy, sizeof policy);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "tool", "gatecrash");
    cJSON_AddStringToObject(j, "version", GATECRASH_VERSION);
    cJSON_AddStringToObject(j, "date", date);
    cJSON_AddStringToObject(j, "python", PY_VERSION);
    cJSON_AddStringToObject(j, "target", r->t->spec.name);
    cJSON_AddStringToObject(j, "sandbox", r->t->spec.sandbox);
    cJSON_AddStringToObject(j, "policy", policy);
    cJSON_AddStringToObject(j, "mode", r->t->spec.mode == GC_MODE_EFFECT ? "effect" : "reach");
    char word[16];
    snprintf(word, sizeof word, "%s", gc_report_verdict(r));
    for (char *w = word; *w; w++)
        *w = (char)(*w - 'A' + 'a');
    cJSON_AddStringToObject(j, "verdict", word);
    cJSON *cases = cJSON_AddArrayToObject(j, "cases");
    for (int i = 0; i < r->ncases; i++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "file", r->cases[i].file);
        cJSON_AddStringToObject(c, "signature", r->cases[i].signature);
        const gc_case_result *cr = &r->cases[i];
        cJSON_AddBoolToObject(c, "blocked", !cr->escaped && !cr->unreadable && !cr->inconclusive);
        cJSON_AddStringToObject(c, "verdict", case_word(&r->cases[i], 0));
        if (r->cases[i].inconclusive)
            cJSON_AddStringToObject(c, "cause", r->cases[i].cause);
        if (r->cases[i].unreadable)
            cJSON_AddStringToObject(c, "error", "not a readable chain file");
        cJSON_AddItemToArray(cases, c);
    }
    cJSON *fz = cJSON_AddObjectToObject(j, "fuzzing");
    cJSON_AddBoolToObject(fz, "run", r->fuzz != NULL);
    cJSON_AddNumberToObject(fz, "seconds", r->fuzz ? (double)r->fuzz_seconds : 0);
    cJSON_AddNumberToObject(fz, "inputs", r->fuzz ? (double)r->fuzz->execs : 0);
    cJSON_AddNumberToObject(fz, "counted", r->fuzz ? (double)r->fuzz->verdicts.inputs : 0);
    cJSON_AddNumberToObject(fz, "inconclusive", r->fuzz ? (double)r->fuzz->verdicts.inconclusive : 0);
    cJSON *sw = cJSON_AddObjectToObject(j, "sweep");
    cJSON_AddNumberToObject(sw, "depth", (double)r->sweep_depth);
    cJSON_AddNumberToObject(sw, "escapes", r->nsweep);
    cJSON_AddNumberToObject(sw, "nodes", (double)r->sweep_nodes);
    cJSON_AddItemToObject(j, "holes", gc_holes_json(h, nh));
    cJSON *esc = cJSON_AddArrayToObject(j, "escapes");
    for (int i = 0; i < ne; i++) {
        gc_finding f;
        finding_of(&e[i], &f);
        cJSON *x = gc_finding_object(r->t, &f);
        cJSON_AddStringToObject(x, "source", e[i].source);
        cJSON_AddItemToArray(esc, x);
    }
    return j;
}

/* The SARIF rules: each escape kind with each capability, less the pairs no backstop
 * makes (the backstops stop process creation (seccomp) and writes (Landlock) only). */
static const char *sarif_kinds[] = {"reach", "effect", "syscall", "landlock"};
static const char *sarif_caps[] = {"spawn", "write", "network"};
static int sarif_rule(int k, int c) { return !((k == 2 && c != 0) || (k == 3 && c != 1)); }

static void sarif_rules(cJSON *driver)
{
    cJSON *rules = cJSON_AddArrayToObject(driver, "rules");
    for (int k = 0; k < 4; k++)
        for (int c = 0; c < 3; c++) {
            char id[64], text[256];
            if (!sarif_rule(k, c))
                continue;
            snprintf(id, sizeof id, "gatecrash/%s/%s", sarif_kinds[k], sarif_caps[c]);
            snprintf(text, sizeof text, "Handler code %s a real %s primitive the policy forbids",
                     k == 0 ? "reaches" : k == 1 ? "makes an effect through" : "makes the system call of",
                     sarif_caps[c]);
            cJSON *rule = cJSON_CreateObject();
            cJSON_AddStringToObject(rule, "id", id);
            cJSON_AddStringToObject(rule, "name", id + 10);
            cJSON *sd = cJSON_AddObjectToObject(rule, "shortDescription");
            cJSON_AddStringToObject(sd, "text", text);
            cJSON *dc = cJSON_AddObjectToObject(rule, "defaultConfiguration");
            cJSON_AddStringToObject(dc, "level", "error");
            cJSON_AddItemToArray(rules, rule);
        }
}

/* The escape's rule's place in sarif_rules' list. */
static int sarif_rule_index(const escape_view *e)
{
    int ri = 0;
    for (int k = 0, n = 0; k < 4; k++)
        for (int c = 0; c < 3; c++) {
            if (!sarif_rule(k, c))
                continue;
            if (strcmp(e->kind, sarif_kinds[k]) == 0 && strcmp(e->cap, sarif_caps[c]) == 0)
                ri = n;
            n++;
        }
    return ri;
}

/* One result: the escape, located at the gate module 'uri'. */
static cJSON *sarif_result(const escape_view *e, const char *uri, const char *policy)
{
    char id[64], msg[2048];
    snprintf(id, sizeof id, "gatecrash/%s/%s", e->kind, e->cap);
    snprintf(msg, sizeof msg, "Sandbox escape (%s %s): handler code reaches the real %s from what the gate hands out, via: %s",
             e->kind, e->cap, e->prim, e->chain);
    cJSON *res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "ruleId", id);
    cJSON_AddNumberToObject(res, "ruleIndex", sarif_rule_index(e));
    cJSON_AddStringToObject(res, "level", "error");
    cJSON *m = cJSON_AddObjectToObject(res, "message");
    cJSON_AddStringToObject(m, "text", msg);
    cJSON *locs = cJSON_AddArrayToObject(res, "locations");
    cJSON *loc = cJSON_CreateObject();
    cJSON *pl = cJSON_AddObjectToObject(loc, "physicalLocation");
    cJSON *al = cJSON_AddObjectToObject(pl, "artifactLocation");
    cJSON_AddStringToObject(al, "uri", uri);
    cJSON *reg = cJSON_AddObjectToObject(pl, "region");
    cJSON_AddNumberToObject(reg, "startLine", 1);
    cJSON_AddItemToArray(locs, loc);
    cJSON *fp = cJSON_AddObjectToObject(res, "partialFingerprints");
    cJSON_AddStringToObject(fp, "gatecrashSignature/v1", e->sig);
    cJSON *props = cJSON_AddObjectToObject(res, "properties");
    cJSON_AddStringToObject(props, "chain", e->chain);
    cJSON_AddStringToObject(props, "signature", e->sig);
    cJSON_AddStringToObject(props, "primitive", e->prim);
    cJSON_AddStringToObject(props, "source", e->source);
    cJSON_AddStringToObject(props, "policy", policy);
    return res;
}

/* One result per hole: the rule of its shortest chain's escape, the hole as fingerprint. */
static cJSON *sarif_hole_result(const gc_hole_row *h, const escape_view *e, int ne, const char *uri,
                                const char *policy)
{
    int k = 0;
    while (k < ne - 1 && strcmp(e[k].hole, h->hole) != 0)
        k++;
    escape_view v = e[k];
    v.chain = h->chain;
    cJSON *res = sarif_result(&v, uri, policy);
    char msg[2400], advice[400];
    gc_hole_advice(h->hole, advice, sizeof advice);
    snprintf(msg, sizeof msg, "Sandbox hole `%s` (%s): handler code reaches %d forbidden primitive(s) through it "
             "(%d signature(s)), shortest chain: %s. Closing it: %s.", h->hole, h->caps, h->nprims, h->nsigs, h->chain,
             advice);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(res, "message"), "text", cJSON_CreateString(msg));
    cJSON_AddStringToObject(cJSON_GetObjectItem(res, "partialFingerprints"), "gatecrashHole/v1", h->hole);
    cJSON *props = cJSON_GetObjectItem(res, "properties");
    cJSON_AddStringToObject(props, "hole", h->hole);
    cJSON_AddStringToObject(props, "primitives", h->prims);
    cJSON_AddBoolToObject(props, "closable", h->closable);
    return res;
}

/* A warning notification of the invocation's. */
static void sarif_note(cJSON *notes, const char *text)
{
    cJSON *n = cJSON_CreateObject();
    cJSON_AddStringToObject(n, "level", "warning");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(n, "message"), "text", text);
    cJSON_AddItemToArray(notes, n);
}

/* The run's invocation: not successful when an input was inconclusive or the sweep reached
 * no node (the gate did not look at all it was asked to), a warning notification for each. */
static void sarif_invocation(const gc_gate_report *r, cJSON *run)
{
    cJSON *inv = cJSON_CreateObject();
    cJSON_AddBoolToObject(inv, "executionSuccessful",
                          r->inconclusive == 0 && !r->fuzz_undecided && !gc_report_sweep_undecided(r));
    cJSON *notes = cJSON_AddArrayToObject(inv, "toolExecutionNotifications");
    if (gc_report_sweep_undecided(r))
        sarif_note(notes, "The sweep reached no node: no program it ran gave back a value to walk from, so its "
                          "finding nothing is no all-clear");
    for (int i = 0; i < r->ncases; i++) {
        if (!r->cases[i].inconclusive)
            continue;
        char text[512];
        snprintf(text, sizeof text, "Saved case %s is inconclusive (%s): the harness did not see it run as the "
                 "host runs it, so it neither escaped nor was blocked", r->cases[i].file, r->cases[i].cause);
        sarif_note(notes, text);
    }
    cJSON_AddItemToArray(cJSON_AddArrayToObject(run, "invocations"), inv);
}

static cJSON *sarif_report(const gc_gate_report *r, const escape_view *e, int ne, const gc_hole_row *h, int nh,
                           const char *base)
{
    char policy[512];
    gc_policy_describe(&r->t->policy, policy, sizeof policy);
    const char *uri = r->t->spec.sandbox;
    size_t bl = strlen(base);
    char urib[4200];
    if (strncmp(uri, base, bl) == 0 && uri[bl] == '/')
        uri += bl + 1;
    else {
        snprintf(urib, sizeof urib, "file://%s", uri);
        uri = urib;
    }
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    cJSON_AddStringToObject(s, "version", "2.1.0");
    cJSON *runs = cJSON_AddArrayToObject(s, "runs");
    cJSON *run = cJSON_CreateObject();
    cJSON_AddItemToArray(runs, run);
    cJSON *tool = cJSON_AddObjectToObject(run, "tool");
    cJSON *driver = cJSON_AddObjectToObject(tool, "driver");
    cJSON_AddStringToObject(driver, "name", "gatecrash");
    cJSON_AddStringToObject(driver, "version", GATECRASH_VERSION);
    sarif_rules(driver);
    cJSON *results = cJSON_AddArrayToObject(run, "results");
    for (int i = 0; i < nh; i++)
        cJSON_AddItemToArray(results, sarif_hole_result(&h[i], e, ne, uri, policy));
    sarif_invocation(r, run);
    return s;
}

static int write_json(const char *dir, const char *name, cJSON *j)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = cJSON_Print(j);
    int rc = text ? gc_write_atomic(path, text, strlen(text), 0) : -1;
    free(text);
    return rc;
}

int gc_report_write(const gc_gate_report *r, const char *dir, const char *base)
{
    int max = r->ncases + (r->fuzz ? r->fuzz->nfound : 0) + r->nsweep + 1;
    escape_view *e = gc_xcalloc((size_t)max, sizeof *e);
    int ne = escapes_of(r, e, max);
    gc_finding *f;
    gc_hole_row *h;
    int nh = hole_rows(r, e, ne, &f, &h);
    gc_strbuf md;
    gc_sb_init(&md);
    markdown(r, e, ne, h, nh, &md);
    char path[4200];
    snprintf(path, sizeof path, "%s/report.md", dir);
    int rc = gc_write_atomic(path, md.data, md.len, 0);
    gc_sb_free(&md);
    cJSON *j = json_report(r, e, ne, h, nh);
    cJSON *s = sarif_report(r, e, ne, h, nh, base);
    if (rc == 0)
        rc = write_json(dir, "report.json", j);
    if (rc == 0)
        rc = write_json(dir, "report.sarif", s);
    if (rc == 0)
        rc = gc_report_html(r, f, ne, h, nh, dir);
    cJSON_Delete(j);
    cJSON_Delete(s);
    free(e);
    free(f);
    free(h);
    return rc;
}
