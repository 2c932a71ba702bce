/* chain.c — decoder and printers of the chain language (grammar in chain.h).
 *
 * Hand-written recursive-descent over a tiny grammar: no parser generator is worth its
 * build step here, and the decoder must have hard bounds on every quantity so it cannot
 * crash or hang on fuzz input (it has its own libFuzzer target, fuzz/fuzz_decoder.c). */
#include "chain.h"

#include "hash.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const uint8_t *p;
    const uint8_t *end;
    const uint8_t *line_start;
    int line;
    gc_chain *c;
    gc_parse_error *err;
    int failed;
} parser;

void gc_chain_init(gc_chain *c)
{
    c->nstmts = 0;
    c->arena_len = 0;
}

const char *gc_chain_str(const gc_chain *c, gc_str s) { return c->arena + s.off; }

void gc_chain_copy(gc_chain *dst, const gc_chain *src)
{
    /* only what is in use: a whole gc_chain is ~85 KB, a typical chain a few hundred bytes */
    dst->nstmts = src->nstmts;
    for (int i = 0; i < src->nstmts; i++) {
        const gc_stmt *s = &src->s[i];
        gc_stmt *d = &dst->s[i];
        d->is_prev = s->is_prev;
        d->root = s->root;
        d->ntrailers = s->ntrailers;
        memcpy(d->t, s->t, (size_t)s->ntrailers * sizeof s->t[0]);
    }
    dst->arena_len = src->arena_len;
    memcpy(dst->arena, src->arena, src->arena_len);
}

int gc_chain_intern(gc_chain *c, const char *s, size_t len, gc_str *out)
{
    if (len > GC_ARENA || c->arena_len + len > GC_ARENA)
        return -1;
    memcpy(c->arena + c->arena_len, s, len);
    out->off = c->arena_len;
    out->len = (uint32_t)len;
    c->arena_len += (uint32_t)len;
    return 0;
}

static void fail(parser *ps, const char *msg)
{
    if (ps->failed)
        return;
    ps->failed = 1;
    if (ps->err) {
        ps->err->line = ps->line;
        ps->err->col = (int)(ps->p - ps->line_start) + 1;
        snprintf(ps->err->msg, sizeof ps->err->msg, "%s", msg);
    }
}

static int at_eol(const parser *ps) { return ps->p >= ps->end || *ps->p == '\n'; }

static int is_ident_start(int ch) { return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static int is_ident(int ch) { return is_ident_start(ch) || (ch >= '0' && ch <= '9'); }

static void skip_blank(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r'))
        ps->p++;
}

/* NAME: an ASCII identifier ('.' also allowed when 'dotted', for [@qual.name]). */
static int parse_name(parser *ps, int dotted, gc_str *out)
{
    const uint8_t *s = ps->p;
    if (ps->p >= ps->end || !is_ident_start(*ps->p)) {
        fail(ps, "expected a name");
        return -1;
    }
    while (ps->p < ps->end && (is_ident(*ps->p) || (dotted && *ps->p == '.'))) {
        if (ps->p - s >= GC_MAX_NAME) {
            fail(ps, "name too long");
            return -1;
        }
        ps->p++;
    }
    if (gc_chain_intern(ps->c, (const char *)s, (size_t)(ps->p - s), out) < 0) {
        fail(ps, "chain too large");
        return -1;
    }
    return 0;
}

static int parse_uint(parser *ps, long limit, long *out)
{
    long v = 0;
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') {
        fail(ps, "expected a number");
        return -1;
    }
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
        v = v * 10 + (*ps->p - '0');
        if (v >= limit) {
            fail(ps, "number out of range");
            return -1;
        }
        ps->p++;
    }
    *out = v;
    return 0;
}

static int parse_int(parser *ps, long *out)
{
    int neg = 0;
    if (ps->p < ps->end && *ps->p == '-') {
        neg = 1;
        ps->p++;
    }
    if (parse_uint(ps, GC_MAX_INT, out) < 0)
        return -1;
    if (neg)
        *out = -*out;
    return 0;
}

/* Length of a valid UTF-8 sequence starting at p (overlongs, surrogates and code points
 * past U+10FFFF rejected), or 0. */
static size_t utf8_len(const uint8_t *p, const uint8_t *end)
{
    uint8_t b = p[0];
    size_t n;
    uint32_t cp;
    if (b < 0x80)
        return 1;
    if ((b & 0xE0) == 0xC0) {
        n = 2;
        cp = b & 0x1F;
    } else if ((b & 0xF0) == 0xE0) {
        n = 3;
        cp = b & 0x0F;
    } else if ((b & 0xF8) == 0xF0) {
        n = 4;
        cp = b & 0x07;
    } else {
        return 0;
    }
    if ((size_t)(end - p) < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

static int parse_string(parser *ps, gc_str *out)
{
    char buf[GC_MAX_STR + 4];
    size_t n = 0;
    uint8_t q = *ps->p++;
    for (;;) {
        if (at_eol(ps)) {
            fail(ps, "unterminated string");
            return -1;
        }
        uint8_t ch = *ps->p;
        if (ch == q) {
            ps->p++;
            break;
        }
        char tmp[4];
        size_t tn;
        if (ch == '\\') {
            ps->p++;
            if (at_eol(ps)) {
                fail(ps, "unterminated string");
                return -1;
            }
            uint8_t e = *ps->p++;
            switch (e) {
            case '\\': case '\'': case '"': tmp[0] = (char)e; tn = 1; break;
            case 'n': tmp[0] = '\n'; tn = 1; break;
            case 't': tmp[0] = '\t'; tn = 1; break;
            case 'r': tmp[0] = '\r'; tn = 1; break;
            case '0': tmp[0] = '\0'; tn = 1; break;
            case 'x': {
                if (ps->end - ps->p < 2 || hexval(ps->p[0]) < 0 || hexval(ps->p[1]) < 0) {
                    fail(ps, "bad \\x escape");
                    return -1;
                }
                unsigned cp = (unsigned)(hexval(ps->p[0]) * 16 + hexval(ps->p[1]));
                ps->p += 2;
                if (cp < 0x80) {
                    tmp[0] = (char)cp;
                    tn = 1;
                } else { /* U+0080..U+00FF as two UTF-8 bytes, like Python's '\xHH' */
                    tmp[0] = (char)(0xC0 | (cp >> 6));
                    tmp[1] = (char)(0x80 | (cp & 0x3F));
                    tn = 2;
                }
                break;
            }
            default:
                fail(ps, "unknown escape in string");
                return -1;
            }
        } else {
            tn = utf8_len(ps->p, ps->end);
            if (tn == 0) {
                fail(ps, "invalid UTF-8 in string");
                return -1;
            }
            memcpy(tmp, ps->p, tn);
            ps->p += tn;
        }
        if (n + tn > GC_MAX_STR) {
            fail(ps, "string too long");
            return -1;
        }
        memcpy(buf + n, tmp, tn);
        n += tn;
    }
    if (gc_chain_intern(ps->c, buf, n, out) < 0) {
        fail(ps, "chain too large");
        return -1;
    }
    return 0;
}

static int match_word(parser *ps, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, w, n) == 0 &&
        (ps->p + n == ps->end || !is_ident(ps->p[n]))) {
        ps->p += n;
        return 1;
    }
    return 0;
}

static int parse_arg(parser *ps, gc_arg *a)
{
    if (ps->p >= ps->end) {
        fail(ps, "expected an argument");
        return -1;
    }
    uint8_t ch = *ps->p;
    a->ival = 0;
    a->s.off = a->s.len = 0;
    if (ch == '\'' || ch == '"') {
        a->kind = GC_ARG_STR;
        return parse_string(ps, &a->s);
    }
    if (ch == '-' || (ch >= '0' && ch <= '9')) {
        a->kind = GC_ARG_INT;
        return parse_int(ps, &a->ival);
    }
    if (match_word(ps, "None")) {
        a->kind = GC_ARG_NONE;
        return 0;
    }
    if (match_word(ps, "True")) {
        a->kind = GC_ARG_TRUE;
        return 0;
    }
    if (match_word(ps, "False")) {
        a->kind = GC_ARG_FALSE;
        return 0;
    }
    if (match_word(ps, "_")) {
        a->kind = GC_ARG_PREV;
        return 0;
    }
    fail(ps, "arguments must be literals (string, integer, None, True, False) or '_'");
    return -1;
}

static int parse_call(parser *ps, gc_trailer *t)
{
    ps->p++; /* '(' */
    t->kind = GC_T_CALL;
    t->nargs = 0;
    skip_blank(ps);
    if (ps->p < ps->end && *ps->p == ')') {
        ps->p++;
        return 0;
    }
    for (;;) {
        if (t->nargs >= GC_MAX_ARGS) {
            fail(ps, "too many arguments");
            return -1;
        }
        skip_blank(ps);
        if (parse_arg(ps, &t->args[t->nargs]) < 0)
            return -1;
        t->nargs++;
        skip_blank(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_blank(ps);
            if (ps->p < ps->end && *ps->p == ')') {
                ps->p++;
                return 0;
            }
            continue;
        }
        if (ps->p < ps->end && *ps->p == ')') {
            ps->p++;
            return 0;
        }
        fail(ps, "expected ',' or ')'");
        return -1;
    }
}

static int parse_subscript(parser *ps, gc_trailer *t)
{
    ps->p++; /* '[' */
    if (ps->p >= ps->end) {
        fail(ps, "unterminated '['");
        return -1;
    }
    uint8_t ch = *ps->p;
    int rc;
    if (ch == '\'' || ch == '"') {
        t->kind = GC_T_ITEM_STR;
        rc = parse_string(ps, &t->s);
    } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        t->kind = GC_T_ITEM_INT;
        rc = parse_int(ps, &t->k);
    } else if (ch == '#') {
        ps->p++;
        t->kind = GC_T_NTH;
        rc = parse_uint(ps, GC_MAX_K, &t->k);
    } else if (ch == '@') {
        ps->p++;
        t->kind = GC_T_NAMED;
        rc = parse_name(ps, 1, &t->s);
    } else {
        fail(ps, "expected a string, an integer, '#K' or '@NAME' inside '[ ]'");
        return -1;
    }
    if (rc < 0)
        return -1;
    if (ps->p >= ps->end || *ps->p != ']') {
        fail(ps, "expected ']'");
        return -1;
    }
    ps->p++;
    return 0;
}

static int parse_trailer(parser *ps, gc_trailer *t)
{
    memset(t, 0, sizeof *t);
    uint8_t ch = *ps->p;
    if (ch == '.') {
        ps->p++;
        if (ps->p < ps->end && *ps->p == '#') {
            ps->p++;
            t->kind = GC_T_DIR;
            return parse_uint(ps, GC_MAX_K, &t->k);
        }
        t->kind = GC_T_ATTR;
        return parse_name(ps, 0, &t->s);
    }
    if (ch == '[')
        return parse_subscript(ps, t);
    if (ch == '(')
        return parse_call(ps, t);
    fail(ps, "expected '.', '[' or '(' after a value");
    return -1;
}

/* Statement end: blanks, then end of line, ';' or a comment. Returns 1 at a ';'. */
static int at_stmt_end(parser *ps, int *semicolon)
{
    const uint8_t *save = ps->p;
    skip_blank(ps);
    *semicolon = 0;
    if (at_eol(ps))
        return 1;
    if (*ps->p == '#') {
        while (!at_eol(ps))
            ps->p++;
        return 1;
    }
    if (*ps->p == ';') {
        ps->p++;
        *semicolon = 1;
        return 1;
    }
    ps->p = save;
    return 0;
}

static void skip_line(parser *ps)
{
    while (!at_eol(ps))
        ps->p++;
}

/* Past the newline at ps->p, if there is one. */
static void next_line(parser *ps)
{
    if (ps->p < ps->end && *ps->p == '\n') {
        ps->p++;
        ps->line++;
        ps->line_start = ps->p;
    }
}

/* Strict: no invalid UTF-8 and no NUL byte anywhere, comments included. */
static int check_text(parser *ps, const uint8_t *data)
{
    for (const uint8_t *q = data; q < ps->end;) {
        size_t n = utf8_len(q, ps->end);
        if (n == 0 || *q == '\0') {
            ps->p = q;
            for (const uint8_t *r = data; r < q; r++)
                if (*r == '\n') {
                    ps->line++;
                    ps->line_start = r + 1;
                }
            fail(ps, n == 0 ? "not valid UTF-8" : "NUL byte in chain file");
            return -1;
        }
        q += n;
    }
    return 0;
}

/* The trailers of st up to the statement's end; *semi: it ended with ';'. */
static void parse_trailers(parser *ps, gc_stmt *st, int strict, int *semi)
{
    while (!at_stmt_end(ps, semi)) {
        if (st->ntrailers >= GC_MAX_TRAILERS) {
            fail(ps, "too many trailers in one statement");
            break;
        }
        const uint8_t *at = ps->p;
        uint32_t arena = ps->c->arena_len;
        if (parse_trailer(ps, &st->t[st->ntrailers]) < 0) {
            if (strict)
                break;
            /* lenient: a byte that starts no trailer is skipped, so mutated and
             * spliced inputs keep their valid parts */
            ps->c->arena_len = arena;
            ps->failed = 0;
            ps->p = at + 1;
            continue;
        }
        st->ntrailers++;
    }
}

/* One statement at ps->p (not blank, not a comment).  Returns 1 when the next statement
 * starts at ps->p (after ';', or after junk skipped leniently), 0 when the rest of the
 * line is done with, -1 when a strict parse failed. */
static int parse_stmt(parser *ps, int strict)
{
    gc_chain *out = ps->c;
    gc_stmt *st = &out->s[out->nstmts];
    st->ntrailers = 0;
    st->is_prev = 0;
    ps->failed = 0;
    if (*ps->p == '_' && (ps->p + 1 == ps->end || !is_ident(ps->p[1]))) {
        st->is_prev = 1;
        st->root.off = st->root.len = 0;
        ps->p++;
    } else if (parse_name(ps, 0, &st->root) < 0) {
        if (strict)
            return -1;
        ps->p++; /* lenient: junk before a root is skipped, a byte at a time */
        ps->failed = 0;
        return 1;
    }
    out->nstmts++;
    int semi = 0;
    parse_trailers(ps, st, strict, &semi);
    if (!ps->failed && semi)
        return 1; /* next statement on the same line */
    if (ps->failed) {
        if (strict)
            return -1;
        skip_line(ps); /* lenient: keep the parsed prefix, drop the rest */
    }
    return 0;
}

int gc_chain_parse(const uint8_t *data, size_t len, gc_parse_mode mode, gc_chain *out,
                   gc_parse_error *err)
{
    parser ps = {.p = data, .end = data, .line_start = data, .line = 1, .c = out, .err = err};
    int strict = mode == GC_PARSE_STRICT;
    gc_chain_init(out);
    if (err) {
        err->line = err->col = 0;
        err->msg[0] = '\0';
    }
    if (len > GC_MAX_INPUT) {
        if (strict) {
            fail(&ps, "chain file too large");
            return -1;
        }
        len = GC_MAX_INPUT;
    }
    ps.end = data + len;
    if (strict && check_text(&ps, data) < 0)
        return -1;
    while (ps.p < ps.end) {
        skip_blank(&ps);
        if (at_eol(&ps) || *ps.p == '#' || *ps.p == ';') {
            if (!at_eol(&ps) && *ps.p == ';')
                ps.p++;
            else
                skip_line(&ps);
            next_line(&ps);
            continue;
        }
        if (out->nstmts >= GC_MAX_STMTS) {
            if (strict) {
                fail(&ps, "too many statements");
                return -1;
            }
            break;
        }
        int r = parse_stmt(&ps, strict);
        if (r < 0)
            return -1;
        if (r == 0)
            next_line(&ps);
    }
    return 0;
}

static int str_eq(const gc_chain *a, gc_str x, const gc_chain *b, gc_str y)
{
    return x.len == y.len && memcmp(a->arena + x.off, b->arena + y.off, x.len) == 0;
}

int gc_trailer_equal(const gc_chain *a, const gc_trailer *s, const gc_chain *b, const gc_trailer *t)
{
    if (s->kind != t->kind)
        return 0;
    switch (s->kind) {
    case GC_T_ATTR: case GC_T_ITEM_STR: case GC_T_NAMED:
        return str_eq(a, s->s, b, t->s);
    case GC_T_ITEM_INT: case GC_T_DIR: case GC_T_NTH:
        return s->k == t->k;
    case GC_T_CALL:
        if (s->nargs != t->nargs)
            return 0;
        for (int k = 0; k < s->nargs; k++) {
            if (s->args[k].kind != t->args[k].kind)
                return 0;
            if (s->args[k].kind == GC_ARG_INT && s->args[k].ival != t->args[k].ival)
                return 0;
            if (s->args[k].kind == GC_ARG_STR && !str_eq(a, s->args[k].s, b, t->args[k].s))
                return 0;
        }
        return 1;
    }
    return 0;
}

int gc_chain_equal(const gc_chain *a, const gc_chain *b)
{
    if (a->nstmts != b->nstmts)
        return 0;
    for (int i = 0; i < a->nstmts; i++) {
        const gc_stmt *x = &a->s[i], *y = &b->s[i];
        if (x->is_prev != y->is_prev || x->ntrailers != y->ntrailers)
            return 0;
        if (!x->is_prev && !str_eq(a, x->root, b, y->root))
            return 0;
        for (int j = 0; j < x->ntrailers; j++)
            if (!gc_trailer_equal(a, &x->t[j], b, &y->t[j]))
                return 0;
    }
    return 1;
}

/* FNV-1a over what gc_chain_equal compares, so equal chains hash equal */
static uint64_t hash_str(uint64_t h, const gc_chain *c, gc_str s)
{
    return gc_fnv1a64_bytes(gc_fnv1a64_step(h, s.len), gc_chain_str(c, s), s.len);
}

static uint64_t hash_trailer(uint64_t h, const gc_chain *c, const gc_trailer *t)
{
    h = gc_fnv1a64_step(h, (uint64_t)t->kind);
    switch (t->kind) {
    case GC_T_ATTR: case GC_T_ITEM_STR: case GC_T_NAMED: return hash_str(h, c, t->s);
    case GC_T_ITEM_INT: case GC_T_DIR: case GC_T_NTH: return gc_fnv1a64_step(h, (uint64_t)t->k);
    case GC_T_CALL:
        h = gc_fnv1a64_step(h, (uint64_t)t->nargs);
        for (int k = 0; k < t->nargs; k++) {
            const gc_arg *a = &t->args[k];
            h = gc_fnv1a64_step(h, (uint64_t)a->kind);
            if (a->kind == GC_ARG_INT)
                h = gc_fnv1a64_step(h, (uint64_t)a->ival);
            if (a->kind == GC_ARG_STR)
                h = hash_str(h, c, a->s);
        }
        return h;
    }
    return h;
}

uint64_t gc_chain_hash_upto(const gc_chain *c, int last_trailers)
{
    uint64_t h = gc_fnv1a64_step(GC_FNV64_OFFSET, (uint64_t)c->nstmts);
    for (int i = 0; i < c->nstmts; i++) {
        const gc_stmt *st = &c->s[i];
        int n = i == c->nstmts - 1 && last_trailers < st->ntrailers ? last_trailers : st->ntrailers;
        h = gc_fnv1a64_step(h, (uint64_t)st->is_prev);
        h = gc_fnv1a64_step(h, (uint64_t)n);
        if (!st->is_prev)
            h = hash_str(h, c, st->root);
        for (int j = 0; j < n; j++)
            h = hash_trailer(h, c, &st->t[j]);
    }
    return h | 1; /* never 0: a cache's empty slot */
}

uint64_t gc_chain_hash(const gc_chain *c)
{
    return gc_chain_hash_upto(c, c->nstmts ? c->s[c->nstmts - 1].ntrailers : 0);
}

int gc_chain_trailer_count(const gc_chain *c)
{
    int n = 0;
    for (int i = 0; i < c->nstmts; i++)
        n += c->s[i].ntrailers;
    return n;
}

int gc_trailer_prev_args(const gc_trailer *t)
{
    int n = 0;
    for (int k = 0; t->kind == GC_T_CALL && k < t->nargs; k++)
        n += t->args[k].kind == GC_ARG_PREV;
    return n;
}

int gc_stmt_prev_args(const gc_stmt *st, int ntrailers)
{
    int n = 0, upto = ntrailers < 0 || ntrailers > st->ntrailers ? st->ntrailers : ntrailers;
    for (int j = 0; j < upto; j++)
        n += gc_trailer_prev_args(&st->t[j]);
    return n;
}

int gc_stmt_uses_prev(const gc_stmt *st, int ntrailers)
{
    return st->is_prev || gc_stmt_prev_args(st, ntrailers) > 0;
}

void gc_chain_print_string(const char *s, size_t len, gc_strbuf *out)
{
    gc_sb_putc(out, '\'');
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        switch (ch) {
        case '\\': gc_sb_puts(out, "\\\\"); break;
        case '\'': gc_sb_puts(out, "\\'"); break;
        case '\n': gc_sb_puts(out, "\\n"); break;
        case '\t': gc_sb_puts(out, "\\t"); break;
        case '\r': gc_sb_puts(out, "\\r"); break;
        default:
            if (ch < 0x20 || ch == 0x7f)
                gc_sb_printf(out, "\\x%02x", ch);
            else
                gc_sb_putc(out, (char)ch); /* UTF-8 passes through; it was validated */
        }
    }
    gc_sb_putc(out, '\'');
}

static void print_arg(const gc_chain *c, const gc_arg *a, gc_strbuf *out)
{
    switch (a->kind) {
    case GC_ARG_STR: gc_chain_print_string(gc_chain_str(c, a->s), a->s.len, out); break;
    case GC_ARG_INT: gc_sb_put_long(out, a->ival); break;
    case GC_ARG_NONE: gc_sb_puts(out, "None"); break;
    case GC_ARG_TRUE: gc_sb_puts(out, "True"); break;
    case GC_ARG_FALSE: gc_sb_puts(out, "False"); break;
    case GC_ARG_PREV: gc_sb_putc(out, '_'); break;
    }
}

static void print_trailer(const gc_chain *c, const gc_trailer *t, gc_strbuf *out)
{
    switch (t->kind) {
    case GC_T_ATTR:
        gc_sb_putc(out, '.');
        gc_sb_putn(out, gc_chain_str(c, t->s), t->s.len);
        break;
    case GC_T_ITEM_STR:
        gc_sb_putc(out, '[');
        gc_chain_print_string(gc_chain_str(c, t->s), t->s.len, out);
        gc_sb_putc(out, ']');
        break;
    case GC_T_ITEM_INT: case GC_T_DIR: case GC_T_NTH:
        gc_sb_puts(out, t->kind == GC_T_ITEM_INT ? "[" : t->kind == GC_T_DIR ? ".#" : "[#");
        gc_sb_put_long(out, t->k);
        if (t->kind != GC_T_DIR)
            gc_sb_putc(out, ']');
        break;
    case GC_T_NAMED:
        gc_sb_puts(out, "[@");
        gc_sb_putn(out, gc_chain_str(c, t->s), t->s.len);
        gc_sb_putc(out, ']');
        break;
    case GC_T_CALL:
        gc_sb_putc(out, '(');
        for (int i = 0; i < t->nargs; i++) {
            if (i)
                gc_sb_puts(out, ", ");
            print_arg(c, &t->args[i], out);
        }
        gc_sb_putc(out, ')');
        break;
    }
}

static void print_stmt(const gc_chain *c, const gc_stmt *st, int upto_trailer, gc_strbuf *out)
{
    if (st->is_prev)
        gc_sb_putc(out, '_');
    else
        gc_sb_putn(out, gc_chain_str(c, st->root), st->root.len);
    for (int j = 0; j < st->ntrailers && (upto_trailer < -1 || j <= upto_trailer); j++)
        print_trailer(c, &st->t[j], out);
}

void gc_chain_print_prefix(const gc_chain *c, int upto_stmt, int upto_trailer, const char *sep,
                           gc_strbuf *out)
{
    for (int i = 0; i < c->nstmts; i++) {
        if (upto_stmt >= 0 && i > upto_stmt)
            break;
        if (i)
            gc_sb_puts(out, sep);
        print_stmt(c, &c->s[i], i == upto_stmt ? upto_trailer : -2, out);
    }
}

void gc_chain_print(const gc_chain *c, gc_strbuf *out)
{
    gc_chain_print_prefix(c, -1, -2, "\n", out);
    if (c->nstmts)
        gc_sb_putc(out, '\n');
}

void gc_chain_print_oneline(const gc_chain *c, gc_strbuf *out)
{
    gc_chain_print_prefix(c, -1, -2, "; ", out);
}

