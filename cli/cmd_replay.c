/* cmd_replay.c — `gatecrash replay TARGET [options] FILE|DIR...`: run saved chains (a source
 * target's programs), one verdict each, and the tally (cli.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "eval.h"
#include "holes.h"
#include "replay.h"
#include "source_triage.h"

/* replay's options and the chain files they name. */
typedef struct {
    gc_session_opts o;
    int expect_escape, raw, json;
    gc_strlist args, files; /* args: TARGET (unless given as an option), then FILE|DIR... */
    gc_strlist programs;    /* the same for a source target: a folder's *.py (gc_collect_programs) */
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
    for (int i = first; i < args->n && !rc; i++)
        if (gc_collect_inputs(args->v[i], &r->files) < 0 || gc_collect_programs(args->v[i], &r->programs) < 0)
            rc = GC_EXIT_USAGE;
    return rc;
}

/* --json for an input stopped by a limit: {"limit":"timeout"|"oom","escaped":false,"steps":N} */
static void print_limit_json(const gc_verdict *out)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "limit", out->timed_out ? "timeout" : "oom");
    cJSON_AddFalseToObject(j, "escaped");
    cJSON_AddNumberToObject(j, "steps", out->steps);
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

/* One replayed file's verdict lines on stdout; 'found_on' is the case's version note, 'hole'
 * its escape's hole (in the JSON line). */
static void print_verdict(const gc_target *t, const char *file, const gc_outcome *out, int json,
                          const char *found_on, const char *hole)
{
    gc_strbuf sb;
    gc_sb_init(&sb);
    if (out->escaped) {
        gc_escape_line(t, out, &sb);
        printf("%s: %s%s\n", file, sb.data, found_on);
        if (json) {
            gc_json_print(gc_escape_json_object(t, out, hole));
        }
    } else {
        printf("%s: blocked (%d steps, %d failed%s%s%s%s)%s\n", file, out->steps, out->failed_steps,
               out->refused[0] ? "; refused by the harness: " : "", out->refused,
               out->timed_out ? "; stopped by the per-input time limit" : "",
               out->oom ? "; stopped by the per-input memory limit" : "", found_on);
        /* a limit is a finding of its own kind, never an escape */
        if (out->timed_out || out->oom)
            printf("%s: LIMIT %s (not an escape)\n", file, out->timed_out ? "timeout" : "out-of-memory");
        if (json && (out->timed_out || out->oom))
            print_limit_json(&out->verdict);
    }
    if (out->state_repairs)
        printf("%s: note: interpreter state changed by the chain and repaired: %s\n", file, out->state_note);
    gc_sb_free(&sb);
}

/* A source target's verdict on one program (source.h): the escape (with --json its JSON
 * object, source_triage.h), or what came back. */
static void print_source_verdict(gc_target *t, const char *file, const gc_verdict *out, const char *note,
                                 const char *src, int json)
{
    char hole[256];
    if (out->escaped) {
        gc_strbuf line;
        gc_sb_init(&line);
        gc_escape_text(out, src, &line);
        printf("%s: %s\n", file, line.data);
        gc_sb_free(&line);
    }
    if (out->escaped && json) {
        gc_source_hole(t, src, out, hole, sizeof hole);
        gc_json_print(gc_escape_object(t, out, src, gc_program_size(src, strlen(src)), hole));
    }
    if (!out->escaped)
        printf("%s: blocked (%s%s%s%s)\n", file, note, out->refused[0] ? "; refused by the harness: " : "",
               out->refused, out->timed_out ? "; stopped by the per-input time limit" : "");
    if (!out->escaped && (out->timed_out || out->oom))
        printf("%s: LIMIT %s (not an escape)\n", file, out->timed_out ? "timeout" : "out-of-memory");
    if (!out->escaped && (out->timed_out || out->oom) && json)
        print_limit_json(out);
    if (out->state_repairs)
        printf("%s: note: interpreter state changed by the program and repaired: %s\n", file, out->state_note);
}

/* Replay one program file on a source target into 'out' ('raw': a crash input, decoded):
 * 0, -1 (unreadable) or an exit code. */
static int replay_source_file(gc_target *t, const replay_args *r, const char *file, gc_outcome *out, char *why,
                              size_t whylen)
{
    gc_strbuf src;
    gc_sb_init(&src);
    char note[256];
    int rc = gc_replay_source(t, file, r->raw, &src, &out->verdict, note, sizeof note, why, whylen);
    if (!rc)
        print_source_verdict(t, file, &out->verdict, note, src.data, r->json);
    gc_sb_free(&src);
    return rc;
}

/* Replay every file, one verdict each, and the tally; the command's exit code. */
static int replay_all(gc_target *t, const replay_args *r)
{
    static gc_chain chain;
    static gc_outcome out;
    int escaped = 0, blocked = 0, bad = 0;
    if (r->files.n == 0) { /* "--expect escape" of an empty folder must not pass */
        gc_die_msg("nothing to replay: no %s in the files and folders given",
                   t->spec.kind == GC_TARGET_SOURCE ? "program (*.py)" : "chain file");
        return GC_EXIT_USAGE;
    }
    for (int i = 0; i < r->files.n; i++) {
        char why[PATH_MAX + 1100];
        gc_case_header hdr = {"", ""};
        int source = t->spec.kind == GC_TARGET_SOURCE;
        int rc = source ? replay_source_file(t, r, r->files.v[i], &out, why, sizeof why)
                        : gc_replay_file(t, r->files.v[i], r->raw, &chain, &out, &hdr, why, sizeof why);
        if (rc) {
            gc_die_msg("%s", why);
            if (rc > 0)
                return rc; /* the evaluator could not run it: no tally */
            bad++;
            continue;
        }
        escaped += out.escaped;
        blocked += !out.escaped;
        if (source)
            continue; /* replay_source_file printed its verdict */
        char found_on[96];
        other_python(hdr.python, found_on, sizeof found_on);
        char hole[GC_HOLE_NAME] = "";
        if (r->json && out.escaped) { /* its hole: the escape's chain run once more, every step watched */
            static gc_chain trimmed;
            static gc_outcome ho;
            char err[256];
            gc_outcome_escape_chain(&out, &trimmed);
            gc_hole_of_chain(t, &trimmed, &ho, hole, sizeof hole, err, sizeof err);
        }
        print_verdict(t, r->files.v[i], &out, r->json, found_on, hole);
    }
    fflush(stdout);
    fprintf(stderr, "gatecrash: replayed %d: %d escaped, %d blocked, %d unreadable\n", r->files.n, escaped,
            blocked, bad);
    if (bad)
        return GC_EXIT_USAGE;
    if (r->expect_escape)
        return blocked ? GC_EXIT_ESCAPE : GC_EXIT_OK;
    return escaped ? GC_EXIT_ESCAPE : GC_EXIT_OK;
}

/* On the started target (cli_run_confined): a source target's files are programs. */
static int replay_started(gc_target *t, void *ctx)
{
    replay_args *r = ctx;
    if (t->spec.kind == GC_TARGET_SOURCE) {
        gc_strlist chains = r->files;
        r->files = r->programs;
        r->programs = chains;
    }
    return replay_all(t, r);
}

static int cmd_replay(int argc, char **argv)
{
    replay_args r = {.o = {.source_ok = 1}};
    int rc = replay_options(argc, argv, &r);
    if (!rc)
        rc = cli_run_confined(&r.o, r.o.quiet, NULL, replay_started, &r);
    gc_sl_free(&r.files);
    gc_sl_free(&r.programs);
    gc_sl_free(&r.args);
    return rc;
}

const cli_command cli_replay = {
    "replay", "gatecrash replay TARGET [options] FILE|DIR...   run saved chains, one verdict each",
    "replay needs a TARGET (gatecrash replay --help)", 1,
    {{NULL, replay_opts, 0, 0}, CLI_TARGET_SET(replay_args, o), {0}}, cmd_replay};
