/* triage.h — crashes become regression cases.
 *
 * Owns: for each crash input, the chain it stands for (its recorded resolved chain first),
 * confirmation in a fresh process, chain-level minimization,
 * de-duplication by signature against the case folder, and the atomic writing of the case
 * (<slug>.chain with its '#' header, <slug>.py reproducer).  Also reading a case folder's
 * known signatures, which the release gate and the campaign scripts share. */
#ifndef GATECRASH_TRIAGE_H
#define GATECRASH_TRIAGE_H

#include "eval.h"
#include "minimize.h"
#include "session.h"

typedef struct {
    int new_cases, known, flaky, rejected;
} gc_triage_summary;

typedef struct {
    const char *exe;            /* this program, to re-run a case in a fresh process */
    const gc_session_opts *target; /* the target, as given on the command line */
    const char *outdir;         /* escapes/<target> */
    const char *found_by;       /* "libFuzzer", "AFL++", "sweep", … for the header */
    int quiet;
} gc_triage_opts;

/* The chain a crash input stands for: its recorded resolved chain (fsutil.h
 * GC_RESOLVED_DIR), strictly parsed, when there is one; else its raw bytes, decoded as the
 * fuzzer decoded them.  Returns 1 (resolved; its path in 'resolved', may be NULL), 0 (raw),
 * -1 (unreadable). */
int gc_crash_chain(const char *path, gc_chain *c, char *resolved, size_t len);

/* Triage one crash input; prints one line about it and updates the summary. */
void gc_triage_one(gc_target *t, const gc_triage_opts *o, const char *path, gc_triage_summary *sum);

/* Save an escaping chain as a case unless its signature is known: confirmed in a fresh
 * process, strictly parsed, then written atomically.  'origin' names where it came from;
 * prints one line and updates the summary.  Used by triage and by the sweep. */
void gc_triage_save(gc_target *t, const gc_triage_opts *o, const gc_chain *chain, const gc_outcome *out,
                    const char *origin, const gc_min_stats *st, gc_triage_summary *sum);

/* Run a chain file in a fresh process (`exe replay --json -q …`).  Returns 1 if it escaped
 * and fills sig (may be NULL), 0 if not, -1 if the run failed. */
int gc_confirm_fresh(const gc_triage_opts *o, const char *file, int raw, char *sig, size_t siglen);

/* The case's file name stem for a signature: reach-spawn-os.system-via-modattr */
void gc_case_slug(const char *signature, char *out, size_t len);

/* Remove what killed runs left in a case folder (hidden temp files and probes whose
 * process is gone); once per folder per run.  Triage calls it before saving. */
void gc_clean_stale(const char *dir);

/* Is a case with this signature in 'dir' already (a '# signature:' header line)? */
int gc_case_known(const char *dir, const char *signature);

#endif
