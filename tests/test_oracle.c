/* test_oracle.c — the effect oracle's path judgement, through its audit hook: synthetic
 * write events (sys.audit's own route, so nothing is written) for paths inside and outside
 * scratch, relative ones, '..', symlinks (to a folder outside, to a file outside, dangling,
 * and 'link/..' that the kernel resolves through the link), dir_fd-relative ones, a sibling
 * folder that shares scratch's name as a prefix; then, with a filesystem_writes policy, which
 * of them are escapes (globs match the lexical absolute path). */
#include <Python.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fsutil.h"
#include "interp.h"
#include "oracle.h"
#include "pyglob.h"
#include "rng.h"

static char base[] = "/tmp/gatecrash-test-oracle-XXXXXX";
static char scratch[PATH_MAX], outside[PATH_MAX];

static const char *at(const char *dir, const char *rel)
{
    static char buf[4][PATH_MAX * 2];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, rel);
    return buf[k];
}

/* One event through the hook: 0 let through, -1 blocked (a PermissionError, cleared). */
static int event(const char *name, PyObject *args)
{
    gc_oracle_reset_input();
    int r = args ? PySys_Audit(name, "O", args) : -1;
    Py_XDECREF(args);
    if (r < 0) {
        CHECK(PyErr_ExceptionMatches(PyExc_PermissionError), "%s: blocked with a PermissionError", name);
        PyErr_Clear();
    }
    return r;
}

/* os.remove(path, dir_fd=...): dir_fd NULL for None */
static int remove_at(const char *path, PyObject *dir_fd)
{
    return event("os.remove", Py_BuildValue("(sO)", path, dir_fd ? dir_fd : Py_None));
}

static void allowed(const char *path)
{
    CHECK(remove_at(path, NULL) == 0, "a write to %s lands in scratch: let through", path);
}

static void blocked(const char *path)
{
    CHECK(remove_at(path, NULL) < 0, "a write to %s lands outside scratch: blocked", path);
    CHECK(strcmp(gc_orc.refused, "os.remove") == 0 && !gc_orc.escape.set, "%s: a refusal, not an escape", path);
}

static int mkfile(const char *path)
{
    int fd = open(path, O_CREAT | O_WRONLY, 0600);
    return fd >= 0 ? close(fd) : -1;
}

static int make_tree(void)
{
    snprintf(scratch, sizeof scratch, "%s/scratch", base);
    snprintf(outside, sizeof outside, "%s/outside", base);
    return mkdir(scratch, 0700) | mkdir(outside, 0700) | mkdir(at(base, "scratch-evil"), 0700) |
           mkdir(at(scratch, "sub"), 0700) | mkdir(at(scratch, "granted"), 0700) | mkfile(at(outside, "file")) |
           mkfile(at(scratch, "sub/f")) | symlink(outside, at(scratch, "link-out")) |
           symlink(at(outside, "file"), at(scratch, "file-out")) | symlink(at(scratch, "sub/f"), at(scratch, "file-in")) |
           symlink("/nonexistent-gatecrash/x", at(scratch, "dangling"));
}

/* Not judging (no chain step runs): every write outside scratch is refused, whoever asks. */
static void confinement(void)
{
    allowed("new.txt"); /* relative: the process works in scratch */
    allowed("./sub/new.txt");
    allowed(at(scratch, "sub/new.txt"));
    allowed(at(scratch, "sub/../new.txt"));
    allowed(at(scratch, "file-in")); /* a symlink to a file inside */
    blocked(at(outside, "x"));
    blocked("../outside/x");
    blocked("../x");
    blocked(at(scratch, "sub/../../outside/x"));
    blocked(at(scratch, "link-out/x"));    /* through a symlinked folder */
    blocked(at(scratch, "link-out/../x")); /* lexically scratch/x; the kernel goes through the link */
    blocked(at(scratch, "file-out"));      /* a symlink to a file outside is followed */
    blocked(at(scratch, "dangling"));      /* a dangling symlink: where it would create is unknown */
    blocked(at(base, "scratch-evil/x"));   /* shares scratch's name as a prefix */
    blocked("");

    /* dir_fd: a relative path against a descriptor is unknown, so outside; an absolute one
     * ignores it; None and -1 mean no dir_fd */
    PyObject *three = PyLong_FromLong(3), *minus1 = PyLong_FromLong(-1);
    CHECK(remove_at("x", three) < 0, "remove('x', dir_fd=3) is blocked");
    CHECK(remove_at(at(scratch, "x"), three) == 0, "an absolute path inside scratch with a dir_fd is let through");
    CHECK(remove_at(at(outside, "x"), three) < 0, "an absolute path outside scratch with a dir_fd is blocked");
    CHECK(remove_at("x", minus1) == 0, "dir_fd=-1 is no dir_fd: 'x' is in scratch");
    CHECK(event("os.remove", Py_BuildValue("(OO)", three, Py_None)) < 0, "a descriptor as the path is blocked");
    Py_DECREF(three);
    Py_DECREF(minus1);

    /* open: judged by its mode and flags; every written path of a two-path event counts */
    CHECK(event("open", Py_BuildValue("(ssi)", at(outside, "file"), "r", O_RDONLY)) == 0, "reading outside is no write");
    CHECK(event("open", Py_BuildValue("(ssi)", at(outside, "file"), "a", O_WRONLY)) < 0, "open(outside, 'a') is blocked");
    CHECK(event("open", Py_BuildValue("(sOi)", at(outside, "n"), Py_None, O_WRONLY | O_CREAT)) < 0,
          "os.open(outside, O_CREAT) is blocked");
    /* os.open's event has no dir_fd: a relative path it writes is unknown; open()'s is not */
    CHECK(event("open", Py_BuildValue("(sOi)", "n", Py_None, O_WRONLY | O_CREAT)) < 0,
          "os.open('n', O_CREAT), maybe relative to a dir_fd, is blocked");
    CHECK(event("open", Py_BuildValue("(sOi)", "n", Py_None, O_RDONLY)) == 0, "os.open('n', O_RDONLY) reads");
    CHECK(event("open", Py_BuildValue("(ssi)", "n", "w", O_WRONLY | O_CREAT)) == 0, "open('n', 'w') lands in scratch");
    CHECK(event("open", Py_BuildValue("(sOi)", at(scratch, "n"), Py_None, O_WRONLY | O_CREAT)) == 0,
          "os.open(scratch/n, O_CREAT) is let through");
    CHECK(event("os.rename", Py_BuildValue("(ssOO)", "a", at(outside, "b"), Py_None, Py_None)) < 0,
          "a rename to outside is blocked");
    CHECK(event("os.rename", Py_BuildValue("(ssOO)", at(outside, "a"), "b", Py_None, Py_None)) < 0,
          "a rename from outside is blocked (the source is written too)");
    CHECK(event("os.symlink", Py_BuildValue("(ssO)", at(outside, "file"), "lnk", Py_None)) == 0,
          "a symlink in scratch pointing outside writes only in scratch");
}

static void set_policy(const char *glob)
{
    char err[256];
    gc_policy_free(&gc_orc.policy);
    PyObject *req = Py_BuildValue("{s:[s]}", "filesystem_writes", glob);
    CHECK(req && gc_policy_from_requires(req, &gc_orc.policy, err, sizeof err) == 0, "policy: %s", err);
    Py_XDECREF(req);
    gc_policy_finish(&gc_orc.policy);
}

/* 1 escape (its detail the lexical absolute path), 0 none; -1 when let through */
static int escapes(const char *path, PyObject *dir_fd, const char *detail)
{
    gc_orc.in_chain = 1;
    int r = remove_at(path, dir_fd);
    gc_orc.in_chain = 0;
    if (!gc_orc.escape.set)
        return r < 0 ? 0 : -1;
    CHECK(gc_orc.escape.kind == GC_KIND_EFFECT && gc_orc.escape.cap == GC_CAP_WRITE &&
              strcmp(gc_orc.escape.primitive, "os.remove") == 0 && r < 0,
          "%s: an effect write escape by os.remove, and blocked", path);
    CHECK(!detail || strcmp(gc_orc.escape.detail, detail) == 0, "%s: detail %s, want %s", path, gc_orc.escape.detail,
          detail);
    return 1;
}

/* Judging (a chain step runs) under filesystem_writes = [scratch/granted/STAR]. */
static void judged(void)
{
    char glob[PATH_MAX + 8];
    snprintf(glob, sizeof glob, "%s/granted/*", scratch);
    set_policy(glob);
    CHECK(escapes(at(scratch, "granted/x"), NULL, NULL) == -1, "a granted write is neither an escape nor blocked");
    CHECK(escapes("granted/y", NULL, NULL) == -1, "a relative granted write is matched as an absolute path");
    CHECK(escapes(at(scratch, "sub/x"), NULL, at(scratch, "sub/x")) == 1, "a write outside the globs is an escape");
    CHECK(escapes(at(scratch, "granted/../sub/x"), NULL, at(scratch, "sub/x")) == 1,
          "'..' out of a granted folder is an escape, named by its lexical path");
    CHECK(escapes(at(outside, "x"), NULL, at(outside, "x")) == 1, "a write outside scratch is an escape");
    PyObject *three = PyLong_FromLong(3);
    CHECK(escapes("granted/x", three, NULL) == 1, "a dir_fd-relative write is outside every glob: an escape");
    gc_orc.in_chain = 1;
    int r = event("open", Py_BuildValue("(sOi)", "granted/z", Py_None, O_WRONLY | O_CREAT));
    gc_orc.in_chain = 0;
    CHECK(r < 0 && gc_orc.escape.set && strcmp(gc_orc.escape.primitive, "open") == 0 &&
              strcmp(gc_orc.escape.detail, "'granted/z'") == 0,
          "os.open('granted/z', O_CREAT), its dir_fd unseen, is an escape named by its argument (%s)",
          gc_orc.escape.detail);
    /* a glob that grants everything: no write is an escape, and the confinement still holds */
    set_policy("*");
    CHECK(gc_policy_allows_path(&gc_orc.policy, NULL), "'*' grants even an unknown path");
    CHECK(escapes("granted/x", three, NULL) == 0, "under '*' a dir_fd-relative write is refused, not an escape");
    CHECK(escapes(at(outside, "x"), NULL, NULL) == 0, "under '*' a write outside scratch is refused, not an escape");
    Py_DECREF(three);
}

/* A random string over 'alpha' (UTF-8 pieces), at most 'max' pieces, into buf. */
static void pick(uint32_t *rng, const char *const *alpha, size_t nalpha, int max, char *buf, size_t len)
{
    int n = (int)(gc_xorshift32(rng) % (uint32_t)(max + 1));
    buf[0] = '\0';
    for (int k = 0; k < n; k++)
        strncat(buf, alpha[gc_xorshift32(rng) % nalpha], len - strlen(buf) - 1);
}

/* The oracle's glob match (pyglob.h) answers as Python's fnmatch.fnmatch does, on globs and
 * paths drawn from the characters its rules treat apart (sets, ranges, negation, '^', '\',
 * a hyphen first and last, a reversed range, a multi-byte character, bytes not UTF-8); a
 * glob Python refuses (re.error) is skipped. */
static void glob_as_python(void)
{
    static const char *const galpha[] = {"a", "b", "z", "-", "!", "^", "[", "]", "*", "?", "/", "\\", "\xc3\xa9", "[a-c]", "[!b]"};
    static const char *const palpha[] = {"a", "b", "c", "z", "-", "!", "^", "[", "]", "/", "\\", "\xc3\xa9", "\xff"};
    PyObject *fm = PyImport_ImportModule("fnmatch"), *fn = fm ? PyObject_GetAttrString(fm, "fnmatch") : NULL;
    CHECK(fn != NULL, "Python's fnmatch for the comparison");
    uint32_t rng = 12345;
    int compared = 0, differ = 0;
    char glob[64], path[64];
    for (int k = 0; fn && k < 20000; k++) {
        pick(&rng, galpha, sizeof galpha / sizeof *galpha, 6, glob, sizeof glob);
        pick(&rng, palpha, sizeof palpha / sizeof *palpha, 6, path, sizeof path);
        PyObject *g = PyUnicode_DecodeFSDefault(glob), *p = PyUnicode_DecodeFSDefault(path);
        PyObject *r = g && p ? PyObject_CallFunctionObjArgs(fn, p, g, NULL) : NULL;
        if (r) {
            compared++;
            if (PyObject_IsTrue(r) != gc_pyglob_match(glob, path) && differ++ < 5)
                fprintf(stderr, "glob '%s' on '%s': Python %d, pyglob %d\n", glob, path, PyObject_IsTrue(r),
                        gc_pyglob_match(glob, path));
        }
        PyErr_Clear();
        Py_XDECREF(r);
        Py_XDECREF(g);
        Py_XDECREF(p);
    }
    CHECK(compared > 15000 && differ == 0, "pyglob agrees with fnmatch.fnmatch: %d of %d differ", differ, compared);
    Py_XDECREF(fn);
    Py_XDECREF(fm);
}

int main(void)
{
    char err[256];
    if (!mkdtemp(base) || make_tree() != 0) {
        fprintf(stderr, "test_oracle: cannot build the test tree under %s\n", base);
        return 2;
    }
    if (gc_interp_start(scratch, err, sizeof err) != 0 || gc_oracle_load_table(err, sizeof err) != 0) {
        fprintf(stderr, "test_oracle: %s\n", err);
        return 2;
    }
    confinement();
    judged();
    glob_as_python();
    gc_rm_tree(base);
    return check_summary();
}
