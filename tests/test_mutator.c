/* test_mutator.c — the mutators' invariants over many seeded iterations, without an
 * interpreter: every output of the chain mutator, of the splice and of the AFL++ entry
 * (afl_mutator.c) decodes strictly and prints back to the same bytes (so it is a chain in its
 * printed form, within every GC_MAX_* bound), no output is longer than the room it was
 * given, and nothing is written past that room.  Seeds start from the corpus and advisory
 * chains (argv: folders of chain files) and from garbage, and each output is the next input,
 * as in a campaign. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "check.h"
#include "mutator.h"
#include "rng.h"

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

#define MAX_SEEDS 64
#define GUARD 64
#define CANARY 0xA5

static uint8_t seeds[MAX_SEEDS][GC_MAX_INPUT];
static size_t seed_len[MAX_SEEDS];
static int nseeds;
static gc_chain decoded;
static const size_t rooms[] = {8, 24, 64, 200, 1024, GC_MAX_INPUT};
#define NROOMS (sizeof rooms / sizeof rooms[0])

static void load_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && nseeds < MAX_SEEDS && (e = readdir(d))) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = e->d_name[0] != '.' ? fopen(path, "rb") : NULL;
        if (!f)
            continue;
        seed_len[nseeds] = fread(seeds[nseeds], 1, sizeof seeds[0], f);
        fclose(f);
        if (seed_len[nseeds] > 0)
            nseeds++;
    }
    if (d)
        closedir(d);
}

/* Do a and b say the same chain: statements, roots, trailers and what each trailer uses
 * (strings by content: two chains' arenas differ)? */
static int same_str(const gc_chain *a, gc_str x, const gc_chain *b, gc_str y)
{
    return x.len == y.len && memcmp(gc_chain_str(a, x), gc_chain_str(b, y), x.len) == 0;
}
static int same_trailer(const gc_chain *a, const gc_trailer *x, const gc_chain *b, const gc_trailer *y)
{
    if (x->kind != y->kind)
        return 0;
    switch (x->kind) {
    case GC_T_ATTR: case GC_T_ITEM_STR: case GC_T_NAMED: return same_str(a, x->s, b, y->s);
    case GC_T_ITEM_INT: case GC_T_DIR: case GC_T_NTH: return x->k == y->k;
    case GC_T_CALL:
        if (x->nargs != y->nargs)
            return 0;
        for (int k = 0; k < x->nargs; k++)
            if (x->args[k].kind != y->args[k].kind ||
                (x->args[k].kind == GC_ARG_INT && x->args[k].ival != y->args[k].ival) ||
                (x->args[k].kind == GC_ARG_STR && !same_str(a, x->args[k].s, b, y->args[k].s)))
                return 0;
        return 1;
    }
    return 0;
}
static int same_chain(const gc_chain *a, const gc_chain *b)
{
    if (a->nstmts != b->nstmts)
        return 0;
    for (int i = 0; i < a->nstmts; i++) {
        const gc_stmt *x = &a->s[i], *y = &b->s[i];
        if (x->is_prev != y->is_prev || (!x->is_prev && !same_str(a, x->root, b, y->root)) ||
            x->ntrailers != y->ntrailers)
            return 0;
        for (int j = 0; j < x->ntrailers; j++)
            if (!same_trailer(a, &x->t[j], b, &y->t[j]))
                return 0;
    }
    return 1;
}

/* An output: decodes strictly, prints back to itself, fits its room. */
static int is_chain_text(const uint8_t *p, size_t n, size_t room, const char *who, unsigned seed)
{
    gc_parse_error err;
    int ok = n <= room;
    CHECK(ok, "%s seed %u: %zu bytes in a room of %zu", who, seed, n, room);
    if (!ok || n == 0)
        return ok;
    int parsed = gc_chain_parse(p, n, GC_PARSE_STRICT, &decoded, &err) == 0;
    CHECK(parsed, "%s seed %u: output does not decode (%d:%d %s): %.*s", who, seed, err.line, err.col, err.msg,
          (int)n, (const char *)p);
    if (!parsed)
        return 0;
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_chain_print(&decoded, &sb);
    int same = sb.len == n && memcmp(sb.data, p, n) == 0;
    CHECK(same && decoded.nstmts > 0, "%s seed %u: output is not in printed form: %.*s", who, seed, (int)n,
          (const char *)p);
    gc_sb_free(&sb);
    /* the chain the mutator hands the run instead of a parse (gc_mutated_chain) is the parse */
    const gc_chain *m = gc_mutated_chain(p, n);
    CHECK(!m || same_chain(m, &decoded), "%s seed %u: the mutator's own chain is not what its output parses to: %.*s",
          who, seed, (int)n, (const char *)p);
    return same;
}

static int guard_intact(const uint8_t *buf, size_t room)
{
    for (size_t i = room; i < room + GUARD; i++)
        if (buf[i] != CANARY)
            return 0;
    return 1;
}

static gc_value_kind fake_probe(const struct gc_chain_s *c, int stmt)
{
    return (gc_value_kind)((unsigned)(c->nstmts * 7 + c->s[stmt].ntrailers * 3) % (GC_VK_OTHER + 1));
}

/* gc_mutate_chain, chained from every seed and from garbage, with and without a probe. */
static void chain_mutator(int iterations)
{
    static uint8_t buf[GC_MAX_INPUT + GUARD];
    int produced = 0, runs = 0;
    uint32_t g = 12345;
    for (int probe = 0; probe < 2; probe++) {
        gc_mutator_set_probe(probe ? fake_probe : NULL);
        for (int s = 0; s <= nseeds; s++) {
            size_t n = s < nseeds ? seed_len[s] : 40;
            if (s < nseeds)
                memcpy(buf, seeds[s], n);
            else
                for (size_t i = 0; i < n; i++)
                    buf[i] = (uint8_t)gc_xorshift32(&g); /* garbage: decoded leniently */
            for (int it = 0; it < iterations; it++, runs++) {
                unsigned seed = (unsigned)(s * 100003 + it * 7 + probe);
                size_t room = rooms[it % NROOMS];
                if (n > room)
                    n = room; /* the engine hands over at most max_size bytes */
                /* once from a parse of buf, once from the chain a run parsed (gc_mutate_parsed,
                 * as fuzz_gate hands it over): the same output */
                static uint8_t again[GC_MAX_INPUT];
                static gc_chain ran;
                memcpy(again, buf, n);
                gc_mutate_parsed(buf, n, NULL);
                size_t m0 = gc_mutate_chain(again, n, room, seed);
                gc_chain_parse(buf, n, GC_PARSE_LENIENT, &ran, NULL);
                gc_mutate_parsed(buf, n, &ran);
                memset(buf + room, CANARY, GUARD);
                size_t m = gc_mutate_chain(buf, n, room, seed);
                CHECK(m == m0 && memcmp(buf, again, m) == 0, "gc_mutate_chain seed %u: from the run's chain %.*s, "
                      "from a parse %.*s", seed, (int)m, (const char *)buf, (int)m0, (const char *)again);
                CHECK(guard_intact(buf, room), "gc_mutate_chain seed %u wrote past its room of %zu", seed, room);
                if (!is_chain_text(buf, m, room, "gc_mutate_chain", seed))
                    return;
                if (m) {
                    produced++;
                    n = m;
                }
            }
        }
    }
    CHECK(produced > runs / 2, "gc_mutate_chain made %d outputs in %d runs", produced, runs);
}

static gc_value_kind exception_probe(const struct gc_chain_s *c, int stmt)
{
    (void)c;
    (void)stmt;
    return GC_VK_EXCEPTION;
}

/* After a call that raised, the mutator's fitting trailer is drawn from what an exception
 * has: each of __traceback__, __context__, args, obj and name, and exploration (.#K). */
static void exception_trailers(void)
{
    static const char *const want[] = {").__traceback__", ").__context__", ").args", ").obj", ").name", ").#",
                                       ").__traceback__.tb_frame", ").__traceback__.tb_frame.f_back",
                                       ").__traceback__.tb_frame.f_globals", ").__traceback__.tb_frame.f_locals"};
    enum { NWANT = sizeof want / sizeof want[0] };
    int seen[NWANT] = {0};
    gc_mutator_set_probe(exception_probe);
    for (unsigned seed = 1; seed <= 4000; seed++) {
        uint8_t buf[256];
        memcpy(buf, "handler()\n", 10);
        size_t m = gc_mutate_chain(buf, 10, sizeof buf - 1, seed);
        buf[m] = '\0';
        for (int k = 0; k < NWANT; k++)
            seen[k] += strncmp((char *)buf, "handler", 7) == 0 && strstr((char *)buf, want[k]) != NULL;
    }
    for (int k = 0; k < NWANT; k++)
        CHECK(seen[k] > 0, "no mutation of handler() appended %s after the exception", want[k]);
    gc_mutator_set_probe(NULL);
}

/* The detail probe's answer for the harvested-argument checks below. */
static gc_probe_detail fake_detail;

static int detail(const struct gc_chain_s *c, int stmt, gc_probe_detail *d)
{
    (void)c;
    (void)stmt;
    *d = fake_detail;
    return 0;
}

static void set_detail(gc_value_kind kind, int callable, int min, int max, const char *n1, const char *n2)
{
    memset(&fake_detail, 0, sizeof fake_detail);
    fake_detail.kind = kind;
    fake_detail.callable = callable;
    fake_detail.min_args = min;
    fake_detail.max_args = max;
    if (n1)
        snprintf(fake_detail.names[fake_detail.nnames++], sizeof fake_detail.names[0], "%s", n1);
    if (n2)
        snprintf(fake_detail.names[fake_detail.nnames++], sizeof fake_detail.names[0], "%s", n2);
}

/* How many of 4000 mutations of 'in' contain each of want[0..n) (and none of 'never');
 * each is a chain in printed form. */
static void count_outputs(const char *in, const char *const *want, int *seen, int n, const char *never, int *bad)
{
    for (unsigned seed = 1; seed <= 4000; seed++) {
        uint8_t buf[512];
        size_t len = strlen(in);
        memcpy(buf, in, len);
        size_t m = gc_mutate_chain(buf, len, sizeof buf - 1, seed);
        is_chain_text(buf, m, sizeof buf - 1, "gc_mutate_chain (detail probe)", seed);
        buf[m] = '\0';
        for (int k = 0; k < n; k++)
            seen[k] += strstr((char *)buf, want[k]) != NULL;
        *bad += never && strstr((char *)buf, never) != NULL;
    }
}

/* Calls with harvested arguments where the detail probe says the value is callable (as many
 * as its signature takes), and the names it says the value has: an exception's attribute
 * hidden from dir(), a mapping's key, a module's forbidden primitive. */
static void harvested_arguments(void)
{
    const char *gate[] = {"ops.compat-v1", "catalog"}, *other[] = {"posixpath", "/scratch/x"};
    CHECK(gc_mutator_add_words(gate, 2, 1) == 2, "two new gate words");
    CHECK(gc_mutator_add_words(gate, 2, 1) == 0 && gc_mutator_add_words(other, 2, 0) == 2,
          "words are de-duplicated");
    gc_mutator_set_probe(fake_probe);
    gc_mutator_set_detail_probe(detail);
    /* tool(name): one argument exactly */
    set_detail(GC_VK_OTHER, 1, 1, 1, NULL, NULL);
    const char *one[] = {"tool('ops.compat-v1')", "tool('catalog')", "tool('posixpath')", "tool(-1)", "tool(None)",
                         "tool(True)"};
    int seen[6] = {0}, bad = 0;
    count_outputs("tool\n", one, seen, 6, ", ", &bad);
    for (int k = 0; k < 6; k++)
        CHECK(seen[k] > 0, "no mutation of a one-argument callable made %s", one[k]);
    CHECK(bad == 0, "%d calls of a one-argument callable with more than one argument", bad);
    /* f(*args): one, two and three arguments */
    set_detail(GC_VK_FUNCTION, 1, 0, -1, NULL, NULL);
    int many[2] = {0};
    bad = 0;
    count_outputs("f\n", (const char *[]){"f(", ", "}, many, 2, NULL, &bad);
    CHECK(many[1] > 0, "a callable with *args: no call with two or more arguments in %d calls", many[0]);
    /* names the value has */
    struct { gc_value_kind kind; const char *in, *n1, *n2, *want; } names[] = {
        {GC_VK_EXCEPTION, "tool('x')\n", "catalog", NULL, "tool('x').catalog"},
        {GC_VK_MAPPING, "f.__globals__\n", "__name__", "_os", "f.__globals__['_os']"},
        {GC_VK_MODULE, "m\n", "system", "path", "m.system"},
    };
    for (int i = 0; i < 3; i++) {
        set_detail(names[i].kind, 0, 0, 0, names[i].n1, names[i].n2);
        int got[1] = {0};
        bad = 0;
        count_outputs(names[i].in, &names[i].want, got, 1, NULL, &bad);
        CHECK(got[0] > 0, "the probe's name never used: no %s", names[i].want);
    }
    /* '_', the previous statement's value, as an argument: only when there is one */
    set_detail(GC_VK_OTHER, 1, 1, 1, NULL, NULL);
    int prev[1] = {0};
    bad = 0;
    count_outputs("a\ntool\n", (const char *[]){"\ntool(_)"}, prev, 1, NULL, &bad);
    CHECK(prev[0] > 0, "no mutation of a\\ntool called tool(_)");
    set_detail(GC_VK_FUNCTION, 1, 0, -1, NULL, NULL);
    int prevs[2] = {0};
    count_outputs("a\nf\n", (const char *[]){"\nf(_", ", _"}, prevs, 2, NULL, &bad);
    CHECK(prevs[0] > 0 && prevs[1] > 0, "f(*args) after a statement: '_' first %d times, later %d", prevs[0], prevs[1]);
    int first[1] = {0};
    count_outputs("tool\n", (const char *[]){"(_"}, first, 1, NULL, &bad);
    count_outputs("f\n", (const char *[]){", _"}, first, 1, NULL, &bad);
    CHECK(first[0] == 0, "'_' passed %d times in a chain of one statement", first[0]);
    /* without harvest: none of it */
    gc_mutator_harvest = 0;
    set_detail(GC_VK_OTHER, 1, 1, 1, "catalog", NULL);
    int off[3] = {0};
    bad = 0;
    count_outputs("tool\n", (const char *[]){"'ops.compat-v1'", ".catalog"}, off, 2, NULL, &bad);
    count_outputs("a\ntool\n", (const char *[]){"(_", ", _"}, off + 2, 1, ", _", &bad);
    CHECK(off[0] == 0 && off[1] == 0, "harvest off: still %d harvested arguments, %d names", off[0], off[1]);
    CHECK(off[2] == 0 && bad == 0, "harvest off: still %d calls with '_' first, %d later", off[2], bad);
    gc_mutator_harvest = 1;
    gc_mutator_set_detail_probe(NULL);
    gc_mutator_set_probe(NULL);
}

/* gc_crossover_chain over every ordered pair of seeds. */
static void splice(int iterations)
{
    static uint8_t out[GC_MAX_INPUT + GUARD];
    int produced = 0, runs = 0;
    for (int a = 0; a < nseeds; a++)
        for (int b = 0; b < nseeds; b++)
            for (int it = 0; it < iterations; it++, runs++) {
                unsigned seed = (unsigned)(a * 7919 + b * 31 + it);
                size_t room = rooms[it % NROOMS];
                memset(out + room, CANARY, GUARD);
                size_t m = gc_crossover_chain(seeds[a], seed_len[a], seeds[b], seed_len[b], out, room, seed);
                CHECK(guard_intact(out, room), "gc_crossover_chain seed %u wrote past its room of %zu", seed, room);
                if (!is_chain_text(out, m, room, "gc_crossover_chain", seed))
                    return;
                produced += m > 0;
            }
    CHECK(produced > runs / 4, "gc_crossover_chain made %d outputs in %d runs", produced, runs);
}

/* The input's first n bytes with exactly one bit flipped: afl_custom_fuzz's fallback. */
static int one_bit_flipped(const uint8_t *in, const uint8_t *out, size_t n)
{
    int bits = 0;
    for (size_t i = 0; i < n; i++)
        bits += __builtin_popcount((unsigned)(in[i] ^ out[i]));
    return bits == 1;
}

/* afl_custom_fuzz: an output every time, within max_size (and its own 8192-byte buffer);
 * either a chain in printed form or, when no chain edit fits, the input with one bit
 * flipped (as havoc would). */
static void afl_entry(int iterations)
{
    setenv("GATECRASH_MUTATOR_ROOTS", "os,subprocess,__builtins__", 1);
    setenv("GATECRASH_MUTATOR_TARGETS", "system,Popen", 1);
    void *m = afl_custom_init(NULL, 7);
    CHECK(m != NULL, "afl_custom_init");
    static uint8_t in[GC_MAX_INPUT];
    int chains = 0, runs = 0;
    for (int s = 0; m && s < nseeds; s++) {
        size_t n = seed_len[s];
        memcpy(in, seeds[s], n);
        for (int it = 0; it < iterations; it++, runs++) {
            size_t max = it % 3 == 0 ? 16 : it % 3 == 1 ? 1024 : 1u << 20; /* above its buffer too */
            size_t cap = max < GC_MAX_INPUT ? max : GC_MAX_INPUT, keep = n < cap ? n : cap;
            const uint8_t *add = seeds[(s + it) % nseeds];
            uint8_t *out = NULL;
            size_t k = afl_custom_fuzz(m, in, n, &out, (uint8_t *)add, seed_len[(s + it) % nseeds], max);
            CHECK(out && k > 0 && k <= cap, "afl_custom_fuzz: %zu bytes for max_size %zu", k, max);
            if (!out || k == 0 || k > cap)
                break;
            int flip = k == keep && one_bit_flipped(in, out, k);
            int chain = !flip && is_chain_text(out, k, cap, "afl_custom_fuzz", (unsigned)it);
            if (!flip && !chain)
                break;
            chains += chain;
            if (chain) { /* the next input, as afl-fuzz's queue would have it */
                memcpy(in, out, k);
                n = k;
            }
        }
    }
    CHECK(chains > runs / 2, "afl_custom_fuzz made %d chains in %d runs", chains, runs);
    afl_custom_deinit(m);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        load_dir(argv[i]);
    if (nseeds < 2) {
        fprintf(stderr, "usage: test_mutator DIR...  (folders of chain files; found %d)\n", nseeds);
        return 2;
    }
    const char *roots[] = {"os", "subprocess", "__builtins__", "handler"};
    const char *targets[] = {"system", "popen", "execv", "Popen"};
    gc_mutator_set_roots(roots, 4);
    gc_mutator_set_targets(targets, 4);
    chain_mutator(2000);
    exception_trailers();
    harvested_arguments();
    splice(40);
    afl_entry(1000);
    return check_summary();
}
