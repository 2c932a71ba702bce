/* campaign.c — see campaign.h. */
#define _GNU_SOURCE
#include "campaign.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "backstop.h"
#include "eval.h"
#include "harvest.h"
#include "replay.h"
#include "source.h"
#include "spawn.h"
#include "timelimit.h"
#include "xalloc.h"

typedef struct {
    gc_target *t;
    const gc_session_opts *target; /* as given: a fresh process replays it too */
    const gc_campaign_opts *o;
    gc_campaign_result *r;
    const char *known_path; /* signatures found so far, for fuzz_gate --skip-known */
    const char *pattern;    /* glob of the engine's crash inputs */
    gc_strlist seen;
    gc_strlist kept;        /* resolved chains of those inputs */
    struct timespec t0;     /* the campaign's start, sweep included (OUT/finds.tsv) */
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

/* Exploration forms left in a chain: their meaning is the process's (address or hash order). */
static int explores(const gc_chain *c)
{
    for (int i = 0; i < c->nstmts; i++)
        for (int j = 0; j < c->s[i].ntrailers; j++)
            if (c->s[i].t[j].kind == GC_T_DIR || c->s[i].t[j].kind == GC_T_NTH)
                return 1;
    return 0;
}

/* Why a crash input did not escape when replayed here, in one phrase (the summary names
 * each such input with it).  'from': replayed from its recorded resolved chain. */
static void why_not(scan_state *fs, const char *resolved, int from, const gc_chain *c,
                    const gc_outcome *out, const char *err, char *why, size_t len)
{
    if (err[0]) {
        snprintf(why, len, "could not be run here: %s", err);
        return;
    }
    if (out->timed_out || out->oom) {
        snprintf(why, len, "stopped by the per-input %s limit here (timing)", out->timed_out ? "time" : "memory");
        return;
    }
    if (!from) {
        snprintf(why, len, "no resolved chain was recorded, and its raw bytes mean another chain here");
        return;
    }
    /* not state this process keeps from its own replays? a fresh process tells */
    char exe[4096];
    int fresh = gc_exe_path(exe, sizeof exe) == 0 ? gc_confirm_fresh(exe, fs->target, resolved, 0, NULL, 0) : -1;
    if (fresh == 1)
        snprintf(why, len, "escapes in a fresh process but not after this process's earlier replays (%s)",
                 explores(c) ? "its [#K]/.#K forms name another element here" : "a harness bug: replay state leaks");
    else if (explores(c))
        snprintf(why, len, "its resolved chain keeps [#K]/.#K forms whose meaning depends on the process "
                           "(address or hash order)");
    else
        snprintf(why, len, "its resolved chain escapes only with state an earlier input left in the fuzzing "
                           "process");
}

/* The table's entry for (sig, hole), or a new zeroed one at its end (*added set). */
static gc_finding *finding_slot(gc_campaign_result *r, const char *sig, const char *hole, int *added)
{
    for (int k = 0; k < r->nfound; k++)
        if (strcmp(r->found[k].sig, sig) == 0 && strcmp(r->found[k].hole, hole) == 0) {
            *added = 0;
            return &r->found[k];
        }
    if (r->nfound == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 32;
        r->found = gc_xrealloc(r->found, (size_t)r->cap * sizeof *r->found);
    }
    *added = 1;
    return memset(&r->found[r->nfound++], 0, sizeof r->found[0]);
}

/* Fold the escape crash input 'path' made into the table of distinct escapes, keyed by
 * signature and hole, keeping the shortest input: 'program', the escape's chain on one line
 * or a source target's program, its lines joined by " \\n ". */
static void fold_escape(gc_campaign_result *r, const char *path, const gc_verdict *out, const char *hole,
                        const char *program, int size)
{
    int added;
    gc_finding *f = finding_slot(r, out->signature, hole, &added);
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_input_oneline(program, GC_LINE_SEP, &sb); /* one table cell */
    if (added) {
        const char *base = strrchr(path, '/');
        snprintf(f->first, sizeof f->first, "%s", base ? base + 1 : path);
        snprintf(f->sig, sizeof f->sig, "%s", out->signature);
        snprintf(f->kind, sizeof f->kind, "%s", gc_kind_name(out->escape.kind));
        snprintf(f->cap, sizeof f->cap, "%s", gc_cap_name(out->escape.cap));
        snprintf(f->prim, sizeof f->prim, "%s", out->escape.primitive);
        snprintf(f->chain, sizeof f->chain, "%s", sb.data);
        snprintf(f->hole, sizeof f->hole, "%s", hole);
        snprintf(f->detail, sizeof f->detail, "%s", out->escape.detail);
        f->size = size;
    } else if (strlen(sb.data) < strlen(f->chain)) {
        snprintf(f->chain, sizeof f->chain, "%s", sb.data);
        snprintf(f->detail, sizeof f->detail, "%s", out->escape.detail);
        f->size = size;
    }
    f->count++;
    gc_sb_free(&sb);
}

/* The signatures found so far, one a line, for fuzz_gate --skip-known (written atomically). */
static void write_known(const gc_campaign_result *r, const char *known_path)
{
    gc_strbuf list;
    gc_sb_init(&list);
    for (int k = 0; k < r->nfound; k++)
        gc_sb_printf(&list, "%s\n", r->found[k].sig);
    gc_write_atomic(known_path, list.data ? list.data : "", list.len, 0);
    gc_sb_free(&list);
}

/* The hole a row stands in: its name, or its signature where no hole was named. */
static const char *hole_key(const gc_finding *f)
{
    return f->hole[0] ? f->hole : f->sig;
}

/* Distinct holes among the table's rows. */
static int count_holes(const gc_campaign_result *r)
{
    int n = 0;
    for (int k = 0; k < r->nfound; k++) {
        int j = 0;
        while (j < k && strcmp(hole_key(&r->found[j]), hole_key(&r->found[k])) != 0)
            j++;
        n += j == k;
    }
    return n;
}

/* f, a new row, is the first of its hole: one line (the hole, its capability, the shortest
 * input so far; every signature stays in OUT/finds.tsv and the table). */
static void announce_hole(const scan_state *fs, const gc_finding *f, double t, int swept)
{
    for (const gc_finding *g = fs->r->found; g < f; g++)
        if (strcmp(hole_key(g), hole_key(f)) == 0)
            return;
    gc_strbuf in;
    gc_sb_init(&in);
    gc_input_oneline(f->chain, GC_LINE_SEP, &in);
    fprintf(stderr, "[%4.0fs] new hole %s (%s): %s (found by the %s)\n", t, hole_key(f), f->cap, in.data,
            swept ? "sweep" : "engine");
    gc_sb_free(&in);
}

/* OUT/finds.tsv: one line per new row of the table (signature and hole), when its crash
 * input was written (seconds since the campaign started, its sweep included; the table is
 * folded every few seconds, the file's time is the engine's) and by whom — the benchmark's
 * time to each hole. */
static void record_find(const scan_state *fs, const char *path, const gc_finding *f)
{
    struct timespec at;
    struct stat st;
    int swept = strstr(path, "crash-sweep-") != NULL; /* reported now, its file written after */
    if (!swept && stat(path, &st) == 0)
        at = st.st_mtim;
    else
        clock_gettime(CLOCK_REALTIME, &at);
    double t = (double)(at.tv_sec - fs->t0.tv_sec) + (double)(at.tv_nsec - fs->t0.tv_nsec) / 1e9;
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/finds.tsv", fs->o->out);
    FILE *fp = fopen(p, "a");
    if (!fp)
        return;
    fprintf(fp, "%.3f\t%s\t%s\t%s\t", t < 0 ? 0.0 : t, swept ? "sweep" : "engine", f->hole[0] ? f->hole : "-",
            f->sig);
    for (const char *c = f->chain; *c; c++) /* a source program's lines: \n, so one find is one line */
        if (*c == '\n' || *c == '\t' || *c == '\\')
            fprintf(fp, "\\%c", *c == '\n' ? 'n' : *c == '\t' ? 't' : '\\');
        else
            fputc(*c, fp);
    fputc('\n', fp);
    fclose(fp);
    if (!fs->o->quiet && strcmp(f->kind, "crash") != 0) /* a crash finding has its own line (fold_crash) */
        announce_hole(fs, f, t < 0 ? 0.0 : t, swept);
}

/* Fold the escape 'out' (of crash input 'path') under its hole, the caller's hole_of on
 * the escape's own chain, trimmed as the table shows it. */
static void fold_with_hole(scan_state *fs, const char *path, gc_outcome *out)
{
    char hole[sizeof fs->r->found[0].hole] = "";
    gc_strbuf text;
    gc_sb_init(&text);
    gc_escape_chain_text(out, &text);
    static gc_chain trimmed;
    gc_outcome_escape_chain(out, &trimmed);
    int size = gc_chain_trailer_count(&trimmed);
    if (fs->o->hole_of) /* it runs the input again in its own outcome: 'out' stays */
        fs->o->hole_of(fs->o->hole_ctx, fs->t, text.data, &out->verdict, hole, sizeof hole);
    int before = fs->r->nfound;
    fold_escape(fs->r, path, &out->verdict, hole, text.data, size);
    gc_sb_free(&text);
    if (fs->r->nfound > before)
        record_find(fs, path, &fs->r->found[fs->r->nfound - 1]);
}

/* Crash input 'path' did not escape here: named with its cause in the summary. */
static void not_reproduced(scan_state *fs, const char *path, const char *why)
{
    char line[800];
    snprintf(line, sizeof line, "%s: %s", strrchr(path, '/') ? strrchr(path, '/') + 1 : path, why);
    gc_sl_add(&fs->r->unreproduced, line);
    fs->r->flaky++;
    struct stat st;
    if (stat(path, &st) == 0 && (st.st_mtim.tv_sec > fs->t0.tv_sec ||
                                 (st.st_mtim.tv_sec == fs->t0.tv_sec && st.st_mtim.tv_nsec >= fs->t0.tv_nsec)))
        fs->r->flaky_new++;
}

/* A source target's crash input (source.h): the program it decodes to, printed in the
 * target's dialect and run here; an escape folded by signature and the hole
 * hole_of names, else the input named with its cause. */
static void scan_source_crash(scan_state *fs, const char *path)
{
    static gc_verdict out;
    gc_strbuf src;
    gc_sb_init(&src);
    char note[256], why[600] = "";
    int rc = gc_replay_source(fs->t, path, 1, &src, &out, note, sizeof note, why, sizeof why);
    if (rc == 0 && out.escaped) {
        char hole[sizeof fs->r->found[0].hole] = "";
        if (fs->o->hole_of)
            fs->o->hole_of(fs->o->hole_ctx, fs->t, src.data, &out, hole, sizeof hole);
        fs->r->reproduced++;
        int before = fs->r->nfound;
        fold_escape(fs->r, path, &out, hole, src.data, gc_program_size(src.data, src.len));
        if (fs->r->nfound > before)
            record_find(fs, path, &fs->r->found[fs->r->nfound - 1]);
    } else if (rc >= 0) { /* an unreadable one is not an input yet */
        char cause[128];
        if (rc == 0 && gc_verdict_of(fs->t, &out, cause, sizeof cause) == GC_VERDICT_INCONCLUSIVE)
            snprintf(why, sizeof why, "its program is inconclusive here (%s; %s)", note, cause);
        else if (rc == 0)
            snprintf(why, sizeof why, "its program does not escape here (%s)", note);
        not_reproduced(fs, path, why);
    }
    gc_sb_free(&src);
}

/* A crash finding: input 'path' crashed the target in a fresh process ('sig':
 * crash:SIG:WHERE), its input 'text' (one line), folded by signature, shortest input kept. */
static void fold_crash(scan_state *fs, const char *path, const char *sig, const char *text)
{
    gc_campaign_result *r = fs->r;
    r->crash_inputs++;
    gc_finding *f = NULL;
    for (int k = 0; k < r->ncrashed && !f; k++)
        if (strcmp(r->crashed[k].sig, sig) == 0)
            f = &r->crashed[k];
    if (!f) {
        if (r->ncrashed == r->crash_cap) {
            r->crash_cap = r->crash_cap ? r->crash_cap * 2 : 8;
            r->crashed = gc_xrealloc(r->crashed, (size_t)r->crash_cap * sizeof *r->crashed);
        }
        f = memset(&r->crashed[r->ncrashed++], 0, sizeof *f);
        const char *sigp = sig + strlen("crash:"), *where = strchr(sigp, ':');
        snprintf(f->sig, sizeof f->sig, "%s", sig);
        snprintf(f->kind, sizeof f->kind, "crash");
        snprintf(f->cap, sizeof f->cap, "%.*s", where ? (int)(where - sigp) : (int)strlen(sigp), sigp);
        snprintf(f->prim, sizeof f->prim, "%s", where && where[1] ? where + 1 : "(no Python frame)");
        snprintf(f->first, sizeof f->first, "%s", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
        snprintf(f->chain, sizeof f->chain, "%s", text);
        record_find(fs, path, f);
        if (!fs->o->quiet)
            fprintf(stderr, "[crash] %s: the input crashed the target (%s at %s): a crash finding; the campaign goes "
                            "on\n", f->first, f->cap, f->prim);
    } else if (strlen(text) < strlen(f->chain)) {
        snprintf(f->chain, sizeof f->chain, "%s", text);
    }
    f->count++;
}

/* A crash input's input as one table cell: its chain (resolved when recorded) or program. */
static void crash_text(scan_state *fs, const char *path, gc_strbuf *out)
{
    gc_strbuf src;
    gc_sb_init(&src);
    if (fs->t->spec.kind == GC_TARGET_SOURCE) {
        gc_crash_program(path, fs->t->spec.adapter.dialect, &src);
    } else {
        static gc_chain c;
        if (gc_crash_chain(path, &c, NULL, 0) >= 0)
            gc_chain_print_oneline(&c, &src);
    }
    gc_input_oneline(src.data ? src.data : "", GC_LINE_SEP, out);
    gc_sb_free(&src);
}

/* A crash input the engine saved for its own reasons, not an escape it recorded: the fuzzing
 * process died on it (a segfault or abort in the target's code or in CPython itself, e.g.
 * time.pthread_getcpuclockid(1) reached through a proxy's real module) or hung.  Replayed
 * here it would take this process down too, so it runs first in a fresh one: one that crashes
 * the target there is a crash finding; one that stops that process otherwise (a hang, the
 * harness's own crash) is named as what it is; neither is replayed here.  1 when so. */
static int stops_a_process(scan_state *fs, const char *path)
{
    char exe[4096], sig[256] = "";
    int fresh = gc_exe_path(exe, sizeof exe) == 0 ? gc_confirm_fresh(exe, fs->target, path, 1, sig, sizeof sig) : -1;
    if (fresh == 2) {
        gc_strbuf text;
        gc_sb_init(&text);
        crash_text(fs, path, &text);
        fold_crash(fs, path, sig, text.data ? text.data : "");
        gc_sb_free(&text);
        return 1;
    }
    if (fresh >= 0)
        return 0;
    not_reproduced(fs, path, "stops a fresh gatecrash replay too (it hangs the interpreter, or crashes the harness "
                             "itself: not an escape; gatecrash replay --raw runs it alone)");
    return 1;
}

/* libFuzzer's own artifact (crash-<SHA-1>: the process died on the input), not an escape a
 * job recorded (crash-<FNV-1a 64>, findings.h) nor the sweep's (crash-sweep-NNNN). */
static int engine_artifact(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    return strncmp(base, "crash-", 6) == 0 && strlen(base + 6) == 40 && strspn(base + 6, "0123456789abcdef") == 40;
}

/* Replay crash inputs not seen yet (their recorded resolved chain, else their bytes decoded
 * as the fuzzer decoded them) and fold them into the table of distinct escapes, keyed by
 * signature, keeping the shortest chain; name each that does not escape with its cause. */
static void scan_crashes(scan_state *fs)
{
    gc_strlist files = {0};
    glob_t g;
    if (glob(fs->pattern, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            gc_sl_add(&files, g.gl_pathv[i]);
        globfree(&g);
    }
    static gc_chain chain;
    static gc_outcome out;
    for (int i = 0; i < files.n; i++) {
        if (gc_sl_contains(&fs->seen, files.v[i]))
            continue;
        gc_sl_add(&fs->seen, files.v[i]);
        const char *path = files.v[i];
        if (fs->t->spec.kind == GC_TARGET_SOURCE) {
            if (!engine_artifact(path) || !stops_a_process(fs, path))
                scan_source_crash(fs, path);
            continue;
        }
        char resolved[4096];
        int from = gc_crash_chain(path, &chain, resolved, sizeof resolved);
        if (from < 0)
            continue;
        if (from)
            gc_sl_add(&fs->kept, resolved);
        if (!from && stops_a_process(fs, path))
            continue;
        char err[512] = "";
        if (gc_run_input(fs->t, &chain, &out, NULL, NULL, err, sizeof err) || !out.escaped) {
            char why[600];
            why_not(fs, resolved, from, &chain, &out, err, why, sizeof why);
            not_reproduced(fs, path, why);
            continue;
        }
        fs->r->reproduced++;
        fold_with_hole(fs, path, &out);
    }
    for (int i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    if (fs->known_path) /* atomic: a reader never sees half a list */
        write_known(fs->r, fs->known_path);
}


/* Resolved chains of escaping inputs the engine did not keep (AFL++ saves one input per new
 * path, fuzz_gate records every escape it runs) are removed at the end. */
static void prune_resolved(scan_state *fs, const char *crashes)
{
    char pattern[4200];
    snprintf(pattern, sizeof pattern, "%s/" GC_RESOLVED_DIR "/*", crashes);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++)
        if (!gc_sl_contains(&fs->kept, g.gl_pathv[i]))
            unlink(g.gl_pathv[i]);
    globfree(&g);
}

/* OUT/seeds: the seed corpus's inputs and the sweep's frontier inputs (sweep-NNNN). */
static int write_seeds(const gc_campaign_opts *o, const gc_inputs *frontier, char *dir, size_t len)
{
    snprintf(dir, len, "%s/seeds", o->out);
    gc_rm_tree(dir);
    if (gc_mkdirs(dir) < 0) {
        gc_die_msg("cannot create %s: %s", dir, strerror(errno));
        return GC_EXIT_USAGE;
    }
    gc_strlist in = {0};
    gc_collect_inputs(o->seeds, &in);
    char dst[PATH_MAX * 2];
    for (int i = 0; i < in.n; i++) {
        snprintf(dst, sizeof dst, "%s/%s", dir, strrchr(in.v[i], '/') ? strrchr(in.v[i], '/') + 1 : in.v[i]);
        gc_copy_file(in.v[i], dst);
    }
    gc_sl_free(&in);
    for (int i = 0; i < frontier->n; i++) { /* not synced one by one: the folder is made anew each run */
        snprintf(dst, sizeof dst, "%s/sweep-%04d", dir, i);
        FILE *f = fopen(dst, "w");
        int bad = !f || fwrite(frontier->v[i], 1, frontier->len[i], f) != frontier->len[i];
        if (f && fclose(f) != 0)
            bad = 1;
        if (bad) {
            gc_die_msg("cannot write %s: %s", dst, strerror(errno));
            return GC_EXIT_USAGE;
        }
    }
    return 0;
}

/* The sweep's escapes as its levels complete (gc_presweep_sink): each named
 * crash-sweep-NNNN in the order found, reported at once and folded into the table as found
 * by the sweep; its crash input kept for sweep_phase to write. */
typedef struct {
    scan_state *fs;
    gc_inputs files; /* the crash inputs' bytes, crash-sweep-NNNN's at [NNNN] */
    long nodes;      /* the nodes the sweep's last try reached (-1: it did not say) */
} sweep_sink;

static void sweep_found(void *ctx, const gc_finding *e, const void *input, size_t len)
{
    sweep_sink *sk = ctx;
    gc_campaign_result *r = sk->fs->r;
    char path[PATH_MAX + 64]; /* a crash input like the engine's: triage and nightly take it alike */
    snprintf(path, sizeof path, "%s/crashes/crash-sweep-%04d", sk->fs->o->out, r->swept);
    gc_sl_add(&sk->fs->seen, path);
    gc_inputs_add(&sk->files, input ? input : e->chain, input ? len : strlen(e->chain));
    r->swept++;
    r->reproduced++;
    int added;
    gc_finding *f = finding_slot(r, e->sig, e->hole, &added);
    if (!added) {
        f->count++;
        return;
    }
    *f = *e;
    f->count = 1;
    snprintf(f->first, sizeof f->first, "%s", strrchr(path, '/') + 1);
    record_find(sk->fs, path, f);
}

/* ---- the sweep in a child process: an input that crashes the target ends that process, not
 * the campaign ---- */

/* What the child tells the parent, through a socket: each escape as the sink gets it ('F', the
 * finding, its input), each frontier input ('I'), the nodes it reached ('N'), then the
 * sweep's exit code ('E').  A child that ends without 'E' crashed. */
static int put_all(int fd, const void *p, size_t n)
{
    for (const char *c = p; n > 0;) {
        ssize_t w = write(fd, c, n);
        if (w <= 0 && errno != EINTR)
            return -1;
        if (w > 0)
            c += w, n -= (size_t)w;
    }
    return 0;
}

static int get_all(int fd, void *p, size_t n)
{
    for (char *c = p; n > 0;) {
        ssize_t r = read(fd, c, n);
        if (r == 0 || (r < 0 && errno != EINTR))
            return -1;
        if (r > 0)
            c += r, n -= (size_t)r;
    }
    return 0;
}

static void put_record(int fd, char type, const gc_finding *f, const void *data, size_t len, int has)
{
    if (put_all(fd, &type, 1) || (f && put_all(fd, f, sizeof *f)) || put_all(fd, &has, sizeof has) ||
        put_all(fd, &len, sizeof len) || put_all(fd, data, len))
        return; /* the parent is gone */
}

static void child_found(void *ctx, const gc_finding *e, const void *input, size_t len)
{
    put_record(*(int *)ctx, 'F', e, input, input ? len : 0, input != NULL);
}

/* The child: the sweep, its escapes and frontier written to fd; never returns. */
static void sweep_child(scan_state *fs, int fd, int outfd, volatile long *node_at, const long *skip, int nskip)
{
    PyOS_AfterFork_Child();
    gc_backstop_forked(); /* dirty bits of its own: a state check after each input only for what changed */
    gc_limits_crash_fd = outfd; /* the crash line (timelimit.h), with its JSON object */
    gc_limits_crash_label = "sweep";
    gc_limits_crash_json = 1;
    gc_limits_crash_host = 1; /* the walk reads the target's values in the host: a crash there skips its node */
    gc_inputs front = {0};
    const gc_campaign_opts *o = fs->o;
    long nodes = -1;
    gc_presweep_sink sink = {child_found, &fd, node_at, skip, nskip, &nodes};
    int rc = o->presweep(o->presweep_ctx, fs->t, &sink, &front);
    for (int i = 0; !rc && i < front.n; i++)
        put_record(fd, 'I', NULL, front.v[i], front.len[i], 1);
    put_record(fd, 'N', NULL, &nodes, sizeof nodes, 1);
    put_record(fd, 'E', NULL, &rc, sizeof rc, 1);
    fflush(stderr);
    syscall(SYS_exit_group, 0); /* no atexit: the parent's limits line is the campaign's */
}

/* The parent's side of one try: the child's records handed on (an escape the table has from
 * an earlier try is not handed twice); 1 when the child ended without its exit code. */
static int read_child(scan_state *fs, int fd, sweep_sink *sk, gc_inputs *front, int *rc)
{
    char type;
    int ended = 0;
    gc_finding f;
    while (!ended && get_all(fd, &type, 1) == 0) {
        int has = 0;
        size_t len = 0;
        if ((type == 'F' && get_all(fd, &f, sizeof f)) || get_all(fd, &has, sizeof has) ||
            get_all(fd, &len, sizeof len) || len > (64u << 20))
            break;
        char *data = gc_xmalloc(len + 1);
        if (get_all(fd, data, len) == 0) {
            int known = 0;
            for (int k = 0; type == 'F' && k < fs->r->nfound && !known; k++)
                known = strcmp(fs->r->found[k].sig, f.sig) == 0 && strcmp(fs->r->found[k].hole, f.hole) == 0;
            if (type == 'F' && !known)
                sweep_found(sk, &f, has ? data : NULL, len);
            else if (type == 'I')
                gc_inputs_add(front, data, len);
            else if (type == 'N' && len == sizeof sk->nodes)
                memcpy(&sk->nodes, data, sizeof sk->nodes);
            else if (type == 'E' && len == sizeof *rc)
                memcpy(rc, data, sizeof *rc), ended = 1;
        }
        free(data);
    }
    return !ended;
}

#define SWEEP_TRIES 8 /* a sweep that crashes the target more often is given up */

/* A crash of the sweep's process, as its crash line said. */
typedef struct {
    long node;       /* the node whose expansion it was (-1: outside a node's expansion) */
    int host;        /* the walk's own read of a value in the host, not an input */
    char what[64];   /* the signal's name */
    char where[160]; /* where it was ("" unknown) */
    char sig[256];   /* crash:WHAT:WHERE, as a fresh replay's; "" when nothing crashed */
} sweep_crash;

/* The crash line's object (the child's last words) into *c. */
static void crash_of_line(const char *js, sweep_crash *c)
{
    cJSON *j = cJSON_Parse(js);
    const cJSON *what = cJSON_GetObjectItemCaseSensitive(j, "crash"), *w = cJSON_GetObjectItemCaseSensitive(j, "where");
    c->host = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "host"));
    snprintf(c->what, sizeof c->what, "%s", cJSON_IsString(what) ? what->valuestring : "?");
    snprintf(c->where, sizeof c->where, "%s", cJSON_IsString(w) ? w->valuestring : "");
    snprintf(c->sig, sizeof c->sig, "crash:%s:%s", c->what, c->where);
    cJSON_Delete(j);
}

/* A channel from the sweep's process to the campaign: a stream socket pair, never a pipe.
 * That process runs the sandbox's code, which must see the process its host gives it: no
 * pipe opened after its import (a sandbox that counts its pipes to find one an input left
 * would judge every program against these). */
static int sweep_channel(int sv[2])
{
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
}

/* One try of the sweep in a child process, its nodes in skip[] not expanded.  0 or an exit
 * code; when an input crashed the target, or the walk's own read of a value in the host
 * did, what crashed in *c (c->sig "" otherwise). */
static int sweep_try(scan_state *fs, sweep_sink *sk, gc_inputs *front, const long *skip, int nskip, sweep_crash *c)
{
    int rec[2], out[2];
    volatile long *node_at = mmap(NULL, sizeof(long), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    memset(c, 0, sizeof *c);
    c->node = -1;
    if (node_at == MAP_FAILED || sweep_channel(rec) != 0 || sweep_channel(out) != 0) {
        gc_die_msg("cannot start the sweep's process: %s", strerror(errno));
        return GC_EXIT_HARNESS;
    }
    *node_at = -1;
    fflush(stdout);
    fflush(stderr);
    PyOS_BeforeFork();
    gc_backstop_harness_fork(1);
    pid_t pid = fork();
    gc_backstop_harness_fork(0);
    if (pid == 0) {
        close(rec[0]);
        close(out[0]);
        sweep_child(fs, rec[1], out[1], node_at, skip, nskip);
    }
    PyOS_AfterFork_Parent();
    close(rec[1]);
    close(out[1]);
    int rc = GC_EXIT_HARNESS;
    int died = pid < 0 || read_child(fs, rec[0], sk, front, &rc);
    close(rec[0]);
    char text[4096] = "";
    ssize_t n = pid > 0 ? read(out[0], text, sizeof text - 1) : 0;
    text[n > 0 ? n : 0] = '\0';
    close(out[0]);
    int st = 0;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    gc_backstop_reaped(pid);
    const char *js = strstr(text, "{\"crash\":\"");
    if (died && js) {
        crash_of_line(js, c);
        c->node = *node_at;
        rc = 0;
    } else if (died && WIFEXITED(st) && WEXITSTATUS(st) >= GC_EXIT_USAGE && WEXITSTATUS(st) <= GC_EXIT_HARNESS) {
        rc = WEXITSTATUS(st); /* its one line said why (the install crashed: 3) */
    } else if (died) {
        gc_die_msg("the sweep's process ended without its results (%s %d)", WIFSIGNALED(st) ? "signal" : "exit",
                   WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    }
    munmap((void *)node_at, sizeof(long));
    return rc;
}

/* The sweep, in a child process: an input that crashes the target there is a crash finding
 * (OUT/finds.tsv and the table name where; its node is named, no input file is written), and
 * the sweep runs again without expanding that node, its escapes so far kept.  A crash of the
 * walk's own read of a node's value in the host (a C getter of the target's that reads a bad
 * address, a CPython bug) is no finding: one line, and that node is skipped the same way. */
static int sweep_isolated(scan_state *fs, sweep_sink *sk, gc_inputs *front)
{
    long skip[SWEEP_TRIES];
    int nskip = 0, rc = 0;
    for (;;) {
        sweep_crash c;
        gc_inputs_free(front);
        rc = sweep_try(fs, sk, front, skip, nskip, &c);
        if (rc || !c.sig[0])
            return rc;
        char name[64], path[PATH_MAX + 64];
        snprintf(name, sizeof name, "(the sweep, expanding its node %ld: no input saved)", c.node);
        snprintf(path, sizeof path, "%s/crashes/crash-sweep-node-%ld", fs->o->out, c.node);
        if (!c.host)
            fold_crash(fs, path, c.sig, name);
        else if (!fs->o->quiet)
            fprintf(stderr, "[sweep] reading node %ld's values in the host crashed the sweep's process (%s%s%s, outside "
                            "any input: no finding); the sweep goes on without that node\n",
                    c.node, c.what, c.where[0] ? " at " : "", c.where);
        if (nskip == SWEEP_TRIES || c.node < 0) {
            if (!fs->o->quiet)
                fprintf(stderr, "[sweep] the target crashed %d times during the sweep: the engine goes on without it\n",
                        nskip + 1);
            gc_inputs_free(front);
            return 0;
        }
        skip[nskip++] = c.node;
    }
}

/* The hybrid's first phase (gc_campaign_opts.presweep): the sweep's escapes reported as
 * its levels complete (sweep_found), then saved as crash inputs (OUT/crashes/crash-sweep-NNNN,
 * for both engines); its frontier written with the seeds into 'seeds' (OUT/seeds), the
 * folder the engine then reads.  The sweep runs in a child process (sweep_isolated). */
static int sweep_phase(scan_state *fs, char *seeds, size_t len)
{
    const gc_campaign_opts *o = fs->o;
    gc_inputs front = {0};
    sweep_sink sk = {fs, {0}, -1};
    double t0 = gc_now_s();
    int rc = sweep_isolated(fs, &sk, &front);
    gc_campaign_result *r = fs->r;
    char path[PATH_MAX + 64];
    for (int i = 0; !rc && i < sk.files.n; i++) { /* written after the report, synced at once (a file */
        snprintf(path, sizeof path, "%s/crashes/crash-sweep-%04d", o->out, i); /* each: seconds) */
        gc_write_atomic_batch(path, (const char *)sk.files.v[i], sk.files.len[i]);
    }
    snprintf(path, sizeof path, "%s/crashes", o->out);
    if (!rc && sk.files.n)
        gc_sync_batch(path);
    if (!rc)
        rc = write_seeds(o, &front, seeds, len);
    r->seeded = front.n;
    r->swept_s = gc_now_s() - t0;
    r->sweep_nodes = sk.nodes;
    if (!rc && !o->quiet)
        fprintf(stderr, "[sweep] %d escape(s) found by the sweep in %.1fs, %d distinct; %d frontier input(s) seeded "
                        "into %s\n",
                r->swept, r->swept_s, r->nfound, front.n, seeds);
    if (!rc && sk.nodes == 0) /* said whatever -q: the campaign's exit rests on it */
        fprintf(stderr, "[sweep] WARNING: the sweep reached no node: no program it ran gave back a value to walk from, so it saw "
                        "nothing run as the host runs it\n");
    gc_inputs_free(&front);
    gc_inputs_free(&sk.files);
    return rc;
}

/* 'name' is an executable on PATH. */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    char dir[PATH_MAX], full[PATH_MAX * 2];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)n, path);
        snprintf(full, sizeof full, "%s/%s", n ? dir : ".", name);
        if (access(full, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* 's' stays one word on a shell command line: libFuzzer joins its jobs' arguments with
 * spaces and quotes nothing. */
static int shell_word(const char *s)
{
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !((unsigned char)*s & 0x80) && !strchr("/._-+,:@%=", *s))
            return 0;
    return 1;
}

int gc_campaign_prepare(const gc_campaign_opts *o)
{
    const char *sub[] = {"crashes", "corpus", "scratch"};
    char p[PATH_MAX + 32];
    const char *handed[] = {o->out, o->seeds, o->dict, o->corpus_out, o->fuzzer, o->merger};
    for (size_t i = 0; i < sizeof handed / sizeof handed[0]; i++)
        if (handed[i] && !shell_word(handed[i])) {
            gc_die_msg("path '%s' has a space or shell character: libFuzzer runs its jobs through a shell "
                       "command line, which would split it (use letters, digits and /._-+,:@%%= only)",
                       handed[i]);
            return GC_EXIT_USAGE;
        }
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
        gc_die_msg(o->engine == GC_ENGINE_AFL ? "fuzzer binary %s not found (install afl++ and rebuild: it is built "
                                                "when afl-clang-fast is on PATH)"
                                              : "fuzzer binary %s not found (build with clang: cmake "
                                                "-DGATECRASH_ENGINE=libfuzzer)",
                   o->fuzzer);
        return GC_EXIT_USAGE;
    }
    if (o->engine == GC_ENGINE_AFL && !on_path("afl-fuzz")) {
        gc_die_msg("afl-fuzz is not on PATH (apt-get install afl++)");
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

int gc_engine_parse(const char *name)
{
    return strcmp(name, "libfuzzer") == 0 ? GC_ENGINE_LIBFUZZER : strcmp(name, "afl") == 0 ? GC_ENGINE_AFL : -1;
}

/* Our options for fuzz_gate / fuzz_gate_afl.  Which target and oracle: the folder
 * write_target made, never the JSON or the sandbox path itself (libFuzzer's fork, merge and
 * minimize modes re-run fuzz_gate through a shell command line that would split them). */
static void add_target_flags(gc_strlist *cmd, const gc_campaign_opts *o)
{
    char buf[PATH_MAX * 2];
    snprintf(buf, sizeof buf, "--target=%s/target", o->out);
    gc_sl_add(cmd, buf);
    /* the hangs one job confirmed, every later job's (hangs.h) */
    snprintf(buf, sizeof buf, "--known-hangs=%s/" GC_KNOWN_HANGS, o->out);
    gc_sl_add(cmd, buf);
    if (o->no_harvest)
        gc_sl_add(cmd, "--mutator=no-harvest");
}

/* <out>/target/target.json: the target as this process resolved it (inline --sandbox and
 * --requires, a --mode override), for add_target_flags.  0 or an exit code. */
static int write_target(const gc_target *t, const gc_campaign_opts *o)
{
    char dir[PATH_MAX + 16], err[PATH_MAX + 128];
    snprintf(dir, sizeof dir, "%s/target", o->out);
    int rc = gc_target_spec_write(&t->spec, dir, err, sizeof err);
    if (rc)
        gc_die_msg("%s", err);
    return rc;
}

/* Start argv in folder 'cwd' with stdout and stderr on 'outfd' (through the spawner:
 * spawn.h); -1 on failure. */
static pid_t spawn_in(char **argv, const char *cwd, int outfd)
{
    return gc_spawn(argv, cwd, outfd, outfd);
}

void gc_rate_add(gc_rate *w, long t, unsigned long execs)
{
    if (w->len > 0 && execs == w->n[w->len - 1])
        return;
    /* keep one sample at least a window older than the newest, and room for the new one */
    int drop = 0;
    while (drop + 1 < w->len && w->t[drop + 1] <= t - GC_RATE_WINDOW)
        drop++;
    if (w->len - drop == GC_RATE_SAMPLES)
        drop++;
    memmove(w->t, w->t + drop, (size_t)(w->len - drop) * sizeof w->t[0]);
    memmove(w->n, w->n + drop, (size_t)(w->len - drop) * sizeof w->n[0]);
    w->len -= drop;
    w->t[w->len] = t;
    w->n[w->len++] = execs;
}

unsigned long gc_rate_per_s(const gc_rate *w)
{
    if (w->len < 2)
        return 0;
    int last = w->len - 1, base = 0;
    while (base + 1 < last && w->t[base + 1] <= w->t[last] - GC_RATE_WINDOW)
        base++;
    long dt = w->t[last] - w->t[base];
    return dt > 0 && w->n[last] > w->n[base] ? (w->n[last] - w->n[base]) / (unsigned long)dt : 0;
}

long gc_eta_s(long elapsed, long seconds, unsigned long execs, long runs, unsigned long rate)
{
    long left = seconds > 0 ? (seconds > elapsed ? seconds - elapsed : 0) : -1;
    if (runs >= 0 && rate > 0) {
        long by_runs = (unsigned long)runs > execs ? (long)(((unsigned long)runs - execs + rate - 1) / rate) : 0;
        if (left < 0 || by_runs < left)
            left = by_runs;
    }
    return left;
}

/* OUT/progress.tsv, the campaign's progress over time for the reports (report.html's
 * chart): its header and a row of zeros at the start (truncating a previous run's), then
 * one row per progress line and one at the end. */
static void record_progress(const gc_campaign_opts *o, const gc_campaign_result *r, long elapsed, unsigned long eps)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/progress.tsv", o->out);
    FILE *f = fopen(path, r ? "a" : "w");
    if (!f)
        return;
    if (!r) {
        fputs("seconds\texecs\texecs_per_s\tcorpus\tescape_inputs\tsignatures\tholes\n0\t0\t0\t0\t0\t0\t0\n", f);
        fclose(f);
        return;
    }
    int sigs = 0, holes = 0;
    for (int i = 0; i < r->nfound; i++) {
        int new_sig = 1, new_hole = r->found[i].hole[0] != '\0';
        for (int k = 0; k < i; k++) {
            new_sig &= strcmp(r->found[k].sig, r->found[i].sig) != 0;
            new_hole &= strcmp(r->found[k].hole, r->found[i].hole) != 0;
        }
        sigs += new_sig;
        holes += new_hole;
    }
    fprintf(f, "%ld\t%lu\t%lu\t%lu\t%d\t%d\t%d\n", elapsed, r->execs, eps, r->corpus, r->reproduced, sigs, holes);
    fclose(f);
}

/* The sweep's whole seconds: a line's [Ns] counts from the campaign's start, as the new-hole
 * lines do (the engine's own seconds, its rate and OUT/progress.tsv, from its start). */
static long swept_s(const gc_campaign_result *r)
{
    return (long)(r->swept_s + 0.5);
}

/* One progress line: counts so far, the windowed rate, the time left of a bounded run. */
static void progress(const gc_campaign_opts *o, gc_campaign_result *r, time_t start, gc_rate *w)
{
    long elapsed = (long)(time(NULL) - start);
    gc_rate_add(w, elapsed, r->execs);
    unsigned long eps = gc_rate_per_s(w);
    long left = gc_eta_s(elapsed, o->seconds, r->execs, o->runs, eps);
    char eta[48] = "";
    if (left >= 0)
        snprintf(eta, sizeof eta, "  ~%ldm%02lds left", left / 60, left % 60);
    if (!o->quiet)
        fprintf(stderr, "[%4lds] execs %lu (%lu/s)  corpus %lu  escapes %d  distinct %d  holes %d%s\n",
                elapsed + swept_s(r), r->execs, eps, r->corpus, r->reproduced, r->nfound, count_holes(r), eta);
    record_progress(o, r, elapsed, eps);
}

/* fuzz_gate's command line for a libFuzzer run (NULL-terminated). */
static void libfuzzer_cmd(const gc_campaign_opts *o, const gc_campaign_result *r, const char *known_path,
                          const char *work_corpus, gc_strlist *cmd)
{
    char buf[PATH_MAX * 2];
    gc_sl_add(cmd, o->fuzzer);
    add_target_flags(cmd, o);
    /* Escapes already in the table stop being crashes for jobs started later. */
    snprintf(buf, sizeof buf, "--skip-known=%s", known_path);
    gc_sl_add(cmd, buf);
    if (o->runs >= 0 && o->jobs <= 1) {
        /* A bounded one-job run is deterministic: one process, escapes saved and fuzzing
         * goes on (fuzz_gate --escapes=record, which also turns address randomization
         * off), so the same run twice finds the same.  Nothing may depend on the clock:
         * no corpus re-read every second (-reload), no input run again when it mallocs
         * more than it frees (libFuzzer's leak check under ASan; CPython always does),
         * and a time limit only blocked inputs reach (0.02 s cuts slow ones short, by the
         * machine's speed).  docs/RELIABILITY.md, "Deterministic runs". */
        gc_sl_add(cmd, "--escapes=record");
        gc_sl_add(cmd, "-reload=0");
        gc_sl_add(cmd, "-detect_leaks=0");
        gc_sl_add(cmd, "--input-timeout=2");
    } else {
        snprintf(buf, sizeof buf, "-fork=%ld", o->jobs < 1 ? 1 : o->jobs);
        gc_sl_add(cmd, buf);
        gc_sl_add(cmd, "-ignore_crashes=1");
        /* An escape is saved and the job goes on: as a crash it ended its job, and each new
         * escape cost a process's start-up (CPython, the target, the job's seed inputs): on
         * station-1.5.0, 159 jobs in a 30 s campaign, 280,000 inputs against 1.78 million */
        gc_sl_add(cmd, "--escapes=record");
    }
    gc_sl_add(cmd, "-timeout=10");
    gc_sl_add(cmd, "-rss_limit_mb=2048");
    gc_sl_add(cmd, "-max_len=512");
    gc_sl_add(cmd, "-print_final_stats=1");
    snprintf(buf, sizeof buf, "-max_total_time=%ld", o->seconds);
    gc_sl_add(cmd, buf);
    if (o->runs >= 0) {
        snprintf(buf, sizeof buf, "-runs=%ld", o->runs);
        gc_sl_add(cmd, buf);
    }
    snprintf(buf, sizeof buf, "-seed=%ld", o->seed);
    gc_sl_add(cmd, buf);
    snprintf(buf, sizeof buf, "-dict=%s", o->dict);
    gc_sl_add(cmd, buf);
    snprintf(buf, sizeof buf, "-artifact_prefix=%s/", r->crashes);
    gc_sl_add(cmd, buf);
    gc_sl_add(cmd, work_corpus); /* new inputs go here */
    gc_sl_add(cmd, o->seeds);    /* read only */
    gc_sl_add(cmd, NULL);
}

/* libFuzzer's fork mode names its work folder ("INFO: -fork=N: K seed inputs, starting to
 * fuzz in DIR"): kept in dir. */
static void fork_folder(const char *line, char *dir, size_t len)
{
    const char *at = strncmp(line, "INFO: -fork=", 12) == 0 ? strstr(line, "starting to fuzz in ") : NULL;
    if (at)
        snprintf(dir, len, "%s", at + 20);
}

/* The campaign's time is up: its jobs stop within a second.  The fork-mode parent checks its
 * time only when a job ends, and a job runs as many seconds as its number (up to 300), so the
 * last one ran on up to its full slice past --time; each job polls the -stop_file its parent
 * gives it, DIR/STOP, once a second, and ends as at its own time limit (its corpus merged, its
 * statistics counted).  1 once written. */
static int stop_jobs(const char *dir)
{
    char path[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s/STOP", dir);
    return gc_write_atomic(path, "1", 1, 0) == 0;
}

/* Read the engine's output as it comes (each line into the log, its errors onto stderr, its
 * status lines into r), and every 5 s replay new crash inputs and print progress; until
 * the engine closes its end of the pipe. */
static void follow_libfuzzer(int fd, FILE *log, const gc_campaign_opts *o, gc_campaign_result *r, scan_state *fs,
                             time_t start)
{
    unsigned long ignored_eps = 0;
    gc_rate rate = {.len = 1}; /* 0 execs at 0 s */
    time_t last = start;
    char line[8192], work[PATH_MAX] = "";
    size_t have = 0;
    int stopping = 0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 1000) > 0) {
            ssize_t n = read(fd, line + have, sizeof line - 1 - have);
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
                /* its errors, and a source target's node kinds never accepted (node_kinds.h) */
                if (strncmp(cur, "gatecrash: error", 16) == 0 || strncmp(cur, "gatecrash: node kinds", 21) == 0)
                    fprintf(stderr, "%s\n", cur);
                parse_status(cur, &r->execs, &r->corpus, &ignored_eps);
                fork_folder(cur, work, sizeof work);
                cur = nl ? nl + 1 : line + have;
            }
            have -= (size_t)(cur - line);
            memmove(line, cur, have);
        }
        time_t now = time(NULL);
        if (!stopping && work[0] && o->seconds > 0 && now - start >= o->seconds && (stopping = stop_jobs(work)) &&
            log)
            fprintf(log, "gatecrash: the campaign's time is up: its jobs are told to stop (%s/STOP)\n", work);
        if (now - last >= 5) {
            last = now;
            scan_crashes(fs);
            progress(o, r, start, &rate);
        }
    }
}

/* libFuzzer in fork mode: one child, whose status lines arrive on a pipe. */
static int run_libfuzzer(const gc_campaign_opts *o, gc_campaign_result *r, scan_state *fs, const char *known_path,
                         const char *work_corpus, const char *scratch, time_t start, pid_t *pid_out)
{
    gc_strlist cmd = {0};
    libfuzzer_cmd(o, r, known_path, work_corpus, &cmd);
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        gc_die_msg("pipe: %s", strerror(errno));
        gc_sl_free(&cmd);
        return GC_EXIT_HARNESS;
    }
    char logpath[PATH_MAX + 32];
    snprintf(logpath, sizeof logpath, "%s/fuzz.log", o->out);
    FILE *log = fopen(logpath, "w");
    pid_t pid = spawn_in(cmd.v, scratch, pipefd[1]); /* the engine works in its own scratch */
    gc_sl_free(&cmd);
    close(pipefd[1]);
    if (pid < 0) {
        gc_die_msg("fork: %s", strerror(errno));
        close(pipefd[0]);
        if (log)
            fclose(log);
        return GC_EXIT_HARNESS;
    }
    *pid_out = pid;
    follow_libfuzzer(pipefd[0], log, o, r, fs, start);
    close(pipefd[0]);
    if (log)
        fclose(log);
    return 0;
}

/* An AFL++ instance's progress: execs from fuzzer_stats ("execs_done : N",
 * rewritten every minute, and at the end), the queue size from the newest "Fuzzing test case #i (N total"
 * line of its log (afl-fuzz without its UI prints one per queue entry it picks). */
static void afl_progress(const char *stats, const char *log, unsigned long *execs, unsigned long *corpus)
{
    char line[1024];
    unsigned long e = 0, c = 0;
    FILE *f = fopen(stats, "r");
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "execs_done", 10) == 0 && strchr(line, ':'))
            e = strtoul(strchr(line, ':') + 1, NULL, 10);
        if (strncmp(line, "corpus_count", 12) == 0 && strchr(line, ':'))
            c = strtoul(strchr(line, ':') + 1, NULL, 10);
    }
    if (f)
        fclose(f);
    f = fopen(log, "r");
    if (f && fseek(f, -16384, SEEK_END) != 0)
        rewind(f);
    while (f && fgets(line, sizeof line, f)) {
        const char *t = strstr(line, "Fuzzing test case #");
        const char *p = t ? strchr(t, '(') : NULL;
        if (p && strstr(p, " total"))
            c = strtoul(p + 1, NULL, 10) > c ? strtoul(p + 1, NULL, 10) : c;
    }
    if (f)
        fclose(f);
    *execs += e;
    *corpus += c;
}

/* OUT/afl-words, the words harvested for calls' arguments (harvest.h), one a line, "g " before
 * the gate module's own: afl-fuzz's mutator has no Python to harvest them itself. */
static void afl_words(const gc_campaign_opts *o, scan_state *fs)
{
    gc_strlist gate = {0}, other = {0};
    gc_harvest_words(fs->t, &gate, &other);
    gc_strbuf sb;
    gc_sb_init(&sb);
    for (int i = 0; i < gate.n + other.n; i++) {
        const char *w = i < gate.n ? gate.v[i] : other.v[i - gate.n];
        if (!strchr(w, '\n'))
            gc_sb_printf(&sb, "%s%s\n", i < gate.n ? "g " : "o ", w);
    }
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/afl-words", o->out);
    if (gc_write_atomic(path, sb.data ? sb.data : "", sb.len, 0) == 0)
        setenv("GATECRASH_MUTATOR_WORDS", path, 1);
    gc_sb_free(&sb);
    gc_sl_free(&gate);
    gc_sl_free(&other);
}

/* The environment afl-fuzz runs with: its checks that do not apply to a batch run on a
 * shared machine off, the chain-aware mutator, sanitizer options it accepts. */
static void afl_env(const gc_campaign_opts *o, scan_state *fs)
{
    setenv("AFL_NO_UI", "1", 1);
    setenv("AFL_SKIP_CPUFREQ", "1", 1);
    setenv("AFL_NO_AFFINITY", "1", 1);
    setenv("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1", 1);
    setenv("AFL_QUIET", "1", 1);
    /* the chain-aware mutator, blind (it runs in afl-fuzz, without Python): it needs the
     * roots the gate hands out and the names of the forbidden primitives */
    if (o->afl_mutator && access(o->afl_mutator, R_OK) == 0) {
        char roots[64][65], list[8192] = "";
        int n = gc_session_roots(fs->t, roots, 64);
        for (int i = 0; i < n; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", roots[i]);
        setenv("GATECRASH_MUTATOR_ROOTS", list, 1);
        const char *names[256];
        n = gc_oracle_target_names(names, 256);
        list[0] = '\0';
        for (int i = 0; i < n; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", names[i]);
        setenv("GATECRASH_MUTATOR_TARGETS", list, 1);
        if (!o->no_harvest)
            afl_words(o, fs);
        setenv("AFL_CUSTOM_MUTATOR_LIBRARY", o->afl_mutator, 1);
    }
    /* afl-fuzz refuses sanitizer options that would hide a crash from it */
    if (getenv("ASAN_OPTIONS"))
        setenv("ASAN_OPTIONS", "abort_on_error=1:symbolize=0:detect_leaks=0", 1);
    if (getenv("UBSAN_OPTIONS"))
        setenv("UBSAN_OPTIONS", "halt_on_error=1:abort_on_error=1:symbolize=0", 1);
    const char *lsan = getenv("LSAN_OPTIONS"); /* kept (suppressions), but afl-fuzz wants symbolize=0 */
    if (lsan && !strstr(lsan, "symbolize=0")) {
        char buf[PATH_MAX * 2];
        snprintf(buf, sizeof buf, "%s:symbolize=0", lsan);
        setenv("LSAN_OPTIONS", buf, 1);
    }
}

/* The name of AFL++ instance j: "main" (-M) or "s<j>" (-S). */
static void afl_name(long j, char name[32]) { snprintf(name, 32, j == 0 ? "main" : "s%ld", j); }

/* afl-fuzz's command line for instance j of 'jobs' (NULL-terminated). */
static void afl_cmd(const gc_campaign_opts *o, long j, long jobs, const char *afl_out, const char *known_path,
                    gc_strlist *cmd)
{
    char name[32], buf[PATH_MAX * 2];
    afl_name(j, name);
    const char *fixed[] = {"afl-fuzz", "-i", o->seeds, "-o", afl_out, j == 0 ? "-M" : "-S", name, "-x", o->dict,
                           "-t", "10000", /* the harness's own limit (2 s) stops a slow input first */
                           "-m", "none"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        gc_sl_add(cmd, fixed[i]);
    snprintf(buf, sizeof buf, "%ld", o->seed + j);
    gc_sl_add(cmd, "-s");
    gc_sl_add(cmd, buf);
    snprintf(buf, sizeof buf, "%ld", o->seconds);
    gc_sl_add(cmd, "-V");
    gc_sl_add(cmd, buf);
    if (o->runs >= 0) {
        snprintf(buf, sizeof buf, "%ld", o->runs / jobs > 0 ? o->runs / jobs : 1);
        gc_sl_add(cmd, "-E");
        gc_sl_add(cmd, buf);
    }
    gc_sl_add(cmd, "--");
    gc_sl_add(cmd, o->fuzzer);
    add_target_flags(cmd, o);
    snprintf(buf, sizeof buf, "--skip-known=%s", known_path);
    gc_sl_add(cmd, buf);
    gc_sl_add(cmd, NULL);
}

/* Start instance j, logging to <out>/afl-<name>.log.  Its pid, or -1 with a message and
 * *rc set. */
static pid_t afl_start(const gc_campaign_opts *o, long j, long jobs, const char *afl_out, const char *known_path,
                       const char *scratch, int *rc)
{
    gc_strlist cmd = {0};
    char name[32], buf[PATH_MAX * 2];
    afl_name(j, name);
    afl_cmd(o, j, jobs, afl_out, known_path, &cmd);
    /* this instance's resolved chains, beside the crash inputs afl-fuzz writes */
    snprintf(buf, sizeof buf, "%s/%s/crashes/" GC_RESOLVED_DIR, afl_out, name);
    setenv("GATECRASH_RESOLVED_DIR", buf, 1);
    snprintf(buf, sizeof buf, "%s/afl-%s.log", o->out, name);
    int logfd = open(buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    pid_t pid = -1;
    if (logfd < 0) {
        gc_die_msg("cannot write %s: %s", buf, strerror(errno));
        *rc = GC_EXIT_USAGE;
    } else {
        pid = spawn_in(cmd.v, scratch, logfd);
        close(logfd);
        if (pid < 0) {
            gc_die_msg("fork: %s", strerror(errno));
            *rc = GC_EXIT_HARNESS;
        }
    }
    gc_sl_free(&cmd);
    return pid;
}

/* Every instance's progress summed into r (fuzzer_stats and log). */
static void afl_sum_progress(const gc_campaign_opts *o, long jobs, const char *afl_out, gc_campaign_result *r)
{
    unsigned long execs = 0, corpus = 0;
    for (long j = 0; j < jobs; j++) {
        char name[32], stats[PATH_MAX + 64], log[PATH_MAX + 64];
        afl_name(j, name);
        snprintf(stats, sizeof stats, "%s/%s/fuzzer_stats", afl_out, name);
        snprintf(log, sizeof log, "%s/afl-%s.log", o->out, name);
        afl_progress(stats, log, &execs, &corpus);
    }
    r->execs = execs;
    r->corpus = corpus;
}

/* Wait for the instances (pids[], 0 once done), replaying new crash inputs and printing
 * progress every 5 s and at the end; *status_out gets the first non-zero exit. */
static void afl_wait(const gc_campaign_opts *o, gc_campaign_result *r, scan_state *fs, pid_t *pids, long jobs,
                     const char *afl_out, time_t start, int *status_out)
{
    long running = jobs;
    gc_rate rate = {.len = 1}; /* 0 execs at 0 s */
    time_t last = start;
    *status_out = 0;
    while (running > 0) {
        sleep(1);
        for (long j = 0; j < jobs; j++) {
            int st;
            if (pids[j] > 0 && gc_spawn_wait(pids[j], &st, 1) == pids[j]) {
                int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                if (code && !*status_out)
                    *status_out = code;
                pids[j] = 0;
                running--;
            }
        }
        time_t now = time(NULL);
        if (now - last >= 5 || running == 0) {
            afl_sum_progress(o, jobs, afl_out, r);
            last = now;
            scan_crashes(fs);
            if (running)
                progress(o, r, start, &rate);
        }
    }
}

/* AFL++: one -M instance and jobs-1 -S instances sharing <out>/afl (they sync through it),
 * each logging to <out>/afl-<name>.log.  Progress is read from their fuzzer_stats. */
static int run_afl(const gc_campaign_opts *o, gc_campaign_result *r, scan_state *fs, const char *known_path,
                   const char *scratch, time_t start, int *status_out)
{
    char afl_out[PATH_MAX + 32];
    snprintf(afl_out, sizeof afl_out, "%s/afl", o->out);
    gc_rm_tree(afl_out); /* a fresh run: afl-fuzz refuses to reuse an old output folder */
    long jobs = o->jobs < 1 ? 1 : o->jobs;
    afl_env(o, fs);
    pid_t *pids = gc_xcalloc((size_t)jobs, sizeof *pids);
    int rc = 0;
    for (long j = 0; j < jobs && !rc; j++)
        pids[j] = afl_start(o, j, jobs, afl_out, known_path, scratch, &rc);
    if (!rc)
        afl_wait(o, r, fs, pids, jobs, afl_out, start, status_out);
    free(pids);
    return rc;
}

/* Merge the run's finds into corpus_out, pruned to what adds coverage (libFuzzer's -merge=1
 * into an empty folder, then that folder replaces corpus_out's inputs).  Both engines'
 * corpora go through fuzz_gate, so one corpus folder serves both. */
static void merge_corpus(const gc_campaign_opts *o, gc_campaign_result *r, const char *found, const char *scratch)
{
    if (!o->merger || !o->corpus_out || access(o->merger, X_OK) != 0)
        return;
    char tmp[PATH_MAX + 32], logpath[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s/corpus.merging", o->out);
    gc_rm_tree(tmp);
    if (gc_mkdirs(tmp) < 0 || gc_mkdirs(o->corpus_out) < 0)
        return;
    gc_strlist cmd = {0};
    gc_sl_add(&cmd, o->merger);
    add_target_flags(&cmd, o);
    gc_sl_add(&cmd, "-merge=1");
    gc_sl_add(&cmd, "-timeout=10");
    gc_sl_add(&cmd, "-max_len=512");
    gc_sl_add(&cmd, tmp);
    gc_sl_add(&cmd, o->corpus_out);
    if (strcmp(o->seeds, o->corpus_out) != 0)
        gc_sl_add(&cmd, o->seeds);
    if (strcmp(found, o->corpus_out) != 0)
        gc_sl_add(&cmd, found);
    gc_sl_add(&cmd, NULL);
    snprintf(logpath, sizeof logpath, "%s/merge.log", o->out);
    int logfd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    pid_t pid = logfd >= 0 ? spawn_in(cmd.v, scratch, logfd) : -1;
    if (logfd >= 0)
        close(logfd);
    gc_sl_free(&cmd);
    int st = 0;
    if (pid < 0 || gc_spawn_wait(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        gc_die_msg("corpus merge failed (see %s); %s left as it was", logpath, o->corpus_out);
        gc_rm_tree(tmp);
        return;
    }
    /* the merged set replaces corpus_out's inputs: new ones in, pruned ones out */
    gc_strlist keep = {0}, have = {0};
    gc_collect_inputs(tmp, &keep);
    gc_collect_inputs(o->corpus_out, &have);
    for (int i = 0; i < keep.n; i++) {
        const char *base = strrchr(keep.v[i], '/') + 1;
        char dst[PATH_MAX * 2];
        snprintf(dst, sizeof dst, "%s/%s", o->corpus_out, base);
        if (access(dst, F_OK) != 0)
            gc_copy_file(keep.v[i], dst);
    }
    for (int i = 0; i < have.n; i++) {
        const char *base = strrchr(have.v[i], '/') + 1;
        char src[PATH_MAX * 2];
        snprintf(src, sizeof src, "%s/%s", tmp, base);
        if (access(src, F_OK) != 0)
            unlink(have.v[i]);
    }
    r->merged = (unsigned long)keep.n;
    gc_sl_free(&keep);
    gc_sl_free(&have);
    gc_rm_tree(tmp);
}

/* The engines' own temporary files (libFuzzer's fork-mode folders, AFL++'s) stay in the
 * campaign's folder too: nothing the campaign does writes outside it; so does fuzz_gate's
 * job stats file. */
static void engine_env(const gc_campaign_opts *o)
{
    char tmpdir[PATH_MAX + 32];
    snprintf(tmpdir, sizeof tmpdir, "%s/tmp", o->out);
    gc_rm_tree(tmpdir);
    if (gc_mkdirs(tmpdir) == 0)
        setenv("TMPDIR", tmpdir, 1);
    char stats_path[PATH_MAX + 32];
    snprintf(stats_path, sizeof stats_path, "%s/job-stats.log", o->out);
    remove(stats_path);
    setenv("GATECRASH_STATS_FILE", stats_path, 1);
}

/* The engine processes' rate dips (each process finds its own: fuzz/ratewatch.h), from the
 * job stats file they append to, after the run's last progress line. */
static void print_rate_dips(const gc_campaign_opts *o)
{
    char path[PATH_MAX + 32], line[1024];
    snprintf(path, sizeof path, "%s/job-stats.log", o->out);
    FILE *f = o->quiet ? NULL : fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "gatecrash: rate dip: ", 21) == 0)
            fputs(line, stderr);
    if (f)
        fclose(f);
}

const char *gc_campaign_undecided(const gc_campaign_result *r)
{
    const gc_verdict_tally *y = &r->verdicts;
    if (y->inputs && y->inconclusive * 10 > y->inputs)
        return "over 10% of the engine's inputs were inconclusive";
    if (r->sweep_nodes == 0)
        return "the sweep reached no node (no program it ran gave back a value to walk from)";
    if (r->flaky_new)
        return "an input the engine saw escape did not escape when run alone (it needs what earlier inputs "
               "left: `did not reproduce` names each)";
    return NULL;
}

int gc_campaign_run(gc_target *t, const gc_campaign_opts *o, gc_campaign_result *r)
{
    memset(r, 0, sizeof *r);
    r->sweep_nodes = -1;
    char work_corpus[PATH_MAX + 32], scratch[PATH_MAX + 32], known_path[PATH_MAX + 32], pattern[PATH_MAX + 64];
    snprintf(work_corpus, sizeof work_corpus, "%s/corpus", o->out);
    snprintf(scratch, sizeof scratch, "%s/scratch", o->out);
    snprintf(known_path, sizeof known_path, "%s/known-signatures", o->out);
    remove(known_path);
    char hangs[PATH_MAX + 32];
    snprintf(hangs, sizeof hangs, "%s/" GC_KNOWN_HANGS, o->out);
    remove(hangs); /* a key is of this build's chains: an earlier run's may be of another's */
    if (o->engine == GC_ENGINE_AFL) {
        snprintf(r->crashes, sizeof r->crashes, "%s/afl/*/crashes", o->out);
        snprintf(pattern, sizeof pattern, "%s/id:*", r->crashes);
    } else {
        snprintf(r->crashes, sizeof r->crashes, "%s/crashes", o->out);
        snprintf(pattern, sizeof pattern, "%s/crash-*", r->crashes);
        char resolved[PATH_MAX + 32];
        snprintf(resolved, sizeof resolved, "%s/" GC_RESOLVED_DIR, r->crashes);
        setenv("GATECRASH_RESOLVED_DIR", resolved, 1);
    }
    scan_state fs = {.t = t, .target = o->target, .o = o, .r = r, .known_path = known_path, .pattern = pattern};
    clock_gettime(CLOCK_REALTIME, &fs.t0);
    char finds[PATH_MAX + 32];
    snprintf(finds, sizeof finds, "%s/finds.tsv", o->out);
    remove(finds);
    int rc = write_target(t, o);
    if (rc)
        return rc;
    record_progress(o, NULL, 0, 0);
    static gc_campaign_opts eo; /* o, with the sweep's seeds */
    static char seeds[PATH_MAX + 32];
    eo = *o;
    if (o->presweep) {
        if ((rc = sweep_phase(&fs, seeds, sizeof seeds)))
            return rc;
        eo.seeds = seeds;
        if (o->seconds > 0) /* 'seconds' cover the whole campaign: the engine has what the sweep left */
            eo.seconds = o->seconds - swept_s(r) > 1 ? o->seconds - swept_s(r) : 1;
        write_known(r, known_path); /* the sweep's escapes are known before the engine starts */
        o = fs.o = &eo;
    }
    engine_env(o);
    time_t start = time(NULL);
    int status = 0;
    if (o->engine == GC_ENGINE_AFL) {
        rc = run_afl(o, r, &fs, known_path, scratch, start, &status);
    } else {
        pid_t pid = -1;
        rc = run_libfuzzer(o, r, &fs, known_path, work_corpus, scratch, start, &pid);
        if (pid > 0) {
            gc_spawn_wait(pid, &status, 0);
            status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
    }
    unsetenv("GATECRASH_RESOLVED_DIR"); /* the engine's crash folders only, not the merge's */
    if (rc)
        return rc;
    r->engine_status = status;
    scan_crashes(&fs);
    prune_resolved(&fs, r->crashes);
    gc_sl_free(&fs.seen);
    gc_sl_free(&fs.kept);
    r->elapsed = (long)(time(NULL) - start);
    record_progress(o, r, r->elapsed, r->elapsed > 0 ? r->execs / (unsigned long)r->elapsed : r->execs);
    if (!o->quiet)
        fprintf(stderr, "[%4lds] execs %lu (%lu/s overall)  corpus %lu  escapes %d  distinct %d  holes %d  (done)\n",
                r->elapsed + swept_s(r), r->execs, r->elapsed > 0 ? r->execs / (unsigned long)r->elapsed : r->execs,
                r->corpus, r->reproduced, r->nfound, count_holes(r));
    print_rate_dips(o);
    char stats[PATH_MAX + 32];
    snprintf(stats, sizeof stats, "%s/job-stats.log", o->out);
    gc_tally_read(&r->verdicts, stats);
    if (r->execs == 0 && r->engine_status != 0 && r->reproduced == 0 && r->ncrashed == 0) { /* a seed may escape
                                                                                               or crash first */
        gc_die_msg("the fuzzer did not run (exit %d; see the logs in %s)", r->engine_status, o->out);
        return r->engine_status >= GC_EXIT_USAGE && r->engine_status <= GC_EXIT_HARNESS ? r->engine_status
                                                                                        : GC_EXIT_HARNESS;
    }
    char found[PATH_MAX + 32];
    if (o->engine == GC_ENGINE_AFL)
        snprintf(found, sizeof found, "%s/afl/main/queue", o->out);
    else
        snprintf(found, sizeof found, "%s", work_corpus);
    merge_corpus(o, r, found, scratch);
    return 0;
}

void gc_campaign_print_head(const gc_campaign_result *r, const char *name)
{
    printf("\n%d escape input(s), %d distinct escape(s) on %s", r->reproduced, r->nfound, name);
    if (r->swept)
        printf(" (with %d found by the sweep before the engine started)", r->swept);
    if (r->flaky)
        printf(" (%d crash input(s) did not reproduce)", r->flaky);
    printf("\n");
    for (int i = 0; i < r->unreproduced.n; i++)
        printf("did not reproduce: %s\n", r->unreproduced.v[i]);
    if (r->ncrashed)
        printf("%d crash input(s), %d crash finding(s) (the input crashed the target; gatecrash replay --raw says "
               "CRASH):\n", r->crash_inputs, r->ncrashed);
    for (int k = 0; k < r->ncrashed; k++)
        printf("CRASH   %-8s %-34s %5d  %s  (%s)\n", r->crashed[k].cap, r->crashed[k].prim, r->crashed[k].count,
               r->crashed[k].chain, r->crashed[k].first);
}

void gc_campaign_print_table(const gc_campaign_result *r, const char *name)
{
    gc_campaign_print_head(r, name);
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
    free(r->crashed);
    r->crashed = NULL;
    r->ncrashed = r->crash_cap = 0;
    gc_sl_free(&r->unreproduced);
    r->nfound = r->cap = 0;
}
