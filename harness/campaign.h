/* campaign.h — running an engine on a target and keeping score.
 *
 * Owns: the engine's command line (libFuzzer fork mode: flags, dictionary, seeds, a
 * working corpus, artifacts), its child process and output, progress lines, and the live
 * table of distinct escapes: every crash input the engine writes is replayed in this
 * process as it appears (decoded as the fuzzer decoded it) and folded by signature.  Used
 * by `gatecrash fuzz` and by the fuzzing half of `gatecrash gate`. */
#ifndef GATECRASH_CAMPAIGN_H
#define GATECRASH_CAMPAIGN_H

#include "fsutil.h"
#include "session.h"

typedef struct {
    const gc_session_opts *target; /* absolute paths */
    const char *fuzzer;            /* fuzz_gate binary */
    const char *out;               /* output folder (absolute): crashes/, corpus/, scratch/, fuzz.log */
    const char *seeds;             /* read-only seed corpus folder */
    const char *dict;              /* dictionary file */
    long seconds, jobs, seed, runs; /* runs < 0: unbounded */
    int quiet;                     /* no progress lines */
} gc_campaign_opts;

typedef struct {
    char sig[256];
    char chain[1024]; /* shortest chain seen */
    char kind[16], cap[16], prim[96];
    char first[128];  /* crash file that first showed it */
    int count;
} gc_finding;

typedef struct {
    gc_finding *found;
    int nfound, cap;
    int reproduced, flaky;
    unsigned long execs, corpus;
    long elapsed;
    int engine_status; /* exit code of the engine, 128+signal when killed */
    char crashes[4096];
} gc_campaign_result;

/* Validate paths and make the output folders.  0 or an exit code (message printed). */
int gc_campaign_prepare(const gc_campaign_opts *o);
/* Run the engine to the end.  't' is an open target (its own scratch) used to replay
 * crash inputs.  Returns 0, or an exit code when the engine could not run. */
int gc_campaign_run(gc_target *t, const gc_campaign_opts *o, gc_campaign_result *r);
void gc_campaign_print_table(const gc_campaign_result *r, const char *target_name);
void gc_campaign_result_free(gc_campaign_result *r);

#endif
