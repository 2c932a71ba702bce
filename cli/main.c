/* main.c — `gatecrash COMMAND ...`: --help, --version, and each command run after the
 * process is set up to run chains (cli.h). */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backstop.h"
#include "cli.h"
#include "confine.h"
#include "diag.h"
#include "spawn.h"
#include "timelimit.h"

#ifndef GATECRASH_VERSION
#define GATECRASH_VERSION "unknown"
#endif

/* In --help's order. */
static const cli_command *const commands[] = {&cli_replay, &cli_fuzz,   &cli_triage, &cli_explain,
                                              &cli_sweep,  &cli_advise, &cli_gate, &cli_check};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

static const char usage_exit[] = "exit: 0 nothing escaped, 1 escaped, 2 bad usage/input, 3 target failed to load,\n"
                                 "      4 harness error\n";
static const cli_optset target_only[] = {{CLI_TARGET_HEADING, cli_target_options, 0, 1}, {0}}; /* --help only */

/* `gatecrash --help`: every command's synopsis and the target's options. */
static void usage(void)
{
    puts("usage:");
    for (int i = 0; i < NCOMMANDS; i++)
        printf("  %s\n", commands[i]->synopsis);
    puts("  gatecrash --help | --version | COMMAND --help (a command's options)");
    cli_print_options(stdout, target_only);
    fputs(usage_exit, stdout);
}

/* `gatecrash COMMAND --help`: the command's synopsis and every option it takes. */
static void command_usage(const cli_command *c)
{
    printf("usage: %s\n", c->synopsis);
    cli_print_options(stdout, c->sets);
    fputs(usage_exit, stdout);
}

/* "gatecrash 0.2.0 (CPython 3.11.2, libFuzzer yes, AFL++ no)": the engines are the
 * binaries built beside this one. */
static void print_version(void)
{
    char dir[PATH_MAX], p[PATH_MAX + 32];
    gc_exe_dir(dir, sizeof dir);
    const char *py = Py_GetVersion(); /* safe before Py_Initialize */
    snprintf(p, sizeof p, "%s/fuzz_gate", dir);
    int lf = access(p, X_OK) == 0;
    snprintf(p, sizeof p, "%s/fuzz_gate_afl", dir);
    int afl = access(p, X_OK) == 0;
    printf("gatecrash %s (CPython %.*s, libFuzzer %s, AFL++ %s)\n", GATECRASH_VERSION, (int)strcspn(py, " "), py,
           lf ? "yes" : "no", afl ? "yes" : "no");
}

static int is_help(const char *a)
{
    return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0;
}

/* The command argv[1] names, or NULL. */
static const cli_command *find_command(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i]->name) == 0)
            return commands[i];
    return NULL;
}

/* Before a command opens its target: the start folder, then the seccomp backstop
 * (backstop.h), so that the target's first line of import already runs under it (Landlock
 * goes on just before the import: cli_confine_to); commands get the processes they start
 * (engines, fresh-process replays) from a spawner forked first, which also removes their
 * scratch folder once Landlock confines them (confine.h).  0 or an exit code. */
static int set_up(void)
{
    char err[256];
    signal(SIGPIPE, SIG_IGN);
    if (!getcwd(cli_start_dir, sizeof cli_start_dir))
        snprintf(cli_start_dir, sizeof cli_start_dir, ".");
    gc_confine_private_shm(); /* still one thread: before the spawner and the backstop (confine.h) */
    if (gc_spawner_start(err, sizeof err) != 0 || gc_backstop_arm(err, sizeof err) != 0) {
        gc_die_msg("%s", err);
        return GC_EXIT_HARNESS;
    }
    gc_limits_catch_crashes(); /* an input that crashes CPython: one line, exit 4 */
    return 0;
}

int main(int argc, char **argv)
{
    const cli_command *c = argc < 2 ? NULL : find_command(argv[1]);
    int rc = GC_EXIT_USAGE, help = 0;
    for (int i = 2; c && i < argc; i++) /* -h/--help anywhere after the command */
        help |= is_help(argv[i]);
    if (argc < 2)
        gc_die_msg("no command given (gatecrash --help lists the commands)");
    else if (is_help(argv[1]))
        usage(), rc = GC_EXIT_OK;
    else if (strcmp(argv[1], "--version") == 0)
        print_version(), rc = GC_EXIT_OK;
    else if (!c)
        gc_die_msg("unknown command '%s' (gatecrash --help lists the commands)", argv[1]);
    else if (help)
        command_usage(c), rc = GC_EXIT_OK;
    else {
        gc_confine_take_option(&argc, argv); /* --require-confinement, anywhere (confine.h) */
        if (!(rc = set_up()))
            rc = c->run(argc - 2, argv + 2);
    }
    return rc;
}
