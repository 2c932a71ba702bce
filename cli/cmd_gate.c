/* cmd_gate.c — `gatecrash gate TARGET [options]`: the release gate, saved cases blocked and
 * fuzzing (and sweep) finding nothing; triage/gate.h runs it (cli.h). */
#define _GNU_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mode.h"
#include "diag.h"
#include "gate.h"

/* gate's options, and the folders made absolute from them. */
typedef struct {
    gc_session_opts o;
    cli_campaign k;
    const char *escapes, *report;
    long sweep_depth;
    gc_strlist pos;
    char progress[PATH_MAX], previous[PATH_MAX]; /* report.html's inputs (absolute), or "" */
    char esc_abs[PATH_MAX * 2], rep_abs[PATH_MAX];
} gate_args;

/* gate --progress FILE / --previous FILE: a file report.html reads, made absolute into the
 * slot (PATH_MAX). */
static int report_input(const char *opt, const char *path, void *abs)
{
    if (realpath(path, abs))
        return 0;
    gc_die_msg("%s %s: %s", opt, path, strerror(errno));
    return -1;
}

#define G(field) offsetof(gate_args, field)
static const cli_opt gate_opts[] = {
    {"--escapes", NULL, "DIR", cli_opt_str, G(escapes), "saved cases (escapes/NAME)"},
    {"--report", NULL, "DIR", cli_opt_str, G(report), "report folder (out/NAME/gate-report)"},
    {"--sweep-depth", NULL, "D", cli_opt_long, G(sweep_depth), "also sweep to depth D"},
    {"--time", NULL, "0", NULL, 0, "replay only, no fuzzing (the campaign's --time)"}, /* --help only */
    {"--progress", NULL, "FILE", report_input, G(progress),
     "report.html's chart: a campaign's progress.tsv (default: this run's)"},
    {"--previous", NULL, "FILE", report_input, G(previous), "report.html's changes: the previous report.json"},
    {0},
};
#undef G

/* 0 or GC_EXIT_USAGE (message printed); the target's paths made absolute. */
static int gate_options(int argc, char **argv, gate_args *g)
{
    if (cli_parse_command(&cli_gate, g, &g->o, &g->pos, argc, argv) < 0)
        return GC_EXIT_USAGE;
    return cli_absolutize_target(&g->o);
}

/* The gate's folders (cases, report, campaign output; defaults named after the target) and
 * the saved cases, before the target starts.  0 or an exit code. */
static int gate_folders(gate_args *g, gc_target *t, gc_strlist *cases)
{
    gc_target_spec spec;
    int rc = gc_session_spec(&g->o, &spec);
    if (rc)
        return rc;
    char name[128], tmp[PATH_MAX * 2];
    const char *ext = gc_mode_ops_of(spec.kind)->case_ext;
    snprintf(name, sizeof name, "%s", spec.name);
    snprintf(t->spec.name, sizeof t->spec.name, "%s", spec.name);
    t->spec.kind = spec.kind; /* cli_campaign_paths picks the engine binary by it */
    gc_target_spec_free(&spec);
    if (g->escapes)
        snprintf(g->esc_abs, sizeof g->esc_abs, "%s", g->escapes);
    else
        snprintf(g->esc_abs, sizeof g->esc_abs, "%s/escapes/%s", cli_start_dir, name);
    snprintf(tmp, sizeof tmp, "%s", g->report ? g->report : "");
    if (!g->report)
        snprintf(tmp, sizeof tmp, "%s/out/%s/gate-report", cli_start_dir, name);
    if (gc_mkdirs(tmp) < 0 || !realpath(tmp, g->rep_abs)) {
        gc_die_msg("cannot create report folder %s", tmp);
        return GC_EXIT_USAGE;
    }
    if ((rc = gc_gate_cases(g->esc_abs, g->escapes != NULL, ext, cases)))
        return rc;
    snprintf(tmp, sizeof tmp, "%s", g->k.outdir ? g->k.outdir : "");
    if (!g->k.outdir)
        snprintf(tmp, sizeof tmp, "%s/out/%s/gate-campaign", cli_start_dir, name);
    if (g->k.c.seconds > 0 && (rc = cli_mode_campaign(&g->k, t)))
        return rc;
    if (g->k.c.seconds > 0)
        return cli_campaign_paths(&g->k, t, tmp);
    if (gc_mkdirs(tmp) == 0 && realpath(tmp, g->k.out_abs))
        return 0;
    gc_die_msg("cannot create output folder %s", tmp);
    return GC_EXIT_USAGE;
}

static int cmd_gate(int argc, char **argv)
{
    static gate_args g; /* its paths are large */
    cli_campaign_init(&g.k, &g.o);
    gc_strlist cases = {0};
    gc_target t = {0};
    int rc = gate_options(argc, argv, &g);
    if (!rc)
        rc = gate_folders(&g, &t, &cases);
    if (!rc && !(rc = cli_campaign_start(&t, &g.o, &g.k, g.rep_abs)) && !(rc = cli_probe_adapter(&t))) {
        /* cases: read only; a source adapter probed first, as fuzz and sweep do */
        cli_use_presweep(&g.k, &t); /* the fuzzing half starts with the hybrid's sweep */
        gc_gate_opts go = {g.esc_abs, g.rep_abs, cli_start_dir, &g.k.c, g.sweep_depth, g.k.rscratch,
                           g.progress[0] ? g.progress : NULL, g.previous[0] ? g.previous : NULL};
        rc = gc_gate(&t, &go, &cases);
    }
    gc_target_spec_free(&t.spec);
    gc_sl_free(&cases);
    gc_sl_free(&g.pos);
    return rc;
}

const cli_command cli_gate = {
    "gate", "gatecrash gate TARGET [options]   release gate: saved cases blocked, fuzzing (and sweep) find nothing",
    "usage: gatecrash gate TARGET [--escapes DIR] [--time S] [--report DIR]", 1,
    {{NULL, gate_opts, 0, 0}, CLI_CAMPAIGN_SET(gate_args, k), CLI_TARGET_SET(gate_args, o), {0}}, cmd_gate};
