/* fuzz_source.c — the fuzz_source target (fuzz_target.h): a source target (source.h) fuzzed
 * through its adapter's evaluate with programs (program.h).  Each input decodes to a
 * program, printed in the target's dialect and run under the source-mode oracles; an escape
 * is a finding (its line, the program's source and a DEDUP_TOKEN on stderr).  Options:
 * --target=DIR (required), --venv=DIR.  First step of issue 15: no program-aware mutator
 * and no coverage of the sandbox package yet (the engine mutates the bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backstop.h"
#include "confine.h"
#include "fuzz_target.h"
#include "program.h"
#include "session.h"
#include "source.h"

static gc_target target;
static unsigned long inputs, escapes;

int gc_fuzz_initialize(int *argc, char ***argv)
{
    static gc_session_opts opts;
    int rc = gc_confine_note_argv(*argc, *argv);
    for (int i = 1; !rc && i < *argc; i++) {
        const char *a = (*argv)[i];
        if (strncmp(a, "--target=", 9) == 0)
            opts.target_dir = a + 9;
        else if (strncmp(a, "--venv=", 7) == 0)
            opts.venv = a + 7;
    }
    if (rc)
        return rc;
    if (!opts.target_dir) {
        gc_die_msg("fuzz_source needs --target=DIR (a source target)");
        return GC_EXIT_USAGE;
    }
    opts.source_ok = opts.quiet = 1;
    if ((rc = gc_session_start(&target, &opts)))
        return rc;
    if (target.spec.kind != GC_TARGET_SOURCE) {
        gc_die_msg("%s is no source target (fuzz_gate fuzzes gates)", target.spec.name);
        return GC_EXIT_USAGE;
    }
    atexit(gc_fuzz_cleanup);
    return 0;
}

/* Confinement, then the seccomp backstop, before the first input (as fuzz_gate does). */
static void arm_once(void)
{
    char err[256];
    int rc = gc_confine_self();
    if (rc)
        exit(rc);
    if (!gc_backstop_armed() && gc_backstop_arm(err, sizeof err) != 0) {
        gc_die_msg("%s", err);
        exit(GC_EXIT_HARNESS);
    }
}

int gc_fuzz_test_one_input(const uint8_t *data, size_t size)
{
    static gc_program p;
    static gc_outcome out;
    arm_once();
    gc_program_decode(data, size, &p);
    if (p.nstmts == 0)
        return GC_FUZZ_REJECT;
    gc_strbuf src;
    gc_sb_init(&src);
    gc_program_print(&p, target.spec.adapter.dialect, &src);
    char note[256], err[512];
    int rc = gc_source_run(&target, src.data, src.len, &out, note, sizeof note, err, sizeof err);
    if (rc) {
        gc_die_msg("%s", err);
        exit(rc);
    }
    inputs++;
    int verdict = out.timed_out || out.oom ? GC_FUZZ_REJECT : GC_FUZZ_KEEP;
    if (out.escaped) {
        escapes++;
        fprintf(stderr, "gatecrash: ESCAPE %s %s %s (%s)\nprogram:\n%sDEDUP_TOKEN: %s\n",
                gc_kind_name(out.escape.kind), gc_cap_name(out.escape.cap), out.escape.primitive,
                out.escape.detail, src.data, out.signature);
        verdict = GC_FUZZ_FINDING;
    }
    gc_sb_free(&src);
    return verdict;
}

void gc_fuzz_cleanup(void)
{
    static int done;
    if (done++)
        return;
    fprintf(stderr, "gatecrash: fuzz_source on %s: %lu programs, %lu escapes\n", target.spec.name, inputs,
            escapes);
}
