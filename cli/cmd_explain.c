/* cmd_explain.c — `gatecrash explain TARGET [options] FILE`: one input step by step (a
 * chain's every step, a program's evaluation), what each value is, and the verdict (cli.h). */
#include <stdlib.h>

#include "cli.h"
#include "diag.h"
#include "mode.h"

typedef struct {
    gc_session_opts o;
    int raw;
    gc_strlist pos; /* TARGET (unless given as an option), FILE */
    const char *file;
} explain_args;

static const cli_opt explain_opts[] = {
    {"--raw", NULL, NULL, cli_opt_flag, offsetof(explain_args, raw), "decode the file as a fuzz input"},
    {0},
};

/* The options, the target and FILE: 0 or GC_EXIT_USAGE (message printed). */
static int explain_options(int argc, char **argv, explain_args *a)
{
    int first = cli_parse_command(&cli_explain, a, &a->o, &a->pos, argc, argv);
    if (first < 0)
        return GC_EXIT_USAGE;
    if (first + 1 != a->pos.n) {
        gc_die_msg("%s", cli_explain.usage);
        return GC_EXIT_USAGE;
    }
    cli_absolutize_files(&a->pos, first);
    a->file = a->pos.v[first];
    return 0;
}

/* On the started target (cli_run_confined): the input, step by step, in its mode. */
static int explain_started(gc_target *t, void *ctx)
{
    const explain_args *a = ctx;
    int rc = cli_probe_dialect(t);
    return rc ? rc : gc_mode_ops_of(t->spec.kind)->explain(t, a->file, a->raw);
}

static int cmd_explain(int argc, char **argv)
{
    explain_args a = {0};
    int rc = explain_options(argc, argv, &a);
    if (!rc)
        rc = cli_run_confined(&a.o, a.o.quiet, NULL, explain_started, &a);
    gc_sl_free(&a.pos);
    return rc;
}

const cli_command cli_explain = {
    "explain", "gatecrash explain TARGET [options] FILE   step by step: what each value is, and the verdict",
    "usage: gatecrash explain TARGET FILE", 0,
    {{NULL, explain_opts, 0, 0}, CLI_TARGET_SET(explain_args, o), {0}}, cmd_explain};
