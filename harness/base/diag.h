/* diag.h — the one-line error message.
 *
 * Owns: how the harness reports an error to the user: "gatecrash: error: <msg>" on stderr, one
 * line (README: one clear line per bad input).  It only prints; the caller returns its exit code.
 * In the base layer (harness/base/: diagnostics, strings, allocation, files, hash, RNG), which
 * includes nothing above it. */
#ifndef GATECRASH_DIAG_H
#define GATECRASH_DIAG_H

/* Print "gatecrash: error: <msg>" to stderr. */
void gc_die_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
