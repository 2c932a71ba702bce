/* start.c — the target's options, every command's, and how a command starts its target:
 * paths made absolute, a scratch folder, writes confined (cli.h). */
#define _GNU_SOURCE /* realpath */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "confine.h"
#include "diag.h"
#include "spawn.h"
#include "xalloc.h"

#define O(field) offsetof(gc_session_opts, field)
const cli_opt cli_target_options[] = {
    {"--sandbox", NULL, "PATH", cli_opt_str, O(sandbox), "the gate module (with --requires instead of a folder)"},
    {"--requires", NULL, "JSON|@FILE", cli_opt_str, O(requires), "the host's requires block, inline or from a file"},
    {"--adapter", NULL, "PATH", cli_opt_str, O(adapter), "a source target's adapter (with --requires)"},
    {"--venv", NULL, "DIR", cli_opt_str, O(venv), "the virtual environment a source target's sandbox is installed in"},
    {"--import-timeout", NULL, "S", cli_opt_str, O(import_timeout),
     "how long the gate's or adapter's import may take (default 120 s; GATECRASH_IMPORT_TIMEOUT)"},
    {"--mode", NULL, "reach|effect", cli_opt_str, O(mode), "override the target's oracle mode"},
    {"--target", NULL, "DIR", cli_opt_str, O(target_dir), "the target's folder (the same as TARGET)"},
    /* taken out of argv before any command parses (gc_confine_take_option) */
    {"--require-confinement", NULL, NULL, NULL, 0, "exit 4 when Landlock cannot confine writes"},
    {0},
};
#undef O

char cli_start_dir[PATH_MAX] = ".";

int cli_take_target(const cli_command *c, gc_session_opts *o, const gc_strlist *pos)
{
    if (o->sandbox || o->target_dir || (c->adapter_names_target && o->adapter))
        return 0;
    if (pos->n == 0)
        return -1;
    o->target_dir = pos->v[0];
    return 1;
}

int cli_parse_command(const cli_command *c, void *args, gc_session_opts *o, gc_strlist *pos, int argc, char **argv)
{
    if (cli_parse(c->name, c->sets, args, argc, argv, pos))
        return -1;
    int first = cli_take_target(c, o, pos);
    if (first < 0)
        gc_die_msg("%s", c->usage);
    return first;
}

int cli_absolutize_target(gc_session_opts *o)
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

void cli_absolutize_files(gc_strlist *l, int first)
{
    char abs[PATH_MAX];
    for (int i = first; i < l->n; i++)
        if (l->v[i] && l->v[i][0] != '/' && realpath(l->v[i], abs)) {
            free(l->v[i]);
            l->v[i] = strdup(abs);
        }
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

/* The folder itself goes through the spawner, which may write the folder it is in
 * (confine.h). */
void cli_remove_scratch(const char *scratch)
{
    gc_rm_tree(scratch);
    gc_spawn_rmdir(scratch);
}

/* Before the target is imported; the scratch folder first. */
int cli_confine_to(const char *const dirs[])
{
    for (int i = 0; dirs[i]; i++)
        gc_confine_grant(dirs[i]);
    int rc = gc_confine_self();
    gc_spawn_lock_writes(); /* the spawner's children write within the same list (spawn.h) */
    return rc;
}

int cli_start_in_scratch(gc_target *t, gc_session_opts *o, char **scratch, int quiet, const char *also)
{
    if (!(*scratch = make_scratch()))
        return GC_EXIT_HARNESS;
    o->scratch = *scratch;
    o->quiet = quiet;
    int rc = cli_confine_to((const char *[]){*scratch, also, NULL});
    if (!rc)
        rc = gc_session_start(t, o);
    if (rc)
        cli_remove_scratch(*scratch);
    return rc;
}

int cli_run_confined(gc_session_opts *o, int quiet, const char *also, int (*run)(gc_target *t, void *ctx), void *ctx)
{
    gc_target t = {0};
    char *scratch = NULL;
    int rc = cli_start_in_scratch(&t, o, &scratch, quiet, also);
    if (!rc) {
        rc = run(&t, ctx);
        cli_remove_scratch(scratch);
    }
    free(scratch);
    gc_target_spec_free(&t.spec);
    return rc;
}

int cli_case_folder(const char *given, const char *name, char out[PATH_MAX])
{
    char tmp[PATH_MAX * 2];
    if (given && given[0] == '/')
        snprintf(tmp, sizeof tmp, "%s", given);
    else if (given)
        snprintf(tmp, sizeof tmp, "%s/%s", cli_start_dir, given);
    else
        snprintf(tmp, sizeof tmp, "%s/escapes/%s", cli_start_dir, name);
    if (gc_mkdirs(tmp) < 0 || !realpath(tmp, out)) {
        gc_die_msg("cannot create case folder %s", tmp);
        return GC_EXIT_USAGE;
    }
    return 0;
}
