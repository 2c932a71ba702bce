/* test_ratewatch.c — the rate-dip analysis (fuzz/ratewatch.h) on made-up seconds: a dip of
 * 5 s or more below half the median is found, with the cause the record shows; 4 s is not
 * a dip; the warm-up seconds and a run too short for a median say nothing. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "ratewatch.h"

#define N 40

/* A steady run: 10,000 inputs a second, 60% of the time in inputs, a whole CPU. */
static void steady(gc_rw_second *s, int n)
{
    memset(s, 0, (size_t)n * sizeof *s);
    for (int i = 0; i < n; i++) {
        s[i].execs = 10000;
        s[i].in_inputs_ns = 600000000;
        s[i].cpu_ns = 1000000000;
        s[i].slowest_ns = 200000;
        snprintf(s[i].slowest, sizeof s[i].slowest, "a.b");
    }
}

/* Seconds [a, b) at 'execs' inputs each, 'in_ns' of the second inside inputs, 'cpu_ns' of
 * CPU, 'work' state repairs and as many full state checks. */
static void span(gc_rw_second *s, int a, int b, unsigned long execs, uint64_t in_ns, uint64_t cpu_ns,
                 unsigned long work)
{
    for (int i = a; i < b; i++)
        s[i].execs = execs, s[i].in_inputs_ns = in_ns, s[i].cpu_ns = cpu_ns, s[i].repairs = s[i].full_checks = work;
}

static int dips(const gc_rw_second *s, int n, char *out)
{
    return gc_ratewatch_dips(s, n, out, 4096);
}

int main(void)
{
    gc_rw_second s[N];
    char out[4096];

    steady(s, N);
    CHECK(dips(s, N, out) == 0, "a steady run has no dip: %s", out);

    /* stopped for 6 s (SIGSTOP, or the machine busy): no inputs, no CPU */
    steady(s, N);
    span(s, 10, 16, 0, 0, 0, 0);
    CHECK(dips(s, N, out) == 1, "one dip: %s", out);
    CHECK(strstr(out, "gatecrash: rate dip: seconds 10-16 of the run at 0 inputs/s, under half its median 10000/s"),
          "the dip's seconds and rate: %s", out);
    CHECK(strstr(out, "the process had 0% of a CPU in it (100% in the rest of the run)"), "the cause: %s", out);

    /* 4 s is not a dip */
    steady(s, N);
    span(s, 10, 14, 1000, 600000000, 1000000000, 0);
    CHECK(dips(s, N, out) == 0, "4 s below half is no dip: %s", out);

    /* the warm-up (the seed corpus) is left out */
    steady(s, N);
    span(s, 0, 3, 100, 600000000, 1000000000, 0);
    CHECK(dips(s, N, out) == 0, "warm-up seconds are no dip: %s", out);

    /* slow inputs: a whole CPU, the time inside inputs of 10 ms and more */
    steady(s, N);
    for (int i = 20; i < 27; i++) {
        s[i].execs = 2000, s[i].in_inputs_ns = 950000000, s[i].slow = 60, s[i].slow_ns = 900000000;
        s[i].timeouts = 40, s[i].slowest_ns = 20000000;
    }
    snprintf(s[23].slowest, sizeof s[23].slowest, "x.y.z()");
    s[23].slowest_ns = 21000000;
    CHECK(dips(s, N, out) == 1, "slow inputs: %s", out);
    CHECK(strstr(out, "seconds 20-27 of the run at 2000 inputs/s"), "slow inputs: the seconds: %s", out);
    CHECK(strstr(out, "420 input(s) of 10 ms or more took 90% of it (280 stopped by the time limit); the slowest "
                      "input, 21.0 ms: x.y.z()"),
          "slow inputs: the cause, the slowest input named: %s", out);

    /* the engine's own time: inputs as fast as ever, the time outside them */
    steady(s, N);
    span(s, 30, 36, 3000, 180000000, 1000000000, 0);
    CHECK(dips(s, N, out) == 1 && strstr(out, "the engine's own work between inputs (mutation, corpus) took 82% of it "
                                              "(40% in the rest of the run)"),
          "engine time: %s", out);

    /* each input slower, state work in them */
    steady(s, N);
    span(s, 5, 12, 3000, 600000000, 1000000000, 3000);
    CHECK(dips(s, N, out) == 1 && strstr(out, "each input took 200 us (60 us in the rest of the run), with 1000 state "
                                              "repairs and 1000 full state checks per 1000 inputs (0 and 0)"),
          "slower inputs: %s", out);

    /* two dips, two lines */
    steady(s, N);
    span(s, 5, 10, 0, 0, 0, 0);
    span(s, 30, 38, 0, 0, 0, 0);
    CHECK(dips(s, N, out) == 2 && strstr(out, "seconds 5-10 ") && strstr(out, "seconds 30-38 "), "two dips: %s", out);

    /* too short a run */
    steady(s, 15);
    span(s, 5, 12, 0, 0, 0, 0);
    CHECK(dips(s, 15, out) == 0, "15 s is too short a run: %s", out);
    return check_summary();
}
