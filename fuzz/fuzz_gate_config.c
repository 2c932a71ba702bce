/* fuzz_gate_config.c — fuzz_gate's options and environment into one struct (fuzz_gate.h). */
#include "fuzz_gate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "feedback.h"
#include "fuzz_target.h"
#include "fsutil.h"

static const char *opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

/* What fuzz_gate runs with when no option says otherwise. */
static void defaults(gc_fuzz_gate_config *c)
{
    memset(c, 0, sizeof *c);
    c->artifact_prefix = "./";
    c->chain_mutator = 1;
    c->reuse = 1; /* cheap fresh namespaces; --reuse=0 for the naive loop */
    c->feedback = 1;
    /* A chain that reaches the limit is blocked for good (docs/PERFORMANCE.md, "time
     * limit"), and each costs the whole limit: so far below the tools' 2 s.  A slow but
     * legitimate step cut short (a big import) keeps what it did and gets further the next
     * time. */
    c->input_timeout = 0.02;
    /* Linked with AFL++'s runtime (fuzz_gate_afl, or an OSS-Fuzz AFL++ build): every signal
     * but (type, name), which floods AFL++'s queue (it keeps every input that reaches a new
     * map byte, and its mutator does not probe values); the set measured with AFL++
     * (docs/PERFORMANCE.md).  --feedback= still picks. */
    c->afl = gc_fuzz_afl_runtime();
    c->signals = c->afl ? GC_FB_COARSE : GC_FB_DEFAULT;
}

/* One argument; 1 when it was ours, 0 when not, -1 on a bad value (line printed). */
static int take(gc_fuzz_gate_config *c, const char *a)
{
    const char *v;
    if ((v = opt(a, "--target")))
        c->session.target_dir = v;
    else if ((v = opt(a, "--sandbox")))
        c->session.sandbox = v;
    else if ((v = opt(a, "--requires")))
        c->session.requires = v;
    else if ((v = opt(a, "--mode")))
        c->session.mode = v;
    else if (strcmp(a, "--json") == 0)
        c->json = 1;
    else if (strcmp(a, "--quiet") == 0)
        c->session.quiet = 1;
    else if ((v = opt(a, "--skip-known"))) {
        if (c->nknown_files == GC_FUZZ_GATE_MAX_KNOWN_FILES) {
            fprintf(stderr, "gatecrash: error: --skip-known: at most %d files\n", GC_FUZZ_GATE_MAX_KNOWN_FILES);
            return -1;
        }
        c->known_files[c->nknown_files++] = v;
    } else if ((v = opt(a, "--known-hangs")))
        c->known_hangs = v;
    else if ((v = opt(a, "--mutator")))
        c->chain_mutator = strcmp(v, "bytes") == 0 ? 0 : strcmp(v, "no-harvest") == 0 ? 2 : 1;
    else if ((v = opt(a, "--escapes")))
        c->escapes = strcmp(v, "record") == 0 ? GC_ESCAPES_RECORD
                   : strcmp(v, "continue") == 0 ? GC_ESCAPES_CONTINUE : GC_ESCAPES_CRASH;
    else if ((v = opt(a, "-artifact_prefix")))
        c->artifact_prefix = v;
    else if ((v = opt(a, "--input-timeout")))
        c->input_timeout = atof(v);
    else if ((v = opt(a, "--feedback"))) {
        if (gc_feedback_parse(v, &c->signals) < 0) {
            fprintf(stderr, "gatecrash: error: --feedback=%s: signals are transitions, names, modules, "
                    "classes, prims, gate, counts\n", v);
            return -1;
        }
        c->feedback = c->signals != 0;
    } else if ((v = opt(a, "--naive"))) /* the naive loop: fresh installs, blind, bytes */
        c->reuse = c->feedback = c->chain_mutator = strcmp(v, "1") != 0;
    else if ((v = opt(a, "--reuse")))
        c->reuse = strcmp(v, "0") != 0;
    else
        return 0;
    return 1;
}

/* The environment, and what follows from the options: the resolved chains' folder, the
 * gate when no option named one. */
static void derive(gc_fuzz_gate_config *c, const char *argv0)
{
    c->trace_inputs = getenv("GATECRASH_TRACE_INPUTS");
    c->trace_timeouts = getenv("GATECRASH_TRACE_TIMEOUTS") != NULL;
    c->stats_file = getenv("GATECRASH_STATS_FILE");
    /* the crash inputs' folder: the campaign says (AFL++ picks its own), else libFuzzer's prefix */
    if (getenv("GATECRASH_RESOLVED_DIR")) {
        snprintf(c->resolved_dir, sizeof c->resolved_dir, "%s", getenv("GATECRASH_RESOLVED_DIR"));
    } else if (!c->afl) {
        gc_resolved_path(c->artifact_prefix, "", 0, c->resolved_dir, sizeof c->resolved_dir);
        *strrchr(c->resolved_dir, '/') = '\0'; /* the folder, not a file in it */
    }
    gc_session_opts *o = &c->session;
    if (!o->target_dir && !o->sandbox)
        o->target_dir = getenv("GATECRASH_TARGET");
    if (!o->target_dir && !o->sandbox) {
        snprintf(c->beside, sizeof c->beside, "%s.target", argv0);
        if (access(c->beside, R_OK) == 0)
            o->target_dir = c->beside;
    }
    /* libFuzzer re-runs Initialize in every child; show the gate log only once per tree. */
    if (getenv("GATECRASH_LOG_SHOWN"))
        o->quiet = 1;
}

int gc_fuzz_gate_configure(gc_fuzz_gate_config *c, int argc, char **argv)
{
    defaults(c);
    for (int i = 1; i < argc; i++)
        if (take(c, argv[i]) < 0)
            return GC_EXIT_USAGE;
    derive(c, argv[0]);
    return 0;
}
