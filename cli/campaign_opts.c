/* campaign_opts.c — a campaign's options and folders, fuzz's and gate's, and the hybrid's
 * first phase, the sweep whose escapes are reported and whose frontier seeds the engine
 * (cli.h). */
#define _GNU_SOURCE /* realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "mode.h"
#include "diag.h"
#include "holes.h"
#include "timelimit.h"

#ifndef GATECRASH_SOURCE_DIR
#define GATECRASH_SOURCE_DIR "."
#endif

static int set_engine(const char *opt, const char *val, void *slot)
{
    (void)opt;
    int e = gc_engine_parse(val);
    if (e < 0) {
        gc_die_msg("--engine must be libfuzzer or afl, not '%s'", val);
        return -1;
    }
    *(gc_engine *)slot = (gc_engine)e;
    return 0;
}

static int no_sweep_seed(const char *opt, const char *val, void *slot)
{
    (void)opt, (void)val;
    *(long *)slot = 0;
    return 0;
}

#define C(field) offsetof(cli_campaign, field)
const cli_opt cli_campaign_options[] = {
    {"--engine", NULL, "libfuzzer|afl", set_engine, C(c.engine), "engine (libfuzzer)"},
    {"--time", NULL, "S", cli_opt_long, C(c.seconds), "seconds of the whole campaign, opening sweep included (60)"},
    {"--jobs", NULL, "N", cli_opt_long, C(c.jobs), "parallel jobs (1)"},
    {"--runs", NULL, "N", cli_opt_long, C(c.runs), "stop after N inputs"},
    {"--seed", NULL, "N", cli_opt_long, C(c.seed), "engine seed (0: the engine picks)"},
    {"--corpus", NULL, "DIR", cli_opt_str, C(corpus), "seeds in, merged corpus back"},
    {"--out", NULL, "DIR", cli_opt_str, C(outdir), "campaign folder (out/NAME/...)"},
    {"--dict", NULL, "FILE", cli_opt_str, C(dict), "dictionary (dict/gatecrash.dict)"},
    {"--fuzzer", NULL, "PATH", cli_opt_str, C(fuzzer), "the engine binary (fuzz_gate or fuzz_gate_afl beside gatecrash)"},
    {"--seed-sweep-depth", NULL, "N", cli_opt_long, C(seed_sweep_depth),
     "the opening sweep deepens to depth N at most, within a tenth of --time\n"
     "(8, a source target 6; 0: off); its escapes reported, its frontier seeded"},
    {"--no-sweep-seed", NULL, NULL, no_sweep_seed, C(seed_sweep_depth),
     "the same as --seed-sweep-depth 0: the engine alone"},
    {"--no-harvest", NULL, NULL, cli_opt_flag, C(c.no_harvest),
     "the mutator leaves out what it learns from the target: calls get no\n"
     "harvested words (the gate's strings, module names) or _ arguments, and\n"
     "no step follows a value's own names"},
    {0},
};
#undef C

void cli_campaign_init(cli_campaign *k, gc_session_opts *o)
{
    k->c = (gc_campaign_opts){.target = o, .seconds = 60, .jobs = 1, .runs = -1};
    k->seed_sweep_depth = -1;
}

/* The engine binary and the corpus merger (paths beside gatecrash unless --fuzzer). */
static void engine_paths(cli_campaign *k, const gc_mode_ops *m)
{
    static char merger[PATH_MAX + 16], afl_mutator[PATH_MAX + 40];
    char bindir[PATH_MAX];
    gc_campaign_opts *c = &k->c;
    gc_exe_dir(bindir, sizeof bindir);
    snprintf(k->fuzz_bin, PATH_MAX, "%s/%s", bindir, c->engine == GC_ENGINE_AFL ? m->fuzzer_afl : m->fuzzer);
    if (k->fuzzer && !realpath(k->fuzzer, k->fuzz_bin))
        snprintf(k->fuzz_bin, PATH_MAX, "%s", k->fuzzer);
    /* the corpus merge runs the libFuzzer binary: the one given, or the one beside us */
    snprintf(merger, sizeof merger, "%s", c->engine == GC_ENGINE_LIBFUZZER ? k->fuzz_bin : "");
    if (c->engine == GC_ENGINE_AFL) {
        snprintf(merger, sizeof merger, "%s/%s", bindir, m->fuzzer);
        snprintf(afl_mutator, sizeof afl_mutator, "%s/libgatecrash_afl_mutator.so", bindir);
        c->afl_mutator = afl_mutator;
    }
    c->merger = merger;
    c->fuzzer = k->fuzz_bin;
}

/* The seeds (--corpus, else the repository's seed folder of the mode: corpus/ or
 * corpus-source/) and the dictionary, made absolute.  0 or an exit code. */
static int seed_paths(cli_campaign *k, const gc_mode_ops *m)
{
    char tmp[PATH_MAX * 2];
    if (k->corpus)
        snprintf(tmp, sizeof tmp, "%s", k->corpus);
    else
        snprintf(tmp, sizeof tmp, "%s/%s", GATECRASH_SOURCE_DIR, m->seeds);
    struct stat st;
    if (!k->corpus && stat(tmp, &st) != 0) { /* no seeds (an installed tree): an empty folder */
        snprintf(tmp, sizeof tmp, "%s/no-seeds", k->out_abs);
        gc_mkdirs(tmp);
    }
    if (!realpath(tmp, k->seeds)) {
        gc_die_msg("corpus folder %s is not readable", tmp);
        return GC_EXIT_USAGE;
    }
    snprintf(tmp, sizeof tmp, "%s", k->dict ? k->dict : GATECRASH_SOURCE_DIR "/dict/gatecrash.dict");
    if (!realpath(tmp, k->dict_abs)) {
        gc_die_msg("dictionary %s is not readable", tmp);
        return GC_EXIT_USAGE;
    }
    return 0;
}

int cli_campaign_paths(cli_campaign *k, const gc_target *t, const char *outdir)
{
    char tmp[PATH_MAX * 2];
    static char corpus_out[PATH_MAX + 16];
    const gc_mode_ops *m = gc_mode_ops_of(t->spec.kind);
    engine_paths(k, m);
    snprintf(tmp, sizeof tmp, "%s", outdir ? outdir : "");
    if (!outdir)
        snprintf(tmp, sizeof tmp, "%s/out/%s", cli_start_dir, t->spec.name);
    if (gc_mkdirs(tmp) < 0 || !realpath(tmp, k->out_abs)) {
        gc_die_msg("cannot create output folder %s", tmp);
        return GC_EXIT_USAGE;
    }
    int rc = seed_paths(k, m);
    if (rc)
        return rc;
    /* --corpus DIR is the campaign's own corpus: seeds from it, the merged finds back into
     * it.  Without it the seeds are the repository's corpus/ (never written) and the merged
     * corpus stays in the output folder. */
    snprintf(corpus_out, sizeof corpus_out, "%s/corpus", k->out_abs);
    if (k->corpus)
        snprintf(corpus_out, sizeof corpus_out, "%s", k->seeds);
    k->c.corpus_out = corpus_out;
    k->c.out = k->out_abs;
    k->c.seeds = k->seeds;
    k->c.dict = k->dict_abs;
    return gc_campaign_prepare(&k->c);
}

int cli_campaign_start(gc_target *t, const gc_session_opts *o, cli_campaign *k, const char *also)
{
    gc_session_opts so = *o; /* k->c.target stays o, without this scratch folder */
    const char *dirs[4] = {k->out_abs, also, NULL, NULL};
    dirs[also ? 2 : 1] = k->c.corpus_out; /* NULL without a campaign (gate --time 0) */
    snprintf(k->rscratch, sizeof k->rscratch, "%s/scratch-replay", k->out_abs);
    gc_rm_tree(k->rscratch);
    gc_mkdirs(k->rscratch);
    so.scratch = k->rscratch;
    so.quiet = 1;
    int rc = cli_confine_to(dirs); /* before the import (confine.h) */
    return rc ? rc : gc_session_start(t, &so);
}

/* The hybrid's first phase (gc_campaign_opts.presweep): a sweep of t's mode, by hole, that
 * deepens level by level to depth k->seed_sweep_depth within its budget (presweep_budget),
 * bounded by nodes for memory; each level's new escapes are handed to the campaign as the
 * level completes, and its frontier, as the mode's fuzzer reads them, is the deepest
 * complete level's. */
#define SEED_SWEEP_NODES 500000
#define SEED_SWEEP_MAX 2000

/* The mode's share of the campaign's seconds, at least the mode's floor, never
 * more than half of them (the floor alone when the campaign has no time bound). */
static double presweep_budget(long seconds, const gc_mode_ops *m)
{
    double share = (double)seconds * m->presweep_share, floor_s = (double)m->presweep_seconds;
    double b = share > floor_s ? share : floor_s;
    return seconds > 0 && b > seconds / 2.0 ? seconds / 2.0 : b;
}

typedef struct {
    const gc_mode_ops *m;
    const gc_presweep_sink *sink;
    int handed; /* findings handed to the sink so far */
} presweep_levels;

/* A level is complete (or was cut, at the end; or, within a level, a burst of work found
 * escapes): the escapes found since the last call, in the order found, to the campaign. */
static void presweep_level(void *ctx, const void *graph, int level, int complete)
{
    presweep_levels *p = ctx;
    gc_finding *f;
    gc_inputs esc = {0}, none = {0};
    (void)level, (void)complete;
    int n = p->m->sweep_findings(graph, &f);
    p->m->sweep_inputs(graph, &esc, &none, 0);
    for (int i = p->handed; i < n; i++)
        p->sink->found(p->sink->ctx, &f[i], esc.n == n ? esc.v[i] : NULL, esc.n == n ? esc.len[i] : 0);
    p->handed = n;
    free(f);
    gc_inputs_free(&esc);
    gc_inputs_free(&none);
}

/* One line: how deep the sweep went, and what stopped it. */
static void presweep_line(const gc_sweep_opts *so, const gc_sweep_stats *st, double took)
{
    char why[160] = "";
    if (st->cut_budget || st->cut_time)
        snprintf(why, sizeof why, "; depth %d %s the %.1fs budget", st->levels + 1,
                 st->cut_budget ? "not started: its projected time passes" : "cut by", so->budget);
    fprintf(stderr, "[sweep] depth %d of %d complete in %.1fs, %ld nodes%s%s\n", st->levels, so->depth, took,
            st->nodes, st->cut_nodes ? " (node cap reached)" : "", why);
}

static int mode_presweep(void *ctx, gc_target *t, const gc_presweep_sink *sink, gc_inputs *frontier)
{
    cli_campaign *k = ctx;
    const gc_mode_ops *m = gc_mode_ops_of(t->spec.kind);
    presweep_levels lv = {m, sink, 0};
    int depth = k->seed_sweep_depth < GC_MAX_TRAILERS ? (int)k->seed_sweep_depth : GC_MAX_TRAILERS;
    gc_sweep_opts so = {.depth = depth, .max_nodes = SEED_SWEEP_NODES, .quiet = 1,
                        .no_report = 1, .level = presweep_level, .level_ctx = &lv,
                        .budget = presweep_budget(k->c.seconds, m),
                        .node_at = sink->node_at, .skip = sink->skip, .nskip = sink->nskip};
    gc_hole_names *names = gc_hole_names_new(t);
    gc_holes_sweep_setup(&so, names, NULL); /* an escape per signature and hole, as `sweep` finds them */
    gc_sweep_stats st;
    double t0 = gc_now_s();
    void *graph;
    int rc = m->sweep(t, &so, 0, NULL, &st, &graph);
    if (!rc && !k->c.quiet)
        presweep_line(&so, &st, gc_now_s() - t0);
    if (!rc && sink->nodes)
        *sink->nodes = st.nodes;
    gc_inputs none = {0};
    if (!rc)
        m->sweep_inputs(graph, &none, frontier, SEED_SWEEP_MAX);
    if (!rc)
        m->sweep_free(graph);
    gc_inputs_free(&none);
    gc_hole_names_free(names);
    return rc;
}

int cli_mode_campaign(cli_campaign *k, const gc_target *t)
{
    const gc_mode_ops *m = gc_mode_ops_of(t->spec.kind);
    if (k->c.engine == GC_ENGINE_AFL && m->no_afl) {
        gc_die_msg("%s", m->no_afl);
        return GC_EXIT_USAGE;
    }
    gc_mode_campaign(m, &k->c);
    return 0;
}

void cli_use_presweep(cli_campaign *k, const gc_target *t)
{
    if (k->seed_sweep_depth == -1)
        k->seed_sweep_depth = gc_mode_ops_of(t->spec.kind)->presweep_depth;
    if (k->seed_sweep_depth > 0) {
        k->c.presweep = mode_presweep;
        k->c.presweep_ctx = k;
    }
}
