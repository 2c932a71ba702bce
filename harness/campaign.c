/* campaign.c — see campaign.h. */
#define _GNU_SOURCE
#include "campaign.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "eval.h"

typedef struct {
    gc_target *t;
    gc_campaign_result *r;
    const char *known_path; /* signatures found so far, for fuzz_gate --skip-known */
    gc_strlist seen;
} scan_state;

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

/* Replay crash inputs not seen yet (decoded as the fuzzer decoded them) and fold them into
 * the table of distinct escapes, keyed by signature, keeping the shortest chain. */
static void scan_crashes(scan_state *fs)
{
    gc_strlist files = {0};
    DIR *d = opendir(fs->r->crashes);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "crash-", 6) == 0)
            gc_sl_add(&files, e->d_name);
    closedir(d);
    static gc_chain chain;
    static gc_outcome out;
    for (int i = 0; i < files.n; i++) {
        if (gc_sl_contains(&fs->seen, files.v[i]))
            continue;
        gc_sl_add(&fs->seen, files.v[i]);
        char path[PATH_MAX * 2];
        snprintf(path, sizeof path, "%s/%s", fs->r->crashes, files.v[i]);
        size_t len = 0;
        unsigned char *data = gc_read_file(path, &len);
        if (!data)
            continue;
        gc_chain_parse(data, len, GC_PARSE_LENIENT, &chain, NULL);
        free(data);
        char err[512];
        if (gc_run_input(fs->t, &chain, &out, NULL, NULL, err, sizeof err) || !out.escaped) {
            fs->r->flaky++;
            continue;
        }
        fs->r->reproduced++;
        int k;
        for (k = 0; k < fs->r->nfound; k++)
            if (strcmp(fs->r->found[k].sig, out.signature) == 0)
                break;
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_escape_chain_text(&out, &sb);
        if (k == fs->r->nfound) {
            if (fs->r->nfound == fs->r->cap) {
                fs->r->cap = fs->r->cap ? fs->r->cap * 2 : 32;
                fs->r->found = realloc(fs->r->found, (size_t)fs->r->cap * sizeof *fs->r->found);
                if (!fs->r->found)
                    abort();
            }
            memset(&fs->r->found[k], 0, sizeof fs->r->found[k]);
            snprintf(fs->r->found[k].first, sizeof fs->r->found[k].first, "%s", files.v[i]);
            fs->r->nfound++;
            snprintf(fs->r->found[k].sig, sizeof fs->r->found[k].sig, "%s", out.signature);
            snprintf(fs->r->found[k].kind, sizeof fs->r->found[k].kind, "%s", gc_kind_name(out.escape.kind));
            snprintf(fs->r->found[k].cap, sizeof fs->r->found[k].cap, "%s", gc_cap_name(out.escape.cap));
            snprintf(fs->r->found[k].prim, sizeof fs->r->found[k].prim, "%s", out.escape.primitive);
            snprintf(fs->r->found[k].chain, sizeof fs->r->found[k].chain, "%s", sb.data);
        } else if (strlen(sb.data) < strlen(fs->r->found[k].chain)) {
            snprintf(fs->r->found[k].chain, sizeof fs->r->found[k].chain, "%s", sb.data);
        }
        fs->r->found[k].count++;
        gc_sb_free(&sb);
    }
    for (int i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    if (fs->known_path) { /* temp file and rename: a reader never sees half a list */
        char tmp[PATH_MAX + 8];
        snprintf(tmp, sizeof tmp, "%s.tmp", fs->known_path);
        FILE *f = fopen(tmp, "w");
        for (int k = 0; f && k < fs->r->nfound; k++)
            fprintf(f, "%s\n", fs->r->found[k].sig);
        if (f && fclose(f) == 0)
            rename(tmp, fs->known_path);
    }
}


int gc_campaign_prepare(const gc_campaign_opts *o)
{
    const char *sub[] = {"crashes", "corpus", "scratch"};
    char p[PATH_MAX + 32];
    if (gc_mkdirs(o->out) < 0) {
        gc_die_msg("cannot create output folder %s", o->out);
        return GC_EXIT_USAGE;
    }
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", o->out, sub[i]);
        if (i == 2)
            gc_rm_tree(p);
        if (gc_mkdirs(p) < 0) {
            gc_die_msg("cannot create %s", p);
            return GC_EXIT_USAGE;
        }
    }
    if (access(o->fuzzer, X_OK) != 0) {
        gc_die_msg("fuzzer binary %s not found (build with clang: cmake -DGATECRASH_ENGINE=libfuzzer)", o->fuzzer);
        return GC_EXIT_USAGE;
    }
    struct stat st;
    DIR *d = opendir(o->seeds);
    if (!d || stat(o->seeds, &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (d)
            closedir(d);
        gc_die_msg("corpus folder %s is not readable", o->seeds);
        return GC_EXIT_USAGE;
    }
    closedir(d);
    if (access(o->dict, R_OK) != 0) {
        gc_die_msg("dictionary %s is not readable", o->dict);
        return GC_EXIT_USAGE;
    }
    return 0;
}

int gc_campaign_run(gc_target *t, const gc_campaign_opts *o, gc_campaign_result *r)
{
    memset(r, 0, sizeof *r);
    char crashes[PATH_MAX + 32], work_corpus[PATH_MAX + 32], scratch[PATH_MAX + 32], known_path[PATH_MAX + 32];
    snprintf(crashes, sizeof crashes, "%s/crashes", o->out);
    snprintf(r->crashes, sizeof r->crashes, "%s", crashes);
    snprintf(work_corpus, sizeof work_corpus, "%s/corpus", o->out);
    snprintf(scratch, sizeof scratch, "%s/scratch", o->out);
    snprintf(known_path, sizeof known_path, "%s/known-signatures", o->out);
    remove(known_path);

    /* The engine's command line: our flags (--…) travel with libFuzzer's. */
    gc_strlist cmd = {0};
    char buf[PATH_MAX * 2];
    gc_sl_add(&cmd, o->fuzzer);
    if (o->target->sandbox) {
        snprintf(buf, sizeof buf, "--sandbox=%s", o->target->sandbox);
        gc_sl_add(&cmd, buf);
        snprintf(buf, sizeof buf, "--requires=%s", o->target->requires);
        gc_sl_add(&cmd, buf);
    } else {
        snprintf(buf, sizeof buf, "--target=%s", o->target->target_dir);
        gc_sl_add(&cmd, buf);
    }
    if (o->target->mode) {
        snprintf(buf, sizeof buf, "--mode=%s", o->target->mode);
        gc_sl_add(&cmd, buf);
    }
    /* Escapes already in the table stop being crashes for jobs started later. */
    snprintf(buf, sizeof buf, "--skip-known=%s", known_path);
    gc_sl_add(&cmd, buf);
    snprintf(buf, sizeof buf, "-fork=%ld", o->jobs < 1 ? 1 : o->jobs);
    gc_sl_add(&cmd, buf);
    gc_sl_add(&cmd, "-ignore_crashes=1");
    gc_sl_add(&cmd, "-timeout=10");
    gc_sl_add(&cmd, "-rss_limit_mb=2048");
    gc_sl_add(&cmd, "-max_len=512");
    gc_sl_add(&cmd, "-print_final_stats=1");
    snprintf(buf, sizeof buf, "-max_total_time=%ld", o->seconds);
    gc_sl_add(&cmd, buf);
    if (o->runs >= 0) {
        snprintf(buf, sizeof buf, "-runs=%ld", o->runs);
        gc_sl_add(&cmd, buf);
    }
    snprintf(buf, sizeof buf, "-seed=%ld", o->seed);
    gc_sl_add(&cmd, buf);
    snprintf(buf, sizeof buf, "-dict=%s", o->dict);
    gc_sl_add(&cmd, buf);
    snprintf(buf, sizeof buf, "-artifact_prefix=%s/", crashes);
    gc_sl_add(&cmd, buf);
    gc_sl_add(&cmd, work_corpus); /* new inputs go here */
    gc_sl_add(&cmd, o->seeds);    /* read only */
    gc_sl_add(&cmd, NULL);

    int pipefd[2];
    if (pipe(pipefd) != 0) {
        gc_die_msg("pipe: %s", strerror(errno));
        gc_sl_free(&cmd);
        return GC_EXIT_HARNESS;
    }
    char logpath[PATH_MAX + 32];
    snprintf(logpath, sizeof logpath, "%s/fuzz.log", o->out);
    FILE *log = fopen(logpath, "w");
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        gc_die_msg("fork: %s", strerror(errno));
        gc_sl_free(&cmd);
        return GC_EXIT_HARNESS;
    }
    if (pid == 0) { /* the engine works in its own scratch folder */
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
    gc_sl_free(&cmd);
    scan_state fs = {.t = t, .r = r, .known_path = known_path};
    unsigned long eps = 0, last_execs = 0, ignored_eps = 0;
    time_t start = time(NULL), last = start;
    char line[8192];
    size_t have = 0;
    for (;;) {
        struct pollfd p = {pipefd[0], POLLIN, 0};
        if (poll(&p, 1, 1000) > 0) {
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
                parse_status(cur, &r->execs, &r->corpus, &ignored_eps);
                cur = nl ? nl + 1 : line + have;
            }
            have -= (size_t)(cur - line);
            memmove(line, cur, have);
        }
        time_t now = time(NULL);
        if (now - last >= 5) {
            eps = (r->execs - last_execs) / (unsigned long)(now - last);
            last_execs = r->execs;
            last = now;
            scan_crashes(&fs);
            if (!o->quiet)
                fprintf(stderr, "[%4lds] execs %lu (%lu/s)  corpus %lu  escapes %d  distinct %d\n",
                        (long)(now - start), r->execs, eps, r->corpus, r->reproduced, r->nfound);
        }
    }
    close(pipefd[0]);
    if (log)
        fclose(log);
    int status = 0;
    waitpid(pid, &status, 0);
    r->engine_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    scan_crashes(&fs);
    gc_sl_free(&fs.seen);
    r->elapsed = (long)(time(NULL) - start);
    if (!o->quiet)
        fprintf(stderr, "[%4lds] execs %lu (%lu/s overall)  corpus %lu  escapes %d  distinct %d  (done)\n",
                r->elapsed, r->execs, r->elapsed > 0 ? r->execs / (unsigned long)r->elapsed : r->execs, r->corpus,
                r->reproduced, r->nfound);
    if (r->execs == 0 && r->engine_status != 0) {
        gc_die_msg("the fuzzer did not run (exit %d; see %s)", r->engine_status, logpath);
        return r->engine_status >= GC_EXIT_USAGE && r->engine_status <= GC_EXIT_HARNESS ? r->engine_status
                                                                                        : GC_EXIT_HARNESS;
    }
    return 0;
}

void gc_campaign_print_table(const gc_campaign_result *r, const char *name)
{
    printf("\n%d escape input(s), %d distinct escape(s) on %s", r->reproduced, r->nfound, name);
    if (r->flaky)
        printf(" (%d crash input(s) did not reproduce)", r->flaky);
    printf("\n");
    if (r->nfound) {
        printf("%-7s %-8s %-26s %5s  %s\n", "KIND", "CAP", "PRIMITIVE", "SEEN", "CHAIN (shortest seen)");
        for (int k = 0; k < r->nfound; k++)
            printf("%-7s %-8s %-26s %5d  %s\n", r->found[k].kind, r->found[k].cap, r->found[k].prim,
                   r->found[k].count, r->found[k].chain);
    }
    printf("crash inputs: %s\n", r->crashes);
}

void gc_campaign_result_free(gc_campaign_result *r)
{
    free(r->found);
    r->found = NULL;
    r->nfound = r->cap = 0;
}
