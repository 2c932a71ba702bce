/* confirm.h — an escape run once more in a fresh plain interpreter (differential confirmation).
 *
 * Owns: confirming one escape the harness reported: its input, with the escape's header
 * lines, becomes the standalone reproducer (reproducer.h: escapes/reproduce.py with the
 * tables, the case and its target inlined), which runs in a fresh process of the target's
 * own interpreter — a source target's venv's bin/python, else the CPython this build
 * embeds (GATECRASH_PYTHON) — started through the spawner (spawn.h) in the scratch folder,
 * with no harness: an audit hook refuses every spawn and write and reports what was
 * reached; an escape made below Python (kinds syscall and landlock, no audit event) runs
 * under gatecrash-watch (watch.h), which stops and names the process, socket or write.  It
 * runs under a hash seed other than the harness's (1; interp.c fixes 0) and a time bound.
 * The result is confirmed (the runner exits 1), not confirmed (it exits 0: blocked there)
 * or unknown (it could not run: exit 2, a timeout, no gatecrash-watch for a kind below
 * Python), with the runner's own line as the reason.  Replay and triage print it; docs/TRIAGE.md, "Confirmation in a
 * plain interpreter". */
#ifndef GATECRASH_CONFIRM_H
#define GATECRASH_CONFIRM_H

#include "eval.h"

/* What a campaign's table (fuzz, gate) or a sweep gives its holes' confirmations in all
 * (fuzz and sweep --no-confirm: none). */
#define GC_CONFIRM_TABLE_SECONDS 60

typedef enum { GC_CONFIRM_UNKNOWN = -1, GC_CONFIRM_NO = 0, GC_CONFIRM_YES = 1 } gc_confirm_kind;

/* Where the plain interpreter found the primitive (the confirmation's grading), read from
 * the reproducer's line: held by the program (a chain's step, a call the program made, an
 * effect that happened), handed back to the host as the value evaluate returned, or only
 * inside an exception the host receives (its __context__, __cause__, an AttributeError's
 * .obj): reachable by the host's error handling, never in the program's hands. */
typedef enum { GC_WHERE_UNKNOWN, GC_WHERE_HELD, GC_WHERE_RETURNED, GC_WHERE_EXCEPTION } gc_confirm_where;

typedef struct {
    gc_confirm_kind kind;
    gc_confirm_where where; /* when confirmed */
    char why[512]; /* the runner's last line ("ESCAPE reproduced: ...", "blocked: ..."), or
                      why it could not run */
} gc_confirmation;

/* Run escape 'v' (its kind, capability and primitive) of 'input' (a chain, or a source
 * target's program, as it ran) once more in a fresh plain interpreter of target t, in the
 * current folder (the command's scratch), bounded by 'seconds'; the result in *c. */
void gc_confirm_escape(const gc_target *t, const gc_verdict *v, const char *input, int seconds, gc_confirmation *c);

/* The same for an escape given by its kind, capability and primitive names ("reach",
 * "spawn", "os.system") and signature. */
void gc_confirm_text(const gc_target *t, const char *kind, const char *cap, const char *prim, const char *signature,
                     const char *input, int seconds, gc_confirmation *c);

/* A sweep's confirmations: each hole's (a finding without one: each signature's) shortest
 * input confirmed, one line each on stdout under a heading, while 'seconds' last (a hole
 * past them: "unconfirmed: not run: ..."). */
void gc_confirm_findings(const gc_target *t, const gc_finding *f, int n, long seconds);

/* "confirmed in a plain interpreter (WHERE)" | "NOT confirmed: WHY" | "unconfirmed: WHY" (could
 * not run).  WHERE: "held by the program" | "handed back as the value" | "only inside an
 * exception the host receives: PATH". */
void gc_confirm_line(const gc_confirmation *c, char *out, size_t len);

/* Triage's line for a case just saved: "          BASE: confirmed in a plain interpreter"
 * (or NOT confirmed / unconfirmed, and why). */
void gc_confirm_print(const gc_target *t, const gc_verdict *v, const char *input, const char *base);

/* "held" | "returned" | "exception" | "unknown": --json's "reached". */
const char *gc_confirm_where_name(gc_confirm_where w);

#endif
