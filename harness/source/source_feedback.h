/* source_feedback.h — what an evaluation in source mode teaches the fuzzer (fuzz_source).
 *
 * Owns: source mode's features in libFuzzer's extra counters and its harvest.
 *   - coverage of the sandbox's own code: each line run in a code object whose file is the
 *     adapter or beneath a site-packages folder (the sandbox package: its AST checks and
 *     visitors are where it decides): on 3.12+ from sys.monitoring events on those code
 *     objects alone (monitor.h), on 3.11 from a C trace function (PyEval_SetTrace) that
 *     source.c turns on around each evaluate; on every thread the evaluation runs on;
 *   - what came back: refusal, exception type or value, and the kinds of value reached in a
 *     bounded search of it (containers, exception attributes): a type, a module by name,
 *     and for frames, functions, generators and code the code's name and whose it is — the
 *     program's (compiled from a string), the adapter's, the sandbox package's or other's, so
 *     that each hop of a frame walk (gi_frame.f_back...) is new;
 *   - the harvest: the attribute names of each kind of value reached (its type's and its
 *     own dict's keys, a module's names: read from the dicts, no code runs) into that kind's
 *     word list of the mutator's dictionary, dict keys and exception names into its pool.
 *   - inside walks the host runs for the program (walk_feedback.c: str.format's fields,
 *     getattr chains): each object a walk passed through, its kind chained to the kinds
 *     before it, as a feature; its kind's names harvested ('_' ones too: a field is data);
 *     the kind each path reached kept in the dictionary under `{PATH` (the mutator's next
 *     field part); where each walk ended, in the mutator's focus after the outcome's kinds.
 * Features are hashed from names, never addresses.  Off (no trace, no features, no words)
 * until gc_source_feedback_start. */
#ifndef GATECRASH_SOURCE_FEEDBACK_H
#define GATECRASH_SOURCE_FEEDBACK_H

#include <Python.h>

#include "program_mutator.h"

/* How far and how wide a returned value is searched for features and words. */
#define GC_SF_DEPTH 3
#define GC_SF_NODES 64

/* Switch on: 'trace' the sandbox's lines (the adapter file 'adapter', site-packages), 'values'
 * the outcome's features, and harvest into 'dict' (NULL: no harvest). */
void gc_source_feedback_start(const char *adapter, int trace, int values, gc_pm_dict *dict);
/* 3.12+: register the line feedback's callbacks on gatecrash's sys.monitoring tool (source.c
 * calls it once, before the first input); the global events it needs, or -1 (no tool: the
 * trace function is used).  -1 on 3.11. */
int gc_source_feedback_monitor(void);
/* The roots' values (name: value, as gc_source_roots_ns gives them): each root's kind is
 * the kind of its name, its names harvested, before any program names it. */
void gc_source_feedback_learn_roots(PyObject *ns);
/* The roots' lookup-readbacks (root name: value, as gc_source_readbacks_ns gives them): the
 * kind of each is the kind of the name "ROOT.gatecrash" (GC_PM_ABSENT), its names harvested. */
void gc_source_feedback_learn_readbacks(PyObject *ns);
/* Around one evaluate (source.c): the line trace on and off, on every thread; _thread: on
 * the calling thread, one the evaluation started.  No-ops when not started. */
void gc_source_feedback_begin(void);
void gc_source_feedback_thread(void);
void gc_source_feedback_end(void);
/* 3.12+: the places of the sandbox's code (lines, function entries) whose events were
 * disabled for good, each hit in so many inputs that its feature tells them apart no more
 * (source_feedback.c, "saturated").  0 on 3.11. */
unsigned long gc_source_feedback_saturated(void);
/* What evaluate gave back: its value, or the exception it raised ('refused': the sandbox's
 * own refusal).  Called with no exception set; leaves none. */
void gc_source_feedback_outcome(PyObject *value, PyObject *exc, int refused);
/* A value a walk in the host reached (walk_feedback.c): its feature, chained to the walk's
 * 'h' so far ('part': its index in the walk, 0 its base, which is no feature of its own),
 * hit while an input runs; its kind's names harvested; with 'path' (the parts below the
 * base, as a field writes them: `a.b[k]`) the kind kept as that path's; with 'slot' (-1 at
 * a walk's start, then what it was set to) the kind as where the walk ended so far.  The
 * new h. */
uint32_t gc_source_feedback_reached(PyObject *o, uint32_t h, int part, const char *path, int *slot);
/* Is the program's own code among the calling thread's 'depth' innermost frames (a call
 * made for it: its code, a guard it calls, a standard-library function it calls)? */
int gc_source_feedback_in_program(int depth);
/* Did the last outcome reach a kind of value (a feature of it) no earlier one had? */
int gc_source_feedback_new_value(void);
/* The dictionary's kinds (indices) the last outcome reached, at most 'max': how many. */
int gc_source_feedback_kinds(uint16_t *out, int max);

#endif
