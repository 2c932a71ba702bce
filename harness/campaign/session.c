/* session.c — see session.h. */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "timelimit.h"
#include "state.h"

static void show_log(const gc_target *t)
{
    char policy[512];
    gc_policy_describe(&t->policy, policy, sizeof policy);
    fprintf(stderr, "gatecrash: target %s (%s), %s mode, policy %s\n", t->spec.name, t->spec.sandbox,
            t->spec.mode == GC_MODE_EFFECT ? "effect" : "reach", policy);
    Py_ssize_t n = 0;
    const char *log = t->startup_log ? PyUnicode_AsUTF8AndSize(t->startup_log, &n) : NULL;
    if (!log || n == 0)
        return;
    fprintf(stderr, "gatecrash: the gate's own log on first install (later installs are silenced):\n");
    const size_t shown_max = 4096;
    size_t shown = 0;
    for (const char *p = log; *p && shown < shown_max;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > 200)
            len = 200;
        fprintf(stderr, "  | %.*s\n", (int)len, p);
        shown += len + 1;
        p = e ? e + 1 : p + strlen(p);
    }
    if ((size_t)n > shown_max)
        fprintf(stderr, "  | … (%zd bytes in all)\n", n);
}

/* --adapter and --venv onto the spec (source targets): 0 or an exit code, message in err. */
static int source_spec(const gc_session_opts *o, gc_target_spec *spec, int rc, char *err, size_t errlen)
{
    if (!rc && o->venv && spec->kind != GC_TARGET_SOURCE) {
        snprintf(err, errlen, "--venv is for source targets (kind \"source\", or --adapter)");
        rc = GC_EXIT_USAGE;
    } else if (!rc && o->venv)
        rc = gc_adapter_set_venv(&spec->adapter, o->venv, ".", err, errlen);
    return rc;
}

/* --import-timeout S: the environment's GATECRASH_IMPORT_TIMEOUT, so the processes the run
 * starts (engines, fresh-process replays) wait as long.  0 or GC_EXIT_USAGE. */
static int import_timeout(const char *s)
{
    char *end = NULL;
    double v = s ? strtod(s, &end) : 0;
    if (!s)
        return 0;
    if (end == s || *end || !(v > 0) || v > 86400) {
        gc_die_msg("--import-timeout must be a number of seconds above 0 (at most 86400), not '%.40s'", s);
        return GC_EXIT_USAGE;
    }
    setenv("GATECRASH_IMPORT_TIMEOUT", s, 1);
    return 0;
}

int gc_session_spec(const gc_session_opts *o, gc_target_spec *spec)
{
    char err[1024] = "";
    int rc;
    if (import_timeout(o->import_timeout))
        return GC_EXIT_USAGE;
    if (o->adapter && o->sandbox) {
        gc_die_msg("--adapter and --sandbox are two kinds of target: give one");
        return GC_EXIT_USAGE;
    }
    if (o->adapter) {
        if (!o->requires) {
            gc_die_msg("--adapter and --requires go together");
            return GC_EXIT_USAGE;
        }
        rc = gc_target_spec_from_adapter(o->adapter, o->requires, spec, err, sizeof err);
    } else if (o->sandbox || o->requires) {
        if (!o->sandbox || !o->requires) {
            gc_die_msg("--sandbox and --requires go together");
            return GC_EXIT_USAGE;
        }
        rc = gc_target_spec_from_args(o->sandbox, o->requires, spec, err, sizeof err);
    } else if (o->target_dir) {
        rc = gc_target_spec_from_dir(o->target_dir, spec, err, sizeof err);
    } else {
        gc_die_msg("no target: give a target folder, or --sandbox PATH --requires JSON");
        return GC_EXIT_USAGE;
    }
    int had = rc;
    rc = source_spec(o, spec, rc, err, sizeof err);
    if (rc && !had)
        gc_target_spec_free(spec);
    if (rc)
        gc_die_msg("%s", err);
    return rc;
}

int gc_session_start(gc_target *t, const gc_session_opts *o)
{
    char err[1024] = "";
    gc_target_spec spec;
    int rc = gc_session_spec(o, &spec);
    if (rc)
        return rc;
    if (o->mode) {
        if (strcmp(o->mode, "reach") == 0)
            spec.mode = GC_MODE_REACH;
        else if (strcmp(o->mode, "effect") == 0)
            spec.mode = GC_MODE_EFFECT;
        else {
            gc_die_msg("--mode must be reach or effect");
            gc_target_spec_free(&spec);
            return GC_EXIT_USAGE;
        }
    }
    rc = gc_target_open(t, &spec, o->scratch ? o->scratch : ".", err, sizeof err);
    gc_target_spec_free(&spec);
    if (rc) {
        gc_die_msg("%s", err);
        return rc;
    }
    if (!o->quiet)
        show_log(t);
    gc_state_fresh_modules = t->spec.kind == GC_TARGET_SOURCE; /* a gate's lazy imports stay (ORACLES.md) */
    if (gc_state_snapshot(err, sizeof err) < 0 || gc_eval_init(err, sizeof err) < 0 ||
        gc_limits_init(err, sizeof err) < 0) {
        gc_die_msg("%s", err);
        return GC_EXIT_HARNESS;
    }
    return 0;
}

int gc_session_roots(gc_target *t, char names[][65], int max)
{
    char err[512];
    PyObject *ns = gc_target_install(t, err, sizeof err);
    int n = 0;
    if (!ns)
        return 0;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(ns, &pos, &k, &v) && n < max) {
        const char *s = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
        if (s && strlen(s) <= 64 && PyUnicode_IsIdentifier(k))
            snprintf(names[n++], 65, "%s", s);
        PyErr_Clear();
    }
    Py_DECREF(ns);
    return n;
}
