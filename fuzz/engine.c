/* engine.c — which engine's runtime this binary has, and a target's confined start-up
 * (fuzz_target.h).  Not instrumented (gatecrash_fuzz): a weak reference in an instrumented
 * file does not link. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backstop.h"
#include "confine.h"
#include "diag.h"
#include "fuzz_target.h"

/* Defined only in binaries linked with AFL++'s runtime (its coverage map). */
extern uint8_t *__afl_area_ptr __attribute__((weak));

int gc_fuzz_afl_runtime(void) { return &__afl_area_ptr != NULL; }

/* libFuzzer's flag -name=V in argv, or NULL. */
static const char *engine_flag(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    const char *v = NULL;
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && strncmp(argv[i] + 1, name, n) == 0 && argv[i][n + 1] == '=')
            v = argv[i] + n + 2; /* the last one counts, as in libFuzzer */
    return v;
}

static int flag_on(int argc, char **argv, const char *name)
{
    const char *v = engine_flag(argc, argv, name);
    return v && atol(v) > 0;
}

/* A libFuzzer process that starts others and runs no input itself. */
static int engine_parent(int argc, char **argv)
{
    if (gc_fuzz_afl_runtime())
        return 0;
    return flag_on(argc, argv, "fork") || flag_on(argc, argv, "jobs") || flag_on(argc, argv, "cleanse_crash") ||
           ((flag_on(argc, argv, "merge") || flag_on(argc, argv, "set_cover_merge")) &&
            !flag_on(argc, argv, "merge_inner")) ||
           (flag_on(argc, argv, "minimize_crash") && !flag_on(argc, argv, "minimize_crash_internal_step"));
}

void gc_fuzz_arm_backstop(void)
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

/* Landlock, then (with 'backstop') the seccomp backstop; then the target.  0 or an exit code. */
static int confined_start(int (*start)(void *ctx), void *ctx, int backstop)
{
    int rc = gc_confine_self();
    if (rc)
        return rc;
    char err[256];
    if (backstop && !gc_backstop_armed() && gc_backstop_arm(err, sizeof err) != 0) {
        gc_die_msg("%s", err);
        return GC_EXIT_HARNESS;
    }
    return start(ctx);
}

/* The target started, fully confined, in a child: the child's exit code. */
static int checked_in_child(int (*start)(void *ctx), void *ctx)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        gc_die_msg("cannot fork to check the target's start-up: %m");
        return GC_EXIT_HARNESS;
    }
    if (pid == 0) { /* the import, confined; its exit code is the answer */
        int rc = confined_start(start, ctx, 1);
        fflush(NULL);
        _exit(rc);
    }
    int st;
    pid_t got;
    while ((got = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
        ;
    if (got == pid && WIFEXITED(st))
        return WEXITSTATUS(st);
    gc_die_msg("the target's start-up check ended by signal %d", got == pid && WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return GC_EXIT_HARNESS;
}

int gc_fuzz_start_confined(int argc, char **argv, int (*start)(void *ctx), void *ctx, int *parent)
{
    *parent = engine_parent(argc, argv);
    gc_confine_private_shm(); /* still one thread (confine.h); an engine's jobs inherit it */
    int afl = gc_fuzz_afl_runtime();
    if (!*parent && !afl)
        return confined_start(start, ctx, 1);
    int rc = checked_in_child(start, ctx);
    if (rc || *parent)
        return rc;
    /* AFL++'s fork server forks each input's process: no backstop here (each input's
     * process arms its own), so the target was first checked with it in a child */
    return confined_start(start, ctx, 0);
}
