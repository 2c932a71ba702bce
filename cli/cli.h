/* cli.h — the `gatecrash` command line, the top layer: it calls the harness (harness/) and
 * triage (triage/), and nothing calls it.
 *
 *   gatecrash replay TARGET FILE|DIR...   run saved chains, one verdict each   (cmd_replay.c)
 *   gatecrash fuzz TARGET                 run an engine, replay its crash inputs live, a table
 *   gatecrash triage TARGET CRASH...|DIR  minimize, de-duplicate and save escapes as cases
 *   gatecrash explain TARGET FILE         step by step: each value, and the verdict
 *   gatecrash sweep TARGET                exhaustive, bounded breadth-first search
 *   gatecrash advise TARGET               the holes to close, proven by sweeping with them closed
 *   gatecrash gate TARGET                 release gate: saved cases blocked, nothing found
 *   gatecrash check TARGET                a source adapter probed: what is wrong, one line each
 *   gatecrash --help | --version | COMMAND --help                              (main.c)
 *
 * Owns: the commands — each a cli_command in its own cmd_*.c: its synopsis, its options
 * table (options.h parses it and prints its --help), and its run function, which parses,
 * starts the target and returns the exit code through one exit path — and what they share:
 * the target's options and how a command starts its target in a confined scratch folder
 * (start.c), a campaign's options and folders for fuzz and gate (campaign_opts.c).
 * TARGET is a folder with target.json, or --sandbox PATH --requires JSON|@FILE.
 * Exit codes: 0 nothing escaped, 1 something escaped (with --expect escape: something did
 * not), 2 bad usage or input, 3 the target failed to load, 4 harness error. */
#ifndef GATECRASH_CLI_H
#define GATECRASH_CLI_H

#include <limits.h>
#include <stddef.h>

#include "campaign.h"
#include "options.h"
#include "session.h"

typedef struct {
    const char *name;     /* "replay" */
    const char *synopsis; /* "gatecrash replay TARGET [options] FILE|DIR...   what it does" */
    const char *usage;    /* the error line for words that do not fit it (no TARGET, ...) */
    int adapter_names_target; /* --adapter alone names the target (else --sandbox or TARGET) */
    cli_optset sets[4];   /* its options: its own table, the campaign's, the target's; ends {0} */
    int (*run)(int argc, char **argv); /* the words after the command; the exit code */
} cli_command;
#define CLI_STR(x) #x
#define CLI_XSTR(x) CLI_STR(x) /* a number's macro as a string */

extern const cli_command cli_replay, cli_fuzz, cli_triage, cli_explain, cli_sweep, cli_advise, cli_gate, cli_check;

/* A source target's adapter probed (probe.h) before fuzz, sweep or gate run it, each problem
 * one line; its dialect switched to expressions and its names found (without roots()) where
 * the probes show them, each said in one line.  0, or exit 3 with the line saying why fuzzing
 * it would find nothing (cmd_check.c).  0 for a gate target. */
int cli_probe_adapter(gc_target *t);
/* A source target switched, silently, to the dialect cli_probe_adapter's probes would find
 * (probe.h, gc_source_probe_dialect): what replay, explain and triage run prints as it did
 * in the campaign or sweep that saved it.  0 or an exit code (its line printed). */
int cli_probe_dialect(gc_target *t);

/* ---- the target (start.c) ---- */

/* --sandbox, --requires, --adapter, --venv, --mode, --target (slots in a gc_session_opts),
 * every command's. */
extern const cli_opt cli_target_options[];
#define CLI_TARGET_HEADING "TARGET: a folder with target.json, or"
#define CLI_TARGET_SET(type, member) {CLI_TARGET_HEADING, cli_target_options, offsetof(type, member), 1}

/* Where the command was started (main.c sets it): relative paths are relative to it, even
 * after the process moves into its scratch folder. */
extern char cli_start_dir[PATH_MAX];

/* c's target unless an option named it: the first of 'pos'.  How many of 'pos' it took (0
 * or 1), or -1: no target at all. */
int cli_take_target(const cli_command *c, gc_session_opts *o, const gc_strlist *pos);
/* argv parsed against c's tables into 'args' (the words no option takes into 'pos'), then
 * cli_take_target into o (args' gc_session_opts).  Its result, or -1 with the parser's line
 * or c->usage printed (exit GC_EXIT_USAGE). */
int cli_parse_command(const cli_command *c, void *args, gc_session_opts *o, gc_strlist *pos, int argc, char **argv);
/* The target's paths made absolute (child processes start elsewhere).  0 or an exit code. */
int cli_absolutize_target(gc_session_opts *o);
/* The files named in l from 'first' on made absolute (the command runs in its scratch folder):
 * each that exists, resolved against where the command started; the others left as given,
 * so the line that says they cannot be read names them as the user did. */
void cli_absolutize_files(gc_strlist *l, int first);
/* Writes confined (confine.h) to the folders listed (NULL-terminated).  0 or an exit code. */
int cli_confine_to(const char *const dirs[]);
/* A scratch folder made, writes confined to it and 'also' (NULL: none) before the target
 * is imported, and the target started in it (quietly unless asked); on failure the folder
 * is gone again (its path, in *scratch, is the caller's to free either way). */
int cli_start_in_scratch(gc_target *t, gc_session_opts *o, char **scratch, int quiet, const char *also);
/* The scratch folder and everything in it. */
void cli_remove_scratch(const char *scratch);
/* cli_start_in_scratch, then run(t, ctx); the scratch folder removed after.  run's exit code, or the start's. */
int cli_run_confined(gc_session_opts *o, int quiet, const char *also, int (*run)(gc_target *t, void *ctx), void *ctx);
/* A case folder: 'given' (relative to where the command started) or escapes/<name>;
 * created, made absolute into out.  0 or an exit code. */
int cli_case_folder(const char *given, const char *name, char out[PATH_MAX]);

/* ---- a campaign, fuzz's and gate's (campaign_opts.c) ---- */

typedef struct {
    gc_campaign_opts c;
    const char *corpus, *outdir, *dict, *fuzzer; /* as given, or NULL */
    long seed_sweep_depth; /* -1: not given (the mode's presweep_depth: 8; a source target's 6) */
    char out_abs[PATH_MAX], seeds[PATH_MAX], dict_abs[PATH_MAX], fuzz_bin[PATH_MAX]; /* resolved */
    char rscratch[PATH_MAX + 32]; /* the CLI's own evaluations' scratch folder, under out_abs */
} cli_campaign;

/* --engine, --time, --jobs, --runs, --seed, --corpus, --out, --dict, --fuzzer and the
 * hybrid's (slots in a cli_campaign). */
extern const cli_opt cli_campaign_options[];
#define CLI_CAMPAIGN_SET(type, member) {NULL, cli_campaign_options, offsetof(type, member), 0}

/* The defaults: 60 s, one job, unbounded runs, the table by hole. */
void cli_campaign_init(cli_campaign *k, gc_session_opts *o);
/* The campaign in t's mode (mode.h): its engines (one line and GC_EXIT_USAGE where the mode
 * has none for --engine) and its hole naming.  0 or GC_EXIT_USAGE. */
int cli_mode_campaign(cli_campaign *k, const gc_target *t);
/* The campaign's paths resolved (the output folder 'outdir', else out/NAME) and its folders
 * made.  0 or an exit code. */
int cli_campaign_paths(cli_campaign *k, const gc_target *t, const char *outdir);
/* The target started in k's rscratch (quietly), writes confined to the output folder,
 * 'also' (NULL: none) and the corpus.  0 or an exit code. */
int cli_campaign_start(gc_target *t, const gc_session_opts *o, cli_campaign *k, const char *also);
/* The hybrid's sweep first (in t's mode, to its depth unless given), unless --no-sweep-seed. */
void cli_use_presweep(cli_campaign *k, const gc_target *t);

#endif
