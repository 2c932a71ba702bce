/* probe.h — an adapter checked before anything is fuzzed through it.
 *
 * Owns: the probes `gatecrash check` prints and `fuzz` and `sweep` run first on a source
 * target: benign programs of the target's dialect through evaluate under the oracles (does
 * the program's value come back, is it refused by the sandbox or by the harness, is it an
 * escape, does it leave state to repair, threads or child processes behind), whether the
 * harness's C-call guard and line trace can be installed in this process, each root of
 * roots() evaluated alone, and the time one evaluation takes.  Every problem is one line
 * saying what is wrong and what the adapter should do (docs/SOURCE.md, "The adapter
 * contract").  Fatal: no program can give a value back, or the guard cannot be installed;
 * then fuzzing would report nothing, and fuzz and sweep stop with the first such line. */
#ifndef GATECRASH_PROBE_H
#define GATECRASH_PROBE_H

#include "source.h"

typedef struct {
    int fatal;        /* fuzzing this adapter would find nothing (or blame every program) */
    int problems;     /* lines printed (every probe) or counted */
    double usec;      /* mean time of one evaluation (every probe only; 0: not measured) */
    char first[512];  /* the first fatal problem, one line */
} gc_probe_report;

/* Probe t's adapter.  'all': every probe, each problem and the timing printed on stdout
 * (`check`); else only the probes that decide 'fatal', nothing printed (fuzz, sweep).
 * 0, or an exit code with err filled when the harness itself failed. */
int gc_source_probe(gc_target *t, int all, gc_probe_report *r, char *err, size_t errlen);

#endif
