/* cli.c — the `gatecrash` command, the build without an engine.
 *
 *   gatecrash replay TARGET FILE|DIR...   run saved chains, one verdict each
 *   gatecrash fuzz TARGET [...]           drive fuzz_gate (libFuzzer) and summarise
 *
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

#include "eval.h"
#include "session.h"

#ifndef GATECRASH_SOURCE_DIR
#define GATECRASH_SOURCE_DIR "."
#endif

static void usage(FILE *f)
{
    fputs("usage:\n"
          "  gatecrash replay TARGET [--expect escape|blocked] [--raw] [--json] [--mode M] FILE|DIR...\n"
          "  gatecrash fuzz TARGET [--time S] [--jobs N] [--corpus DIR] [--out DIR] [--seed N]\n"
          "                        [--dict FILE] [--fuzzer PATH] [--mode M]\n"
          "TARGET: a folder with target.json, or --sandbox PATH --requires JSON|@FILE\n"
          "exit: 0 nothing escaped, 1 escaped, 2 bad usage/input, 3 target failed to load,\n"
          "      4 harness error\n",
          f);
}

/* ---- small helpers ---- */

typedef struct {
    char **v;
    int n, cap;
} strlist;

static void sl_add(strlist *l, const char *s)
{
    if (l->n + 1 >= l->cap) { /* room for a NULL terminator too */
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
        if (!l->v)
            abort();
    }
    l->v[l->n++] = s ? strdup(s) : NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Regular files named by 'arg' (itself, or the non-hidden files in it, sorted), made
 * absolute.  -1 with a message when unreadable. */
static int collect_inputs(const char *arg, strlist *out)
{
    char abs[PATH_MAX];
    if (!realpath(arg, abs)) {
        gc_die_msg("cannot read %s: %s", arg, strerror(errno));
        return -1;
    }
    struct stat st;
    if (stat(abs, &st) != 0) {
        gc_die_msg("cannot read %s: %s", arg, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        sl_add(out, abs);
        return 0;
    }
    DIR *d = opendir(abs);
    if (!d) {
        gc_die_msg("cannot read folder %s: %s", arg, strerror(errno));
        return -1;
    }
    int first = out->n;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[PATH_MAX * 2];
        snprintf(p, sizeof p, "%s/%s", abs, e->d_name);
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
            sl_add(out, p);
    }
    closedir(d);
    qsort(out->v + first, (size_t)(out->n - first), sizeof *out->v, cmp_str);
    return 0;
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            if (cap >= (size_t)64 << 20)
                break; /* far past any chain: the parser reports "too large" */
            cap *= 2;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void rm_tree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

static int mkdirs(const char *path)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    }
    return mkdir(tmp, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

/* Common target options; returns 1 if argv[*i] was one (and consumed its value). */
static int target_opt(int argc, char **argv, int *i, gc_session_opts *o)
{
    const char *a = argv[*i];
    const char **slot = strcmp(a, "--sandbox") == 0 ? &o->sandbox
                      : strcmp(a, "--requires") == 0 ? &o->requires
                      : strcmp(a, "--mode") == 0 ? &o->mode
                      : strcmp(a, "--target") == 0 ? &o->target_dir : NULL;
    if (!slot)
        return 0;
    if (*i + 1 >= argc) {
        gc_die_msg("%s needs a value", a);
        exit(GC_EXIT_USAGE);
    }
    *slot = argv[++*i];
    return 1;
}

static char *make_scratch(void)
{
    const char *tmp = getenv("TMPDIR");
    char *p = malloc(PATH_MAX);
    snprintf(p, PATH_MAX, "%s/gatecrash-scratch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(p)) {
        gc_die_msg("cannot create a scratch folder: %s", strerror(errno));
        exit(GC_EXIT_HARNESS);
    }
    return p;
}

/* ---- replay ---- */

static int cmd_replay(int argc, char **argv)
{
    gc_session_opts o = {0};
    int expect_escape = 0, raw = 0, json = 0;
    strlist args = {0}, files = {0};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (target_opt(argc, argv, &i, &o))
            continue;
        if (strcmp(a, "--expect") == 0 && i + 1 < argc) {
            const char *e = argv[++i];
            if (strcmp(e, "escape") == 0)
                expect_escape = 1;
            else if (strcmp(e, "blocked") == 0)
                expect_escape = 0;
            else {
                gc_die_msg("--expect takes escape or blocked");
                return GC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--raw") == 0)
            raw = 1;
        else if (strcmp(a, "--json") == 0)
            json = 1;
        else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
            o.quiet = 1;
        else if (a[0] == '-' && a[1]) {
            gc_die_msg("unknown option %s", a);
            usage(stderr);
            return GC_EXIT_USAGE;
        } else
            sl_add(&args, a);
    }
    int first = 0;
    if (!o.sandbox && !o.target_dir) {
        if (args.n == 0) {
            usage(stderr);
            return GC_EXIT_USAGE;
        }
        o.target_dir = args.v[0];
        first = 1;
    }
    if (first >= args.n) {
        gc_die_msg("replay needs at least one chain file or folder");
        return GC_EXIT_USAGE;
    }
    for (int i = first; i < args.n; i++)
        if (collect_inputs(args.v[i], &files) < 0)
            return GC_EXIT_USAGE;
    char *scratch = make_scratch();
    o.scratch = scratch;
    gc_target t;
    int rc = gc_session_start(&t, &o);
    if (rc) {
        rm_tree(scratch);
        return rc;
    }
    static gc_chain chain;
    static gc_outcome out;
    int escaped = 0, blocked = 0, bad = 0;
    for (int i = 0; i < files.n; i++) {
        size_t len = 0;
        unsigned char *data = read_file(files.v[i], &len);
        if (!data) {
            gc_die_msg("cannot read %s", files.v[i]);
            bad++;
            continue;
        }
        gc_parse_error perr;
        int prc = gc_chain_parse(data, len, raw ? GC_PARSE_LENIENT : GC_PARSE_STRICT, &chain, &perr);
        free(data);
        if (prc < 0) {
            gc_die_msg("%s:%d:%d: %s", files.v[i], perr.line, perr.col, perr.msg);
            bad++;
            continue;
        }
        if (chain.nstmts == 0) {
            gc_die_msg("%s: no statement in chain file", files.v[i]);
            bad++;
            continue;
        }
        char err[512];
        rc = gc_run_input(&t, &chain, &out, NULL, NULL, err, sizeof err);
        if (rc) {
            gc_die_msg("%s: %s", files.v[i], err);
            rm_tree(scratch);
            return rc;
        }
        gc_strbuf sb;
        gc_sb_init(&sb);
        if (out.escaped) {
            escaped++;
            gc_escape_line(&t, &out, &sb);
            printf("%s: %s\n", files.v[i], sb.data);
            if (json) {
                gc_sb_clear(&sb);
                gc_escape_json(&t, &out, &sb);
                printf("%s\n", sb.data);
            }
        } else {
            blocked++;
            printf("%s: blocked (%d steps, %d failed%s%s)\n", files.v[i], out.steps, out.failed_steps,
                   out.refused[0] ? "; refused by the harness: " : "", out.refused);
        }
        if (out.state_repairs)
            printf("%s: note: interpreter state changed by the chain and repaired: %s\n", files.v[i],
                   out.state_note);
        gc_sb_free(&sb);
    }
    fflush(stdout);
    rm_tree(scratch);
    free(scratch);
    fprintf(stderr, "gatecrash: replayed %d: %d escaped, %d blocked, %d unreadable\n", files.n, escaped,
            blocked, bad);
    if (bad)
        return GC_EXIT_USAGE;
    if (expect_escape)
        return blocked ? GC_EXIT_ESCAPE : GC_EXIT_OK;
    return escaped ? GC_EXIT_ESCAPE : GC_EXIT_OK;
}

/* ---- fuzz ---- */

typedef struct {
    char sig[256];
    char chain[1024];
    char kind[16], cap[16], prim[96];
    int count;
} finding;

static void exe_dir(char *out, size_t len)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(out, len, ".");
        return;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(out, len, "%s", self);
}

static long parse_long(const char *s, const char *what)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < 0) {
        gc_die_msg("%s must be a non-negative integer", what);
        exit(GC_EXIT_USAGE);
    }
    return v;
}

/* libFuzzer status: "#1234\tNEW    cov: ... corp: 12/340b ... exec/s: 2000 ..." or fork
 * mode "#1234: cov: ... corp: 12 ... exec/s: 2000 ...". */
static void parse_status(const char *line, unsigned long *execs, unsigned long *corp, unsigned long *eps)
{
    if (line[0] != '#')
        return;
    char *end;
    unsigned long n = strtoul(line + 1, &end, 10);
    if (end == line + 1)
        return;
    *execs = n;
    const char *c = strstr(line, "corp: ");
    if (c)
        *corp = strtoul(c + 6, NULL, 10);
    const char *e = strstr(line, "exec/s");
    if (e)
        *eps = strtoul(e + 6 + strspn(e + 6, ": "), NULL, 10);
}

typedef struct {
    gc_target *t;
    const char *crashes;
    const char *known_path; /* signatures found so far, for fuzz_gate --skip-known */
    strlist seen;
    finding *found;
    int nfound, cap;
    int reproduced, flaky;
} fuzz_state;

/* Replay crash inputs not seen yet (decoded as the fuzzer decoded them) and fold them into
 * the table of distinct escapes, keyed by signature, keeping the shortest chain. */
static void scan_crashes(fuzz_state *fs)
{
    strlist files = {0};
    DIR *d = opendir(fs->crashes);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "crash-", 6) == 0)
            sl_add(&files, e->d_name);
    closedir(d);
    static gc_chain chain;
    static gc_outcome out;
    for (int i = 0; i < files.n; i++) {
        int seen = 0;
        for (int k = 0; k < fs->seen.n && !seen; k++)
            seen = strcmp(fs->seen.v[k], files.v[i]) == 0;
        if (seen)
            continue;
        sl_add(&fs->seen, files.v[i]);
        char path[PATH_MAX * 2];
        snprintf(path, sizeof path, "%s/%s", fs->crashes, files.v[i]);
        size_t len = 0;
        unsigned char *data = read_file(path, &len);
        if (!data)
            continue;
        gc_chain_parse(data, len, GC_PARSE_LENIENT, &chain, NULL);
        free(data);
        char err[512];
        if (gc_run_input(fs->t, &chain, &out, NULL, NULL, err, sizeof err) || !out.escaped) {
            fs->flaky++;
            continue;
        }
        fs->reproduced++;
        int k;
        for (k = 0; k < fs->nfound; k++)
            if (strcmp(fs->found[k].sig, out.signature) == 0)
                break;
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_escape_chain_text(&out, &sb);
        if (k == fs->nfound) {
            if (fs->nfound == fs->cap) {
                fs->cap = fs->cap ? fs->cap * 2 : 32;
                fs->found = realloc(fs->found, (size_t)fs->cap * sizeof *fs->found);
                if (!fs->found)
                    abort();
            }
            memset(&fs->found[k], 0, sizeof fs->found[k]);
            fs->nfound++;
            snprintf(fs->found[k].sig, sizeof fs->found[k].sig, "%s", out.signature);
            snprintf(fs->found[k].kind, sizeof fs->found[k].kind, "%s", gc_kind_name(out.escape.kind));
            snprintf(fs->found[k].cap, sizeof fs->found[k].cap, "%s", gc_cap_name(out.escape.cap));
            snprintf(fs->found[k].prim, sizeof fs->found[k].prim, "%s", out.escape.primitive);
            snprintf(fs->found[k].chain, sizeof fs->found[k].chain, "%s", sb.data);
        } else if (strlen(sb.data) < strlen(fs->found[k].chain)) {
            snprintf(fs->found[k].chain, sizeof fs->found[k].chain, "%s", sb.data);
        }
        fs->found[k].count++;
        gc_sb_free(&sb);
    }
    for (int i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    if (fs->known_path) { /* temp file and rename: a reader never sees half a list */
        char tmp[PATH_MAX + 8];
        snprintf(tmp, sizeof tmp, "%s.tmp", fs->known_path);
        FILE *f = fopen(tmp, "w");
        for (int k = 0; f && k < fs->nfound; k++)
            fprintf(f, "%s\n", fs->found[k].sig);
        if (f && fclose(f) == 0)
            rename(tmp, fs->known_path);
    }
}

static int cmd_fuzz(int argc, char **argv)
{
    gc_session_opts o = {0};
    long seconds = 60, jobs = 1, seed = 0, runs = -1;
    const char *corpus = NULL, *outdir = NULL, *dict = NULL, *fuzzer = NULL;
    strlist pos = {0};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (target_opt(argc, argv, &i, &o))
            continue;
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--time") == 0 && val)
            seconds = parse_long(argv[++i], "--time");
        else if (strcmp(a, "--jobs") == 0 && val)
            jobs = parse_long(argv[++i], "--jobs");
        else if (strcmp(a, "--seed") == 0 && val)
            seed = parse_long(argv[++i], "--seed");
        else if (strcmp(a, "--runs") == 0 && val)
            runs = parse_long(argv[++i], "--runs");
        else if (strcmp(a, "--corpus") == 0 && val)
            corpus = argv[++i];
        else if (strcmp(a, "--out") == 0 && val)
            outdir = argv[++i];
        else if (strcmp(a, "--dict") == 0 && val)
            dict = argv[++i];
        else if (strcmp(a, "--fuzzer") == 0 && val)
            fuzzer = argv[++i];
        else if (a[0] == '-') {
            gc_die_msg("unknown or incomplete option %s", a);
            usage(stderr);
            return GC_EXIT_USAGE;
        } else
            sl_add(&pos, a);
    }
    if (!o.sandbox && !o.target_dir && pos.n > 0)
        o.target_dir = pos.v[0];
    if (!o.sandbox && !o.target_dir) {
        usage(stderr);
        return GC_EXIT_USAGE;
    }
    if (jobs < 1)
        jobs = 1;
    /* Validate the target here first: a bad target is an error before any engine starts. */
    char target_abs[PATH_MAX] = "";
    if (o.target_dir && !realpath(o.target_dir, target_abs)) {
        gc_die_msg("target folder %s not found", o.target_dir);
        return GC_EXIT_USAGE;
    }
    char bindir[PATH_MAX];
    exe_dir(bindir, sizeof bindir);
    char fuzz_bin[PATH_MAX + 16];
    snprintf(fuzz_bin, sizeof fuzz_bin, "%s", fuzzer ? fuzzer : "");
    if (!fuzzer)
        snprintf(fuzz_bin, sizeof fuzz_bin, "%s/fuzz_gate", bindir);
    if (access(fuzz_bin, X_OK) != 0) {
        gc_die_msg("fuzzer binary %s not found (build with clang: cmake -DGATECRASH_ENGINE=libfuzzer)", fuzz_bin);
        return GC_EXIT_USAGE;
    }
    const char *name = target_abs[0] ? strrchr(target_abs, '/') + 1 : "sandbox";
    char out_abs[PATH_MAX], tmp[PATH_MAX * 2];
    snprintf(tmp, sizeof tmp, "%s", outdir ? outdir : "");
    if (!outdir)
        snprintf(tmp, sizeof tmp, "out/%s", name);
    if (mkdirs(tmp) < 0 || !realpath(tmp, out_abs)) {
        gc_die_msg("cannot create output folder %s", tmp);
        return GC_EXIT_USAGE;
    }
    char crashes[PATH_MAX + 32], work_corpus[PATH_MAX + 32], scratch[PATH_MAX + 32], seeds[PATH_MAX];
    snprintf(crashes, sizeof crashes, "%s/crashes", out_abs);
    snprintf(work_corpus, sizeof work_corpus, "%s/corpus", out_abs);
    snprintf(scratch, sizeof scratch, "%s/scratch", out_abs);
    rm_tree(scratch);
    if (mkdirs(crashes) < 0 || mkdirs(work_corpus) < 0 || mkdirs(scratch) < 0) {
        gc_die_msg("cannot create folders under %s", out_abs);
        return GC_EXIT_USAGE;
    }
    snprintf(tmp, sizeof tmp, "%s", corpus ? corpus : GATECRASH_SOURCE_DIR "/corpus");
    if (!realpath(tmp, seeds) || access(seeds, R_OK | X_OK) != 0) {
        gc_die_msg("corpus folder %s is not readable", tmp);
        return GC_EXIT_USAGE;
    }
    char dict_abs[PATH_MAX] = "";
    snprintf(tmp, sizeof tmp, "%s", dict ? dict : GATECRASH_SOURCE_DIR "/dict/gatecrash.dict");
    if (!realpath(tmp, dict_abs) || access(dict_abs, R_OK) != 0) {
        gc_die_msg("dictionary %s is not readable", tmp);
        return GC_EXIT_USAGE;
    }

    /* Build the engine's command line. */
    strlist cmd = {0};
    sl_add(&cmd, fuzz_bin);
    char buf[PATH_MAX * 2];
    if (o.sandbox) {
        char sb_abs[PATH_MAX];
        if (!realpath(o.sandbox, sb_abs)) {
            gc_die_msg("sandbox module %s not found", o.sandbox);
            return GC_EXIT_TARGET;
        }
        snprintf(buf, sizeof buf, "--sandbox=%s", sb_abs);
        sl_add(&cmd, buf);
        snprintf(buf, sizeof buf, "--requires=%s", o.requires ? o.requires : "");
        sl_add(&cmd, buf);
    } else {
        snprintf(buf, sizeof buf, "--target=%s", target_abs);
        sl_add(&cmd, buf);
    }
    if (o.mode) {
        snprintf(buf, sizeof buf, "--mode=%s", o.mode);
        sl_add(&cmd, buf);
    }
    snprintf(buf, sizeof buf, "-fork=%ld", jobs);
    sl_add(&cmd, buf);
    sl_add(&cmd, "-ignore_crashes=1");
    /* Escapes already in the table stop being crashes for jobs started later. */
    char known_path[PATH_MAX + 32];
    snprintf(known_path, sizeof known_path, "%s/known-signatures", out_abs);
    remove(known_path);
    snprintf(buf, sizeof buf, "--skip-known=%s", known_path);
    sl_add(&cmd, buf);
    sl_add(&cmd, "-timeout=10");
    sl_add(&cmd, "-rss_limit_mb=2048");
    sl_add(&cmd, "-max_len=512");
    sl_add(&cmd, "-print_final_stats=1");
    snprintf(buf, sizeof buf, "-max_total_time=%ld", seconds);
    sl_add(&cmd, buf);
    if (runs >= 0) {
        snprintf(buf, sizeof buf, "-runs=%ld", runs);
        sl_add(&cmd, buf);
    }
    snprintf(buf, sizeof buf, "-seed=%ld", seed);
    sl_add(&cmd, buf);
    snprintf(buf, sizeof buf, "-dict=%s", dict_abs);
    sl_add(&cmd, buf);
    snprintf(buf, sizeof buf, "-artifact_prefix=%s/", crashes);
    sl_add(&cmd, buf);
    sl_add(&cmd, work_corpus);
    sl_add(&cmd, seeds);
    sl_add(&cmd, NULL);
    cmd.n--;

    /* The target is opened here too (own scratch), so crash inputs are replayed and
     * de-duplicated while the engine runs: progress shows real, distinct escapes. */
    char rscratch[PATH_MAX + 32];
    snprintf(rscratch, sizeof rscratch, "%s/scratch-replay", out_abs);
    rm_tree(rscratch);
    mkdirs(rscratch);
    o.scratch = rscratch;
    gc_target t;
    int rc = gc_session_start(&t, &o);
    if (rc)
        return rc;
    fprintf(stderr, "gatecrash: fuzzing %s for %lds with %ld job(s); crashes in %s\n", t.spec.name, seconds,
            jobs, crashes);

    int pipefd[2];
    if (pipe(pipefd) != 0) {
        gc_die_msg("pipe: %s", strerror(errno));
        return GC_EXIT_HARNESS;
    }
    char logpath[PATH_MAX + 32];
    snprintf(logpath, sizeof logpath, "%s/fuzz.log", out_abs);
    FILE *log = fopen(logpath, "w");
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        gc_die_msg("fork: %s", strerror(errno));
        return GC_EXIT_HARNESS;
    }
    if (pid == 0) {
        if (chdir(scratch) != 0)
            _exit(127);
        dup2(pipefd[1], 2);
        dup2(pipefd[1], 1);
        close(pipefd[0]);
        close(pipefd[1]);
        execv(cmd.v[0], cmd.v);
        _exit(127);
    }
    close(pipefd[1]);
    fuzz_state fs = {.t = &t, .crashes = crashes, .known_path = known_path};
    unsigned long execs = 0, corp = 0, eps = 0, last_execs = 0, ignored_eps = 0;
    time_t start = time(NULL), last = start;
    char line[8192];
    size_t have = 0;
    for (;;) {
        struct pollfd p = {pipefd[0], POLLIN, 0};
        int pr = poll(&p, 1, 1000);
        if (pr > 0) {
            ssize_t n = read(pipefd[0], line + have, sizeof line - 1 - have);
            if (n <= 0)
                break;
            have += (size_t)n;
            line[have] = '\0';
            char *nl;
            char *cur = line;
            while ((nl = strchr(cur, '\n')) || have - (size_t)(cur - line) >= sizeof line - 1) {
                if (nl)
                    *nl = '\0';
                if (log)
                    fprintf(log, "%s\n", cur);
                if (strncmp(cur, "gatecrash: error", 16) == 0)
                    fprintf(stderr, "%s\n", cur);
                parse_status(cur, &execs, &corp, &ignored_eps);
                cur = nl ? nl + 1 : line + have;
            }
            have -= (size_t)(cur - line);
            memmove(line, cur, have);
        }
        time_t now = time(NULL);
        if (now - last >= 5) {
            eps = (execs - last_execs) / (unsigned long)(now - last);
            last_execs = execs;
            last = now;
            scan_crashes(&fs);
            fprintf(stderr, "[%4lds] execs %lu (%lu/s)  corpus %lu  escapes %d  distinct %d\n",
                    (long)(now - start), execs, eps, corp, fs.reproduced, fs.nfound);
        }
    }
    close(pipefd[0]);
    if (log)
        fclose(log);
    int status = 0;
    waitpid(pid, &status, 0);
    scan_crashes(&fs);
    long took = (long)(time(NULL) - start);
    fprintf(stderr, "[%4lds] execs %lu (%lu/s overall)  corpus %lu  escapes %d  distinct %d  (done)\n", took,
            execs, took > 0 ? execs / (unsigned long)took : execs, corp, fs.reproduced, fs.nfound);
    rm_tree(rscratch);
    if (execs == 0 && WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        gc_die_msg("the fuzzer did not run (exit %d; see %s)", WEXITSTATUS(status), logpath);
        return WEXITSTATUS(status) >= GC_EXIT_USAGE && WEXITSTATUS(status) <= GC_EXIT_HARNESS
                   ? WEXITSTATUS(status) : GC_EXIT_HARNESS;
    }
    printf("\n%d escape input(s), %d distinct escape(s) on %s", fs.reproduced, fs.nfound, t.spec.name);
    if (fs.flaky)
        printf(" (%d crash input(s) did not reproduce)", fs.flaky);
    printf("\n");
    if (fs.nfound) {
        printf("%-7s %-8s %-26s %5s  %s\n", "KIND", "CAP", "PRIMITIVE", "SEEN", "CHAIN (shortest seen)");
        for (int k = 0; k < fs.nfound; k++)
            printf("%-7s %-8s %-26s %5d  %s\n", fs.found[k].kind, fs.found[k].cap, fs.found[k].prim,
                   fs.found[k].count, fs.found[k].chain);
    }
    printf("crash inputs: %s\n", crashes);
    return fs.nfound ? GC_EXIT_ESCAPE : GC_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? GC_EXIT_USAGE : 0;
    }
    signal(SIGPIPE, SIG_IGN);
    if (strcmp(argv[1], "replay") == 0)
        return cmd_replay(argc - 2, argv + 2);
    if (strcmp(argv[1], "fuzz") == 0)
        return cmd_fuzz(argc - 2, argv + 2);
    gc_die_msg("unknown command '%s'", argv[1]);
    usage(stderr);
    return GC_EXIT_USAGE;
}
