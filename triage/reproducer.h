/* reproducer.h — what a saved case needs to be replayed with plain CPython.
 *
 * Owns: the runner's tables (_tables.py: the audit events of the effect oracle, oracle.c,
 * and the primitives of oracle_table.c and the modules it names, as Python literals, so the
 * runner and the harness cannot drift apart), the target.json written beside a folder of cases (the target with
 * its sandbox relative to that folder, for the runner), and the standalone reproducer
 * written on request (triage --standalone): the runner, escapes/reproduce.py (built into
 * this program), with the tables, the case and its target inlined.  The runner imports the
 * gate module, installs it as the host does, walks the chain in a frame whose globals are
 * the namespace, and exits 1 when the escape reproduces (0 when blocked, 2 on bad usage);
 * it never spawns or writes. */
#ifndef GATECRASH_REPRODUCER_H
#define GATECRASH_REPRODUCER_H

#include "eval.h"

/* The arguments of `env` before PYTHONHASHSEED=N whenever a plain interpreter runs a
 * reproducer: the caller's environment without what the harness's isolated interpreter
 * ignores and what changes the objects a chain walks (under PYTHONUNBUFFERED,
 * sys.__stderr__.buffer is the FileIO itself, with no .raw; the harness's streams are
 * buffered, as a host's are by default). */
#define GC_PLAIN_ENV "-u", "PYTHONUNBUFFERED", "-u", "PYTHONIOENCODING"

/* The text of _tables.py. */
void gc_reproducer_tables(gc_strbuf *out);

/* The standalone script of the case whose .chain text is 'case_text'. */
void gc_reproducer_write(const gc_target *t, const char *case_text, const char *signature, gc_strbuf *out);

/* 'dir'/target.json for the runner: spec 's' with its sandbox relative to 'dir' (written
 * atomically, only when it changed).  0, or an exit code with a message in err. */
int gc_reproducer_case_target(const gc_target_spec *s, const char *dir, char *err, size_t errlen);

#endif
