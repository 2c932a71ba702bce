/* report.h — the release gate's reports: Markdown for people, JSON for scripts, SARIF
 * 2.1.0 for code-scanning interfaces (one result per escape, with its chain). */
#ifndef GATECRASH_REPORT_H
#define GATECRASH_REPORT_H

#include "campaign.h"

typedef struct {
    char file[256];      /* case file name */
    char signature[256]; /* from its header, or the replay */
    char chain[1024];    /* the chain that escaped, when it did */
    char kind[16], cap[16], prim[96];
    int escaped;
    int unreadable; /* not a valid chain file: neither blocked nor escaping */
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
    int pass;
} gc_gate_report;

/* Write report.md, report.json and report.sarif into 'dir' (atomically).  Paths in SARIF
 * are relative to 'base' when inside it.  0 or -1 with errno. */
int gc_report_write(const gc_gate_report *r, const char *dir, const char *base);

#endif
