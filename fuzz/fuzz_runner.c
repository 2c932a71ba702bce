/* fuzz_runner.c — the standalone main of every <target>-test binary (fuzz_gate-test,
 * fuzz_decoder-test): a fuzz target (fuzz_target.h) run over files without an engine, as
 * OpenSSL's fuzz/test-corpus.c and curl-fuzzer's standalone runner do.  Built in every
 * configuration, -DGATECRASH_ENGINE=none included, and never coverage-instrumented.
 *
 *   <target>-test [TARGET OPTIONS] [-runs=N] FILE|DIR...
 *
 * Arguments that start with '-' are the target's options (the whole argv goes to its
 * initialisation, as an engine's would: fuzz_gate grants writes in the first folder given,
 * its corpus under libFuzzer); every other is an input file, or a folder whose
 * regular files (not its subfolders, not names starting with '.') are inputs, by name.
 * Each input goes through the target's test-one-input once (N times with -runs=N, libFuzzer's
 * flag for files given: the file read once, so that a benchmark of the target over a fixed
 * set counts no file reading, which fuzzing does not do), in this order, in this one
 * process, and gets one line on stdout (with -runs, its runs' worst verdict):
 *   gatecrash: input PATH: ok|rejected|finding
 * (ok: the engine could keep it; rejected: nothing to keep, e.g. nothing to run or a
 * finding already reported; finding: what the engine would crash on — fuzz_gate: an
 * escape, its ESCAPE and DEDUP_TOKEN lines before it on stderr), then one summary line
 *   gatecrash: N inputs: K ok, R rejected, F findings
 * Exit: 0 no finding, 1 at least one, 2 usage or an input that cannot be read (the run
 * stops there), or the target's own exit code (3, 4: its start-up or a harness error). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_target.h"
#include "strbuf.h"
#include "target.h"

static unsigned long counts[3]; /* ok, rejected, findings */
static long runs = 1;

static int read_all(const char *path, gc_strbuf *sb)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        gc_sb_putn(sb, buf, n);
    int bad = ferror(f);
    fclose(f);
    return bad ? -1 : 0;
}

/* One input: 0, or GC_EXIT_USAGE when it cannot be read (line printed). */
static int run_file(const char *path)
{
    gc_strbuf sb;
    gc_sb_init(&sb);
    if (read_all(path, &sb) != 0) {
        fprintf(stderr, "gatecrash: error: cannot read %s: %s\n", path, strerror(errno));
        gc_sb_free(&sb);
        return GC_EXIT_USAGE;
    }
    int i = 0;
    for (long r = 0; r < runs; r++) {
        int v = gc_fuzz_test_one_input((const uint8_t *)sb.data, sb.len);
        int w = v == GC_FUZZ_FINDING ? 2 : v == GC_FUZZ_REJECT ? 1 : 0;
        i = w > i ? w : i;
    }
    gc_sb_free(&sb);
    static const char *const words[] = {"ok", "rejected", "finding"};
    counts[i]++;
    fflush(stderr);
    printf("gatecrash: input %s: %s\n", path, words[i]);
    fflush(stdout);
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

/* A folder's regular files, by name. */
static int run_dir(const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, by_name), rc = 0;
    if (n < 0) {
        fprintf(stderr, "gatecrash: error: cannot read %s: %s\n", dir, strerror(errno));
        return GC_EXIT_USAGE;
    }
    for (int i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        size_t dl = strlen(dir);
        snprintf(path, sizeof path, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", names[i]->d_name);
        if (!rc && names[i]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode))
            rc = run_file(path);
        free(names[i]);
    }
    free(names);
    return rc;
}

static int run_inputs(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        struct stat st;
        if (argv[i][0] != '-')
            rc = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
    }
    return rc;
}

int main(int argc, char **argv)
{
    int inputs = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        inputs += argv[i][0] != '-';
        if (strncmp(argv[i], "-runs=", 6) == 0) {
            char *end;
            runs = strtol(argv[i] + 6, &end, 10);
            rc = *end || runs < 1 ? GC_EXIT_USAGE : rc;
        }
    }
    if (rc)
        fprintf(stderr, "gatecrash: error: -runs= takes a number of 1 or more\n");
    else if (!inputs) {
        fprintf(stderr, "gatecrash: error: no input given (usage: %s [OPTIONS] [-runs=N] FILE|DIR...)\n", argv[0]);
        rc = GC_EXIT_USAGE;
    }
    if (!rc)
        rc = gc_fuzz_initialize(&argc, &argv);
    int initialized = !rc; /* the target's final lines are due */
    if (!rc)
        rc = run_inputs(argc, argv);
    if (!rc) {
        printf("gatecrash: %lu inputs: %lu ok, %lu rejected, %lu findings\n", counts[0] + counts[1] + counts[2],
               counts[0], counts[1], counts[2]);
        rc = counts[2] ? GC_EXIT_ESCAPE : GC_EXIT_OK;
    }
    fflush(stdout);
    if (initialized)
        gc_fuzz_cleanup();
    return rc;
}
