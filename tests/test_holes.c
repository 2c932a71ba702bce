/* test_holes.c — the hole rule (triage/holes.c, docs/HOLES.md) on the real station-1.5.0
 * gate, in one process: each escaping chain, evaluated with every step watched
 * (gc_hole_of_chain), is named by the first edge that leaves what the gate hands out —
 * its owner and the edge, or the bridge Python provides — with the rule's extra cases:
 * a module's __dict__['k'] is its attribute k, a call of a method bound to X is an edge out
 * of X, an edge back to the namespace ends the hole the path went through, a class walk
 * replaces it, and the handler frame's locals are no hole.  A chain that does not escape
 * names none.  Then what a hole's name says: closable or not, and what closing it means. */
#include <Python.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fsutil.h"
#include "holes.h"
#include "pycheck.h"

static gc_target target;
static gc_chain chain;
static gc_outcome out;

/* 'text' escapes and its hole is 'want'. */
static void expect_hole(const char *text, const char *want)
{
    gc_parse_error perr;
    if (gc_chain_parse((const uint8_t *)text, strlen(text), GC_PARSE_STRICT, &chain, &perr) != 0) {
        CHECK(0, "bad test chain %s: %s", text, perr.msg);
        return;
    }
    char hole[GC_HOLE_NAME], err[256];
    int rc = gc_hole_of_chain(&target, &chain, &out, hole, sizeof hole, err, sizeof err);
    CHECK(rc == 0, "%s: gc_hole_of_chain returned %d (%s), want 0: an escape", text, rc, rc > 0 ? err : "no escape");
    CHECK(strcmp(hole, want) == 0, "%s: hole [%s], want [%s]", text, hole, want);
}

static void expect_closable(const char *hole, int want, const char *advice_has)
{
    char advice[400];
    CHECK(gc_hole_closable(hole) == want, "[%s]: closable %d, want %d", hole, gc_hole_closable(hole), want);
    gc_hole_advice(hole, advice, sizeof advice);
    CHECK(strstr(advice, advice_has) != NULL, "[%s]: advice [%s] lacks [%s]", hole, advice, advice_has);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_holes TARGET_DIR (targets/station-1.5.0)\n");
        return 2;
    }
    const char *scratch = check_session(&target, argv[1]);
    if (!scratch)
        return 2;

    /* a value that is a real module, or a forbidden primitive: OWNER EDGE<what> */
    expect_hole("subprocess.os.system", "proxy subprocess .<module>");
    expect_hole("os.path.os.fork", "proxy os .<module>");
    expect_hole("os.link", "proxy os .<primitive>");
    expect_hole("subprocess._fork_exec", "proxy subprocess .<primitive>");
    /* a value the gate set on a proxy, by its type and place; an item edge */
    expect_hole("os.supports_fd[@chmod]", "set os.supports_fd []<primitive>");
    /* the bridges Python provides */
    expect_hole("os.getpid.__self__.system", "builtin_function_or_method . __self__");
    expect_hole("subprocess.list2cmdline.__globals__['os'].system", "function . __globals__");
    expect_hole("open.__builtins__['open']", "gate function . __globals__"); /* its builtins are its globals' */
    expect_hole("__builtins__['object'].__subclasses__()[@Popen]", "type . __subclasses__()");
    expect_hole("open.__closure__[0].cell_contents", "cell . cell_contents");
    /* two spellings of one step are one edge */
    expect_hole("subprocess.__dict__['os'].system", "proxy subprocess .<module>");
    expect_hole("subprocess.__getattribute__('os').system", "proxy subprocess .<module>");
    /* back inside: the traceback's frame's globals are the namespace, so the hole is the
     * proxy's attribute after it, not the frame */
    expect_hole("os().__traceback__.tb_frame.f_globals['__rc_sandbox_os_proxy__'].open", "proxy os .<primitive>");
    /* a class walk replaces the hole the path went through */
    expect_hole("open.__globals__.__class__.__base__.__subclasses__()[@Popen]", "type . __subclasses__()");
    /* the handler frame's f_locals (the call's callee and arguments) is no hole: the route's
     * hole is the refusal stub's globals */
    expect_hole("os.fork().__traceback__.tb_frame.f_locals['f'].__builtins__['open']", "gate function . __globals__");

    /* no escape, no hole */
    {
        char hole[GC_HOLE_NAME] = "x", err[256];
        gc_chain_parse((const uint8_t *)"os.path.join", 12, GC_PARSE_STRICT, &chain, NULL);
        int rc = gc_hole_of_chain(&target, &chain, &out, hole, sizeof hole, err, sizeof err);
        CHECK(rc == -1 && hole[0] == '\0', "os.path.join: rc %d, hole [%s]; want -1 and none", rc, hole);
    }

    /* what the name says */
    expect_closable("proxy subprocess .<module>", 1, "do not copy module-valued attributes");
    expect_closable("set os.supports_fd []<primitive>", 1, "filter the container");
    expect_closable("proxy os .<primitive>", 1, "wrap or refuse these real functions");
    expect_closable("builtin_function_or_method . __self__", 1, "their __self__ is the real module");
    expect_closable("function . __globals__", 1, "do not hand out the real module's Python functions");
    expect_closable("gate function . __globals__", 1, "build the gate's own functions over globals");
    expect_closable("type . __subclasses__()", 0, "not closable by a namespace gate");
    expect_closable("cell . cell_contents", 0, "not closable by a namespace gate");
    expect_closable("gate frame . f_locals", 0, "not closable by a namespace gate");

    gc_rm_tree(scratch);
    return check_summary();
}
