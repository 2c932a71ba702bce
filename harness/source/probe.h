/* probe.h — an adapter checked before anything is fuzzed through it.
 *
 * Owns: the probes `gatecrash check` prints and `fuzz`, `sweep` and `gate` run first on a
 * source target (each problem one line, the dialect the probes show switched to, and without
 * roots() the names the sandbox hands out found: gc_source_find_roots, which the fuzz target
 * runs too): benign programs of the target's dialect through evaluate under the oracles (does
 * the program's value come back, is it refused by the sandbox or by the harness, is it an
 * escape, does it leave state to repair, threads or child processes behind), whether the
 * harness's C-call guard and line trace can be installed in this process, each root of
 * roots() evaluated alone, and the time one evaluation takes.  Every problem is one line
 * saying what is wrong and what the adapter should do (docs/SOURCE.md, "The adapter
 * contract").  Fatal: no program can give a value back, or the guard cannot be installed;
 * then fuzzing would report nothing, and fuzz, sweep and gate stop with the first such line. */
#ifndef GATECRASH_PROBE_H
#define GATECRASH_PROBE_H

#include "source.h"

typedef struct {
    int fatal;        /* fuzzing this adapter would find nothing (or blame every program) */
    int problems;     /* lines printed (every probe) or counted */
    double usec;      /* mean time of one evaluation (every probe only; 0: not measured) */
    char first[512];  /* the first fatal problem, one line */
    int expression;   /* no statement gave its value, expressions did: t's dialect now has
                         GC_DIALECT_EXPRESSION (the probes after it, and what runs next, use it) */
    char roots_from[128]; /* without roots(): the programs (or the package lists) whose names were kept
                            (gc_source_find_roots), "" when none */
} gc_probe_report;

/* How the probes report: `check` prints every probe's result on stdout; before fuzz, sweep
 * and gate every problem is one "gatecrash: adapter problem: …" line on stderr (a fatal one
 * is left to the caller's error line) and the time probe is short. */
typedef enum { GC_PROBE_CHECK, GC_PROBE_BEFORE } gc_probe_mode;

/* Probe t's adapter (every probe, printed as 'mode' says): where statements give no value and
 * expressions do, t is switched to the expression dialect (r->expression); without
 * roots(), the names the sandbox hands out are looked for (gc_source_find_roots).  0, or an
 * exit code with err filled when the harness itself failed. */
int gc_source_probe(gc_target *t, gc_probe_mode mode, gc_probe_report *r, char *err, size_t errlen);

/* The dialect the probes would switch t to, found without a word: where no statement program
 * of the probes gives its value back and an expression does, t gets GC_DIALECT_EXPRESSION.
 * replay, explain and triage run it first, so a program saved by a probed process (a
 * campaign's sweep, whose engine gets the dialect in OUT/target) prints as it did where it
 * was found.  0, or an exit code with err filled. */
int gc_source_probe_dialect(gc_target *t, char *err, size_t errlen);

/* Without roots(): dir(), globals() and vars() run as programs through evaluate; the names
 * they give back (a list's strings, a dict's keys) that the dialect can write, that are no
 * builtin (those are implicit roots already) and that give a value when a program names them
 * alone become t->adapter.found_roots, which gc_adapter_roots gives from then on.  'from'
 * gets the programs that gave names ("dir(), vars()"; "" when none).  0, or an exit code
 * with err filled. */
int gc_source_find_roots(gc_target *t, char *from, size_t fromlen, char *err, size_t errlen);

#endif
