/* ratewatch.c — see ratewatch.h.  Written here: no engine reports its rate second by second
 * with what the process did in each second (libFuzzer's pulses are at powers of two, AFL++'s
 * plot data once every few seconds and without the harness's own counters). */
#include "ratewatch.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "state.h"
#include "timelimit.h"
#include "xalloc.h"

static gc_rw_second *sec;
static int nsec, cap, cur = -1;
static uint64_t t0, in_start;

/* The process's counters a second records, as read at the current second's start. */
typedef struct {
    uint64_t cpu_ns;
    unsigned long timeouts, repairs, checks;
} counts;
static counts mark;

static uint64_t ns_of(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static counts counts_now(void)
{
    return (counts){ns_of(CLOCK_PROCESS_CPUTIME_ID), gc_limit_timeouts, gc_state_total_repairs(),
                    gc_state_total_checks()};
}

/* The second 'cur' ends: what the process spent and counted since it began is its own (the
 * CPU of seconds with no input start, e.g. one long input, goes to the second it began). */
static void close_second(void)
{
    if (cur < 0)
        return;
    gc_rw_second *s = &sec[cur];
    counts now = counts_now();
    s->cpu_ns += now.cpu_ns - mark.cpu_ns;
    s->timeouts += now.timeouts - mark.timeouts;
    s->repairs += now.repairs - mark.repairs;
    s->full_checks += now.checks - mark.checks;
    mark = now;
}

/* Make second 'idx' the current one (the seconds between, with no input, are zero). */
static void roll(int idx)
{
    if (idx == cur)
        return;
    close_second();
    if (idx >= cap) {
        int ncap = cap ? cap : 256;
        while (ncap <= idx)
            ncap *= 2;
        sec = gc_xrealloc(sec, (size_t)ncap * sizeof *sec);
        cap = ncap;
    }
    memset(sec + nsec, 0, (size_t)(idx + 1 - nsec) * sizeof *sec);
    nsec = idx + 1;
    cur = idx;
}

void gc_ratewatch_begin(void)
{
    in_start = ns_of(CLOCK_MONOTONIC);
    if (!t0) {
        t0 = in_start;
        mark = counts_now();
    }
    long idx = (long)((in_start - t0) / 1000000000u);
    if (idx < 1 << 24) /* half a year of seconds: past it, the last one takes the rest */
        roll((int)idx);
}

/* The input's text as one short line: newlines shown as " / ", other bytes outside ASCII's
 * printable range as '?'. */
static void one_line(const uint8_t *d, size_t n, char *out, size_t outlen)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 4 < outlen; i++) {
        if (d[i] == '\n') {
            memcpy(out + k, " / ", 3);
            k += 3;
        } else {
            out[k++] = d[i] >= 0x20 && d[i] < 0x7f ? (char)d[i] : '?';
        }
    }
    out[k] = '\0';
}

void gc_ratewatch_end(const uint8_t *data, size_t size)
{
    if (cur < 0)
        return;
    uint64_t d = ns_of(CLOCK_MONOTONIC) - in_start;
    gc_rw_second *s = &sec[cur];
    s->execs++;
    s->in_inputs_ns += d;
    if (d >= GC_RW_SLOW_NS) {
        s->slow++;
        s->slow_ns += d;
    }
    if (d > s->slowest_ns) {
        s->slowest_ns = d;
        one_line(data, size, s->slowest, sizeof s->slowest);
    }
}

/* ---- the analysis ---- */

static int cmp_ul(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return (x > y) - (x < y);
}

/* Sums over a span of seconds. */
typedef struct {
    double secs, execs, in_ns, cpu_ns, slow, slow_ns, timeouts, repairs, checks;
    const gc_rw_second *slowest;
} span;

static void add(span *p, const gc_rw_second *s)
{
    p->secs += 1;
    p->execs += (double)s->execs;
    p->in_ns += (double)s->in_inputs_ns;
    p->cpu_ns += (double)s->cpu_ns;
    p->slow += (double)s->slow;
    p->slow_ns += (double)s->slow_ns;
    p->timeouts += (double)s->timeouts;
    p->repairs += (double)s->repairs;
    p->checks += (double)s->full_checks;
    if (!p->slowest || s->slowest_ns > p->slowest->slowest_ns)
        p->slowest = s;
}

static double share(double ns, double secs) { return secs > 0 ? ns / (secs * 1e9) : 0; }
static double per_input(double x, double execs) { return execs > 0 ? x / execs : 0; }

/* Why span d ran slower than the rest of the run r: the first cause the record shows. */
static void cause(const span *d, const span *r, char *out, size_t len)
{
    double cpu_d = share(d->cpu_ns, d->secs), cpu_r = share(r->cpu_ns, r->secs);
    double in_d = share(d->in_ns, d->secs), in_r = share(r->in_ns, r->secs);
    double us_d = per_input(d->in_ns, d->execs) / 1e3, us_r = per_input(r->in_ns, r->execs) / 1e3;
    char slowest[GC_RW_TEXT + 48] = "";
    if (d->slowest && d->slowest->slowest_ns)
        snprintf(slowest, sizeof slowest, "; the slowest input, %.1f ms: %s", (double)d->slowest->slowest_ns / 1e6,
                 d->slowest->slowest);
    if (cpu_d < 0.5 * cpu_r)
        snprintf(out, len,
                 "the process had %.0f%% of a CPU in it (%.0f%% in the rest of the run): the machine's CPU went to "
                 "other work, or the process was stopped",
                 100 * cpu_d, 100 * cpu_r);
    else if (share(d->slow_ns, d->secs) >= 0.3)
        snprintf(out, len, "%.0f input(s) of 10 ms or more took %.0f%% of it (%.0f stopped by the time limit)%s",
                 d->slow, 100 * share(d->slow_ns, d->secs), d->timeouts, slowest);
    else if (in_d < 0.5 * in_r)
        snprintf(out, len,
                 "the engine's own work between inputs (mutation, corpus) took %.0f%% of it (%.0f%% in the rest of "
                 "the run)",
                 100 * (1 - in_d), 100 * (1 - in_r));
    else if (us_d >= 2 * us_r)
        snprintf(out, len,
                 "each input took %.0f us (%.0f us in the rest of the run), with %.0f state repairs and %.0f full "
                 "state checks per 1000 inputs (%.0f and %.0f)%s",
                 us_d, us_r, 1000 * per_input(d->repairs, d->execs), 1000 * per_input(d->checks, d->execs),
                 1000 * per_input(r->repairs, r->execs), 1000 * per_input(r->checks, r->execs), slowest);
    else
        snprintf(out, len,
                 "no cause in the record: CPU %.0f%% (%.0f%%), time in inputs %.0f%% (%.0f%%), %.0f us per input "
                 "(%.0f us), in it and in the rest of the run",
                 100 * cpu_d, 100 * cpu_r, 100 * in_d, 100 * in_r, us_d, us_r);
}

int gc_ratewatch_dips(const gc_rw_second *s, int n, char *out, size_t outlen)
{
    out[0] = '\0';
    int from = GC_RW_WARMUP, m = n - from;
    if (m < 3 * GC_RW_MIN_DIP) /* too short a run for a median to mean anything */
        return 0;
    unsigned long *v = gc_xmalloc((size_t)m * sizeof *v);
    for (int i = 0; i < m; i++)
        v[i] = s[from + i].execs;
    qsort(v, (size_t)m, sizeof *v, cmp_ul);
    unsigned long med = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
    free(v);
    span rest = {0};
    for (int i = from; i < n; i++)
        if (2 * s[i].execs >= med)
            add(&rest, &s[i]);
    int found = 0;
    size_t k = 0;
    for (int a = from; a < n && med > 0;) {
        int b = a;
        while (b < n && 2 * s[b].execs < med)
            b++;
        if (b - a >= GC_RW_MIN_DIP) {
            span d = {0};
            for (int i = a; i < b; i++)
                add(&d, &s[i]);
            char why[512];
            cause(&d, &rest, why, sizeof why);
            int w = snprintf(out + k, outlen - k,
                             "gatecrash: rate dip: seconds %d-%d of the run at %.0f inputs/s, under half its median "
                             "%lu/s: %s\n",
                             a, b, d.execs / d.secs, med, why);
            if (w > 0 && (size_t)w < outlen - k)
                k += (size_t)w;
            found++;
        }
        a = b > a ? b : a + 1;
    }
    return found;
}

void gc_ratewatch_report(void)
{
    static int done;
    if (done++ || cur < 0)
        return;
    close_second();
    char out[8192];
    /* the last second is cut short by the exit: left out */
    if (gc_ratewatch_dips(sec, cur, out, sizeof out) == 0)
        return;
    fputs(out, stderr);
    const char *path = getenv("GATECRASH_STATS_FILE");
    int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (fd >= 0) {
        ssize_t w = write(fd, out, strlen(out));
        (void)w;
        close(fd);
    }
}
