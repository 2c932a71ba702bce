/* cmd_explain.c — `gatecrash explain TARGET [options] FILE`: one chain step by step, what
 * each value is, and the verdict (cli.h). */
#include <stdlib.h>

#include "cli.h"
#include "diag.h"
#include "explain.h"

typedef struct {
    gc_session_opts o;
    int raw;
    gc_strlist pos; /* TARGET (unless given as an option), FILE */
} explain_args;

static const cli_opt explain_opts[] = {
    {"--raw", NULL, NULL, cli_opt_flag, offsetof(explain_args, raw), "decode the file as a fuzz input"},
    {0},
};

/* The options, the target and the chain in FILE into *chain: 0 or GC_EXIT_USAGE (message
 * printed). */
static int explain_options(int argc, char **argv, explain_args *a, gc_chain *chain)
{
    int first = cli_parse_command(&cli_explain, a, &a->o, &a->pos, argc, argv);
    if (first < 0)
        return GC_EXIT_USAGE;
    if (first + 1 != a->pos.n) {
        gc_die_msg("%s", cli_explain.usage);
        return GC_EXIT_USAGE;
    }
    const char *file = a->pos.v[first];
    size_t len = 0;
    unsigned char *data = gc_read_file(file, &len);
    if (!data) {
        gc_die_msg("cannot read %s", file);
        return GC_EXIT_USAGE;
    }
    gc_parse_error perr;
    int prc = gc_chain_parse(data, len, a->raw ? GC_PARSE_LENIENT : GC_PARSE_STRICT, chain, &perr);
    free(data);
    if (prc < 0 || chain->nstmts == 0) {
        gc_die_msg("%s:%d:%d: %s", file, perr.line, perr.col, prc < 0 ? perr.msg : "no statement");
        return GC_EXIT_USAGE;
    }
    return 0;
}

/* On the started target (cli_run_confined): the chain, step by step. */
static int explain_started(gc_target *t, void *chain)
{
    static gc_outcome out;
    return gc_explain(t, chain, &out);
}

static int cmd_explain(int argc, char **argv)
{
    explain_args a = {0};
    static gc_chain chain;
    int rc = explain_options(argc, argv, &a, &chain);
    if (!rc)
        rc = cli_run_confined(&a.o, a.o.quiet, NULL, explain_started, &chain);
    gc_sl_free(&a.pos);
    return rc;
}

const cli_command cli_explain = {
    "explain", "gatecrash explain TARGET [options] FILE   step by step: what each value is, and the verdict",
    "usage: gatecrash explain TARGET FILE", 0,
    {{NULL, explain_opts, 0, 0}, CLI_TARGET_SET(explain_args, o), {0}}, cmd_explain};
