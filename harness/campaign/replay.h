/* replay.h — running a saved chain or a crash input again.
 *
 * Owns: the chain a crash input stands for (its recorded resolved chain first), one chain
 * file read, parsed and run (the one routine of `gatecrash replay` and the release gate's
 * replay of saved cases), and running a chain file in a fresh process (`gatecrash replay
 * --json -q`), by which live crash replay and triage tell an escape from state left in this
 * process.  For source targets (source.h) the same: the program a crash input stands for,
 * one program file run, a fresh process's verdict on either. */
#ifndef GATECRASH_REPLAY_H
#define GATECRASH_REPLAY_H

#include "eval.h"
#include "session.h"

/* The chain a crash input stands for: its recorded resolved chain (fsutil.h
 * GC_RESOLVED_DIR), strictly parsed, when there is one; else its raw bytes, decoded as the
 * fuzzer decoded them.  Returns 1 (resolved; its path in 'resolved', may be NULL), 0 (raw),
 * -1 (unreadable). */
int gc_crash_chain(const char *path, gc_chain *c, char *resolved, size_t len);

/* The header lines of a saved case that a replay reads ("" when absent). */
typedef struct {
    char signature[256];
    char python[32]; /* the CPython version the case was found on */
} gc_case_header;

/* Read the chain file 'path' (strictly parsed, or decoded as a fuzz input when 'raw') into
 * 'c' and run it into 'out'.  Returns 0 when it ran; -1 when it is unreadable, not a chain or
 * has no statement; or gc_run_input's exit code when the evaluator could not run it.  Not 0:
 * one line naming the path in 'why'.  'hdr' (may be NULL) gets its header lines. */
int gc_replay_file(gc_target *t, const char *path, int raw, gc_chain *c, gc_outcome *out, gc_case_header *hdr,
                   char *why, size_t whylen);

/* Source targets: the program a crash input decodes to (program.h), printed in 'dialect'
 * into src.  1, 0 when it has no statement, -1 when unreadable. */
int gc_crash_program(const char *path, unsigned dialect, gc_strbuf *src);

/* A program file (its text; 'raw': a crash input, decoded) into src and run through the
 * target's evaluate into 'out' ('note': what came back).  0; -1 unreadable, not UTF-8 or
 * no program; or an exit code of gc_source_run.  Not 0: one line naming the path in 'why'. */
int gc_replay_source(gc_target *t, const char *path, int raw, gc_strbuf *src, gc_verdict *out, char *note,
                     size_t notelen, char *why, size_t whylen);

/* Run a chain file (or a source target's program) in a fresh process (`exe replay --json -q …` on 'target').  Returns 1 if
 * it escaped and fills sig (may be NULL), 0 if blocked, 2 if it crashed the target (timelimit.h;
 * sig: crash:SIG:WHERE), 3 if inconclusive (verdict.h), -1 if the run failed (a hang, the
 * harness's own crash): GC_FRESH_*. */
enum { GC_FRESH_FAILED = -1, GC_FRESH_BLOCKED = 0, GC_FRESH_ESCAPE = 1, GC_FRESH_CRASH = 2, GC_FRESH_INCONCLUSIVE = 3 };
int gc_confirm_fresh(const char *exe, const gc_session_opts *target, const char *file, int raw, char *sig,
                     size_t siglen);
/* The same run started now, for a gc_confirm_fresh of the same file and 'raw' to come: it
 * then reads this run's verdict instead of starting one, and the two overlap.  One is held;
 * starting another (or passing file NULL) waits for the one held and drops its verdict. */
void gc_confirm_ahead(const char *exe, const gc_session_opts *target, const char *file, int raw);

#endif
