/* mutator.h — chain-aware mutation, shared by every engine's custom-mutator hook.
 *
 * Owns: edits that keep an input a chain (append, replace or drop a trailer; swap a root;
 * add a statement that continues from '_'; re-roll an exploration index; splice two
 * chains; calls with harvested arguments where the callable's arity says they fit, '_'
 * among them when the statement has one before it; the harvested words those arguments are
 * drawn from).  Exploration trailers (.#K, [#K]) are how a mutation reaches names the value
 * really has at run time: the evaluator resolves K against dir(v) or the items of v. */
#ifndef GATECRASH_MUTATOR_H
#define GATECRASH_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

struct gc_chain_s;

typedef enum {
    GC_VK_NONE, /* the statement failed, or no probe */
    GC_VK_MODULE, GC_VK_TYPE, GC_VK_FUNCTION, GC_VK_SEQUENCE, GC_VK_MAPPING, GC_VK_EXCEPTION,
    GC_VK_TRACEBACK, GC_VK_FRAME, GC_VK_CELL, GC_VK_OTHER
} gc_value_kind;

/* What the value at the end of statement 'stmt' of a chain is (the engine glue evaluates
 * it).  Optional: without a probe the mutator edits blind. */
typedef gc_value_kind (*gc_probe_fn)(const struct gc_chain_s *c, int stmt);
void gc_mutator_set_probe(gc_probe_fn fn);

/* What a closer look at the value says (the detail probe, also optional): whether it is
 * callable and how many positional arguments its signature takes, and names it has (its
 * instance or module or class __dict__ keys, a mapping's str keys; the forbidden
 * primitives' names first), which bypass a __dir__ or __getattribute__ that hides them. */
#define GC_PROBE_NAMES 32
typedef struct {
    gc_value_kind kind;
    int callable;
    int min_args, max_args; /* max_args -1: any number */
    int nnames;
    char names[GC_PROBE_NAMES][65];
} gc_probe_detail;
typedef int (*gc_detail_fn)(const struct gc_chain_s *c, int stmt, gc_probe_detail *d); /* 0: filled */
void gc_mutator_set_detail_probe(gc_detail_fn fn);

/* Harvested words, the string arguments of proposed calls: 'gate' 1 for strings in the gate
 * module's own data (drawn half the time), 0 for the rest (module names in sys.modules, the
 * primitives' attribute names, names the probe saw, paths inside scratch).  Bounded and
 * de-duplicated; words of more than 127 bytes are skipped.  Returns how many were new. */
#define GC_MAX_WORDS 4096
int gc_mutator_add_words(const char *const *w, int n, int gate);
/* 0: no harvested arguments (calls get the fixed module names only, never '_'; the
 * benchmark's "fuzz without harvested arguments"), 1 (default). */
extern int gc_mutator_harvest;

/* Roots the gate put in the namespace (set once, after the first install). */
void gc_mutator_set_roots(const char *const *roots, int n);

/* Names of the primitives the policy forbids (gc_oracle_target_names): one trailer in
 * eight aims at one of them, as `.name` or `[@name]`. */
void gc_mutator_set_targets(const char *const *names, int n);

/* Mutate data[0..size) in place, at most max_size bytes; returns the new size, or 0 when
 * no chain-level edit applies (the caller then falls back to byte-level mutation). */
size_t gc_mutate_chain(uint8_t *data, size_t size, size_t max_size, unsigned seed);

/* The chain the caller has just parsed (leniently) from data[0..size), held by the caller
 * until its next call here: a mutation of those very bytes starts from a copy of it instead
 * of parsing them again (libFuzzer mutates each input it has just run, four times in five),
 * and so does a splice of them.
 * c NULL: none. */
void gc_mutate_parsed(const uint8_t *data, size_t size, const struct gc_chain_s *c);

/* The chain the last mutation wrote, when data[0..size) is exactly what it wrote (what a
 * parse of those bytes gives: the printer and the parser round-trip, test_mutator); else
 * NULL.  Valid until the next mutation. */
const struct gc_chain_s *gc_mutated_chain(const uint8_t *data, size_t size);

/* Splice: statements / trailers of a and b combined into out; returns its size or 0. */
size_t gc_crossover_chain(const uint8_t *a, size_t asz, const uint8_t *b, size_t bsz, uint8_t *out,
                          size_t max_out, unsigned seed);

#endif
