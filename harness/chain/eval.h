/* eval.h — the evaluator: runs a chain as handler code would, under the oracles.
 *
 * Owns: the meaning of each trailer (getattr, items, calls through a frame whose globals
 * are the namespace, exploration forms and their resolution to readable names), the
 * per-step oracle checks, the harness's refusals before a call, the bridges a chain
 * crosses (for signatures), gc_run_input: fresh install + evaluation + state check, and
 * the escape's text forms. */
#ifndef GATECRASH_EVAL_H
#define GATECRASH_EVAL_H

#include <Python.h>
#include <cjson/cJSON.h>

#include "chain.h"
#include "json.h"
#include "oracle.h"
#include "target.h"
#include "verdict.h"

/* Bridges: the kinds of hop a chain makes, the "shape" part of an escape signature. */
enum {
    GC_BR_MODATTR = 1 << 0,    /* a module-valued attribute (proxy -> real module) */
    GC_BR_GLOBALS = 1 << 1,    /* __globals__ / f_globals */
    GC_BR_SELF = 1 << 2,       /* __self__ of a builtin or method */
    GC_BR_FUNC = 1 << 3,       /* __func__ / __wrapped__ */
    GC_BR_CLOSURE = 1 << 4,    /* __closure__ / cell_contents */
    GC_BR_FRAME = 1 << 5,      /* tracebacks and frames */
    GC_BR_CLASS = 1 << 6,      /* __class__ / __mro__ / __bases__ / __subclasses__ walks */
    GC_BR_DICT = 1 << 7,       /* __dict__ */
    GC_BR_BUILTINS = 1 << 8,   /* __builtins__ */
    GC_BR_SYSMODULES = 1 << 9, /* sys.modules */
    GC_BR_IMPORT = 1 << 10,    /* __import__ / import machinery (__loader__, __spec__) */
    GC_BR_EXC = 1 << 11,       /* a call's exception */
    GC_BR_CALL = 1 << 12,      /* any other call's result */
    GC_BR_COUNT = 13
};
const char *gc_bridge_name(int bit_index);
void gc_bridges_format(unsigned bridges, char *buf, size_t len); /* "modattr+sys.modules" */
/* The bridge one step crosses: getattr 'name' on v giving r; an item of 'container'; a
 * call of f giving r (or raising).  Shared with the sweep, so its signatures are the same. */
unsigned gc_bridge_attr(PyObject *v, const char *name, PyObject *r);
unsigned gc_bridge_item(PyObject *ns, PyObject *container);
unsigned gc_bridge_call(PyObject *f, PyObject *r, int raised);
/* handler(f, a): f(*a) with 'ns' as its globals (new reference). */
PyObject *gc_eval_trampoline(PyObject *ns);
/* v is a frame of that trampoline: its f_locals are only the call's own f and a. */
int gc_eval_handler_frame(PyObject *v);

typedef struct {
    int stmt, trailer;      /* trailer -1: the statement's root */
    PyObject *value;        /* borrowed, NULL when the step failed */
    const char *error;      /* why it failed, or NULL */
    const gc_chain *resolved;
    PyObject *ns;           /* borrowed: the namespace the chain runs in */
} gc_step_info;

typedef void (*gc_step_cb)(void *ctx, const gc_step_info *step);
/* 1 (the default): a failed step's gc_step_info.error says why (its exception, formatted);
 * 0: it may say only "no such attribute" or nothing, and a missing attribute is looked up
 * without making an AttributeError (fuzz_gate, whose probe reads only values). */
extern int gc_eval_step_errors;

/* Chain mode's outcome of one input: the verdict both modes share (verdict.h), its members
 * also by name, and the chain as it ran. */
typedef struct gc_outcome_s {
    union {
        gc_verdict verdict;
        struct {
            GC_VERDICT_MEMBERS
        };
    };
    gc_chain resolved;      /* the chain with exploration forms replaced by names */
    int esc_stmt, esc_trailer;
    int failed_steps;
    int stop_stmt, stop_trailer; /* the step running when the time limit's deadline passed (trailer -1: a
                                    root; -1, -1: it did not pass during a step) */
    unsigned char stmt_failed[GC_MAX_STMTS]; /* a step of this statement failed: its value was None */
} gc_outcome;

typedef struct {
    PyObject *ns;    /* the installed namespace */
    PyObject *tramp; /* handler(f, a): f(*a), with ns as globals */
    gc_step_cb cb;
    void *cb_ctx;
    int keep;        /* hold on to the value the last statement ends on (gc_open_input) */
    PyObject *kept;  /* that value (strong), or NULL */
    unsigned kept_br; /* the bridges its statement crossed to it */
} gc_evaluator;

/* Once, after the target is open. */
int gc_eval_init(char *err, size_t errlen);

/* Evaluate against an installed namespace (borrowed).  Fills 'out'.  Returns 0, or -1 on
 * an internal error (message in out->state_note). */
int gc_eval_chain(gc_evaluator *ev, const gc_chain *c, gc_outcome *out);

/* Set: the next gc_run_input starts with a full garbage collection, inside the input's
 * state-check and time-limit window (fuzz_gate sets it now and then). */
extern int gc_eval_collect_first;
/* Set (fuzz_gate: hangs.h): asked before each step (trailer -1: a root); 0 ends the input
 * there, the step not run, as stopped by the time limit (timed_out and known_hang). */
extern int (*gc_eval_may_run)(int stmt, int trailer);
/* A fresh namespace (installed, or cached while nothing could have changed it: nscache.h),
 * evaluation, interpreter state check and repair: one fuzz input.
 * Returns 0, or an exit code (GC_EXIT_TARGET when the install failed, GC_EXIT_HARNESS when
 * state could not be repaired) with err filled. */
int gc_run_input(gc_target *t, const gc_chain *c, gc_outcome *out, gc_step_cb cb, void *ctx,
                 char *err, size_t errlen);

/* An input whose window stays open, for the mutator's probes (fuzz_gate.c): each extends the
 * chain the one before it ran by a trailer on its last statement, so each needs only that
 * trailer run on the value the one before ended on (and the first, often, none: the engine
 * mutates the input it has just run).  gc_input_open runs c as gc_run_input does but leaves
 * its window open, holding that value (not one of a failed step, an escape or a stopped
 * input); gc_input_more runs the last trailer of c (the chain run before, with one more
 * trailer on its last statement, which takes no '_') on it, and holds what it gives, or
 * (again) gives cb the held value as the last step of c, the chain run before: -1 when it
 * cannot (nothing held, or such a trailer), out untouched; gc_input_close
 * lets go of what was held and checks and repairs the state, once for all of them (so
 * finalizers run in the window).  The value is never held past gc_input_close, and no
 * other input may run while the window is open. */
typedef struct {
    gc_evaluator ev;
    int open;
} gc_open_input;
int gc_input_open(gc_target *t, const gc_chain *c, gc_outcome *out, gc_step_cb cb, gc_open_input *o,
                  char *err, size_t errlen);
int gc_input_more(gc_open_input *o, const gc_chain *c, int again, gc_outcome *out, gc_step_cb cb);
int gc_input_close(gc_open_input *o, char *err, size_t errlen);

/* The escape's text forms: verdict.h's one line and one JSON object, with the escape's
 * chain (gc_escape_chain_text) as the input and its trailers as the size. */
void gc_escape_line(const gc_target *t, const gc_outcome *o, gc_strbuf *out); /* "gatecrash: ESCAPE …" */
void gc_escape_json(const gc_target *t, const gc_outcome *o, gc_strbuf *out); /* one JSON line, hole "" */
cJSON *gc_escape_json_object(const gc_target *t, const gc_outcome *o, const char *hole); /* caller deletes */
/* The chain that makes the escape: only the statements it depends on (linked by '_', as a
 * root or a call's argument), statements that continue from '_' folded into one where that
 * is exact (the previous one did not fail, and they pass no '_' on), cut after the escaping
 * step. */
void gc_outcome_escape_chain(const gc_outcome *o, gc_chain *out);
void gc_escape_chain_text(const gc_outcome *o, gc_strbuf *out);
/* The resolved chain as it ran, every statement kept, cut after the escaping step: what a
 * crash input's recorded resolved chain holds (fsutil.h GC_RESOLVED_DIR). */
void gc_outcome_ran_chain(const gc_outcome *o, gc_chain *out);

#endif
