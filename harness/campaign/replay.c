/* replay.c — see replay.h. */
#define _GNU_SOURCE /* pipe2 */
#include "replay.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsutil.h"
#include "program.h"
#include "source.h"
#include "spawn.h"

int gc_crash_chain(const char *path, gc_chain *c, char *resolved, size_t len)
{
    size_t n = 0;
    unsigned char *data = gc_read_file(path, &n); /* whole: the SHA-1 is of every byte */
    if (!data)
        return -1;
    char side[4096];
    gc_resolved_path(path, data, n, side, sizeof side);
    size_t sn = 0;
    unsigned char *text = gc_read_file(side, &sn);
    int rc = text && gc_chain_parse(text, sn, GC_PARSE_STRICT, c, NULL) == 0 && c->nstmts > 0;
    if (!rc)
        gc_chain_parse(data, n, GC_PARSE_LENIENT, c, NULL);
    if (rc && resolved)
        snprintf(resolved, len, "%s", side);
    free(text);
    free(data);
    return rc;
}

/* The value of the '# KEY: value' header line of a chain file ("" when none). */
static void header_value(const unsigned char *data, size_t len, const char *key, char *out, size_t outlen)
{
    out[0] = '\0';
    size_t kl = strlen(key);
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && data[e] != '\n')
            e++;
        if (data[i] != '#')
            break;
        if (e - i > kl + 2 && memcmp(data + i, "# ", 2) == 0 && memcmp(data + i + 2, key, kl) == 0 &&
            data[i + 2 + kl] == ':') {
            size_t vs = i + 3 + kl + (data[i + 3 + kl] == ' ');
            snprintf(out, outlen, "%.*s", (int)(e - vs), (const char *)data + vs);
        }
        i = e + 1;
    }
}

int gc_replay_file(gc_target *t, const char *path, int raw, gc_chain *c, gc_outcome *out, gc_case_header *hdr,
                   char *why, size_t whylen)
{
    size_t len = 0;
    unsigned char *data = gc_read_file(path, &len);
    if (!data) {
        snprintf(why, whylen, "cannot read %s", path);
        return -1;
    }
    gc_parse_error perr;
    int rc = -1;
    if (gc_chain_parse(data, len, raw ? GC_PARSE_LENIENT : GC_PARSE_STRICT, c, &perr) < 0)
        snprintf(why, whylen, "%s:%d:%d: %s", path, perr.line, perr.col, perr.msg);
    else if (c->nstmts == 0)
        snprintf(why, whylen, "%s: no statement in chain file", path);
    else
        rc = 0;
    if (rc == 0 && hdr) {
        header_value(data, len, "signature", hdr->signature, sizeof hdr->signature);
        header_value(data, len, "python", hdr->python, sizeof hdr->python);
    }
    free(data);
    char err[1024];
    if (rc == 0 && (rc = gc_run_input(t, c, out, NULL, NULL, err, sizeof err)) != 0)
        snprintf(why, whylen, "%s: %s", path, err);
    return rc;
}

int gc_crash_program(const char *path, unsigned dialect, gc_strbuf *src)
{
    static gc_program p;
    size_t n = 0;
    unsigned char *data = gc_read_file(path, &n);
    if (!data)
        return -1;
    gc_program_decode(data, n, &p);
    free(data);
    gc_program_print(&p, dialect, src);
    return p.nstmts > 0;
}

int gc_replay_source(gc_target *t, const char *path, int raw, gc_strbuf *src, gc_verdict *out, char *note,
                     size_t notelen, char *why, size_t whylen)
{
    size_t len = 0;
    unsigned char *data = raw ? NULL : gc_read_file(path, &len);
    int got = raw ? gc_crash_program(path, t->spec.adapter.dialect, src) : data ? 1 : -1;
    if (data)
        gc_sb_putn(src, (const char *)data, len);
    free(data);
    if (got <= 0) {
        snprintf(why, whylen, got < 0 ? "cannot read %s" : "%s: no program decodes from it", path);
        return -1;
    }
    char err[512];
    int rc = gc_source_run(t, src->data, src->len, out, note, notelen, err, sizeof err);
    if (rc)
        snprintf(why, whylen, "%s: %s", path, err);
    return rc == GC_EXIT_USAGE ? -1 : rc;
}

static int target_args(const gc_session_opts *t, const char **argv, int i)
{
    if (t->sandbox || t->adapter) {
        argv[i++] = t->sandbox ? "--sandbox" : "--adapter";
        argv[i++] = t->sandbox ? t->sandbox : t->adapter;
        argv[i++] = "--requires";
        argv[i++] = t->requires;
    } else {
        argv[i++] = t->target_dir;
    }
    if (t->venv) {
        argv[i++] = "--venv";
        argv[i++] = t->venv;
    }
    if (t->mode) {
        argv[i++] = "--mode";
        argv[i++] = t->mode;
    }
    return i;
}

/* `exe replay --json -q` on one file started, its stdout the returned pipe's read end (*fd):
 * the pid, or -1. */
static pid_t fresh_start(const char *exe, const gc_session_opts *target, const char *file, int raw, int *fd)
{
    const char *argv[16];
    int n = 0;
    argv[n++] = exe;
    argv[n++] = "replay";
    argv[n++] = "-q";
    argv[n++] = "--json";
    if (raw)
        argv[n++] = "--raw";
    n = target_args(target, argv, n);
    argv[n++] = file;
    argv[n] = NULL;
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0)
        return -1;
    int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
    pid_t pid = gc_spawn((char *const *)argv, NULL, pfd[1], nul);
    if (nul >= 0)
        close(nul);
    close(pfd[1]);
    if (pid < 0)
        close(pfd[0]);
    *fd = pfd[0];
    return pid;
}

/* A fresh replay's {"crash":SIG,"where":WHERE,…} line: its signature crash:SIG:WHERE into sig; 2. */
static int crash_verdict(const char *line, char *sig, size_t siglen)
{
    char one[1024];
    snprintf(one, sizeof one, "%.*s", (int)strcspn(line, "\n"), line);
    cJSON *j = cJSON_Parse(one);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "crash"), *w = cJSON_GetObjectItemCaseSensitive(j, "where");
    if (sig && siglen)
        snprintf(sig, siglen, "crash:%s:%s", cJSON_IsString(s) ? s->valuestring : "?",
                 cJSON_IsString(w) ? w->valuestring : "");
    cJSON_Delete(j);
    return GC_FRESH_CRASH;
}

/* Its output read to the end, the process waited for, the verdict: as gc_confirm_fresh. */
static int fresh_finish(pid_t pid, int fd, char *sig, size_t siglen)
{
    char buf[16384];
    size_t have = 0;
    ssize_t r;
    while ((r = read(fd, buf + have, sizeof buf - 1 - have)) > 0)
        have += (size_t)r;
    buf[have] = '\0';
    close(fd);
    int status = 0;
    gc_spawn_wait(pid, &status, 0);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code != GC_EXIT_OK && code != GC_EXIT_ESCAPE && code != GC_EXIT_INCONCLUSIVE)
        return -1;
    if (code == GC_EXIT_INCONCLUSIVE) /* no escape, and not blocked either */
        return GC_FRESH_INCONCLUSIVE;
    if (code == GC_EXIT_OK)
        return GC_FRESH_BLOCKED;
    const char *crash = strstr(buf, "{\"crash\":\""); /* timelimit.h: the input crashed the target */
    if (crash && (crash == buf || crash[-1] == '\n'))
        return crash_verdict(crash, sig, siglen);
    const char *js = strstr(buf, "\n{\"kind\"");
    js = js ? js + 1 : (strncmp(buf, "{\"kind\"", 7) == 0 ? buf : NULL);
    if (!js)
        return -1; /* exit 1 with no escape's line: a sanitizer's report, not a verdict */
    if (sig && siglen) {
        sig[0] = '\0';
        cJSON *j = cJSON_Parse(js);
        if (!j) { /* the JSON object is one line: parse just that line */
            char line[8192];
            snprintf(line, sizeof line, "%.*s", (int)strcspn(js, "\n"), js);
            j = cJSON_Parse(line);
        }
        const cJSON *s = j ? cJSON_GetObjectItemCaseSensitive(j, "signature") : NULL;
        if (cJSON_IsString(s))
            snprintf(sig, siglen, "%s", s->valuestring);
        cJSON_Delete(j);
    }
    return 1;
}

/* The run started ahead (gc_confirm_ahead): its file, how it is read, its process. */
static struct {
    char file[4096];
    int raw, fd;
    pid_t pid;
} ahead = {.pid = -1};

void gc_confirm_ahead(const char *exe, const gc_session_opts *target, const char *file, int raw)
{
    if (ahead.pid > 0) /* not asked for: its verdict is dropped */
        fresh_finish(ahead.pid, ahead.fd, NULL, 0);
    ahead.pid = -1;
    if (!file || snprintf(ahead.file, sizeof ahead.file, "%s", file) >= (int)sizeof ahead.file)
        return;
    ahead.raw = raw;
    ahead.pid = fresh_start(exe, target, file, raw, &ahead.fd);
}

int gc_confirm_fresh(const char *exe, const gc_session_opts *target, const char *file, int raw, char *sig,
                     size_t siglen)
{
    int fd;
    pid_t pid;
    if (ahead.pid > 0 && ahead.raw == raw && strcmp(ahead.file, file) == 0) {
        pid = ahead.pid;
        fd = ahead.fd;
        ahead.pid = -1;
    } else if ((pid = fresh_start(exe, target, file, raw, &fd)) < 0) {
        return -1;
    }
    return fresh_finish(pid, fd, sig, siglen);
}
