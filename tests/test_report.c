/* test_report.c — the release gate's reports (triage/report.c) from fixed data, against
 * golden files: report.md, report.json and report.sarif written by gc_report_write for a
 * hand-made target (a fixed gate path under a fixed base, so SARIF's location is relative),
 * three saved cases (one escaping, one blocked, one unreadable), a campaign's two escapes
 * and a sweep's two, every escape with its hole (no Python runs), must equal
 * tests/fixtures/report/report.{md,json,sarif} byte for byte after one normalisation:
 * report.json's "date" (the time of writing) becomes "DATE" and its "python" (PY_VERSION of
 * the CPython this build embeds) becomes "PYTHON".  report.html is not compared (its date
 * is in running text; tests/report_html.sh checks the page).
 *
 * To regenerate the goldens after a deliberate change of a report's form:
 *     GATECRASH_UPDATE_GOLDEN=1 build/tests/test_report tests/fixtures/report
 * writes the normalised files there (and passes); review the diff before committing it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fsutil.h"
#include "report.h"

/* In 'text', the string value of the first "key": becomes 'repl'; 0 when there is none. */
static int normalise(char **text, const char *key, const char *repl)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    char *p = strstr(*text, pat);
    if (!p)
        return 0;
    char *q = strchr(p + strlen(pat), '"');
    char *e = q ? strchr(q + 1, '"') : NULL;
    if (!e)
        return 0;
    size_t head = (size_t)(q + 1 - *text), tail = strlen(e);
    char *out = malloc(head + strlen(repl) + tail + 1);
    memcpy(out, *text, head);
    memcpy(out + head, repl, strlen(repl));
    memcpy(out + head + strlen(repl), e, tail + 1);
    free(*text);
    *text = out;
    return 1;
}

static char *read_text(const char *path)
{
    size_t len;
    unsigned char *d = gc_read_file(path, &len);
    if (!d)
        return NULL;
    char *s = malloc(len + 1);
    memcpy(s, d, len);
    s[len] = '\0';
    free(d);
    return s;
}

/* The written 'name' (normalised) against the golden; with 'update', the golden rewritten. */
static void compare(const char *dir, const char *golden_dir, const char *name, int update)
{
    char path[4200], gpath[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(gpath, sizeof gpath, "%s/%s", golden_dir, name);
    char *got = read_text(path);
    CHECK(got != NULL, "%s was not written", name);
    if (!got)
        return;
    if (strcmp(name, "report.json") == 0) {
        CHECK(normalise(&got, "date", "DATE"), "report.json has no \"date\"");
        CHECK(normalise(&got, "python", "PYTHON"), "report.json has no \"python\"");
    }
    if (update) {
        CHECK(gc_write_atomic(gpath, got, strlen(got), 0) == 0, "cannot write %s", gpath);
        printf("wrote %s\n", gpath);
        free(got);
        return;
    }
    char *want = read_text(gpath);
    CHECK(want != NULL, "no golden %s (GATECRASH_UPDATE_GOLDEN=1 writes it)", gpath);
    if (want && strcmp(got, want) != 0) {
        size_t i = 0, line = 1;
        while (got[i] && got[i] == want[i])
            line += got[i++] == '\n';
        CHECK(0, "%s differs from %s from line %zu: got [%.80s], want [%.80s]", name, gpath, line, got + i,
              want + i);
    } else if (want) {
        CHECK(1, "%s", name);
    }
    free(want);
    free(got);
}

static gc_finding finding(const char *sig, const char *hole, const char *cap, const char *prim, const char *chain)
{
    gc_finding f;
    memset(&f, 0, sizeof f);
    snprintf(f.sig, sizeof f.sig, "%s", sig);
    snprintf(f.hole, sizeof f.hole, "%s", hole);
    snprintf(f.kind, sizeof f.kind, "reach");
    snprintf(f.cap, sizeof f.cap, "%s", cap);
    snprintf(f.prim, sizeof f.prim, "%s", prim);
    snprintf(f.chain, sizeof f.chain, "%s", chain);
    snprintf(f.first, sizeof f.first, "crash-0000");
    f.count = 1;
    return f;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_report GOLDEN_DIR (tests/fixtures/report)\n");
        return 2;
    }
    int update = getenv("GATECRASH_UPDATE_GOLDEN") && *getenv("GATECRASH_UPDATE_GOLDEN");

    static gc_target t; /* no session: the reports read only the spec and the policy */
    snprintf(t.spec.name, sizeof t.spec.name, "golden-station");
    snprintf(t.spec.dir, sizeof t.spec.dir, "/gatecrash/targets/golden-station");
    snprintf(t.spec.sandbox, sizeof t.spec.sandbox, "/gatecrash/targets/golden-station/module_sandbox.py");
    t.spec.mode = GC_MODE_REACH;
    t.spec.kind = GC_TARGET_GATE;
    static char glob[] = "/tmp/allowed/*";
    t.policy.spawn_forbidden = 1;
    t.policy.write_restricted = 1;
    t.policy.nglobs = 1;
    t.policy.globs[0] = glob;
    t.policy.network_forbidden = 1;

    static gc_case_result cases[3];
    snprintf(cases[0].file, sizeof cases[0].file, "reach-spawn-os.system-via-modattr.chain");
    snprintf(cases[0].signature, sizeof cases[0].signature, "reach:spawn:os.system:modattr");
    snprintf(cases[0].chain, sizeof cases[0].chain, "subprocess.os.system");
    snprintf(cases[0].hole, sizeof cases[0].hole, "proxy subprocess .<module>");
    snprintf(cases[0].kind, sizeof cases[0].kind, "reach");
    snprintf(cases[0].cap, sizeof cases[0].cap, "spawn");
    snprintf(cases[0].prim, sizeof cases[0].prim, "os.system");
    cases[0].escaped = 1;
    snprintf(cases[1].file, sizeof cases[1].file, "reach-write-os.remove-via-modattr.chain");
    snprintf(cases[1].signature, sizeof cases[1].signature, "reach:write:os.remove:modattr");
    snprintf(cases[2].file, sizeof cases[2].file, "notes.chain");
    cases[2].unreadable = 1;

    gc_finding fz[2] = {
        finding("reach:spawn:os.execv:self", "builtin_function_or_method . __self__", "spawn", "os.execv",
                "os.getpid.__self__.execv"),
        finding("reach:write:os.chmod:direct", "proxy os .<primitive>", "write", "os.chmod", "os.chmod"),
    };
    gc_campaign_result camp;
    memset(&camp, 0, sizeof camp);
    camp.found = fz;
    camp.nfound = 2;
    camp.execs = 12345;
    gc_finding sw[2] = {
        finding("reach:spawn:os.fork:modattr", "proxy subprocess .<module>", "spawn", "os.fork", "subprocess.os.fork"),
        finding("reach:spawn:subprocess.Popen:subclasses", "type . __subclasses__()", "spawn", "subprocess.Popen",
                "__builtins__['object'].__subclasses__()[@Popen]"),
    };
    gc_gate_report r = {.t = &t, .escapes_dir = "escapes/golden-station", .cases = cases, .ncases = 3,
                        .fuzz = &camp, .fuzz_seconds = 60, .sweep_depth = 3, .sweep = sw, .nsweep = 2,
                        .sweep_nodes = 412};

    char dir[] = "/tmp/gatecrash-test-report-XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    CHECK(gc_report_write(&r, dir, "/gatecrash") == 0, "gc_report_write failed");
    compare(dir, argv[1], "report.md", update);
    compare(dir, argv[1], "report.json", update);
    compare(dir, argv[1], "report.sarif", update);
    gc_rm_tree(dir);
    return check_summary();
}
