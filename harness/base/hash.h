/* hash.h — the harness's non-cryptographic hash.
 *
 * Owns: FNV-1a, the one hash the harness uses for ids that must not change between runs or
 * builds: the 64-bit variant (a recorded input's crash-HASH name in findings.c and an input's
 * key in fuzz_source.c, over bytes; a chain's hash in chain.c, the probe caches' key; the
 * list-content fingerprint in nscache.c, over whole pointer values)
 * and the 32-bit variant over C strings (feedback.c's feature ids, chained from a start the
 * caller chooses).  Header-only: the callers are on the per-input path.
 *
 * The 64-bit variant is a step (nscache.c steps over words) and, over bytes, a loop of it. */
#ifndef GATECRASH_HASH_H
#define GATECRASH_HASH_H

#include <stddef.h>
#include <stdint.h>

#define GC_FNV64_OFFSET 1469598103934665603ull
#define GC_FNV64_PRIME 1099511628211ull
#define GC_FNV32_OFFSET 2166136261u
#define GC_FNV32_PRIME 16777619u

/* One step of 64-bit FNV-1a: v is one byte, or one word (nscache.c). */
static inline uint64_t gc_fnv1a64_step(uint64_t h, uint64_t v) { return (h ^ v) * GC_FNV64_PRIME; }

/* 64-bit FNV-1a of n bytes at p, continuing from h (GC_FNV64_OFFSET for a fresh hash). */
static inline uint64_t gc_fnv1a64_bytes(uint64_t h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = gc_fnv1a64_step(h, ((const uint8_t *)p)[i]);
    return h;
}

/* 32-bit FNV-1a of the string s, continuing from h (GC_FNV32_OFFSET for a fresh hash). */
static inline uint32_t gc_fnv1a32_str(uint32_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * GC_FNV32_PRIME;
    return h;
}

#endif
