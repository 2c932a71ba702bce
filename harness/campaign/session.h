/* session.h — start-up shared by every front end (the fuzz_gate target under any engine or
 * none, the CLI).
 *
 * Owns: turning "which target" options into an open target (target.json folder or
 * --sandbox/--requires or --adapter/--requires, optional mode and venv override), the one-time display of the gate's own
 * log lines, the state snapshot, and the evaluator's initialisation.  One place, so every
 * engine runs the gate exactly the same way. */
#ifndef GATECRASH_SESSION_H
#define GATECRASH_SESSION_H

#include "diag.h" /* gc_die_msg, for every front end */
#include "target.h"

typedef struct {
    const char *target_dir; /* --target / TARGET */
    const char *sandbox;    /* --sandbox */
    const char *requires;   /* --requires (JSON or @FILE) */
    const char *adapter;    /* --adapter: a source target's adapter (with --requires) */
    const char *venv;       /* --venv: a source target's virtual environment */
    const char *import_timeout; /* --import-timeout S: GATECRASH_IMPORT_TIMEOUT for this run */
    const char *mode;       /* --mode reach|effect, NULL: the target's */
    const char *scratch;    /* folder chains may write in; NULL: the current folder */
    int quiet;              /* do not print the gate's start-up log */
} gc_session_opts;

/* Only the target's description (no interpreter): 0 or an exit code, message printed. */
int gc_session_spec(const gc_session_opts *o, gc_target_spec *spec);

/* Returns 0 or an exit code; prints a one-line "gatecrash: error: …" itself on failure. */
int gc_session_start(gc_target *t, const gc_session_opts *o);

/* The roots a chain can start from: every identifier key the gate put in a fresh
 * namespace (always including __builtins__).  Returns how many were written to names[]. */
int gc_session_roots(gc_target *t, char names[][65], int max);

#endif
