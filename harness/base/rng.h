/* rng.h — the harness's pseudo-random generator.
 *
 * Owns: the one generator the mutators draw from (mutator.c for libFuzzer, afl_mutator.c for
 * AFL++): Marsaglia's 32-bit xorshift (13, 17, 5).  Seeded by the caller, never by time, so
 * one seed always gives one sequence: the engines' -seed and the mutator's tests rely on it.
 * Header-only so that the AFL++ mutator library needs no other object file for it. */
#ifndef GATECRASH_RNG_H
#define GATECRASH_RNG_H

#include <stdint.h>

/* Advances *s (which must not be 0) and returns its new value. */
static inline uint32_t gc_xorshift32(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

#endif
