/* mode.c — see mode.h: chain mode's table, then source mode's. */
#include "mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "fsutil.h"
#include "holes.h"
#include "source.h"
#include "source_holes.h"
#include "source_sweep.h"
#include "source_triage.h"
#include "sweep.h"

void gc_run_free(gc_run *r)
{
    gc_sb_free(&r->input);
    gc_sb_free(&r->ran);
}

static void run_reset(gc_run *r)
{
    gc_run_free(r);
    gc_sb_init(&r->input);
    gc_sb_init(&r->ran);
    r->note[0] = '\0';
    r->size = 0;
    r->hdr = (gc_case_header){"", ""};
}

/* ---- chain mode: gate targets ---- */

static int chain_replay(gc_target *t, const char *path, int raw, gc_run *r, char *why, size_t whylen)
{
    static gc_chain chain, trimmed; /* large: one at a time, nothing kept between calls */
    static gc_outcome chain_last;
    run_reset(r);
    int rc = gc_replay_file(t, path, raw, &chain, &chain_last, &r->hdr, why, whylen);
    if (rc)
        return rc;
    r->v = chain_last.verdict;
    if (chain_last.escaped) {
        gc_escape_chain_text(&chain_last, &r->input);
        gc_outcome_escape_chain(&chain_last, &trimmed);
        r->size = gc_chain_trailer_count(&trimmed);
        gc_outcome_ran_chain(&chain_last, &trimmed);
        gc_chain_print_oneline(&trimmed, &r->ran);
    } else {
        gc_chain_print_oneline(&chain, &r->input);
        gc_chain_print_oneline(&chain, &r->ran);
        r->size = gc_chain_trailer_count(&chain);
    }
    snprintf(r->note, sizeof r->note, "%d steps, %d failed", chain_last.steps, chain_last.failed_steps);
    return 0;
}

/* The escape's chain (r->input: chain_replay's one line of it) run once more, every step
 * watched (holes.h). */
static void chain_hole(gc_target *t, const gc_run *r, char *hole, size_t len)
{
    static gc_chain trimmed; /* large: one at a time */
    static gc_outcome again;
    gc_parse_error pe;
    char err[256];
    hole[0] = '\0';
    if (r->v.escaped && r->input.data &&
        gc_chain_parse((const uint8_t *)r->input.data, r->input.len, GC_PARSE_STRICT, &trimmed, &pe) == 0 &&
        gc_hole_of_chain(t, &trimmed, &again, hole, len, err, sizeof err) != 0)
        hole[0] = '\0';
}

static int chain_sweep(gc_target *t, gc_sweep_opts *o, int by_hole, const char *const *closed, gc_sweep_stats *st,
                       void **graph)
{
    gc_sweep_graph **g = (gc_sweep_graph **)graph;
    return by_hole ? gc_holes_sweep(t, o, closed, st, g) : gc_sweep(t, o, st, g);
}

static int chain_sweep_findings(const void *graph, gc_finding **out)
{
    return gc_sweep_findings(graph, out);
}

static void chain_sweep_free(void *graph)
{
    gc_sweep_free(graph);
}

static void chain_sweep_inputs(const void *graph, gc_inputs *escapes, gc_inputs *frontier, int max)
{
    (void)escapes; /* a chain's crash input is its text: the findings' own */
    gc_strlist chains = {0};
    gc_sweep_frontier(graph, &chains, max);
    for (int i = 0; i < chains.n; i++)
        gc_inputs_add(frontier, chains.v[i], strlen(chains.v[i]));
    gc_sl_free(&chains);
}

static int chain_explain(gc_target *t, const char *path, int raw)
{
    static gc_chain chain;
    static gc_outcome out;
    size_t len = 0;
    unsigned char *data = gc_read_file(path, &len);
    if (!data) {
        gc_die_msg("cannot read %s", path);
        return GC_EXIT_USAGE;
    }
    gc_parse_error perr;
    int prc = gc_chain_parse(data, len, raw ? GC_PARSE_LENIENT : GC_PARSE_STRICT, &chain, &perr);
    free(data);
    if (prc < 0 || chain.nstmts == 0) {
        gc_die_msg("%s:%d:%d: %s", path, perr.line, perr.col, prc < 0 ? perr.msg : "no statement");
        return GC_EXIT_USAGE;
    }
    return gc_explain(t, &chain, &out);
}

/* The table's escape: its chain (the text the table shows) parsed and run once more. */
static void chain_campaign_hole(void *ctx, gc_target *t, const char *input, const gc_verdict *v, char *hole,
                                size_t len)
{
    static gc_chain c;
    gc_parse_error pe;
    (void)v;
    hole[0] = '\0';
    if (gc_chain_parse((const uint8_t *)input, strlen(input), GC_PARSE_STRICT, &c, &pe) == 0)
        gc_holes_campaign_hook(ctx, t, &c, hole, len);
}

const gc_mode_ops gc_chain_mode = {
    .name = "chain",
    .input = "chain",
    .inputs = "chain file",
    .case_ext = ".chain",
    .fuzzer = "fuzz_gate",
    .fuzzer_afl = "fuzz_gate_afl",
    .seeds = "corpus",
    .sweep_depth = 3,
    .presweep_depth = 8,
    .presweep_seconds = 2,
    .presweep_share = 0.1,
    .collect = gc_collect_inputs,
    .replay = chain_replay,
    .hole = chain_hole,
    .sweep = chain_sweep,
    .sweep_findings = chain_sweep_findings,
    .sweep_inputs = chain_sweep_inputs,
    .sweep_free = chain_sweep_free,
    .triage_one = gc_triage_one,
    .explain = chain_explain,
    .campaign_hole = chain_campaign_hole,
    .minimize_row = gc_holes_minimize_row,
};

/* ---- source mode: source targets ---- */

static int source_replay(gc_target *t, const char *path, int raw, gc_run *r, char *why, size_t whylen)
{
    run_reset(r);
    int rc = gc_replay_source(t, path, raw, &r->input, &r->v, r->note, sizeof r->note, why, whylen);
    if (!rc) {
        r->size = gc_program_size(r->input.data, r->input.len);
        gc_sb_putn(&r->ran, r->input.data ? r->input.data : "", r->input.len);
    }
    return rc;
}

static void source_hole(gc_target *t, const gc_run *r, char *hole, size_t len)
{
    gc_source_hole(t, r->input.data, &r->v, hole, len);
}

static int source_sweep(gc_target *t, gc_sweep_opts *o, int by_hole, const char *const *closed, gc_sweep_stats *st,
                        void **graph)
{
    gc_source_graph **g = (gc_source_graph **)graph;
    return by_hole ? gc_source_holes_sweep(t, o, closed, st, g) : gc_source_sweep(t, o, st, g);
}

static int source_sweep_findings(const void *graph, gc_finding **out)
{
    return gc_source_sweep_findings(graph, out);
}

static void source_sweep_free(void *graph)
{
    gc_source_sweep_free(graph);
}

static void source_sweep_inputs(const void *graph, gc_inputs *escapes, gc_inputs *frontier, int max)
{
    gc_source_sweep_inputs(graph, escapes);
    gc_source_sweep_frontier(graph, frontier, max);
}

/* `explain` of a program: its text, what evaluate gave back, the verdict (a program is one
 * step: evaluate). */
static int source_explain(gc_target *t, const char *path, int raw)
{
    gc_run r = {0};
    char why[1200];
    int rc = source_replay(t, path, raw, &r, why, sizeof why);
    if (rc) {
        gc_die_msg("%s", why);
        gc_run_free(&r);
        return rc < 0 ? GC_EXIT_USAGE : rc;
    }
    rc = gc_explain_program(t, r.input.data, &r.v, r.note);
    gc_run_free(&r);
    return rc;
}

static void source_campaign_hole(void *ctx, gc_target *t, const char *input, const gc_verdict *v, char *hole,
                                 size_t len)
{
    (void)ctx;
    gc_source_hole(t, input, v, hole, len);
}

const gc_mode_ops gc_source_mode = {
    .name = "source",
    .input = "program",
    .inputs = "program (*.py)",
    .case_ext = ".py",
    .fuzzer = "fuzz_source",
    .seeds = "corpus-source",
    .sweep_depth = GC_SOURCE_SWEEP_DEPTH,
    .presweep_depth = 6,
    .presweep_seconds = 10, /* programs run through evaluate are slower than chains */
    /* two fifths: on a slow sandbox the source sweep's next level finds holes the fuzzer
     * does not find within the campaign (smolagents-1.20.0's depth 4, docs/PERFORMANCE.md),
     * and a campaign three times a sweep's time has room for that sweep and its
     * projection's error */
    .presweep_share = 0.4,
    .collect = gc_collect_programs,
    .replay = source_replay,
    .hole = source_hole,
    .sweep = source_sweep,
    .sweep_findings = source_sweep_findings,
    .sweep_inputs = source_sweep_inputs,
    .sweep_free = source_sweep_free,
    .triage_one = gc_source_triage_one,
    .explain = source_explain,
    .campaign_hole = source_campaign_hole,
    .no_afl = "--engine afl does not take a source target (fuzz_source runs under libFuzzer only)",
};

const gc_mode_ops *gc_mode_ops_of(int kind)
{
    return kind == GC_TARGET_SOURCE ? &gc_source_mode : &gc_chain_mode;
}

void gc_mode_campaign(const gc_mode_ops *m, gc_campaign_opts *c)
{
    c->hole_of = m->campaign_hole;
    c->hole_ctx = NULL;
}
