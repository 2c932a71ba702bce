/* cmd_check.c — `gatecrash check TARGET`: a source target's adapter probed (probe.h), one
 * line for each thing wrong with it, the roots that evaluate, the time an evaluation
 * takes and which node kinds the sandbox refuses and runs (node_kinds.h) (cli.h).  fuzz, sweep and gate run the same probes (cli_probe_adapter) before they
 * start: each problem one line on stderr, the dialect and the names found said, exit 3 where
 * fuzzing could find nothing. */
#include <Python.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "node_kinds.h"
#include "probe.h"

typedef struct {
    gc_session_opts o;
    gc_strlist pos; /* TARGET (unless given as an option) */
} check_args;

/* The names found without roots() (probe.h), the first few: "a, b, c, ..." */
static void found_names(const gc_target *t, char *out, size_t n)
{
    out[0] = '\0';
    PyObject *names = t->adapter.found_roots;
    Py_ssize_t k = 0, count = names ? PyList_GET_SIZE(names) : 0;
    for (size_t used = 0; k < count && k < 8 && used < n; k++, used = strlen(out))
        snprintf(out + used, n - used, "%s%s", k ? ", " : "", PyUnicode_AsUTF8(PyList_GET_ITEM(names, k)));
    if (k < count)
        snprintf(out + strlen(out), n - strlen(out), ", ...");
}

int cli_probe_adapter(gc_target *t)
{
    gc_probe_report r;
    char err[512], names[512];
    if (t->spec.kind != GC_TARGET_SOURCE)
        return 0;
    int rc = gc_source_probe(t, GC_PROBE_BEFORE, &r, err, sizeof err);
    if (rc)
        gc_die_msg("%s", err);
    else if (r.fatal)
        gc_die_msg("%s: %s (gatecrash check says more)", t->spec.sandbox, r.first);
    if (rc || r.fatal)
        return rc ? rc : GC_EXIT_TARGET;
    if (r.expression)
        fprintf(stderr, "gatecrash: adapter: statements give no value but expressions do (evaluate('1') gave 1): "
                "running %s in the expression dialect (target.json's \"dialect\" should have \"expression\")\n",
                t->spec.name);
    found_names(t, names, sizeof names);
    if (!t->adapter.roots_fn && !r.roots_from[0])
        fprintf(stderr, "gatecrash: adapter: no roots(), and the sandbox named no names of its own when asked "
                "(dir(), globals(), vars()): programs start from the builtins only\n");
    else if (r.roots_from[0])
        fprintf(stderr, "gatecrash: adapter: no roots(): starting from the %zd name(s) the sandbox hands out, found "
                "by %s: %s\n", PyList_GET_SIZE(t->adapter.found_roots), r.roots_from, names);
    return 0;
}

int cli_probe_dialect(gc_target *t)
{
    char err[512];
    int rc = t->spec.kind == GC_TARGET_SOURCE ? gc_source_probe_dialect(t, err, sizeof err) : 0;
    if (rc)
        gc_die_msg("%s", err);
    return rc;
}

/* Which node kinds the sandbox refuses and which it runs (node_kinds.h), a line each. */
static int node_table(gc_target *t, char *err, size_t errlen)
{
    gc_strbuf sb;
    gc_node_kinds_report k;
    gc_sb_init(&sb);
    int rc = gc_node_kinds_probe(t, &sb, &k, err, errlen);
    if (rc)
        gc_die_msg("%s", err);
    else
        printf("%snodes: %d kinds run, %d refused, %d not in this dialect\n", sb.data ? sb.data : "", k.runs,
               k.refused, k.skipped);
    gc_sb_free(&sb);
    return rc;
}

/* On the started target (cli_run_confined): every probe printed. */
static int check_started(gc_target *t, void *ctx)
{
    (void)ctx;
    gc_probe_report r;
    char err[512];
    if (t->spec.kind != GC_TARGET_SOURCE) {
        gc_die_msg("check probes a source target's adapter; %s is a gate (gatecrash sweep tries a gate)", t->spec.name);
        return GC_EXIT_USAGE;
    }
    printf("check: %s (adapter %s)\n", t->spec.name, t->spec.sandbox);
    int rc = gc_source_probe(t, GC_PROBE_CHECK, &r, err, sizeof err);
    if (rc)
        gc_die_msg("%s", err);
    else if (r.fatal)
        printf("check: fuzz and sweep would stop here: %s\n", r.first);
    else
        rc = node_table(t, err, sizeof err);
    if (!rc && !r.fatal)
        printf("check: %s\n", r.problems ? "usable, with the problems above" : "the adapter is usable");
    return rc ? rc : r.fatal ? GC_EXIT_TARGET : 0;
}

static int cmd_check(int argc, char **argv)
{
    check_args a = {0};
    int first = cli_parse_command(&cli_check, &a, &a.o, &a.pos, argc, argv);
    int rc = first < 0 ? GC_EXIT_USAGE : 0;
    if (!rc && first != a.pos.n) {
        gc_die_msg("%s", cli_check.usage);
        rc = GC_EXIT_USAGE;
    }
    if (!rc)
        rc = cli_run_confined(&a.o, 1, NULL, check_started, &a);
    gc_sl_free(&a.pos);
    return rc;
}

const cli_command cli_check = {
    "check", "gatecrash check TARGET   probe a source target's adapter: what is wrong with it, in one line each",
    "usage: gatecrash check TARGET", 1,
    {CLI_TARGET_SET(check_args, o), {0}}, cmd_check};
