/* test_source_minimize.c — the source minimizer (gc_source_minimize, triage/source_triage.c)
 * on a source target, in one process: programs in the program IR's bytes (program.h) with
 * junk statements around an escape, detours and wrappers in its expression, come back as
 * exactly the given text, with the same escape (kind, capability, primitive), no more
 * statements than the minimum, and as a fixed point (minimizing the result changes
 * nothing).  A program that does not escape is -1.
 *     test_source_minimize TARGET_DIR [VENV]
 * The cases are the target's: simpleeval-1.0.4 (targets/, the module os.path handed out as
 * 'path': expression dialect, the last statement's value is the program) or leak
 * (tests/fixtures/source/leak: exec dialect, real builtins and os.system as 'run'). */
#include <Python.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fsutil.h"
#include "program.h"
#include "source_triage.h"

#define OP(x) GC_P_##x

typedef struct {
    const char *what;
    uint8_t bytes[160];
    size_t len;
    const char *want;    /* the minimized program's source */
    const char *prim;    /* its escape's primitive */
    int stmts_before, stmts_after;
} mcase;

#define CASE(what, want, prim, before, after, ...) \
    {what, {__VA_ARGS__}, sizeof((uint8_t[]){__VA_ARGS__}), want, prim, before, after}
#define S(n, ...) n, __VA_ARGS__

/* simpleeval 1.0.4: GHSA-44vg-5wv2-h2hg's class, path.os.system, under junk */
static const mcase simpleeval_cases[] = {
    /* 'hello'; 5; path.os.system(0): junk statements, and a call (the primitive called
     * inside the evaluation) where giving it back is the same escape */
    CASE("junk statements and a call around it", "path.os.system\n", "os.system", 3, 1,
         OP(STR), S(5, 'h', 'e', 'l', 'l', 'o'), OP(EXPR), OP(INT), 5, OP(EXPR),
         OP(NAME), S(4, 'p', 'a', 't', 'h'), OP(ATTR), S(2, 'o', 's'), OP(ATTR), S(6, 's', 'y', 's', 't', 'e', 'm'),
         OP(INT), 0, OP(CALL), 1, OP(EXPR)),
    /* 'hello'; 5; path.os.path.os.system(0): a detour too (two ops, .path.os, to drop once the
     * call is gone: 7 ops, where run lengths halved from 3 went to 1) */
    CASE("junk statements, a detour and a call around it", "path.os.system\n", "os.system", 3, 1,
         OP(STR), S(5, 'h', 'e', 'l', 'l', 'o'), OP(EXPR), OP(INT), 5, OP(EXPR),
         OP(NAME), S(4, 'p', 'a', 't', 'h'), OP(ATTR), S(2, 'o', 's'), OP(ATTR), S(4, 'p', 'a', 't', 'h'),
         OP(ATTR), S(2, 'o', 's'), OP(ATTR), S(6, 's', 'y', 's', 't', 'e', 'm'), OP(INT), 0, OP(CALL), 1,
         OP(EXPR)),
    /* x = 1; path.os.remove (the write primitive; the dialect prints the last statement
     * alone, so the source is as long before as after) */
    CASE("an assignment before the escape", "path.os.remove\n", "os.remove", 2, 1,
         OP(INT), 1, OP(ASSIGN), S(1, 'x'), OP(NAME), S(4, 'p', 'a', 't', 'h'), OP(ATTR), S(2, 'o', 's'),
         OP(ATTR), S(6, 'r', 'e', 'm', 'o', 'v', 'e'), OP(EXPR)),
    /* 5; path.os.lchown: one letter less is os.chown, a write primitive too but another
     * escape; the name stays whole */
    CASE("a primitive whose name holds another's", "path.os.lchown\n", "os.lchown", 2, 1,
         OP(INT), 5, OP(EXPR), OP(NAME), S(4, 'p', 'a', 't', 'h'), OP(ATTR), S(2, 'o', 's'),
         OP(ATTR), S(6, 'l', 'c', 'h', 'o', 'w', 'n'), OP(EXPR)),
};

/* the leak fixture: result = run, and a call of it inside the evaluation */
static const mcase leak_cases[] = {
    /* x = 'hello'; y = [1, 2]; result = run; z = 5 */
    CASE("junk statements before and after", "result = run\n", "os.system", 4, 1,
         OP(STR), S(5, 'h', 'e', 'l', 'l', 'o'), OP(ASSIGN), S(1, 'x'), OP(INT), 1, OP(INT), 2, OP(LIST), 2,
         OP(ASSIGN), S(1, 'y'), OP(NAME), S(3, 'r', 'u', 'n'), OP(ASSIGN), S(6, 'r', 'e', 's', 'u', 'l', 't'),
         OP(INT), 5, OP(ASSIGN), S(1, 'z')),
    /* t = 'x'; result = run('truetrue', 7, None); u = t: the run from 'result' to 't' dropped
     * leaves u = run(...), and the arguments go (no op can turn an assignment into an
     * expression statement: u = run() is the minimum of dropping and shortening) */
    CASE("a call's arguments around the escape's call", "u = run()\n", "os.system", 3, 1,
         OP(STR), S(1, 'x'), OP(ASSIGN), S(1, 't'), OP(NAME), S(3, 'r', 'u', 'n'),
         OP(STR), S(8, 't', 'r', 'u', 'e', 't', 'r', 'u', 'e'), OP(INT), 7, OP(NONE), OP(CALL), 3,
         OP(ASSIGN), S(6, 'r', 'e', 's', 'u', 'l', 't'), OP(NAME), S(1, 't'), OP(ASSIGN), S(1, 'u')),
    /* try: '{0.__self__.__import__.__self__.open.gatecrash}'.format(len) / except Exception as
     * e: result = e.obj: a format field's walk with a detour (.__import__.__self__ is the
     * builtins module again), read back from the AttributeError.  The detour's two parts go
     * as whole components (a byte at a time passes through names that lead nowhere; the
     * build before left them), the absent last part shrinks to one letter, and the readback
     * goes too: the AttributeError evaluate raises holds open (.obj), the same escape */
    CASE("a format field's detour and its readback", "'{0.__self__.open.h}'.format(len)\n", "builtins.open", 4, 1,
         OP(TRY), OP(NAME), S(3, 'l', 'e', 'n'), OP(FIELD),
         S(43, '_', '_', 's', 'e', 'l', 'f', '_', '_', '.', '_', '_', 'i', 'm', 'p', 'o', 'r', 't', '_', '_', '.', '_', '_',
           's', 'e', 'l', 'f', '_', '_', '.', 'o', 'p', 'e', 'n', '.', 'g', 'a', 't', 'e', 'c', 'r', 'a', 's', 'h'),
         OP(EXPR), OP(EXCEPT), S(1, 'e'), OP(NAME), S(1, 'e'), OP(ATTR), S(3, 'o', 'b', 'j'),
         OP(ASSIGN), S(6, 'r', 'e', 's', 'u', 'l', 't')),
};

static gc_target target;

static void minimize(const mcase *c)
{
    static uint8_t best[GC_P_MAX_INPUT], again[GC_P_MAX_INPUT];
    size_t best_len = 0, again_len = 0;
    gc_strbuf src, src2;
    gc_sb_init(&src);
    gc_sb_init(&src2);
    static gc_verdict out, out2;
    gc_src_min_stats st, st2;
    char err[512];
    int rc = gc_source_minimize(&target, c->bytes, c->len, best, &best_len, &src, &out, &st, err, sizeof err);
    CHECK(rc == 0, "%s: gc_source_minimize returned %d (%s)", c->what, rc, rc > 0 ? err : "no escape");
    if (rc == 0) {
        CHECK(strcmp(src.data, c->want) == 0, "%s: minimized to [%s], want [%s]", c->what, src.data, c->want);
        CHECK(out.escaped && strcmp(out.escape.primitive, c->prim) == 0, "%s: the escape is %s, want %s", c->what,
              out.escaped ? out.escape.primitive : "none", c->prim);
        CHECK(st.stmts_before == c->stmts_before && st.stmts_after == c->stmts_after,
              "%s: %d -> %d statements, want %d -> %d", c->what, st.stmts_before, st.stmts_after, c->stmts_before,
              c->stmts_after);
        CHECK(st.bytes_after == strlen(c->want) && st.bytes_after <= st.bytes_before, "%s: %zu -> %zu bytes", c->what,
              st.bytes_before, st.bytes_after);
        /* a fixed point: the result minimized again is itself */
        rc = gc_source_minimize(&target, best, best_len, again, &again_len, &src2, &out2, &st2, err, sizeof err);
        CHECK(rc == 0 && again_len == best_len && memcmp(again, best, best_len) == 0 &&
                  strcmp(src2.data, src.data) == 0,
              "%s: minimizing [%s] again gives [%s] (rc %d)", c->what, src.data, src2.data ? src2.data : "", rc);
    }
    gc_sb_free(&src);
    gc_sb_free(&src2);
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: test_source_minimize TARGET_DIR [VENV]\n");
        return 2;
    }
    static char scratch[] = "/tmp/gatecrash-test-XXXXXX";
    if (!mkdtemp(scratch))
        return 2;
    gc_session_opts o = {.target_dir = argv[1], .venv = argc == 3 ? argv[2] : NULL,
                         .scratch = scratch, .quiet = 1};
    if (gc_session_start(&target, &o) != 0)
        return 2;
    const mcase *cases = NULL;
    size_t n = 0;
    if (strcmp(target.spec.name, "simpleeval-1.0.4") == 0)
        cases = simpleeval_cases, n = sizeof simpleeval_cases / sizeof simpleeval_cases[0];
    else if (strcmp(target.spec.name, "leak") == 0)
        cases = leak_cases, n = sizeof leak_cases / sizeof leak_cases[0];
    CHECK(n > 0, "no cases for the target %s", target.spec.name);
    for (size_t i = 0; i < n; i++)
        minimize(&cases[i]);

    /* a program that does not escape: -1 */
    static const uint8_t blocked[] = {OP(INT), 1, OP(EXPR)};
    static uint8_t best[GC_P_MAX_INPUT];
    size_t best_len;
    gc_strbuf src;
    gc_sb_init(&src);
    static gc_verdict out;
    gc_src_min_stats st;
    char err[512];
    CHECK(gc_source_minimize(&target, blocked, sizeof blocked, best, &best_len, &src, &out, &st, err, sizeof err) == -1,
          "the program 1 does not escape: -1");
    gc_sb_free(&src);
    gc_rm_tree(scratch);
    return check_summary();
}
