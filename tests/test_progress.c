/* test_progress.c — the progress line's rate and time left (campaign.h), as pure functions
 * fed the counts an engine reports: libFuzzer's fork mode reports in bursts, one per
 * finished job, so a rate taken over one 5 s poll jumped between 0/s and hundreds of
 * thousands per second. */
#include <stdio.h>

#include "campaign.h"
#include "check.h"

/* Polls every 5 s of an engine doing 'eps' execs/s that reports every 'every' s. */
static void bursts(long every, unsigned long eps, long until, unsigned long lo, unsigned long hi)
{
    gc_rate w = {.len = 1};
    for (long t = 5; t <= until; t += 5) {
        unsigned long reported = (unsigned long)(t / every * every) * eps;
        gc_rate_add(&w, t, reported);
        unsigned long r = gc_rate_per_s(&w);
        if (t >= every)
            CHECK(r >= lo && r <= hi, "reports every %lds at %lu/s: %lu/s at %lds", every, eps, r, t);
        else
            CHECK(r == 0, "no report yet at %lds, rate %lu", t, r);
    }
}

int main(void)
{
    bursts(10, 2000, 600, 2000, 2000);  /* fork mode's early jobs: a report every other poll */
    bursts(35, 2000, 1200, 2000, 2000); /* later jobs outlast the window: never 0/s between */
    bursts(5, 7000, 300, 7000, 7000);   /* a report at every poll (one process) */

    /* the window follows a change of speed instead of averaging the whole run */
    gc_rate w = {.len = 1};
    unsigned long n = 0;
    for (long t = 1; t <= 400; t++) {
        n += t <= 200 ? 3000 : 1000;
        gc_rate_add(&w, t, n);
    }
    CHECK(gc_rate_per_s(&w) == 1000, "200 s after slowing to 1000/s: %lu/s", gc_rate_per_s(&w));
    CHECK(w.len <= GC_RATE_SAMPLES, "window holds %d samples", w.len);

    gc_rate none = {.len = 1};
    gc_rate_add(&none, 5, 0);
    CHECK(gc_rate_per_s(&none) == 0, "nothing reported: %lu/s", gc_rate_per_s(&none));

    /* time left: --time, --runs at the current rate, whichever ends first */
    CHECK(gc_eta_s(20, 60, 0, -1, 0) == 40, "--time 60 at 20 s: %ld", gc_eta_s(20, 60, 0, -1, 0));
    CHECK(gc_eta_s(70, 60, 0, -1, 0) == 0, "past --time: %ld", gc_eta_s(70, 60, 0, -1, 0));
    CHECK(gc_eta_s(10, 600, 1000, 5000, 100) == 40, "--runs 5000 at 100/s: %ld", gc_eta_s(10, 600, 1000, 5000, 100));
    CHECK(gc_eta_s(10, 30, 1000, 500000, 100) == 20, "--time first: %ld", gc_eta_s(10, 30, 1000, 500000, 100));
    CHECK(gc_eta_s(10, 0, 1000, 5000, 0) == -1, "--runs, no rate yet: %ld", gc_eta_s(10, 0, 1000, 5000, 0));
    CHECK(gc_eta_s(10, 0, 0, -1, 500) == -1, "unbounded: %ld", gc_eta_s(10, 0, 0, -1, 500));
    CHECK(gc_eta_s(10, 0, 9000, 5000, 500) == 0, "past --runs: %ld", gc_eta_s(10, 0, 9000, 5000, 500));
    return check_summary();
}
