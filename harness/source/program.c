/* program.c — see program.h. */
#include "program.h"

#include <string.h>

/* Does an opcode take a string operand? */
static int gc_p_has_str(uint8_t op)
{
    switch (op) {
    case GC_P_NAME: case GC_P_STR: case GC_P_ATTR: case GC_P_FMT: case GC_P_COMP: case GC_P_GEN: case GC_P_ASSIGN:
    case GC_P_EXCEPT: case GC_P_DEF: case GC_P_FOR: case GC_P_FIELD: case GC_P_FMTMAP: case GC_P_FILTER:
    case GC_P_ASYNCDEF:
        return 1;
    default: return 0;
    }
}

/* ---- decoding ---- */

typedef struct {
    const uint8_t *d;
    size_t n, i;
    gc_program *p;
    uint16_t stack[GC_P_MAX_STACK];
    int sp;
    int depth, nblocks;
    uint8_t block[GC_P_MAX_BLOCKS]; /* TRY, EXCEPT (a try past its except), DEF, ASYNCDEF, FOR */
    uint8_t has[GC_P_MAX_BLOCKS];   /* a def's: 1 a return in it, 2 a yield */
} decoder;

static uint8_t rd(decoder *x)
{
    return x->i < x->n ? x->d[x->i++] : 0;
}

static int ident_char(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int is_keyword(const char *s, size_t n)
{
    static const char *kw[] = {"False", "None", "True", "and", "as", "assert", "async", "await", "break",
                               "class", "continue", "def", "del", "elif", "else", "except", "finally", "for",
                               "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
                               "pass", "raise", "return", "try", "while", "with", "yield",
                               "__debug__" /* not assignable either */};
    if (n < 2 || n > 9) /* no keyword is shorter or longer: most names end here */
        return 0;
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if (kw[k][0] == s[0] && strlen(kw[k]) == n && memcmp(kw[k], s, n) == 0)
            return 1;
    return 0;
}

typedef enum { S_RAW, S_NAME, S_FIELD, S_PATH } str_kind;

/* A string operand into the arena, made what its kind allows.  Idempotent: a string it
 * gave decodes to itself, so encoding round-trips. */
static gc_p_str rd_str(decoder *x, str_kind kind)
{
    size_t len = rd(x) % (GC_P_MAX_STRLEN + 1);
    gc_program *p = x->p;
    gc_p_str s = {(uint16_t)p->arena_used, 0};
    if (p->arena_used + len + 2 > GC_P_ARENA)
        len = 0;
    char *o = p->arena + p->arena_used;
    for (size_t k = 0; k < len && x->i < x->n; k++) {
        uint8_t c = rd(x);
        if (kind == S_NAME && !ident_char(c))
            c = (uint8_t)('a' + c % 26);
        if ((kind == S_FIELD || kind == S_PATH) && !ident_char(c) && c != '.' &&
            !(kind == S_PATH && (c == '[' || c == ']')))
            continue;
        if (kind == S_NAME && s.len == 0 && c >= '0' && c <= '9')
            c = (uint8_t)('a' + (c - '0'));
        o[s.len++] = (char)c;
    }
    if (kind == S_NAME && s.len == 0)
        o[s.len++] = 'x';
    if (kind == S_NAME && is_keyword(o, s.len))
        o[s.len++] = '_';
    p->arena_used += s.len;
    return s;
}

/* Push a new node of 'op' whose children are the top 'n' values: its index, or -1. */
static int push_node(decoder *x, uint8_t op, int n)
{
    gc_program *p = x->p;
    if (x->sp < n || p->nexprs >= GC_P_MAX_EXPRS || (n == 0 && x->sp >= GC_P_MAX_STACK))
        return -1;
    gc_p_expr *e = &p->e[p->nexprs];
    memset(e, 0, sizeof *e);
    e->op = op;
    e->n = (uint8_t)n;
    e->depth = 1;
    for (int k = 0; k < n; k++) {
        e->a[k] = x->stack[x->sp - n + k];
        if (p->e[e->a[k]].depth + 1 > e->depth)
            e->depth = (uint8_t)(p->e[e->a[k]].depth + 1);
    }
    if (e->depth > GC_P_MAX_DEPTH)
        return -1;
    x->sp -= n;
    x->stack[x->sp++] = (uint16_t)p->nexprs;
    return p->nexprs++;
}

static void add_stmt(decoder *x, uint8_t op, int pop, gc_p_str s)
{
    gc_program *p = x->p;
    if ((pop && x->sp < 1) || p->nstmts >= GC_P_MAX_STMTS)
        return;
    gc_p_stmt *st = &p->s[p->nstmts++];
    st->op = op;
    st->depth = (uint8_t)x->depth;
    st->expr = pop ? x->stack[--x->sp] : 0;
    st->s = s;
}

/* TRY, EXCEPT, DEF, ASYNCDEF, FOR, END: the block structure. */
static void block_op(decoder *x, uint8_t op, gc_p_str s)
{
    gc_program *p = x->p;
    int top = x->nblocks ? x->block[x->nblocks - 1] : -1;
    if (op == GC_P_END) {
        if (x->nblocks) {
            x->nblocks--;
            x->depth--;
        }
        return;
    }
    if (op == GC_P_EXCEPT) {
        if (top != GC_P_TRY || p->nstmts >= GC_P_MAX_STMTS)
            return;
        x->depth--;
        add_stmt(x, op, 0, s);
        x->depth++;
        x->block[x->nblocks - 1] = GC_P_EXCEPT;
        return;
    }
    if (x->nblocks >= GC_P_MAX_BLOCKS || p->nstmts >= GC_P_MAX_STMTS || (op == GC_P_FOR && x->sp < 1))
        return;
    add_stmt(x, op, op == GC_P_FOR, s);
    x->has[x->nblocks] = 0;
    x->block[x->nblocks++] = op;
    x->depth++;
}

/* RETURN or YIELD as it stands here: itself in a def's block (the innermost), else EXPR; and
 * EXPR where the other one is in the same async def (an async generator's return takes no
 * value: it would not compile). */
static uint8_t in_def(decoder *x, uint8_t op)
{
    uint8_t bit = op == GC_P_RETURN ? 1 : 2;
    for (int b = x->nblocks - 1; b >= 0; b--) {
        if (x->block[b] != GC_P_DEF && x->block[b] != GC_P_ASYNCDEF)
            continue;
        if (x->block[b] == GC_P_ASYNCDEF && (x->has[b] | bit) == 3)
            return GC_P_EXPR;
        if (x->sp >= 1 && x->p->nstmts < GC_P_MAX_STMTS) /* it will be added */
            x->has[b] |= bit;
        return op;
    }
    return GC_P_EXPR;
}

static void step(decoder *x, uint8_t op)
{
    gc_p_str none = {0, 0};
    int k;
    switch (op) {
    case GC_P_NAME: case GC_P_STR: {
        gc_p_str s = rd_str(x, op == GC_P_NAME ? S_NAME : S_RAW);
        if ((k = push_node(x, op, 0)) >= 0)
            x->p->e[k].s = s;
        break;
    }
    case GC_P_INT: {
        int8_t v = (int8_t)rd(x);
        if ((k = push_node(x, op, 0)) >= 0)
            x->p->e[k].ival = v;
        break;
    }
    case GC_P_NONE: case GC_P_TRUE: case GC_P_FALSE: push_node(x, op, 0); break;
    case GC_P_LIST: case GC_P_TUPLE: push_node(x, op, rd(x) % (GC_P_MAX_ARGS + 1)); break;
    case GC_P_CALL: push_node(x, op, 1 + rd(x) % (GC_P_MAX_ARGS + 1)); break;
    case GC_P_ITEM: push_node(x, op, 2); break;
    case GC_P_ATTR: case GC_P_FMT: case GC_P_COMP: case GC_P_GEN: {
        gc_p_str s = rd_str(x, op == GC_P_FMT ? S_FIELD : S_NAME);
        if ((k = push_node(x, op, op == GC_P_COMP || op == GC_P_GEN ? 2 : 1)) >= 0)
            x->p->e[k].s = s;
        break;
    }
    case GC_P_FIELD: case GC_P_FMTMAP: case GC_P_FILTER: {
        gc_p_str s = rd_str(x, op == GC_P_FILTER ? S_NAME : S_PATH);
        if ((k = push_node(x, op, op == GC_P_FILTER ? 3 : 1)) >= 0)
            x->p->e[k].s = s;
        break;
    }
    case GC_P_EQ: push_node(x, op, 2); break;
    case GC_P_EXPR: add_stmt(x, op, 1, none); break;
    case GC_P_ASSIGN: add_stmt(x, op, 1, rd_str(x, S_NAME)); break;
    case GC_P_RETURN: case GC_P_YIELD: add_stmt(x, in_def(x, op), 1, none); break;
    case GC_P_EXCEPT: case GC_P_DEF: case GC_P_FOR: case GC_P_ASYNCDEF: block_op(x, op, rd_str(x, S_NAME)); break;
    default: block_op(x, op, none); break;
    }
}

void gc_program_decode(const uint8_t *data, size_t size, gc_program *p)
{
    decoder x;
    memset(&x, 0, sizeof x);
    p->nexprs = p->nstmts = 0;
    p->arena_used = 0;
    x.d = data;
    x.n = size < GC_P_MAX_INPUT ? size : GC_P_MAX_INPUT;
    x.p = p;
    while (x.i < x.n)
        step(&x, (uint8_t)(rd(&x) % GC_P_NOPS));
}

/* ---- encoding ---- */

typedef struct {
    uint8_t *o;
    size_t cap, n;
    int over;
} encoder;

static void put(encoder *w, uint8_t b)
{
    if (w->n < w->cap)
        w->o[w->n++] = b;
    else
        w->over = 1;
}

static void put_str(encoder *w, const gc_program *p, gc_p_str s)
{
    put(w, (uint8_t)s.len);
    for (int k = 0; k < s.len; k++)
        put(w, (uint8_t)p->arena[s.off + k]);
}

/* Post-order: the children, then the node's opcode and operands. */
static void put_expr(encoder *w, const gc_program *p, int i)
{
    const gc_p_expr *e = &p->e[i];
    for (int k = 0; k < e->n; k++)
        put_expr(w, p, e->a[k]);
    put(w, e->op);
    if (gc_p_has_str(e->op))
        put_str(w, p, e->s);
    else if (e->op == GC_P_INT)
        put(w, (uint8_t)e->ival);
    else if (e->op == GC_P_LIST || e->op == GC_P_TUPLE)
        put(w, e->n);
    else if (e->op == GC_P_CALL)
        put(w, (uint8_t)(e->n - 1));
}

size_t gc_program_encode(const gc_program *p, uint8_t *out, size_t cap)
{
    encoder w = {out, cap, 0, 0};
    int depth = 0;
    for (int i = 0; i < p->nstmts; i++) {
        const gc_p_stmt *st = &p->s[i];
        int want = st->op == GC_P_EXCEPT ? st->depth + 1 : st->depth;
        for (; depth > want; depth--)
            put(&w, GC_P_END);
        if (st->op == GC_P_EXPR || st->op == GC_P_ASSIGN || st->op == GC_P_RETURN || st->op == GC_P_YIELD ||
            st->op == GC_P_FOR)
            put_expr(&w, p, st->expr);
        put(&w, st->op);
        if (gc_p_has_str(st->op))
            put_str(&w, p, st->s);
        depth += st->op == GC_P_TRY || st->op == GC_P_DEF || st->op == GC_P_FOR || st->op == GC_P_ASYNCDEF;
    }
    return w.over ? 0 : w.n;
}

/* ---- printing ---- */

static void print_str_literal(const gc_program *p, gc_p_str s, gc_strbuf *out)
{
    gc_sb_putc(out, '\'');
    for (int k = 0; k < s.len; k++) {
        uint8_t c = (uint8_t)p->arena[s.off + k];
        if (c == '\\' || c == '\'')
            gc_sb_printf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            gc_sb_printf(out, "\\x%02x", c);
        else
            gc_sb_putc(out, (char)c);
    }
    gc_sb_putc(out, '\'');
}

static void print_expr(const gc_program *p, int i, unsigned dialect, gc_strbuf *out);

static void print_list(const gc_program *p, const gc_p_expr *e, int from, unsigned dialect, gc_strbuf *out)
{
    for (int k = from; k < e->n; k++) {
        if (k > from)
            gc_sb_puts(out, ", ");
        print_expr(p, e->a[k], dialect, out);
    }
}

/* A trailer's base: an int literal is parenthesized ('1.x' would be a float). */
static void print_base(const gc_program *p, int i, unsigned dialect, gc_strbuf *out)
{
    int paren = p->e[i].op == GC_P_INT;
    if (paren)
        gc_sb_putc(out, '(');
    print_expr(p, i, dialect, out);
    if (paren)
        gc_sb_putc(out, ')');
}

/* '{0.a[k]}'.format(e) or '{k.a[k]}'.format_map({'k': e}): the field is data, so no dialect
 * hides its '_' names. */
static void print_field(const gc_program *p, const gc_p_expr *e, unsigned dialect, gc_strbuf *out)
{
    const char *s = p->arena + e->s.off;
    const char *sep = e->s.len && s[0] != '.' && s[0] != '[' ? "." : "";
    int map = e->op == GC_P_FMTMAP;
    gc_sb_printf(out, "'{%s%s%.*s}'.%s", map ? "k" : "0", sep, e->s.len, s, map ? "format_map({'k': " : "format(");
    print_expr(p, e->a[0], dialect, out);
    gc_sb_puts(out, map ? "})" : ")");
}

static void print_expr(const gc_program *p, int i, unsigned dialect, gc_strbuf *out)
{
    const gc_p_expr *e = &p->e[i];
    const char *s = p->arena + e->s.off;
    switch (e->op) {
    case GC_P_NAME: gc_sb_putn(out, s, e->s.len); break;
    case GC_P_STR: print_str_literal(p, e->s, out); break;
    case GC_P_INT: gc_sb_printf(out, e->ival < 0 ? "(%d)" : "%d", e->ival); break;
    case GC_P_NONE: gc_sb_puts(out, "None"); break;
    case GC_P_TRUE: gc_sb_puts(out, "True"); break;
    case GC_P_FALSE: gc_sb_puts(out, "False"); break;
    case GC_P_LIST: gc_sb_putc(out, '['); print_list(p, e, 0, dialect, out); gc_sb_putc(out, ']'); break;
    case GC_P_TUPLE:
        gc_sb_putc(out, '(');
        print_list(p, e, 0, dialect, out);
        gc_sb_puts(out, e->n == 1 ? ",)" : ")");
        break;
    case GC_P_ATTR:
        if ((dialect & GC_DIALECT_NO_UNDERSCORE) && s[0] == '_') { /* the walk hidden in a string */
            gc_sb_puts(out, "getattr(");
            print_expr(p, e->a[0], dialect, out);
            gc_sb_printf(out, ", '%.*s')", e->s.len, s);
        } else {
            print_base(p, e->a[0], dialect, out);
            gc_sb_printf(out, ".%.*s", e->s.len, s);
        }
        break;
    case GC_P_ITEM:
        print_base(p, e->a[0], dialect, out);
        gc_sb_putc(out, '[');
        print_expr(p, e->a[1], dialect, out);
        gc_sb_putc(out, ']');
        break;
    case GC_P_CALL:
        print_base(p, e->a[0], dialect, out);
        gc_sb_putc(out, '(');
        print_list(p, e, 1, dialect, out);
        gc_sb_putc(out, ')');
        break;
    case GC_P_FMT:
        gc_sb_printf(out, "'{0%s%.*s}'.format(", e->s.len ? "." : "", e->s.len, s);
        print_expr(p, e->a[0], dialect, out);
        gc_sb_putc(out, ')');
        break;
    case GC_P_FIELD: case GC_P_FMTMAP: print_field(p, e, dialect, out); break;
    case GC_P_EQ:
        gc_sb_putc(out, '(');
        print_expr(p, e->a[0], dialect, out);
        gc_sb_puts(out, " == ");
        print_expr(p, e->a[1], dialect, out);
        gc_sb_putc(out, ')');
        break;
    default: /* GC_P_COMP, GC_P_GEN, GC_P_FILTER */
        gc_sb_putc(out, e->op == GC_P_GEN ? '(' : '[');
        print_expr(p, e->a[0], dialect, out);
        gc_sb_printf(out, " for %.*s in ", e->s.len, s);
        print_expr(p, e->a[1], dialect, out);
        if (e->op == GC_P_FILTER) {
            gc_sb_puts(out, " if ");
            print_expr(p, e->a[2], dialect, out);
        }
        gc_sb_putc(out, e->op == GC_P_GEN ? ')' : ']');
        break;
    }
}

static void indent(gc_strbuf *out, int depth)
{
    for (int k = 0; k < depth; k++)
        gc_sb_puts(out, "    ");
}

/* Does the try at statement i get its except (the next statement at its depth or less)? */
static int has_except(const gc_program *p, int i)
{
    for (int j = i + 1; j < p->nstmts; j++)
        if (p->s[j].depth <= p->s[i].depth)
            return p->s[j].op == GC_P_EXCEPT && p->s[j].depth == p->s[i].depth;
    return 0;
}

/* After statement i: what closes the blocks that end there ('pass' for an empty body, the
 * missing except of a try). */
static void close_blocks(const gc_program *p, int i, gc_strbuf *out)
{
    const gc_p_stmt *st = &p->s[i];
    int next = i + 1 < p->nstmts ? p->s[i + 1].depth : 0;
    if ((st->op == GC_P_TRY || st->op == GC_P_EXCEPT || st->op == GC_P_DEF || st->op == GC_P_FOR ||
         st->op == GC_P_ASYNCDEF) &&
        next <= st->depth) {
        indent(out, st->depth + 1);
        gc_sb_puts(out, "pass\n");
    }
    /* every try opened at a depth the program now leaves, and not followed by its except */
    for (int j = i; j >= 0; j--) {
        const gc_p_stmt *t = &p->s[j];
        if (t->op != GC_P_TRY || t->depth < next || has_except(p, j))
            continue;
        int last = j; /* the try's body ends at i exactly when i is its last statement */
        while (last + 1 < p->nstmts && p->s[last + 1].depth > t->depth)
            last++;
        if (last == i) {
            indent(out, t->depth);
            gc_sb_puts(out, "except Exception:\n");
            indent(out, t->depth + 1);
            gc_sb_puts(out, "pass\n");
        }
    }
}

static void print_stmt(const gc_program *p, const gc_p_stmt *st, unsigned dialect, gc_strbuf *out)
{
    const char *s = p->arena + st->s.off;
    indent(out, st->depth);
    switch (st->op) {
    case GC_P_ASSIGN: gc_sb_printf(out, "%.*s = ", st->s.len, s); break;
    case GC_P_RETURN: gc_sb_puts(out, "return "); break;
    case GC_P_YIELD: gc_sb_puts(out, "yield "); break;
    case GC_P_TRY: gc_sb_puts(out, "try:\n"); return;
    case GC_P_EXCEPT: gc_sb_printf(out, "except Exception as %.*s:\n", st->s.len, s); return;
    case GC_P_DEF: gc_sb_printf(out, "def %.*s():\n", st->s.len, s); return;
    case GC_P_ASYNCDEF: gc_sb_printf(out, "async def %.*s():\n", st->s.len, s); return;
    case GC_P_FOR:
        gc_sb_printf(out, "for %.*s in ", st->s.len, s);
        print_expr(p, st->expr, dialect, out);
        gc_sb_puts(out, ":\n");
        return;
    default: break;
    }
    print_expr(p, st->expr, dialect, out);
    gc_sb_putc(out, '\n');
}

void gc_program_print(const gc_program *p, unsigned dialect, gc_strbuf *out)
{
    if (dialect & GC_DIALECT_EXPRESSION) {
        int last = -1;
        for (int i = 0; i < p->nstmts; i++)
            if (p->s[i].op == GC_P_EXPR || p->s[i].op == GC_P_ASSIGN || p->s[i].op == GC_P_RETURN ||
                p->s[i].op == GC_P_YIELD)
                last = i;
        if (last < 0)
            gc_sb_puts(out, "None");
        else
            print_expr(p, p->s[last].expr, dialect, out);
        gc_sb_putc(out, '\n');
        return;
    }
    unsigned steps = GC_DIALECT_STEPS(dialect), top = 0;
    for (int i = 0; i < p->nstmts; i++) {
        /* an except clause is part of its try statement: no step starts there */
        if (p->s[i].depth == 0 && p->s[i].op != GC_P_EXCEPT && top++ > 0 && top <= steps)
            gc_sb_puts(out, GC_STEP_MARKER "\n");
        print_stmt(p, &p->s[i], dialect, out);
        close_blocks(p, i, out);
    }
}

/* ---- op boundaries (triage's minimizer, triage/source_triage.c) ---- */

size_t gc_program_op_len(const uint8_t *data, size_t size, size_t off, gc_p_operand *kind)
{
    uint8_t op = (uint8_t)(data[off] % GC_P_NOPS);
    int str = gc_p_has_str(op); /* GEN and FOR too: before, their names were read as opcodes */
    int byte = op == GC_P_INT || op == GC_P_LIST || op == GC_P_TUPLE || op == GC_P_CALL;
    *kind = str ? GC_P_OPERAND_STR : byte ? GC_P_OPERAND_BYTE : GC_P_OPERAND_NONE;
    size_t n = 1 + (size_t)(str || byte);
    if (str && off + 1 < size)
        n += data[off + 1] % (GC_P_MAX_STRLEN + 1);
    return off + n <= size ? n : size - off;
}
