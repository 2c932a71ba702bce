/* source_triage.h — crash inputs of source targets (source.h) become regression cases.
 *
 * Owns: minimizing an escaping program (an opcode-level delta pass over its canonical
 * encoding, program.h: drop runs of ops — statements, trailers, arguments — then shorten
 * count, int and string operands; write an alias `a = b` as b where a is used, and a string
 * made from parts as the constant it makes (where the sandbox takes it); every
 * candidate run through evaluate, kept only when it makes the same escape: kind, capability
 * and primitive), and triage of a source crash
 * input: a fresh-process confirmation, the minimized program de-duplicated by signature
 * against the case folder and saved as <slug>.py, the source evaluate runs unchanged
 * (a '#' comment header, so an expression evaluator still sees one expression), with
 * <slug>.repro.py, the standalone reproducer, on request.  Also the hole of a source
 * escape (one function: the seam where the source hole rule plugs in) and the JSON object
 * of a source escape (`replay --json`). */
#ifndef GATECRASH_SOURCE_TRIAGE_H
#define GATECRASH_SOURCE_TRIAGE_H

#include "triage.h"

typedef struct {
    int evaluations;                   /* candidates run */
    int stmts_before, stmts_after;     /* statements of the decoded input, of the result */
    size_t bytes_before, bytes_after;  /* printed program */
} gc_src_min_stats;

/* The escaping program that 'data' decodes to, minimized: its canonical encoding into
 * best[*best_len] (cap GC_P_MAX_INPUT), its source into 'src', its outcome into 'out'.
 * 0, -1 when 'data' does not escape, or an exit code of gc_source_run (err filled). */
int gc_source_minimize(gc_target *t, const uint8_t *data, size_t size, uint8_t *best, size_t *best_len,
                       gc_strbuf *src, gc_verdict *out, gc_src_min_stats *st, char *err, size_t errlen);

/* The hole a source escape opens (docs/HOLES.md; gc_source_hole_of_program, source_holes.h),
 * "" when the rule names none: triage writes it as '# hole:', the campaign's table groups by
 * it, replay --json prints it. */
void gc_source_hole(gc_target *t, const char *src, const gc_verdict *out, char *hole, size_t len);

/* Triage one crash input of a source target; prints one line about it and updates the summary. */
void gc_source_triage_one(gc_target *t, const gc_triage_opts *o, const char *path, gc_triage_summary *sum);

/* Save an escaping program (source text, as evaluate runs it) as a case unless its
 * signature is known, as gc_triage_save does a chain (`sweep --save`): run once more here,
 * not minimized (a sweep's program is the shortest of its signature), confirmed in a fresh
 * process, written as <slug>.py.  'origin' names where it came from; prints one line and
 * updates the summary. */
void gc_source_triage_save(gc_target *t, const gc_triage_opts *o, const char *src, const char *origin,
                           gc_triage_summary *sum);


#endif
