/* report.h — the release gate's reports: Markdown for people, JSON for scripts, SARIF
 * 2.1.0 for code-scanning interfaces (one result per escape, with its chain), and
 * report.html, one self-contained page (report_html.c): the holes, the campaign's progress
 * as an inline chart, the sweep's figures, what changed since the previous report. */
#ifndef GATECRASH_REPORT_H
#define GATECRASH_REPORT_H

#include "campaign.h"
#include "holes.h"

typedef struct {
    char file[256];      /* case file name */
    char signature[256]; /* from its header, or the replay */
    char chain[1024];    /* the chain that escaped, when it did (a source target's program, on one line) */
    char hole[160];      /* its hole when the replay named it, else "" (the report names it) */
    char kind[16], cap[16], prim[96];
    char detail[256];    /* the oracle's words on the escape */
    int size;            /* the escaping input's size (verdict.h gc_finding.size) */
    int escaped;
    int unreadable; /* not a valid chain file: neither blocked nor escaping */
    int inconclusive;    /* neither: the harness did not see it run as the host runs it */
    char cause[128];     /* why (verdict.h gc_verdict_of), "" when decided */
} gc_case_result;

typedef struct {
    const gc_target *t;
    const char *escapes_dir;
    gc_case_result *cases;
    int ncases;
    const gc_campaign_result *fuzz; /* NULL when no fuzzing was done */
    long fuzz_seconds;
    long sweep_depth;               /* 0: no sweep */
    const gc_finding *sweep;        /* its escapes */
    int nsweep;
    int inconclusive;               /* saved cases inconclusive: no escape, and no pass either */
    int fuzz_undecided;             /* over 10% of the fuzzing's inputs were inconclusive: no pass */
    long sweep_nodes;               /* the nodes the sweep reached: 0 with a sweep is no pass (nothing
                                     * it ran gave back a value to walk from) */
    const char *progress;           /* the campaign's progress.tsv (campaign.h), or NULL */
    const char *previous;           /* the previous report.json, for what changed, or NULL */
} gc_gate_report;

/* The gate's verdict word: "PASS", "FAIL" (an escape, or an unreadable case), or
 * "INCONCLUSIVE" (no escape, but a saved case was not decided, the fuzzing's share of
 * inconclusive inputs was over 10%, or the sweep reached no node). */
const char *gc_report_verdict(const gc_gate_report *r);

/* Write report.md, report.json, report.sarif and report.html into 'dir' (atomically).  Paths in SARIF
 * are relative to 'base' when inside it.  0 or -1 with errno. */
int gc_report_write(const gc_gate_report *r, const char *dir, const char *base);
/* report.html into 'dir' (atomically) from the report, its escapes as findings with their
 * holes (f, nf) and their rows (h, nh).  0 or -1 with errno.  gc_report_write calls it. */
int gc_report_html(const gc_gate_report *r, const gc_finding *f, int nf, const gc_hole_row *h, int nh,
                   const char *dir);

/* Did the report's sweep (one was asked for) reach no node? */
int gc_report_sweep_undecided(const gc_gate_report *r);

#endif
