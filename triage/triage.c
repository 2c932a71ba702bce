/* triage.c — see triage.h. */
#define _GNU_SOURCE
#include "triage.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "confirm.h"
#include "fsutil.h"
#include "hash.h"
#include "replay.h"
#include "spawn.h"
#include "reproducer.h"
#include "xalloc.h"

#ifndef GATECRASH_PYTHON /* the CPython the build embeds (CMakeLists.txt) */
#error "GATECRASH_PYTHON (the CPython the build embeds) comes from CMakeLists.txt"
#endif

void gc_case_slug(const char *sig, char *out, size_t len)
{
    /* kind:cap:primitive:bridges -> kind-cap-primitive-via-bridges; only letters, digits and
     * . _ - + (a signature is target data: never a path), and never longer than GC_SLUG_MAX
     * bytes: a longer one is cut and ends in its signature's hash, so that it stays a file name
     * (NAME_MAX 255, with ".repro.py") and two long signatures stay two files */
    size_t o = 0, cap = len < GC_SLUG_MAX + 1 ? len : GC_SLUG_MAX + 1;
    int colons = 0;
    const char *p = sig;
    if (*p == '.' || *p == '-') /* no hidden file, no option */
        out[o++] = '_', p++;
    for (; *p && o + 6 < cap; p++) {
        char c = *p;
        if (c == ':') {
            colons++;
            if (colons == 3) {
                memcpy(out + o, "-via-", 5);
                o += 5;
                continue;
            }
            c = '-';
        } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                     c == '_' || c == '+')) {
            c = '_';
        }
        out[o++] = c;
    }
    out[o] = '\0';
    if (*p && len > GC_SLUG_MAX) /* cut: its signature's hash at the end */
        snprintf(out + GC_SLUG_MAX - 17, 18, "-%016llx",
                 (unsigned long long)gc_fnv1a64_bytes(GC_FNV64_OFFSET, sig, strlen(sig)));
}

/* Temp files (.NAME.tmp.PID.XXXXXX) and probes (.SLUG.probe.PID) of runs that were killed:
 * removed when process PID is gone. */
static void clean_stale(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        const char *n = e->d_name;
        if (n[0] != '.')
            continue;
        const char *m = strstr(n, ".tmp.");
        if (!m)
            m = strstr(n, ".probe.");
        if (!m)
            continue;
        m = strchr(m + 1, '.') + 1;
        char *end;
        long pid = strtol(m, &end, 10);
        if (end == m || pid <= 0 || (*end && *end != '.'))
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* that run is still going (or not ours to judge) */
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, n);
        if (unlink(path) == 0)
            printf("cleaned   %s: left by a run that was killed\n", n);
    }
    if (d)
        closedir(d);
}

void gc_clean_stale(const char *dir)
{
    static char done[4096];
    if (strcmp(done, dir) == 0)
        return; /* once per folder and run */
    snprintf(done, sizeof done, "%s", dir);
    clean_stale(dir);
}

int gc_case_known(const char *dir, const char *signature)
{
    char slug[300], path[4096];
    gc_case_slug(signature, slug, sizeof slug);
    snprintf(path, sizeof path, "%s/%s.chain", dir, slug);
    FILE *f = fopen(path, "r");
    if (!f) { /* a source target's case (source_triage.h) */
        snprintf(path, sizeof path, "%s/%s.py", dir, slug);
        f = fopen(path, "r");
    }
    if (!f)
        return 0;
    char line[512];
    int known = 0;
    while (!known && fgets(line, sizeof line, f) && line[0] == '#') {
        line[strcspn(line, "\n")] = '\0';
        known = strncmp(line, "# signature: ", 13) == 0 && strcmp(line + 13, signature) == 0;
    }
    fclose(f);
    return known;
}

/* Does the case's standalone reproducer reproduce it in plain CPython (GATECRASH_PYTHON), under
 * two hash seeds other than the harness's (interp.c fixes 0) and that interpreter's own
 * address layout?  An escape that rests on address or hash order (set.pop(), a set's
 * [#K]) holds in the harness's processes and not there: it is not a case.  Kinds the
 * script cannot see (the backstop's: no audit event) pass.  The last chain that passed is
 * remembered: triage checks a minimized chain and then saves it.  Each run is bounded by
 * coreutils' timeout. */
static int portable(const gc_triage_opts *o, gc_target *t, const gc_chain *c, const gc_outcome *out)
{
    if (out->escape.kind != GC_KIND_REACH && out->escape.kind != GC_KIND_EFFECT)
        return 1;
    static gc_strbuf last;
    gc_strbuf text;
    gc_sb_init(&text);
    gc_sb_printf(&text, "%s\n", out->signature);
    gc_chain_print(c, &text);
    if (last.data && strcmp(last.data, text.data) == 0) {
        gc_sb_free(&text);
        return 1;
    }
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/.reproducer.probe.%ld", o->outdir, (long)getpid());
    gc_strbuf py, body;
    gc_sb_init(&py);
    gc_sb_init(&body);
    gc_sb_printf(&body, "# kind: %s\n# capability: %s\n# primitive: %s\n", gc_kind_name(out->escape.kind),
                 gc_cap_name(out->escape.cap), out->escape.primitive);
    gc_chain_print(c, &body);
    gc_reproducer_write(t, body.data, out->signature, &py);
    gc_sb_free(&body);
    int ok = gc_write_atomic(probe, py.data, py.len, 0) == 0;
    static const char *seeds[] = {"PYTHONHASHSEED=1", "PYTHONHASHSEED=2"};
    pid_t pid[2] = {-1, -1};
    int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
    for (int i = 0; ok && i < 2; i++) { /* both at once: a second core runs the second */
        const char *argv[] = {"timeout", "-s", "KILL", "60", "env", GC_PLAIN_ENV, seeds[i], GATECRASH_PYTHON, "-s",
                              probe, t->spec.sandbox, NULL};
        pid[i] = gc_spawn((char *const *)argv, NULL, nul, nul);
    }
    if (nul >= 0)
        close(nul);
    for (int i = 0; i < 2; i++) {
        int status = 0, waited = pid[i] > 0 && gc_spawn_wait(pid[i], &status, 0) == pid[i];
        ok = ok && waited && WIFEXITED(status) && WEXITSTATUS(status) == 1;
    }
    unlink(probe);
    gc_sb_free(&py);
    gc_sb_free(&last);
    if (ok)
        last = text;
    else
        gc_sb_free(&text);
    return ok;
}

/* [N] picks of a chain run in this process, named: the element's __name__ where it is the
 * first element of its list or tuple with that name ([@Name] finds it).  A list such as
 * object.__subclasses__() is ordered by what the process imported, so plain CPython's
 * [N] is another class; the name is the same pick there. */
typedef struct {
    const gc_chain *c;
    gc_chain *named;
    PyObject *prev; /* the previous step's value (owned): the container of an [N] */
    int n;          /* picks named */
} pick_names;

static void name_pick(void *ctx, const gc_step_info *st)
{
    pick_names *pn = ctx;
    const gc_trailer *tr = st->trailer >= 0 ? &pn->c->s[st->stmt].t[st->trailer] : NULL;
    PyObject *box = pn->prev;
    if (tr && tr->kind == GC_T_ITEM_INT && st->value && box && (PyList_CheckExact(box) || PyTuple_CheckExact(box))) {
        PyObject *name = PyObject_GetAttrString(st->value, "__name__");
        Py_ssize_t len = 0, n = PySequence_Fast_GET_SIZE(box), idx = tr->k < 0 ? tr->k + n : tr->k;
        const char *text = name && PyUnicode_Check(name) && PyUnicode_IsIdentifier(name) == 1
                               ? PyUnicode_AsUTF8AndSize(name, &len) : NULL;
        int first = text && len <= GC_MAX_NAME && idx >= 0 && idx < n;
        for (Py_ssize_t i = 0; first && i < idx; i++) {
            PyObject *other = PyObject_GetAttrString(PySequence_Fast_ITEMS(box)[i], "__name__");
            first = !(other && PyUnicode_Check(other) && PyUnicode_Compare(other, name) == 0);
            Py_XDECREF(other);
        }
        gc_trailer *nt = &pn->named->s[st->stmt].t[st->trailer];
        if (first && gc_chain_intern(pn->named, text, (size_t)len, &nt->s) == 0) {
            nt->kind = GC_T_NAMED;
            pn->n++;
        }
        Py_XDECREF(name);
        PyErr_Clear();
    }
    Py_XDECREF(pn->prev);
    pn->prev = st->value;
    Py_XINCREF(pn->prev);
}

/* 'c' with its [N] picks named ('named'), when that escape is the same ('named_out') and its
 * reproducer reproduces it: 1, else 0. */
static int portable_by_name(const gc_triage_opts *o, gc_target *t, const gc_chain *c, const gc_outcome *out,
                            gc_chain *named, gc_outcome *named_out)
{
    static gc_outcome ran;
    char err[256];
    gc_chain_copy(named, c);
    pick_names pn = {c, named, NULL, 0};
    int rc = gc_run_input(t, c, &ran, name_pick, &pn, err, sizeof err);
    Py_XDECREF(pn.prev);
    if (rc != 0 || pn.n == 0 || gc_run_input(t, named, named_out, NULL, NULL, err, sizeof err) != 0)
        return 0;
    return named_out->escaped && strcmp(named_out->signature, out->signature) == 0 &&
           portable(o, t, named, named_out);
}

/* The verdict on a crash input whose escape holds only in the harness's processes. */
static void unportable(const char *base, gc_triage_summary *sum)
{
    printf("flaky     %s: its escape rests on address or hash order: its reproducer does not reproduce it in "
           "plain %s\n", base, GATECRASH_PYTHON);
    sum->flaky++;
}

static int portable_check(void *ctx, const gc_chain *c, const gc_outcome *out)
{
    void **a = ctx;
    return portable(a[0], a[1], c, out);
}

void gc_case_write_header(const gc_target *t, const gc_verdict *o, const char *hole, gc_strbuf *out)
{
    char policy[512], date[32];
    gc_policy_describe(&t->policy, policy, sizeof policy);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    gc_sb_puts(out, "# gatecrash escape case (replay: gatecrash replay TARGET --expect escape THIS_FILE)\n");
    gc_sb_printf(out, "# target: %s\n# policy: %s\n# mode: %s\n", t->spec.name, policy,
                 t->spec.mode == GC_MODE_EFFECT ? "effect" : "reach");
    gc_sb_printf(out, "# kind: %s\n# capability: %s\n# primitive: %s\n# signature: %s\n",
                 gc_kind_name(o->escape.kind), gc_cap_name(o->escape.cap), o->escape.primitive, o->signature);
    if (hole && hole[0])
        gc_sb_printf(out, "# hole: %s\n", hole);
    gc_sb_printf(out, "# python: %s\n# date: %s\n", PY_VERSION, date);
}

static void case_text(const gc_target *t, const gc_outcome *o, const gc_chain *c, const char *found_by,
                      const char *origin, const gc_min_stats *st, gc_strbuf *out)
{
    gc_case_write_header(t, &o->verdict, NULL, out);
    gc_sb_printf(out, "# found-by: %s, crash input %s; minimized from %d to %d trailers in %d runs\n", found_by,
                 origin, st->trailers_before, st->trailers_after, st->evaluations);
    gc_chain_print(c, out);
}

/* A crash case's header: as an escape case's, its kind crash, the signal and where. */
static void crash_header(const gc_target *t, const char *sig, const char *found, gc_strbuf *out)
{
    char policy[512], date[32];
    gc_policy_describe(&t->policy, policy, sizeof policy);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    const char *s = sig + strlen("crash:"), *where = strchr(s, ':');
    gc_sb_puts(out, "# gatecrash crash case (replay: gatecrash replay TARGET THIS_FILE says CRASH, exit 1)\n");
    gc_sb_printf(out, "# target: %s\n# policy: %s\n# mode: %s\n# kind: crash\n# signal: %.*s\n# where: %s\n",
                 t->spec.name, policy, t->spec.mode == GC_MODE_EFFECT ? "effect" : "reach",
                 where ? (int)(where - s) : (int)strlen(s), s, where && where[1] ? where + 1 : "(no Python frame)");
    gc_sb_printf(out, "# signature: %s\n# python: %s\n# date: %s\n# found-by: %s\n", sig, PY_VERSION, date, found);
}

/* 'body' (a case's text) crashes the target at 'sig' in a fresh process: written to a probe
 * beside the cases and replayed. */
static int crashes_at(const gc_triage_opts *o, const char *slug, const gc_strbuf *body, const char *sig)
{
    char probe[4096], sig2[256] = "";
    snprintf(probe, sizeof probe, "%s/.%s.probe.%ld", o->outdir, slug, (long)getpid());
    int ok = gc_write_atomic(probe, body->data, body->len, 0) == 0 &&
             gc_confirm_fresh(o->exe, o->target, probe, 0, sig2, sizeof sig2) == 2 && strcmp(sig2, sig) == 0;
    unlink(probe);
    return ok;
}

void gc_triage_crash(const gc_target *t, const gc_triage_opts *o, const char *base, const char *sig,
                     const char *const *inputs, int n, gc_triage_summary *sum)
{
    char slug[300], path[4096], found[600];
    gc_case_slug(sig, slug, sizeof slug);
    if (gc_case_known(o->outdir, sig)) {
        printf("known     %s: %s\n", base, sig);
        sum->known++;
        return;
    }
    gc_strbuf body;
    gc_sb_init(&body);
    int i = 0;
    for (; i < n; i++) { /* the shortest candidate that crashes at the same place, each in a fresh process */
        gc_sb_free(&body);
        gc_sb_init(&body);
        if (n > 1)
            snprintf(found, sizeof found, "%s, crash input %s; minimized from %d to %d trailer(s) in %d fresh run(s)",
                     o->found_by, base, n, i + 1, i + 1);
        else
            snprintf(found, sizeof found, "%s, crash input %s", o->found_by, base);
        crash_header(t, sig, found, &body);
        gc_sb_puts(&body, inputs[i]);
        if (crashes_at(o, slug, &body, sig))
            break;
    }
    snprintf(path, sizeof path, "%s/%s%s", o->outdir, slug, t->spec.kind == GC_TARGET_SOURCE ? ".py" : ".chain");
    char err[4096];
    if (i < n && gc_reproducer_case_target(&t->spec, o->outdir, err, sizeof err)) { /* the folder's target.json */
        printf("error     %s: %s\n", base, err);
        sum->flaky++;
    } else if (i == n) {
        printf("flaky     %s: %s in a fresh process, but none of its shortened inputs does\n", base, sig);
        sum->flaky++;
    } else if (gc_write_atomic(path, body.data, body.len, 1) != 0) {
        printf("%s     %s: %s (%s)\n", errno == EEXIST ? "known" : "error", base, sig,
               errno == EEXIST ? "saved meanwhile by another run" : strerror(errno));
        *(errno == EEXIST ? &sum->known : &sum->flaky) += 1;
    } else {
        printf("crash     %s: %s  %s\n", base, sig, strrchr(path, '/') + 1);
        sum->new_cases++;
    }
    gc_sb_free(&body);
}

/* A chain's candidates for a crash case, shortest first: its last statement cut after 1, 2,
 * … trailers (the earlier statements kept), the whole chain last. */
static int crash_candidates(const gc_chain *in, char ***out)
{
    static gc_chain c;
    int last = in->nstmts - 1, nt = in->s[last].ntrailers, n = 0;
    *out = gc_xcalloc((size_t)nt + 1, sizeof **out);
    for (int k = nt > 0 ? 1 : 0; k <= nt; k++) {
        gc_chain_copy(&c, in);
        c.s[last].ntrailers = k;
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_chain_print(&c, &sb);
        (*out)[n++] = sb.data ? sb.data : strdup("");
    }
    return n;
}

/* The next crash input's fresh-process run started (gc_confirm_ahead): it runs while this
 * one is minimized and its reproducer checked, on another core. */
static void start_next(const gc_triage_opts *o)
{
    static gc_chain c;
    char resolved[4096];
    int from = o->next ? gc_crash_chain(o->next, &c, resolved, sizeof resolved) : -1;
    if (from >= 0 && c.nstmts > 0)
        gc_confirm_ahead(o->exe, o->target, from ? resolved : o->next, !from);
}

void gc_triage_one(gc_target *t, const gc_triage_opts *o, const char *path, gc_triage_summary *sum)
{
    gc_clean_stale(o->outdir);
    static gc_chain in, best;
    static gc_outcome out;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char resolved[4096];
    int from = gc_crash_chain(path, &in, resolved, sizeof resolved);
    if (from < 0) {
        printf("rejected  %s: unreadable\n", base);
        sum->rejected++;
        return;
    }
    if (in.nstmts == 0) {
        printf("rejected  %s: no chain decodes from it\n", base);
        sum->rejected++;
        return;
    }
    /* 1. it must reproduce in a fresh process: the chain the fuzzing process ran, when it
     *    was recorded, else the bytes decoded as the fuzzer decoded them */
    char fresh_sig[256] = "";
    int fr = from ? gc_confirm_fresh(o->exe, o->target, resolved, 0, fresh_sig, sizeof fresh_sig)
                  : gc_confirm_fresh(o->exe, o->target, path, 1, fresh_sig, sizeof fresh_sig);
    start_next(o);
    if (fr == GC_FRESH_CRASH) { /* it crashed the target: a crash case (gc_triage_crash) */
        char **cand;
        int n = crash_candidates(&in, &cand);
        gc_triage_crash(t, o, base, fresh_sig, (const char *const *)cand, n, sum);
        for (int i = 0; i < n; i++)
            free(cand[i]);
        free(cand);
        return;
    }
    if (fr != 1) {
        printf("%s %s: %s in a fresh process%s\n", fr == GC_FRESH_INCONCLUSIVE ? "inconclusive" : "flaky    ", base,
               fr == 0 ? "does not escape" : fr == GC_FRESH_INCONCLUSIVE ? "is inconclusive" : "could not be run",
               from ? " (its resolved chain)" : " (no resolved chain recorded: its raw bytes)");
        sum->flaky++;
        return;
    }
    /* 2. minimize at chain level; a chain whose escape rests on this process's address
     *    layout or hash order is passed over for a longer one that holds outside it */
    gc_min_stats st;
    if (gc_minimize(t, &in, &best, &out, &st, NULL, NULL) != 0) {
        printf("flaky     %s: escapes in a fresh process but not here (state-dependent)\n", base);
        sum->flaky++;
        return;
    }
    void *ctx[2] = {(void *)o, t};
    static gc_chain named;
    static gc_outcome named_out;
    if (!gc_case_known(o->outdir, out.signature) && !portable(o, t, &best, &out)) {
        if (portable_by_name(o, t, &best, &out, &named, &named_out)) {
            gc_chain_copy(&best, &named);
            out = named_out;
        } else if (gc_minimize(t, &in, &best, &out, &st, portable_check, ctx) != 0) {
            unportable(base, sum);
            return;
        }
    }
    gc_triage_save(t, o, &best, &out, base, &st, sum);
}

void gc_triage_save(gc_target *t, const gc_triage_opts *o, const gc_chain *bestp, const gc_outcome *outp,
                    const char *base, const gc_min_stats *stp, gc_triage_summary *sum)
{
    gc_clean_stale(o->outdir);
    char err[4096];
    if (gc_reproducer_case_target(&t->spec, o->outdir, err, sizeof err)) {
        printf("error     %s: %s\n", base, err);
        sum->flaky++;
        return;
    }
    gc_strbuf text;
    gc_sb_init(&text);
    gc_chain_print_oneline(bestp, &text);
    if (gc_case_known(o->outdir, outp->signature)) {
        printf("known     %s: %s  %s\n", base, outp->signature, text.data);
        sum->known++;
        gc_sb_free(&text);
        return;
    }
    /* 3. the minimized case must reproduce in a fresh process too, strictly parsed */
    gc_strbuf body;
    gc_sb_init(&body);
    case_text(t, outp, bestp, o->found_by, base, stp, &body);
    char slug[300], chain_path[4096], py_path[4096];
    gc_case_slug(outp->signature, slug, sizeof slug);
    snprintf(chain_path, sizeof chain_path, "%s/%s.chain", o->outdir, slug);
    snprintf(py_path, sizeof py_path, "%s/%s.py", o->outdir, slug);
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/.%s.probe.%ld", o->outdir, slug, (long)getpid());
    char sig2[256] = "";
    int ok = gc_write_atomic(probe, body.data, body.len, 0) == 0 &&
             gc_confirm_fresh(o->exe, o->target, probe, 0, sig2, sizeof sig2) == 1 && strcmp(sig2, outp->signature) == 0;
    unlink(probe);
    if (ok && !portable(o, t, bestp, outp)) {
        unportable(base, sum);
        gc_sb_free(&body);
        gc_sb_free(&text);
        return;
    }
    if (!ok) {
        printf("flaky     %s: the minimized chain does not reproduce in a fresh process\n", base);
        sum->flaky++;
        gc_sb_free(&body);
        gc_sb_free(&text);
        return;
    }
    /* 4. save: the standalone reproducer first when asked for (replaceable), then the case
     *    itself, exclusively */
    gc_strbuf py;
    gc_sb_init(&py);
    int saved = 1;
    if (o->standalone) {
        gc_reproducer_write(t, body.data, outp->signature, &py);
        saved = gc_write_atomic(py_path, py.data, py.len, 0) == 0 && chmod(py_path, 0755) == 0;
    }
    if (saved && gc_write_atomic(chain_path, body.data, body.len, 1) != 0) {
        if (errno == EEXIST) {
            printf("known     %s: %s  %s (saved meanwhile by another run)\n", base, outp->signature, text.data);
            sum->known++;
        } else {
            printf("error     %s: cannot write %s: %s\n", base, chain_path, strerror(errno));
            sum->flaky++;
        }
    } else if (saved) {
        printf("new       %s: %s  %s\n", base, outp->signature, text.data);
        sum->new_cases++;
        gc_confirm_print(t, &outp->verdict, text.data, base);
    } else {
        printf("error     %s: cannot write %s: %s\n", base, py_path, strerror(errno));
        sum->flaky++;
    }
    gc_sb_free(&py);
    gc_sb_free(&body);
    gc_sb_free(&text);
}
