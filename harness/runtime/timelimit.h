/* timelimit.h — the per-input limits: time (a watchdog thread whose signal interrupts Python) and
 * memory (a bound on what Python allocates during an input), and the stop of a whole run (a
 * sweep's --time, SIGINT, SIGTERM), which rides on the time limit's watchdog.  See timelimit.c. */
#ifndef GATECRASH_TIMELIMIT_H
#define GATECRASH_TIMELIMIT_H

#include <Python.h>
#include <stdatomic.h>

extern double gc_input_time_limit; /* seconds; 0 turns the limit off */
extern volatile int gc_limit_expired; /* the current input ran past its limit */
extern unsigned long gc_limit_timeouts;
/* What the input is doing, as its runner says (eval.c: the step it is on; -1: none), and what
 * it was doing when its deadline passed: the watchdog copies the mark then.  That names the step
 * that used the time, not the later one where Python ran the handler (C code such as a big
 * integer's power checks no signal; an input can even end past its deadline with no Timeout).
 * Read after the input, before the next arm: -1 when the deadline did not pass in a step. */
extern _Atomic int gc_limit_mark;
static inline void gc_limit_set_mark(int m) { atomic_store_explicit(&gc_limit_mark, m, memory_order_relaxed); }
int gc_limit_mark_at_deadline(void);

/* Memory: the most an input may grow Python's large blocks and object arenas, in bytes
 * (GATECRASH_INPUT_MEMORY_MB, default 512); 0 turns the limit off.  An allocation past
 * it fails with MemoryError, and the input is an out-of-memory finding, not an escape. */
extern size_t gc_input_memory_limit;
extern volatile int gc_limit_oom; /* the current input hit the memory limit */
extern unsigned long gc_limit_ooms;
/* Inputs that left a thread they started running, which state.c then stopped: a limit too. */
extern unsigned long gc_limit_threads;

/* Once, after Py_Initialize: the watchdog, its signal's Python-level handler, the allocator hooks.
 * Idempotent. */
int gc_limits_init(char *err, size_t errlen);
void gc_limits_arm(void);    /* before an input */
void gc_limits_disarm(void); /* after it */
/* The same limits around the gate's import and first install: 'seconds' (the time limit
 * is GATECRASH_IMPORT_TIMEOUT, or --import-timeout, default GC_IMPORT_SECONDS there: a
 * sandbox that imports torch takes 15 s). */
#define GC_IMPORT_SECONDS 120.0
void gc_limits_arm_for(double seconds);
double gc_limits_import_seconds(void);
int gc_limits_is_timeout(PyObject *exc_type_or_value);
int gc_limits_signal(void); /* the time limit's signal number (state.c keeps its handler) */
/* Set by state.c at its snapshot (state.c includes this header, not the other way): raise the
 * exception (a class) in every thread the input started; how many there are.  NULL before. */
struct _object;
extern int (*gc_limits_raise_in_threads)(struct _object *exc);
/* The gatecrash command (not fuzz_gate, whose crashes are libFuzzer's and AFL++'s findings):
 * a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) is one line, never a bare
 * "Segmentation fault", naming where it happened (the top Python frame, faulthandler's):
 *   - while the target imports or installs (gc_limits_gate_phase): "the target crashed (SIGSEGV)
 *     while installing it, at gate.py:12 in install_restrictions", exit 3;
 *   - while an input's limits are armed: the input crashed the target, a finding of its own
 *     kind: "LABEL: CRASH SIGSEGV at gate.py:4 in boom (…)" on stdout (LABEL:
 *     gc_limits_crash_label, the file replayed; with gc_limits_crash_json also
 *     {"crash":"SIGSEGV","where":"gate.py:4 in boom","escaped":false}), exit 1; the process
 *     is gone, so it is the last input it runs;
 *   - outside an input in a process that reads the target's values in the host
 *     (gc_limits_crash_host: the campaign's sweep child): reported as an input's crash, with
 *     "host":true in the JSON object, exit 1: the caller skips what it was reading;
 *   - anywhere else: gatecrash itself crashed, exit 4.
 * Not in sanitizer builds, whose handlers report the crash with its stack. */
void gc_limits_catch_crashes(void);
/* What the target's own code is doing outside an input ("importing it", "installing it";
 * NULL: none): target.c sets it, the crash line and _exit's name it. */
extern const char *volatile gc_limits_gate_phase;
/* The crash line's label (NULL: "gatecrash") and whether a JSON object follows it. */
extern const char *volatile gc_limits_crash_label;
extern volatile int gc_limits_crash_json;
extern volatile int gc_limits_crash_fd; /* where the crash line goes (1) */
extern volatile int gc_limits_crash_host; /* a crash outside an input: the host's read (above) */
/* The hard limit's line names this and exits with this code ("the input", 4). */
extern const char *volatile gc_limits_hard_what;
extern volatile int gc_limits_hard_code;

/* A stop of the whole run (a sweep's): asked from a SIGINT/SIGTERM handler (gc_limits_stop,
 * async-signal-safe: it only stores), or due at a moment (gc_limits_stop_at: a sweep's --time).
 * Once it is asked or due, the input running is interrupted as by its own time limit (the
 * watchdog signals it within 100 ms) and every later input's limit has passed at its start;
 * the walk checks gc_limits_stopping() and ends.  gc_limits_stop_signal: the signal that asked
 * (0: none, or the moment passed). */
void gc_limits_stop(int sig);
void gc_limits_stop_at(double when); /* gc_now_s's clock; 0: no such moment */
int gc_limits_stopping(void);
int gc_limits_stop_signal(void);

/* Seconds on the monotonic clock (the sweeps' time bounds and rates). */
double gc_now_s(void);

#endif
