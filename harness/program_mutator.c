/* program_mutator.c — edits on the program IR (program_mutator.h). */
#include "program_mutator.h"

#include <string.h>

#include "program.h"
#include "rng.h"

/* Words every program may use besides the dictionary's: the adapters' result variable,
 * the exception name the try wrapper binds, and what an exception carries (issue 15). */
static const char *const builtin_words[] = {"result", "e", "x", "obj", "args", "value", "name", "format"};
#define NBUILTIN ((int)(sizeof builtin_words / sizeof builtin_words[0]))

typedef struct {
    gc_program *p;
    uint32_t rng;
    const gc_pm_dict *d;
} edit;

int gc_pm_dict_add(gc_pm_dict *d, const char *w)
{
    if (d->n >= GC_PM_MAX_WORDS || !*w)
        return 0;
    for (int i = 0; i < d->n; i++)
        if (strncmp(d->word[i], w, sizeof d->word[i] - 1) == 0)
            return 0;
    strncpy(d->word[d->n], w, sizeof d->word[0] - 1);
    d->word[d->n][sizeof d->word[0] - 1] = 0;
    d->n++;
    return 1;
}

static uint32_t rnd(edit *x, uint32_t n)
{
    return n ? gc_xorshift32(&x->rng) % n : 0;
}

static const char *word(edit *x)
{
    int nd = x->d ? x->d->n : 0;
    int k = (int)rnd(x, (uint32_t)(nd + NBUILTIN));
    return k < nd ? x->d->word[k] : builtin_words[k - nd];
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
    const char *w = word(x);
    uint32_t kind = rnd(x, 3);
    int k = new_node(x->p, kind == 2 ? GC_P_INT : kind ? GC_P_STR : GC_P_NAME, 0, NULL,
                     kind == 2 ? (gc_p_str){0, 0} : new_str(x->p, w, strlen(w)));
    if (k >= 0 && kind == 2)
        x->p->e[k].ival = (int8_t)(rnd(x, 5) - 1);
    return k;
}

/* An attribute, item or call trailer on node 'on'. */
static int trailer(edit *x, int on)
{
    const char *w = word(x);
    int kids[2] = {on, -1};
    switch (rnd(x, 3)) {
    case 0: return new_node(x->p, GC_P_ATTR, 1, kids, new_str(x->p, w, strlen(w)));
    case 1: return (kids[1] = leaf(x)) < 0 ? -1 : new_node(x->p, GC_P_ITEM, 2, kids, (gc_p_str){0, 0});
    default: return new_node(x->p, GC_P_CALL, 1, kids, (gc_p_str){0, 0});
    }
}

static int has_expr(const gc_p_stmt *st)
{
    return st->op == GC_P_EXPR || st->op == GC_P_ASSIGN || st->op == GC_P_RETURN;
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
    return (uint8_t)(prev->depth + (prev->op == GC_P_TRY || prev->op == GC_P_DEF || prev->op == GC_P_EXCEPT));
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

/* try: <statement> except Exception as e: result = e */
static int wrap_in_try(edit *x)
{
    gc_program *p = x->p;
    int i = pick_expr_stmt(x);
    if (i < 0 || p->s[i].depth + 1 >= GC_P_MAX_BLOCKS || p->nstmts + 3 > GC_P_MAX_STMTS)
        return 0;
    int name = new_node(p, GC_P_NAME, 0, NULL, new_str(p, "e", 1));
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

static int one_edit(edit *x)
{
    switch (rnd(x, 8)) {
    case 0: return insert_stmt(x);
    case 1: return drop_stmt(x);
    case 2: return change_expr(x, 0);
    case 3: return change_expr(x, 1);
    case 4: return change_expr(x, 2);
    case 5: return wrap_in_try(x);
    case 6: return alias_name(x);
    default: return attr_to_format(x);
    }
}

size_t gc_program_mutate(uint8_t *data, size_t size, size_t max_size, uint32_t seed, const gc_pm_dict *d)
{
    static gc_program p;
    static uint8_t tmp[GC_P_MAX_INPUT * 2];
    edit x = {&p, seed ? seed : 1, d};
    gc_program_decode(data, size, &p);
    int done = 0;
    for (int tries = 0; tries < 16 && !done; tries++)
        done = one_edit(&x) || (p.nstmts == 0 && insert_stmt(&x));
    size_t len = done ? gc_program_encode(&p, tmp, sizeof tmp) : 0;
    if (len == 0)
        return 0;
    /* canonical: the bytes a decode and an encode of the edit give (an edit may leave a
     * line the decoder drops, an except without its try) */
    gc_program_decode(tmp, len, &p);
    len = gc_program_encode(&p, tmp, sizeof tmp);
    if (len == 0 || len > max_size || len > GC_P_MAX_INPUT)
        return 0;
    memcpy(data, tmp, len);
    return len;
}
