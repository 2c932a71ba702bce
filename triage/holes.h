/* holes.h — findings as holes: the step where a chain leaves what the gate meant to hand out.
 *
 * Owns: the one rule that names a hole from an edge (source object, trailer, value;
 * docs/HOLES.md), a hole's name for an evaluated chain (its first such edge) and for a
 * sweep edge (the same rule, through gc_sweep_opts.hole), whether a namespace gate can
 * close it and what closing it means, the grouping of findings into one row per hole
 * (sorted by capability, then hole) or, for source programs, per weakness (weakness.h: the
 * roots and holes under it), each row's confirmation in a plain interpreter and its grade
 * (where the primitive was: held, returned, only inside an exception), the rows' text and
 * JSON forms, and `advise`'s cut. */
#ifndef GATECRASH_HOLES_H
#define GATECRASH_HOLES_H

#include "campaign.h"
#include "confirm.h"
#include "eval.h"
#include "sweep.h"

#define GC_HOLE_NAME 160

/* The hole an edge opens: src --(kind: gc_trailer_kind, key: its name, element name or
 * NULL)--> dst, src having been reached from 'from' by 'from_key' (from NULL: src is the
 * namespace's value from_key; src NULL: dst is the namespace's value 'key').  Writes the
 * hole's name and returns 1; returns 2 when dst is the namespace 'ns' or one of its values
 * (back inside: a hole the path went through before ends there); 0 otherwise.
 * 'gate_file' (the gate module's path, str) tells the gate's own functions. */
int gc_hole_edge(PyObject *ns, PyObject *gate_file, PyObject *from, const char *from_key, PyObject *src, int kind, const char *key,
                 PyObject *dst, char *name, size_t len);

/* 1 when f is a method bound to obj (a C method or a method-wrapper): calling it reads obj,
 * so the call is an edge out of obj (X.pop(), X.__getattribute__('k')). */
int gc_hole_bound_to(PyObject *f, PyObject *obj);

/* The hole of an escaping chain: evaluated in a fresh namespace with every step watched,
 * the first edge on the escaping statements' path that gc_hole_edge names (an effect or
 * syscall escape with none: the call that made it).  0 and 'name' filled when it escapes,
 * -1 when it does not (name ""), or an exit code (err filled). */
int gc_hole_of_chain(gc_target *t, const gc_chain *c, gc_outcome *out, char *name, size_t len, char *err,
                     size_t errlen);

/* 1 when a namespace gate can close the hole (it decides what it hands out), 0 when it is
 * Python semantics (class walks, closure cells): it needs compile-time attribute
 * restrictions, or not handing out the object at all. */
int gc_hole_closable(const char *hole);
/* What closing it means, in the gate's terms (one sentence, no newline). */
void gc_hole_advice(const char *hole, char *out, size_t len);

/* One row per hole (or per weakness: then hole is the weakness's name). */
typedef struct {
    char hole[GC_HOLE_NAME];
    char chain_hole[GC_HOLE_NAME]; /* the hole of its shortest chain */
    char caps[32];            /* "spawn", "write", "spawn+write" */
    int cap_rank;             /* lowest capability it opens, for the order */
    int closable;
    int nprims, nsigs;
    char prims[1024];         /* "os.system, os.execv, ..." (first few) */
    char chain[1024];         /* its shortest chain */
    char kind[16], cap[16], prim[96], sig[256]; /* the finding that chain is of */
    int confirmed;            /* 1: gc_holes_confirm ran its chain in a plain interpreter */
    gc_confirmation conf;     /* then: what it found */
    /* a row per weakness: the check it passes, the roots it was seen from, the holes it covers */
    char check[400];
    char roots[400];
    int nroots;
    char covers[1024];
    int ncovers;
} gc_hole_row;

/* Group findings (each with .hole set) into rows, sorted by capability then hole name; the
 * rows are malloc'd (caller frees).  Returns the number of rows. */
int gc_holes_group(const gc_finding *f, int n, gc_hole_row **rows);
/* Each row's chain (before any minimizing: its kind and primitive are known) run once more
 * in a fresh plain interpreter (confirm.h), the rows in order while 'seconds' last (a row
 * past them is left unconfirmed and says so); then the rows sorted by capability, then grade
 * (held by the program, handed back as the value, only inside an exception, confirmed
 * without a place, not confirmed, could not run, not run), then hole. */
void gc_holes_confirm(const gc_target *t, gc_hole_row *rows, int n, long seconds);
/* A row's grade, one word: "held" | "returned" | "exception" | "yes" | "NO" | "unknown" |
 * "-" (not run). */
const char *gc_holes_grade(const gc_hole_row *r);
/* As gc_holes_group, one row per weakness of the findings' programs (each .chain a source program;
 * gc_weakness_of_program), each with its roots and the holes it covers; a program that does
 * not parse keeps its hole's row.  Needs the interpreter. */
int gc_holes_group_weakness(const gc_finding *f, int n, gc_hole_row **rows);
/* Text: a header and one line per row, then the chain indented (a weakness's row: then the
 * check it passes, its roots and its holes). */
void gc_holes_print(FILE *fp, const gc_hole_row *rows, int n);
/* JSON: an array of {hole, capabilities, closable, primitives, signatures, chain, ...}. */
cJSON *gc_holes_json(const gc_hole_row *rows, int n);

/* Fill f[i].hole for findings whose chain is known (the campaign's table, saved cases):
 * each chain evaluated once with gc_hole_of_chain. */
void gc_holes_name_findings(gc_target *t, gc_finding *f, int n);

/* The hole of an escaping chain ("" when it names none): chain mode's campaign hole. */
void gc_holes_campaign_hook(void *ctx, gc_target *t, const gc_chain *c, char *hole, size_t len);
/* A row's chain ('input', room for cap bytes) minimized keeping its hole, in place (left as
 * it is when that fails): chain mode's minimize_row (mode.h). */
void gc_holes_minimize_row(gc_target *t, const char *hole, char *input, size_t cap);
/* The campaign's final table by hole: its head (gc_campaign_print_head), then one row per
 * hole (per weakness with 'by_weakness'), each row's shortest input confirmed in a plain
 * interpreter while 'confirm_seconds' last (0: not confirmed, no CONFIRMED column;
 * gc_holes_confirm), then minimized by 'minimize_row' (keeping the hole; NULL: as found)
 * while 'seconds' last. */
void gc_holes_campaign_table(gc_target *t, const gc_campaign_result *r, const char *name, long seconds,
                             int by_weakness,
                             void (*minimize_row)(gc_target *t, const char *hole, char *input, size_t cap),
                             long confirm_seconds);

/* The holes the edges of one or more sweeps were named by: an id per name (what a sweep's
 * graph keeps, gc_sweep_opts.hole_name), the keys of the edges that opened each, and which
 * closed holes some edge carried.  The caller's: made before its sweeps, handed to each
 * through gc_holes_sweep_setup, read after them (gc_holes_edge_keys, gc_holes_unmatched),
 * freed once every graph of those sweeps is freed (they name their holes through it). */
typedef struct gc_hole_names gc_hole_names;
gc_hole_names *gc_hole_names_new(gc_target *t);
void gc_hole_names_free(gc_hole_names *h);

/* For a sweep: install gc_holes' edge rule into 'o' (o->hole, o->hole_ctx: h), closing the
 * holes named in 'closed' (NULL or NULL-terminated; it must outlive the sweep). */
void gc_holes_sweep_setup(gc_sweep_opts *o, gc_hole_names *h, const char *const *closed);
/* `sweep` by hole, with 'o' set up by gc_holes_sweep_setup with those holes closed
 * (NULL-terminated, or NULL): the sweep, then one row per hole still open (text, or one
 * JSON object with o->json).  0 or an exit code. */
int gc_holes_sweep(gc_target *t, gc_sweep_opts *o, const char *const *closed, gc_sweep_stats *st,
                   gc_sweep_graph **out);

/* The report of a sweep by hole: its findings 'f' (with their holes) and their rows, as text
 * (a header, the rows, a summary line) or, with o->json, one JSON object. */
void gc_holes_sweep_print(gc_target *t, const gc_sweep_opts *o, const gc_sweep_stats *st, const char *const *closed,
                          const gc_finding *f, int n, const gc_hole_row *rows, int nrows);

/* advise's cut over any sweep (gc_advise's, or a test's): 'sweep' runs the sweep with the
 * holes in 'closed' closed and gives one row per hole it shows (*rows malloc'd, or an exit
 * code).  Fills 'cut' with the holes to close and *kept (malloc'd) with the row each had
 * when it first showed, then *rest (malloc'd) with the rows of the sweep with the cut
 * closed: the proof.  0 or the sweep's exit code. */
typedef int (*gc_cut_sweep)(void *ctx, const gc_strlist *closed, gc_hole_row **rows, int *nrows);
int gc_advise_cut(gc_cut_sweep sweep, void *ctx, gc_strlist *cut, gc_hole_row **kept, int *nkept,
                  gc_hole_row **rest, int *nrest);

/* `advise`: the holes to close at o->depth (advise.c says how it is found and how far from
 * a minimum it can be), each with what closing it means and what it cuts; with 'verify',
 * the sweep with the cut closed, and what it still finds.  Returns 0 when the cut leaves
 * nothing but holes a namespace gate cannot close, 1 otherwise, or an exit code. */
int gc_advise(gc_target *t, gc_sweep_opts *o, int verify);

/* The keys (attribute names, element names) of the edges that opened 'hole' in h's sweeps
 * ("os, sys, io"), or "". */
const char *gc_holes_edge_keys(const gc_hole_names *h, const char *hole);
/* Holes named in 'closed' that no edge of h's last sweep carried (a typo, or not a hole of
 * this target): listed so the caller can say so. */
int gc_holes_unmatched(const gc_hole_names *h, const char *const *closed, const char **out, int max);

#endif
