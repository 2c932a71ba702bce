/* mutator.c — see mutator.h.  Inputs are decoded leniently, edited as chains and printed
 * back as text, so the corpus stays readable and every edit yields a valid chain.  The
 * bridge names below are the hops escapes are made of (see docs/CHAINS.md); anything else
 * is reached through exploration indices. */
#include "mutator.h"

#include <stdio.h>
#include <string.h>

#include "chain.h"
#include "rng.h"

static const char *bridge_attrs[] = {
    "__globals__", "__self__", "__func__", "__wrapped__", "__closure__", "cell_contents",
    "__traceback__", "tb_frame", "tb_next", "f_back", "f_globals", "f_locals", "f_builtins",
    "gi_frame", "__dict__", "__class__", "__base__", "__bases__", "__mro__", "__subclasses__",
    "__init__", "__builtins__", "__import__", "__loader__", "__spec__", "__context__",
    "modules", "os", "sys", "path", "__getattribute__", "__reduce_ex__", "mro",
};
static const char *module_names[] = {"os", "sys", "subprocess", "posix", "builtins", "importlib",
                                     "shutil", "io", "_posixsubprocess", "pty", "gc"};

static char roots_store[64][GC_MAX_NAME + 1];
static int nroots;
static char targets_store[256][GC_MAX_NAME + 1];
static int ntargets;

void gc_mutator_set_targets(const char *const *names, int n)
{
    ntargets = 0;
    for (int i = 0; i < n && ntargets < 256; i++)
        if (strlen(names[i]) <= GC_MAX_NAME)
            snprintf(targets_store[ntargets++], sizeof targets_store[0], "%s", names[i]);
}

void gc_mutator_set_roots(const char *const *roots, int n)
{
    nroots = 0;
    for (int i = 0; i < n && nroots < 64; i++)
        if (strlen(roots[i]) <= GC_MAX_NAME)
            snprintf(roots_store[nroots++], sizeof roots_store[0], "%s", roots[i]);
}

typedef struct {
    uint32_t s;
} rng;

static uint32_t next(rng *r) { return gc_xorshift32(&r->s); }

static uint32_t below(rng *r, uint32_t n) { return n ? next(r) % n : 0; }

static gc_probe_fn probe;
static gc_detail_fn detail_probe;
int gc_mutator_harvest = 1;

void gc_mutator_set_probe(gc_probe_fn fn) { probe = fn; }
void gc_mutator_set_detail_probe(gc_detail_fn fn) { detail_probe = fn; }

/* The harvested words: one store, the gate's own strings listed apart, a hash set over both. */
#define WORD_LEN 128
#define WORD_SLOTS (2 * GC_MAX_WORDS)
static char words[GC_MAX_WORDS][WORD_LEN];
static int nwords;
static int gate_words[GC_MAX_WORDS];
static int ngate;
static int word_slot[WORD_SLOTS]; /* index + 1, 0: empty */

static uint32_t word_hash(const char *w)
{
    uint32_t h = 2166136261u;
    for (; *w; w++)
        h = (h ^ (uint8_t)*w) * 16777619u;
    return h;
}

int gc_mutator_add_words(const char *const *w, int n, int gate)
{
    int added = 0;
    for (int i = 0; i < n && nwords < GC_MAX_WORDS; i++) {
        size_t len = strlen(w[i]);
        if (len == 0 || len >= WORD_LEN)
            continue;
        uint32_t h = word_hash(w[i]) % WORD_SLOTS;
        while (word_slot[h] && strcmp(words[word_slot[h] - 1], w[i]) != 0)
            h = (h + 1) % WORD_SLOTS;
        if (word_slot[h])
            continue;
        memcpy(words[nwords], w[i], len + 1);
        word_slot[h] = ++nwords;
        if (gate)
            gate_words[ngate++] = nwords - 1;
        added++;
    }
    return added;
}

/* A harvested word: the gate's own strings half the time. */
static const char *pick_word(rng *r)
{
    if (!gc_mutator_harvest || nwords == 0)
        return NULL;
    if (ngate && below(r, 2))
        return words[gate_words[below(r, (uint32_t)ngate)]];
    return words[below(r, (uint32_t)nwords)];
}

/* A word that is a chain NAME (an identifier of at most GC_MAX_NAME bytes, ASCII). */
static int is_name(const char *w)
{
    size_t n = strlen(w);
    if (n == 0 || n > GC_MAX_NAME || (w[0] >= '0' && w[0] <= '9'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(w[i] == '_' || (w[i] >= 'a' && w[i] <= 'z') || (w[i] >= 'A' && w[i] <= 'Z') || (w[i] >= '0' && w[i] <= '9')))
            return 0;
    return 1;
}

static int is_target(const char *name)
{
    for (int i = 0; i < ntargets; i++)
        if (strcmp(targets_store[i], name) == 0)
            return 1;
    return 0;
}

/* An argument: when the statement has one before it ('prev'), that statement's value '_'
 * one time in five; else a harvested word mostly, a small int, None, True or False. */
static int harvested_arg(gc_chain *c, rng *r, int prev, gc_arg *a)
{
    if (prev && gc_mutator_harvest && below(r, 5) == 0) { /* no draw otherwise: the same odds as before */
        memset(a, 0, sizeof *a);
        a->kind = GC_ARG_PREV;
        return 0;
    }
    uint32_t p = below(r, 10);
    const char *w = p < 7 ? pick_word(r) : NULL;
    memset(a, 0, sizeof *a);
    if (w) {
        a->kind = GC_ARG_STR;
        return gc_chain_intern(c, w, strlen(w), &a->s);
    }
    if (p < 9) {
        a->kind = GC_ARG_INT;
        a->ival = (long)below(r, 5) - 1; /* -1 .. 3 */
        return 0;
    }
    static const gc_arg_kind consts[] = {GC_ARG_NONE, GC_ARG_TRUE, GC_ARG_FALSE};
    a->kind = consts[below(r, 3)];
    return 0;
}

/* A call with as many arguments as the signature takes (min..max, at most 3; one, when one
 * fits, half the time), appended to the last statement ('_' among them when it has one
 * before it). */
static int harvested_call(gc_chain *c, rng *r, int min, int max, gc_trailer *t)
{
    int prev = c->nstmts > 1;
    int hi = max < 0 || max > 3 ? 3 : max;
    int lo = min > hi ? hi : min < 0 ? 0 : min;
    int n = lo <= 1 && hi >= 1 && below(r, 2) ? 1 : lo + (int)below(r, (uint32_t)(hi - lo + 1));
    memset(t, 0, sizeof *t);
    t->kind = GC_T_CALL;
    for (int i = 0; i < n; i++)
        if (harvested_arg(c, r, prev, &t->args[i]) < 0)
            return -1;
    t->nargs = n;
    return 0;
}

/* Append the attributes of a dotted path ("__traceback__.tb_frame.f_back") to st. */
static int append_path(gc_chain *c, gc_stmt *st, const char *path)
{
    while (*path) {
        size_t n = strcspn(path, ".");
        if (st->ntrailers >= GC_MAX_TRAILERS)
            return -1;
        gc_trailer *t = &st->t[st->ntrailers];
        memset(t, 0, sizeof *t);
        t->kind = GC_T_ATTR;
        if (gc_chain_intern(c, path, n, &t->s) < 0)
            return -1;
        st->ntrailers++;
        path += n + (path[n] == '.');
    }
    return 0;
}

/* A trailer that fits what the chain's value is (the probe evaluated it): the mutation
 * works from the names and kinds a value really has.  Appended to st. */
static int fitting_trailer(gc_chain *c, rng *r, gc_value_kind vk, gc_stmt *st)
{
    static const char *const for_type[] = {"__subclasses__", "__base__", "__mro__", "__init__", "__dict__"};
    static const char *const for_func[] = {"__globals__", "__closure__", "__self__", "__wrapped__", "__func__",
                                           "__builtins__", "__defaults__", "__globals__", "__builtins__"};
    static const char *const for_frame[] = {"f_globals", "f_back", "f_builtins", "f_locals"};
    static const char *const for_tb[] = {"tb_frame", "tb_next"};
    static const char *const for_cell[] = {"cell_contents"};
    /* what an exception has: its traceback and the frames behind it (the raising function's
     * globals and locals, its caller), the exception it replaced, its args and, for
     * AttributeError/NameError/ImportError, the object and name it was about */
    static const char *const for_exc[] = {"__traceback__", "__context__", "args", "obj", "name",
                                          "__traceback__.tb_frame", "__traceback__.tb_frame.f_back",
                                          "__traceback__.tb_frame.f_globals", "__traceback__.tb_frame.f_locals",
                                          "__traceback__.tb_next.tb_frame.f_globals"};
    const char *const *pick = NULL;
    size_t npick = 0;
    gc_trailer *t = &st->t[st->ntrailers];
    memset(t, 0, sizeof *t);
    int aim = ntargets && below(r, 2);
    const char *target = aim ? targets_store[below(r, (uint32_t)ntargets)] : NULL;
    switch (vk) {
    case GC_VK_TYPE: pick = for_type; npick = 5; break;
    case GC_VK_FUNCTION: pick = for_func; npick = 9; break; /* the two escapes' bridges twice */
    case GC_VK_FRAME: pick = for_frame; npick = 4; break;
    case GC_VK_TRACEBACK: pick = for_tb; npick = 2; break;
    case GC_VK_CELL: pick = for_cell; npick = 1; break;
    case GC_VK_EXCEPTION: /* after a call that raised; any other attribute by exploration below */
        pick = for_exc;
        npick = sizeof for_exc / sizeof for_exc[0];
        break;
    case GC_VK_SEQUENCE:
    case GC_VK_MAPPING:
    case GC_VK_MODULE:
        if (target) {
            t->kind = vk == GC_VK_SEQUENCE ? GC_T_NAMED : vk == GC_VK_MAPPING ? GC_T_ITEM_STR : GC_T_ATTR;
            if (gc_chain_intern(c, target, strlen(target), &t->s) < 0)
                return -1;
        } else {
            t->kind = vk == GC_VK_MODULE ? GC_T_DIR : GC_T_NTH;
            t->k = (long)below(r, GC_MAX_K);
        }
        st->ntrailers++;
        return 0;
    default: break;
    }
    if (!pick || below(r, 4) == 0) { /* anything: a name it has, or its class */
        if (below(r, 3) == 0)
            return append_path(c, st, "__class__");
        t->kind = GC_T_DIR;
        t->k = (long)below(r, GC_MAX_K);
        st->ntrailers++;
        return 0;
    }
    return append_path(c, st, pick[below(r, (uint32_t)npick)]);
}

/* What the detail probe says, used: a call with harvested arguments where the value is
 * callable, or a name the value really has (a forbidden primitive's first).  Appended to
 * st; 1 when nothing fits (the caller falls back to fitting_trailer). */
static int detailed_trailer(gc_chain *c, rng *r, gc_stmt *st)
{
    static gc_probe_detail d;
    if (!detail_probe || !gc_mutator_harvest || detail_probe(c, c->nstmts - 1, &d) != 0 || d.kind == GC_VK_NONE)
        return 1;
    const char *names[GC_PROBE_NAMES];
    for (int i = 0; i < d.nnames; i++)
        names[i] = d.names[i];
    gc_mutator_add_words(names, d.nnames, 0); /* names the probe saw are arguments too */
    gc_trailer *t = &st->t[st->ntrailers];
    if (d.callable && d.kind != GC_VK_EXCEPTION && below(r, 2)) { /* calling an exception rarely leads on */
        if (harvested_call(c, r, d.min_args, d.max_args, t) < 0)
            return -1;
        st->ntrailers++;
        return 0;
    }
    if (d.nnames == 0 || below(r, 4) == 0)
        return 1;
    const char *nm = is_target(names[0]) && below(r, 2) ? names[0] : names[below(r, (uint32_t)d.nnames)];
    if (d.kind != GC_VK_MAPPING && !is_name(nm))
        return 1;
    memset(t, 0, sizeof *t);
    t->kind = d.kind == GC_VK_MAPPING ? GC_T_ITEM_STR : GC_T_ATTR;
    if (gc_chain_intern(c, nm, strlen(nm), &t->s) < 0)
        return -1;
    st->ntrailers++;
    return 0;
}

/* A random trailer, biased toward exploration and the bridges. */
static int random_trailer(gc_chain *c, rng *r, gc_trailer *t)
{
    memset(t, 0, sizeof *t);
    if (ntargets && below(r, 8) == 0) { /* aim at a primitive: `.system`, `[@Popen]` */
        const char *nm = targets_store[below(r, (uint32_t)ntargets)];
        t->kind = below(r, 2) ? GC_T_ATTR : GC_T_NAMED;
        return gc_chain_intern(c, nm, strlen(nm), &t->s);
    }
    switch (below(r, 10)) {
    case 0: case 1: case 2:
        t->kind = GC_T_DIR;
        t->k = (long)below(r, GC_MAX_K);
        return 0;
    case 3:
        t->kind = GC_T_NTH;
        t->k = (long)below(r, GC_MAX_K);
        return 0;
    case 4:
        t->kind = GC_T_CALL;
        t->nargs = 0;
        return 0;
    case 5: { /* a call with one string: a harvested word half the time, else a module name */
        t->kind = GC_T_CALL;
        t->nargs = 1;
        t->args[0].kind = GC_ARG_STR;
        const char *m = below(r, 2) ? pick_word(r) : NULL;
        if (!m)
            m = module_names[below(r, sizeof module_names / sizeof module_names[0])];
        return gc_chain_intern(c, m, strlen(m), &t->args[0].s);
    }
    case 6: {
        t->kind = GC_T_ITEM_STR;
        const char *m = module_names[below(r, sizeof module_names / sizeof module_names[0])];
        return gc_chain_intern(c, m, strlen(m), &t->s);
    }
    default: { /* a bridge, or (one in eight) a word of the gate's own data as a name */
        t->kind = GC_T_ATTR;
        const char *a = ngate && below(r, 8) == 0 ? pick_word(r) : NULL;
        if (!a || !is_name(a))
            a = bridge_attrs[below(r, sizeof bridge_attrs / sizeof bridge_attrs[0])];
        return gc_chain_intern(c, a, strlen(a), &t->s);
    }
    }
}

static int random_root(gc_chain *c, rng *r, gc_stmt *st)
{
    st->is_prev = 0;
    st->ntrailers = 0;
    if (nroots == 0 || below(r, 8) == 0) {
        st->is_prev = 1;
        return 0;
    }
    const char *name = roots_store[below(r, (uint32_t)nroots)];
    return gc_chain_intern(c, name, strlen(name), &st->root);
}

static const gc_chain *emitted; /* gc_mutated_chain's: the chain emit last wrote */
static gc_strbuf emitted_text;  /* and what it wrote */

static size_t emit(const gc_chain *c, uint8_t *data, size_t max_size)
{
    gc_strbuf *sb = &emitted_text;
    if (!sb->data)
        gc_sb_init(sb);
    gc_sb_clear(sb);
    gc_chain_print(c, sb);
    size_t n = sb->len;
    if (n > max_size || n == 0)
        n = 0;
    else
        memcpy(data, sb->data, n);
    emitted = n ? c : NULL;
    return n;
}

const gc_chain *gc_mutated_chain(const uint8_t *data, size_t size)
{
    return emitted && size == emitted_text.len && memcmp(data, emitted_text.data, size) == 0 ? emitted : NULL;
}

/* t is the attribute .name */
static int attr_is(const gc_chain *c, const gc_trailer *t, const char *name)
{
    size_t n = strlen(name);
    return t->kind == GC_T_ATTR && t->s.len == n && memcmp(gc_chain_str(c, t->s), name, n) == 0;
}

/* A method that introspects is worth calling at once: a call appended after it. */
static void append_call(gc_stmt *st)
{
    if (st->ntrailers >= GC_MAX_TRAILERS)
        return;
    memset(&st->t[st->ntrailers], 0, sizeof st->t[0]);
    st->t[st->ntrailers++].kind = GC_T_CALL;
}

/* The probe evaluates the chain: its last statement extended with a trailer that fits the
 * value it ends on.  Returns 1 when it was extended. */
static int extend_fitting(gc_chain *c, rng *r)
{
    int last = c->nstmts - 1;
    gc_stmt *ls = &c->s[last];
    if (ls->ntrailers >= GC_MAX_TRAILERS)
        return 0;
    int had = ls->ntrailers, rc = below(r, 2) ? detailed_trailer(c, r, ls) : 1;
    if (rc == 1) {
        gc_value_kind vk = probe(c, last);
        rc = vk == GC_VK_NONE ? -1 : fitting_trailer(c, r, vk, ls);
    }
    if (rc != 0 || ls->ntrailers == had)
        return 0;
    if (attr_is(c, &ls->t[ls->ntrailers - 1], "__subclasses__"))
        append_call(ls);
    return 1;
}

/* Re-roll the exploration index of one .#K or [#K] of st. */
static void reroll_index(gc_stmt *st, rng *r)
{
    for (int j = 0; j < st->ntrailers; j++) {
        gc_trailer *t = &st->t[(j + (int)below(r, 64)) % st->ntrailers];
        if (t->kind == GC_T_DIR || t->kind == GC_T_NTH) {
            t->k = below(r, 2) ? (long)below(r, GC_MAX_K) : (t->k + 1 + (long)below(r, 8)) % GC_MAX_K;
            return;
        }
    }
}

/* One random edit of statement *st (a new statement continuing from '_' becomes *st). */
static void edit_once(gc_chain *c, rng *r, gc_stmt **stp)
{
    gc_stmt *st = *stp;
    switch (below(r, 8)) {
    case 0: case 1: case 2: /* append a trailer */
        if (st->ntrailers < GC_MAX_TRAILERS && random_trailer(c, r, &st->t[st->ntrailers]) == 0) {
            const gc_trailer *t = &st->t[st->ntrailers++];
            if (attr_is(c, t, "__subclasses__") || attr_is(c, t, "mro"))
                append_call(st);
        }
        break;
    case 3: /* replace a trailer */
        if (st->ntrailers > 0)
            random_trailer(c, r, &st->t[below(r, (uint32_t)st->ntrailers)]);
        break;
    case 4: /* cut the statement short */
        if (st->ntrailers > 0)
            st->ntrailers = (int)below(r, (uint32_t)st->ntrailers);
        break;
    case 5: /* re-roll an exploration index */
        reroll_index(st, r);
        break;
    case 6: /* swap the root */
        random_root(c, r, st);
        st->ntrailers = 0;
        if (random_trailer(c, r, &st->t[0]) == 0)
            st->ntrailers = 1;
        break;
    case 7: /* continue from '_' in a new statement */
        if (c->nstmts < GC_MAX_STMTS) {
            gc_stmt *ns = &c->s[c->nstmts];
            ns->is_prev = 1;
            ns->ntrailers = 0;
            if (random_trailer(c, r, &ns->t[0]) == 0) {
                ns->ntrailers = 1;
                c->nstmts++;
                *stp = ns;
            }
        }
        break;
    }
}

static const gc_chain *parsed;           /* gc_mutate_parsed's */
static uint8_t parsed_from[GC_MAX_INPUT]; /* the bytes it was parsed from */
static size_t parsed_len;

void gc_mutate_parsed(const uint8_t *data, size_t size, const gc_chain *c)
{
    parsed = c && size <= sizeof parsed_from ? c : NULL;
    parsed_len = parsed ? size : 0;
    if (parsed_len)
        memcpy(parsed_from, data, size);
}

/* data[0..size) as a chain in *c: a copy of gc_mutate_parsed's when those are its bytes. */
static void parse_into(const uint8_t *data, size_t size, gc_chain *c)
{
    if (parsed && size == parsed_len && memcmp(data, parsed_from, size) == 0)
        gc_chain_copy(c, parsed);
    else
        gc_chain_parse(data, size, GC_PARSE_LENIENT, c, NULL);
}

size_t gc_mutate_chain(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    static gc_chain c;
    rng r = {seed * 2654435761u + 1u};
    emitted = NULL; /* c changes now */
    parse_into(data, size, &c);
    if (c.nstmts == 0) {
        c.nstmts = 1;
        if (random_root(&c, &r, &c.s[0]) < 0)
            return 0;
    }
    gc_stmt *st = &c.s[below(&r, (uint32_t)c.nstmts)];
    /* half the time: a trailer that fits the value the chain ends on, and then, each with
     * odds of one in two, up to three more, each fitting what the one before gave: a walk such as
     * tool('x').catalog.__globals__ adds nothing new to the engine's coverage until its end,
     * so its steps must come in one mutation */
    if (probe && below(&r, 2) == 0 && extend_fitting(&c, &r)) {
        for (int more = 0; more < 3 && below(&r, 2) && extend_fitting(&c, &r); more++)
            ;
        return emit(&c, data, max_size);
    }
    int rounds = 1 + (int)below(&r, 3);
    for (int i = 0; i < rounds; i++)
        edit_once(&c, &r, &st);
    return emit(&c, data, max_size);
}

size_t gc_crossover_chain(const uint8_t *a, size_t asz, const uint8_t *b, size_t bsz, uint8_t *out,
                          size_t max_out, unsigned seed)
{
    static gc_chain ca, cb;
    rng r = {seed * 2246822519u + 7u};
    if (emitted == &ca)
        emitted = NULL; /* ca changes now */
    parse_into(a, asz, &ca);
    parse_into(b, bsz, &cb);
    if (ca.nstmts == 0 || cb.nstmts == 0)
        return 0;
    /* graft: the head of a statement of a, then the tail of a statement of b */
    gc_stmt *sa = &ca.s[below(&r, (uint32_t)ca.nstmts)];
    const gc_stmt *sb = &cb.s[below(&r, (uint32_t)cb.nstmts)];
    int keep = (int)below(&r, (uint32_t)sa->ntrailers + 1);
    int from = (int)below(&r, (uint32_t)sb->ntrailers + 1);
    int n = keep;
    for (int j = from; j < sb->ntrailers && n < GC_MAX_TRAILERS; j++, n++) {
        gc_trailer t = sb->t[j];
        /* strings live in b's arena: copy them into a's */
        if ((t.kind == GC_T_ATTR || t.kind == GC_T_ITEM_STR || t.kind == GC_T_NAMED) &&
            gc_chain_intern(&ca, gc_chain_str(&cb, t.s), t.s.len, &t.s) < 0)
            break;
        for (int k = 0; k < t.nargs; k++)
            if (t.args[k].kind == GC_ARG_STR &&
                gc_chain_intern(&ca, gc_chain_str(&cb, t.args[k].s), t.args[k].s.len, &t.args[k].s) < 0)
                t.nargs = k;
        sa->t[n] = t;
    }
    sa->ntrailers = n;
    return emit(&ca, out, max_out);
}
