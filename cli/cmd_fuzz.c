/* cmd_fuzz.c — `gatecrash fuzz TARGET [options]`: run an engine (the hybrid's sweep first),
 * replay its crash inputs live, end with a table (cli.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mode.h"
#include "diag.h"
#include "holes.h"

typedef struct {
    gc_session_opts o;
    cli_campaign k;
    const char *by; /* the table: "hole", "root" or "signature" */
    int no_confirm; /* --no-confirm: the table's rows not run in a plain interpreter */
    gc_strlist pos;
} fuzz_args;

static const cli_opt fuzz_opts[] = {
    {"--by", NULL, "hole|root|signature", cli_opt_by, offsetof(fuzz_args, by),
     "the table: one row per hole, its chain minimized (hole; a source target's per weakness, its roots "
     "listed), per hole as found from each root (root), or per signature"},
    {"--no-confirm", NULL, NULL, cli_opt_flag, offsetof(fuzz_args, no_confirm),
     "no CONFIRMED column: the table's holes not run again in a plain interpreter"},
    {0},
};

/* 0 or GC_EXIT_USAGE (message printed); the target's paths made absolute. */
static int fuzz_options(int argc, char **argv, fuzz_args *f)
{
    if (cli_parse_command(&cli_fuzz, f, &f->o, &f->pos, argc, argv) < 0)
        return GC_EXIT_USAGE;
    return cli_absolutize_target(&f->o);
}

/* The target's name and kind, read without starting Python (the output folder is named
 * after it), and the campaign's folders.  0 or an exit code. */
static int fuzz_folders(fuzz_args *f, gc_target *t)
{
    gc_target_spec spec;
    int rc = gc_session_spec(&f->o, &spec);
    if (rc)
        return rc;
    snprintf(t->spec.name, sizeof t->spec.name, "%s", spec.name);
    t->spec.kind = spec.kind;
    rc = cli_mode_campaign(&f->k, t);
    if (!rc)
        rc = cli_campaign_paths(&f->k, t, f->k.outdir);
    gc_target_spec_free(&spec);
    return rc;
}

/* The campaign and its table; the exit code. */
static int fuzz_run(fuzz_args *f, gc_target *t)
{
    gc_campaign_opts *c = &f->k.c;
    fprintf(stderr, "gatecrash: fuzzing %s for %lds with %ld job(s) of %s; crashes in %s/%s\n", t->spec.name,
            c->seconds, c->jobs, c->engine == GC_ENGINE_AFL ? "AFL++" : "libFuzzer", f->k.out_abs,
            c->engine == GC_ENGINE_AFL ? "afl/*/crashes" : "crashes");
    cli_use_presweep(&f->k, t);
    gc_campaign_result r;
    int rc = gc_campaign_run(t, c, &r);
    if (rc) {
        gc_rm_tree(f->k.rscratch);
        return rc;
    }
    if (strcmp(f->by, "signature") != 0) /* its confirmations write their reproducers in the scratch */
        gc_holes_campaign_table(t, &r, t->spec.name, 30, t->spec.kind == GC_TARGET_SOURCE && strcmp(f->by, "hole") == 0,
                                gc_mode_ops_of(t->spec.kind)->minimize_row, f->no_confirm ? 0 : GC_CONFIRM_TABLE_SECONDS);
    else
        gc_campaign_print_table(&r, t->spec.name);
    gc_rm_tree(f->k.rscratch);
    if (r.merged)
        printf("corpus: %lu input(s) after merging into %s\n", r.merged, c->corpus_out);
    gc_tally_print(&r.verdicts, stdout); /* last: the share of inputs not decided */
    const char *undecided = gc_campaign_undecided(&r);
    rc = r.nfound || r.ncrashed ? GC_EXIT_ESCAPE : undecided ? GC_EXIT_INCONCLUSIVE : GC_EXIT_OK; /* a crash finding is a finding */
    if (rc == GC_EXIT_INCONCLUSIVE)
        printf("INCONCLUSIVE: nothing escaped, but %s: the campaign's result is no all-clear (docs/ORACLES.md, "
               "\"Three verdicts\")\n", undecided);
    gc_campaign_result_free(&r);
    return rc;
}

static int cmd_fuzz(int argc, char **argv)
{
    fuzz_args f = {.by = "hole"};
    cli_campaign_init(&f.k, &f.o);
    gc_target t = {0};
    int rc = fuzz_options(argc, argv, &f);
    if (!rc)
        rc = fuzz_folders(&f, &t);
    /* Load the target first: a bad target is an error before any engine starts, and the
     * same interpreter replays the engine's crash inputs as they appear. */
    if (!rc && !(rc = cli_campaign_start(&t, &f.o, &f.k, NULL)) && !(rc = cli_probe_adapter(&t)))
        rc = fuzz_run(&f, &t);
    gc_target_spec_free(&t.spec);
    gc_sl_free(&f.pos);
    return rc;
}

const cli_command cli_fuzz = {
    "fuzz", "gatecrash fuzz TARGET [options]   run an engine, replay its crash inputs live, end with a table",
    "fuzz needs a TARGET (gatecrash fuzz --help)", 1,
    {{NULL, fuzz_opts, 0, 0}, CLI_CAMPAIGN_SET(fuzz_args, k), CLI_TARGET_SET(fuzz_args, o), {0}}, cmd_fuzz};
