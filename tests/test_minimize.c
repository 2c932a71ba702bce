/* test_minimize.c — the minimizer on the real station-1.5.0 gate: from bloated escaping
 * chains (extra statements, long detours, __dict__ items, exploration forms) and from every
 * saved case of escapes/station-1.5.0 (argv[2]), its result still makes the same escape when
 * replayed on its own, is never longer than the input (statements + trailers; and, as its
 * exploration forms are resolved to names, in characters than the input as resolved), and is
 * a fixed point: minimizing it again changes nothing.  A saved case is a minimizer's output,
 * so it must come back unchanged; the cases argv[3] (fixtures/version-specific.txt) lists as
 * blocked on this CPython are skipped. */
#include <Python.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pycheck.h"
#include "fsutil.h"
#include "minimize.h"
#include "session.h"

static gc_target target;
static gc_chain in, best, again, replayed;
static gc_outcome in_out, best_out, again_out, replay_out;

typedef struct {
    int units;
    size_t len;
} size_key;

static size_key size_of(const gc_chain *c, gc_strbuf *text)
{
    gc_sb_init(text);
    gc_chain_print_oneline(c, text);
    return (size_key){c->nstmts + gc_chain_trailer_count(c), text->len};
}

static int same_escape(const gc_outcome *a, const gc_outcome *b)
{
    return a->escaped && b->escaped && a->escape.kind == b->escape.kind && a->escape.cap == b->escape.cap &&
           strcmp(a->escape.primitive, b->escape.primitive) == 0;
}

static int run(const gc_chain *c, gc_outcome *o)
{
    char err[256];
    return gc_run_input(&target, c, o, NULL, NULL, err, sizeof err);
}

/* Minimize 'text'; when 'unchanged', the result must be the input itself (a saved case). */
static void minimize(const char *name, const char *text, size_t n, int unchanged)
{
    gc_parse_error perr;
    gc_min_stats st;
    if (gc_chain_parse((const uint8_t *)text, n, GC_PARSE_STRICT, &in, &perr) != 0) {
        CHECK(0, "%s: bad test chain: %s", name, perr.msg);
        return;
    }
    CHECK(run(&in, &in_out) == 0 && in_out.escaped, "%s: the input escapes", name);
    gc_chain resolved_in = in_out.resolved;
    int rc = gc_minimize(&target, &in, &best, &best_out, &st, NULL, NULL);
    CHECK(rc == 0, "%s: gc_minimize returned %d", name, rc);
    if (rc != 0)
        return;
    gc_strbuf tin, tres, tbest, tagain;
    size_key kin = size_of(&in, &tin), kres = size_of(&resolved_in, &tres), kbest = size_of(&best, &tbest);
    /* the result on its own, in a fresh namespace: the same escape */
    replayed = best;
    CHECK(run(&replayed, &replay_out) == 0 && same_escape(&replay_out, &in_out) && same_escape(&best_out, &in_out),
          "%s: %s does not make the input's escape %s", name, tbest.data, in_out.signature);
    CHECK(kbest.units <= kin.units, "%s: %s (%d units) longer than the input %s (%d)", name, tbest.data, kbest.units,
          tin.data, kin.units);
    CHECK(kbest.units < kres.units || (kbest.units == kres.units && kbest.len <= kres.len),
          "%s: %s longer than the resolved input %s", name, tbest.data, tres.data);
    /* a fixed point: minimizing the result changes nothing */
    rc = gc_minimize(&target, &best, &again, &again_out, &st, NULL, NULL);
    size_of(&again, &tagain);
    CHECK(rc == 0 && strcmp(tagain.data, tbest.data) == 0, "%s: not a fixed point: %s -> %s", name, tbest.data,
          tagain.data);
    CHECK(!unchanged || strcmp(tbest.data, tin.data) == 0, "%s: a saved case changed: %s -> %s", name, tin.data,
          tbest.data);
    gc_sb_free(&tin);
    gc_sb_free(&tres);
    gc_sb_free(&tbest);
    gc_sb_free(&tagain);
}

static int refuse_all(void *ctx, const gc_chain *c, const gc_outcome *o)
{
    (void)c, (void)o;
    ++*(int *)ctx;
    return 0;
}

/* Is the case named in 'list' (fixtures/version-specific.txt: "X.Y[,X.Y] PATH why") as
 * blocked on this CPython?  Such a case escapes on no input here, so it has nothing to minimize. */
static int blocked_here(const char *list, const char *name)
{
    char line[1024], vers[64], path[900], mine[16];
    int hit = 0;
    snprintf(mine, sizeof mine, "%d.%d", PY_MAJOR_VERSION, PY_MINOR_VERSION);
    FILE *f = list ? fopen(list, "r") : NULL;
    while (f && !hit && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || sscanf(line, "%63s %899s", vers, path) != 2)
            continue;
        const char *b = strrchr(path, '/');
        char padded[80];
        snprintf(padded, sizeof padded, ",%s,", vers);
        char want[24];
        snprintf(want, sizeof want, ",%s,", mine);
        hit = strstr(padded, want) && strcmp(b ? b + 1 : path, name) == 0;
    }
    if (f)
        fclose(f);
    return hit;
}

static void saved_cases(const char *dir, const char *blocked)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int cases = 0;
    while (d && (e = readdir(d))) {
        size_t nl = strlen(e->d_name);
        if (nl < 7 || strcmp(e->d_name + nl - 6, ".chain") != 0 || blocked_here(blocked, e->d_name))
            continue;
        char path[4096], text[GC_MAX_INPUT];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        size_t n = f ? fread(text, 1, sizeof text, f) : 0;
        if (f)
            fclose(f);
        minimize(e->d_name, text, n, 1);
        cases++;
    }
    if (d)
        closedir(d);
    CHECK(cases >= 10, "saved cases in %s: %d", dir, cases);
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: test_minimize TARGET_DIR CASE_DIR [VERSION_SPECIFIC_LIST]\n");
        return 2;
    }
    char cases[PATH_MAX];
    if (!realpath(argv[2], cases)) /* before the session moves into its scratch folder */
        return 2;
    const char *scratch = check_session(&target, argv[1]);
    if (!scratch)
        return 2;
    static const char *const bloated[] = {
        "os.sys.modules['os'].sys.modules['subprocess'].os.system",
        "os.path\nsubprocess.os\n_.sys.modules['os'].getcwd.__self__.system\nos.sep",
        "subprocess.os.sys.modules['os'].__dict__['system']",
        "subprocess.os.#0\nsubprocess.os.sys.modules['subprocess'].os.sys.modules['os'].remove",
        "os.sys.modules['subprocess'].run.__globals__['_posixsubprocess'].fork_exec",
        /* '_' as an argument: the statement it reads must stay, and stay that value */
        "os.path\nsubprocess.os\n__builtins__['getattr'](_, 'system')",
        "subprocess\n_.os\n_.__class__.__getattribute__(_, 'system')",
    };
    for (size_t i = 0; i < sizeof bloated / sizeof bloated[0]; i++)
        minimize(bloated[i], bloated[i], strlen(bloated[i]), 0);
    saved_cases(cases, argc == 4 ? argv[3] : NULL);

    /* what it refuses to do: a chain that does not escape; a check that refuses everything */
    gc_min_stats st;
    int calls = 0;
    gc_chain_parse((const uint8_t *)"os.path", 7, GC_PARSE_STRICT, &in, NULL);
    CHECK(gc_minimize(&target, &in, &best, &best_out, &st, NULL, NULL) == -1, "a chain that does not escape: -1");
    gc_chain_parse((const uint8_t *)"subprocess.os.system", 20, GC_PARSE_STRICT, &in, NULL);
    CHECK(gc_minimize(&target, &in, &best, &best_out, &st, refuse_all, &calls) == -2 && calls > 0,
          "a check that refuses even the start: -2");
    gc_rm_tree(scratch);
    return check_summary();
}
