/* triage.h — crashes become regression cases.
 *
 * Owns: for each crash input, after its chain and a fresh-process confirmation (replay.h),
 * chain-level minimization, the naming of [N] picks ([@Name]) when plain CPython does not
 * share their order, de-duplication by signature against the case folder, and the atomic writing of the case
 * (<slug>.chain with its '#' header; <slug>.py, the standalone reproducer, on request) and of the
 * folder's target.json for the reproducer runner (reproducer.h).  Also reading a case folder's
 * known signatures, which the release gate and the campaign scripts share. */
#ifndef GATECRASH_TRIAGE_H
#define GATECRASH_TRIAGE_H

#include "eval.h"
#include "minimize.h"
#include "replay.h"
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
    int standalone;             /* also write <slug>.py, the standalone reproducer */
    const char *next;           /* the input triaged after this one (NULL: none): its fresh-process
                                   run starts once this one's is done (replay.h gc_confirm_ahead) */
} gc_triage_opts;

/* A crash input that crashed the target in a fresh process ('sig': crash:SIG:WHERE, replay.h):
 * a crash case, its file <slug>.chain (a source target's: <slug>.py) with a header naming the
 * signal and where; 'inputs' are its candidates, shortest first (the input itself last),
 * each run in a fresh process, and the first that crashes at the same place is saved (a crash
 * ends the process that runs it, so none runs here).  One line: "crash", "known" or "flaky". */
void gc_triage_crash(const gc_target *t, const gc_triage_opts *o, const char *base, const char *sig,
                     const char *const *inputs, int n, gc_triage_summary *sum);
/* Triage one crash input; prints one line about it and updates the summary. */
void gc_triage_one(gc_target *t, const gc_triage_opts *o, const char *path, gc_triage_summary *sum);

/* Save an escaping chain as a case unless its signature is known: confirmed in a fresh
 * process, strictly parsed, then written atomically.  'origin' names where it came from;
 * prints one line and updates the summary.  Used by triage and by the sweep. */
void gc_triage_save(gc_target *t, const gc_triage_opts *o, const gc_chain *chain, const gc_outcome *out,
                    const char *origin, const gc_min_stats *st, gc_triage_summary *sum);

/* The case's file name stem for a signature: reach-spawn-os.system-via-modattr (a safe file
 * name of at most GC_SLUG_MAX bytes, triage.c) */
#define GC_SLUG_MAX 200
void gc_case_slug(const char *signature, char *out, size_t len);
/* A case file's '#' header lines (target, policy, mode, kind, capability, primitive,
 * signature, hole when named, python, date), chain and program cases alike. */
void gc_case_write_header(const gc_target *t, const gc_verdict *o, const char *hole, gc_strbuf *out);

/* Remove what killed runs left in a case folder (hidden temp files and probes whose
 * process is gone); once per folder per run.  Triage calls it before saving. */
void gc_clean_stale(const char *dir);

/* Is a case with this signature in 'dir' already (a '# signature:' header line of its
 * .chain, or of a source target's .py)? */
int gc_case_known(const char *dir, const char *signature);

#endif
