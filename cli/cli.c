/* cli.c — the `gatecrash` command line, the top layer: it calls the harness (harness/) and
 * triage (triage/), and nothing calls it.
 *
 *   gatecrash replay TARGET FILE|DIR...   run saved chains, one verdict each
 *   gatecrash fuzz TARGET                 run an engine, replay its crash inputs live, a table
 *   gatecrash triage TARGET CRASH...|DIR  minimize, de-duplicate and save escapes as cases
 *   gatecrash explain TARGET FILE         step by step: each value, and the verdict
 *   gatecrash sweep TARGET                exhaustive, bounded breadth-first search
 *   gatecrash gate TARGET                 release gate: saved cases blocked, nothing found
 *   gatecrash advise TARGET               the holes to close, proven by sweeping with them closed
 *   gatecrash --help | --version | COMMAND --help   (each command's options: commands[] below)
 *
 * Each command parses its options, starts the target and returns its exit code through one
 * exit path (its option helpers print and return, they never exit).
 * TARGET is a folder with target.json, or --sandbox PATH --requires JSON|@FILE.
 * Exit codes: 0 nothing escaped, 1 something escaped (with --expect escape: something did
 * not), 2 bad usage or input, 3 the target failed to load, 4 harness error. */
#define _GNU_SOURCE /* nftw, realpath */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backstop.h"
#include "confine.h"
#include "campaign.h"
#include "eval.h"
#include "explain.h"
#include "fsutil.h"
#include "gate.h"
#include "replay.h"
#include "reproducer.h"
#include "session.h"
#include "source.h"
#include "source_holes.h"
#include "spawn.h"
#include "sweep.h"
#include "timelimit.h"
#include "holes.h"
#include "source_triage.h"
#include "triage.h"
#include "xalloc.h"

#ifndef GATECRASH_SOURCE_DIR
#define GATECRASH_SOURCE_DIR "."
#endif
#ifndef GATECRASH_VERSION
#define GATECRASH_VERSION "unknown"
#endif

static const char usage_target[] =
    "TARGET: a folder with target.json, or\n"
    "  --sandbox PATH        the gate module (with --requires instead of a folder)\n"
    "  --requires JSON|@FILE the host's requires block, inline or from a file\n"
    "  --adapter PATH        a source target's adapter (with --requires)\n"
    "  --venv DIR            the virtual environment a source target's sandbox is installed in\n"
    "  --mode reach|effect   override the target's oracle mode\n"
    "  --require-confinement exit 4 when Landlock cannot confine writes\n";
static const char usage_exit[] = "exit: 0 nothing escaped, 1 escaped, 2 bad usage/input, 3 target failed to load,\n"
                                 "      4 harness error\n";
static const char usage_campaign[] =
    "  --engine libfuzzer|afl  engine (libfuzzer)        --time S    seconds of fuzzing (60)\n"
    "  --jobs N    parallel jobs (1)                      --runs N    stop after N inputs\n"
    "  --seed N    engine seed (0: the engine picks)      --corpus DIR  seeds in, merged corpus back\n"
    "  --out DIR   campaign folder (out/NAME/...)         --dict FILE   dictionary (dict/gatecrash.dict)\n"
    "  --fuzzer PATH  the engine binary (fuzz_gate or fuzz_gate_afl beside gatecrash)\n"
    "  --seed-sweep-depth N  first sweep to depth N, its escapes reported, its frontier seeded (3, a source target 4; 0: off)\n"
    "  --no-sweep-seed       the same as --seed-sweep-depth 0: the engine alone\n"
    "  --no-harvest          calls get no harvested arguments (the mutator as before issue 16)\n";

/* Each command: its synopsis, then its own options (the target's and the campaign's are
 * shared text above). */
static const struct {
    const char *name, *text;
    int campaign;
} commands[] = {
    {"replay",
     "gatecrash replay TARGET [options] FILE|DIR...   run saved chains, one verdict each\n"
     "  --expect escape|blocked  what every case must do (blocked)\n"
     "  --raw     decode files as fuzz inputs, not strict chain files\n"
     "  --json    also print each escape as one JSON object\n"
     "  -q, --quiet  do not print the gate's start-up log\n",
     0},
    {"fuzz",
     "gatecrash fuzz TARGET [options]   run an engine, replay its crash inputs live, end with a table\n"
     "  --by hole|signature  the table: one row per hole, its chain minimized (hole), or per signature\n",
     1},
    {"triage",
     "gatecrash triage TARGET [options] CRASH...|DIR   minimize, de-duplicate and save escapes as cases\n"
     "  --out DIR         case folder (escapes/NAME)\n"
     "  --found-by NAME   provenance written into each case (libFuzzer)\n"
     "  --standalone      also write each new case's standalone reproducer (<case>.py;\n"
     "                    a source target's case is <case>.py, its reproducer <case>.repro.py)\n"
     "  --tables FILE     write the reproducer runner's tables (escapes/_tables.py) and exit\n",
     0},
    {"explain",
     "gatecrash explain TARGET [options] FILE   step by step: what each value is, and the verdict\n"
     "  --raw   decode the file as a fuzz input\n",
     0},
    {"sweep",
     "gatecrash sweep TARGET [options]   exhaustive, bounded breadth-first search\n"
     "  --depth D       chain depth (3; a source target's 4)  --max-nodes N  objects visited at most (2000000)\n"
     "  --time S        stop after S seconds        --save DIR     triage the finds into DIR\n"
     "  --by hole|signature  one row per hole (hole), or the flat list of signatures\n"
     "  --close HOLE    sweep with that hole's edges removed (repeatable; docs/HOLES.md)\n"
     "  --json          one JSON object per finding  -q, --quiet\n",
     0},
    {"advise",
     "gatecrash advise TARGET [options]   the fewest holes to close, what closing each means, proven by the sweep\n"
     "  --depth D       sweep depth (4)             --max-nodes N  objects visited at most (2000000)\n"
     "  --verify        also print the sweep with the cut closed (sweep --close)\n"
     "  --json          one JSON object             -q, --quiet\n",
     0},
    {"gate",
     "gatecrash gate TARGET [options]   release gate: saved cases blocked, fuzzing (and sweep) find nothing\n"
     "  --escapes DIR      saved cases (escapes/NAME)     --report DIR  report folder (out/NAME/gate-report)\n"
     "  --sweep-depth D    also sweep to depth D          --time 0      replay only, no fuzzing\n"
     "  --progress FILE    report.html's chart: a campaign's progress.tsv (default: this run's)\n"
     "  --previous FILE    report.html's changes: the previous report.json\n",
     1},
};

static void usage(FILE *f)
{
    fputs("usage:\n", f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %.*s\n", (int)strcspn(commands[i].text, "\n"), commands[i].text);
    fputs("  gatecrash --help | --version | COMMAND --help (a command's options)\n", f);
    fputs(usage_target, f);
    fputs(usage_exit, f);
}

/* `gatecrash COMMAND --help`: the command's synopsis and every option it takes. */
static void command_usage(int k)
{
    printf("usage: %s", commands[k].text);
    if (commands[k].campaign)
        fputs(usage_campaign, stdout);
    fputs(usage_target, stdout);
    fputs(usage_exit, stdout);
}

/* One line for an option a command does not know (or one missing its value). */
static int bad_option(const char *cmd, const char *opt)
{
    gc_die_msg("unknown or incomplete option %s (gatecrash %s --help lists the options)", opt, cmd);
    return GC_EXIT_USAGE;
}

/* "gatecrash 0.2.0 (CPython 3.11.2, libFuzzer yes, AFL++ no)": the engines are the
 * binaries built beside this one. */
static void print_version(void)
{
    char dir[PATH_MAX], p[PATH_MAX + 32];
    gc_exe_dir(dir, sizeof dir);
    const char *py = Py_GetVersion(); /* safe before Py_Initialize */
    snprintf(p, sizeof p, "%s/fuzz_gate", dir);
    int lf = access(p, X_OK) == 0;
    snprintf(p, sizeof p, "%s/fuzz_gate_afl", dir);
    int afl = access(p, X_OK) == 0;
    printf("gatecrash %s (CPython %.*s, libFuzzer %s, AFL++ %s)\n", GATECRASH_VERSION, (int)strcspn(py, " "), py,
           lf ? "yes" : "no", afl ? "yes" : "no");
}

/* Common target options: 1 if argv[*i] was one (and consumed its value), 0 if not, -1 when
 * its value is missing (message printed). */
static int target_opt(int argc, char **argv, int *i, gc_session_opts *o)
{
    const char *a = argv[*i];
    const char **slot = strcmp(a, "--sandbox") == 0 ? &o->sandbox
                      : strcmp(a, "--requires") == 0 ? &o->requires
                      : strcmp(a, "--adapter") == 0 ? &o->adapter
                      : strcmp(a, "--venv") == 0 ? &o->venv
                      : strcmp(a, "--mode") == 0 ? &o->mode
                      : strcmp(a, "--target") == 0 ? &o->target_dir : NULL;
    if (!slot)
        return 0;
    if (*i + 1 >= argc) {
        gc_die_msg("%s needs a value", a);
        return -1;
    }
    *slot = argv[++*i];
    return 1;
}

/* Where the command was started: relative paths are relative to it, even after the
 * process moves into its scratch folder. */
static char gc_start_dir[PATH_MAX] = ".";

/* Make the target's paths absolute (they are handed to child processes, which start
 * elsewhere).  0 or an exit code. */
static int absolutize_target(gc_session_opts *o)
{
    static char dir[PATH_MAX], sandbox[PATH_MAX], req[PATH_MAX + 1], adapter[PATH_MAX], venv[PATH_MAX];
    if (o->target_dir) {
        if (!realpath(o->target_dir, dir)) {
            gc_die_msg("target folder %s not found", o->target_dir);
            return GC_EXIT_USAGE;
        }
        o->target_dir = dir;
    }
    if (o->sandbox && realpath(o->sandbox, sandbox))
        o->sandbox = sandbox;
    if (o->adapter && realpath(o->adapter, adapter))
        o->adapter = adapter;
    if (o->venv && realpath(o->venv, venv))
        o->venv = venv;
    if (o->requires && o->requires[0] == '@' && realpath(o->requires + 1, req + 1)) {
        req[0] = '@';
        o->requires = req;
    }
    return 0;
}

/* A fresh scratch folder (malloc'd path), or NULL with a message. */
static char *make_scratch(void)
{
    const char *tmp = getenv("TMPDIR");
    char *p = gc_xmalloc(PATH_MAX);
    snprintf(p, PATH_MAX, "%s/gatecrash-scratch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(p)) {
        gc_die_msg("cannot create a scratch folder: %s", strerror(errno));
        free(p);
        return NULL;
    }
    return p;
}

/* The scratch folder and everything in it; the folder itself goes through the spawner,
 * which may write the folder it is in (confine.h). */
static void remove_scratch(const char *scratch)
{
    gc_rm_tree(scratch);
    gc_spawn_rmdir(scratch);
}

/* Before the command's first chain: writes confined (confine.h) to the folders listed
 * (NULL-terminated; the scratch folder first).  0 or an exit code. */
static int confine_to(const char *const dirs[])
{
    for (int i = 0; dirs[i]; i++)
        gc_confine_grant(dirs[i]);
    return gc_confine_self();
}

/* Make a scratch folder and start the target in it (quietly unless asked); on failure the
 * scratch folder is gone again (its path, in *scratch, is the caller's to free either way).
 * Returns 0 or an exit code. */
static int start_in_scratch(gc_target *t, gc_session_opts *o, char **scratch, int quiet)
{
    if (!(*scratch = make_scratch()))
        return GC_EXIT_HARNESS;
    o->scratch = *scratch;
    o->quiet = quiet;
    int rc = gc_session_start(t, o);
    if (rc)
        remove_scratch(*scratch);
    return rc;
}

/* start_in_scratch, then writes confined to the scratch folder and 'also' (NULL: none);
 * on failure the scratch folder is gone again. */
static int start_confined(gc_target *t, gc_session_opts *o, char **scratch, int quiet, const char *also)
{
    int rc = start_in_scratch(t, o, scratch, quiet);
    if (!rc && (rc = confine_to((const char *[]){*scratch, also, NULL})))
        remove_scratch(*scratch);
    return rc;
}


/* A case folder: 'given' (relative to where the command started) or escapes/<name>;
 * created, made absolute into out.  0 or an exit code. */
static int case_folder(const char *given, const char *name, char out[PATH_MAX])
{
    char tmp[PATH_MAX * 2];
    if (given && given[0] == '/')
        snprintf(tmp, sizeof tmp, "%s", given);
    else if (given)
        snprintf(tmp, sizeof tmp, "%s/%s", gc_start_dir, given);
    else
        snprintf(tmp, sizeof tmp, "%s/escapes/%s", gc_start_dir, name);
    if (gc_mkdirs(tmp) < 0 || !realpath(tmp, out)) {
        gc_die_msg("cannot create case folder %s", tmp);
        return GC_EXIT_USAGE;
    }
    return 0;
}

/* ---- replay ---- */

/* --json for an input stopped by a limit: {"limit":"timeout"|"oom","escaped":false,"steps":N} */
static void print_limit_json(const gc_verdict *out)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "limit", out->timed_out ? "timeout" : "oom");
    cJSON_AddFalseToObject(j, "escaped");
    cJSON_AddNumberToObject(j, "steps", out->steps);
    gc_json_print(j);
}

/* replay's options and the chain files they name. */
typedef struct {
    gc_session_opts o;
    int expect_escape, raw, json;
    gc_strlist args, files; /* args: TARGET (unless given as an option), then FILE|DIR... */
    gc_strlist programs;    /* the same for a source target: a folder's *.py (gc_collect_programs) */
} replay_args;

/* 0 or GC_EXIT_USAGE (message printed). */
static int replay_options(int argc, char **argv, replay_args *r)
{
    gc_strlist *args = &r->args;
    int rc = 0;
    for (int i = 0; i < argc && !rc; i++) {
        const char *a = argv[i];
        int k = target_opt(argc, argv, &i, &r->o);
        if (k)
            rc = k < 0 ? GC_EXIT_USAGE : 0;
        else if (strcmp(a, "--expect") == 0 && i + 1 < argc) {
            const char *e = argv[++i];
            if (strcmp(e, "escape") == 0 || strcmp(e, "blocked") == 0)
                r->expect_escape = strcmp(e, "escape") == 0;
            else {
                gc_die_msg("--expect takes escape or blocked");
                rc = GC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--raw") == 0)
            r->raw = 1;
        else if (strcmp(a, "--json") == 0)
            r->json = 1;
        else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
            r->o.quiet = 1;
        else if (a[0] == '-' && a[1])
            rc = bad_option("replay", a);
        else
            gc_sl_add(args, a);
    }
    int first = 0;
    if (!rc && !r->o.sandbox && !r->o.adapter && !r->o.target_dir) {
        if (args->n == 0) {
            gc_die_msg("replay needs a TARGET (gatecrash replay --help)");
            rc = GC_EXIT_USAGE;
        } else
            r->o.target_dir = args->v[first++];
    }
    if (!rc && first >= args->n) {
        gc_die_msg("replay needs at least one chain file or folder");
        rc = GC_EXIT_USAGE;
    }
    for (int i = first; i < args->n && !rc; i++)
        if (gc_collect_inputs(args->v[i], &r->files) < 0 || gc_collect_programs(args->v[i], &r->programs) < 0)
            rc = GC_EXIT_USAGE;
    return rc;
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

static int cmd_replay(int argc, char **argv)
{
    replay_args r = {0};
    char *scratch = NULL;
    gc_target t = {0};
    r.o.source_ok = 1;
    int rc = replay_options(argc, argv, &r);
    if (!rc && !(rc = start_confined(&t, &r.o, &scratch, r.o.quiet, NULL))) {
        if (t.spec.kind == GC_TARGET_SOURCE) { /* a source target's files are programs */
            gc_strlist chains = r.files;
            r.files = r.programs;
            r.programs = chains;
        }
        rc = replay_all(&t, &r);
        remove_scratch(scratch);
    }
    free(scratch);
    gc_target_spec_free(&t.spec);
    gc_sl_free(&r.files);
    gc_sl_free(&r.programs);
    gc_sl_free(&r.args);
    return rc;
}

/* ---- fuzz ---- */

/* The non-negative integer 's' into *v: 0, or -1 with a message naming the option 'what'. */
static int parse_long(const char *s, const char *what, long *v)
{
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (errno || *end || n < 0) {
        gc_die_msg("%s must be a non-negative integer", what);
        return -1;
    }
    *v = n;
    return 0;
}

/* Campaign options shared by `fuzz` and `gate`: 1 if argv[*i] was one, 0 if not, -1 when its
 * value is bad (message printed). */
/* The hybrid's options (campaign_opt): the sweep first to this depth (0: none). */
static long seed_sweep_depth = 3;
static int seed_sweep_set;    /* given on the command line (else a source target's is GC_SOURCE_SWEEP_DEPTH) */
static int hybrid_opt(int argc, char **argv, int *i, gc_campaign_opts *c)
{
    if (strcmp(argv[*i], "--no-sweep-seed") == 0)
        return (seed_sweep_depth = 0, seed_sweep_set = 1);
    if (strcmp(argv[*i], "--no-harvest") == 0)
        return (c->no_harvest = 1, 1);
    if (strcmp(argv[*i], "--seed-sweep-depth") == 0 && *i + 1 < argc)
        return (seed_sweep_set = 1, parse_long(argv[++*i], "--seed-sweep-depth", &seed_sweep_depth) < 0 ? -1 : 1);
    return 0;
}

static int campaign_opt(int argc, char **argv, int *i, gc_campaign_opts *c, const char **corpus,
                        const char **outdir, const char **dict, const char **fuzzer)
{
    const char *a = argv[*i];
    int k = hybrid_opt(argc, argv, i, c);
    if (k)
        return k;
    if (*i + 1 >= argc)
        return 0;
    const char *val = argv[*i + 1];
    long *num = strcmp(a, "--time") == 0 ? &c->seconds
              : strcmp(a, "--jobs") == 0 ? &c->jobs
              : strcmp(a, "--seed") == 0 ? &c->seed
              : strcmp(a, "--runs") == 0 ? &c->runs : NULL;
    if (num) {
        if (parse_long(val, a, num) < 0)
            return -1;
    } else if (strcmp(a, "--corpus") == 0)
        *corpus = val;
    else if (strcmp(a, "--out") == 0)
        *outdir = val;
    else if (strcmp(a, "--dict") == 0)
        *dict = val;
    else if (strcmp(a, "--fuzzer") == 0)
        *fuzzer = val;
    else if (strcmp(a, "--engine") == 0) {
        int e = gc_engine_parse(val);
        if (e < 0) {
            gc_die_msg("--engine must be libfuzzer or afl, not '%s'", val);
            return -1;
        }
        c->engine = (gc_engine)e;
    } else
        return 0;
    ++*i;
    return 1;
}

/* Resolve the campaign's paths (absolute, defaults from the source tree) and make its
 * folders.  Buffers are owned by the caller. */
static int campaign_paths(gc_campaign_opts *c, const gc_target *t, const char *corpus, const char *outdir,
                          const char *dict, const char *fuzzer, char out_abs[PATH_MAX], char seeds[PATH_MAX],
                          char dict_abs[PATH_MAX], char fuzz_bin[PATH_MAX])
{
    char tmp[PATH_MAX * 2], bindir[PATH_MAX];
    static char merger[PATH_MAX + 16], corpus_out[PATH_MAX + 16];
    int source = t->spec.kind == GC_TARGET_SOURCE; /* fuzz_source, its seeds corpus-source */
    gc_exe_dir(bindir, sizeof bindir);
    snprintf(fuzz_bin, PATH_MAX, "%s/%s", bindir,
             source ? "fuzz_source" : c->engine == GC_ENGINE_AFL ? "fuzz_gate_afl" : "fuzz_gate");
    if (fuzzer && !realpath(fuzzer, fuzz_bin))
        snprintf(fuzz_bin, PATH_MAX, "%s", fuzzer);
    /* the corpus merge runs the libFuzzer binary: the one given, or the one beside us */
    snprintf(merger, sizeof merger, "%s", c->engine == GC_ENGINE_LIBFUZZER ? fuzz_bin : "");
    static char afl_mutator[PATH_MAX + 40];
    if (c->engine == GC_ENGINE_AFL) {
        snprintf(merger, sizeof merger, "%s/fuzz_gate", bindir);
        snprintf(afl_mutator, sizeof afl_mutator, "%s/libgatecrash_afl_mutator.so", bindir);
        c->afl_mutator = afl_mutator;
    }
    c->merger = merger;
    snprintf(tmp, sizeof tmp, "%s", outdir ? outdir : "");
    if (!outdir)
        snprintf(tmp, sizeof tmp, "%s/out/%s", gc_start_dir, t->spec.name);
    if (gc_mkdirs(tmp) < 0 || !realpath(tmp, out_abs)) {
        gc_die_msg("cannot create output folder %s", tmp);
        return GC_EXIT_USAGE;
    }
    snprintf(tmp, sizeof tmp, "%s", corpus ? corpus : source ? GATECRASH_SOURCE_DIR "/corpus-source"
                                                             : GATECRASH_SOURCE_DIR "/corpus");
    struct stat st;
    if (!corpus && source && stat(tmp, &st) != 0) { /* no seed programs: an empty folder */
        snprintf(tmp, sizeof tmp, "%s/no-seeds", out_abs);
        gc_mkdirs(tmp);
    }
    if (!realpath(tmp, seeds)) {
        gc_die_msg("corpus folder %s is not readable", tmp);
        return GC_EXIT_USAGE;
    }
    snprintf(tmp, sizeof tmp, "%s", dict ? dict : GATECRASH_SOURCE_DIR "/dict/gatecrash.dict");
    if (!realpath(tmp, dict_abs)) {
        gc_die_msg("dictionary %s is not readable", tmp);
        return GC_EXIT_USAGE;
    }
    /* --corpus DIR is the campaign's own corpus: seeds from it, the merged finds back into
     * it.  Without it the seeds are the repository's corpus/ (never written) and the merged
     * corpus stays in the output folder. */
    snprintf(corpus_out, sizeof corpus_out, "%s/corpus", out_abs);
    if (corpus)
        snprintf(corpus_out, sizeof corpus_out, "%s", seeds);
    c->corpus_out = corpus_out;
    c->out = out_abs;
    c->seeds = seeds;
    c->dict = dict_abs;
    c->fuzzer = fuzz_bin;
    return gc_campaign_prepare(c);
}

/* A scratch folder for the CLI's own evaluations, under the campaign's output. */
static int open_for_campaign(gc_target *t, gc_session_opts *o, const char *out_abs, char *rscratch, size_t len)
{
    snprintf(rscratch, len, "%s/scratch-replay", out_abs);
    gc_rm_tree(rscratch);
    gc_mkdirs(rscratch);
    o->scratch = rscratch;
    o->quiet = 1;
    return gc_session_start(t, o);
}

/* The hybrid's first phase (gc_campaign_opts.presweep): a bounded sweep to depth *ctx, its
 * escapes' chains and its frontier (sweep.h).  Bounded by nodes and, on a machine slow
 * enough to need it, by time: the campaign reports its escapes in its first second or so. */
#define SEED_SWEEP_NODES 50000
#define SEED_SWEEP_SECONDS 2
#define SEED_SWEEP_MAX 2000
static int fuzz_presweep(void *ctx, gc_target *t, gc_finding **escapes, int *nescapes, gc_inputs *inputs,
                         gc_inputs *frontier)
{
    (void)inputs; /* a chain's crash input is its text */
    gc_sweep_opts so = {.depth = (int)*(long *)ctx, .max_nodes = SEED_SWEEP_NODES, .seconds = SEED_SWEEP_SECONDS,
                        .quiet = 1, .no_report = 1};
    gc_holes_sweep_setup(&so, t, NULL); /* an escape per signature and hole, as `sweep` finds them */
    gc_sweep_stats st;
    int rc = gc_sweep(t, &so, &st);
    if (rc)
        return rc;
    *nescapes = gc_sweep_findings(escapes);
    gc_strlist chains = {0};
    gc_sweep_frontier(&chains, SEED_SWEEP_MAX);
    for (int i = 0; i < chains.n; i++)
        gc_inputs_add(frontier, chains.v[i], strlen(chains.v[i]));
    gc_sl_free(&chains);
    return 0;
}

/* The same for a source target: source_sweep.h's sweep (its generator root included), its
 * escapes' and frontier's programs as encodings, for fuzz_source.  Programs run through
 * evaluate are slower than chains: a longer time bound. */
#define SOURCE_SEED_SWEEP_SECONDS 10
static int source_presweep(void *ctx, gc_target *t, gc_finding **escapes, int *nescapes, gc_inputs *inputs,
                           gc_inputs *frontier)
{
    gc_sweep_opts so = {.depth = (int)*(long *)ctx, .max_nodes = SEED_SWEEP_NODES,
                        .seconds = SOURCE_SEED_SWEEP_SECONDS, .quiet = 1, .no_report = 1};
    gc_holes_sweep_setup(&so, t, NULL);
    gc_sweep_stats st;
    int rc = gc_source_sweep(t, &so, &st);
    if (rc)
        return rc;
    *nescapes = gc_source_sweep_findings(escapes);
    gc_source_sweep_inputs(inputs);
    gc_source_sweep_frontier(frontier, SEED_SWEEP_MAX);
    return 0;
}

/* A source target's campaign (fuzz_source under libFuzzer): its escapes' holes from
 * gc_source_hole (the table is by hole, as for gates), the source sweep first (to
 * GC_SOURCE_SWEEP_DEPTH unless given).  0, or GC_EXIT_USAGE for AFL++. */
static int source_campaign(gc_campaign_opts *c)
{
    if (c->engine == GC_ENGINE_AFL) {
        gc_die_msg("--engine afl does not take a source target (fuzz_source runs under libFuzzer only)");
        return GC_EXIT_USAGE;
    }
    c->hole_of = NULL;
    c->source_hole_of = gc_source_hole;
    if (!seed_sweep_set)
        seed_sweep_depth = GC_SOURCE_SWEEP_DEPTH;
    return 0;
}

/* A campaign (fuzz, gate) starts with the hybrid's sweep unless --no-sweep-seed: over
 * programs for a source target (source_sweep.h), over chains for a gate. */
static void use_presweep(gc_campaign_opts *c, const gc_target *t)
{
    if (seed_sweep_depth > 0) {
        c->presweep = t->spec.kind == GC_TARGET_SOURCE ? source_presweep : fuzz_presweep;
        c->presweep_ctx = &seed_sweep_depth;
    }
}

static int cmd_fuzz(int argc, char **argv)
{
    gc_session_opts o = {.source_ok = 1}; /* a source target: fuzz_source */
    gc_campaign_opts c = {.target = &o, .seconds = 60, .jobs = 1, .runs = -1, .hole_of = gc_holes_campaign_hook};
    const char *corpus = NULL, *outdir = NULL, *dict = NULL, *fuzzer = NULL, *by = "hole";
    gc_strlist pos = {0};
    gc_target t = {0};
    int rc = GC_EXIT_USAGE;
    for (int i = 0; i < argc; i++) {
        int k = target_opt(argc, argv, &i, &o);
        if (!k)
            k = campaign_opt(argc, argv, &i, &c, &corpus, &outdir, &dict, &fuzzer);
        if (k < 0)
            goto out;
        if (k)
            continue;
        if (strcmp(argv[i], "--by") == 0 && i + 1 < argc && (!strcmp(argv[i + 1], "hole") || !strcmp(argv[i + 1], "signature"))) {
            by = argv[++i];
            continue;
        }
        if (argv[i][0] == '-') {
            rc = bad_option("fuzz", argv[i]);
            goto out;
        }
        gc_sl_add(&pos, argv[i]);
    }
    if (!o.sandbox && !o.adapter && !o.target_dir && pos.n > 0)
        o.target_dir = pos.v[0];
    if (!o.sandbox && !o.adapter && !o.target_dir) {
        gc_die_msg("fuzz needs a TARGET (gatecrash fuzz --help)");
        goto out;
    }
    if ((rc = absolutize_target(&o)))
        goto out;
    /* Load the target first: a bad target is an error before any engine starts, and the
     * same interpreter replays the engine's crash inputs as they appear. */
    gc_session_opts so = o;
    so.scratch = NULL;
    char out_abs[PATH_MAX], seeds[PATH_MAX], dict_abs[PATH_MAX], fuzz_bin[PATH_MAX], rscratch[PATH_MAX + 32];
    /* the output folder is named after the target; read its name without starting Python */
    gc_target_spec spec;
    if ((rc = gc_session_spec(&o, &spec)))
        goto out;
    snprintf(t.spec.name, sizeof t.spec.name, "%s", spec.name);
    t.spec.kind = spec.kind;
    rc = spec.kind == GC_TARGET_SOURCE ? source_campaign(&c) : 0;
    if (!rc)
        rc = campaign_paths(&c, &t, corpus, outdir, dict, fuzzer, out_abs, seeds, dict_abs, fuzz_bin);
    gc_target_spec_free(&spec);
    if (rc || (rc = open_for_campaign(&t, &so, out_abs, rscratch, sizeof rscratch)) ||
        (rc = confine_to((const char *[]){out_abs, c.corpus_out, NULL})))
        goto out;
    fprintf(stderr, "gatecrash: fuzzing %s for %lds with %ld job(s) of %s; crashes in %s/%s\n", t.spec.name,
            c.seconds, c.jobs, c.engine == GC_ENGINE_AFL ? "AFL++" : "libFuzzer", out_abs,
            c.engine == GC_ENGINE_AFL ? "afl/*/crashes" : "crashes");
    use_presweep(&c, &t);
    gc_campaign_result r;
    rc = gc_campaign_run(&t, &c, &r);
    gc_rm_tree(rscratch);
    if (rc)
        goto out;
    if (strcmp(by, "hole") == 0 && t.spec.kind != GC_TARGET_SOURCE)
        gc_holes_campaign_table(&t, &r, t.spec.name, 30);
    else
        gc_campaign_print_table(&r, t.spec.name);
    if (r.merged)
        printf("corpus: %lu input(s) after merging into %s\n", r.merged, c.corpus_out);
    rc = r.nfound ? GC_EXIT_ESCAPE : GC_EXIT_OK;
    gc_campaign_result_free(&r);
out:
    gc_target_spec_free(&t.spec);
    gc_sl_free(&pos);
    return rc;
}

/* ---- triage ---- */

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

static int cmd_triage(int argc, char **argv)
{
    gc_session_opts o = {0};
    const char *outdir = NULL, *found_by = "libFuzzer", *tables = NULL;
    int standalone = 0;
    gc_strlist pos = {0}, files = {0};
    char *scratch = NULL;
    gc_target t = {0};
    int rc = GC_EXIT_USAGE;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int k = target_opt(argc, argv, &i, &o);
        if (k < 0)
            goto out;
        if (k)
            continue;
        if (strcmp(a, "--out") == 0 && i + 1 < argc)
            outdir = argv[++i];
        else if (strcmp(a, "--found-by") == 0 && i + 1 < argc)
            found_by = argv[++i];
        else if (strcmp(a, "--tables") == 0 && i + 1 < argc)
            tables = argv[++i];
        else if (strcmp(a, "--standalone") == 0)
            standalone = 1;
        else if (a[0] == '-') {
            rc = bad_option("triage", a);
            goto out;
        } else
            gc_sl_add(&pos, a);
    }
    if (tables) {
        rc = write_tables(tables);
        goto out;
    }
    int first = 0;
    if (!o.sandbox && !o.adapter && !o.target_dir && pos.n > 0) {
        o.target_dir = pos.v[0];
        first = 1;
    }
    if ((!o.sandbox && !o.adapter && !o.target_dir) || first >= pos.n) {
        gc_die_msg("usage: gatecrash triage TARGET [--out escapes/NAME] [--standalone] CRASH...|DIR");
        goto out;
    }
    if ((rc = absolutize_target(&o)))
        goto out;
    rc = GC_EXIT_USAGE;
    for (int i = first; i < pos.n; i++)
        if (gc_collect_inputs(pos.v[i], &files) < 0)
            goto out;
    o.source_ok = 1;
    if ((rc = start_in_scratch(&t, &o, &scratch, 1)))
        goto out;
    char out_abs[PATH_MAX], exe[PATH_MAX];
    if ((rc = case_folder(outdir, t.spec.name, out_abs)) || (rc = confine_to((const char *[]){scratch, out_abs, NULL}))) {
        remove_scratch(scratch);
        goto out;
    }
    gc_exe_path(exe, sizeof exe); /* to re-run cases in fresh processes */
    gc_triage_opts to = {exe, &o, out_abs, found_by, 0, standalone};
    gc_triage_summary sum = {0};
    for (int i = 0; i < files.n; i++) {
        if (t.spec.kind == GC_TARGET_SOURCE)
            gc_source_triage_one(&t, &to, files.v[i], &sum);
        else
            gc_triage_one(&t, &to, files.v[i], &sum);
        fflush(stdout);
    }
    remove_scratch(scratch);
    printf("triage of %d input(s) into %s: %d new, %d known, %d not reproducible (flaky), %d rejected (garbage)\n",
           files.n, out_abs, sum.new_cases, sum.known, sum.flaky, sum.rejected);
out:
    free(scratch);
    gc_target_spec_free(&t.spec);
    gc_sl_free(&files);
    gc_sl_free(&pos);
    return rc;
}

/* ---- explain ---- */

static int cmd_explain(int argc, char **argv)
{
    gc_session_opts o = {0};
    int raw = 0, rc = GC_EXIT_USAGE;
    gc_strlist pos = {0};
    char *scratch = NULL;
    gc_target t = {0};
    for (int i = 0; i < argc; i++) {
        int k = target_opt(argc, argv, &i, &o);
        if (k < 0)
            goto out;
        if (k)
            continue;
        if (strcmp(argv[i], "--raw") == 0)
            raw = 1;
        else if (argv[i][0] == '-') {
            rc = bad_option("explain", argv[i]);
            goto out;
        } else
            gc_sl_add(&pos, argv[i]);
    }
    int first = 0;
    if (!o.sandbox && !o.target_dir && pos.n > 0) {
        o.target_dir = pos.v[0];
        first = 1;
    }
    if ((!o.sandbox && !o.target_dir) || first + 1 != pos.n) {
        gc_die_msg("usage: gatecrash explain TARGET FILE");
        goto out;
    }
    size_t len = 0;
    unsigned char *data = gc_read_file(pos.v[first], &len);
    if (!data) {
        gc_die_msg("cannot read %s", pos.v[first]);
        goto out;
    }
    static gc_chain chain;
    gc_parse_error perr;
    int prc = gc_chain_parse(data, len, raw ? GC_PARSE_LENIENT : GC_PARSE_STRICT, &chain, &perr);
    free(data);
    if (prc < 0 || chain.nstmts == 0) {
        gc_die_msg("%s:%d:%d: %s", pos.v[first], perr.line, perr.col, prc < 0 ? perr.msg : "no statement");
        goto out;
    }
    if ((rc = start_confined(&t, &o, &scratch, o.quiet, NULL)))
        goto out;
    static gc_outcome out;
    rc = gc_explain(&t, &chain, &out);
    remove_scratch(scratch);
out:
    free(scratch);
    gc_target_spec_free(&t.spec);
    gc_sl_free(&pos);
    return rc;
}

/* ---- gate ---- */

/* gate's options, and the folders made absolute from them (triage/gate.h runs the gate). */
typedef struct {
    gc_session_opts o;
    gc_campaign_opts c;
    const char *corpus, *outdir, *dict, *fuzzer, *escapes, *report;
    long sweep_depth;
    gc_strlist pos;
    char progress[PATH_MAX], previous[PATH_MAX]; /* report.html's inputs (absolute), or "" */
    char esc_abs[PATH_MAX * 2], rep_abs[PATH_MAX], out_abs[PATH_MAX], seeds[PATH_MAX], dict_abs[PATH_MAX],
        fuzz_bin[PATH_MAX], rscratch[PATH_MAX + 32];
} gate_args;

/* gate --progress FILE / --previous FILE: a file report.html reads, made absolute into 'abs'
 * (PATH_MAX).  0, or -1 with the message printed. */
static int report_input(const char *opt, const char *path, char *abs)
{
    if (realpath(path, abs))
        return 0;
    gc_die_msg("%s %s: %s", opt, path, strerror(errno));
    return -1;
}

/* 0 or GC_EXIT_USAGE (message printed). */
static int gate_options(int argc, char **argv, gate_args *g)
{
    for (int i = 0; i < argc; i++) {
        int k = target_opt(argc, argv, &i, &g->o);
        if (!k)
            k = campaign_opt(argc, argv, &i, &g->c, &g->corpus, &g->outdir, &g->dict, &g->fuzzer);
        if (k < 0)
            return GC_EXIT_USAGE;
        if (k)
            continue;
        if (strcmp(argv[i], "--escapes") == 0 && i + 1 < argc)
            g->escapes = argv[++i];
        else if (strcmp(argv[i], "--report") == 0 && i + 1 < argc)
            g->report = argv[++i];
        else if (strcmp(argv[i], "--sweep-depth") == 0 && i + 1 < argc) {
            if (parse_long(argv[++i], "--sweep-depth", &g->sweep_depth) < 0)
                return GC_EXIT_USAGE;
        } else if ((strcmp(argv[i], "--progress") == 0 || strcmp(argv[i], "--previous") == 0) && i + 1 < argc) {
            if (report_input(argv[i], argv[i + 1], argv[i][4] == 'o' ? g->progress : g->previous) < 0)
                return GC_EXIT_USAGE;
            i++;
        } else if (argv[i][0] == '-')
            return bad_option("gate", argv[i]);
        else
            gc_sl_add(&g->pos, argv[i]);
    }
    if (!g->o.sandbox && !g->o.target_dir && g->pos.n > 0)
        g->o.target_dir = g->pos.v[0];
    if (!g->o.sandbox && !g->o.target_dir) {
        gc_die_msg("usage: gatecrash gate TARGET [--escapes DIR] [--time S] [--report DIR]");
        return GC_EXIT_USAGE;
    }
    return absolutize_target(&g->o);
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
    int source = spec.kind == GC_TARGET_SOURCE;
    const char *ext = source ? ".py" : ".chain"; /* a source target's cases are programs */
    snprintf(name, sizeof name, "%s", spec.name);
    snprintf(t->spec.name, sizeof t->spec.name, "%s", spec.name);
    t->spec.kind = spec.kind; /* campaign_paths picks the engine binary by it */
    gc_target_spec_free(&spec);
    if (g->escapes)
        snprintf(g->esc_abs, sizeof g->esc_abs, "%s", g->escapes);
    else
        snprintf(g->esc_abs, sizeof g->esc_abs, "%s/escapes/%s", gc_start_dir, name);
    snprintf(tmp, sizeof tmp, "%s", g->report ? g->report : "");
    if (!g->report)
        snprintf(tmp, sizeof tmp, "%s/out/%s/gate-report", gc_start_dir, name);
    if (gc_mkdirs(tmp) < 0 || !realpath(tmp, g->rep_abs)) {
        gc_die_msg("cannot create report folder %s", tmp);
        return GC_EXIT_USAGE;
    }
    if ((rc = gc_gate_cases(g->esc_abs, g->escapes != NULL, ext, cases)))
        return rc;
    snprintf(tmp, sizeof tmp, "%s", g->outdir ? g->outdir : "");
    if (!g->outdir)
        snprintf(tmp, sizeof tmp, "%s/out/%s/gate-campaign", gc_start_dir, name);
    if (g->c.seconds > 0 && source && (rc = source_campaign(&g->c)))
        return rc;
    if (g->c.seconds > 0)
        return campaign_paths(&g->c, t, g->corpus, tmp, g->dict, g->fuzzer, g->out_abs, g->seeds, g->dict_abs,
                              g->fuzz_bin);
    if (gc_mkdirs(tmp) == 0 && realpath(tmp, g->out_abs))
        return 0;
    gc_die_msg("cannot create output folder %s", tmp);
    return GC_EXIT_USAGE;
}

static int cmd_gate(int argc, char **argv)
{
    static gate_args g; /* its paths are large */
    g.c = (gc_campaign_opts){.target = &g.o, .seconds = 60, .jobs = 1, .runs = -1, .hole_of = gc_holes_campaign_hook};
    g.o.source_ok = 1;
    gc_strlist cases = {0};
    gc_target t = {0};
    int rc = gate_options(argc, argv, &g);
    if (!rc)
        rc = gate_folders(&g, &t, &cases);
    gc_session_opts so = g.o;
    if (!rc && !(rc = open_for_campaign(&t, &so, g.out_abs, g.rscratch, sizeof g.rscratch)) &&
        !(rc = confine_to((const char *[]){g.out_abs, g.rep_abs, g.c.corpus_out, NULL}))) { /* cases: read only */
        use_presweep(&g.c, &t); /* the fuzzing half starts with the hybrid's sweep */
        gc_gate_opts go = {g.esc_abs, g.rep_abs, gc_start_dir, &g.c, g.sweep_depth, g.rscratch,
                           g.progress[0] ? g.progress : NULL, g.previous[0] ? g.previous : NULL};
        rc = gc_gate(&t, &go, &cases);
    }
    gc_target_spec_free(&t.spec);
    gc_sl_free(&cases);
    gc_sl_free(&g.pos);
    return rc;
}

/* ---- sweep ---- */

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

/* The sweep by hole (holes.h), or the flat list of signatures of a sweep with the holes in
 * 'closed' (NULL-terminated) closed. */
static int run_sweep(gc_target *t, gc_sweep_opts *so, const char *by, const gc_strlist *closed, gc_sweep_stats *st)
{
    if (t->spec.kind == GC_TARGET_SOURCE) /* programs over the roots (source_sweep.h) */
        return strcmp(by, "hole") == 0 ? gc_source_holes_sweep(t, so, st) : gc_source_sweep(t, so, st);
    if (strcmp(by, "hole") == 0)
        return gc_holes_sweep(t, so, (const char *const *)closed->v, st);
    if (closed->n > 1)
        gc_holes_sweep_setup(so, t, (const char *const *)closed->v);
    return gc_sweep(t, so, st);
}

static int cmd_sweep(int argc, char **argv)
{
    gc_session_opts o = {.source_ok = 1};
    gc_sweep_opts so = {.depth = 3, .max_nodes = 2000000};
    long depth = -1; /* 3; a source target's, GC_SOURCE_SWEEP_DEPTH */
    const char *save = NULL, *by = "hole";
    gc_strlist pos = {0}, closed = {0};
    char *scratch = NULL;
    gc_target t = {0};
    int rc = GC_EXIT_USAGE;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int k = target_opt(argc, argv, &i, &o);
        if (k < 0)
            goto out;
        if (k)
            continue;
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        long *num = strcmp(a, "--depth") == 0 ? &depth
                  : strcmp(a, "--max-nodes") == 0 ? &so.max_nodes
                  : strcmp(a, "--time") == 0 ? &so.seconds : NULL;
        if (num && val) {
            if (parse_long(argv[++i], a, num) < 0)
                goto out;
        } else if (strcmp(a, "--save") == 0 && val)
            save = argv[++i];
        else if (strcmp(a, "--by") == 0 && val)
            by = argv[++i];
        else if (strcmp(a, "--close") == 0 && val)
            gc_sl_add(&closed, argv[++i]);
        else if (strcmp(a, "--json") == 0)
            so.json = 1;
        else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
            so.quiet = 1;
        else if (a[0] == '-') {
            rc = bad_option("sweep", a);
            goto out;
        } else
            gc_sl_add(&pos, a);
    }
    if (!o.sandbox && !o.target_dir && pos.n > 0)
        o.target_dir = pos.v[0];
    so.depth = depth == -1 ? so.depth : depth < 1 || depth > GC_MAX_TRAILERS ? 0 : (int)depth;
    if ((!o.sandbox && !o.target_dir) || so.depth == 0 || (strcmp(by, "hole") && strcmp(by, "signature"))) {
        gc_die_msg("usage: gatecrash sweep TARGET [--depth 1..%d] [--max-nodes N] [--time S] [--save DIR] "
                   "[--by hole|signature] [--close HOLE]... [--json]", GC_MAX_TRAILERS);
        goto out;
    }
    if ((rc = absolutize_target(&o)))
        goto out;
    char save_abs[PATH_MAX] = "", exe[PATH_MAX];
    if ((save && (rc = case_folder(save, NULL, save_abs))) ||
        (rc = start_confined(&t, &o, &scratch, 1, save ? save_abs : NULL)))
        goto out;
    if (depth == -1 && t.spec.kind == GC_TARGET_SOURCE)
        so.depth = GC_SOURCE_SWEEP_DEPTH;
    gc_exe_path(exe, sizeof exe); /* to re-run cases in fresh processes */
    char found_by[64];
    snprintf(found_by, sizeof found_by, "gatecrash sweep (depth %d)", so.depth);
    gc_triage_opts to = {exe, &o, save_abs, found_by, 0, 0};
    sweep_saver saver = {&to, so.depth, {0}};
    so.save = save ? save_sweep_find : NULL;
    so.save_ctx = &saver;
    gc_sweep_stats st;
    if (t.spec.kind == GC_TARGET_SOURCE && (save || closed.n)) {
        gc_die_msg("sweep %s does not take a source target yet", save ? "--save" : "--close");
        rc = GC_EXIT_USAGE;
    } else {
        gc_sl_add(&closed, NULL);
        rc = run_sweep(&t, &so, by, &closed, &st);
    }
    if (!rc && save)
        printf("saved to %s: %d new, %d known, %d not reproducible\n", save_abs, saver.sum.new_cases,
               saver.sum.known, saver.sum.flaky);
    remove_scratch(scratch);
    if (!rc)
        rc = st.escapes ? GC_EXIT_ESCAPE : GC_EXIT_OK;
out:
    free(scratch);
    gc_target_spec_free(&t.spec);
    gc_sl_free(&pos);
    gc_sl_free(&closed);
    return rc;
}

/* ---- advise ---- */

static int cmd_advise(int argc, char **argv)
{
    gc_session_opts o = {0};
    gc_sweep_opts so = {.depth = 4, .max_nodes = 2000000, .quiet = 1};
    long depth = so.depth;
    int verify = 0;
    gc_strlist pos = {0};
    char *scratch = NULL;
    gc_target t = {0};
    int rc = GC_EXIT_USAGE;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int k = target_opt(argc, argv, &i, &o);
        if (k < 0)
            goto out;
        if (k)
            continue;
        long *num = strcmp(a, "--depth") == 0 ? &depth : strcmp(a, "--max-nodes") == 0 ? &so.max_nodes : NULL;
        if (num && i + 1 < argc) {
            if (parse_long(argv[++i], a, num) < 0)
                goto out;
        } else if (strcmp(a, "--json") == 0)
            so.json = 1;
        else if (strcmp(a, "--verify") == 0)
            verify = 1;
        else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
            continue;
        else if (a[0] == '-') {
            rc = bad_option("advise", a);
            goto out;
        } else
            gc_sl_add(&pos, a);
    }
    if (!o.sandbox && !o.target_dir && pos.n > 0)
        o.target_dir = pos.v[0];
    so.depth = depth == -1 ? so.depth : depth < 1 || depth > GC_MAX_TRAILERS ? 0 : (int)depth;
    if ((!o.sandbox && !o.target_dir) || so.depth == 0) {
        gc_die_msg("usage: gatecrash advise TARGET [--depth 1..%d] [--max-nodes N] [--verify] [--json]",
                   GC_MAX_TRAILERS);
        goto out;
    }
    if ((rc = absolutize_target(&o)) || (rc = start_confined(&t, &o, &scratch, 1, NULL)))
        goto out;
    rc = gc_advise(&t, &so, verify);
    remove_scratch(scratch);
out:
    free(scratch);
    gc_target_spec_free(&t.spec);
    gc_sl_free(&pos);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        gc_die_msg("no command given (gatecrash --help lists the commands)");
        return GC_EXIT_USAGE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return GC_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        print_version();
        return GC_EXIT_OK;
    }
    int k = -1;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            k = (int)i;
    if (k < 0) {
        gc_die_msg("unknown command '%s' (gatecrash --help lists the commands)", argv[1]);
        return GC_EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++) /* -h/--help anywhere after the command */
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            command_usage(k);
            return GC_EXIT_OK;
        }
    signal(SIGPIPE, SIG_IGN);
    gc_confine_take_option(&argc, argv); /* --require-confinement, anywhere (confine.h) */
    if (!getcwd(gc_start_dir, sizeof gc_start_dir))
        snprintf(gc_start_dir, sizeof gc_start_dir, ".");
    /* The seccomp backstop (backstop.h) before anything runs a chain: commands get the
     * processes they start (engines, fresh-process replays) from a spawner forked first,
     * which also removes their scratch folder once Landlock confines them (confine.h). */
    {
        char err[256];
        if (gc_spawner_start(err, sizeof err) != 0 || gc_backstop_arm(err, sizeof err) != 0) {
            gc_die_msg("%s", err);
            return GC_EXIT_HARNESS;
        }
    }
    gc_limits_catch_crashes(); /* an input that crashes CPython: one line, exit 4 */
    if (strcmp(argv[1], "replay") == 0)
        return cmd_replay(argc - 2, argv + 2);
    if (strcmp(argv[1], "fuzz") == 0)
        return cmd_fuzz(argc - 2, argv + 2);
    if (strcmp(argv[1], "triage") == 0)
        return cmd_triage(argc - 2, argv + 2);
    if (strcmp(argv[1], "explain") == 0)
        return cmd_explain(argc - 2, argv + 2);
    if (strcmp(argv[1], "gate") == 0)
        return cmd_gate(argc - 2, argv + 2);
    if (strcmp(argv[1], "advise") == 0)
        return cmd_advise(argc - 2, argv + 2);
    return cmd_sweep(argc - 2, argv + 2);
}
