/* engine.c — which engine's runtime this binary has (fuzz_target.h).  Not instrumented
 * (gatecrash_fuzz): a weak reference in an instrumented file does not link. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_target.h"

/* Defined only in binaries linked with AFL++'s runtime (its coverage map). */
extern uint8_t *__afl_area_ptr __attribute__((weak));

int gc_fuzz_afl_runtime(void) { return &__afl_area_ptr != NULL; }
