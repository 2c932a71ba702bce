/* test_chain.c — the chain language without an interpreter: strict decoding and its
 * errors, lenient decoding of garbage, bounds, and the printer round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "chain.h"
#include "check.h"


static gc_chain a, b;

static const char *print(const gc_chain *c)
{
    static gc_strbuf sb;
    if (!sb.data)
        gc_sb_init(&sb);
    gc_sb_clear(&sb);
    gc_chain_print_oneline(c, &sb);
    return sb.data;
}

static void round_trip(const char *text, const char *expect)
{
    gc_parse_error err;
    int rc = gc_chain_parse((const uint8_t *)text, strlen(text), GC_PARSE_STRICT, &a, &err);
    CHECK(rc == 0, "strict parse of %s failed: %d:%d %s", text, err.line, err.col, err.msg);
    if (rc)
        return;
    const char *out = print(&a);
    CHECK(strcmp(out, expect) == 0, "print of %s: got [%s] want [%s]", text, out, expect);
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_chain_print(&a, &sb);
    rc = gc_chain_parse((const uint8_t *)sb.data, sb.len, GC_PARSE_STRICT, &b, &err);
    CHECK(rc == 0 && gc_chain_equal(&a, &b), "round trip of %s changed it", text);
    CHECK(gc_chain_hash(&a) == gc_chain_hash(&b), "round trip of %s changed its hash", text);
    gc_sb_free(&sb);
}

/* the probe caches' key: the same chain written twice hashes equal, another chain not */
static void hashes(const char *x, const char *y, int same)
{
    gc_chain_parse((const uint8_t *)x, strlen(x), GC_PARSE_LENIENT, &a, NULL);
    gc_chain_parse((const uint8_t *)y, strlen(y), GC_PARSE_LENIENT, &b, NULL);
    CHECK((gc_chain_hash(&a) == gc_chain_hash(&b)) == same, "hash of [%s] and [%s]: %s", x, y,
          same ? "differ" : "equal");
}

static void strict_error_n(const char *text, size_t len, int line, int col, const char *msg)
{
    gc_parse_error err;
    int rc = gc_chain_parse((const uint8_t *)text, len, GC_PARSE_STRICT, &a, &err);
    CHECK(rc == -1, "strict parse of [%s] should fail", text);
    CHECK(err.line == line && err.col == col, "[%s]: error at %d:%d, want %d:%d (%s)", text, err.line, err.col,
          line, col, err.msg);
    CHECK(strstr(err.msg, msg) != NULL, "[%s]: message [%s] lacks [%s]", text, err.msg, msg);
}

static void strict_error(const char *text, int line, int col, const char *msg)
{
    strict_error_n(text, strlen(text), line, col, msg);
}

static void lenient(const char *bytes, size_t len, const char *expect)
{
    int rc = gc_chain_parse((const uint8_t *)bytes, len, GC_PARSE_LENIENT, &a, NULL);
    CHECK(rc == 0, "lenient parse failed");
    const char *out = print(&a);
    CHECK(strcmp(out, expect) == 0, "lenient: got [%s] want [%s]", out, expect);
}

int main(void)
{
    /* the advisory's shapes, and every trailer kind */
    round_trip("subprocess.os.system", "subprocess.os.system");
    round_trip("os.sys.modules['os'].remove", "os.sys.modules['os'].remove");
    round_trip("subprocess.run().__traceback__.tb_frame.f_globals",
               "subprocess.run().__traceback__.tb_frame.f_globals");
    round_trip("__builtins__['__import__']('sys')", "__builtins__['__import__']('sys')");
    round_trip("x(1, -2, None, True, False, \"s\")", "x(1, -2, None, True, False, 's')");
    round_trip("x[3][-1]", "x[3][-1]");
    round_trip("x[0].#0[#0](0, 10, -10)", "x[0].#0[#0](0, 10, -10)");
    hashes("a.b( 1,'s' )  # c\n_.d", "a.b(1, 's'); _.d", 1);
    hashes("a.b", "a.c", 0);
    hashes("a[1]", "a[2]", 0);
    hashes("a.#1", "a[#1]", 0);
    hashes("f('x')", "f('y')", 0);
    hashes("f(1)", "f(None)", 0);
    hashes("a; _.b", "a.b", 0);
    {
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_sb_put_long(&sb, LONG_MIN);
        gc_sb_putc(&sb, ' ');
        gc_sb_put_long(&sb, LONG_MAX);
        char want[64];
        snprintf(want, sizeof want, "%ld %ld", LONG_MIN, LONG_MAX);
        CHECK(strcmp(sb.data, want) == 0, "put_long: got [%s] want [%s]", sb.data, want);
        gc_sb_free(&sb);
    }
    round_trip("os.#12[#3][@_wrap_close][@Popen.__init__]", "os.#12[#3][@_wrap_close][@Popen.__init__]");
    round_trip("a.b  # comment\n\n_.c\n", "a.b; _.c");
    round_trip("a; _.b;_()", "a; _.b; _()");
    round_trip("x('it\\'s \\\\ \\n \\t \\x41 \\x00 caf\xc3\xa9')", "x('it\\'s \\\\ \\n \\t A \\x00 caf\xc3\xa9')");
    round_trip("x('\\xe9')", "x('\xc3\xa9')"); /* '\xe9' is U+00E9, as in Python */
    round_trip("x( 1 ,2, )", "x(1, 2)");
    /* '_' as an argument: the previous statement's value */
    round_trip("x(_)", "x(_)");
    round_trip("a.b\n__builtins__['getattr']( _ ,'system', )", "a.b; __builtins__['getattr'](_, 'system')");
    round_trip("_(_, 1, _).f(None, _)", "_(_, 1, _).f(None, _)");
    {
        gc_chain_parse((const uint8_t *)"a; f(1)(_).g; _.h(_)", 20, GC_PARSE_STRICT, &a, NULL);
        CHECK(a.nstmts == 3 && a.s[1].t[1].args[0].kind == GC_ARG_PREV, "f(1)(_): the second call's argument is '_'");
        CHECK(gc_stmt_prev_args(&a.s[1], -1) == 1 && gc_stmt_prev_args(&a.s[1], 1) == 0 && gc_stmt_uses_prev(&a.s[1], -1) &&
                  !gc_stmt_uses_prev(&a.s[1], 1) && !gc_stmt_uses_prev(&a.s[0], -1) && gc_stmt_uses_prev(&a.s[2], 0),
              "which statements read '_' (by their root or an argument)");
        gc_chain_parse((const uint8_t *)"f(None)", 7, GC_PARSE_STRICT, &b, NULL);
        gc_chain_parse((const uint8_t *)"f(_)", 4, GC_PARSE_STRICT, &a, NULL);
        CHECK(!gc_chain_equal(&a, &b), "f(_) and f(None) are different chains");
    }

    /* strict errors: line, column, message */
    strict_error("os.path[", 1, 9, "unterminated '['");
    strict_error("os.path[x]", 1, 9, "inside '[ ]'");
    strict_error("ok\nos.", 2, 4, "expected a name");
    strict_error("x(y)", 1, 3, "arguments must be literals");
    strict_error("x(_y)", 1, 3, "or '_'");
    strict_error("x(__)", 1, 3, "or '_'");
    strict_error("x(_ _)", 1, 5, "expected ',' or ')'");
    strict_error("x('abc", 1, 7, "unterminated string");
    strict_error("x[99999999999]", 1, 12, "out of range");
    strict_error("x.a b", 1, 4, "expected '.', '[' or '('");
    strict_error("os.path\xff\n", 1, 8, "not valid UTF-8");
    strict_error_n("os\x00", 3, 1, 3, "NUL byte");
    strict_error("x(1,2,3,4,5,6,7)", 1, 15, "too many arguments");
    strict_error("1abc", 1, 1, "expected a name");
    strict_error("x('\\q')", 1, 6, "unknown escape");

    /* bounds */
    {
        gc_strbuf sb;
        gc_sb_init(&sb);
        for (int i = 0; i < 40; i++)
            gc_sb_puts(&sb, "a\n");
        gc_parse_error err;
        CHECK(gc_chain_parse((const uint8_t *)sb.data, sb.len, GC_PARSE_STRICT, &a, &err) == -1 &&
                  strstr(err.msg, "too many statements"), "40 statements must be refused strictly");
        gc_chain_parse((const uint8_t *)sb.data, sb.len, GC_PARSE_LENIENT, &a, NULL);
        CHECK(a.nstmts == GC_MAX_STMTS, "lenient keeps %d statements, got %d", GC_MAX_STMTS, a.nstmts);
        gc_sb_clear(&sb);
        gc_sb_puts(&sb, "a");
        for (int i = 0; i < 100; i++)
            gc_sb_puts(&sb, ".b");
        gc_chain_parse((const uint8_t *)sb.data, sb.len, GC_PARSE_LENIENT, &a, NULL);
        CHECK(a.nstmts == 1 && a.s[0].ntrailers == GC_MAX_TRAILERS, "trailers bounded to %d, got %d",
              GC_MAX_TRAILERS, a.s[0].ntrailers);
        gc_sb_clear(&sb);
        gc_sb_puts(&sb, "x('");
        for (int i = 0; i < GC_MAX_STR + 10; i++)
            gc_sb_putc(&sb, 'z');
        gc_sb_puts(&sb, "')");
        CHECK(gc_chain_parse((const uint8_t *)sb.data, sb.len, GC_PARSE_STRICT, &a, &err) == -1 &&
                  strstr(err.msg, "string too long"), "long strings refused");
        gc_sb_clear(&sb);
        for (int i = 0; i < GC_MAX_INPUT; i++)
            gc_sb_putc(&sb, '#');
        gc_sb_puts(&sb, "\nlate");
        gc_chain_parse((const uint8_t *)sb.data, sb.len, GC_PARSE_LENIENT, &a, NULL);
        CHECK(a.nstmts == 0, "input past GC_MAX_INPUT is ignored");
        gc_sb_free(&sb);
    }

    /* lenient decoding keeps every valid piece */
    lenient("\xff\xfeos.#5]zz.path", 15, "os.#5.path");
    lenient("os.path[\nsubprocess.run(", 24, "os.path; subprocess.run");
    lenient("\x00\x00_.x\x00", 6, "_.x");
    lenient(";;;", 3, "");
    lenient("a.b(c).d", 8, "a.b.d");
    lenient("a.b(_x).d(_)\xff(_", 15, "a.b.d(_)");
    lenient("_(_\n_)(_", 8, "_; _");

    return check_summary();
}
