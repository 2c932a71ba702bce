/* cmd_triage.c — `gatecrash triage TARGET [options] CRASH...|DIR`: minimize, de-duplicate
 * and save escapes as cases; `--tables FILE` writes the reproducer runner's tables (cli.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mode.h"
#include "diag.h"
#include "reproducer.h"
#include "source_triage.h"
#include "triage.h"

typedef struct {
    gc_session_opts o;
    const char *outdir, *found_by, *tables;
    int standalone;
    gc_strlist pos, files; /* pos: TARGET (unless given as an option), then CRASH...|DIR */
} triage_args;

#define T(field) offsetof(triage_args, field)
static const cli_opt triage_opts[] = {
    {"--out", NULL, "DIR", cli_opt_str, T(outdir), "case folder (escapes/NAME)"},
    {"--found-by", NULL, "NAME", cli_opt_str, T(found_by), "provenance written into each case (libFuzzer)"},
    {"--standalone", NULL, NULL, cli_opt_flag, T(standalone),
     "also write each new case's standalone reproducer (<case>.py;\na source target's case is <case>.py, "
     "its reproducer <case>.repro.py)"},
    {"--tables", NULL, "FILE", cli_opt_str, T(tables),
     "write the reproducer runner's tables (escapes/_tables.py) and exit"},
    {0},
};
#undef T

/* `triage --tables FILE`: the runner's tables (reproducer.h), written atomically. */
static int write_tables(const char *path)
{
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_reproducer_tables(&sb);
    int rc = gc_write_atomic(path, sb.data, sb.len, 0) == 0 ? GC_EXIT_OK : GC_EXIT_USAGE;
    if (rc)
        gc_die_msg("cannot write %s: %s", path, strerror(errno));
    gc_sb_free(&sb);
    return rc;
}

/* The target and the crash inputs: 0 or GC_EXIT_USAGE (message printed). */
static int triage_inputs(triage_args *a)
{
    int first = cli_take_target(&cli_triage, &a->o, &a->pos);
    if (first < 0 || first >= a->pos.n) {
        gc_die_msg("%s", cli_triage.usage);
        return GC_EXIT_USAGE;
    }
    int rc = cli_absolutize_target(&a->o);
    for (int i = first; i < a->pos.n && !rc; i++)
        if (gc_collect_inputs(a->pos.v[i], &a->files) < 0)
            rc = GC_EXIT_USAGE;
    return rc;
}

/* The case folder (the target's name from its description: it is made, and writes are
 * confined to it, before the target is imported).  0 or an exit code. */
static int triage_case_folder(triage_args *a, char out_abs[PATH_MAX])
{
    gc_target_spec spec;
    int rc = gc_session_spec(&a->o, &spec);
    if (rc)
        return rc;
    rc = cli_case_folder(a->outdir, spec.name, out_abs);
    gc_target_spec_free(&spec);
    return rc;
}

/* Each input triaged into out_abs on the started target; the scratch folder removed, then
 * the summary line.  0 or an exit code. */
static int triage_into_cases(gc_target *t, triage_args *a, const char *scratch, const char *out_abs)
{
    char exe[PATH_MAX];
    gc_triage_summary sum = {0};
    gc_exe_path(exe, sizeof exe); /* to re-run cases in fresh processes */
    gc_triage_opts to = {.exe = exe, .target = &a->o, .outdir = out_abs, .found_by = a->found_by,
                         .standalone = a->standalone};
    for (int i = 0; i < a->files.n; i++) {
        to.next = i + 1 < a->files.n ? a->files.v[i + 1] : NULL;
        gc_mode_ops_of(t->spec.kind)->triage_one(t, &to, a->files.v[i], &sum);
        fflush(stdout);
    }
    gc_confirm_ahead(NULL, NULL, NULL, 0); /* one the last input did not take */
    cli_remove_scratch(scratch);
    printf("triage of %d input(s) into %s: %d new, %d known, %d not reproducible (flaky), %d rejected "
           "(garbage)\n", a->files.n, out_abs, sum.new_cases, sum.known, sum.flaky, sum.rejected);
    return 0;
}

static int cmd_triage(int argc, char **argv)
{
    triage_args a = {.found_by = "libFuzzer"};
    char *scratch = NULL;
    gc_target t = {0};
    int rc = cli_parse(cli_triage.name, cli_triage.sets, &a, argc, argv, &a.pos);
    if (!rc && a.tables)
        rc = write_tables(a.tables);
    else if (!rc && !(rc = triage_inputs(&a))) {
        char out_abs[PATH_MAX];
        if (!(rc = triage_case_folder(&a, out_abs)) && !(rc = cli_start_in_scratch(&t, &a.o, &scratch, 1, out_abs)) &&
            !(rc = cli_probe_dialect(&t)))
            rc = triage_into_cases(&t, &a, scratch, out_abs);
    }
    free(scratch);
    gc_target_spec_free(&t.spec);
    gc_sl_free(&a.files);
    gc_sl_free(&a.pos);
    return rc;
}

const cli_command cli_triage = {
    "triage", "gatecrash triage TARGET [options] CRASH...|DIR   minimize, de-duplicate and save escapes as cases",
    "usage: gatecrash triage TARGET [--out escapes/NAME] [--standalone] CRASH...|DIR", 1,
    {{NULL, triage_opts, 0, 0}, CLI_TARGET_SET(triage_args, o), {0}}, cmd_triage};
