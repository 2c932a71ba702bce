/* diag.h — the one-line error message.
 *
 * Owns: how the harness reports an error to the user: "gatecrash: error: <msg>" on stderr, one
 * line (README: one clear line per bad input), and the exit codes every command returns.  It only
 * prints; the caller returns its exit code.
 * In the base layer (harness/base/: diagnostics, strings, allocation, files, hash, RNG), which
 * includes nothing above it. */
#ifndef GATECRASH_DIAG_H
#define GATECRASH_DIAG_H

/* Exit codes shared by every command (README "Exit codes"). */
#define GC_EXIT_OK 0
#define GC_EXIT_ESCAPE 1
#define GC_EXIT_USAGE 2  /* bad usage or bad input: arguments, target.json, requires, chains */
#define GC_EXIT_TARGET 3 /* the target failed to load: module missing/raising, entry missing */
#define GC_EXIT_HARNESS 4 /* the harness cannot vouch for its results: self-test, state */
#define GC_EXIT_INCONCLUSIVE 5 /* an input was not decided: the harness refused something, a limit cut it */

/* Print "gatecrash: error: <msg>" to stderr. */
void gc_die_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
