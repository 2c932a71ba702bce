/* mutator.h — chain-aware mutation, shared by every engine's custom-mutator hook.
 *
 * Owns: edits that keep an input a chain (append, replace or drop a trailer; swap a root;
 * add a statement that continues from '_'; re-roll an exploration index; splice two
 * chains).  Exploration trailers (.#K, [#K]) are how a mutation reaches names the value
 * really has at run time: the evaluator resolves K against dir(v) or the items of v. */
#ifndef GATECRASH_MUTATOR_H
#define GATECRASH_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/* Roots the gate put in the namespace (set once, after the first install). */
void gc_mutator_set_roots(const char *const *roots, int n);

/* Mutate data[0..size) in place, at most max_size bytes; returns the new size, or 0 when
 * no chain-level edit applies (the caller then falls back to byte-level mutation). */
size_t gc_mutate_chain(uint8_t *data, size_t size, size_t max_size, unsigned seed);

/* Splice: statements / trailers of a and b combined into out; returns its size or 0. */
size_t gc_crossover_chain(const uint8_t *a, size_t asz, const uint8_t *b, size_t bsz, uint8_t *out,
                          size_t max_out, unsigned seed);

#endif
