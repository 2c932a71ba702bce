/* test_harvest.c — what the chain mutator learns from the interpreter (harvest.h), on
 * targets/lookup-hard: the words (its alias 'ops.compat-v1', which only the gate module's data
 * names, and the 'catalog' its code sets, among the gate's own; sys.modules' names and the
 * primitives' among the rest) and the detail probe's look at values — tool takes any number
 * of arguments (its class's __call__(self, *args, **kwargs)), the refusal it raises has the
 * name 'catalog' though its __dir__ is empty and its __getattribute__ refuses, the real os
 * module lists a forbidden primitive first, builtins' arities come from their signatures, and a
 * number's power, shift and product are not offered arguments. */
#include <Python.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "chain.h"
#include "eval.h"
#include "harvest.h"
#include "oracle.h"
#include "pycheck.h"
#include "state.h"

static gc_target target;
static gc_chain chain;
static gc_outcome out;
static gc_probe_detail detail;

/* The detail of the last step of 'text', taken inside the evaluation as fuzz_gate's is. */
static void take_detail(void *ctx, const gc_step_info *s)
{
    (void)ctx;
    gc_harvest_detail(s->value, &detail);
}

static const gc_probe_detail *detail_of(const char *text)
{
    char err[256];
    gc_parse_error perr;
    if (gc_chain_parse((const uint8_t *)text, strlen(text), GC_PARSE_STRICT, &chain, &perr) != 0) {
        fprintf(stderr, "bad test chain %s: %s\n", text, perr.msg);
        exit(2);
    }
    memset(&detail, 0, sizeof detail);
    if (gc_run_input(&target, &chain, &out, take_detail, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "run failed: %s\n", err);
        exit(2);
    }
    return &detail;
}

static int has_name(const gc_probe_detail *d, const char *name)
{
    for (int i = 0; i < d->nnames; i++)
        if (strcmp(d->names[i], name) == 0)
            return 1;
    return 0;
}

static int is_target(const char *name)
{
    const char *names[256];
    int n = gc_oracle_target_names(names, 256);
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

static void words(void)
{
    gc_strlist gate = {0}, other = {0};
    int n = gc_harvest_words(&target, &gate, &other);
    CHECK(n == gate.n + other.n && n > 0, "gc_harvest_words: %d words (%d + %d)", n, gate.n, other.n);
    CHECK(gc_sl_contains(&gate, "ops.compat-v1"), "the gate's alias is not among its words");
    CHECK(gc_sl_contains(&gate, "catalog"), "the attribute the gate's code sets is not among its words");
    CHECK(gc_sl_contains(&gate, "clock") && gc_sl_contains(&gate, "_os"), "the gate's tool names and globals");
    CHECK(!gc_sl_contains(&gate, "__name__") && !gc_sl_contains(&other, "ops.compat-v1"),
          "a dunder global among the gate's words, or a word in both lists");
    CHECK(gc_sl_contains(&other, "posixpath") && gc_sl_contains(&other, "system"),
          "sys.modules' names (posixpath) and the primitives' (system) are not among the other words");
    gc_sl_free(&gate);
    gc_sl_free(&other);
}

static void details(void)
{
    const gc_probe_detail *d = detail_of("tool");
    CHECK(d->kind == GC_VK_OTHER && d->callable && d->min_args == 0 && d->max_args == -1,
          "tool: kind %d callable %d args %d..%d, want a callable of any number", d->kind, d->callable, d->min_args,
          d->max_args);
    d = detail_of("tool('no such tool')");
    CHECK(d->kind == GC_VK_EXCEPTION && has_name(d, "catalog"),
          "the refusal: kind %d, %d names, 'catalog' not among them", d->kind, d->nnames);
    d = detail_of("tool('ops.compat-v1')");
    CHECK(d->kind == GC_VK_MODULE && d->nnames > 0 && is_target(d->names[0]),
          "the real os module: kind %d, first name '%s', want a forbidden primitive's", d->kind,
          d->nnames ? d->names[0] : "");
    d = detail_of("tool('x').catalog");
    CHECK(d->kind == GC_VK_FUNCTION && d->callable && d->min_args == 1 && d->max_args == 1,
          "the lookup function: kind %d args %d..%d, want one", d->kind, d->min_args, d->max_args);
    d = detail_of("tool('x').catalog.__globals__");
    CHECK(d->kind == GC_VK_MAPPING && has_name(d, "_os") && has_name(d, "_COMPAT"), "the gate's globals: its keys");
    /* builtins: METH_O, METH_NOARGS, a __text_signature__ with a default */
    d = detail_of("tool('x').catalog.__builtins__['len']");
    CHECK(d->callable && d->min_args == 1 && d->max_args == 1, "len: args %d..%d", d->min_args, d->max_args);
    d = detail_of("tool('x').catalog.__builtins__['globals']");
    CHECK(d->callable && d->min_args == 0 && d->max_args == 0, "globals: args %d..%d", d->min_args, d->max_args);
    d = detail_of("tool('x').catalog.__builtins__['divmod']");
    CHECK(d->callable && d->min_args == 2 && d->max_args == 2, "divmod: args %d..%d", d->min_args, d->max_args);
    /* a number's power, shift and product get no arguments (1 << os.MFD_HUGE_2GB is 285 MB);
     * its other methods do */
    static const char *const growth[] = {"__rlshift__", "__lshift__", "__pow__", "__rpow__", "__mul__", "__rmul__"};
    char text[128];
    for (size_t i = 0; i < sizeof growth / sizeof growth[0]; i++) {
        snprintf(text, sizeof text, "tool('ops.compat-v1').O_APPEND.%s", growth[i]);
        CHECK(!detail_of(text)->callable, "%s: proposed as a call with arguments", text);
    }
    CHECK(detail_of("tool('ops.compat-v1').O_APPEND.__getattribute__")->callable, "a number's __getattribute__");
    CHECK(detail_of("tool('ops.compat-v1').O_APPEND.bit_length")->callable, "a number's bit_length");
    CHECK(detail_of("tool('ops.compat-v1').sep.__mul__")->callable, "a str's __mul__ (the memory limit bounds it)");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_harvest targets/lookup-hard\n");
        return 2;
    }
    if (!check_session(&target, argv[1]))
        return 2;
    words();
    details();
    return check_summary();
}
