/* gate.h — the release gate.
 *
 * Owns: the gate's three phases on an open target — every saved case replayed (each must be
 * blocked now: chains, or a source target's programs through evaluate), fuzzing from the
 * stored corpus, a sweep to a depth (source targets: source_sweep.h's) — its verdict (pass: no
 * saved case escapes or is inconclusive, nothing found, no case unreadable, at most 10% of
 * the fuzzing's inputs inconclusive) and its reports (report.h).  The
 * command line resolves and confines the folders and starts the target first. */
#ifndef GATECRASH_GATE_H
#define GATECRASH_GATE_H

#include "campaign.h"
#include "fsutil.h"

typedef struct {
    const char *escapes_dir;      /* the saved cases (absolute) */
    const char *report_dir;       /* report.{md,json,sarif,html} (absolute) */
    const char *base;             /* SARIF paths are relative to it when inside it */
    const gc_campaign_opts *fuzz; /* seconds 0: no fuzzing */
    long sweep_depth;             /* 0: no sweep */
    const char *scratch;          /* the replays' scratch folder: removed before the report */
    const char *progress;         /* report.html's chart (NULL: this run's OUT/progress.tsv) */
    const char *previous;         /* the previous report.json (NULL: none) */
} gc_gate_opts;

/* The saved cases: the files in 'dir' whose names end in 'ext' (".chain"; a source
 * target's programs: ".py"), none when there is no such folder unless 'given' (then an
 * error).  0 or GC_EXIT_USAGE, message printed. */
int gc_gate_cases(const char *dir, int given, const char *ext, gc_strlist *cases);

/* Run the phases, write the reports and print the verdict line.  GC_EXIT_OK (pass),
 * GC_EXIT_ESCAPE (fail), GC_EXIT_INCONCLUSIVE (nothing escaped, but not everything was seen
 * to run: verdict.h), GC_EXIT_USAGE (a case was unreadable), or the exit code of the step
 * that could not run. */
int gc_gate(gc_target *t, const gc_gate_opts *o, const gc_strlist *cases);

#endif
