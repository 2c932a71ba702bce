/* program_mutator.c — edits on the program IR (program_mutator.h). */
#include "program_mutator.h"

#include <stdio.h>
#include <string.h>

#include "hash.h"
#include "program.h"
#include "rng.h"

/* Words every program may use besides the dictionary's: the adapters' result variable,
 * the exception name the try wrapper binds, and what an exception carries. */
static const char *const builtin_words[] = {"result", "e", "x", "obj", "args", "value", "name", "format"};
#define NBUILTIN ((int)(sizeof builtin_words / sizeof builtin_words[0]))

typedef struct {
    gc_program *p;
    uint32_t rng;
    const gc_pm_dict *d;
} edit;

/* The index of w in d->word (added when new and there is room), or -1. */
static int intern(gc_pm_dict *d, const char *w)
{
    char cut[64];
    snprintf(cut, sizeof cut, "%s", w);
    uint32_t h = gc_fnv1a32_str(GC_FNV32_OFFSET, cut);
    size_t nslots = sizeof d->slot / sizeof d->slot[0];
    for (size_t probe = 0; probe < nslots; probe++) {
        uint16_t *sl = &d->slot[(h + probe) % nslots];
        if (*sl && strcmp(d->word[*sl - 1], cut) == 0)
            return *sl - 1;
        if (!*sl) {
            if (d->n >= GC_PM_MAX_WORDS || !*cut)
                return -1;
            memcpy(d->word[d->n], cut, sizeof cut);
            *sl = (uint16_t)(++d->n);
            return d->n - 1;
        }
    }
    return -1;
}

/* Word k into list[*n] (room for max) unless it holds it: 1 if added. */
static int add_to(uint16_t *list, int *n, int max, int k)
{
    if (k < 0 || *n >= max)
        return 0;
    for (int i = 0; i < *n; i++)
        if (list[i] == k)
            return 0;
    list[(*n)++] = (uint16_t)k;
    return 1;
}

int gc_pm_dict_add(gc_pm_dict *d, const char *w)
{
    return add_to(d->pool, &d->npool, GC_PM_MAX_WORDS, intern(d, w));
}

int gc_pm_dict_add_root(gc_pm_dict *d, const char *w)
{
    gc_pm_dict_add(d, w);
    return add_to(d->root, &d->nroots, GC_PM_MAX_ROOTS, intern(d, w));
}

int gc_pm_dict_add_implicit(gc_pm_dict *d, const char *w)
{
    int k = intern(d, w);
    for (int i = 0; k >= 0 && i < d->nroots; i++)
        if (d->root[i] == k)
            return 0;
    return add_to(d->implicit, &d->nimplicit, GC_PM_MAX_IMPLICIT, k);
}

/* By an open-addressed table of the names (every value a walk or an outcome reaches asks). */
int gc_pm_dict_kind(gc_pm_dict *d, const char *kind)
{
    char cut[sizeof d->kind[0].name];
    snprintf(cut, sizeof cut, "%s", kind);
    uint32_t h = gc_fnv1a32_str(GC_FNV32_OFFSET, cut);
    size_t nslots = sizeof d->kslot / sizeof d->kslot[0];
    for (size_t probe = 0; probe < nslots; probe++) {
        uint16_t *sl = &d->kslot[(h + probe) % nslots];
        if (*sl && strcmp(d->kind[*sl - 1].name, cut) == 0)
            return *sl - 1;
        if (!*sl) {
            if (d->nkinds >= GC_PM_MAX_KINDS)
                return -1;
            int k = d->nkinds++;
            memcpy(d->kind[k].name, cut, sizeof cut);
            d->kind[k].n = d->kind[k].nleads = 0;
            *sl = (uint16_t)(k + 1);
            return k;
        }
    }
    return -1;
}

void gc_pm_dict_name_kind(gc_pm_dict *d, const char *name, int k)
{
    int w = k < 0 ? -1 : intern(d, name);
    if (w >= 0)
        d->name_kind[w] = (int16_t)(k + 1);
}

/* A walk path's key among the dictionary's words: '{' (no name has one) and the path. */
static int path_key(char *key, size_t cap, const char *path, size_t len)
{
    if (!len || len + 2 > cap)
        return 0;
    snprintf(key, cap, "{%.*s", (int)len, path);
    return 1;
}

int gc_pm_dict_path_kind(gc_pm_dict *d, const char *path, int k)
{
    char key[64];
    int before = d->n;
    if (path_key(key, sizeof key, path, strlen(path)))
        gc_pm_dict_name_kind(d, key, k);
    return d->n > before;
}

/* The kind a name was seen holding, or -1. */
static int kind_of_name(const gc_pm_dict *d, const char *s, size_t len)
{
    char cut[64];
    snprintf(cut, sizeof cut, "%.*s", (int)len, s);
    uint32_t h = gc_fnv1a32_str(GC_FNV32_OFFSET, cut);
    size_t nslots = sizeof d->slot / sizeof d->slot[0];
    for (size_t probe = 0; probe < nslots; probe++) {
        uint16_t sl = d->slot[(h + probe) % nslots];
        if (!sl)
            return -1;
        if (strcmp(d->word[sl - 1], cut) == 0)
            return d->name_kind[sl - 1] - 1;
    }
    return -1;
}

int gc_pm_dict_add_kind(gc_pm_dict *d, const char *kind, const char *w)
{
    int k = gc_pm_dict_kind(d, kind);
    return k < 0 ? 0 : add_to(d->kind[k].w, &d->kind[k].n, GC_PM_KIND_WORDS, intern(d, w));
}

int gc_pm_dict_add_lead(gc_pm_dict *d, int k, const char *w)
{
    if (k < 0 || k >= d->nkinds)
        return 0;
    int i = intern(d, w);
    add_to(d->kind[k].w, &d->kind[k].n, GC_PM_KIND_WORDS, i);
    return add_to(d->kind[k].lead, &d->kind[k].nleads, GC_PM_KIND_LEADS, i);
}

static uint32_t rnd(edit *x, uint32_t n)
{
    return n ? gc_xorshift32(&x->rng) % n : 0;
}

/* A word of the pool or a built-in one. */
static const char *word(edit *x)
{
    int nd = x->d ? x->d->npool : 0;
    int k = (int)rnd(x, (uint32_t)(nd + NBUILTIN));
    return k < nd ? x->d->word[x->d->pool[k]] : builtin_words[k - nd];
}

/* A name to start from: a root (half the time, when there are roots; an implicit one a
 * quarter of those times), else any word. */
static const char *root_word(edit *x)
{
    const gc_pm_dict *d = x->d;
    int nr = d ? d->nroots : 0, ni = d ? d->nimplicit : 0;
    if ((!nr && !ni) || !rnd(x, 2))
        return word(x);
    if (ni && (!nr || !rnd(x, 4)))
        return d->word[d->implicit[rnd(x, (uint32_t)ni)]];
    return d->word[d->root[rnd(x, (uint32_t)nr)]];
}

/* A word of kind k: half the time one of its leads, when it has some; NULL when it has none. */
static const char *kind_any(edit *x, int k)
{
    const gc_pm_dict *d = x->d;
    int n = k >= 0 && k < d->nkinds ? d->kind[k].n : 0, nl = n ? d->kind[k].nleads : 0;
    if (nl && rnd(x, 2))
        return d->word[d->kind[k].lead[rnd(x, (uint32_t)nl)]];
    return n ? d->word[d->kind[k].w[rnd(x, (uint32_t)n)]] : NULL;
}

/* A word of kind k with no leading '_' when the dialect refuses those (a few draws), else
 * any of its words; NULL when there is none. */
static const char *kind_word(edit *x, int k)
{
    for (int tries = 0; tries < 8; tries++) {
        const char *w = kind_any(x, k);
        if (!w || w[0] != '_' || (!x->d->no_underscore && tries > 0))
            return w;
    }
    return NULL;
}

/* An attribute name for node 'on': three times in four from the kind its name was seen
 * holding (a name node); else two times in three from the word list of one kind of value
 * (three times in four one the input reached, when known), else any word. */
/* Does kind k's word list hold w? */
static int kind_has(const gc_pm_dict *d, int k, const char *w)
{
    for (int i = 0; i < d->kind[k].n; i++)
        if (strcmp(d->word[d->kind[k].w[i]], w) == 0)
            return 1;
    return 0;
}

static const char *attr_word(edit *x, int on)
{
    const gc_p_expr *e = &x->p->e[on];
    int nk = x->d && e->op == GC_P_NAME ? kind_of_name(x->d, x->p->arena + e->s.off, e->s.len) : -1;
    const char *w = nk >= 0 && rnd(x, 4) ? kind_word(x, nk) : NULL;
    if (w)
        return w;
    if (!x->d || !x->d->nkinds || !rnd(x, 3))
        return word(x);
    int k = x->d->nfocus && rnd(x, 4) ? x->d->focus[rnd(x, (uint32_t)x->d->nfocus)]
                                      : (int)rnd(x, (uint32_t)x->d->nkinds);
    w = kind_word(x, k);
    return w ? w : word(x);
}

/* A name a check refuses to see written, for node 'on' (where it is made at run time: a
 * getattr's name built from parts, a node field's new value): a word with a leading '_' of
 * on's kind when its name's kind is known (three times in four one of its leads: the names
 * seen leading somewhere are the ones worth hiding), else of a kind the input reached or any
 * kind, a few draws; attr_word's when none had one. */
static const char *refused_word(edit *x, int on)
{
    const gc_p_expr *e = &x->p->e[on];
    const gc_pm_dict *d = x->d;
    int nk = d && e->op == GC_P_NAME ? kind_of_name(d, x->p->arena + e->s.off, e->s.len) : -1;
    for (int tries = 0; d && d->nkinds && tries < 8; tries++) {
        int k = nk >= 0 && tries < 6 ? nk
                : d->nfocus && rnd(x, 4) ? d->focus[rnd(x, (uint32_t)d->nfocus)]
                                         : (int)rnd(x, (uint32_t)d->nkinds);
        int nl = d->kind[k].nleads;
        const char *w = nl && rnd(x, 4) ? d->word[d->kind[k].lead[rnd(x, (uint32_t)nl)]] : kind_any(x, k);
        if (w && w[0] == '_')
            return w;
    }
    return attr_word(x, on);
}

/* s (len bytes) into the arena; a zero-length string when there is no room. */
static gc_p_str new_str(gc_program *p, const char *s, size_t len)
{
    gc_p_str r = {0, 0};
    if (len > GC_P_MAX_STRLEN)
        len = GC_P_MAX_STRLEN;
    if (p->arena_used + len > GC_P_ARENA)
        return r;
    memcpy(p->arena + p->arena_used, s, len);
    r.off = (uint16_t)p->arena_used;
    r.len = (uint16_t)len;
    p->arena_used += (uint32_t)len;
    return r;
}

/* A node over children kids[0..n): its index, or -1 past a bound. */
static int new_node(gc_program *p, uint8_t op, int n, const int *kids, gc_p_str s)
{
    int depth = 0;
    for (int k = 0; k < n; k++)
        if (p->e[kids[k]].depth > depth)
            depth = p->e[kids[k]].depth;
    if (p->nexprs >= GC_P_MAX_EXPRS || depth + 1 > GC_P_MAX_DEPTH)
        return -1;
    gc_p_expr *e = &p->e[p->nexprs];
    memset(e, 0, sizeof *e);
    e->op = op, e->n = (uint8_t)n, e->depth = (uint8_t)(depth + 1), e->s = s;
    for (int k = 0; k < n; k++)
        e->a[k] = (uint16_t)kids[k];
    return p->nexprs++;
}

/* A name, a string or an int literal. */
static int leaf(edit *x)
{
    uint32_t kind = rnd(x, 3);
    const char *w = kind == 0 ? root_word(x) : word(x);
    int k = new_node(x->p, kind == 2 ? GC_P_INT : kind ? GC_P_STR : GC_P_NAME, 0, NULL,
                     kind == 2 ? (gc_p_str){0, 0} : new_str(x->p, w, strlen(w)));
    if (k >= 0 && kind == 2)
        x->p->e[k].ival = (int8_t)(rnd(x, 5) - 1);
    return k;
}

/* An attribute (half the time), item or call trailer on node 'on'; a call has no argument
 * or one leaf. */
static int trailer(edit *x, int on)
{
    int kids[2] = {on, -1};
    switch (rnd(x, 4)) {
    case 0: case 1: {
        const char *w = attr_word(x, on);
        return new_node(x->p, GC_P_ATTR, 1, kids, new_str(x->p, w, strlen(w)));
    }
    case 2: return (kids[1] = leaf(x)) < 0 ? -1 : new_node(x->p, GC_P_ITEM, 2, kids, (gc_p_str){0, 0});
    default: {
        int args = (int)rnd(x, 2);
        if (args && (kids[1] = leaf(x)) < 0)
            return -1;
        return new_node(x->p, GC_P_CALL, 1 + args, kids, (gc_p_str){0, 0});
    }
    }
}

static int has_expr(const gc_p_stmt *st)
{
    return st->op == GC_P_EXPR || st->op == GC_P_ASSIGN || st->op == GC_P_RETURN || st->op == GC_P_YIELD;
}

/* A statement with an expression, or -1. */
static int pick_expr_stmt(edit *x)
{
    int n = x->p->nstmts, from = (int)rnd(x, (uint32_t)n);
    for (int k = 0; k < n; k++)
        if (has_expr(&x->p->s[(from + k) % n]))
            return (from + k) % n;
    return -1;
}

/* Room for one statement at i (later ones move up): 0 when the program is full. */
static int open_stmt(gc_program *p, int i)
{
    if (p->nstmts >= GC_P_MAX_STMTS)
        return 0;
    memmove(&p->s[i + 1], &p->s[i], (size_t)(p->nstmts - i) * sizeof p->s[0]);
    memset(&p->s[i], 0, sizeof p->s[i]);
    p->nstmts++;
    return 1;
}

/* The indentation a statement inserted at i gets: inside the block the previous line opens. */
static uint8_t depth_at(const gc_program *p, int i)
{
    if (i == 0)
        return 0;
    const gc_p_stmt *prev = &p->s[i - 1];
    return (uint8_t)(prev->depth + gc_p_has_body(prev->op));
}

static int insert_stmt(edit *x)
{
    gc_program *p = x->p;
    int i = (int)rnd(x, (uint32_t)p->nstmts + 1);
    int e = p->nexprs && rnd(x, 2) ? (int)rnd(x, (uint32_t)p->nexprs) : leaf(x);
    if (e >= 0 && rnd(x, 2))
        e = trailer(x, e);
    if (e < 0 || !open_stmt(p, i))
        return 0;
    const char *w = rnd(x, 2) ? "result" : word(x);
    p->s[i].op = rnd(x, 3) ? GC_P_ASSIGN : GC_P_EXPR;
    p->s[i].depth = depth_at(p, i);
    p->s[i].expr = (uint16_t)e;
    p->s[i].s = new_str(p, w, strlen(w));
    return 1;
}

static int drop_stmt(edit *x)
{
    gc_program *p = x->p;
    if (p->nstmts < 2)
        return 0;
    int i = (int)rnd(x, (uint32_t)p->nstmts);
    memmove(&p->s[i], &p->s[i + 1], (size_t)(p->nstmts - i - 1) * sizeof p->s[0]);
    p->nstmts--;
    return 1;
}

/* Replace a statement's expression (a new leaf, another node) or add or drop a trailer. */
static int change_expr(edit *x, int how)
{
    int i = pick_expr_stmt(x), e;
    if (i < 0)
        return 0;
    gc_p_stmt *st = &x->p->s[i];
    const gc_p_expr *cur = &x->p->e[st->expr];
    if (how == 0)
        e = rnd(x, 2) ? leaf(x) : (int)rnd(x, (uint32_t)x->p->nexprs);
    else if (how == 1)
        e = trailer(x, st->expr);
    else if (cur->op == GC_P_ATTR || cur->op == GC_P_ITEM || cur->op == GC_P_CALL || cur->op == GC_P_FMT)
        e = cur->a[0];
    else
        return 0;
    if (e < 0)
        return 0;
    st->expr = (uint16_t)e;
    return 1;
}

static int exception_value(edit *x, int name, const char *r);

/* try: <statement> except Exception as e: result = e (with 'read', what the exception
 * carries: result = e.<read>, exception_value's) */
static int try_reading(edit *x, const char *read)
{
    gc_program *p = x->p;
    int i = pick_expr_stmt(x);
    if (i < 0 || p->s[i].depth + 1 >= GC_P_MAX_BLOCKS || p->nstmts + 3 > GC_P_MAX_STMTS)
        return 0;
    int name = new_node(p, GC_P_NAME, 0, NULL, new_str(p, "e", 1));
    if (name >= 0 && read)
        name = exception_value(x, name, read);
    if (name < 0)
        return 0;
    uint8_t d = p->s[i].depth;
    open_stmt(p, i);
    p->s[i] = (gc_p_stmt){.op = GC_P_TRY, .depth = d};
    p->s[i + 1].depth = (uint8_t)(d + 1);
    open_stmt(p, i + 2);
    p->s[i + 2] = (gc_p_stmt){.op = GC_P_EXCEPT, .depth = d, .s = new_str(p, "e", 1)};
    open_stmt(p, i + 3);
    p->s[i + 3] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = (uint8_t)(d + 1), .expr = (uint16_t)name,
                              .s = new_str(p, "result", 6)};
    return 1;
}

static int wrap_in_try(edit *x)
{
    return try_reading(x, NULL);
}

/* A name node n becomes an alias: 'aK = n' first, then every use of n says aK. */
static int alias_name(edit *x)
{
    gc_program *p = x->p;
    int n = -1, from = (int)rnd(x, (uint32_t)p->nexprs);
    for (int k = 0; k < p->nexprs && n < 0; k++)
        if (p->e[(from + k) % p->nexprs].op == GC_P_NAME)
            n = (from + k) % p->nexprs;
    if (n < 0)
        return 0;
    int copy = new_node(p, GC_P_NAME, 0, NULL, p->e[n].s);
    char alias[4] = {'a', (char)('0' + rnd(x, 10)), 0, 0};
    gc_p_str as = new_str(p, alias, 2);
    if (copy < 0 || as.len == 0 || !open_stmt(p, 0))
        return 0;
    p->s[0] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 0, .expr = (uint16_t)copy, .s = as};
    p->e[n].s = as;
    return 1;
}

/* e.a.b (attribute nodes) becomes '{0.a.b}'.format(e): the walk moves into the string. */
static int attr_to_format(edit *x)
{
    gc_program *p = x->p;
    int k = -1, from = (int)rnd(x, (uint32_t)p->nexprs);
    for (int j = 0; j < p->nexprs && k < 0; j++)
        if (p->e[(from + j) % p->nexprs].op == GC_P_ATTR)
            k = (from + j) % p->nexprs;
    if (k < 0)
        return 0;
    const char *parts[GC_P_MAX_DEPTH];
    int lens[GC_P_MAX_DEPTH], np = 0, base = k;
    for (; p->e[base].op == GC_P_ATTR && np < GC_P_MAX_DEPTH; base = p->e[base].a[0], np++)
        parts[np] = p->arena + p->e[base].s.off, lens[np] = p->e[base].s.len;
    char field[GC_P_MAX_STRLEN];
    size_t len = 0;
    for (int j = np - 1; j >= 0; j--) {
        if (len + (size_t)lens[j] + (j < np - 1) > sizeof field)
            break;
        if (j < np - 1)
            field[len++] = '.';
        memcpy(field + len, parts[j], (size_t)lens[j]);
        len += (size_t)lens[j];
    }
    p->e[k].op = GC_P_FMT;
    p->e[k].a[0] = (uint16_t)base;
    p->e[k].s = new_str(p, field, len);
    return 1;
}

/* Every use of node 'from' (in statements and other nodes but 'skip') becomes 'to'. */
static void redirect_but(gc_program *p, int from, int to, int skip)
{
    for (int j = 0; j < p->nexprs; j++)
        for (int c = 0; j != skip && c < p->e[j].n; c++)
            if (p->e[j].a[c] == from)
                p->e[j].a[c] = (uint16_t)to;
    for (int i = 0; i < p->nstmts; i++)
        if (p->s[i].expr == from)
            p->s[i].expr = (uint16_t)to;
}

/* Every use of node 'from' (in statements and other nodes but 'to') becomes 'to'. */
static void redirect(gc_program *p, int from, int to)
{
    redirect_but(p, from, to, to);
}

/* Which nodes the statements use (in[k]), and which are the base of a trailer (based[k]).
 * Children have lower indices than their parents (a freshly decoded program). */
static void node_uses(const gc_program *p, uint8_t *in, uint8_t *based)
{
    memset(in, 0, (size_t)p->nexprs);
    memset(based, 0, (size_t)p->nexprs);
    for (int i = 0; i < p->nstmts; i++)
        if (p->s[i].expr < p->nexprs && (has_expr(&p->s[i]) || p->s[i].op == GC_P_FOR))
            in[p->s[i].expr] = 1;
    for (int j = p->nexprs; j-- > 0;) {
        const gc_p_expr *e = &p->e[j];
        for (int c = 0; in[j] && c < e->n; c++)
            in[e->a[c]] = 1;
        if (e->op == GC_P_ATTR || e->op == GC_P_ITEM || e->op == GC_P_CALL)
            based[e->a[0]] = 1;
    }
}

/* A node the program uses, of the ops in 'ops' (a bit per op, the ops below 32; 0: any) and not the base of a
 * trailer when 'tip': its index, or -1. */
static int pick_node(edit *x, uint32_t ops, int tip)
{
    static uint8_t in[GC_P_MAX_EXPRS], based[GC_P_MAX_EXPRS];
    gc_program *p = x->p;
    node_uses(p, in, based);
    int n = p->nexprs, from = (int)rnd(x, (uint32_t)(n ? n : 1));
    for (int k = 0; k < n; k++) {
        int j = (from + k) % n;
        if (in[j] && (!ops || (p->e[j].op < 32 && (ops >> p->e[j].op & 1))) && !(tip && based[j]))
            return j;
    }
    return -1;
}

/* A trailer on node k (every use of k then uses the trailer). */
static int trailer_on(edit *x, int k)
{
    int n = k < 0 ? -1 : trailer(x, k);
    if (n < 0)
        return 0;
    redirect(x->p, k, n);
    return 1;
}

/* A trailer on any expression of the program, not only a statement's own (the walk inside
 * a generator's element, a call's argument). */
static int trailer_anywhere(edit *x)
{
    return trailer_on(x, pick_node(x, 0, 0));
}

/* A walk made one step longer: a trailer on the end of one (an attribute, item or call not
 * itself walked on, half the time; else a name). */
static int extend_walk(edit *x)
{
    uint32_t trailers = 1u << GC_P_ATTR | 1u << GC_P_ITEM | 1u << GC_P_CALL;
    int k = rnd(x, 2) ? pick_node(x, trailers, 1) : -1;
    return trailer_on(x, k >= 0 ? k : pick_node(x, 1u << GC_P_NAME, 1));
}

/* The names the program binds: assignments, except, def and for targets, comprehension and
 * generator variables.  How many went into names[]. */
static int bound_names(const gc_program *p, gc_p_str *names, int max)
{
    int n = 0;
    for (int i = 0; i < p->nstmts && n < max; i++)
        if (p->s[i].op == GC_P_ASSIGN || p->s[i].op == GC_P_EXCEPT || p->s[i].op == GC_P_DEF ||
            p->s[i].op == GC_P_FOR || p->s[i].op == GC_P_ASYNCDEF)
            names[n++] = p->s[i].s;
    for (int j = 0; j < p->nexprs && n < max; j++)
        if (p->e[j].op == GC_P_COMP || p->e[j].op == GC_P_GEN)
            names[n++] = p->e[j].s;
    return n;
}

/* An expression becomes a name the program binds (a generator's element its own variable). */
static int use_bound_name(edit *x)
{
    gc_program *p = x->p;
    gc_p_str names[GC_P_MAX_STMTS + GC_P_MAX_EXPRS];
    int n = bound_names(p, names, (int)(sizeof names / sizeof names[0]));
    if (!n || !p->nexprs)
        return 0;
    int k = pick_node(x, 0, 0);
    if (k < 0)
        return 0;
    gc_p_expr *e = &p->e[k];
    memset(e, 0, sizeof *e);
    e->op = GC_P_NAME;
    e->depth = 1;
    e->s = names[rnd(x, (uint32_t)n)];
    return 1;
}

/* The name nodes beneath node i (not i itself) into out[*n] (room for max). */
static void names_under(const gc_program *p, int i, int *out, int *n, int max)
{
    const gc_p_expr *e = &p->e[i];
    for (int c = 0; c < e->n; c++) {
        if (p->e[e->a[c]].op == GC_P_NAME && *n < max)
            out[(*n)++] = e->a[c];
        names_under(p, e->a[c], out, n, max);
    }
}

/* A name inside an assignment's value becomes the name assigned: 'g = (g for x in it)', a
 * value that refers to itself (a generator reaching its own frame while it runs). */
static int self_reference(edit *x)
{
    gc_program *p = x->p;
    int i = pick_expr_stmt(x), names[GC_P_MAX_EXPRS], n = 0;
    if (i < 0 || p->s[i].op != GC_P_ASSIGN)
        return 0;
    names_under(p, p->s[i].expr, names, &n, GC_P_MAX_EXPRS);
    if (!n)
        return 0;
    p->e[names[rnd(x, (uint32_t)n)]].s = p->s[i].s;
    return 1;
}

/* Statements from a top-level one i to the end move into 'def fK():', the last one
 * returned; then 'result = fK()'. */
static int wrap_in_def(edit *x)
{
    gc_program *p = x->p;
    int i = pick_expr_stmt(x);
    if (i < 0 || p->s[i].depth != 0 || p->nstmts + 3 > GC_P_MAX_STMTS)
        return 0;
    char fname[3] = {'f', (char)('0' + rnd(x, 10)), 0};
    gc_p_str fs = new_str(p, fname, 2), rs = new_str(p, "result", 6);
    int f = new_node(p, GC_P_NAME, 0, NULL, fs), call = f < 0 ? -1 : new_node(p, GC_P_CALL, 1, &f, (gc_p_str){0, 0});
    gc_p_stmt *last = &p->s[p->nstmts - 1];
    int ret = last->op == GC_P_ASSIGN ? new_node(p, GC_P_NAME, 0, NULL, last->s) : -1;
    if (call < 0 || fs.len == 0 || (last->op == GC_P_ASSIGN && ret < 0))
        return 0;
    for (int j = i; j < p->nstmts; j++)
        p->s[j].depth++;
    if (last->op == GC_P_EXPR)
        last->op = GC_P_RETURN;
    if (ret >= 0)
        p->s[p->nstmts++] = (gc_p_stmt){.op = GC_P_RETURN, .depth = 1, .expr = (uint16_t)ret};
    open_stmt(p, i);
    p->s[i] = (gc_p_stmt){.op = GC_P_DEF, .depth = 0, .s = fs};
    p->s[p->nstmts++] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 0, .expr = (uint16_t)call, .s = rs};
    return 1;
}

/* A statement's expression e becomes (v for v in e) or [v for v in e]; or a comprehension
 * of the program turns into a generator, or back. */
static int to_generator(edit *x)
{
    gc_program *p = x->p;
    for (int j = 0; j < p->nexprs && rnd(x, 2); j++)
        if (p->e[j].op == GC_P_COMP || p->e[j].op == GC_P_GEN) {
            p->e[j].op = p->e[j].op == GC_P_COMP ? GC_P_GEN : GC_P_COMP;
            return 1;
        }
    int i = pick_expr_stmt(x);
    if (i < 0)
        return 0;
    const char *v = rnd(x, 2) ? "x" : "v";
    gc_p_str vs = new_str(p, v, 1);
    int kids[2] = {new_node(p, GC_P_NAME, 0, NULL, vs), p->s[i].expr};
    int g = kids[0] < 0 ? -1 : new_node(p, rnd(x, 2) ? GC_P_GEN : GC_P_COMP, 2, kids, vs);
    if (g < 0)
        return 0;
    p->s[i].expr = (uint16_t)g;
    return 1;
}

/* A statement 'e' becomes 'for v in e:' with 'result = v' in its body. */
static int to_for(edit *x)
{
    gc_program *p = x->p;
    int i = pick_expr_stmt(x);
    if (i < 0 || p->s[i].depth + 1 >= GC_P_MAX_BLOCKS || p->nstmts + 1 > GC_P_MAX_STMTS)
        return 0;
    gc_p_str vs = new_str(p, "v", 1);
    int name = new_node(p, GC_P_NAME, 0, NULL, vs);
    if (name < 0)
        return 0;
    uint8_t d = p->s[i].depth;
    p->s[i].op = GC_P_FOR;
    p->s[i].s = vs;
    open_stmt(p, i + 1);
    p->s[i + 1] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = (uint8_t)(d + 1), .expr = (uint16_t)name,
                              .s = new_str(p, "result", 6)};
    return 1;
}

/* ---- techniques: the published escape classes, each a named edit (program_mutator.h) ---- */

/* A node built on 'on': an attribute 'w', then (call >= 0) a call with call arguments (the
 * leaf 'arg' when call is 1).  Its index, or -1. */
static int method_on(edit *x, int on, const char *w, int call, int arg)
{
    int kids[2] = {on, arg};
    int a = new_node(x->p, GC_P_ATTR, 1, kids, new_str(x->p, w, strlen(w)));
    if (a < 0 || call < 0)
        return a;
    kids[0] = a;
    return call && arg < 0 ? -1 : new_node(x->p, GC_P_CALL, 1 + call, kids, (gc_p_str){0, 0});
}

/* Node 'top', built over k with 'first' its node whose child k is, takes k's place. */
static int take_place(edit *x, int k, int first, int top)
{
    if (top < 0)
        return 0;
    redirect_but(x->p, k, top, first);
    return 1;
}

/* The node built first on k: the deepest node of top's first-child line whose child is k. */
static int first_on(const gc_program *p, int top, int k)
{
    int j = top;
    while (p->e[j].n && p->e[j].a[0] != k)
        j = p->e[j].a[0];
    return j;
}

/* A word any kind of value has, '_' words too (a field or a method's argument is data, no
 * dialect hides it); else a word of the pool. */
static const char *data_word(edit *x)
{
    if (x->d && x->d->nkinds && rnd(x, 4)) {
        int k = x->d->nfocus && rnd(x, 2) ? x->d->focus[rnd(x, (uint32_t)x->d->nfocus)]
                                          : (int)rnd(x, (uint32_t)x->d->nkinds);
        const char *w = kind_any(x, k);
        if (w)
            return w;
    }
    return word(x);
}

/* w's identifier characters (at most cap - 1) into out: its length. */
static size_t ident_copy(const char *w, char *out, size_t cap)
{
    size_t n = 0;
    for (; *w && n + 1 < cap; w++)
        if ((*w >= 'a' && *w <= 'z') || (*w >= 'A' && *w <= 'Z') || (*w >= '0' && *w <= '9') || *w == '_')
            out[n++] = *w;
    out[n] = 0;
    return n;
}

/* The kind the field path field[len] reached when an input ran it (walk feedback: the
 * dictionary's `{PATH` key; a leading index and '.' are not part of the path), or -1. */
static int field_kind(const gc_pm_dict *d, const char *field, size_t len)
{
    while (len && *field >= '0' && *field <= '9')
        field++, len--;
    if (len && *field == '.')
        field++, len--;
    char key[64];
    return d && path_key(key, sizeof key, field, len) ? kind_of_name(d, key, len + 1) : -1;
}

/* Does field[len] have no part yet (nothing, or only its leading index)? */
static int field_empty(const char *field, size_t len)
{
    while (len && *field >= '0' && *field <= '9')
        field++, len--;
    return len == 0;
}

/* One field part appended to field[*len] when it fits: three times in four, when the path
 * is known to reach a kind of value (or, for its first part, when 'base' is a name node
 * whose kind is known), a word of that kind ('[w]' on a module's namespace, else '.w');
 * else '.w' three times in four, or '[k]' (a small index or a word). */
static void field_part(edit *x, char *field, size_t *len, int base)
{
    char w[GC_P_MAX_STRLEN], part[GC_P_MAX_STRLEN + 4];
    const gc_p_expr *b = base >= 0 ? &x->p->e[base] : NULL;
    int n, k = field_kind(x->d, field, *len);
    if (k < 0 && b && b->op == GC_P_NAME && x->d && field_empty(field, *len))
        k = kind_of_name(x->d, x->p->arena + b->s.off, b->s.len);
    int kn = k >= 0 ? x->d->kind[k].n : 0;
    if (kn && rnd(x, 4)) {
        int keys = gc_pm_kind_is_globals(x->d->kind[k].name);
        const char *kw = kind_any(x, k);
        n = ident_copy(kw, w, sizeof w) ? snprintf(part, sizeof part, keys ? "[%s]" : ".%s", w) : 0;
    } else if (rnd(x, 4))
        n = ident_copy(data_word(x), w, sizeof w) ? snprintf(part, sizeof part, ".%s", w) : 0;
    else if (rnd(x, 2))
        n = snprintf(part, sizeof part, "[%u]", (unsigned)rnd(x, 3));
    else
        n = ident_copy(word(x), w, sizeof w) ? snprintf(part, sizeof part, "[%s]", w) : 0;
    if (n > 0 && *len + (size_t)n <= GC_P_MAX_STRLEN)
        memcpy(field + *len, part, (size_t)n), *len += (size_t)n;
}

/* The walk ending at node k (attributes; items keyed by an int >= 0 or a name-like string)
 * as a field of parts into field[*len]: the walk's base, or -1 when k is no such step or
 * the field would be too long. */
static int walk_field(const gc_program *p, int k, char *field, size_t *len)
{
    char tmp[GC_P_MAX_STRLEN + 8];
    size_t at = sizeof tmp; /* built from the end */
    for (;;) {
        const gc_p_expr *e = &p->e[k], *key = e->op == GC_P_ITEM ? &p->e[e->a[1]] : NULL;
        char part[GC_P_MAX_STRLEN + 4], w[GC_P_MAX_STRLEN + 1];
        int n = 0;
        snprintf(w, sizeof w, "%.*s", e->s.len, p->arena + e->s.off);
        if (e->op == GC_P_ATTR)
            n = snprintf(part, sizeof part, ".%s", w);
        else if (key && key->op == GC_P_INT && key->ival >= 0)
            n = snprintf(part, sizeof part, "[%d]", key->ival);
        else if (key && key->op == GC_P_STR && key->s.len) {
            snprintf(w, sizeof w, "%.*s", key->s.len, p->arena + key->s.off);
            n = ident_copy(w, w, sizeof w) == key->s.len ? snprintf(part, sizeof part, "[%s]", w) : 0;
        }
        if (n <= 0)
            break;
        if ((size_t)n > at || sizeof tmp - at + (size_t)n > GC_P_MAX_STRLEN)
            return -1;
        memcpy(tmp + (at -= (size_t)n), part, (size_t)n);
        k = e->a[0];
    }
    *len = sizeof tmp - at;
    memcpy(field, tmp + at, *len);
    return *len ? k : -1;
}

/* A string literal k as a field path one part longer ('0' first when it is none): the
 * argument of a function that walks a field itself (string.Formatter's get_field, vformat). */
static int field_string(edit *x, int k)
{
    gc_p_expr *e = &x->p->e[k];
    const char *s = x->p->arena + e->s.off;
    int path = e->s.len > 0 && s[0] >= '0' && s[0] <= '9';
    for (int i = 0; path && i < e->s.len; i++)
        path = strchr("._[]", s[i]) || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
               (s[i] >= '0' && s[i] <= '9');
    char field[GC_P_MAX_STRLEN];
    size_t len = path ? e->s.len : 1;
    memcpy(field, path ? s : "0", len);
    field_part(x, field, &len, -1);
    e->s = new_str(x->p, field, len);
    return 1;
}

/* Format-field walks (the CVE-2023-41039 class, RestrictedPython: the format string is data,
 * the walk of '.attr' and '[key]' runs in the host): an attribute and item walk becomes
 * '{0.a[k]}'.format(x); a field walk gets one part more, or turns into format_map's; a string
 * literal becomes a field path (field_string); or a value gets a field of one part. */
static int format_walk(edit *x)
{
    gc_program *p = x->p;
    char field[GC_P_MAX_STRLEN];
    size_t len = 0;
    int k = rnd(x, 4) ? -1 : pick_node(x, 1u << GC_P_STR, 0);
    if (k >= 0)
        return field_string(x, k);
    k = rnd(x, 2) ? pick_node(x, 1u << GC_P_FIELD | 1u << GC_P_FMTMAP, 0) : -1;
    if (k >= 0) {
        gc_p_expr *e = &p->e[k];
        if (!rnd(x, 4)) {
            e->op = e->op == GC_P_FIELD ? GC_P_FMTMAP : GC_P_FIELD;
            return 1;
        }
        memcpy(field, p->arena + e->s.off, len = e->s.len);
        field_part(x, field, &len, e->a[0]);
        e->s = new_str(p, field, len);
        return 1;
    }
    k = pick_node(x, 1u << GC_P_ATTR | 1u << GC_P_ITEM, 1);
    int base = k >= 0 && rnd(x, 3) ? walk_field(p, k, field, &len) : -1;
    if (base >= 0) {
        gc_p_expr *e = &p->e[k];
        e->op = rnd(x, 4) ? GC_P_FIELD : GC_P_FMTMAP, e->n = 1, e->a[0] = (uint16_t)base;
        e->s = new_str(p, field, len);
        return 1;
    }
    if ((k = pick_node(x, 0, 0)) < 0)
        return 0;
    field_part(x, field, &len, k);
    int f = new_node(p, rnd(x, 4) ? GC_P_FIELD : GC_P_FMTMAP, 1, &k, new_str(p, field, len));
    return take_place(x, k, f, f);
}

/* Frame steps (the CVE-2023-37271 class) after node k: up to five f_back hops, then, half
 * the time, a frame's globals, builtins or locals. */
static int frame_tail(edit *x, int k)
{
    static const char *const reads[] = {"f_globals", "f_builtins", "f_locals"};
    for (int hops = (int)rnd(x, 6); hops > 0 && k >= 0; hops--)
        k = method_on(x, k, "f_back", -1, -1);
    return k >= 0 && rnd(x, 2) ? method_on(x, k, reads[rnd(x, 3)], -1, -1) : k;
}

/* What an exception carries (the CVE-2024-47532 class: AttributeError.obj and .name,
 * KeyError/IndexError args, StopIteration.value, the traceback's frame), read from the
 * exception node 'name': the read's index, or -1. */
static const char *const exception_reads[] = {"obj", "name", "args", "value", "__traceback__", "__context__"};
#define NREADS (sizeof exception_reads / sizeof exception_reads[0])

static int exception_value(edit *x, int name, const char *r)
{
    int k = method_on(x, name, r, -1, -1), kids[2] = {k, -1};
    if (k >= 0 && r[0] == 'a') { /* args[0] */
        if ((kids[1] = new_node(x->p, GC_P_INT, 0, NULL, (gc_p_str){0, 0})) < 0)
            return -1;
        k = new_node(x->p, GC_P_ITEM, 2, kids, (gc_p_str){0, 0});
    }
    if (k >= 0 && r[0] == '_' && r[2] == 't')
        k = frame_tail(x, method_on(x, k, "tb_frame", -1, -1));
    return k;
}

/* '.w' on node 'on' with a w its value most likely lacks (a data word not among the words
 * of on's kind, when that is known; one the dialect can write), so that the lookup raises
 * AttributeError, whose .obj and .name give back what the lookup went to: the object behind
 * a proxy's or a view's __getattr__.  Its index, or -1. */
static int absent_attr(edit *x, int on)
{
    const gc_p_expr *e = &x->p->e[on];
    int k = x->d && e->op == GC_P_NAME ? kind_of_name(x->d, x->p->arena + e->s.off, e->s.len) : -1;
    char w[GC_P_MAX_STRLEN];
    for (int tries = 0; tries < 8; tries++)
        if (ident_copy(data_word(x), w, sizeof w) && (w[0] != '_' || !x->d || !x->d->no_underscore) &&
            (k < 0 || !kind_has(x->d, k, w)))
            return method_on(x, on, w, -1, -1);
    return -1;
}

/* A format field's walk (node k, '{0.PATH}'.format(x) or format_map's) one part longer by
 * an attribute no object has (GC_PM_ABSENT): the host's walk fails on its last part, and
 * the AttributeError's obj is what PATH reached, read back whole though the walk gave only
 * a string (the format-string and readback classes composed, as the source sweep's
 * readback_code writes them).  k, or -1 when the path is full. */
static int absent_field(edit *x, int k)
{
    gc_p_expr *e = &x->p->e[k];
    char field[GC_P_MAX_STRLEN + 1];
    int n = snprintf(field, sizeof field, "%.*s." GC_PM_ABSENT, (int)e->s.len, x->p->arena + e->s.off);
    if (n < 0 || n > GC_P_MAX_STRLEN)
        return -1;
    e->s = new_str(x->p, field, (size_t)n);
    return k;
}

/* Objects read back from exceptions: try: <statement, half the time one step longer, so
 * that it may fail there> except Exception as e: result = e.obj (or another read); or an
 * except the program has gets 'result = <its name>.<read>'.  For AttributeError's reads
 * (obj, name) the longer step is, three times in four, a name the value lacks; on a format
 * field's walk, a part it lacks (absent_field). */
static int exception_read(edit *x)
{
    gc_program *p = x->p;
    const char *r = exception_reads[rnd(x, NREADS)];
    int from = (int)rnd(x, (uint32_t)p->nstmts + 1), scan = rnd(x, 3) == 0;
    for (int k = 0; scan && k < p->nstmts; k++) {
        int i = (from + k) % p->nstmts;
        if (p->s[i].op != GC_P_EXCEPT)
            continue;
        int name = new_node(p, GC_P_NAME, 0, NULL, p->s[i].s), read = name < 0 ? -1 : exception_value(x, name, r);
        if (read < 0 || !open_stmt(p, i + 1))
            return 0;
        p->s[i + 1] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = (uint8_t)(p->s[i].depth + 1), .expr = (uint16_t)read,
                                  .s = new_str(p, "result", 6)};
        return 1;
    }
    int lookup = (r[0] == 'o' || r[0] == 'n') && rnd(x, 4);
    if (lookup || rnd(x, 2)) {
        int i = pick_expr_stmt(x), op = i < 0 ? -1 : p->e[p->s[i].expr].op, t = -1;
        if (i >= 0 && lookup)
            t = op == GC_P_FIELD || op == GC_P_FMTMAP ? absent_field(x, p->s[i].expr) : absent_attr(x, p->s[i].expr);
        else if (i >= 0)
            t = trailer(x, p->s[i].expr);
        if (t >= 0)
            p->s[i].expr = (uint16_t)t;
    }
    return try_reading(x, r);
}

/* Does node i hold node k (itself included)?  'budget' bounds the visit. */
static int holds(const gc_program *p, int i, int k, int *budget)
{
    if (i == k || --*budget < 0)
        return 1;
    for (int c = 0; c < p->e[i].n; c++)
        if (holds(p, p->e[i].a[c], k, budget))
            return 1;
    return 0;
}

/* One of the program's own values, not holding node 'avoid': a name it binds, a list or
 * tuple of one or two of them, or an earlier statement's expression.  Its index, or -1. */
static int own_value(edit *x, int avoid)
{
    gc_program *p = x->p;
    gc_p_str names[GC_P_MAX_STMTS + GC_P_MAX_EXPRS];
    int n = bound_names(p, names, (int)(sizeof names / sizeof names[0])), how = (int)rnd(x, 3);
    if (how == 2 || !n) {
        int i = pick_expr_stmt(x), budget = 4096;
        return i >= 0 && !holds(p, p->s[i].expr, avoid, &budget) ? p->s[i].expr : -1;
    }
    int kids[2] = {new_node(p, GC_P_NAME, 0, NULL, names[rnd(x, (uint32_t)n)]), -1};
    if (how == 0 || kids[0] < 0)
        return kids[0];
    int m = 1 + (int)rnd(x, 2);
    if (m == 2 && (kids[1] = new_node(p, GC_P_NAME, 0, NULL, names[rnd(x, (uint32_t)n)])) < 0)
        return -1;
    return new_node(p, rnd(x, 2) ? GC_P_LIST : GC_P_TUPLE, m, kids, (gc_p_str){0, 0});
}

/* Calls with the program's own values as arguments (not only literals and harvested
 * strings): a call of the program gets one more (or one replaced), or a value is called
 * with one. */
static int call_own_values(edit *x)
{
    gc_program *p = x->p;
    int k = rnd(x, 4) ? pick_node(x, 1u << GC_P_CALL, 0) : -1;
    if (k >= 0) {
        int arg = own_value(x, k);
        gc_p_expr *e = &p->e[k];
        if (arg < 0)
            return 0;
        int at = e->n < GC_P_MAX_ARGS + 1 ? e->n++ : 1 + (int)rnd(x, GC_P_MAX_ARGS);
        e->a[at] = (uint16_t)arg;
        return 1;
    }
    if ((k = pick_node(x, 0, 0)) < 0)
        return 0;
    int kids[2] = {k, own_value(x, k)};
    int c = kids[1] < 0 ? -1 : new_node(p, GC_P_CALL, 2, kids, (gc_p_str){0, 0});
    return take_place(x, k, c, c);
}

/* A name node of s, or -1. */
static int name_node(gc_program *p, const char *s)
{
    return new_node(p, GC_P_NAME, 0, NULL, new_str(p, s, strlen(s)));
}

/* The running frame of a generator, the source sweep's generator root (source_sweep.c):
 * 'def fK():' / 'g = (g.gi_frame<frame_tail> for x in [1])' / 'return [y for y in g]' /
 * 'result = fK()' appended: the walk runs while the generator's frame is live. */
static int running_generator(edit *x)
{
    gc_program *p = x->p;
    char fname[3] = {'f', (char)('0' + rnd(x, 10)), 0};
    int one = new_node(p, GC_P_INT, 0, NULL, (gc_p_str){0, 0});
    int it = one < 0 ? -1 : new_node(p, GC_P_LIST, 1, &one, (gc_p_str){0, 0});
    int elt = frame_tail(x, method_on(x, name_node(p, "g"), "gi_frame", -1, -1));
    int gen[2] = {elt, it}, comp[2] = {name_node(p, "y"), name_node(p, "g")}, f = name_node(p, fname);
    int g = elt < 0 || it < 0 ? -1 : new_node(p, GC_P_GEN, 2, gen, new_str(p, "x", 1));
    int c = comp[0] < 0 || comp[1] < 0 ? -1 : new_node(p, GC_P_COMP, 2, comp, new_str(p, "y", 1));
    int call = f < 0 ? -1 : new_node(p, GC_P_CALL, 1, &f, (gc_p_str){0, 0});
    if (g < 0 || c < 0 || call < 0 || p->nstmts + 4 > GC_P_MAX_STMTS)
        return 0;
    gc_p_stmt *s = &p->s[p->nstmts];
    s[0] = (gc_p_stmt){.op = GC_P_DEF, .depth = 0, .s = new_str(p, fname, 2)};
    s[1] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 1, .expr = (uint16_t)g, .s = new_str(p, "g", 1)};
    s[2] = (gc_p_stmt){.op = GC_P_RETURN, .depth = 1, .expr = (uint16_t)c};
    s[3] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 0, .expr = (uint16_t)call, .s = new_str(p, "result", 6)};
    p->nstmts += 4;
    return 1;
}

/* The running frame of a coroutine or an async generator the program steps itself, the
 * source sweep's coroutine and async-generator roots, appended ('a' for 'c' and 'asend'):
 *     async def fK():
 *         return c.cr_frame<frame_tail>      /  yield a.ag_frame<frame_tail>
 *     c = fK()
 *     try:
 *         c.send(None)                        /  a.asend(None).send(None)
 *     except Exception as e:
 *         result = e.value
 * the value read back from the StopIteration that ends the step. */
static int running_async(edit *x, int agen)
{
    gc_program *p = x->p;
    char fname[3] = {'f', (char)('0' + rnd(x, 10)), 0};
    const char *v = agen ? "a" : "c";
    int elt = frame_tail(x, method_on(x, name_node(p, v), agen ? "ag_frame" : "cr_frame", -1, -1));
    int f = name_node(p, fname), call = f < 0 ? -1 : new_node(p, GC_P_CALL, 1, &f, (gc_p_str){0, 0});
    int none = new_node(p, GC_P_NONE, 0, NULL, (gc_p_str){0, 0}), obj = name_node(p, v);
    int stepped = agen ? method_on(x, obj, "asend", 1, none) : obj;
    int sent = stepped < 0 || none < 0 ? -1 : method_on(x, stepped, "send", 1, none);
    int e = name_node(p, "e"), value = e < 0 ? -1 : method_on(x, e, "value", -1, -1);
    if (elt < 0 || call < 0 || sent < 0 || value < 0 || p->nstmts + 7 > GC_P_MAX_STMTS)
        return 0;
    gc_p_stmt *s = &p->s[p->nstmts];
    s[0] = (gc_p_stmt){.op = GC_P_ASYNCDEF, .depth = 0, .s = new_str(p, fname, 2)};
    s[1] = (gc_p_stmt){.op = agen ? GC_P_YIELD : GC_P_RETURN, .depth = 1, .expr = (uint16_t)elt};
    s[2] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 0, .expr = (uint16_t)call, .s = new_str(p, v, 1)};
    s[3] = (gc_p_stmt){.op = GC_P_TRY, .depth = 0};
    s[4] = (gc_p_stmt){.op = GC_P_EXPR, .depth = 1, .expr = (uint16_t)sent};
    s[5] = (gc_p_stmt){.op = GC_P_EXCEPT, .depth = 0, .s = new_str(p, "e", 1)};
    s[6] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 1, .expr = (uint16_t)value, .s = new_str(p, "result", 6)};
    p->nstmts += 7;
    return 1;
}

/* Frames: a value's generator, coroutine, async generator or traceback frame (or, on an
 * exception, its traceback's), then frame_tail's steps; or, a third of the time, the running
 * frame of a generator, a coroutine or an async generator the program makes. */
static int frame_walk(edit *x)
{
    if (!rnd(x, 3)) {
        uint32_t form = rnd(x, 3);
        return form == 0 ? running_generator(x) : running_async(x, form == 2);
    }
    static const char *const sources[] = {"gi_frame", "cr_frame", "ag_frame", "tb_frame", "f_back", "__traceback__"};
    int k = pick_node(x, 0, rnd(x, 2)), s = (int)rnd(x, 6);
    int top = k < 0 ? -1 : method_on(x, k, sources[s], -1, -1);
    if (top >= 0 && s == 5)
        top = method_on(x, top, "tb_frame", -1, -1);
    top = top < 0 ? -1 : frame_tail(x, top);
    return top < 0 ? 0 : take_place(x, k, first_on(x->p, top, k), top);
}

/* A class name the dictionary holds: of a kind 'class NAME' (its last dotted part), else a
 * word; into buf. */
static void class_name(edit *x, char *buf, size_t cap)
{
    int n = x->d && rnd(x, 4) ? x->d->nkinds : 0, from = (int)rnd(x, (uint32_t)(n ? n : 1));
    for (int j = 0; j < n; j++) {
        const char *k = x->d->kind[(from + j) % n].name, *dot;
        if (strncmp(k, "class ", 6) == 0) {
            snprintf(buf, cap, "%s", (dot = strrchr(k, '.')) ? dot + 1 : k + 6);
            return;
        }
    }
    snprintf(buf, cap, "%s", word(x));
}

/* Class walks by name: [c for c in X.__subclasses__() if c.__name__ == 'W'][0], W a class
 * name of the dictionary (or __qualname__), not an index. */
static int class_by_name(edit *x)
{
    gc_program *p = x->p;
    char w[64];
    class_name(x, w, sizeof w);
    gc_p_str cs = new_str(p, "c", 1);
    int k = pick_node(x, 0, 0), sub = k < 0 ? -1 : method_on(x, k, "__subclasses__", 0, -1);
    int c = new_node(p, GC_P_NAME, 0, NULL, cs), c2 = new_node(p, GC_P_NAME, 0, NULL, cs);
    int eq[2] = {c2 < 0 ? -1 : method_on(x, c2, rnd(x, 3) ? "__name__" : "__qualname__", -1, -1),
                 new_node(p, GC_P_STR, 0, NULL, new_str(p, w, strlen(w)))};
    int cmp = eq[0] < 0 || eq[1] < 0 ? -1 : new_node(p, GC_P_EQ, 2, eq, (gc_p_str){0, 0});
    int f[3] = {c, sub, cmp}, item[2] = {-1, new_node(p, GC_P_INT, 0, NULL, (gc_p_str){0, 0})};
    item[0] = c < 0 || sub < 0 || cmp < 0 ? -1 : new_node(p, GC_P_FILTER, 3, f, cs);
    int top = item[0] < 0 || item[1] < 0 ? -1 : new_node(p, GC_P_ITEM, 2, item, (gc_p_str){0, 0});
    return top < 0 ? 0 : take_place(x, k, first_on(p, sub, k), top);
}

/* Dunder methods written as calls (the class of smolagents' CVE-2025-9959: an interpreter
 * that checks attribute reads and not method calls): x.__getattribute__('w') with a word
 * of any kind ('_' ones too), x.__dir__(), x.__subclasses__(), x.__reduce_ex__(2). */
static int dunder_call(edit *x)
{
    static const char *const methods[] = {"__getattribute__", "__getattribute__", "__dir__", "__subclasses__",
                                          "__reduce_ex__"};
    gc_program *p = x->p;
    int m = (int)rnd(x, 5), k = pick_node(x, 0, 0), arg = -1;
    if (k < 0)
        return 0;
    if (m < 2) {
        const char *w = data_word(x);
        arg = new_node(p, GC_P_STR, 0, NULL, new_str(p, w, strlen(w)));
    } else if (m == 4 && (arg = new_node(p, GC_P_INT, 0, NULL, (gc_p_str){0, 0})) >= 0)
        p->e[arg].ival = 2;
    int top = method_on(x, k, methods[m], m < 2 || m == 4, arg);
    return top < 0 ? 0 : take_place(x, k, first_on(p, top, k), top);
}

/* A name node of a root (implicit or not) the program was seen holding a value that has
 * the attribute w (a module with a path resolver: its kind's words), or -1. */
static int holder_of(edit *x, const char *w)
{
    const gc_pm_dict *d = x->d;
    int n = d ? d->nroots + d->nimplicit : 0, from = (int)rnd(x, (uint32_t)(n ? n : 1));
    for (int j = 0; j < n; j++) {
        int i = (from + j) % n;
        const char *name = d->word[i < d->nroots ? d->root[i] : d->implicit[i - d->nroots]];
        int k = kind_of_name(d, name, strlen(name));
        if (k >= 0 && kind_has(d, k, w))
            return name_node(x->p, name);
    }
    return -1;
}

/* A root whose lookup-readback holds a value with the attribute w (the kind of
 * "ROOT.gatecrash", learnt with the roots': the module behind a view or a proxy, which
 * holds a path resolver the view refuses), the readback written first in the program:
 *     try:
 *         result = ROOT.gatecrash
 *     except Exception as e:
 *         held = e.obj
 * and a name node of 'held'; -1 when no root's readback has w or the program is full. */
static int readback_root(edit *x, const char *w)
{
    const gc_pm_dict *d = x->d;
    gc_program *p = x->p;
    int n = d ? d->nroots + d->nimplicit : 0, from = (int)rnd(x, (uint32_t)(n ? n : 1));
    for (int j = 0; j < n && p->nstmts + 4 <= GC_P_MAX_STMTS; j++) {
        int i = (from + j) % n;
        const char *name = d->word[i < d->nroots ? d->root[i] : d->implicit[i - d->nroots]];
        char key[GC_P_MAX_STRLEN + 1];
        int len = snprintf(key, sizeof key, "%s.%s", name, GC_PM_ABSENT);
        int k = len < (int)sizeof key ? kind_of_name(d, key, (size_t)len) : -1;
        if (k < 0 || !kind_has(d, k, w))
            continue;
        int root = name_node(p, name), look = root < 0 ? -1 : method_on(x, root, GC_PM_ABSENT, -1, -1);
        int e = name_node(p, "e"), read = e < 0 ? -1 : method_on(x, e, "obj", -1, -1), held = name_node(p, "held");
        if (look < 0 || read < 0 || held < 0)
            return -1;
        for (int s = 0; s < 4; s++)
            open_stmt(p, 0);
        p->s[0] = (gc_p_stmt){.op = GC_P_TRY};
        p->s[1] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 1, .expr = (uint16_t)look, .s = new_str(p, "result", 6)};
        p->s[2] = (gc_p_stmt){.op = GC_P_EXCEPT, .s = new_str(p, "e", 1)};
        p->s[3] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 1, .expr = (uint16_t)read, .s = new_str(p, "held", 4)};
        return held;
    }
    return -1;
}

/* A read of AttributeError's .obj or .name in an except block (the statement right after
 * 'except Exception as E:' whose expression is E.obj or E.name, exception-read's), its
 * expression's index into *k and, a fresh copy of it, the holder's index; -1 when the
 * program has none.  What a failed lookup gives back (the module behind a view) may hold a
 * path resolver no root is seen holding. */
static int readback_holder(edit *x, int *k)
{
    gc_program *p = x->p;
    int from = (int)rnd(x, (uint32_t)(p->nstmts ? p->nstmts : 1));
    for (int j = 0; j < p->nstmts; j++) {
        int i = (from + j) % p->nstmts;
        if (p->s[i].op != GC_P_EXCEPT || i + 1 >= p->nstmts || !has_expr(&p->s[i + 1]))
            continue;
        const gc_p_expr *r = &p->e[p->s[i + 1].expr], *e = r->n ? &p->e[r->a[0]] : NULL;
        const char *a = p->arena + r->s.off;
        if (r->op != GC_P_ATTR || !e || e->op != GC_P_NAME || e->s.len != p->s[i].s.len ||
            memcmp(p->arena + e->s.off, p->arena + p->s[i].s.off, e->s.len) != 0 ||
            !((r->s.len == 3 && memcmp(a, "obj", 3) == 0) || (r->s.len == 4 && memcmp(a, "name", 4) == 0)))
            continue;
        char attr[5], name[GC_P_MAX_STRLEN + 1];
        snprintf(attr, sizeof attr, "%.*s", (int)r->s.len, a);
        snprintf(name, sizeof name, "%.*s", (int)e->s.len, p->arena + e->s.off);
        *k = p->s[i + 1].expr;
        int n = name_node(p, name);
        return n < 0 ? -1 : method_on(x, n, attr, -1, -1);
    }
    return -1;
}

/* A string literal node of s[len], or -1. */
static int str_node(gc_program *p, const char *s, size_t len)
{
    return new_node(p, GC_P_STR, 0, NULL, new_str(p, s, len));
}

/* Path resolvers, where a root holds one: the standard-library functions that walk a path
 * given as data, or give back what they were handed, in the host past a sandbox's attribute
 * checks (the string.Formatter API, RestrictedPython's CVE-2023-41039; operator's getters
 * and functools.reduce(getattr, ...), reported against it after that fix).  A value k
 * becomes M.Formatter().get_field('0.P', [k], None)[0], M.Formatter().vformat('{0.P}', [k],
 * None), M.attrgetter('P')(k), M.itemgetter('w')(k), M.methodcaller('w')(k),
 * M.reduce(getattr, ['w'], k) or M.Formatter().get_value(0, [k], None) (k given back by the
 * host: past a check of what a name or a call may give; Formatter.parse is none, it gives
 * back only the format string's own text): M a root seen holding a module that has the resolver; else a
 * root's lookup-readback seen holding one, written first (readback_root); else, where the
 * program reads AttributeError's .obj or .name back, that read (k is it too).  P one or two
 * field parts (of the kind the path reached, when known: walk feedback). */
static int path_resolver(edit *x)
{
    static const char *const resolver[] = {"Formatter", "Formatter", "attrgetter", "itemgetter", "methodcaller",
                                           "reduce", "Formatter"};
    static const char *const method[] = {"get_field", "vformat", [6] = "get_value"};
    gc_program *p = x->p;
    int form = (int)rnd(x, 7), k = pick_node(x, 0, 0), m = k < 0 ? -1 : holder_of(x, resolver[form]);
    if (m < 0 && (k < 0 || (m = readback_root(x, resolver[form])) < 0) && (m = readback_holder(x, &k)) < 0)
        return 0;
    char path[GC_P_MAX_STRLEN + 2] = "0";
    size_t len = 1;
    field_part(x, path, &len, k);
    if (rnd(x, 2))
        field_part(x, path, &len, k);
    const char *w = data_word(x), *sub = path + 1 + (path[1] == '.'); /* the parts alone */
    int first = -1, top = -1;
    if (form < 2 || form == 6) { /* M.Formatter().get_field(...)[0] / .vformat(...) / .get_value(...) */
        int list = first = new_node(p, GC_P_LIST, 1, &k, (gc_p_str){0, 0});
        char braced[GC_P_MAX_STRLEN + 4];
        int bn = snprintf(braced, sizeof braced, "{%.*s}", (int)len, path);
        int f = method_on(x, m, "Formatter", 0, -1), g = f < 0 ? -1 : method_on(x, f, method[form], -1, -1);
        int key = form == 6 ? new_node(p, GC_P_INT, 0, NULL, (gc_p_str){0, 0})
                  : form   ? str_node(p, braced, (size_t)bn)
                           : str_node(p, path, len);
        int call[4] = {g, key, list, new_node(p, GC_P_NONE, 0, NULL, (gc_p_str){0, 0})};
        top = g < 0 || call[1] < 0 || list < 0 || call[3] < 0 ? -1 : new_node(p, GC_P_CALL, 4, call, (gc_p_str){0, 0});
        int item[2] = {top, new_node(p, GC_P_INT, 0, NULL, (gc_p_str){0, 0})};
        top = form || top < 0 || item[1] < 0 ? top : new_node(p, GC_P_ITEM, 2, item, (gc_p_str){0, 0});
    } else if (form < 5) { /* M.attrgetter('P')(k) / itemgetter / methodcaller */
        int arg = form == 2 ? str_node(p, sub, strlen(sub)) : str_node(p, w, strlen(w));
        int getter = arg < 0 ? -1 : method_on(x, m, resolver[form], 1, arg), call[2] = {getter, k};
        top = first = getter < 0 ? -1 : new_node(p, GC_P_CALL, 2, call, (gc_p_str){0, 0});
    } else { /* M.reduce(getattr, ['w'], k) */
        int word = str_node(p, w, strlen(w)), words = word < 0 ? -1 : new_node(p, GC_P_LIST, 1, &word, (gc_p_str){0, 0});
        int call[4] = {method_on(x, m, "reduce", -1, -1), name_node(p, "getattr"), words, k};
        top = first = call[0] < 0 || call[1] < 0 || words < 0 ? -1 : new_node(p, GC_P_CALL, 4, call, (gc_p_str){0, 0});
    }
    return take_place(x, k, first, top);
}

/* ---- import and callable-arg: forms a validator may forget ---- */

/* Modules every interpreter has in sys.modules once it runs (an import finder that guards
 * only new imports lets them through); the dictionary's module kinds add what walks reached. */
static const char *const loaded_modules[] = {"sys", "os", "builtins", "posix", "io", "abc", "codecs", "marshal",
                                             "posixpath", "stat", "time", "_io", "_thread", "_weakref",
                                             "_warnings", "_imp", "_frozen_importlib", "_collections_abc",
                                             "encodings", "site", "zipimport", "_signal", "errno"};
#define NLOADED ((int)(sizeof loaded_modules / sizeof loaded_modules[0]))

/* A module name (into m[cap]) and the kind of its attributes or keys (-1 unknown): half the
 * time a module kind of the dictionary, when there is one. */
static int pick_module(edit *x, char *m, size_t cap)
{
    const gc_pm_dict *d = x->d;
    int n = d ? d->nkinds : 0, from = (int)rnd(x, (uint32_t)(n ? n : 1));
    for (int j = 0; j < n && rnd(x, 2); j++) {
        int k = (from + j) % n;
        const char *name = d->kind[k].name;
        size_t skip = strncmp(name, "module ", 7) == 0 ? 7 : gc_pm_kind_is_globals(name) ? sizeof GC_PM_GLOBALS_KIND - 1 : 0;
        if (skip && d->kind[k].n) {
            snprintf(m, cap, "%s", name + skip);
            return k;
        }
    }
    snprintf(m, cap, "%s", loaded_modules[rnd(x, NLOADED)]);
    char kind[80];
    snprintf(kind, sizeof kind, "module %s", m);
    for (int k = 0; k < n; k++)
        if (strcmp(d->kind[k].name, kind) == 0)
            return k;
    return -1;
}

/* The statements 'lines' (n of them, depths relative) inserted at a top-level boundary, half
 * the time inside 'if True:' (a validator that checks only the top level), a third of the
 * rest inside 'def fK():' with the last line returned, then 'result = fK()'.  The
 * last line is 'result = v' (ASSIGN) or an expression.  1 if made. */
static int insert_lines(edit *x, gc_p_stmt *lines, int n)
{
    gc_program *p = x->p;
    int wrap = (int)rnd(x, 6), at = 0, tops[GC_P_MAX_STMTS + 1], ntops = 0;
    for (int i = 0; i <= p->nstmts; i++)
        if (i == p->nstmts || p->s[i].depth == 0)
            tops[ntops++] = i;
    at = tops[rnd(x, (uint32_t)ntops)];
    gc_p_stmt opener = {.depth = 0};
    gc_p_stmt after = {.op = GC_P_ASSIGN, .depth = 0, .s = new_str(p, "result", 6)};
    if (wrap < 3) {
        int t = new_node(p, GC_P_TRUE, 0, NULL, (gc_p_str){0, 0});
        if (t < 0)
            return 0;
        opener.op = GC_P_IF, opener.expr = (uint16_t)t;
    } else if (wrap == 3) {
        char f[3] = {'f', (char)('0' + rnd(x, 10)), 0};
        gc_p_str fs = new_str(p, f, 2);
        int fn = new_node(p, GC_P_NAME, 0, NULL, fs), call = fn < 0 ? -1 : new_node(p, GC_P_CALL, 1, &fn, (gc_p_str){0, 0});
        if (call < 0 || fs.len == 0)
            return 0;
        opener.op = GC_P_DEF, opener.s = fs, after.expr = (uint16_t)call;
        lines[n - 1].op = GC_P_RETURN;
    }
    int extra = opener.op ? 1 + (opener.op == GC_P_DEF) : 0;
    if (p->nstmts + n + extra > GC_P_MAX_STMTS)
        return 0;
    if (opener.op) {
        open_stmt(p, at);
        p->s[at++] = opener;
    }
    for (int k = 0; k < n; k++) {
        open_stmt(p, at);
        lines[k].depth = (uint8_t)(lines[k].depth + (opener.op != 0));
        p->s[at++] = lines[k];
    }
    if (opener.op == GC_P_DEF) {
        open_stmt(p, at);
        p->s[at] = after;
    }
    return 1;
}

/* import X [as a] / from X import Y as a / __import__('X') / importlib.import_module('X'),
 * X a module in sys.modules (or one a walk reached), Y one of its names, then result = the
 * name read (a.Y, a). */
static int import_module(edit *x)
{
    gc_program *p = x->p;
    char m[64], alias[3] = {'m', (char)('0' + rnd(x, 10)), 0};
    int k = pick_module(x, m, sizeof m);
    const char *y = k >= 0 ? kind_word(x, k) : NULL;
    gc_p_stmt lines[2];
    memset(lines, 0, sizeof lines);
    int form = (int)rnd(x, 5), v = -1, nl;
    gc_p_str ms = new_str(p, m, strlen(m)), as = new_str(p, alias, 2);
    if (form == 0 && y) { /* from X import Y as a: the name itself */
        lines[0] = (gc_p_stmt){.op = GC_P_FROM, .s = ms, .t = new_str(p, y, strlen(y)), .u = as};
        v = new_node(p, GC_P_NAME, 0, NULL, as);
        y = NULL;
    } else if (form <= 2) { /* import X as a; import X (a plain name) */
        int plain = form == 2 && !strchr(m, '.');
        lines[0] = (gc_p_stmt){.op = GC_P_IMPORT, .s = ms, .t = plain ? (gc_p_str){0, 0} : as};
        v = new_node(p, GC_P_NAME, 0, NULL, plain ? ms : as);
    } else { /* __import__('X'), or importlib's */
        int arg = str_node(p, m, strlen(m)), f = name_node(p, form == 3 ? "__import__" : "importlib");
        if (form == 4) {
            lines[0] = (gc_p_stmt){.op = GC_P_IMPORT, .s = new_str(p, "importlib", 9)};
            f = f < 0 ? -1 : method_on(x, f, "import_module", -1, -1);
        }
        int kids[2] = {f, arg};
        v = f < 0 || arg < 0 ? -1 : new_node(p, GC_P_CALL, 2, kids, (gc_p_str){0, 0});
    }
    if (v >= 0 && y)
        v = method_on(x, v, y, -1, -1);
    if (v < 0 || ms.len == 0 || as.len == 0)
        return 0;
    nl = form == 3 && !lines[0].op ? 1 : 2; /* __import__ alone: no import statement */
    lines[nl - 1] = (gc_p_stmt){.op = GC_P_ASSIGN, .expr = (uint16_t)v, .s = new_str(p, "result", 6)};
    return insert_lines(x, lines, nl);
}

/* A callable the host calls on x's value: a string's format method walking a field (the
 * walk runs in the host), a lambda walking an attribute, a root (a callable the sandbox
 * checks where the program calls it, and the host's C code calls unchecked), or a builtin. */
static int host_callable(edit *x, int on)
{
    gc_program *p = x->p;
    static const char *const builtins[] = {"repr", "vars", "dir", "type", "str"};
    const char *w = attr_word(x, on);
    switch (rnd(x, 4)) {
    case 0: {
        char field[GC_P_MAX_STRLEN + 8];
        int n = snprintf(field, sizeof field, "{0.%s}", w);
        int f = n > 0 && n <= GC_P_MAX_STRLEN ? str_node(p, field, (size_t)n) : -1;
        return f < 0 ? -1 : method_on(x, f, "format", -1, -1);
    }
    case 1: {
        int v = name_node(p, "v"), body = v < 0 ? -1 : method_on(x, v, w, -1, -1);
        return body < 0 ? -1 : new_node(p, GC_P_LAMBDA, 1, &body, new_str(p, "v", 1));
    }
    case 2: /* the value itself or a root, called by the host past the sandbox's call sites */
        return p->e[on].op == GC_P_NAME && rnd(x, 2) ? new_node(p, GC_P_NAME, 0, NULL, p->e[on].s)
                                                     : name_node(p, root_word(x));
    default: return name_node(p, builtins[rnd(x, 5)]);
    }
}

/* key=/default= where a callable takes a callable: sorted, min, max ([x], key=F), map and
 * filter (list(map(F, [x]))), list.sort (l = [x]; l.sort(key=F)), functools.reduce(F, [x],
 * x), max([], key=F, default=x); F a host callable (host_callable), stored first half the
 * time (f = '{0.P}'.format, the stored str.format of the published class). */
static int callable_arg(edit *x)
{
    gc_program *p = x->p;
    gc_p_str names[GC_P_MAX_STMTS + GC_P_MAX_EXPRS];
    int nb = bound_names(p, names, (int)(sizeof names / sizeof names[0]));
    const char *r = root_word(x);
    int v = nb && rnd(x, 2) ? new_node(p, GC_P_NAME, 0, NULL, names[rnd(x, (uint32_t)nb)]) : name_node(p, r);
    int f = v < 0 ? -1 : host_callable(x, v);
    if (f < 0)
        return 0;
    gc_p_stmt lines[4];
    memset(lines, 0, sizeof lines);
    int nl = 0;
    if (rnd(x, 2)) { /* stored */
        gc_p_str fs = new_str(p, "f", 1);
        lines[nl++] = (gc_p_stmt){.op = GC_P_ASSIGN, .expr = (uint16_t)f, .s = fs};
        f = new_node(p, GC_P_NAME, 0, NULL, fs);
    }
    int list = v < 0 ? -1 : new_node(p, GC_P_LIST, 1, &v, (gc_p_str){0, 0});
    int key = f < 0 ? -1 : new_node(p, GC_P_KW, 1, &f, new_str(p, "key", 3));
    int form = (int)rnd(x, 8), call = -1;
    if (list < 0 || key < 0)
        return 0;
    static const char *const fns[] = {"sorted", "min", "max", "map", "filter"};
    if (form <= 2) { /* sorted/min/max([x], key=F) */
        int kids[3] = {name_node(p, fns[form]), list, key};
        call = kids[0] < 0 ? -1 : new_node(p, GC_P_CALL, 3, kids, (gc_p_str){0, 0});
    } else if (form <= 4) { /* list(map(F, [x])) */
        int kids[3] = {name_node(p, fns[form]), f, list};
        int inner = kids[0] < 0 ? -1 : new_node(p, GC_P_CALL, 3, kids, (gc_p_str){0, 0});
        int outer[2] = {name_node(p, "list"), inner};
        call = inner < 0 || outer[0] < 0 ? -1 : new_node(p, GC_P_CALL, 2, outer, (gc_p_str){0, 0});
    } else if (form == 5) { /* l = [x]; l.sort(key=F); result = l */
        gc_p_str ls = new_str(p, "l", 1);
        int l = new_node(p, GC_P_NAME, 0, NULL, ls), sort = l < 0 ? -1 : method_on(x, l, "sort", -1, -1);
        int kids[2] = {sort, key};
        int c = sort < 0 ? -1 : new_node(p, GC_P_CALL, 2, kids, (gc_p_str){0, 0});
        call = c < 0 ? -1 : new_node(p, GC_P_NAME, 0, NULL, ls);
        lines[nl++] = (gc_p_stmt){.op = GC_P_ASSIGN, .expr = (uint16_t)list, .s = ls};
        lines[nl++] = (gc_p_stmt){.op = GC_P_EXPR, .expr = (uint16_t)(c < 0 ? 0 : c)};
        if (c < 0)
            return 0;
    } else if (form == 6) { /* import functools; functools.reduce(F, [x], x) */
        int ft = name_node(p, "functools"), red = ft < 0 ? -1 : method_on(x, ft, "reduce", -1, -1);
        int kids[4] = {red, f, list, v};
        call = red < 0 ? -1 : new_node(p, GC_P_CALL, 4, kids, (gc_p_str){0, 0});
        lines[nl++] = (gc_p_stmt){.op = GC_P_IMPORT, .s = new_str(p, "functools", 9)};
    } else { /* max([], key=F, default=x) */
        int empty = new_node(p, GC_P_LIST, 0, NULL, (gc_p_str){0, 0});
        int dflt = new_node(p, GC_P_KW, 1, &v, new_str(p, "default", 7));
        int kids[4] = {name_node(p, "max"), empty, key, dflt};
        call = empty < 0 || dflt < 0 || kids[0] < 0 ? -1 : new_node(p, GC_P_CALL, 4, kids, (gc_p_str){0, 0});
    }
    if (call < 0)
        return 0;
    lines[nl++] = (gc_p_stmt){.op = GC_P_ASSIGN, .expr = (uint16_t)call, .s = new_str(p, "result", 6)};
    return insert_lines(x, lines, nl);
}

/* s (len bytes) as an expression that makes it at run time from parts, where a validator
 * scanning constants sees none of it whole: 'ab' + 'cd', ''.join(['ab', 'cd']),
 * '%s%s' % ('ab', 'cd'), 'azbzczd'[::2], chr(95) * 2 + 'rest'.  Its node, or -1. */
static int built_string(edit *x, const char *s, size_t len)
{
    gc_program *p = x->p;
    size_t cut = len > 1 ? 1 + rnd(x, (uint32_t)(len - 1)) : len, under = 0;
    while (under < len && s[under] == '_')
        under++;
    int form = (int)rnd(x, 5), two[2] = {str_node(p, s, cut), str_node(p, s + cut, len - cut)};
    if (two[0] < 0 || two[1] < 0)
        return -1;
    if (form == 4 && under) { /* chr(95) * n + rest */
        int c[2] = {name_node(p, "chr"), new_node(p, GC_P_INT, 0, NULL, (gc_p_str){0, 0})};
        if (c[0] < 0 || c[1] < 0)
            return -1;
        p->e[c[1]].ival = 95;
        int m[2] = {new_node(p, GC_P_CALL, 2, c, (gc_p_str){0, 0}), new_node(p, GC_P_INT, 0, NULL, (gc_p_str){0, 0})};
        if (m[0] < 0 || m[1] < 0)
            return -1;
        p->e[m[1]].ival = (int8_t)under;
        int top = new_node(p, GC_P_BINOP, 2, m, (gc_p_str){0, 0});
        if (top >= 0)
            p->e[top].ival = 2; /* * */
        int rest[2] = {top, str_node(p, s + under, len - under)};
        if (top < 0 || under == len || rest[1] < 0)
            return top;
        top = new_node(p, GC_P_BINOP, 2, rest, (gc_p_str){0, 0}); /* + */
        return top;
    }
    if (form == 3 && len && 2 * len - 1 <= GC_P_MAX_STRLEN) { /* s's bytes with a 'z' between each two, [::2] */
        char spread[GC_P_MAX_STRLEN];
        for (size_t i = 0; i < len; i++) {
            spread[2 * i] = s[i];
            if (i + 1 < len)
                spread[2 * i + 1] = 'z';
        }
        int k[2] = {str_node(p, spread, 2 * len - 1), new_node(p, GC_P_INT, 0, NULL, (gc_p_str){0, 0})};
        if (k[0] < 0 || k[1] < 0)
            return -1;
        p->e[k[1]].ival = 2;
        int top = new_node(p, GC_P_SLICE, 2, k, (gc_p_str){0, 0});
        if (top >= 0)
            p->e[top].ival = 4; /* [::step] */
        return top;
    }
    if (form == 1) { /* ''.join([a, b]) */
        int list = new_node(p, GC_P_LIST, 2, two, (gc_p_str){0, 0}), empty = str_node(p, "", 0);
        int join = empty < 0 ? -1 : method_on(x, empty, "join", -1, -1);
        int kids[2] = {join, list};
        return join < 0 || list < 0 ? -1 : new_node(p, GC_P_CALL, 2, kids, (gc_p_str){0, 0});
    }
    if (form == 2) { /* '%s%s' % (a, b) */
        int kids[2] = {str_node(p, "%s%s", 4), new_node(p, GC_P_TUPLE, 2, two, (gc_p_str){0, 0})};
        int top = kids[0] < 0 || kids[1] < 0 ? -1 : new_node(p, GC_P_BINOP, 2, kids, (gc_p_str){0, 0});
        if (top >= 0)
            p->e[top].ival = 5; /* % */
        return top;
    }
    return new_node(p, GC_P_BINOP, 2, two, (gc_p_str){0, 0}); /* + */
}

/* A fresh attribute read on name node k, its name made from parts: every use of k becomes
 * getattr(k, <a word of k's kind, built_string>), where no attribute node and no constant
 * holds the name.  1 if made. */
static int built_getattr(edit *x, int k)
{
    if (k < 0)
        return 0;
    gc_program *p = x->p;
    const char *w = refused_word(x, k);
    int kids[3] = {name_node(p, "getattr"), k, built_string(x, w, strlen(w))};
    int top = kids[0] < 0 || kids[2] < 0 ? -1 : new_node(p, GC_P_CALL, 3, kids, (gc_p_str){0, 0});
    if (top < 0)
        return 0;
    redirect(p, k, top);
    return 1;
}

/* A string constant, a format field or an attribute name made at run time from parts
 * (built_string): a string literal in place; '{0.a.b}'.format(x) as ('{0.a' + '.b}').format(x)
 * (format_map's too); x._a as getattr(x, '_' + 'a'); a name x as getattr(x, <built>), a word
 * of x's kind (built_getattr). */
static int split_string(edit *x)
{
    gc_program *p = x->p;
    uint32_t fields = 1u << GC_P_FIELD | 1u << GC_P_FMTMAP | 1u << GC_P_FMT;
    int k = -1;
    switch (rnd(x, 4)) {
    case 0: k = pick_node(x, fields, 0); break;
    case 1: k = pick_node(x, 1u << GC_P_ATTR, 0); break;
    case 2: return built_getattr(x, pick_node(x, 1u << GC_P_NAME, 0));
    default: break;
    }
    if (k < 0)
        k = pick_node(x, 1u << GC_P_STR | fields | 1u << GC_P_ATTR, 0);
    if (k < 0)
        return 0;
    gc_p_expr e = p->e[k];
    const char *s = p->arena + e.s.off;
    char text[GC_P_MAX_STRLEN + 8];
    int top;
    if (e.op == GC_P_STR) {
        top = e.s.len ? built_string(x, s, e.s.len) : -1;
    } else if (e.op == GC_P_ATTR) {
        int kids[3] = {name_node(p, "getattr"), e.a[0], built_string(x, s, e.s.len)};
        top = kids[0] < 0 || kids[2] < 0 ? -1 : new_node(p, GC_P_CALL, 3, kids, (gc_p_str){0, 0});
    } else {
        int map = e.op == GC_P_FMTMAP;
        const char *sep = e.s.len && s[0] != '.' && s[0] != '[' ? "." : "";
        int n = snprintf(text, sizeof text, "{%s%s%.*s}", map ? "k" : "0", sep, e.s.len, s);
        int str = n > 0 && n <= GC_P_MAX_STRLEN ? built_string(x, text, (size_t)n) : -1;
        int f = str < 0 ? -1 : method_on(x, str, map ? "format_map" : "format", -1, -1), arg = e.a[0];
        if (map) {
            int pair[2] = {str_node(p, "k", 1), e.a[0]};
            arg = pair[0] < 0 ? -1 : new_node(p, GC_P_DICT, 2, pair, (gc_p_str){0, 0});
        }
        int kids[2] = {f, arg};
        top = f < 0 || arg < 0 ? -1 : new_node(p, GC_P_CALL, 2, kids, (gc_p_str){0, 0});
    }
    if (top < 0)
        return 0;
    redirect(p, k, top);
    return 1;
}

/* A class whose dunder method the host calls after the evaluation (its repr, a comparison,
 * a hash, its finalizer) runs a statement's expression of the program there:
 *   class K0:
 *       def __repr__(self, *args, **kwargs):
 *           return <expression>
 *   result = K0()
 * (a method takes whatever it is given: program.h); half the time the statement becomes
 * 'pass', so what the sandbox refuses inside its window (a tool switched off) runs only after.
 * Half the time when the expression is a name (a root's program, in fuzz_source's first
 * stage), a third otherwise, the method calls it (or a root) with a leaf instead. */
static int class_dunder(edit *x)
{
    static const char *const dunders[] = {"__repr__", "__str__", "__eq__", "__hash__", "__del__", "__format__",
                                          "__len__", "__bool__", "__iter__", "__index__", "__getattr__", "__lt__"};
    gc_program *p = x->p;
    int i = pick_expr_stmt(x), call = -1, named = i >= 0 && p->e[p->s[i].expr].op == GC_P_NAME;
    if (i < 0 || !rnd(x, named ? 2 : 3)) { /* what the program was handed (the statement's name, or a root) called with a leaf */
        int kids[2] = {named ? p->s[i].expr : name_node(p, root_word(x)), leaf(x)};
        call = kids[0] < 0 || kids[1] < 0 ? -1 : new_node(p, GC_P_CALL, 2, kids, (gc_p_str){0, 0});
        i = -1;
    }
    if ((i < 0 && call < 0) || p->nstmts + 4 > GC_P_MAX_STMTS)
        return 0;
    const char *d = dunders[rnd(x, sizeof dunders / sizeof dunders[0])];
    char cname[3] = {'K', (char)('0' + rnd(x, 10)), 0};
    gc_p_str cs = new_str(p, cname, 2);
    int bases = new_node(p, GC_P_TUPLE, 0, NULL, (gc_p_str){0, 0}), c = new_node(p, GC_P_NAME, 0, NULL, cs);
    int make = c < 0 ? -1 : new_node(p, GC_P_CALL, 1, &c, (gc_p_str){0, 0});
    if (bases < 0 || make < 0 || cs.len == 0)
        return 0;
    gc_p_stmt *s = &p->s[p->nstmts];
    s[0] = (gc_p_stmt){.op = GC_P_CLASS, .depth = 0, .expr = (uint16_t)bases, .s = cs};
    s[1] = (gc_p_stmt){.op = GC_P_DEF, .depth = 1, .s = new_str(p, d, strlen(d))};
    s[2] = (gc_p_stmt){.op = GC_P_RETURN, .depth = 2, .expr = (uint16_t)(i < 0 ? call : p->s[i].expr)};
    s[3] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 0, .expr = (uint16_t)make, .s = new_str(p, "result", 6)};
    p->nstmts += 4;
    if (i >= 0 && rnd(x, 2)) /* moved, not copied: a call the sandbox refuses inside its window runs only there */
        p->s[i] = (gc_p_stmt){.op = GC_P_PASS, .depth = p->s[i].depth};
    return 1;
}

/* An attribute read by a class pattern, in the match machinery and not as an attribute node:
 *   match x:
 *       case object(a=v):
 *           result = v
 * (object, or a class of the dictionary's by name: any value is an object). */
static int match_attr(edit *x)
{
    gc_program *p = x->p;
    gc_p_str names[GC_P_MAX_STMTS + GC_P_MAX_EXPRS];
    int nb = bound_names(p, names, (int)(sizeof names / sizeof names[0]));
    int subj = nb && rnd(x, 2) ? new_node(p, GC_P_NAME, 0, NULL, names[rnd(x, (uint32_t)nb)]) : name_node(p, root_word(x));
    if (subj < 0 || p->nstmts + 3 > GC_P_MAX_STMTS)
        return 0;
    const char *w = attr_word(x, subj);
    gc_p_str vs = new_str(p, "v", 1);
    int v = new_node(p, GC_P_NAME, 0, NULL, vs), kw = v < 0 ? -1 : new_node(p, GC_P_KW, 1, &v, new_str(p, w, strlen(w)));
    int pat[2] = {name_node(p, "object"), kw};
    int cls = pat[0] < 0 || kw < 0 ? -1 : new_node(p, GC_P_CALL, 2, pat, (gc_p_str){0, 0});
    int read = new_node(p, GC_P_NAME, 0, NULL, vs);
    if (cls < 0 || read < 0)
        return 0;
    gc_p_stmt *s = &p->s[p->nstmts];
    s[0] = (gc_p_stmt){.op = GC_P_MATCH, .depth = 0, .expr = (uint16_t)subj};
    s[1] = (gc_p_stmt){.op = GC_P_CASE, .depth = 1, .expr = (uint16_t)cls};
    s[2] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 2, .expr = (uint16_t)read, .s = new_str(p, "result", 6)};
    p->nstmts += 3;
    return 1;
}

/* Forms a validator may check on reads only, appended: x.w = v, x[w] = v, x.w += v, del x.w
 * (x a root or a name the program binds, v one of its values); @E over a def (E called with
 * it); (lambda a=E: a)() (E evaluated as a default), E a statement's expression. */
static int store_forms(edit *x)
{
    gc_program *p = x->p;
    gc_p_str names[GC_P_MAX_STMTS + GC_P_MAX_EXPRS];
    int nb = bound_names(p, names, (int)(sizeof names / sizeof names[0]));
    int on = nb && rnd(x, 2) ? new_node(p, GC_P_NAME, 0, NULL, names[rnd(x, (uint32_t)nb)]) : name_node(p, root_word(x));
    int i = pick_expr_stmt(x), form = (int)rnd(x, 6);
    if (on < 0 || p->nstmts + 3 > GC_P_MAX_STMTS || (form >= 4 && i < 0))
        return 0;
    const char *w = attr_word(x, on);
    gc_p_stmt *s = &p->s[p->nstmts];
    int v = nb ? new_node(p, GC_P_NAME, 0, NULL, names[rnd(x, (uint32_t)nb)]) : leaf(x), n = 1;
    if (form <= 3) {
        int key = str_node(p, w, strlen(w)), kids[2] = {on, key};
        int t = form == 1 ? (key < 0 ? -1 : new_node(p, GC_P_ITEM, 2, kids, (gc_p_str){0, 0})) : method_on(x, on, w, -1, -1);
        if (t < 0 || v < 0)
            return 0;
        uint8_t op = form == 2 ? GC_P_AUG : form == 3 ? GC_P_DEL : GC_P_STORE;
        s[0] = (gc_p_stmt){.op = op, .expr = (uint16_t)t, .expr2 = (uint16_t)v};
    } else if (form == 4) { /* @E / def fK(): pass / result = fK */
        char f[3] = {'f', (char)('0' + rnd(x, 10)), 0};
        gc_p_str fs = new_str(p, f, 2);
        int fn = new_node(p, GC_P_NAME, 0, NULL, fs);
        if (fn < 0 || fs.len == 0)
            return 0;
        s[0] = (gc_p_stmt){.op = GC_P_DECO, .expr = p->s[i].expr};
        s[1] = (gc_p_stmt){.op = GC_P_DEF, .s = fs};
        s[2] = (gc_p_stmt){.op = GC_P_ASSIGN, .expr = (uint16_t)fn, .s = new_str(p, "result", 6)};
        n = 3;
    } else { /* result = (lambda a=E: a)() */
        gc_p_str as = new_str(p, "a", 1);
        int kids[2] = {p->s[i].expr, new_node(p, GC_P_NAME, 0, NULL, as)};
        int lam = kids[1] < 0 ? -1 : new_node(p, GC_P_LAMBDAKW, 2, kids, as);
        int call = lam < 0 ? -1 : new_node(p, GC_P_CALL, 1, &lam, (gc_p_str){0, 0});
        if (call < 0)
            return 0;
        s[0] = (gc_p_stmt){.op = GC_P_ASSIGN, .expr = (uint16_t)call, .s = new_str(p, "result", 6)};
    }
    p->nstmts += n;
    return 1;
}

/* The program's own syntax tree, where an interpreter hands it out (a def kept as its nodes,
 * f.body, and run after its check of them): a node's field written at run time,
 *   def fK():
 *       return x.w
 *   fK.body[0].value.attr = 'v'
 *   result = fK()
 * x a statement's name (a root's program, in fuzz_source's first stage) or a root, w and v
 * words of its kind (w without a leading '_', the read a check passes), v made from parts
 * half the time (built_string). */
static int node_field(edit *x)
{
    gc_program *p = x->p;
    int i = pick_expr_stmt(x), named = i >= 0 && p->e[p->s[i].expr].op == GC_P_NAME;
    int on = named ? new_node(p, GC_P_NAME, 0, NULL, p->e[p->s[i].expr].s) : name_node(p, root_word(x));
    if (on < 0 || p->nstmts + 4 > GC_P_MAX_STMTS)
        return 0;
    const char *w0 = attr_word(x, on), *w = refused_word(x, on);
    for (int tries = 0; w0[0] == '_' && tries < 4; tries++) /* the read the check passes: no '_' name */
        w0 = attr_word(x, on);
    if (w0[0] == '_')
        w0 = "name";
    char f[3] = {'f', (char)('0' + rnd(x, 10)), 0};
    gc_p_str fs = new_str(p, f, 2);
    int read = method_on(x, on, w0, -1, -1), fn = new_node(p, GC_P_NAME, 0, NULL, fs);
    int kids[2] = {fn < 0 ? -1 : method_on(x, fn, "body", -1, -1), new_node(p, GC_P_INT, 0, NULL, (gc_p_str){0, 0})};
    if (read < 0 || kids[0] < 0 || kids[1] < 0 || fs.len == 0)
        return 0;
    p->e[kids[1]].ival = 0;
    int item = new_node(p, GC_P_ITEM, 2, kids, (gc_p_str){0, 0});
    int value = item < 0 ? -1 : method_on(x, item, "value", -1, -1);
    int target = value < 0 ? -1 : method_on(x, value, "attr", -1, -1);
    int v = rnd(x, 2) ? built_string(x, w, strlen(w)) : str_node(p, w, strlen(w));
    int again = new_node(p, GC_P_NAME, 0, NULL, fs);
    int call = again < 0 ? -1 : new_node(p, GC_P_CALL, 1, &again, (gc_p_str){0, 0});
    if (target < 0 || v < 0 || call < 0)
        return 0;
    gc_p_stmt *s = &p->s[p->nstmts];
    s[0] = (gc_p_stmt){.op = GC_P_DEF, .depth = 0, .s = fs};
    s[1] = (gc_p_stmt){.op = GC_P_RETURN, .depth = 1, .expr = (uint16_t)read};
    s[2] = (gc_p_stmt){.op = GC_P_STORE, .depth = 0, .expr = (uint16_t)target, .expr2 = (uint16_t)v};
    s[3] = (gc_p_stmt){.op = GC_P_ASSIGN, .depth = 0, .expr = (uint16_t)call, .s = new_str(p, "result", 6)};
    p->nstmts += 4;
    return 1;
}

typedef int (*technique_fn)(edit *);
static const technique_fn techniques[GC_PM_NTECHNIQUES] = {
    [GC_PM_T_FORMAT_WALK] = format_walk,     [GC_PM_T_EXCEPTION_READ] = exception_read,
    [GC_PM_T_OWN_VALUES] = call_own_values,  [GC_PM_T_FRAME_WALK] = frame_walk,
    [GC_PM_T_CLASS_BY_NAME] = class_by_name, [GC_PM_T_DUNDER_CALL] = dunder_call,
    [GC_PM_T_PATH_RESOLVER] = path_resolver, [GC_PM_T_IMPORT] = import_module,
    [GC_PM_T_CALLABLE_ARG] = callable_arg,   [GC_PM_T_SPLIT_STRING] = split_string,
    [GC_PM_T_CLASS_DUNDER] = class_dunder,   [GC_PM_T_MATCH_ATTR] = match_attr,
    [GC_PM_T_STORE_FORMS] = store_forms,     [GC_PM_T_NODE_FIELD] = node_field,
};

const char *const gc_pm_technique_name[GC_PM_NTECHNIQUES] = {
    [GC_PM_T_FORMAT_WALK] = "format-walk",     [GC_PM_T_EXCEPTION_READ] = "exception-read",
    [GC_PM_T_OWN_VALUES] = "own-values",       [GC_PM_T_FRAME_WALK] = "frame-walk",
    [GC_PM_T_CLASS_BY_NAME] = "class-by-name", [GC_PM_T_DUNDER_CALL] = "dunder-call",
    [GC_PM_T_PATH_RESOLVER] = "path-resolver", [GC_PM_T_IMPORT] = "import",
    [GC_PM_T_CALLABLE_ARG] = "callable-arg",   [GC_PM_T_SPLIT_STRING] = "split-string",
    [GC_PM_T_CLASS_DUNDER] = "class-dunder",   [GC_PM_T_MATCH_ATTR] = "match-attr",
    [GC_PM_T_STORE_FORMS] = "store-forms",     [GC_PM_T_NODE_FIELD] = "node-field",
};

static int one_edit(edit *x)
{
    uint32_t r = rnd(x, 24);
    if (r >= 18)
        return techniques[rnd(x, GC_PM_NTECHNIQUES)](x);
    switch (r) {
    case 0: return x->p->nstmts > 6 ? drop_stmt(x) : insert_stmt(x);
    case 1: return drop_stmt(x);
    case 2: return change_expr(x, 0);
    case 3: return change_expr(x, 1);
    case 4: return change_expr(x, 2);
    case 5: return wrap_in_try(x);
    case 6: return alias_name(x);
    case 7: return attr_to_format(x);
    case 8: case 9: return trailer_anywhere(x);
    case 10: case 11: case 12: case 16: case 17: return extend_walk(x);
    case 13: return rnd(x, 2) ? use_bound_name(x) : self_reference(x);
    case 14: return rnd(x, 2) ? wrap_in_def(x) : to_for(x);
    default: return to_generator(x);
    }
}

/* p encoded canonically into out[max]: its length, or 0 when it does not fit (an edit may
 * leave a line the decoder drops, an except without its try: decode and encode again). */
static size_t canonical(gc_program *p, uint8_t *out, size_t max)
{
    static uint8_t tmp[GC_P_MAX_INPUT * 2];
    size_t len = gc_program_encode(p, tmp, sizeof tmp);
    if (len == 0)
        return 0;
    gc_program_decode(tmp, len, p);
    len = gc_program_encode(p, tmp, sizeof tmp);
    if (len == 0 || len > max || len > GC_PM_MAX_OUTPUT || p->nstmts == 0)
        return 0;
    memcpy(out, tmp, len);
    return len;
}

size_t gc_program_root_program(const gc_pm_dict *d, int k, uint8_t *out, size_t max)
{
    static gc_program p;
    if (!d || k < 0 || k >= d->nimplicit + d->nroots)
        return 0;
    const char *w = d->word[k < d->nimplicit ? d->implicit[k] : d->root[k - d->nimplicit]];
    memset(&p, 0, sizeof p);
    int name = new_node(&p, GC_P_NAME, 0, NULL, new_str(&p, w, strlen(w)));
    p.s[0] = (gc_p_stmt){.op = GC_P_ASSIGN, .expr = (uint16_t)name, .s = new_str(&p, "result", 6)};
    p.nstmts = name >= 0;
    return canonical(&p, out, max);
}

size_t gc_program_technique(uint8_t *data, size_t size, size_t max_size, uint32_t seed, const gc_pm_dict *d,
                            gc_pm_technique t)
{
    static gc_program p;
    edit x = {&p, seed ? seed : 1, d};
    if ((unsigned)t >= GC_PM_NTECHNIQUES)
        return 0;
    gc_program_decode(data, size, &p);
    int done = 0;
    for (int tries = 0; tries < 16 && !done && p.nstmts; tries++)
        done = techniques[t](&x);
    return done ? canonical(&p, data, max_size) : 0;
}

size_t gc_program_mutate(uint8_t *data, size_t size, size_t max_size, uint32_t seed, const gc_pm_dict *d)
{
    static gc_program p;
    edit x = {&p, seed ? seed : 1, d};
    gc_program_decode(data, size, &p);
    int done = 0;
    for (int tries = 0; tries < 16 && !done; tries++)
        done = one_edit(&x) || (p.nstmts == 0 && insert_stmt(&x));
    return done ? canonical(&p, data, max_size) : 0;
}

/* Node i of q copied into p (its children first): the copy's index, or -1. */
static int copy_expr(gc_program *p, const gc_program *q, int i)
{
    const gc_p_expr *e = &q->e[i];
    int kids[GC_P_MAX_ARGS + 1];
    for (int k = 0; k < e->n; k++)
        if ((kids[k] = copy_expr(p, q, e->a[k])) < 0)
            return -1;
    int c = new_node(p, e->op, e->n, kids, new_str(p, q->arena + e->s.off, e->s.len));
    if (c >= 0)
        p->e[c].ival = e->ival;
    return c;
}

size_t gc_program_crossover(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                            size_t max_out, uint32_t seed, const gc_pm_dict *d)
{
    static gc_program p, q;
    edit x = {&q, seed ? seed : 1, d};
    gc_program_decode(d2, s2, &q);
    int j = pick_expr_stmt(&x);
    x.p = &p;
    gc_program_decode(d1, s1, &p);
    if (j < 0) {
        size_t n = s1 < max_out ? s1 : max_out;
        memcpy(out, d1, n);
        return gc_program_mutate(out, n, max_out, seed, d);
    }
    int i = (int)rnd(&x, (uint32_t)p.nstmts + 1), e = copy_expr(&p, &q, q.s[j].expr);
    gc_p_str s = new_str(&p, q.arena + q.s[j].s.off, q.s[j].s.len);
    if (e < 0 || !open_stmt(&p, i))
        return 0;
    p.s[i] = (gc_p_stmt){.op = q.s[j].op, .depth = depth_at(&p, i), .expr = (uint16_t)e, .s = s};
    return canonical(&p, out, max_out);
}
