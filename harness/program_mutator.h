/* program_mutator.h — the program-aware mutator of source mode (fuzz_source's gc_fuzz_mutate).
 *
 * Owns: edits on the program IR (program.h) and the dictionary they draw names and strings
 * from.  An input is decoded, edited (insert, replace or drop a statement; add or drop a
 * trailer; wrap a statement in try; alias a name; move an attribute walk into a format
 * string) and encoded back, so every output is a canonical encoding: it decodes, and
 * decoding and encoding it again gives the same bytes.  Knows nothing of CPython: the
 * dictionary is filled by its caller (fuzz_source.c harvests the sandbox package's own
 * string constants, its blocklists). */
#ifndef GATECRASH_PROGRAM_MUTATOR_H
#define GATECRASH_PROGRAM_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

#define GC_PM_MAX_WORDS 512

/* Names and strings the edits use; words longer than GC_P_MAX_STRLEN are cut. */
typedef struct {
    int n;
    char word[GC_PM_MAX_WORDS][64];
} gc_pm_dict;

/* Adds w (its first 63 bytes) unless the dictionary is full or holds it: 1 if added. */
int gc_pm_dict_add(gc_pm_dict *d, const char *w);

/* data (size bytes, room for max_size) mutated in place: the new size, or 0 when no edit
 * fit (the engine mutates instead).  d may be NULL (built-in words only). */
size_t gc_program_mutate(uint8_t *data, size_t size, size_t max_size, uint32_t seed, const gc_pm_dict *d);

#endif
