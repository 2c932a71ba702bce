/* program.c — see program.h. */
#include "program.h"

#include <string.h>

/* Each opcode's operands in the order they follow it: a string of one of the kinds below
 * (str_kind), or 'B' a byte.  The decoder reads them, the encoder writes them and
 * gc_program_op_len skips them by this one table. */
static const char *const operands[GC_P_NOPS] = {
    [GC_P_NAME] = "n", [GC_P_STR] = "r", [GC_P_INT] = "B", [GC_P_LIST] = "B", [GC_P_TUPLE] = "B",
    [GC_P_ATTR] = "n", [GC_P_CALL] = "B", [GC_P_FMT] = "f", [GC_P_COMP] = "n", [GC_P_ASSIGN] = "n",
    [GC_P_EXCEPT] = "n", [GC_P_DEF] = "n", [GC_P_GEN] = "n", [GC_P_FOR] = "n", [GC_P_FIELD] = "p",
    [GC_P_FMTMAP] = "p", [GC_P_FILTER] = "n", [GC_P_ASYNCDEF] = "n", [GC_P_KW] = "n", [GC_P_IMPORT] = "mo",
    [GC_P_FROM] = "Mno", [GC_P_WITH] = "o", [GC_P_CLASS] = "n", [GC_P_BINOP] = "B", [GC_P_UNARY] = "B",
    [GC_P_BOOLOP] = "B", [GC_P_CMP] = "B", [GC_P_LAMBDA] = "o", [GC_P_LAMBDAKW] = "n", [GC_P_DICT] = "B",
    [GC_P_SET] = "B", [GC_P_SLICE] = "B", [GC_P_DICTCOMP] = "n", [GC_P_SETCOMP] = "n", [GC_P_WALRUS] = "n",
    [GC_P_FSTR] = "s", [GC_P_BYTES] = "r", [GC_P_AUG] = "B", [GC_P_ANN] = "n", [GC_P_GLOBAL] = "n",
    [GC_P_NONLOCAL] = "n", [GC_P_ASYNCFOR] = "n", [GC_P_ASYNCWITH] = "o", [GC_P_EXCEPTSTAR] = "n",
    [GC_P_TYPEALIAS] = "n", [GC_P_TPARAM] = "nB",
};

static const char *ops_of(uint8_t op)
{
    return op < GC_P_NOPS && operands[op] ? operands[op] : "";
}

/* The operators, by their operand byte modulo their count. */
static const char *const binops[] = {"+", "-", "*", "/", "//", "%", "**", "<<", ">>", "|", "^", "&", "@"};
static const char *const unops[] = {"not ", "-", "+", "~"};
static const char *const boolops[] = {"and", "or"};
static const char *const cmpops[] = {"==", "!=", "<", "<=", ">", ">=", "is", "is not", "in", "not in"};
#define NBIN ((int)(sizeof binops / sizeof binops[0]))
#define NCMP ((int)(sizeof cmpops / sizeof cmpops[0]))

/* ---- decoding ---- */

typedef struct {
    const uint8_t *d;
    size_t n, i;
    gc_program *p;
    uint16_t stack[GC_P_MAX_STACK];
    int sp;
    int depth, nblocks;
    uint8_t block[GC_P_MAX_BLOCKS]; /* the opener of each open block (EXCEPT, ELSE, EXCEPTSTAR past
                                       their clause) */
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

/* String kinds, by their letter in the operand table: raw bytes, a name, a FMT field, a
 * FIELD path, a module (dotted names; 'M': leading dots kept, a relative import), an optional
 * name (empty: none), an f-string format spec. */
typedef enum { S_RAW, S_NAME, S_FIELD, S_PATH, S_MODULE, S_RELMODULE, S_OPTNAME, S_SPEC } str_kind;

static str_kind kind_of(char c)
{
    switch (c) {
    case 'n': return S_NAME;
    case 'f': return S_FIELD;
    case 'p': return S_PATH;
    case 'm': return S_MODULE;
    case 'M': return S_RELMODULE;
    case 'o': return S_OPTNAME;
    case 's': return S_SPEC;
    default: return S_RAW;
    }
}

static int spec_char(uint8_t c)
{
    return ident_char(c) || (c && strchr(".<>^=+-, %", c) != NULL);
}

/* A module part that is a keyword (or __future__, whose from-import compiles only as the
 * first statement with a known feature) gets its first letter's case turned, '_' made 'x':
 * the same length, never a keyword again. */
static void module_part(char *o, size_t n)
{
    if (!is_keyword(o, n) && !(n == 10 && memcmp(o, "__future__", 10) == 0))
        return;
    o[0] = o[0] == '_' ? 'x' : (o[0] >= 'a' && o[0] <= 'z') ? (char)(o[0] - 32) : (char)(o[0] + 32);
}

/* o[0..n) (identifier bytes and dots) as a module name in place: a relative one keeps its
 * leading dots; then parts of one dot each, none empty, none starting with a digit, none a
 * keyword.  Its new length: never longer, so idempotent within the operand's bound. */
static size_t module_name(char *o, size_t n, int rel)
{
    size_t r = 0, w = 0;
    while (rel && r < n && o[r] == '.')
        o[w++] = o[r++];
    size_t lead = w, part = w;
    for (; r < n; r++) {
        if (o[r] == '.') {
            if (w == part)
                continue;
            module_part(o + part, w - part);
            o[w++] = '.';
            part = w;
        } else {
            char ch = part == w && o[r] >= '0' && o[r] <= '9' ? (char)('a' + (o[r] - '0')) : o[r];
            o[w++] = ch;
        }
    }
    if (w > part)
        module_part(o + part, w - part);
    else if (w > lead)
        w--; /* a trailing dot */
    if (w == 0)
        o[w++] = 'x';
    return w;
}

/* A string operand into the arena, made what its kind allows.  Idempotent: a string it
 * gave decodes to itself, so encoding round-trips. */
static gc_p_str rd_str(decoder *x, str_kind kind)
{
    size_t len = rd(x) % (GC_P_MAX_STRLEN + 1);
    gc_program *p = x->p;
    gc_p_str s = {(uint16_t)p->arena_used, 0};
    int name = kind == S_NAME || kind == S_OPTNAME, module = kind == S_MODULE || kind == S_RELMODULE;
    if (p->arena_used + len + 2 > GC_P_ARENA)
        len = 0;
    char *o = p->arena + p->arena_used;
    for (size_t k = 0; k < len && x->i < x->n; k++) {
        uint8_t c = rd(x);
        if ((name || module) && !ident_char(c) && !(module && c == '.'))
            c = (uint8_t)('a' + c % 26);
        if ((kind == S_FIELD || kind == S_PATH) && !ident_char(c) && c != '.' &&
            !(kind == S_PATH && (c == '[' || c == ']')))
            continue;
        if (kind == S_SPEC && !spec_char(c))
            continue;
        if (name && s.len == 0 && c >= '0' && c <= '9')
            c = (uint8_t)('a' + (c - '0'));
        o[s.len++] = (char)c;
    }
    if (kind == S_NAME && s.len == 0)
        o[s.len++] = 'x';
    if (name && is_keyword(o, s.len))
        o[s.len++] = '_';
    if (module)
        s.len = (uint16_t)module_name(o, s.len, kind == S_RELMODULE);
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

/* A statement popping 'pops' values (0..2; the first pushed is expr): it, or NULL. */
static gc_p_stmt *add_stmt(decoder *x, uint8_t op, int pops, gc_p_str s)
{
    gc_program *p = x->p;
    if (x->sp < pops || p->nstmts >= GC_P_MAX_STMTS)
        return NULL;
    gc_p_stmt *st = &p->s[p->nstmts++];
    memset(st, 0, sizeof *st);
    st->op = op;
    st->depth = (uint8_t)x->depth;
    st->s = s;
    if (pops == 2)
        st->expr2 = x->stack[--x->sp];
    if (pops >= 1)
        st->expr = x->stack[--x->sp];
    return st;
}

/* How many values a statement of 'op' pops. */
static int stmt_pops(uint8_t op)
{
    switch (op) {
    case GC_P_EXPR: case GC_P_ASSIGN: case GC_P_RETURN: case GC_P_YIELD: case GC_P_YIELDFROM: case GC_P_FOR:
    case GC_P_IF: case GC_P_WHILE: case GC_P_WITH: case GC_P_CLASS: case GC_P_ASYNCFOR: case GC_P_ASYNCWITH:
    case GC_P_DEL: case GC_P_RAISE: case GC_P_DECO: case GC_P_MATCH: case GC_P_CASE: case GC_P_TYPEALIAS:
        return 1;
    case GC_P_STORE: case GC_P_AUG: case GC_P_ANN: case GC_P_RAISEFROM: case GC_P_ASSERT: return 2;
    default: return 0;
    }
}

/* Block openers, their clauses and END: the block structure.  A clause (except, except*,
 * else) stands only right after the body of what it belongs to; a case only in a match's
 * block, the first one opening a block there, the next ones its clauses. */
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
    if (op == GC_P_EXCEPT || op == GC_P_EXCEPTSTAR || op == GC_P_ELSE || (op == GC_P_CASE && top == GC_P_CASE)) {
        int fits = op == GC_P_ELSE   ? top == GC_P_IF || top == GC_P_FOR || top == GC_P_WHILE || top == GC_P_ASYNCFOR
                 : op == GC_P_CASE ? 1
                                     : top == GC_P_TRY;
        if (!fits || p->nstmts >= GC_P_MAX_STMTS || x->sp < stmt_pops(op))
            return;
        x->depth--;
        add_stmt(x, op, stmt_pops(op), s);
        x->depth++;
        x->block[x->nblocks - 1] = op;
        return;
    }
    if (x->nblocks >= GC_P_MAX_BLOCKS || p->nstmts >= GC_P_MAX_STMTS || x->sp < stmt_pops(op) ||
        (op == GC_P_CASE && top != GC_P_MATCH))
        return;
    add_stmt(x, op, stmt_pops(op), s);
    x->has[x->nblocks] = 0;
    x->block[x->nblocks++] = op;
    x->depth++;
}

/* RETURN, YIELD or YIELDFROM as it stands here: itself in a def's block (the innermost
 * scope), else EXPR; and EXPR where the other one is in the same async def (an async
 * generator's return takes no value: it would not compile), for a yield from in an async
 * def, in a class body and in an except* block. */
static uint8_t in_def(decoder *x, uint8_t op)
{
    uint8_t bit = op == GC_P_RETURN ? 1 : 2;
    for (int b = x->nblocks - 1; b >= 0; b--) {
        if (x->block[b] == GC_P_CLASS || x->block[b] == GC_P_EXCEPTSTAR)
            return GC_P_EXPR;
        if (x->block[b] != GC_P_DEF && x->block[b] != GC_P_ASYNCDEF)
            continue;
        if (x->block[b] == GC_P_ASYNCDEF && (op == GC_P_YIELDFROM || (x->has[b] | bit) == 3))
            return GC_P_EXPR;
        if (x->sp >= 1 && x->p->nstmts < GC_P_MAX_STMTS) /* it will be added */
            x->has[b] |= bit;
        return op;
    }
    return GC_P_EXPR;
}

/* Is the innermost scope here an async def (async for / async with stand only there)? */
static int in_async(const decoder *x)
{
    for (int b = x->nblocks - 1; b >= 0; b--)
        if (x->block[b] == GC_P_DEF || x->block[b] == GC_P_ASYNCDEF || x->block[b] == GC_P_CLASS)
            return x->block[b] == GC_P_ASYNCDEF;
    return 0;
}

/* Is a loop the innermost of loops, scopes and except* blocks here (break, continue)? */
static int in_loop(const decoder *x)
{
    for (int b = x->nblocks - 1; b >= 0; b--) {
        uint8_t k = x->block[b];
        if (k == GC_P_FOR || k == GC_P_WHILE || k == GC_P_ASYNCFOR)
            return 1;
        if (k == GC_P_DEF || k == GC_P_ASYNCDEF || k == GC_P_CLASS || k == GC_P_EXCEPTSTAR)
            return 0;
    }
    return 0;
}

/* An expression op: its children's count from its byte operand b, and its ival. */
static void expr_op(decoder *x, uint8_t op, uint8_t b, gc_p_str s)
{
    int n = 0, ival = 0;
    switch (op) {
    case GC_P_INT: ival = (int8_t)b; break;
    case GC_P_LIST: case GC_P_TUPLE: n = b % (GC_P_MAX_ARGS + 1); break;
    case GC_P_CALL: n = 1 + b % (GC_P_MAX_ARGS + 1); break;
    case GC_P_ITEM: case GC_P_EQ: case GC_P_COMP: case GC_P_GEN: case GC_P_SETCOMP: case GC_P_LAMBDAKW: n = 2; break;
    case GC_P_FILTER: case GC_P_DICTCOMP: case GC_P_IFEXP: n = 3; break;
    case GC_P_ATTR: case GC_P_FMT: case GC_P_FIELD: case GC_P_FMTMAP: case GC_P_KW: case GC_P_STAR: case GC_P_DSTAR:
    case GC_P_LAMBDA: case GC_P_WALRUS: case GC_P_AWAIT: case GC_P_FSTR:
        n = 1;
        break;
    case GC_P_BINOP: n = 2, ival = b % NBIN; break;
    case GC_P_UNARY: n = 1, ival = b % 4; break;
    case GC_P_BOOLOP: n = 2, ival = b % 2; break;
    case GC_P_CMP: n = 2, ival = b % NCMP; break;
    case GC_P_DICT: n = 2 * (b % 3); break;
    case GC_P_SET: n = 1 + b % GC_P_MAX_ARGS; break;
    case GC_P_SLICE: ival = b % 8, n = 1 + (ival & 1) + (ival >> 1 & 1) + (ival >> 2 & 1); break;
    default: break; /* STR, NAME, BYTES, NONE, TRUE, FALSE, ELLIPSIS: leaves */
    }
    int k = push_node(x, op, n);
    if (k >= 0) {
        x->p->e[k].s = s;
        x->p->e[k].ival = (int8_t)ival;
    }
}

/* Is 'op' a statement's (it adds one, or ends a block)?  The rest push expressions. */
static int is_stmt_op(uint8_t op)
{
    return stmt_pops(op) || gc_p_has_body(op) || op == GC_P_END || op == GC_P_PASS || op == GC_P_BREAK ||
           op == GC_P_CONTINUE || op == GC_P_GLOBAL || op == GC_P_NONLOCAL || op == GC_P_IMPORT || op == GC_P_FROM ||
           op == GC_P_TPARAM;
}

static void step(decoder *x, uint8_t op)
{
    gc_p_str str[3] = {{0, 0}, {0, 0}, {0, 0}};
    uint8_t b = 0;
    int ns = 0;
    for (const char *o = ops_of(op); *o; o++) /* the operands first, whatever the op does */
        if (*o == 'B')
            b = rd(x);
        else
            str[ns++] = rd_str(x, kind_of(*o));
    if (x->nblocks && x->block[x->nblocks - 1] == GC_P_MATCH && is_stmt_op(op) && op != GC_P_CASE && op != GC_P_END)
        return; /* a match's block holds cases only */
    gc_p_stmt *st;
    switch (op) {
    case GC_P_EXPR: case GC_P_ASSIGN: case GC_P_STORE: case GC_P_ANN: case GC_P_DEL: case GC_P_RAISE:
    case GC_P_RAISEFROM: case GC_P_ASSERT: case GC_P_DECO: case GC_P_PASS: case GC_P_GLOBAL: case GC_P_NONLOCAL:
    case GC_P_TYPEALIAS:
        add_stmt(x, op, stmt_pops(op), str[0]);
        break;
    case GC_P_TPARAM:
        if ((st = add_stmt(x, op, 0, str[0])) != NULL)
            st->ival = b % 3;
        break;
    case GC_P_AUG:
        if ((st = add_stmt(x, op, 2, str[0])) != NULL)
            st->ival = b % NBIN;
        break;
    case GC_P_IMPORT: case GC_P_FROM:
        if ((st = add_stmt(x, op, 0, str[0])) != NULL)
            st->t = str[1], st->u = str[2];
        break;
    case GC_P_BREAK: case GC_P_CONTINUE: add_stmt(x, in_loop(x) ? op : GC_P_PASS, 0, str[0]); break;
    case GC_P_RETURN: case GC_P_YIELD: case GC_P_YIELDFROM: add_stmt(x, in_def(x, op), 1, str[0]); break;
    case GC_P_ASYNCFOR: block_op(x, in_async(x) ? op : GC_P_FOR, str[0]); break;
    case GC_P_ASYNCWITH: block_op(x, in_async(x) ? op : GC_P_WITH, str[0]); break;
    case GC_P_TRY: case GC_P_EXCEPT: case GC_P_DEF: case GC_P_END: case GC_P_FOR: case GC_P_ASYNCDEF: case GC_P_IF:
    case GC_P_ELSE: case GC_P_WHILE: case GC_P_WITH: case GC_P_CLASS: case GC_P_EXCEPTSTAR: case GC_P_MATCH:
    case GC_P_CASE:
        block_op(x, op, str[0]);
        break;
    default: expr_op(x, op, b, str[0]); break;
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

/* An op's operands by the table: its strings in turn, its byte. */
static void put_operands(encoder *w, const gc_program *p, uint8_t op, const gc_p_str *strs, uint8_t byte)
{
    int ns = 0;
    for (const char *o = ops_of(op); *o; o++)
        if (*o == 'B')
            put(w, byte);
        else
            put_str(w, p, strs[ns++]);
}

/* The byte operand that decodes to node e. */
static uint8_t byte_operand(const gc_p_expr *e)
{
    switch (e->op) {
    case GC_P_LIST: case GC_P_TUPLE: return e->n;
    case GC_P_CALL: case GC_P_SET: return (uint8_t)(e->n - 1);
    case GC_P_DICT: return (uint8_t)(e->n / 2);
    default: return (uint8_t)e->ival;
    }
}

/* Post-order: the children, then the node's opcode and operands. */
static void put_expr(encoder *w, const gc_program *p, int i)
{
    const gc_p_expr *e = &p->e[i];
    for (int k = 0; k < e->n; k++)
        put_expr(w, p, e->a[k]);
    put(w, e->op);
    put_operands(w, p, e->op, &e->s, byte_operand(e));
}

/* A clause, and a case: encoded inside the block before it (a case opens its match's). */
static int is_clause(uint8_t op)
{
    return op == GC_P_EXCEPT || op == GC_P_EXCEPTSTAR || op == GC_P_ELSE || op == GC_P_CASE;
}

size_t gc_program_encode(const gc_program *p, uint8_t *out, size_t cap)
{
    encoder w = {out, cap, 0, 0};
    int depth = 0;
    for (int i = 0; i < p->nstmts; i++) {
        const gc_p_stmt *st = &p->s[i];
        int want = is_clause(st->op) ? st->depth + 1 : st->depth, pops = stmt_pops(st->op);
        for (; depth > want; depth--)
            put(&w, GC_P_END);
        if (pops >= 1)
            put_expr(&w, p, st->expr);
        if (pops == 2)
            put_expr(&w, p, st->expr2);
        put(&w, st->op);
        gc_p_str strs[3] = {st->s, st->t, st->u};
        put_operands(&w, p, st->op, strs, st->ival);
        depth = st->op == GC_P_CASE ? st->depth + 1 : depth + gc_p_opens_block(st->op);
    }
    return w.over ? 0 : w.n;
}

/* ---- printing ---- */

/* What printing one statement's expressions knows: the program, the dialect, where it is
 * (an async def's scope, a lambda, a comprehension, a type alias's value or a generic
 * class's bases) and the count of forms dropped. */
typedef struct {
    const gc_program *p;
    unsigned dialect;
    int async_ok, in_lambda, in_comp;
    int *dropped;
    int in_type; /* 1 an annotation scope, 2 one in a class body (3.12.1 refuses lambdas and
                    comprehensions there) */
} pctx;

static void print_str_literal(const gc_program *p, const char *prefix, gc_p_str s, gc_strbuf *out)
{
    gc_sb_printf(out, "%s'", prefix);
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

static void print_expr(const pctx *c, int i, gc_strbuf *out);

/* What node i is as a value: KW, STAR and DSTAR are their operand where no call or display
 * takes them. */
static int value_node(const gc_program *p, int i)
{
    while (p->e[i].op == GC_P_KW || p->e[i].op == GC_P_STAR || p->e[i].op == GC_P_DSTAR)
        i = p->e[i].a[0];
    return i;
}

/* Elements of a list, tuple or set display: *e kept. */
static void print_elems(const pctx *c, const gc_p_expr *e, gc_strbuf *out)
{
    for (int k = 0; k < e->n; k++) {
        if (k > 0)
            gc_sb_puts(out, ", ");
        if (c->p->e[e->a[k]].op == GC_P_STAR) {
            gc_sb_putc(out, '*');
            print_expr(c, c->p->e[e->a[k]].a[0], out);
        } else {
            print_expr(c, e->a[k], out);
        }
    }
}

/* A call's (or a class's) arguments: the positional ones and *e first, then s=e and **e (a
 * keyword already given is written **{'s': e}: it compiles, and fails as the call runs). */
static void print_args(const pctx *c, const uint16_t *a, int n, gc_strbuf *out)
{
    const gc_program *p = c->p;
    int first = 1;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < n; k++) {
            const gc_p_expr *e = &p->e[a[k]];
            int named = e->op == GC_P_KW || e->op == GC_P_DSTAR;
            if (named != pass)
                continue;
            gc_sb_puts(out, first ? "" : ", ");
            first = 0;
            int again = 0;
            for (int j = 0; e->op == GC_P_KW && j < k && !again; j++) {
                const gc_p_expr *f = &p->e[a[j]];
                again = f->op == GC_P_KW && f->s.len == e->s.len && memcmp(p->arena + f->s.off, p->arena + e->s.off, e->s.len) == 0;
            }
            if (e->op == GC_P_KW && !again)
                gc_sb_printf(out, "%.*s=", e->s.len, p->arena + e->s.off);
            else if (e->op == GC_P_KW)
                gc_sb_printf(out, "**{'%.*s': ", e->s.len, p->arena + e->s.off);
            else if (e->op == GC_P_STAR || e->op == GC_P_DSTAR)
                gc_sb_puts(out, e->op == GC_P_STAR ? "*" : "**");
            print_expr(c, e->op == GC_P_KW || e->op == GC_P_STAR || e->op == GC_P_DSTAR ? e->a[0] : a[k], out);
            if (again)
                gc_sb_putc(out, '}');
        }
}

/* A trailer's base: an int literal or an ellipsis is parenthesized ('1.x' would be a float),
 * and so is what may be printed as its operand alone (await, walrus). */
static void print_base(const pctx *c, int i, gc_strbuf *out)
{
    uint8_t op = c->p->e[value_node(c->p, i)].op;
    int paren = op == GC_P_INT || op == GC_P_ELLIPSIS || op == GC_P_AWAIT || op == GC_P_WALRUS;
    if (paren)
        gc_sb_putc(out, '(');
    print_expr(c, i, out);
    if (paren)
        gc_sb_putc(out, ')');
}

/* '{0.a[k]}'.format(e) or '{k.a[k]}'.format_map({'k': e}): the field is data, so no dialect
 * hides its '_' names. */
static void print_field(const pctx *c, const gc_p_expr *e, gc_strbuf *out)
{
    const char *s = c->p->arena + e->s.off;
    const char *sep = e->s.len && s[0] != '.' && s[0] != '[' ? "." : "";
    int map = e->op == GC_P_FMTMAP;
    gc_sb_printf(out, "'{%s%s%.*s}'.%s", map ? "k" : "0", sep, e->s.len, s, map ? "format_map({'k': " : "format(");
    print_expr(c, e->a[0], out);
    gc_sb_puts(out, map ? "})" : ")");
}

/* [elt for s in it], (..), {..}, [.. if cond], {k: v for s in it}: inside, no walrus (it
 * could rebind the variable, or stand in the iterable or a class body). */
static void print_comp(const pctx *c, const gc_p_expr *e, gc_strbuf *out)
{
    pctx in = *c;
    in.in_comp = 1;
    int it = e->op == GC_P_DICTCOMP ? 2 : 1;
    gc_sb_putc(out, e->op == GC_P_GEN ? '(' : e->op == GC_P_DICTCOMP || e->op == GC_P_SETCOMP ? '{' : '[');
    print_expr(&in, e->a[0], out);
    if (e->op == GC_P_DICTCOMP) {
        gc_sb_puts(out, ": ");
        print_expr(&in, e->a[1], out);
    }
    gc_sb_printf(out, " for %.*s in ", e->s.len, c->p->arena + e->s.off);
    print_expr(&in, e->a[it], out);
    if (e->op == GC_P_FILTER) {
        gc_sb_puts(out, " if ");
        print_expr(&in, e->a[2], out);
    }
    gc_sb_putc(out, e->op == GC_P_GEN ? ')' : e->op == GC_P_DICTCOMP || e->op == GC_P_SETCOMP ? '}' : ']');
}

/* f"{ e :spec}": e alone where an f-string cannot hold its text (a backslash, a double quote
 * or a '#': Python 3.11's f-strings refuse them). */
static void print_fstring(const pctx *c, const gc_p_expr *e, gc_strbuf *out)
{
    gc_strbuf in;
    gc_sb_init(&in);
    print_expr(c, e->a[0], &in);
    if (strpbrk(in.data ? in.data : "", "\\\"#\n")) {
        (*c->dropped)++;
        gc_sb_putn(out, in.data, in.len);
    } else {
        gc_sb_printf(out, "f\"{ %s %s%.*s}\"", in.data ? in.data : "", e->s.len ? ":" : "", e->s.len,
                     c->p->arena + e->s.off);
    }
    gc_sb_free(&in);
}

static void print_slice(const pctx *c, const gc_p_expr *e, gc_strbuf *out)
{
    int k = 1;
    print_base(c, e->a[0], out);
    gc_sb_putc(out, '[');
    if (e->ival & 1)
        print_expr(c, e->a[k++], out);
    gc_sb_putc(out, ':');
    if (e->ival & 2)
        print_expr(c, e->a[k++], out);
    if (e->ival & 4) {
        gc_sb_putc(out, ':');
        print_expr(c, e->a[k++], out);
    }
    gc_sb_putc(out, ']');
}

static void print_dict(const pctx *c, const gc_p_expr *e, gc_strbuf *out)
{
    gc_sb_putc(out, '{');
    for (int k = 0; k + 1 < e->n; k += 2) {
        const gc_p_expr *key = &c->p->e[e->a[k]];
        gc_sb_puts(out, k ? ", " : "");
        if (key->op == GC_P_DSTAR) { /* {**m}: the pair's value is not written */
            gc_sb_puts(out, "**");
            print_expr(c, key->a[0], out);
            continue;
        }
        print_expr(c, e->a[k], out);
        gc_sb_puts(out, ": ");
        print_expr(c, e->a[k + 1], out);
    }
    gc_sb_putc(out, '}');
}

/* (lambda a: e), (lambda s=d: e): no await inside (a lambda is not async). */
static void print_lambda(const pctx *c, const gc_p_expr *e, gc_strbuf *out)
{
    pctx in = *c;
    in.in_lambda = 1;
    const char *s = c->p->arena + e->s.off;
    gc_sb_printf(out, "(lambda%s%.*s", e->s.len ? " " : "", e->s.len, s);
    if (e->op == GC_P_LAMBDAKW) {
        gc_sb_putc(out, '=');
        print_expr(&in, e->a[0], out);
    }
    gc_sb_puts(out, ": ");
    print_expr(&in, e->a[e->n - 1], out);
    gc_sb_putc(out, ')');
}

/* (a o b), (o a), (a if b else c), (s := e), (await e): always parenthesized. */
static void print_operator(const pctx *c, const gc_p_expr *e, gc_strbuf *out)
{
    const char *s = c->p->arena + e->s.off;
    int drop = (e->op == GC_P_WALRUS && (c->in_comp || c->in_type)) ||
               (e->op == GC_P_AWAIT && (!c->async_ok || c->in_lambda || c->in_type));
    if (drop) {
        (*c->dropped)++;
        print_expr(c, e->a[0], out);
        return;
    }
    gc_sb_putc(out, '(');
    switch (e->op) {
    case GC_P_UNARY: gc_sb_puts(out, unops[e->ival & 3]); break;
    case GC_P_WALRUS: gc_sb_printf(out, "%.*s := ", e->s.len, s); break;
    case GC_P_AWAIT: gc_sb_puts(out, "await "); break;
    default: break;
    }
    print_expr(c, e->a[0], out);
    switch (e->op) {
    case GC_P_EQ: gc_sb_puts(out, " == "); break;
    case GC_P_BINOP: gc_sb_printf(out, " %s ", binops[(uint8_t)e->ival % NBIN]); break;
    case GC_P_BOOLOP: gc_sb_printf(out, " %s ", boolops[e->ival & 1]); break;
    case GC_P_CMP: gc_sb_printf(out, " %s ", cmpops[(uint8_t)e->ival % NCMP]); break;
    case GC_P_IFEXP: gc_sb_puts(out, " if "); break;
    default: break;
    }
    if (e->n >= 2)
        print_expr(c, e->a[1], out);
    if (e->op == GC_P_IFEXP) {
        gc_sb_puts(out, " else ");
        print_expr(c, e->a[2], out);
    }
    gc_sb_putc(out, ')');
}

static void print_expr(const pctx *c, int i, gc_strbuf *out)
{
    const gc_program *p = c->p;
    const gc_p_expr *e = &p->e[i];
    const char *s = p->arena + e->s.off;
    switch (e->op) {
    case GC_P_NAME: gc_sb_putn(out, s, e->s.len); break;
    case GC_P_STR: print_str_literal(p, "", e->s, out); break;
    case GC_P_BYTES: print_str_literal(p, "b", e->s, out); break;
    case GC_P_INT: gc_sb_printf(out, e->ival < 0 ? "(%d)" : "%d", e->ival); break;
    case GC_P_NONE: gc_sb_puts(out, "None"); break;
    case GC_P_TRUE: gc_sb_puts(out, "True"); break;
    case GC_P_FALSE: gc_sb_puts(out, "False"); break;
    case GC_P_ELLIPSIS: gc_sb_puts(out, "..."); break;
    case GC_P_LIST: gc_sb_putc(out, '['); print_elems(c, e, out); gc_sb_putc(out, ']'); break;
    case GC_P_SET: gc_sb_putc(out, '{'); print_elems(c, e, out); gc_sb_putc(out, '}'); break;
    case GC_P_TUPLE:
        gc_sb_putc(out, '(');
        print_elems(c, e, out);
        gc_sb_puts(out, e->n == 1 ? ",)" : ")");
        break;
    case GC_P_DICT: print_dict(c, e, out); break;
    case GC_P_ATTR:
        if ((c->dialect & GC_DIALECT_NO_UNDERSCORE) && s[0] == '_') { /* the walk hidden in a string */
            gc_sb_puts(out, "getattr(");
            print_expr(c, e->a[0], out);
            gc_sb_printf(out, ", '%.*s')", e->s.len, s);
        } else {
            print_base(c, e->a[0], out);
            gc_sb_printf(out, ".%.*s", e->s.len, s);
        }
        break;
    case GC_P_ITEM:
        print_base(c, e->a[0], out);
        gc_sb_putc(out, '[');
        print_expr(c, e->a[1], out);
        gc_sb_putc(out, ']');
        break;
    case GC_P_SLICE: print_slice(c, e, out); break;
    case GC_P_CALL:
        print_base(c, e->a[0], out);
        gc_sb_putc(out, '(');
        print_args(c, e->a + 1, e->n - 1, out);
        gc_sb_putc(out, ')');
        break;
    case GC_P_FMT:
        gc_sb_printf(out, "'{0%s%.*s}'.format(", e->s.len ? "." : "", e->s.len, s);
        print_expr(c, e->a[0], out);
        gc_sb_putc(out, ')');
        break;
    case GC_P_FIELD: case GC_P_FMTMAP: print_field(c, e, out); break;
    case GC_P_FSTR: print_fstring(c, e, out); break;
    case GC_P_KW: case GC_P_STAR: case GC_P_DSTAR: print_expr(c, e->a[0], out); break;
    case GC_P_LAMBDA: case GC_P_LAMBDAKW: case GC_P_COMP: case GC_P_GEN: case GC_P_FILTER: case GC_P_DICTCOMP:
    case GC_P_SETCOMP:
        if (c->in_type == 2) { /* its body or iterable alone */
            (*c->dropped)++;
            print_expr(c, e->a[e->op == GC_P_LAMBDA || e->op == GC_P_LAMBDAKW ? e->n - 1 : e->op == GC_P_DICTCOMP ? 2 : 1],
                       out);
        } else if (e->op == GC_P_LAMBDA || e->op == GC_P_LAMBDAKW) {
            print_lambda(c, e, out);
        } else {
            print_comp(c, e, out);
        }
        break;
    default: print_operator(c, e, out); break; /* EQ, BINOP, UNARY, BOOLOP, CMP, IFEXP, WALRUS, AWAIT */
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
            return (p->s[j].op == GC_P_EXCEPT || p->s[j].op == GC_P_EXCEPTSTAR) && p->s[j].depth == p->s[i].depth;
    return 0;
}

/* After statement i: what closes the blocks that end there ('pass' for an empty body, the
 * missing except of a try). */
static void close_blocks(const gc_program *p, int i, gc_strbuf *out)
{
    const gc_p_stmt *st = &p->s[i];
    int next = i + 1 < p->nstmts ? p->s[i + 1].depth : 0;
    if (gc_p_has_body(st->op) && next <= st->depth) {
        indent(out, st->depth + 1);
        gc_sb_puts(out, st->op == GC_P_MATCH ? "case _:\n" : "pass\n");
        if (st->op == GC_P_MATCH) {
            indent(out, st->depth + 2);
            gc_sb_puts(out, "pass\n");
        }
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

/* One print: the program, the dialect, the forms dropped, and the statements' scopes:
 * scope[i] the def, async def or class whose body holds statement i (its innermost), -1 the
 * module. */
typedef struct {
    const gc_program *p;
    unsigned dialect;
    int dropped;
    int scope[GC_P_MAX_STMTS];
} printer;

static int same_str(const gc_program *p, gc_p_str a, const char *b, size_t n)
{
    return a.len == n && memcmp(p->arena + a.off, b, n) == 0;
}

static int is_scope(uint8_t op)
{
    return op == GC_P_DEF || op == GC_P_ASYNCDEF || op == GC_P_CLASS;
}

/* A method's parameters (a def in a class body), and is 'name' one of them? */
#define METHOD_PARAMS "self, *args, **kwargs"
static int method_param(const printer *pr, int sc, gc_p_str name)
{
    const gc_program *p = pr->p;
    if (sc < 0 || p->s[sc].op == GC_P_CLASS || pr->scope[sc] < 0 || p->s[pr->scope[sc]].op != GC_P_CLASS)
        return 0;
    return same_str(p, name, "self", 4) || same_str(p, name, "args", 4) || same_str(p, name, "kwargs", 6);
}

static void find_scopes(printer *pr)
{
    const gc_program *p = pr->p;
    int parent[GC_P_MAX_STMTS];
    for (int i = 0; i < p->nstmts; i++) {
        parent[i] = -1;
        for (int j = i - 1; j >= 0 && parent[i] < 0; j--)
            if (p->s[j].depth < p->s[i].depth)
                parent[i] = j;
        int j = parent[i];
        while (j >= 0 && !is_scope(p->s[j].op))
            j = parent[j];
        pr->scope[i] = j;
    }
}

/* Does statement k bind 'name' in its scope (the bindings a nonlocal may name)? */
static int binds(const gc_program *p, const gc_p_stmt *st, gc_p_str name)
{
    const char *s = p->arena + name.off;
    switch (st->op) {
    case GC_P_ASSIGN: case GC_P_FOR: case GC_P_ASYNCFOR: case GC_P_DEF: case GC_P_ASYNCDEF: case GC_P_CLASS:
    case GC_P_ANN: case GC_P_WITH: case GC_P_ASYNCWITH:
        return same_str(p, st->s, s, name.len);
    case GC_P_IMPORT: {
        if (st->t.len)
            return same_str(p, st->t, s, name.len);
        const char *m = p->arena + st->s.off, *dot = memchr(m, '.', st->s.len);
        return same_str(p, (gc_p_str){st->s.off, (uint16_t)(dot ? dot - m : st->s.len)}, s, name.len);
    }
    case GC_P_FROM: return same_str(p, st->u.len ? st->u : st->t, s, name.len);
    default: return 0;
    }
}

/* Does scope g declare 'name' global or nonlocal? */
static int declares(const printer *pr, int g, gc_p_str name)
{
    const gc_program *p = pr->p;
    for (int k = g + 1; k < p->nstmts; k++)
        if (pr->scope[k] == g && (p->s[k].op == GC_P_GLOBAL || p->s[k].op == GC_P_NONLOCAL) &&
            same_str(p, p->s[k].s, p->arena + name.off, name.len))
            return 1;
    return 0;
}

/* A global or nonlocal at i compiles when it names no parameter, every statement before it
 * in its scope is another such declaration (not of its name the other way), and a nonlocal
 * when a def around its
 * scope binds the name (classes between are passed) and no scope on the way declares it. */
static int declaration_ok(const printer *pr, int i)
{
    const gc_program *p = pr->p;
    const gc_p_stmt *st = &p->s[i];
    int sc = pr->scope[i];
    if (method_param(pr, sc, st->s)) /* a parameter cannot be declared global or nonlocal */
        return 0;
    for (int k = sc + 1; k < i; k++) {
        const gc_p_stmt *o = &p->s[k];
        if (pr->scope[k] != sc)
            continue;
        if (o->op != GC_P_GLOBAL && o->op != GC_P_NONLOCAL)
            return 0;
        if (o->op != st->op && same_str(p, o->s, p->arena + st->s.off, st->s.len))
            return 0;
    }
    if (st->op == GC_P_GLOBAL)
        return 1;
    for (int g = sc < 0 ? -1 : pr->scope[sc]; g >= 0; g = pr->scope[g]) {
        if (p->s[g].op == GC_P_CLASS)
            continue;
        if (declares(pr, g, st->s))
            return 0;
        for (int k = g + 1; k < p->nstmts; k++)
            if (pr->scope[k] == g && binds(p, &p->s[k], st->s))
                return 1;
    }
    return 0;
}

/* The def, class or type alias that the decorator or type parameter at i goes with: the
 * statement after it (past more decorators and type parameters) at its depth, or -1. */
static int prefixed(const gc_program *p, int i)
{
    int j = i + 1;
    while (j < p->nstmts && (p->s[j].op == GC_P_DECO || p->s[j].op == GC_P_TPARAM) && p->s[j].depth == p->s[i].depth)
        j++;
    return j < p->nstmts && p->s[j].depth == p->s[i].depth && (is_scope(p->s[j].op) || p->s[j].op == GC_P_TYPEALIAS)
               ? j
               : -1;
}

/* Is the decorator at i followed by a def or class it decorates? */
static int decorates(const gc_program *p, int i)
{
    int j = prefixed(p, i);
    return j >= 0 && is_scope(p->s[j].op);
}

/* The annotation scope of statement i's type parameters or alias: 2 in a class body. */
static int in_class_type(const printer *pr, int i)
{
    return pr->scope[i] >= 0 && pr->p->s[pr->scope[i]].op == GC_P_CLASS ? 2 : 1;
}

/* The type parameters before statement i (a def, class or type alias), each name once,
 * written '[T, *Ts, **P]' where the dialect has them: 1 when there are some. */
static int print_tparams(printer *pr, int i, gc_strbuf *out)
{
    const gc_program *p = pr->p;
    int from = i, n = 0;
    while (from > 0 && (p->s[from - 1].op == GC_P_DECO || p->s[from - 1].op == GC_P_TPARAM) &&
           p->s[from - 1].depth == p->s[i].depth)
        from--;
    for (int k = from; k < i && (pr->dialect & GC_DIALECT_PY312); k++) {
        const gc_p_stmt *t = &p->s[k];
        int again = 0;
        for (int j = from; j < k; j++)
            again |= p->s[j].op == GC_P_TPARAM && same_str(p, p->s[j].s, p->arena + t->s.off, t->s.len);
        pr->dropped += t->op == GC_P_TPARAM && again;
        if (t->op != GC_P_TPARAM || again)
            continue;
        gc_sb_printf(out, "%s%s%.*s", n++ ? ", " : "[", t->ival == 1 ? "*" : t->ival == 2 ? "**" : "", t->s.len,
                     p->arena + t->s.off);
    }
    if (n)
        gc_sb_putc(out, ']');
    return n > 0;
}

/* Can node i be assigned to ('how' 0: =, a tuple or list target with one *e at most), be an
 * augmented or annotated target (1: one target), or be deleted (2)? */
static int assignable(const pctx *c, int i, int how)
{
    const gc_p_expr *e = &c->p->e[i];
    int stars = 0;
    switch (e->op) {
    case GC_P_NAME: case GC_P_ITEM: case GC_P_SLICE: return 1;
    case GC_P_ATTR: return !((c->dialect & GC_DIALECT_NO_UNDERSCORE) && c->p->arena[e->s.off] == '_');
    case GC_P_TUPLE: case GC_P_LIST:
        if (how == 1 || e->n == 0)
            return 0;
        for (int k = 0; k < e->n; k++) {
            const gc_p_expr *a = &c->p->e[e->a[k]];
            if (a->op == GC_P_STAR ? how != 0 || stars++ || !assignable(c, a->a[0], 1) : !assignable(c, e->a[k], how))
                return 0;
        }
        return 1;
    default: return 0;
    }
}

/* Statements with a value: the expression the expression dialect prints. */
static int stmt_value(const gc_p_stmt *st)
{
    switch (st->op) {
    case GC_P_EXPR: case GC_P_ASSIGN: case GC_P_RETURN: case GC_P_YIELD: case GC_P_YIELDFROM: case GC_P_DECO:
    case GC_P_TYPEALIAS:
        return st->expr;
    case GC_P_STORE: case GC_P_AUG: case GC_P_ANN: return st->expr2;
    default: return -1;
    }
}

/* The simple statements the printer may drop: their text, or 0 to print the value alone. */
static int print_simple(printer *pr, const pctx *c, int i, gc_strbuf *out)
{
    const gc_program *p = pr->p;
    const gc_p_stmt *st = &p->s[i];
    const char *s = p->arena + st->s.off;
    switch (st->op) {
    case GC_P_STORE: case GC_P_AUG: case GC_P_DEL:
        if (!assignable(c, st->expr, st->op == GC_P_STORE ? 0 : st->op == GC_P_AUG ? 1 : 2))
            return 0;
        gc_sb_puts(out, st->op == GC_P_DEL ? "del " : "");
        print_expr(c, st->expr, out);
        if (st->op != GC_P_DEL) {
            gc_sb_printf(out, " %s= ", st->op == GC_P_AUG ? binops[st->ival % NBIN] : "");
            print_expr(c, st->expr2, out);
        }
        break;
    case GC_P_ANN:
        gc_sb_printf(out, "%.*s", st->s.len, s);
        if (declares(pr, pr->scope[i], st->s)) { /* annotated name can't be global */
            (*c->dropped)++;
        } else {
            gc_sb_puts(out, ": ");
            print_expr(c, st->expr, out);
        }
        gc_sb_puts(out, " = ");
        print_expr(c, st->expr2, out);
        break;
    case GC_P_DECO:
        if (!decorates(p, i))
            return 0;
        gc_sb_putc(out, '@');
        print_expr(c, st->expr, out);
        break;
    case GC_P_TYPEALIAS:
        if (!(pr->dialect & GC_DIALECT_PY312))
            return 0;
        gc_sb_printf(out, "type %.*s", st->s.len, s);
        print_tparams(pr, i, out);
        gc_sb_puts(out, " = ");
        {
            pctx in = *c;
            in.in_type = in_class_type(pr, i);
            print_expr(&in, st->expr, out);
        }
        break;
    case GC_P_TPARAM: /* with nothing to go with */
        (*c->dropped)++;
        gc_sb_puts(out, "pass");
        break;
    case GC_P_GLOBAL: case GC_P_NONLOCAL:
        if (declaration_ok(pr, i))
            gc_sb_printf(out, "%s %.*s", st->op == GC_P_GLOBAL ? "global" : "nonlocal", st->s.len, s);
        else {
            (*c->dropped)++;
            gc_sb_puts(out, "pass");
        }
        break;
    default: return 0;
    }
    gc_sb_putc(out, '\n');
    return 1;
}

/* ---- patterns: an expression printed as a case's pattern ---- */

/* One pattern's printing: the names it binds so far (a name twice would not compile), and
 * inside an or-pattern no capture at all (its alternatives must bind the same names, and
 * only the last may be irrefutable). */
typedef struct {
    const gc_program *p;
    int no_capture, nnames;
    gc_p_str names[32];
    int *dropped;
} pattern;

static int print_pattern(pattern *ps, int i, gc_strbuf *out);

/* A dotted name (a class, a value pattern): a name, or attributes on one. */
static int dotted(const gc_program *p, int i)
{
    while (p->e[i].op == GC_P_ATTR)
        i = p->e[i].a[0];
    return p->e[i].op == GC_P_NAME;
}

static void print_dotted(const gc_program *p, int i, gc_strbuf *out)
{
    if (p->e[i].op == GC_P_ATTR) {
        print_dotted(p, p->e[i].a[0], out);
        gc_sb_putc(out, '.');
    }
    gc_sb_putn(out, p->arena + p->e[i].s.off, p->e[i].s.len);
}

/* May the pattern bind 'name' (not '_', not one it binds already)?  Then it does. */
static int capture(pattern *ps, gc_p_str name)
{
    const gc_program *p = ps->p;
    if (ps->no_capture || same_str(p, name, "_", 1) || ps->nnames >= (int)(sizeof ps->names / sizeof ps->names[0]))
        return 0;
    for (int k = 0; k < ps->nnames; k++)
        if (same_str(p, ps->names[k], p->arena + name.off, name.len))
            return 0;
    ps->names[ps->nnames++] = name;
    return 1;
}

/* A literal pattern's text (1 and True are one key of a mapping: both "1"), or 0. */
static int literal(const gc_program *p, int i, gc_strbuf *out, int key)
{
    const gc_p_expr *e = &p->e[i];
    switch (e->op) {
    case GC_P_INT: gc_sb_printf(out, "%d", e->ival); return 1;
    case GC_P_STR: print_str_literal(p, "", e->s, out); return 1;
    case GC_P_BYTES: print_str_literal(p, "b", e->s, out); return 1;
    case GC_P_NONE: gc_sb_puts(out, "None"); return 1;
    case GC_P_TRUE: gc_sb_puts(out, key ? "1" : "True"); return 1;
    case GC_P_FALSE: gc_sb_puts(out, key ? "0" : "False"); return 1;
    default: return 0;
    }
}

/* [p, *s, q]: one star at most. */
static void print_seq_pattern(pattern *ps, const gc_p_expr *e, gc_strbuf *out)
{
    int star = 0;
    gc_sb_putc(out, '[');
    for (int k = 0; k < e->n; k++) {
        const gc_p_expr *a = &ps->p->e[e->a[k]];
        gc_sb_puts(out, k ? ", " : "");
        if (a->op == GC_P_STAR && !star++) {
            const gc_p_expr *v = &ps->p->e[a->a[0]];
            if (v->op == GC_P_NAME && capture(ps, v->s))
                gc_sb_printf(out, "*%.*s", v->s.len, ps->p->arena + v->s.off);
            else
                gc_sb_puts(out, "*_");
        } else {
            print_pattern(ps, e->a[k], out);
        }
    }
    gc_sb_putc(out, ']');
}

/* {k: p, **rest}: keys literals (none twice) or dotted names, rest a name, last. */
static void print_map_pattern(pattern *ps, const gc_p_expr *e, gc_strbuf *out)
{
    const gc_program *p = ps->p;
    gc_strbuf keys;
    gc_sb_init(&keys);
    int first = 1, rest = -1;
    gc_sb_putc(out, '{');
    for (int k = 0; k + 1 < e->n; k += 2) {
        const gc_p_expr *key = &p->e[e->a[k]];
        if (key->op == GC_P_DSTAR) {
            if (rest < 0 && p->e[key->a[0]].op == GC_P_NAME && capture(ps, p->e[key->a[0]].s))
                rest = key->a[0];
            continue;
        }
        gc_strbuf t;
        gc_sb_init(&t);
        gc_sb_putc(&t, '\n');
        int ok = literal(p, e->a[k], &t, 1);
        gc_sb_putc(&t, '\n');
        if (ok && keys.data && strstr(keys.data, t.data))
            ok = 0; /* a key twice */
        if (ok)
            gc_sb_puts(&keys, t.data);
        gc_sb_free(&t);
        if (!ok && !(key->op == GC_P_ATTR && dotted(p, e->a[k]))) {
            (*ps->dropped)++;
            continue;
        }
        gc_sb_puts(out, first ? "" : ", ");
        first = 0;
        if (!literal(p, e->a[k], out, 0))
            print_dotted(p, e->a[k], out);
        gc_sb_puts(out, ": ");
        print_pattern(ps, e->a[k + 1], out);
    }
    if (rest >= 0)
        gc_sb_printf(out, "%s**%.*s", first ? "" : ", ", p->e[rest].s.len, p->arena + p->e[rest].s.off);
    gc_sb_putc(out, '}');
    gc_sb_free(&keys);
}

/* C(p, a=q): C a dotted name; the positional patterns first, an attribute named once. */
static void print_class_pattern(pattern *ps, const gc_p_expr *e, gc_strbuf *out)
{
    const gc_program *p = ps->p;
    int first = 1;
    print_dotted(p, e->a[0], out);
    gc_sb_putc(out, '(');
    for (int pass = 0; pass < 2; pass++)
        for (int k = 1; k < e->n; k++) {
            const gc_p_expr *a = &p->e[e->a[k]];
            if ((a->op == GC_P_KW) != pass || a->op == GC_P_DSTAR)
                continue;
            int again = 0;
            for (int j = 1; pass && j < k; j++)
                again |= p->e[e->a[j]].op == GC_P_KW && same_str(p, p->e[e->a[j]].s, p->arena + a->s.off, a->s.len);
            if (again) {
                (*ps->dropped)++;
                continue;
            }
            gc_sb_puts(out, first ? "" : ", ");
            first = 0;
            if (pass) /* an attribute name is data here: no dialect rewrites it */
                gc_sb_printf(out, "%.*s=", a->s.len, p->arena + a->s.off);
            print_pattern(ps, pass || a->op == GC_P_STAR ? a->a[0] : e->a[k], out);
        }
    gc_sb_putc(out, ')');
}

/* Node i as a pattern: a capture (a name), a literal, a value (a dotted name), a sequence
 * (list, tuple), a mapping (dict), a class pattern (a call on a dotted name), an or-pattern
 * (a boolean operator), 'p as s' (a walrus); anything else is None, dropped.  1 when it is
 * irrefutable (a capture, '_', or one 'as' a name). */
static int print_pattern(pattern *ps, int i, gc_strbuf *out)
{
    const gc_program *p = ps->p;
    const gc_p_expr *e = &p->e[i];
    switch (e->op) {
    case GC_P_NAME:
        if (same_str(p, e->s, "_", 1) && !ps->no_capture) {
            gc_sb_putc(out, '_');
            return 1;
        }
        if (!capture(ps, e->s))
            break;
        gc_sb_putn(out, p->arena + e->s.off, e->s.len);
        return 1;
    case GC_P_ATTR:
        if (!dotted(p, i))
            break;
        print_dotted(p, i, out);
        return 0;
    case GC_P_LIST: case GC_P_TUPLE: print_seq_pattern(ps, e, out); return 0;
    case GC_P_DICT: print_map_pattern(ps, e, out); return 0;
    case GC_P_CALL:
        if (!dotted(p, e->a[0]))
            break;
        print_class_pattern(ps, e, out);
        return 0;
    case GC_P_BOOLOP: {
        int was = ps->no_capture;
        ps->no_capture = 1;
        gc_sb_putc(out, '(');
        print_pattern(ps, e->a[0], out);
        gc_sb_puts(out, " | ");
        print_pattern(ps, e->a[1], out);
        gc_sb_putc(out, ')');
        ps->no_capture = was;
        return 0;
    }
    case GC_P_WALRUS: {
        gc_sb_putc(out, '(');
        int irrefutable = print_pattern(ps, e->a[0], out);
        if (capture(ps, e->s))
            gc_sb_printf(out, " as %.*s", e->s.len, p->arena + e->s.off);
        gc_sb_putc(out, ')');
        return irrefutable;
    }
    default:
        if (literal(p, i, out, 0))
            return 0;
        break;
    }
    (*ps->dropped)++;
    gc_sb_puts(out, "None");
    return 0;
}

/* Is the case at i its match's last? */
static int last_case(const gc_program *p, int i)
{
    for (int j = i + 1; j < p->nstmts; j++)
        if (p->s[j].depth <= p->s[i].depth)
            return !(p->s[j].op == GC_P_CASE && p->s[j].depth == p->s[i].depth);
    return 1;
}

/* 'case p:'; an irrefutable pattern before the last case gets a guard (else the cases after
 * it could not match: it would not compile). */
static void print_case(const pctx *c, int i, gc_strbuf *out)
{
    pattern ps;
    memset(&ps, 0, sizeof ps);
    ps.p = c->p;
    ps.dropped = c->dropped;
    gc_sb_puts(out, "case ");
    if (print_pattern(&ps, c->p->s[i].expr, out) && !last_case(c->p, i))
        gc_sb_puts(out, " if True");
}

/* A block's line, or its clause's.  A def in a class body is a method the host may call
 * (__eq__, __repr__, __del__): it takes whatever it is given. */
static void print_opener(printer *pr, const pctx *c, int i, int method, gc_strbuf *out)
{
    const gc_p_stmt *st = &c->p->s[i];
    const gc_program *p = c->p;
    const char *s = p->arena + st->s.off;
    const gc_p_expr *e = st->op == GC_P_CLASS ? &p->e[st->expr] : NULL;
    switch (st->op) {
    case GC_P_TRY: gc_sb_puts(out, "try"); break;
    case GC_P_CASE: print_case(c, i, out); break;
    case GC_P_MATCH:
        gc_sb_puts(out, "match ");
        print_expr(c, st->expr, out);
        break;
    case GC_P_ELSE: gc_sb_puts(out, "else"); break;
    case GC_P_EXCEPT: case GC_P_EXCEPTSTAR:
        gc_sb_printf(out, "except%s Exception as %.*s", st->op == GC_P_EXCEPTSTAR ? "*" : "", st->s.len, s);
        break;
    case GC_P_DEF: case GC_P_ASYNCDEF:
        gc_sb_printf(out, "%sdef %.*s", st->op == GC_P_ASYNCDEF ? "async " : "", st->s.len, s);
        print_tparams(pr, i, out);
        gc_sb_printf(out, "(%s)", method ? METHOD_PARAMS : "");
        break;
    case GC_P_CLASS: /* a tuple's elements are the bases */
    {
        pctx bases = *c; /* a generic class's bases are in its type parameters' scope */
        gc_sb_printf(out, "class %.*s", st->s.len, s);
        bases.in_type = print_tparams(pr, i, out) ? in_class_type(pr, i) : 0;
        gc_sb_putc(out, '(');
        if (e->op == GC_P_TUPLE)
            print_args(&bases, e->a, e->n, out);
        else
            print_args(&bases, &st->expr, 1, out);
        gc_sb_putc(out, ')');
        break;
    }
    case GC_P_FOR: case GC_P_ASYNCFOR:
        gc_sb_printf(out, "%sfor %.*s in ", st->op == GC_P_ASYNCFOR ? "async " : "", st->s.len, s);
        print_expr(c, st->expr, out);
        break;
    case GC_P_WITH: case GC_P_ASYNCWITH:
        gc_sb_puts(out, st->op == GC_P_ASYNCWITH ? "async with " : "with ");
        print_expr(c, st->expr, out);
        if (st->s.len)
            gc_sb_printf(out, " as %.*s", st->s.len, s);
        break;
    default: /* IF, WHILE */
        gc_sb_puts(out, st->op == GC_P_IF ? "if " : "while ");
        print_expr(c, st->expr, out);
        break;
    }
    gc_sb_puts(out, ":\n");
}

static void print_stmt(printer *pr, int i, gc_strbuf *out)
{
    const gc_program *p = pr->p;
    const gc_p_stmt *st = &p->s[i];
    const char *s = p->arena + st->s.off;
    int sc = pr->scope[i];
    pctx c = {p, pr->dialect, sc >= 0 && p->s[sc].op == GC_P_ASYNCDEF, 0, 0, &pr->dropped, 0};
    if (st->op == GC_P_TPARAM && prefixed(p, i) >= 0) { /* written with what it goes with */
        pr->dropped += !(pr->dialect & GC_DIALECT_PY312);
        return;
    }
    indent(out, st->depth);
    if (gc_p_has_body(st->op)) {
        print_opener(pr, &c, i, sc >= 0 && p->s[sc].op == GC_P_CLASS, out);
        return;
    }
    if (print_simple(pr, &c, i, out))
        return;
    switch (st->op) {
    case GC_P_ASSIGN: gc_sb_printf(out, "%.*s = ", st->s.len, s); break;
    case GC_P_RETURN: gc_sb_puts(out, "return "); break;
    case GC_P_YIELD: gc_sb_puts(out, "yield "); break;
    case GC_P_YIELDFROM: gc_sb_puts(out, "yield from "); break;
    case GC_P_RAISE: case GC_P_RAISEFROM: gc_sb_puts(out, "raise "); break;
    case GC_P_ASSERT: gc_sb_puts(out, "assert "); break;
    case GC_P_PASS: case GC_P_BREAK: case GC_P_CONTINUE:
        gc_sb_printf(out, "%s\n", st->op == GC_P_PASS ? "pass" : st->op == GC_P_BREAK ? "break" : "continue");
        return;
    case GC_P_IMPORT:
        gc_sb_printf(out, "import %.*s", st->s.len, s);
        if (st->t.len)
            gc_sb_printf(out, " as %.*s", st->t.len, p->arena + st->t.off);
        gc_sb_putc(out, '\n');
        return;
    case GC_P_FROM:
        gc_sb_printf(out, "from %.*s import %.*s", st->s.len, s, st->t.len, p->arena + st->t.off);
        if (st->u.len)
            gc_sb_printf(out, " as %.*s", st->u.len, p->arena + st->u.off);
        gc_sb_putc(out, '\n');
        return;
    case GC_P_TYPEALIAS: /* before 3.12 */
        pr->dropped++;
        gc_sb_printf(out, "%.*s = ", st->s.len, s);
        break;
    case GC_P_STORE: case GC_P_AUG: case GC_P_DEL: case GC_P_DECO: /* what could not be written */
        pr->dropped++;
        print_expr(&c, stmt_value(st) >= 0 ? stmt_value(st) : st->expr, out);
        gc_sb_putc(out, '\n');
        return;
    default: break;
    }
    print_expr(&c, st->expr, out);
    if (st->op == GC_P_RAISEFROM || st->op == GC_P_ASSERT) {
        gc_sb_puts(out, st->op == GC_P_ASSERT ? ", " : " from ");
        print_expr(&c, st->expr2, out);
    }
    gc_sb_putc(out, '\n');
}

/* Does statement i begin a step: at the top level, not a clause, not what a decorator
 * before it decorates? */
static int starts_step(const gc_program *p, int i)
{
    const gc_p_stmt *st = &p->s[i];
    const gc_p_stmt *prev = i > 0 ? &p->s[i - 1] : NULL;
    return st->depth == 0 && !is_clause(st->op) &&
           !(prev && prev->depth == 0 && ((prev->op == GC_P_DECO && decorates(p, i - 1)) ||
                                          (prev->op == GC_P_TPARAM && prefixed(p, i - 1) >= 0)));
}

int gc_program_print(const gc_program *p, unsigned dialect, gc_strbuf *out)
{
    printer pr;
    int dropped = 0;
    if (dialect & GC_DIALECT_EXPRESSION) {
        int last = -1;
        for (int i = 0; i < p->nstmts; i++)
            if (stmt_value(&p->s[i]) >= 0)
                last = i;
        pctx c = {p, dialect, 0, 0, 0, &dropped, 0};
        if (last < 0)
            gc_sb_puts(out, "None");
        else
            print_expr(&c, stmt_value(&p->s[last]), out);
        gc_sb_putc(out, '\n');
        return dropped;
    }
    memset(&pr, 0, sizeof pr);
    pr.p = p;
    pr.dialect = dialect;
    find_scopes(&pr);
    unsigned steps = GC_DIALECT_STEPS(dialect), top = 0;
    for (int i = 0; i < p->nstmts; i++) {
        /* an except clause is part of its try statement: no step starts there */
        if (starts_step(p, i) && top++ > 0 && top <= steps)
            gc_sb_puts(out, GC_STEP_MARKER "\n");
        print_stmt(&pr, i, out);
        close_blocks(p, i, out);
    }
    return pr.dropped;
}

/* ---- op boundaries (triage's minimizer, triage/source_triage.c) ---- */

size_t gc_program_op_len(const uint8_t *data, size_t size, size_t off, gc_p_operand *kind)
{
    const char *o = ops_of((uint8_t)(data[off] % GC_P_NOPS));
    size_t n = 1;
    *kind = !*o || o[1] ? GC_P_OPERAND_NONE : *o == 'B' ? GC_P_OPERAND_BYTE : GC_P_OPERAND_STR;
    for (; *o; o++)
        n += *o == 'B' || off + n >= size ? 1 : 1 + data[off + n] % (GC_P_MAX_STRLEN + 1);
    return off + n <= size ? n : size - off;
}
