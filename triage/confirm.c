/* confirm.c — see confirm.h. */
#define _GNU_SOURCE
#include "confirm.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "reproducer.h"
#include "spawn.h"
#include "watch.h"

#ifndef GATECRASH_PYTHON /* the CPython the build embeds (CMakeLists.txt) */
#error "GATECRASH_PYTHON (the CPython the build embeds) comes from CMakeLists.txt"
#endif

/* The interpreter a host of t runs: its venv's python, else the one this build embeds. */
static void interpreter(const gc_target *t, char *out, size_t len)
{
    snprintf(out, len, "%s", GATECRASH_PYTHON);
    if (t->spec.kind != GC_TARGET_SOURCE || !t->spec.adapter.venv[0])
        return;
    char py[4200];
    snprintf(py, sizeof py, "%s/bin/python", t->spec.adapter.venv);
    if (access(py, X_OK) == 0)
        snprintf(out, len, "%s", py);
}

/* The last non-empty line of 'text' into out. */
static void last_line(const char *text, char *out, size_t len)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(out, len, "%.*s", (int)(end - start), start);
}

/* gatecrash-watch beside this binary (watch.h) into out: 0, or -1 when it is not there. */
static int watch_path(char *out, size_t len)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    snprintf(out, len, "%s/%s", self, GC_WATCH_BIN);
    return access(out, X_OK) == 0 ? 0 : -1;
}

/* Spawn the probe in folder 'dir' (under gatecrash-watch when 'watch' names it, counting capability 'cap');
 * its exit status (a waitpid status) and output in *out.  0, or -1. */
static int run_probe(const gc_target *t, const char *dir, const char *probe, const char *outpath, int seconds,
                     const char *watch, const char *cap, int *status, gc_strbuf *out)
{
    char py[4200], secs[16];
    interpreter(t, py, sizeof py);
    snprintf(secs, sizeof secs, "%d", seconds > 0 ? seconds : 60);
    int fd = open(outpath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    const char *argv[16 + 2 * GC_MAX_GLOBS];
    int n = 0;
    if (watch) { /* the watch keeps the time, and may let the policy's own writes through */
        const char *head[] = {watch, "--seconds", secs, "--count", cap};
        for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
            argv[n++] = head[i];
        for (int i = 0; i < t->policy.nglobs; i++) {
            argv[n++] = "--allow-write";
            argv[n++] = t->policy.globs[i];
        }
        argv[n++] = "--";
    } else {
        const char *head[] = {"timeout", "-s", "KILL", secs};
        for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
            argv[n++] = head[i];
    }
    const char *tail[] = {"env", GC_PLAIN_ENV, "PYTHONHASHSEED=1", py, "-s", probe, t->spec.sandbox, NULL};
    for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
        argv[n++] = tail[i];
    pid_t pid = gc_spawn((char *const *)argv, dir, fd, fd);
    close(fd);
    int rc = pid > 0 && gc_spawn_wait(pid, status, 0) == pid ? 0 : -1;
    size_t got = 0;
    char *text = (char *)gc_read_file(outpath, &got);
    if (text)
        gc_sb_putn(out, text, got);
    free(text);
    return rc;
}

/* The grade of a reproducer's "ESCAPE reproduced: ... via WHERE" line (reproduce.py: a
 * chain's steps, "the evaluation" for a call or effect during it or the host's handling of
 * its value after it ("after evaluate returned"), "result..." for the
 * returned value searched). */
static gc_confirm_where grade(const gc_target *t, const char *line)
{
    const char *via = strstr(line, " via ");
    int during = strstr(line, "inside the evaluation") || strstr(line, "after evaluate returned") ||
                 (via && !strncmp(via, " via the ", 9));
    if (t->spec.kind != GC_TARGET_SOURCE || during) /* a chain's step, a call, an effect */
        return GC_WHERE_HELD;
    if (!via || strncmp(via + 5, "result", 6) != 0)
        return GC_WHERE_UNKNOWN;
    if (strstr(via, ".__context__") || strstr(via, ".__cause__") || strstr(via, ".obj"))
        return GC_WHERE_EXCEPTION;
    return GC_WHERE_RETURNED;
}

const char *gc_confirm_where_name(gc_confirm_where w)
{
    static const char *const names[] = {"unknown", "held", "returned", "exception"};
    return names[w];
}

void gc_confirm_text(const gc_target *t, const char *kind, const char *cap, const char *prim, const char *signature,
                     const char *input, int seconds, gc_confirmation *c)
{
    c->kind = GC_CONFIRM_UNKNOWN;
    c->where = GC_WHERE_UNKNOWN;
    c->why[0] = '\0';
    /* a process, a socket or a write made below Python has no audit event: the plain
     * interpreter runs under the kernel's eyes then (watch.h) */
    char watch[4200];
    int below = strcmp(kind, "reach") != 0 && strcmp(kind, "effect") != 0;
    if (below && watch_path(watch, sizeof watch) != 0) {
        snprintf(c->why, sizeof c->why, "a %s escape has no audit event, and %s is not beside gatecrash", kind,
                 GC_WATCH_BIN);
        return;
    }
    char here[4096], probe[4300], outpath[4300]; /* absolute: the spawner is not in the scratch folder */
    if (!getcwd(here, sizeof here)) {
        snprintf(c->why, sizeof c->why, "cannot name the scratch folder");
        return;
    }
    snprintf(probe, sizeof probe, "%s/.confirm.probe.%ld.py", here, (long)getpid());
    snprintf(outpath, sizeof outpath, "%s/.confirm.probe.%ld.out", here, (long)getpid());
    gc_strbuf body, py, out;
    gc_sb_init(&body);
    gc_sb_init(&py);
    gc_sb_init(&out);
    gc_sb_printf(&body, "# kind: %s\n# capability: %s\n# primitive: %s\n%s\n", kind, cap, prim, input);
    gc_reproducer_write(t, body.data, signature, &py);
    int status = 0;
    if (gc_write_atomic(probe, py.data, py.len, 0) != 0)
        snprintf(c->why, sizeof c->why, "cannot write the reproducer in the scratch folder");
    else if (run_probe(t, here, probe, outpath, seconds, below ? watch : NULL, cap, &status, &out) != 0)
        snprintf(c->why, sizeof c->why, "the plain interpreter could not be started");
    else if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1)) {
        c->kind = WEXITSTATUS(status) == 1 ? GC_CONFIRM_YES : GC_CONFIRM_NO;
        last_line(out.data ? out.data : "", c->why, sizeof c->why);
        c->where = c->kind == GC_CONFIRM_YES ? grade(t, c->why) : GC_WHERE_UNKNOWN;
    } else if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) >= 124)) {
        snprintf(c->why, sizeof c->why, "the plain interpreter did not finish within %d s", seconds);
    } else {
        char line[400];
        last_line(out.data ? out.data : "", line, sizeof line);
        snprintf(c->why, sizeof c->why, "the reproducer exited %d: %s", WEXITSTATUS(status), line);
    }
    unlink(probe);
    unlink(outpath);
    gc_sb_free(&body);
    gc_sb_free(&py);
    gc_sb_free(&out);
}

void gc_confirm_escape(const gc_target *t, const gc_verdict *v, const char *input, int seconds, gc_confirmation *c)
{
    gc_confirm_text(t, gc_kind_name(v->escape.kind), gc_cap_name(v->escape.cap), v->escape.primitive, v->signature,
                    input, seconds, c);
}

void gc_confirm_findings(const gc_target *t, const gc_finding *f, int n, long seconds)
{
    if (n <= 0)
        return;
    time_t end = time(NULL) + seconds;
    printf("\nin a plain interpreter (each hole's shortest input once more, confirm.h):\n");
    for (int i = 0; i < n; i++) {
        const char *name = f[i].hole[0] ? f[i].hole : f[i].sig;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = strcmp(name, f[j].hole[0] ? f[j].hole : f[j].sig) == 0;
        if (seen)
            continue;
        gc_confirmation c = {GC_CONFIRM_UNKNOWN, GC_WHERE_UNKNOWN, "not run: the time for confirmations was spent"};
        char line[600];
        long left = (long)(end - time(NULL));
        fflush(stdout);
        if (left > 0)
            gc_confirm_text(t, f[i].kind, f[i].cap, f[i].prim, f[i].sig, f[i].chain, left < 60 ? (int)left : 60, &c);
        gc_confirm_line(&c, line, sizeof line);
        printf("  %-40s %s\n", name, line);
    }
}

void gc_confirm_line(const gc_confirmation *c, char *out, size_t len)
{
    const char *via = strstr(c->why, " via ");
    if (c->kind == GC_CONFIRM_YES && c->where == GC_WHERE_EXCEPTION)
        snprintf(out, len, "confirmed in a plain interpreter (only inside an exception the host receives, at %s)",
                 via ? via + 5 : "?");
    else if (c->kind == GC_CONFIRM_YES)
        snprintf(out, len, "confirmed in a plain interpreter (%s)",
                 c->where == GC_WHERE_HELD ? "held by the program" : c->where == GC_WHERE_RETURNED
                                                                        ? "handed back to the host as the value"
                                                                        : "where: not named");
    else if (c->kind == GC_CONFIRM_NO)
        snprintf(out, len, "NOT confirmed: %s", c->why);
    else
        snprintf(out, len, "unconfirmed: %s", c->why);
}

void gc_confirm_print(const gc_target *t, const gc_verdict *v, const char *input, const char *base)
{
    gc_confirmation c;
    char line[600];
    fflush(stdout);
    gc_confirm_escape(t, v, input, 60, &c);
    gc_confirm_line(&c, line, sizeof line);
    printf("          %s: %s\n", base, line);
}
