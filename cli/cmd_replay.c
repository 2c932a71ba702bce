/* cmd_replay.c — `gatecrash replay TARGET [options] FILE|DIR...`: run saved chains (a source
 * target's programs), one verdict each, and the tally (cli.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "confirm.h"
#include "diag.h"
#include "holes.h"
#include "mode.h"
#include "timelimit.h"

/* replay's options and the chain files they name. */
typedef struct {
    gc_session_opts o;
    int expect_escape, raw, json, no_confirm;
    gc_strlist args, files; /* args: TARGET (unless given as an option), then FILE|DIR...; files:
                               the inputs of the target's mode in them (mode.h collect) */
    int first;              /* args' first FILE|DIR */
} replay_args;

static int set_expect(const char *opt, const char *val, void *slot)
{
    (void)opt;
    if (strcmp(val, "escape") != 0 && strcmp(val, "blocked") != 0) {
        gc_die_msg("--expect takes escape or blocked");
        return -1;
    }
    *(int *)slot = strcmp(val, "escape") == 0;
    return 0;
}

/* replay reads a lone "-" as a file name (the other commands call it an unknown option) */
static int dash_is_a_file(const char *opt, const char *val, void *slot)
{
    (void)val;
    gc_sl_add(slot, opt);
    return 0;
}

#define R(field) offsetof(replay_args, field)
static const cli_opt replay_opts[] = {
    {"--expect", NULL, "escape|blocked", set_expect, R(expect_escape), "what every case must do (blocked)"},
    {"--raw", NULL, NULL, cli_opt_flag, R(raw), "decode files as fuzz inputs, not strict chain files"},
    {"--json", NULL, NULL, cli_opt_flag, R(json), "also print each escape as one JSON object"},
    {"--no-confirm", NULL, NULL, cli_opt_flag, R(no_confirm),
     "do not run each escape again in a fresh plain interpreter (confirm.h)"},
    {"--quiet", "-q", NULL, cli_opt_flag, R(o.quiet), "do not print the gate's start-up log"},
    {"-", NULL, NULL, dash_is_a_file, R(args), NULL},
    {0},
};
#undef R

/* 0 or GC_EXIT_USAGE (message printed). */
static int replay_options(int argc, char **argv, replay_args *r)
{
    gc_strlist *args = &r->args;
    int first = cli_parse_command(&cli_replay, r, &r->o, args, argc, argv);
    int rc = first < 0 ? GC_EXIT_USAGE : 0;
    if (!rc && first >= args->n) {
        gc_die_msg("replay needs at least one chain file or folder");
        rc = GC_EXIT_USAGE;
    }
    r->first = first;
    gc_strlist seen = {0}; /* an unreadable FILE|DIR is bad usage before the target starts */
    for (int i = first; i < args->n && !rc; i++)
        if (gc_collect_inputs(args->v[i], &seen) < 0)
            rc = GC_EXIT_USAGE;
    gc_sl_free(&seen);
    return rc;
}

/* The limit a blocked input met, as its LIMIT line and --json name it: the time or memory
 * limit, or a thread it started alive after it (stopped: state.c); NULL for none. */
static const char *limit_met(const gc_verdict *v, int json)
{
    if (v->timed_out || v->oom)
        return v->timed_out ? "timeout" : json ? "oom" : "out-of-memory";
    return v->thread_stopped ? "thread" : NULL;
}

/* --json for an inconclusive input: {"limit":"timeout"|"oom"|"thread" (a limit only),"escaped":false,
 * "steps":N,"verdict":"inconclusive","cause":"..."} */
static void print_inconclusive_json(const gc_verdict *out, const char *cause, const char *file)
{
    cJSON *j = cJSON_CreateObject();
    if (limit_met(out, 1))
        cJSON_AddStringToObject(j, "limit", limit_met(out, 1));
    cJSON_AddFalseToObject(j, "escaped");
    cJSON_AddNumberToObject(j, "steps", out->steps);
    cJSON_AddStringToObject(j, "verdict", "inconclusive");
    cJSON_AddStringToObject(j, "cause", cause);
    cJSON_AddStringToObject(j, "file", file);
    gc_json_print(j);
}

/* " (found on CPython 3.11.2, replayed on 3.13.0)" when a saved case's "# python:" header
 * names another minor version than the one embedded (escapes differ between versions),
 * else "". */
static void other_python(const char *found, char *note, size_t notelen)
{
    note[0] = '\0';
    size_t n = strlen(found);
    const char *dot = strchr(PY_VERSION, '.'); /* mm: the length of "3.11" in "3.11.2" */
    size_t mm = dot ? (size_t)(dot + 1 - PY_VERSION) + strcspn(dot + 1, ".") : strlen(PY_VERSION);
    if (n && (n < mm || memcmp(found, PY_VERSION, mm) != 0 || (n > mm && found[mm] != '.')))
        snprintf(note, notelen, " (found on CPython %s, replayed on %s)", found, PY_VERSION);
}

/* One replayed file's verdict lines on stdout, in either mode: the escape line (with --json
 * its object, its hole named), or what came back and the limit that stopped it. */

/* The confirmation of an escape, its own JSON line after the escape's (whose keys are the one
 * escape object's, verdict.h, and "file"): the file, the input run (gc_run.ran), "confirmed" (true, false, or
 * null when not run), "confirmation" (why) and, when confirmed, "reached" (where the
 * primitive was).  Every line replay prints names its file, in both modes. */
static void print_confirmation_json(const gc_confirmation *c, const char *input, const char *file)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return;
    cJSON_AddStringToObject(j, "input", input);
    if (c->kind == GC_CONFIRM_UNKNOWN)
        cJSON_AddNullToObject(j, "confirmed");
    else
        cJSON_AddBoolToObject(j, "confirmed", c->kind == GC_CONFIRM_YES);
    cJSON_AddStringToObject(j, "confirmation", c->why);
    if (c->kind == GC_CONFIRM_YES)
        cJSON_AddStringToObject(j, "reached", gc_confirm_where_name(c->where));
    cJSON_AddStringToObject(j, "file", file);
    gc_json_print(j);
}

static void print_verdict(gc_target *t, const gc_mode_ops *m, const char *file, const gc_run *r,
                          const replay_args *a)
{
    const gc_verdict *v = &r->v;
    char found_on[96];
    other_python(r->hdr.python, found_on, sizeof found_on);
    if (v->escaped) {
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_escape_text(v, r->input.data, &sb);
        printf("%s: %s%s\n", file, sb.data, found_on);
        gc_sb_free(&sb);
        gc_confirmation c = {GC_CONFIRM_UNKNOWN, GC_WHERE_UNKNOWN, "not asked for (--no-confirm)"};
        if (!a->no_confirm) { /* the escape once more, in a fresh plain interpreter */
            char line[600];
            fflush(stdout);
            gc_confirm_escape(t, v, r->ran.data ? r->ran.data : "", 60, &c);
            gc_confirm_line(&c, line, sizeof line);
            printf("%s: %s\n", file, line);
        }
        char hole[GC_HOLE_NAME] = "";
        if (a->json) { /* its hole: the escape run once more, every step watched */
            m->hole(t, r, hole, sizeof hole);
            cJSON *j = gc_escape_object(t, v, r->input.data, r->size, hole);
            cJSON_AddStringToObject(j, "file", file);
            gc_json_print(j);
            print_confirmation_json(&c, r->ran.data ? r->ran.data : "", file);
        }
    } else {
        char cause[128];
        gc_verdict_kind k = gc_verdict_of(t, v, cause, sizeof cause);
        printf("%s: %s (%s%s%s%s%s%s)%s\n", file, gc_verdict_word(k), r->note,
               v->refused[0] ? "; refused by the harness: " : "", v->refused,
               v->timed_out ? "; stopped by the per-input time limit" : "",
               v->oom ? "; stopped by the per-input memory limit" : "",
               v->thread_stopped ? "; a thread it started was still running after it, and was stopped" : "", found_on);
        /* a limit is a finding of its own kind, never an escape */
        const char *limit = limit_met(v, 0);
        if (limit)
            printf("%s: LIMIT %s (not an escape)\n", file, limit);
        if (a->json && k == GC_VERDICT_INCONCLUSIVE)
            print_inconclusive_json(v, cause, file);
    }
    if (v->state_repairs)
        printf("%s: note: interpreter state changed by the %s and repaired: %s\n", file, m->input, v->state_note);
}

/* Replay every file, one verdict each, and the tally; the command's exit code. */
static int replay_all(gc_target *t, const replay_args *r)
{
    const gc_mode_ops *m = gc_mode_ops_of(t->spec.kind);
    int escaped = 0, blocked = 0, inconclusive = 0, bad = 0, rc = 0;
    if (r->files.n == 0) { /* "--expect escape" of an empty folder must not pass */
        gc_die_msg("nothing to replay: no %s in the files and folders given", m->inputs);
        return GC_EXIT_USAGE;
    }
    gc_run run = {0};
    for (int i = 0; i < r->files.n && rc <= 0; i++) {
        char why[PATH_MAX + 1100];
        fflush(stdout); /* an input that crashes the target ends the process: its CRASH line last */
        gc_limits_crash_label = r->files.v[i];
        gc_limits_crash_json = r->json;
        rc = m->replay(t, r->files.v[i], r->raw, &run, why, sizeof why);
        gc_limits_crash_label = NULL;
        if (rc)
            gc_die_msg("%s", why); /* rc > 0: the evaluator could not run it, no tally */
        bad += rc < 0;
        escaped += !rc && run.v.escaped;
        int undecided = !rc && gc_verdict_of(t, &run.v, NULL, 0) == GC_VERDICT_INCONCLUSIVE;
        inconclusive += undecided;
        blocked += !rc && !run.v.escaped && !undecided;
        if (!rc)
            print_verdict(t, m, r->files.v[i], &run, r);
    }
    gc_run_free(&run);
    if (rc > 0)
        return rc;
    fflush(stdout);
    fprintf(stderr, "gatecrash: replayed %d: %d escaped, %d blocked, %d unreadable, %d inconclusive\n", r->files.n,
            escaped, blocked, bad, inconclusive);
    if (bad)
        return GC_EXIT_USAGE;
    if (r->expect_escape ? blocked : escaped)
        return GC_EXIT_ESCAPE;
    if (inconclusive) /* never an all-clear for what was not seen to run */
        fprintf(stderr, "gatecrash: %d input(s) inconclusive: the harness did not see %s run as the host runs %s "
                "(exit 5)\n", inconclusive, inconclusive == 1 ? "it" : "them", inconclusive == 1 ? "it" : "them");
    return inconclusive ? GC_EXIT_INCONCLUSIVE : GC_EXIT_OK;
}

/* On the started target (cli_run_confined): the files its mode's inputs are in. */
static int replay_started(gc_target *t, void *ctx)
{
    replay_args *r = ctx;
    const gc_mode_ops *m = gc_mode_ops_of(t->spec.kind);
    int rc = cli_probe_dialect(t);
    if (rc)
        return rc;
    for (int i = r->first; i < r->args.n; i++)
        if (m->collect(r->args.v[i], &r->files) < 0)
            return GC_EXIT_USAGE;
    return replay_all(t, r);
}

static int cmd_replay(int argc, char **argv)
{
    replay_args r = {0};
    int rc = replay_options(argc, argv, &r);
    if (!rc) {
        cli_absolutize_files(&r.args, r.first);
        rc = cli_run_confined(&r.o, r.o.quiet, NULL, replay_started, &r);
    }
    gc_sl_free(&r.files);
    gc_sl_free(&r.args);
    return rc;
}

const cli_command cli_replay = {
    "replay", "gatecrash replay TARGET [options] FILE|DIR...   run saved chains, one verdict each",
    "replay needs a TARGET (gatecrash replay --help)", 1,
    {{NULL, replay_opts, 0, 0}, CLI_TARGET_SET(replay_args, o), {0}}, cmd_replay};
