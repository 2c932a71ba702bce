/* state.h — the interpreter state that must not leak from one input into the next.
 *
 * Owns: a snapshot, taken after the first install, of every loaded module's namespace,
 * sys.modules, sys.path/meta_path/path_hooks, os.environ, the working folder, the
 * recursion limit and the collector switch (and, at the first input, signal dispositions
 * and sys.monitoring's tools); a cheap per-input change test (3.11: dict version tags;
 * 3.12+: dict watchers; a content compare where the version's signal misses
 * changes; identity of list items; a few syscalls); the threads an input started (counted
 * by thread state), stopped after it; the table of state checks and their repairs back to
 * the snapshot, then the facility table's rows (facility.h: signal handlers and mask, kept
 * here, and what facility.c keeps), snapshot at the first input with the signals.  A chain that changes any of these is reported as a
 * repair, never carried silently. */
#ifndef GATECRASH_STATE_H
#define GATECRASH_STATE_H

#include <stddef.h>

int gc_state_snapshot(char *err, size_t errlen);
/* Copies of descriptors 0-2 (put back from them after an input that closed or replaced
 * one), made once: before the target is imported (gc_target_open), so the process the
 * sandbox's code sees at import is the one it sees at every input, as in its host (a
 * sandbox counting its pipes counts the same). */
void gc_state_hold_std(void);
void gc_state_begin(void); /* before a chain runs */
/* The signal dispositions and sys.monitoring's tools are taken again at the next
 * gc_state_begin: for a harness that evaluates at start-up, before the engine installs its
 * handlers (else its crash handler would be "repaired" away after the first input). */
void gc_state_signals_anew(void);
/* After a chain: number of repairs made (0: untouched), -1 if state could not be restored.
 * 'note' names what changed. */
int gc_state_end(char *note, size_t len);
unsigned long gc_state_total_repairs(void);
/* Did the last gc_state_end have to stop a thread the input started (alive 100 ms after the
 * input, not a pool's idle worker)?  A limit, not an escape (counted in gc_limit_threads). */
int gc_state_threads_stopped(void);
/* Source mode sets it: the sys.modules entries an input added (but C extensions' modules)
 * are removed after it, as a fresh process has none (state.c, drop_new_modules). */
extern int gc_state_fresh_modules;
unsigned long gc_state_modules_dropped(void);
struct _object;
/* Is this dict (or list, set) one the snapshot watches and gc_state_end repairs? */
int gc_state_watches(struct _object *o);
/* 1 when this CPython changes an instance's materialized __dict__ on attribute sets without
 * bumping the dict's version tag or calling its watchers (3.13.0, gh-125608), found by a
 * self-test at the first call. */
int gc_state_attr_sets_unseen(void);
/* For o's materialized __dict__ d, about to be watched: 1 when the version's signal reports
 * its changes (always, or after d was given a table of its own), 0 when the caller must
 * compare it by content. */
int gc_state_make_seen(struct _object *o, struct _object *d);
/* inputs after which the full check ran (code ran during them, see state.c) */
unsigned long gc_state_total_checks(void);
/* Did any Python code run since gc_state_begin (or can that not be told)?  When not, the
 * input changed nothing that state.c or nscache.c watch, and gc_state_end returns 0 at once. */
int gc_state_code_ran(void);
/* Python frames begun so far (every thread), and: the last n of them were the harness's own
 * and ran nothing that changes state (eval.c: the call trampoline's frame around a call that
 * runs no other code and writes nothing), so they do not count as code the input ran. */
unsigned long gc_state_frames(void);
void gc_state_frames_harmless(unsigned long n);
/* Called for every Python frame (instead of _PyEval_EvalFrameDefault, which it must call)
 * when set: the gate-code coverage of feedback.c. */
struct _PyInterpreterFrame;
struct _ts;
typedef struct _object *(*gc_frame_eval_fn)(struct _ts *ts, struct _PyInterpreterFrame *f, int throwflag);
extern gc_frame_eval_fn gc_state_frame_observer;
/* Called, when set, at the start of every Python frame on a thread other than the one that
 * runs inputs (source.c: the C-call guard and the line trace follow the evaluation into the
 * threads it starts). */
typedef void (*gc_thread_frame_fn)(struct _ts *ts);
extern gc_thread_frame_fn gc_state_thread_observer;

#endif
