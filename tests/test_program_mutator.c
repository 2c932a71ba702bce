/* test_program_mutator.c — the program-aware mutator (program_mutator.h): every output of
 * many edits from seed programs and random bytes stays within max_size, decodes, is
 * canonical (decoding and encoding it gives the same bytes) and prints as Python that
 * compiles in both dialects; each kind of edit shows up, and dictionary words are used. */
#include <Python.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pycheck.h"
#include "program.h"
#include "program_mutator.h"
#include "rng.h"

static gc_program p;
static uint8_t enc[GC_P_MAX_INPUT * 2];

/* The invariants on one output; its default-dialect source in sb. */
static void check_output(const uint8_t *d, size_t n, size_t max, gc_strbuf *sb)
{
    CHECK(n <= max, "output of %zu bytes past max_size %zu", n, max);
    gc_program_decode(d, n, &p);
    CHECK(p.nstmts > 0, "output has a statement");
    size_t len = gc_program_encode(&p, enc, sizeof enc);
    CHECK(len == n && memcmp(enc, d, n) == 0, "output is canonical (%zu bytes, re-encoded %zu)", n, len);
    for (unsigned dialect = GC_DIALECT_EXPRESSION + 1; dialect-- > 0;) {
        gc_sb_clear(sb);
        gc_program_print(&p, dialect, sb);
        CHECK(check_compiles(sb->data), "dialect %u does not compile:\n%s", dialect, sb->data);
    }
}

#define OP(x) GC_P_##x
/* From a seed, chains of edits (each output the next input): the invariants, and which
 * kinds of edit appeared (counted by what the printed source holds). */
static void chains(const gc_pm_dict *dict)
{
    /* result = x.y.z */
    static const uint8_t seed[] = {OP(NAME), 1, 'x', OP(ATTR), 1, 'y', OP(ATTR), 1, 'z', OP(ASSIGN), 6,
                                   'r', 'e', 's', 'u', 'l', 't'};
    static uint8_t buf[512];
    gc_strbuf sb;
    gc_sb_init(&sb);
    int tries = 0, formats = 0, aliases = 0, words = 0, none = 0, calls = 0, maxed = 0, defs = 0, fors = 0, gens = 0;
    uint32_t rng = 7;
    for (int run = 0; run < 300; run++) {
        size_t n = sizeof seed, max = run % 3 == 0 ? 64 : sizeof buf;
        memcpy(buf, seed, n);
        for (int step = 0; step < 20; step++) {
            size_t m = gc_program_mutate(buf, n, max, gc_xorshift32(&rng), dict);
            if (m == 0) {
                none++;
                continue;
            }
            n = m;
            int before = failures;
            check_output(buf, n, max, &sb);
            if (failures > before)
                break;
            tries += strstr(sb.data, "try:") != NULL;
            formats += strstr(sb.data, "'{0.") != NULL;
            aliases += strstr(sb.data, " = a") != NULL || strncmp(sb.data, "a", 1) == 0;
            calls += strstr(sb.data, "()") != NULL;
            defs += strstr(sb.data, "def f") != NULL && strstr(sb.data, "result = f") != NULL;
            fors += strncmp(sb.data, "for v in ", 9) == 0 || strstr(sb.data, "\nfor v in ") != NULL;
            gens += strstr(sb.data, " for x in ") != NULL || strstr(sb.data, " for v in ") != NULL;
            words += strstr(sb.data, "blocklisted") != NULL;
            maxed += max == 64 && n > 48;
        }
    }
    CHECK(tries > 0 && formats > 0 && aliases > 0 && calls > 0, "edits: try %d, format %d, alias %d, call %d",
          tries, formats, aliases, calls);
    CHECK(defs > 0 && fors > 0 && gens > 0, "edits: def %d, for %d, generator/comprehension %d", defs, fors, gens);
    CHECK(words > 0, "the dictionary's word appears (%d)", words);
    CHECK(maxed > 0, "outputs grow to max_size (%d)", maxed);
    CHECK(none < 300 * 20 / 2, "most edits apply (%d of 6000 made none)", none);
    gc_sb_free(&sb);
}

/* Random bytes as inputs, with a small max_size too. */
static void random_inputs(int n)
{
    static uint8_t buf[GC_P_MAX_INPUT];
    uint32_t rng = 99;
    gc_strbuf sb;
    gc_sb_init(&sb);
    for (int k = 0; k < n; k++) {
        size_t len = gc_xorshift32(&rng) % 300, max = k % 2 ? sizeof buf : 32;
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)gc_xorshift32(&rng);
        size_t m = gc_program_mutate(buf, len, max, gc_xorshift32(&rng), NULL);
        int before = failures;
        if (m)
            check_output(buf, m, max, &sb);
        if (failures > before + 20)
            break;
    }
    gc_sb_free(&sb);
}

/* The word lists by kind: attributes are drawn from the kinds the input reached (focus),
 * and with a no-underscore dialect never a kind's '_' word. */
static void kinds(void)
{
    static gc_pm_dict d;
    static const uint8_t seed[] = {OP(NAME), 1, 'g', OP(ASSIGN), 6, 'r', 'e', 's', 'u', 'l', 't'};
    static uint8_t buf[512];
    gc_pm_dict_add_root(&d, "g");
    for (int i = 0; i < 40; i++) { /* a crowd of other kinds */
        char k[16], w[16];
        snprintf(k, sizeof k, "kind%d", i), snprintf(w, sizeof w, "other%d", i);
        gc_pm_dict_add_kind(&d, k, w);
    }
    CHECK(gc_pm_dict_add_kind(&d, "frame", "onward") == 1 && gc_pm_dict_add_kind(&d, "frame", "onward") == 0 &&
              gc_pm_dict_add_kind(&d, "frame", "_hidden") == 1,
          "a kind's word is added once");
    d.no_underscore = 1;
    d.nfocus = 1;
    d.focus[0] = (uint16_t)gc_pm_dict_kind(&d, "frame");
    gc_strbuf sb;
    gc_sb_init(&sb);
    int back = 0, hidden = 0;
    uint32_t rng = 3;
    for (int run = 0; run < 2000; run++) {
        memcpy(buf, seed, sizeof seed);
        size_t n = gc_program_mutate(buf, sizeof seed, sizeof buf, gc_xorshift32(&rng), &d);
        if (!n)
            continue;
        check_output(buf, n, sizeof buf, &sb);
        back += strstr(sb.data, ".onward") != NULL;
        for (int k = 0; k < p.nexprs; k++) /* as an attribute: a format field or a string is data */
            hidden += p.e[k].op == GC_P_ATTR && p.e[k].s.len == 7 && memcmp(p.arena + p.e[k].s.off, "_hidden", 7) == 0;
    }
    CHECK(back >= 100, "the focus kind's word follows (%d of 2000)", back);
    CHECK(hidden == 0, "a '_' word of a kind is never an attribute in a no-underscore dialect (%d)", hidden);
    gc_sb_free(&sb);
}

/* Crossover: a statement of the second input lands in the first; outputs canonical. */
static void crossover(void)
{
    static const uint8_t a[] = {OP(NAME), 1, 'a', OP(ASSIGN), 1, 'x'};
    static const uint8_t b[] = {OP(NAME), 1, 'b', OP(ATTR), 1, 'c', OP(ASSIGN), 1, 'y'};
    static uint8_t out[256];
    gc_strbuf sb;
    gc_sb_init(&sb);
    int both = 0;
    uint32_t rng = 5;
    for (int run = 0; run < 200; run++) {
        size_t n = gc_program_crossover(a, sizeof a, b, sizeof b, out, sizeof out, gc_xorshift32(&rng), NULL);
        if (!n)
            continue;
        check_output(out, n, sizeof out, &sb);
        both += strstr(sb.data, "x = a\n") != NULL && strstr(sb.data, "y = b.c\n") != NULL;
    }
    CHECK(both >= 100, "crossover splices the other input's statement (%d of 200)", both);
    gc_sb_free(&sb);
}

int main(void)
{
    static gc_pm_dict dict;
    Py_InitializeEx(0);
    PyRun_SimpleString("import warnings\nwarnings.simplefilter(\"ignore\")\n"); /* SyntaxWarnings */
    CHECK(gc_pm_dict_add(&dict, "blocklisted") == 1 && gc_pm_dict_add(&dict, "blocklisted") == 0,
          "a word is added once");
    chains(&dict);
    kinds();
    crossover();
    random_inputs(3000);
    Py_FinalizeEx();
    return check_summary();
}
