/* hangs.h — the steps that ran into the per-input time limit, remembered by one fuzzing
 * process, so that it does not wait on the same block again.
 *
 * Owns: a step's slice (the step and the steps of its statement before it; when the statement
 * reads '_', the slice of the whole statement it reads, and so on back), its key, the table
 * of slices that ran past the limit, and the answer the evaluator asks before each step
 * (eval.h, gc_eval_may_run).  A step whose slice is a confirmed hang is not run: it would
 * use the limit again (a slice's value does not depend on the statements outside it,
 * the interpreter's state being put back after each input) and give nothing, since an input
 * stopped by the limit is rejected, never an escape.  Its input ends there as stopped by the
 * limit; the steps before it run as ever, so an escape before the block is still found.
 * Confirmed: the second time a slice overruns, its input is run once more at once with ten
 * times the limit, and the slice is a hang only if that run overruns at the same step without
 * the thread having been preempted (a busy machine makes a slow step overrun now and then: a
 * spawn the backstop stops, a page-in, a collection).
 * A slice whose check fails is checked again at its 4th, 8th, 16th... overrun.  The step charged is the one running when the deadline passed (timelimit.h,
 * gc_limit_mark), not the later one where Python noticed.  An exploration index (.#K, [#K])
 * is keyed as written: if what it resolves to changes while the process runs (a list of
 * subclasses that grew), the slice keeps its verdict.  Figures: docs/PERFORMANCE.md, "Hybrid:
 * the inputs that wait on the same block".
 * Shared (--known-hangs=FILE): the confirmed slices' keys, one 16-digit hex key a line, read
 * when the process starts and appended to as it confirms one, so that the jobs of one
 * campaign (libFuzzer's fork-mode jobs, a process each, or AFL++'s instances) do not each
 * overrun and confirm the same blocks again.  A key is the chain's structure as written,
 * the same in every process of one build. */
#ifndef GATECRASH_HANGS_H
#define GATECRASH_HANGS_H

#include "chain.h"

/* Step (stmt, trailer) of c (trailer -1: the root) was running when the deadline passed:
 * returns how often its slice has now, 1 the first time (0: the table is full). */
int gc_hangs_note(const gc_chain *c, int stmt, int trailer);
/* The slice of that step is a hang for good: a run of c again overran there, and nothing else
 * took the processor from it meanwhile (fuzz_gate.c, run_limited, decides). */
void gc_hangs_confirm(const gc_chain *c, int stmt, int trailer);
/* Before c runs: the keys of its steps, for gc_hangs_may_run. */
void gc_hangs_prepare(const gc_chain *c);
/* 0: step (stmt, trailer) of the chain prepared last is a confirmed hang: not run. */
int gc_hangs_may_run(int stmt, int trailer);
/* Share confirmed hangs through path: its keys are confirmed now (a missing file is none yet;
 * a line that is not a key is skipped: the file is a cache), and each key this process
 * confirms later is appended, with one write (O_APPEND: whole lines, whoever else appends). */
void gc_hangs_share(const char *path);
extern unsigned long gc_hangs_skipped; /* steps gc_hangs_may_run said 0 to */

#endif
