/* driver.c — engine glue: the libFuzzer entry points (LLVMFuzzerInitialize,
 * LLVMFuzzerTestOneInput, the custom mutator and crossover) adapted to the fuzz target
 * interface (fuzz_target.h); the target is fuzz_gate.c, fuzz_source.c, fuzz_decoder.c or fuzz_program.c.  Nothing
 * here but what the engine needs: its return values, its crash (abort) on a finding, its
 * own mutation when the target makes none, its argv; and the clock around each input for
 * the run's rate dips (ratewatch.h).
 *
 * The same file is fuzz_gate (libFuzzer) and, compiled by afl-clang-fast and linked with
 * AFL++'s libAFLDriver, fuzz_gate_afl: persistent mode, the fork server deferred until
 * LLVMFuzzerInitialize has returned.  Which engine it runs under is seen at run time
 * (gc_fuzz_afl_runtime), so OSS-Fuzz's AFL++ build of this file needs nothing special.
 * Coverage-instrumented, as is the target's own file; the core library is not (CMakeLists.txt). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_target.h"
#include "ratewatch.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* libFuzzer's -timeout when the command line gives none: a campaign's value.  Its own default
 * (1200 s) is the only end of an input the hard limit leaves to the engine (timelimit.h: a
 * program whose finalizers make more instances, each swallowing the harness's Timeout, runs
 * on past the per-input limit), so a hang of 20 minutes per such input.  Added here, before
 * libFuzzer reads its flags (it reads argv after LLVMFuzzerInitialize returns). */
#define GC_ENGINE_TIMEOUT "-timeout=10"

static void default_timeout(int *argc, char ***argv)
{
    for (int i = 1; i < *argc; i++)
        if (strncmp((*argv)[i], "-timeout=", 9) == 0)
            return;
    char **v = malloc(((size_t)*argc + 2) * sizeof *v); /* the process's argv from now on */
    if (!v)
        return;
    memcpy(v, *argv, (size_t)*argc * sizeof *v);
    v[(*argc)++] = GC_ENGINE_TIMEOUT;
    v[*argc] = NULL;
    *argv = v;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    int rc = gc_fuzz_initialize(argc, argv);
    if (rc)
        exit(rc);
    if (!gc_fuzz_afl_runtime())
        default_timeout(argc, argv);
    atexit(gc_ratewatch_report); /* the run's rate dips, at its end (ratewatch.h) */
    if (gc_fuzz_afl_runtime()) {
        /* AFL++'s driver reads argv when this returns (a loop count, or files to run): ours
         * must be gone.  (libFuzzer keeps them: its fork mode passes them to its jobs.) */
        int kept = 1;
        for (int i = 1; i < *argc; i++)
            if (strncmp((*argv)[i], "--", 2) != 0)
                (*argv)[kept++] = (*argv)[i];
        (*argv)[kept] = NULL;
        *argc = kept;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gc_ratewatch_begin();
    int verdict = gc_fuzz_test_one_input(data, size);
    gc_ratewatch_end(data, size);
    if (verdict == GC_FUZZ_FINDING) { /* the engine's crash: it saves the input */
        gc_fuzz_cleanup(); /* abort() skips atexit */
        fflush(stderr);
        abort();
    }
    return verdict;
}

/* The target's mutation, else libFuzzer's own byte-level ones (which also use the -dict
 * tokens). */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    size_t n = gc_fuzz_mutate(data, size, max_size, seed);
    return n ? n : LLVMFuzzerMutate(data, size, max_size);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed)
{
    size_t n = gc_fuzz_crossover(d1, s1, d2, s2, out, max_out, seed);
    if (n)
        return n;
    /* byte-level splice (libFuzzer has no entry point for its own): a's head and b's tail */
    size_t ha = s1 ? seed % (s1 + 1) : 0, tb = s2 ? (seed / 7) % (s2 + 1) : 0;
    if (ha + (s2 - tb) > max_out)
        return 0;
    memcpy(out, d1, ha);
    memcpy(out + ha, d2 + tb, s2 - tb);
    return ha + (s2 - tb);
}
