/* fuzz_no_mutator.c — fuzz_target.h's mutator and crossover for the targets that leave
 * mutation to the engine (fuzz_decoder, fuzz_program): no edit, so the driver
 * falls back to the engine's own (LLVMFuzzerMutate, AFL++'s byte splice). */
#include "fuzz_target.h"

size_t gc_fuzz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    (void)data, (void)size, (void)max_size, (void)seed;
    return 0;
}

size_t gc_fuzz_crossover(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                         size_t max_out, unsigned int seed)
{
    (void)d1, (void)s1, (void)d2, (void)s2, (void)out, (void)max_out, (void)seed;
    return 0;
}
