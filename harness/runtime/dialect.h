/* dialect.h — what a source target's parser accepts.
 *
 * Owns: the dialect bits of target.json's "dialect" (adapter.h reads them) by which the
 * program printer (program.h) writes what the target's parser accepts (its docs and error
 * messages say what it rejects).  No CPython: the printer knows nothing of it. */
#ifndef GATECRASH_DIALECT_H
#define GATECRASH_DIALECT_H

/* What the target's parser accepts (its docs and error messages say what it rejects). */
enum {
    GC_DIALECT_NO_UNDERSCORE = 1u << 0, /* no attribute names starting with '_': such a walk
                                           is printed as getattr(e, '_name') */
    GC_DIALECT_EXPRESSION = 1u << 1,    /* one expression (simpleeval): the last statement's
                                           value is printed alone */
    GC_DIALECT_PY312 = 1u << 2          /* the embedded CPython is 3.12 or later: the type
                                           statement and type parameters are written (set by
                                           adapter.c from PY_VERSION_HEX, not target.json) */
};

/* Steps (target.json "steps": N, 2..GC_MAX_STEPS): an agent's executor keeps its state from
 * one code action to the next, so a program's top-level statements are run as up to N
 * consecutive programs against one session of the sandbox (adapter.h).  N sits in the
 * dialect's bits from GC_DIALECT_STEPS_SHIFT on, and the printer writes the line
 * GC_STEP_MARKER before each top-level statement that starts a step: the second, ..., the
 * N-th (the rest stay in the last step).  0 or 1: one step, no marker. */
#define GC_DIALECT_STEPS_SHIFT 8
#define GC_MAX_STEPS 16
#define GC_DIALECT_STEPS(d) (((d) >> GC_DIALECT_STEPS_SHIFT) & 0xffu)
#define GC_STEP_MARKER "# gatecrash: step"


#endif
