/* ptrmap.h — address -> record index, for the change watchers' callbacks.
 *
 * Owns: the one open-addressing map from an object's address to the index of the record
 * that watches it (state.c's watched dicts and classes, nscache.c's watches), and the set of
 * classes the process had before its first input (feedback.c's baseline).  CPython's
 * dict, type and function watchers (3.12+) call back with the object that changes; the
 * callback finds its record here without allocating or running Python code.  Grown by the
 * owner between inputs (never inside a callback); entries are only added, and the whole
 * map is cleared when the owner drops its records.  Header-only: the callbacks run on
 * every change to a watched object. */
#ifndef GATECRASH_PTRMAP_H
#define GATECRASH_PTRMAP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

typedef struct {
    const void **key;
    uint32_t *idx;
    size_t mask; /* capacity - 1 (a power of two); 0: empty, nothing allocated */
    size_t n;
} gc_ptrmap;

static inline size_t gc_ptrmap_slot(const gc_ptrmap *m, const void *p) { return ((uintptr_t)p >> 4) & m->mask; }

/* The index recorded for p, or -1. */
static inline long gc_ptrmap_get(const gc_ptrmap *m, const void *p)
{
    if (!m->mask)
        return -1;
    for (size_t h = gc_ptrmap_slot(m, p);; h = (h + 1) & m->mask) {
        if (m->key[h] == p)
            return (long)m->idx[h];
        if (!m->key[h])
            return -1;
    }
}

static inline void gc_ptrmap_put_slot(gc_ptrmap *m, const void *p, uint32_t idx)
{
    size_t h = gc_ptrmap_slot(m, p);
    while (m->key[h] && m->key[h] != p)
        h = (h + 1) & m->mask;
    m->n += !m->key[h];
    m->key[h] = p;
    m->idx[h] = idx;
}

/* Record p -> idx (kept at most half full). */
static inline void gc_ptrmap_put(gc_ptrmap *m, const void *p, uint32_t idx)
{
    if (2 * (m->n + 1) > m->mask) {
        gc_ptrmap old = *m;
        size_t cap = old.mask ? 2 * (old.mask + 1) : 1024;
        m->key = gc_xcalloc(cap, sizeof *m->key);
        m->idx = gc_xcalloc(cap, sizeof *m->idx);
        m->mask = cap - 1;
        m->n = 0;
        for (size_t i = 0; old.mask && i <= old.mask; i++)
            if (old.key[i])
                gc_ptrmap_put_slot(m, old.key[i], old.idx[i]);
        free(old.key);
        free(old.idx);
    }
    gc_ptrmap_put_slot(m, p, idx);
}

static inline void gc_ptrmap_clear(gc_ptrmap *m)
{
    if (m->mask)
        memset(m->key, 0, (m->mask + 1) * sizeof *m->key);
    m->n = 0;
}

#endif
