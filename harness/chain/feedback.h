/* feedback.h — coverage signals from the Python side.
 *
 * libFuzzer's own coverage sees only the harness's C code, not the object graph a chain
 * walks.  This file turns each evaluated step into features libFuzzer can keep inputs
 * for: the transition (type of value, operation, type of result) and the first reach of
 * each real module, real primitive and other interesting object kind.  Written to
 * libFuzzer's extra-counters section, or into AFL++'s coverage map (gc_feedback_attach_afl);
 * a no-op array in builds without an engine. */
#ifndef GATECRASH_FEEDBACK_H
#define GATECRASH_FEEDBACK_H

#include <Python.h>

/* One evaluated step: 'in' --op(name)--> 'out'.  'name' is the attribute or str key taken
 * (NULL for other steps). */
void gc_feedback_step(PyObject *in, int op, const char *name, PyObject *out);
extern int gc_feedback_enabled;
/* The signals, each of which can be turned on or off (the ablation of bench/ablation.sh):
 *   transitions  (type of value, operation, type of result)
 *   names        (type of value, name taken)
 *   modules      first reach of each module, real (the one in sys.modules) or not
 *   classes      which class a walk reached; whose __subclasses__() it took
 *   prims        which real primitive (of the oracle's table) was reached
 *   gate         the gate module's own code: each function entered and each line run
 *                (3.11: a C trace function on while a gate frame runs; 3.12+: sys.monitoring)
 *   counts       hit counts (libFuzzer buckets them: 1, 2, 3, 4-7, ...); off: each
 *                feature is one bit
 * The default is the signals the ablations showed to help find escapes
 * (docs/PERFORMANCE.md): classes and prims.  On the hard case (targets/constants-only,
 * class walks of 4+ steps; 8 seeds x 2M inputs) the median number of inputs to the first
 * escape was 135k with transitions, classes and prims and 43k without transitions (better
 * on 6 seeds, the same on 2), with the same number of distinct signatures; on the station
 * targets transitions give more distinct signatures per million inputs (104 against 90,
 * 76 against 62) but triple libFuzzer's corpus and cost a third of the speed, so per
 * second the two find about as many.  Around this default (8 seeds x 2M) the median was
 * 33k inputs; 390k without classes, 49k without prims, 195k with transitions (those two
 * variants end with more distinct signatures there: breadth, not depth).  Modules on top
 * of classes and prims did worse (53k inputs, 17 signatures against 29); names, gate and
 * counts showed no gain in the earlier ablations (names and modules grow the corpus most:
 * every attribute name, every importable module).  "full" is every signal but counts. */
enum {
    GC_FB_TRANSITIONS = 1, GC_FB_NAMES = 2, GC_FB_MODULES = 4, GC_FB_CLASSES = 8, GC_FB_PRIMS = 16,
    GC_FB_GATE = 32, GC_FB_COUNTS = 64, GC_FB_ALL = 127,
    GC_FB_FULL = GC_FB_ALL & ~GC_FB_COUNTS,
    GC_FB_COARSE = GC_FB_FULL & ~GC_FB_NAMES, /* AFL++'s default (see fuzz_gate_config.c) */
    GC_FB_DEFAULT = GC_FB_CLASSES | GC_FB_PRIMS
};
extern unsigned gc_feedback_signals;
/* "none" | "default" | "full" (every signal but counts) | "coarse" (full but names), then
 * ",-signal" / ",+signal"; or "-signal"/"+signal" alone (from the default); or a plain
 * list "transitions,modules".  Returns 0, or -1 on an unknown word. */
int gc_feedback_parse(const char *spec, unsigned *out);
/* Take the classes the process has now (object's subclasses, all the way down) as the
 * classes features name; a class made later is named by its nearest one of these.  Call
 * once, when the target is open, before the first input. */
void gc_feedback_baseline_classes(void);
/* Gate-code coverage: frames whose globals are this module's namespace. */
void gc_feedback_gate_module(PyObject *module);
/* Write the features into AFL++'s coverage map instead (fuzz_gate_afl): call before the
 * fork server starts.  1 when attached, 0 when this binary has no AFL++ runtime. */
int gc_feedback_attach_afl(void);

#endif
