/* cmd_sweep.c — `gatecrash sweep TARGET [options]`, the exhaustive, bounded breadth-first
 * search, and `gatecrash advise TARGET [options]`, the fewest holes to close, proven by
 * sweeping with them closed (cli.h). */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "confirm.h"
#include "mode.h"
#include "diag.h"
#include "holes.h"
#include "source_holes.h"
#include "source_sweep.h"
#include "source_triage.h"
#include "sweep.h"
#include "timelimit.h"
#include "triage.h"

/* sweep's and advise's options. */
typedef struct {
    gc_session_opts o;
    gc_sweep_opts so;
    long depth;             /* --depth, -1: not given (so.depth's default) */
    const char *save, *by;  /* sweep --save DIR, --by hole|root|signature (advise: NULL) */
    int verify;             /* advise --verify */
    int confirm, no_confirm; /* sweep --confirm (the default), --no-confirm */
    gc_strlist pos, closed; /* pos: TARGET (unless given as an option); closed: sweep --close */
    char save_abs[PATH_MAX]; /* --save's folder, absolute, or "" */
} sweep_args;

#define S(field) offsetof(sweep_args, field)
static const cli_opt sweep_opts[] = {
    {"--depth", NULL, "D", cli_opt_long, S(depth), "chain depth (3; a source target's 4)"},
    {"--max-nodes", NULL, "N", cli_opt_long, S(so.max_nodes), "objects visited at most (2000000)"},
    {"--time", NULL, "S", cli_opt_long, S(so.seconds), "at most S seconds, then the report so far (as on SIGTERM)"},
    {"--save", NULL, "DIR", cli_opt_str, S(save), "triage the finds into DIR"},
    {"--by", NULL, "hole|root|signature", cli_opt_by, S(by),
     "one row per hole (hole; a source target's per weakness, its roots listed), per hole as seen from "
     "each root (root), or the flat list of signatures"},
    {"--close", NULL, "HOLE", cli_opt_list, S(closed), "sweep with that hole's edges removed (repeatable; docs/HOLES.md)"},
    {"--json", NULL, NULL, cli_opt_flag, S(so.json), "one JSON object per finding"},
    {"--confirm", NULL, NULL, cli_opt_flag, S(confirm), "run each hole's input again in a plain interpreter (the default)"},
    {"--no-confirm", NULL, NULL, cli_opt_flag, S(no_confirm), "do not run the holes' inputs again in a plain interpreter"},
    {"--exhaustive", NULL, NULL, cli_opt_flag, S(so.exhaustive), "source target: run every edge's program (no host-side search)"},
    {"--quiet", "-q", NULL, cli_opt_flag, S(so.quiet), "no progress lines"},
    {0},
};
static const cli_opt advise_opts[] = {
    {"--depth", NULL, "D", cli_opt_long, S(depth), "sweep depth (4)"},
    {"--max-nodes", NULL, "N", cli_opt_long, S(so.max_nodes), "objects visited at most (2000000)"},
    {"--verify", NULL, NULL, cli_opt_flag, S(verify), "also print the sweep with the cut closed (sweep --close)"},
    {"--time", NULL, "S", cli_opt_long, S(so.seconds), "at most S seconds in all, then the advice so far, unverified"},
    {"--json", NULL, NULL, cli_opt_flag, S(so.json), "one JSON object"},
    {"--quiet", "-q", NULL, cli_opt_flag, S(so.quiet), "no progress lines (advise prints none)"},
    {0},
};
#undef S

/* The options parsed, the target named and --depth (1..GC_MAX_TRAILERS) and --by checked;
 * the target's paths made absolute.  0 or an exit code. */
static int bounded_options(const cli_command *c, int argc, char **argv, sweep_args *a)
{
    if (cli_parse_command(c, a, &a->o, &a->pos, argc, argv) < 0)
        return GC_EXIT_USAGE;
    a->so.depth = a->depth == -1 ? a->so.depth : a->depth < 1 || a->depth > GC_MAX_TRAILERS ? 0 : (int)a->depth;
    a->so.by_root = a->by && strcmp(a->by, "root") == 0;
    if (a->so.depth == 0) {
        gc_die_msg("%s", c->usage);
        return GC_EXIT_USAGE;
    }
    return cli_absolutize_target(&a->o);
}

/* `sweep --save`: each escape the sweep found, saved as a case (triage.h); the counts for
 * the closing line. */
typedef struct {
    const gc_triage_opts *to;
    int depth;
    gc_triage_summary sum;
} sweep_saver;

static void save_sweep_find(void *ctx, gc_target *t, const gc_chain *c, const gc_outcome *out)
{
    sweep_saver *s = ctx;
    int n = gc_chain_trailer_count(c);
    gc_min_stats ms = {1, n, n};
    char origin[64];
    snprintf(origin, sizeof origin, "sweep-depth-%d", s->depth);
    gc_triage_save(t, s->to, c, out, origin, &ms, &s->sum);
}

/* A source target's escape: its program saved as a case (source_triage.h). */
static void save_sweep_program(void *ctx, gc_target *t, const char *program)
{
    sweep_saver *s = ctx;
    char origin[64];
    snprintf(origin, sizeof origin, "sweep-depth-%d", s->depth);
    gc_source_triage_save(t, s->to, program, origin, &s->sum);
}

/* A level complete (or cut short, at the end): one line on stderr with the signatures
 * found so far, so a sweep shows what each depth added as it goes. */
static void sweep_level_line(void *ctx, const void *graph, int level, int complete)
{
    const gc_mode_ops *m = ctx;
    gc_finding *f;
    if (complete < 0) /* within a level: its line comes when it ends */
        return;
    int n = m->sweep_findings(graph, &f);
    free(f);
    fprintf(stderr, "[sweep] depth %d %s: %d escape(s) found so far\n", level, complete ? "complete" : "cut short",
            n);
}

/* The sweep on the started target (cli_run_confined), in its mode, by hole or flat (the
 * holes in a->closed closed), its finds saved into save_abs with --save; the exit code. */
static int sweep_saving(gc_target *t, void *ctx)
{
    sweep_args *a = ctx;
    gc_sweep_opts *so = &a->so;
    const gc_mode_ops *m = gc_mode_ops_of(t->spec.kind);
    if (a->depth == -1)
        so->depth = m->sweep_depth;
    char exe[PATH_MAX], found_by[64];
    gc_exe_path(exe, sizeof exe); /* to re-run cases in fresh processes */
    snprintf(found_by, sizeof found_by, "gatecrash sweep (depth %d)", so->depth);
    gc_triage_opts to = {.exe = exe, .target = &a->o, .outdir = a->save_abs, .found_by = found_by};
    sweep_saver saver = {&to, so->depth, {0}};
    if (!so->quiet) {
        so->level = sweep_level_line;
        so->level_ctx = (void *)m;
    }
    so->save = a->save ? save_sweep_find : NULL;
    so->save_program = a->save ? save_sweep_program : NULL;
    so->save_ctx = &saver;
    gc_sweep_stats st;
    const char *cannot = a->save && m->no_save ? m->no_save : a->closed.n && m->no_close ? m->no_close : NULL;
    int rc = cannot ? GC_EXIT_USAGE : 0;
    if (cannot)
        gc_die_msg("%s", cannot);
    if (!rc)
        rc = cli_probe_adapter(t);
    int by_hole = strcmp(a->by, "signature") != 0; /* root: by hole, a source target's not by weakness */
    gc_hole_names *names = by_hole || a->closed.n ? gc_hole_names_new(t) : NULL;
    gc_sl_add(&a->closed, NULL);
    if (names)
        gc_holes_sweep_setup(so, names, (const char *const *)a->closed.v);
    void *graph = NULL;
    if (!rc)
        rc = m->sweep(t, so, by_hole, (const char *const *)a->closed.v, &st, !a->no_confirm && !so->json ? &graph : NULL);
    if (!rc && graph && gc_limits_stop_signal()) /* stopped by a signal: the report, at once */
        printf("\nin a plain interpreter: not run (the sweep was stopped by a signal)\n");
    else if (!rc && graph) { /* after the report: each hole's input in a plain interpreter */
        gc_finding *f;
        int n = m->sweep_findings(graph, &f);
        gc_confirm_findings(t, f, n, GC_CONFIRM_TABLE_SECONDS);
        free(f);
    }
    if (graph)
        m->sweep_free(graph);
    gc_hole_names_free(names); /* after the graph: it names its holes through them */
    if (!rc && a->save)
        printf("saved to %s: %d new, %d known, %d not reproducible\n", a->save_abs, saver.sum.new_cases,
               saver.sum.known, saver.sum.flaky);
    if (rc || st.escapes)
        return rc ? rc : GC_EXIT_ESCAPE;
    if (st.nodes == 0) { /* nothing ran as the host runs it: no all-clear */
        printf("INCONCLUSIVE: nothing escaped, but the sweep reached no node (no program it ran gave back a value to walk from): "
               "its result is no all-clear (docs/ORACLES.md, \"Three verdicts\")\n");
        return GC_EXIT_INCONCLUSIVE;
    }
    return GC_EXIT_OK;
}

/* SIGINT, SIGTERM (`timeout`'s): the sweep stops, and prints the report of what it has
 * (timelimit.h gc_limits_stop: a store, async-signal-safe).  A second one ends the process
 * as the signal does. */
static void stop_sweep(int sig)
{
    if (gc_limits_stop_signal()) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    gc_limits_stop(sig);
}

/* Before the target starts: its snapshot of signal dispositions (state.c) then holds these. */
static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stop_sweep;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static int cmd_sweep(int argc, char **argv)
{
    catch_stop_signals();
    sweep_args a = {.so = {.depth = 3, .max_nodes = 2000000}, .depth = -1, .by = "hole"};
    int rc = bounded_options(&cli_sweep, argc, argv, &a);
    if (!rc && a.save)
        rc = cli_case_folder(a.save, NULL, a.save_abs);
    if (!rc)
        rc = cli_run_confined(&a.o, 1, a.save ? a.save_abs : NULL, sweep_saving, &a);
    gc_sl_free(&a.pos);
    gc_sl_free(&a.closed);
    return rc;
}

/* On the started target (cli_run_confined): the advice, where its mode can prove it. */
static int advise_started(gc_target *t, void *ctx)
{
    sweep_args *a = ctx;
    const char *cannot = gc_mode_ops_of(t->spec.kind)->no_advise;
    if (cannot) {
        gc_die_msg("%s", cannot);
        return GC_EXIT_USAGE;
    }
    if (a->so.seconds > 0) /* one bound for all its sweeps (each without one of its own) */
        gc_limits_stop_at(gc_now_s() + (double)a->so.seconds);
    a->so.seconds = 0;
    return gc_advise(t, &a->so, a->verify);
}

static int cmd_advise(int argc, char **argv)
{
    sweep_args a = {.so = {.depth = 4, .max_nodes = 2000000, .quiet = 1}, .depth = -1};
    catch_stop_signals();
    int rc = bounded_options(&cli_advise, argc, argv, &a);
    if (!rc)
        rc = cli_run_confined(&a.o, 1, NULL, advise_started, &a);
    gc_sl_free(&a.pos);
    return rc;
}

const cli_command cli_sweep = {
    "sweep", "gatecrash sweep TARGET [options]   exhaustive, bounded breadth-first search",
    "usage: gatecrash sweep TARGET [--depth 1.." CLI_XSTR(GC_MAX_TRAILERS) "] [--max-nodes N] [--time S] [--save DIR] "
    "[--by hole|root|signature] [--close HOLE]... [--json] [--no-confirm]", 1,
    {{NULL, sweep_opts, 0, 0}, CLI_TARGET_SET(sweep_args, o), {0}}, cmd_sweep};
const cli_command cli_advise = {
    "advise", "gatecrash advise TARGET [options]   the fewest holes to close, what closing each means, proven by the sweep",
    "usage: gatecrash advise TARGET [--depth 1.." CLI_XSTR(GC_MAX_TRAILERS) "] [--max-nodes N] [--time S] [--verify] [--json]", 0,
    {{NULL, advise_opts, 0, 0}, CLI_TARGET_SET(sweep_args, o), {0}}, cmd_advise};
