/* cmd_check.c — `gatecrash check TARGET`: a source target's adapter probed (probe.h), one
 * line for each thing wrong with it, the roots that evaluate and the time an evaluation
 * takes (cli.h).  fuzz and sweep run the probes that decide whether fuzzing can find
 * anything (cli_probe_adapter) before they start. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "diag.h"
#include "probe.h"

typedef struct {
    gc_session_opts o;
    gc_strlist pos; /* TARGET (unless given as an option) */
} check_args;

int cli_probe_adapter(gc_target *t)
{
    gc_probe_report r;
    char err[512];
    if (t->spec.kind != GC_TARGET_SOURCE)
        return 0;
    int rc = gc_source_probe(t, 0, &r, err, sizeof err);
    if (rc)
        gc_die_msg("%s", err);
    else if (r.fatal)
        gc_die_msg("%s: %s (gatecrash check says more)", t->spec.sandbox, r.first);
    return rc ? rc : r.fatal ? GC_EXIT_TARGET : 0;
}

/* On the started target (cli_run_confined): every probe printed. */
static int check_started(gc_target *t, void *ctx)
{
    (void)ctx;
    gc_probe_report r;
    char err[512];
    if (t->spec.kind != GC_TARGET_SOURCE) {
        gc_die_msg("check probes a source target's adapter; %s is a gate (gatecrash sweep tries a gate)", t->spec.name);
        return GC_EXIT_USAGE;
    }
    printf("check: %s (adapter %s)\n", t->spec.name, t->spec.sandbox);
    int rc = gc_source_probe(t, 1, &r, err, sizeof err);
    if (rc)
        gc_die_msg("%s", err);
    else if (r.fatal)
        printf("check: fuzz and sweep would stop here: %s\n", r.first);
    else
        printf("check: %s\n", r.problems ? "usable, with the problems above" : "the adapter is usable");
    return rc ? rc : r.fatal ? GC_EXIT_TARGET : 0;
}

static int cmd_check(int argc, char **argv)
{
    check_args a = {0};
    int first = cli_parse_command(&cli_check, &a, &a.o, &a.pos, argc, argv);
    int rc = first < 0 ? GC_EXIT_USAGE : 0;
    if (!rc && first != a.pos.n) {
        gc_die_msg("%s", cli_check.usage);
        rc = GC_EXIT_USAGE;
    }
    if (!rc)
        rc = cli_run_confined(&a.o, 1, NULL, check_started, &a);
    gc_sl_free(&a.pos);
    return rc;
}

const cli_command cli_check = {
    "check", "gatecrash check TARGET   probe a source target's adapter: what is wrong with it, in one line each",
    "usage: gatecrash check TARGET", 1,
    {CLI_TARGET_SET(check_args, o), {0}}, cmd_check};
