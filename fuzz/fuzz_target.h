/* fuzz_target.h — the interface every fuzz target implements (fuzz_gate: fuzz_gate.c;
 * fuzz_decoder: fuzz/fuzz_decoder.c; fuzz_program; fuzz_source: fuzz_source.c, its mutator
 * program_mutator.c; the ones that leave mutation to the engine link fuzz_no_mutator.c).
 *
 * Owns: the contract between a target and whatever feeds it inputs — the engine glue
 * (driver.c: libFuzzer, AFL++'s libAFLDriver) or the standalone runner (fuzz_runner.c, the
 * <target>-test binaries).  A target never calls an engine and never ends the process on a
 * finding: it reports the finding (its own lines on stderr) and says so in its verdict; the
 * caller turns that into the engine's crash (abort) or a line of its own.  So the same
 * target runs the same way under every engine and without one, and only driver.c calls an
 * engine. */
#ifndef GATECRASH_FUZZ_TARGET_H
#define GATECRASH_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* What one input was (gc_fuzz_test_one_input's result).  KEEP and REJECT are libFuzzer's
 * return values (0: the engine may keep the input in its corpus; -1: never). */
enum {
    GC_FUZZ_KEEP = 0,
    GC_FUZZ_REJECT = -1, /* nothing to run, a hang stopped, a finding already reported */
    GC_FUZZ_FINDING = 1  /* a finding (fuzz_gate: an escape), reported: the engine's crash */
};

/* Once, before any input.  argv holds the target's options (and, under an engine, the
 * engine's own flags, which the target ignores); argv[0] is the binary.  Returns 0, or an
 * exit code of README's table with its one "gatecrash: error: ..." line printed. */
int gc_fuzz_initialize(int *argc, char ***argv);

/* One input.  Returns GC_FUZZ_KEEP, GC_FUZZ_REJECT or GC_FUZZ_FINDING.  A harness error
 * ends the process with its exit code (one line printed), as it would under any caller. */
int gc_fuzz_test_one_input(const uint8_t *data, size_t size);

/* A target-aware mutation of data (size bytes, room for max_size) in place: the new size,
 * or 0 when the target made none (the engine mutates instead). */
size_t gc_fuzz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* A target-aware crossover of two inputs into out: its size, or 0 when the target made
 * none (the engine's own splice is used). */
size_t gc_fuzz_crossover(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                         size_t max_out, unsigned int seed);

/* The process ends now (exit, or the engine's abort on a finding, which skips atexit): the
 * target's final lines.  Idempotent: only the first call prints. */
void gc_fuzz_cleanup(void);

/* This binary is linked with AFL++'s runtime (fuzz_gate_afl): the engine glue and the
 * targets' configuration ask (engine.c, never instrumented). */
int gc_fuzz_afl_runtime(void);

/* A target's start-up in gc_fuzz_initialize, confined from the target's first line of
 * import (confine.h): writes and TCP by Landlock, then the seccomp backstop (spawns, the
 * network's sockets), then start(ctx), which imports the target.  libFuzzer's parents
 * (-fork, -jobs, -merge and -set_cover_merge without -merge_inner, -minimize_crash without
 * its internal step, -cleanse_crash) start processes and run no input: the backstop would
 * stop their jobs, so they import nothing; a child forked here imports the target, confined,
 * and its exit code is theirs (*parent set).  Under AFL++ the fork server forks each input's
 * process, and a seccomp filter's supervisor would not follow them: the target is first
 * checked so in a child, then imported under Landlock; the backstop goes on with the first
 * input.  0 or an exit code (its line printed). */
int gc_fuzz_start_confined(int argc, char **argv, int (*start)(void *ctx), void *ctx, int *parent);
/* The backstop on (and Landlock, idempotent): the first input's, under AFL++.  Exits on failure. */
void gc_fuzz_arm_backstop(void);

#endif
