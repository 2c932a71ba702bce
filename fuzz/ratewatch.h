/* ratewatch.h — a fuzzing process's inputs per second, second by second, and the dips in it.
 *
 * Owns: the per-second record of one engine process (driver.c feeds it every input) and
 * the analysis that finds where the rate fell below half the run's own median for 5 s or
 * more and says why, from what the record holds: the process's CPU share (other work on the
 * machine), slow inputs and the slowest one's text, time per input and the state work in
 * it, the engine's own time between inputs.  A progress line's windowed rate or a run's
 * mean averages such a dip away (docs/PERFORMANCE.md, "Rate dips").
 *
 * Compiled into gatecrash_fuzz, which no engine instruments: the clock reads here are not
 * coverage. */
#ifndef GATECRASH_RATEWATCH_H
#define GATECRASH_RATEWATCH_H

#include <stddef.h>
#include <stdint.h>

#define GC_RW_TEXT 72        /* the slowest input's text kept per second */
#define GC_RW_MIN_DIP 5      /* seconds below half the median that make a dip */
#define GC_RW_WARMUP 3       /* first seconds left out (the engine runs its seed corpus) */
#define GC_RW_SLOW_NS 10000000 /* an input of 10 ms or more is slow */

/* One second of the run. */
typedef struct {
    unsigned long execs;
    uint64_t in_inputs_ns; /* wall time inside inputs */
    uint64_t cpu_ns;       /* the process's CPU time (every thread) */
    unsigned long slow;    /* inputs of GC_RW_SLOW_NS or more */
    uint64_t slow_ns;
    uint64_t slowest_ns;
    char slowest[GC_RW_TEXT]; /* its text, one line, cut */
    unsigned long timeouts, repairs, full_checks; /* the runtime's counters, added in this second */
} gc_rw_second;

/* Around each input (driver.c).  The first call starts the record. */
void gc_ratewatch_begin(void);
void gc_ratewatch_end(const uint8_t *data, size_t size);

/* The dips of the run so far, one line each ("gatecrash: rate dip: ..."), on stderr and
 * appended to $GATECRASH_STATS_FILE when set (a campaign prints them at its end: libFuzzer's
 * fork mode deletes its jobs' logs).  Registered with atexit by driver.c; idempotent. */
void gc_ratewatch_report(void);

/* Pure: the dip lines of seconds s[0..n) into out (each line ends in '\n'); their count.
 * Exposed for tests. */
int gc_ratewatch_dips(const gc_rw_second *s, int n, char *out, size_t outlen);

#endif
