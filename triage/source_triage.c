/* source_triage.c — see source_triage.h. */
#define _GNU_SOURCE
#include "source_triage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "confirm.h"
#include "fsutil.h"
#include "program.h"
#include "replay.h"
#include "reproducer.h"
#include "source.h"
#include "source_holes.h"
#include "xalloc.h"

/* Candidates run at most per input: a bound, never reached by the inputs the engine
 * writes (a few hundred ops). */
#define MIN_BUDGET 5000

/* ---- the minimizer ---- */

typedef struct {
    gc_target *t;
    int kind, cap;
    char prim[96];
    uint8_t best[GC_P_MAX_INPUT]; /* canonical encoding of the smallest escaping program */
    size_t len;
    gc_strbuf src;                /* its source */
    int stmts;
    gc_verdict out;
    int evals, rc;
    char *err;
    size_t errlen;
    /* scratch of the passes (large, so here rather than on the stack) */
    gc_program prog;                   /* a candidate decoded */
    gc_program edit;                   /* the best program, decoded to be edited (pass_inline, pass_fold) */
    uint8_t enc[GC_P_MAX_INPUT];       /* its canonical encoding */
    uint8_t cand[GC_P_MAX_INPUT + 8];  /* a candidate's bytes */
    gc_verdict cand_out;               /* its run */
    size_t offs[GC_P_MAX_INPUT + 1];   /* where each op of best starts */
    gc_p_operand kinds[GC_P_MAX_INPUT];
} minctx;

/* data's canonical encoding into enc (GC_P_MAX_INPUT), its source into src (cleared), by
 * way of prog; its length, 0 when it has no statement or does not fit. */
static size_t canon(const uint8_t *d, size_t n, unsigned dialect, gc_program *prog, uint8_t *enc, gc_strbuf *src,
                    int *stmts)
{
    gc_program_decode(d, n, prog);
    *stmts = prog->nstmts;
    size_t len = prog->nstmts ? gc_program_encode(prog, enc, GC_P_MAX_INPUT) : 0;
    gc_sb_clear(src);
    if (len)
        gc_program_print(prog, dialect, src);
    return len;
}

/* Run the candidate cand[n]; adopt it when its program is smaller (shorter source, or as
 * short and a shorter encoding) and makes the same escape (its signature too: one given
 * back stays one given back, not one held in the namespace).  1 adopted. */
static int try_candidate(minctx *m, const uint8_t *cand, size_t n)
{
    uint8_t *enc = m->enc;
    gc_verdict *o = &m->cand_out;
    gc_strbuf src;
    gc_sb_init(&src);
    int stmts, adopt = 0;
    size_t len = canon(cand, n, m->t->spec.adapter.dialect, &m->prog, enc, &src, &stmts);
    if (len && (src.len < m->src.len || (src.len == m->src.len && len < m->len)) && m->evals < MIN_BUDGET) {
        char note[256];
        m->evals++;
        m->rc = gc_source_run(m->t, src.data, src.len, o, note, sizeof note, m->err, m->errlen);
        adopt = !m->rc && o->escaped && (int)o->escape.kind == m->kind && (int)o->escape.cap == m->cap &&
                strcmp(o->escape.primitive, m->prim) == 0 && strcmp(o->signature, m->out.signature) == 0;
    }
    if (adopt) {
        memcpy(m->best, enc, len);
        m->len = len;
        gc_strbuf old = m->src;
        m->src = src;
        src = old;
        m->stmts = stmts;
        m->out = *o;
    }
    gc_sb_free(&src);
    return adopt;
}

/* Where each op of m->best starts; offs[n] = m->len.  Returns n. */
static int op_offsets(const minctx *m, size_t *offs, gc_p_operand *kinds)
{
    int n = 0;
    for (size_t off = 0; off < m->len; n++) {
        offs[n] = off;
        off += gc_program_op_len(m->best, m->len, off, &kinds[n]);
    }
    offs[n] = m->len;
    return n;
}

/* m->best with bytes [from, to) replaced by 'ins' (k bytes), tried as a candidate. */
static int try_splice(minctx *m, size_t from, size_t to, const uint8_t *ins, size_t k)
{
    uint8_t *cand = m->cand;
    memcpy(cand, m->best, from);
    if (k) /* ins may be NULL: a plain drop */
        memcpy(cand + from, ins, k);
    memcpy(cand + from + k, m->best + to, m->len - to);
    return try_candidate(m, cand, from + k + (m->len - to));
}

/* Drop runs of whole ops (statements, trailers, arguments, blocks' lines), halving the
 * run's length, then every length from 4 down to one op (halving alone skips lengths: from
 * 3 it went to 1, and a detour such as .path.os is two ops).  1 if anything was dropped. */
static int pass_drop(minctx *m)
{
    size_t *offs = m->offs;
    gc_p_operand *kinds = m->kinds;
    int n = op_offsets(m, offs, kinds), changed = 0;
    for (int run = n / 2 > 0 ? n / 2 : 1; run >= 1 && !m->rc; run = run > 4 ? run / 2 : run - 1)
        for (int i = 0; i + run <= n && !m->rc;) {
            if (try_splice(m, offs[i], offs[i + run], NULL, 0)) {
                changed = 1;
                n = op_offsets(m, offs, kinds);
            } else
                i++;
        }
    return changed;
}

/* A count or int operand (op i of the offsets) at 0 or one less; a count one less with its
 * last argument gone too (the 1..8 ops before the op: one of them is that argument's whole
 * expression).  1 if adopted. */
static int shrink_byte(minctx *m, const size_t *offs, int i)
{
    size_t o = offs[i], end = offs[i + 1];
    if (end != o + 2 || !m->best[o + 1])
        return 0;
    uint8_t zero[2] = {m->best[o], 0}, less[2] = {m->best[o], (uint8_t)(m->best[o + 1] - 1)};
    if (try_splice(m, o, end, zero, 2) || try_splice(m, o, end, less, 2))
        return 1;
    uint8_t *cand = m->cand;
    for (int r = 1; r <= 8 && r <= i && !m->rc; r++) {
        size_t from = offs[i - r], n = 0;
        memcpy(cand, m->best, from);
        n = from;
        memcpy(cand + n, less, 2);
        n += 2;
        memcpy(cand + n, m->best + end, m->len - end);
        if (try_candidate(m, cand, n + (m->len - end)))
            return 1;
    }
    return 0;
}

/* A string operand (op i) one byte shorter, at each position.  1 if adopted. */
static int shrink_string(minctx *m, const size_t *offs, int i)
{
    size_t o = offs[i], end = offs[i + 1], slen = end - o - 2;
    uint8_t head[2 + GC_P_MAX_STRLEN];
    for (size_t j = 0; o + 2 + j < end && !m->rc; j++) {
        head[0] = m->best[o];
        head[1] = (uint8_t)(slen - 1);
        memcpy(head + 2, m->best + o + 2, j);
        memcpy(head + 2 + j, m->best + o + 3 + j, slen - j - 1);
        if (try_splice(m, o, end, head, slen + 1))
            return 1;
    }
    return 0;
}

/* Where a string operand's field component starting at s[a] ('.' or '[') ends: a `[key]`
 * after its ']', a `.name` before the next '.', '[', or the end of a replacement field. */
static size_t component_end(const uint8_t *s, size_t slen, size_t a)
{
    size_t b = a + 1;
    if (s[a] == '[') {
        while (b < slen && s[b] != ']')
            b++;
        return b < slen ? b + 1 : b;
    }
    while (b < slen && !strchr(".[}!:", s[b]))
        b++;
    return b;
}

/* Whole field components of a string operand (op i) dropped, one to four in a row at each
 * place: a format field's walk ('{0.a.__b__.c}', a get_field path '0.a[k]') loses a part,
 * or a detour of parts that leads back to where it started, in one step, where dropping a
 * byte at a time passes through names that lead nowhere.  1 if adopted. */
static int drop_component(minctx *m, const size_t *offs, int i)
{
    size_t o = offs[i], end = offs[i + 1], slen = end - o - 2;
    uint8_t head[2 + GC_P_MAX_STRLEN];
    for (size_t a = 0; a < slen && !m->rc; a++) {
        const uint8_t *s = m->best + o + 2;
        if (s[a] != '.' && s[a] != '[')
            continue;
        for (size_t b = component_end(s, slen, a), parts = 1; parts <= 4 && !m->rc; parts++) {
            head[0] = m->best[o];
            head[1] = (uint8_t)(slen - (b - a));
            memcpy(head + 2, s, a);
            memcpy(head + 2 + a, s + b, slen - b);
            if (try_splice(m, o, end, head, 2 + slen - (b - a)))
                return 1;
            if (b >= slen || (s[b] != '.' && s[b] != '['))
                break;
            b = component_end(s, slen, b);
        }
    }
    return 0;
}

/* Shorten operands: counts and ints lowered (arguments dropped), strings shortened (a field
 * component at a time, then a byte); each adopted change re-reads the ops, the same op tried
 * again.  1 if anything shrank. */
static int pass_operands(minctx *m)
{
    size_t *offs = m->offs;
    gc_p_operand *kinds = m->kinds;
    int n = op_offsets(m, offs, kinds), changed = 0;
    for (int i = 0; i < n && !m->rc;) {
        int k = kinds[i] == GC_P_OPERAND_BYTE ? shrink_byte(m, offs, i)
              : kinds[i] == GC_P_OPERAND_STR && offs[i + 1] > offs[i] + 2
                  ? drop_component(m, offs, i) || (!m->rc && shrink_string(m, offs, i))
                  : 0;
        changed |= k;
        if (k)
            n = op_offsets(m, offs, kinds);
        else
            i++;
    }
    return changed;
}

static int same_name(const gc_program *p, gc_p_str a, gc_p_str b)
{
    return a.len == b.len && memcmp(p->arena + a.off, p->arena + b.off, a.len) == 0;
}

/* A name bound by `a = b` (b a name) and used after it: each later use of a written b, the
 * assignment gone (`f = shell` / `sorted([1], key=f)` as `sorted([1], key=shell)`), as a person
 * writes the case; an alias a step the fuzzer took (alias_name, use_bound_name) is not one
 * the escape needs.  Each candidate is run like any.  1 if one was adopted. */
static int pass_inline(minctx *m)
{
    gc_program *p = &m->edit;
    uint8_t *cand = m->cand;
    int changed = 0;
    for (int i = 0; !m->rc; i++) {
        gc_program_decode(m->best, m->len, p);
        if (i >= p->nstmts)
            break;
        const gc_p_stmt st = p->s[i];
        if (st.op != GC_P_ASSIGN || p->e[st.expr].op != GC_P_NAME || same_name(p, st.s, p->e[st.expr].s))
            continue;
        int uses = 0;
        for (int k = st.expr + 1; k < p->nexprs; k++) /* a later statement's nodes come after */
            if (p->e[k].op == GC_P_NAME && same_name(p, p->e[k].s, st.s)) {
                p->e[k].s = p->e[st.expr].s;
                uses++;
            }
        if (!uses)
            continue;
        memmove(&p->s[i], &p->s[i + 1], (size_t)(p->nstmts - i - 1) * sizeof p->s[0]);
        p->nstmts--;
        size_t n = gc_program_encode(p, cand, GC_P_MAX_INPUT);
        if (n && try_candidate(m, cand, n)) {
            changed = 1;
            i--; /* the statement now at i */
        }
    }
    return changed;
}

/* Node k's string, when it is a string constant, into buf[GC_P_MAX_STRLEN + 1]: its length, or -1. */
static int str_of(const gc_program *p, int k, char *buf)
{
    const gc_p_expr *e = &p->e[k];
    if (e->op != GC_P_STR || e->s.len > GC_P_MAX_STRLEN)
        return -1;
    memcpy(buf, p->arena + e->s.off, e->s.len);
    return e->s.len;
}

/* The two strings of nodes a and b joined into out: its length, or -1. */
static int joined(const gc_program *p, int a, int b, char *out)
{
    char x[GC_P_MAX_STRLEN + 1], y[GC_P_MAX_STRLEN + 1];
    int n = str_of(p, a, x), m = str_of(p, b, y);
    if (n < 0 || m < 0 || n + m > GC_P_MAX_STRLEN)
        return -1;
    memcpy(out, x, (size_t)n);
    memcpy(out + n, y, (size_t)m);
    return n + m;
}

/* What node k makes at run time from string constants, in the forms the split-string
 * technique writes ('a' + 'b', '%s%s' % ('a', 'b'), ''.join(['a', 'b']), 'azb'[::2],
 * chr(95) * 2): the string into out, its length; -1 when k is none of them. */
static int built_value(const gc_program *p, int k, char *out)
{
    const gc_p_expr *e = &p->e[k];
    char f[GC_P_MAX_STRLEN + 1];
    if (e->op == GC_P_BINOP && e->n == 2 && e->ival == 0) /* + */
        return joined(p, e->a[0], e->a[1], out);
    if (e->op == GC_P_BINOP && e->n == 2 && e->ival == 5) { /* % */
        const gc_p_expr *t = &p->e[e->a[1]];
        int n = str_of(p, e->a[0], f);
        return n == 4 && memcmp(f, "%s%s", 4) == 0 && t->op == GC_P_TUPLE && t->n == 2 ? joined(p, t->a[0], t->a[1], out)
                                                                                    : -1;
    }
    if (e->op == GC_P_BINOP && e->n == 2 && e->ival == 2) { /* chr(c) * k */
        const gc_p_expr *c = &p->e[e->a[0]], *times = &p->e[e->a[1]];
        if (c->op != GC_P_CALL || c->n != 2 || p->e[c->a[0]].op != GC_P_NAME || p->e[c->a[0]].s.len != 3 ||
            memcmp(p->arena + p->e[c->a[0]].s.off, "chr", 3) != 0 || p->e[c->a[1]].op != GC_P_INT ||
            p->e[c->a[1]].ival < 32 || times->op != GC_P_INT || times->ival < 1 || times->ival > 8)
            return -1;
        memset(out, p->e[c->a[1]].ival, (size_t)times->ival);
        return times->ival;
    }
    if (e->op == GC_P_SLICE && e->n == 2 && e->ival == 4 && p->e[e->a[1]].op == GC_P_INT && p->e[e->a[1]].ival == 2) {
        int n = str_of(p, e->a[0], f), m = 0; /* [::2] */
        for (int i = 0; i < n; i += 2)
            out[m++] = f[i];
        return n < 0 ? -1 : m;
    }
    if (e->op == GC_P_CALL && e->n == 2 && p->e[e->a[0]].op == GC_P_ATTR && p->e[e->a[0]].s.len == 4 &&
        memcmp(p->arena + p->e[e->a[0]].s.off, "join", 4) == 0 && str_of(p, p->e[e->a[0]].a[0], f) == 0) {
        const gc_p_expr *l = &p->e[e->a[1]]; /* ''.join([a, b]) */
        return l->op == GC_P_LIST && l->n == 2 ? joined(p, l->a[0], l->a[1], out) : -1;
    }
    return -1;
}

/* A string made at run time from parts written as the constant it makes, where the sandbox
 * takes that (a case of the split-string class keeps its parts only where a check of
 * constants needs them): each such node at once, then one at a time.  1 if adopted. */
static int pass_fold(minctx *m)
{
    gc_program *p = &m->edit;
    uint8_t *cand = m->cand;
    int changed = 0;
    for (int only = -1; !m->rc; only++) {
        gc_program_decode(m->best, m->len, p);
        if (only >= p->nexprs)
            break;
        int folds = 0;
        for (int k = only < 0 ? 0 : only; k < p->nexprs && (only < 0 || k == only); k++) {
            char v[GC_P_MAX_STRLEN + 1];
            int n = built_value(p, k, v);
            if (n < 0 || p->arena_used + (uint32_t)n > GC_P_ARENA)
                continue;
            memcpy(p->arena + p->arena_used, v, (size_t)n);
            p->e[k] = (gc_p_expr){.op = GC_P_STR, .depth = 1, .s = {(uint16_t)p->arena_used, (uint16_t)n}};
            p->arena_used += (uint32_t)n;
            folds++;
        }
        size_t n = folds ? gc_program_encode(p, cand, GC_P_MAX_INPUT) : 0;
        if (n && try_candidate(m, cand, n)) {
            changed = 1;
            if (only < 0)
                break; /* every fold taken */
        }
    }
    return changed;
}

int gc_source_minimize(gc_target *t, const uint8_t *data, size_t size, uint8_t *best, size_t *best_len,
                       gc_strbuf *src, gc_verdict *out, gc_src_min_stats *st, char *err, size_t errlen)
{
    minctx *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory (the minimizer's %zu bytes)", sizeof *m);
        return 1;
    }
    m->t = t;
    m->err = err;
    m->errlen = errlen;
    gc_sb_init(&m->src);
    m->len = canon(data, size, t->spec.adapter.dialect, &m->prog, m->best, &m->src, &m->stmts);
    char note[256];
    int rc = m->len ? gc_source_run(t, m->src.data, m->src.len, &m->out, note, sizeof note, err, errlen) : 0;
    memset(st, 0, sizeof *st);
    st->stmts_before = m->stmts;
    st->bytes_before = m->src.len;
    st->evaluations = 1;
    if (!rc && (!m->len || !m->out.escaped))
        rc = -1;
    m->kind = (int)m->out.escape.kind;
    m->cap = (int)m->out.escape.cap;
    snprintf(m->prim, sizeof m->prim, "%s", m->out.escape.primitive);
    while (!rc && !m->rc && (pass_drop(m) | pass_operands(m) | pass_inline(m) | pass_fold(m)))
        ;
    rc = rc ? rc : m->rc;
    if (!rc) {
        memcpy(best, m->best, m->len);
        *best_len = m->len;
        gc_sb_puts(src, m->src.data);
        *out = m->out;
        st->evaluations += m->evals;
        st->stmts_after = m->stmts;
        st->bytes_after = m->src.len;
    }
    gc_sb_free(&m->src);
    free(m);
    return rc;
}

/* ---- holes, JSON ---- */

void gc_source_hole(gc_target *t, const char *src, const gc_verdict *out, char *hole, size_t len)
{
    /* The rule of docs/HOLES.md on the program's walk (source_holes.h).  It runs the program
     * again, so its outcome goes to a scratch copy and the caller's stays as it was; a
     * program it cannot name (no walk, a harness error) groups by signature (""). */
    static gc_verdict again;
    char err[256];
    (void)out;
    if (len && gc_source_hole_of_program(t, src, strlen(src), &again, hole, len, err, sizeof err) != 0)
        hole[0] = '\0';
}

/* ---- triage of one crash input ---- */

/* The case file: its '#' header (comments: the program stays what evaluate runs, one
 * expression for an evaluator), then the program. */
static void case_text(const gc_target *t, const gc_verdict *o, const char *src, const char *hole,
                      const gc_triage_opts *opt, const char *origin, const gc_src_min_stats *st, gc_strbuf *out)
{
    gc_case_write_header(t, o, hole, out);
    gc_sb_printf(out, "# found-by: %s, crash input %s; minimized from %d to %d statements (%zu to %zu bytes) in %d runs\n",
                 opt->found_by, origin, st->stmts_before, st->stmts_after, st->bytes_before, st->bytes_after,
                 st->evaluations);
    gc_sb_puts(out, src);
}

/* The program on one line, for the verdict lines. */
static void oneline(const char *src, gc_strbuf *out)
{
    for (const char *p = src; *p; p++)
        if (*p != '\n')
            gc_sb_putc(out, *p);
        else if (p[1])
            gc_sb_puts(out, " \\n ");
}

/* Write the case (and its reproducer when asked for) after its fresh-process check.
 * The verdict line's word ("new", "known", "flaky", "error") into *word. */
static void write_case(gc_target *t, const gc_triage_opts *o, const char *slug, const gc_strbuf *body,
                       const gc_verdict *out, const char **word, char *why, size_t whylen)
{
    char path[4096], probe[4096], sig2[256] = "", note[256], err[512];
    static gc_verdict with_header; /* a sandbox that reads the source's comments may refuse it */
    *word = "flaky";
    if (gc_source_run(t, body->data, body->len, &with_header, note, sizeof note, err, sizeof err) == 0 &&
        !with_header.escaped) {
        snprintf(why, whylen, " (with its '#' header it does not escape: %s)", note);
        return;
    }
    snprintf(probe, sizeof probe, "%s/.%s.probe.%ld", o->outdir, slug, (long)getpid());
    int ok = gc_write_atomic(probe, body->data, body->len, 0) == 0 &&
             gc_confirm_fresh(o->exe, o->target, probe, 0, sig2, sizeof sig2) == 1 && strcmp(sig2, out->signature) == 0;
    unlink(probe);
    snprintf(why, whylen, " (the minimized program does not escape in a fresh process)");
    if (!ok)
        return;
    gc_strbuf py;
    gc_sb_init(&py);
    snprintf(path, sizeof path, "%s/%s.repro.py", o->outdir, slug);
    if (o->standalone) {
        gc_reproducer_write(t, body->data, out->signature, &py);
        ok = gc_write_atomic(path, py.data, py.len, 0) == 0 && chmod(path, 0755) == 0;
    }
    gc_sb_free(&py);
    if (ok)
        snprintf(path, sizeof path, "%s/%s.py", o->outdir, slug);
    *word = ok ? "new" : "error";
    why[0] = '\0';
    if (!ok || gc_write_atomic(path, body->data, body->len, 1) != 0) {
        *word = ok && errno == EEXIST ? "known" : "error";
        snprintf(why, whylen, ok && errno == EEXIST ? " (saved meanwhile by another run)" : " (cannot write %s: %s)",
                 path, strerror(errno));
    }
}

static void save_case(gc_target *t, const gc_triage_opts *o, const char *src, const gc_verdict *out,
                      const char *base, const gc_src_min_stats *st, gc_triage_summary *sum)
{
    char err[4096], hole[256], slug[300], why[4200] = "";
    if (gc_reproducer_case_target(&t->spec, o->outdir, err, sizeof err)) {
        printf("error     %s: %s\n", base, err);
        sum->flaky++;
        return;
    }
    gc_strbuf line, body;
    gc_sb_init(&line);
    gc_sb_init(&body);
    oneline(src, &line);
    gc_source_hole(t, src, out, hole, sizeof hole);
    const char *word = "known";
    if (!gc_case_known(o->outdir, out->signature)) {
        case_text(t, out, src, hole, o, base, st, &body);
        gc_case_slug(out->signature, slug, sizeof slug);
        write_case(t, o, slug, &body, out, &word, why, sizeof why);
    }
    printf("%-9s %s: %s  %s%s\n", word, base, out->signature, line.data, why);
    if (strcmp(word, "new") == 0)
        gc_confirm_print(t, out, src, base);
    sum->new_cases += strcmp(word, "new") == 0;
    sum->known += strcmp(word, "known") == 0;
    sum->flaky += strcmp(word, "flaky") == 0 || strcmp(word, "error") == 0;
    gc_sb_free(&line);
    gc_sb_free(&body);
}

void gc_source_triage_save(gc_target *t, const gc_triage_opts *o, const char *src, const char *origin,
                           gc_triage_summary *sum)
{
    gc_verdict *out = gc_xmalloc(sizeof *out); /* large: on the heap */
    char note[256] = "", err[512] = "";
    gc_clean_stale(o->outdir);
    gc_strbuf text; /* the program as a file holds it: its last line ended */
    gc_sb_init(&text);
    gc_sb_printf(&text, "%s%s", src, src[0] && src[strlen(src) - 1] != '\n' ? "\n" : "");
    int stmts = gc_program_size(text.data, text.len);
    gc_src_min_stats st = {1, stmts, stmts, text.len, text.len};
    if (gc_source_run(t, text.data, text.len, out, note, sizeof note, err, sizeof err) != 0 || !out->escaped) {
        printf("flaky     %s: does not escape when run again (%s)\n", origin, err[0] ? err : note);
        sum->flaky++;
    } else {
        save_case(t, o, text.data, out, origin, &st, sum);
    }
    gc_sb_free(&text);
    free(out);
}

/* The program d[n] decodes to, printed in the dialect into text; its statements (0: none,
 * or no memory to decode it in). */
static int decoded_text(const uint8_t *d, size_t n, unsigned dialect, gc_strbuf *text)
{
    gc_program *p = malloc(sizeof *p);
    if (!p)
        return 0;
    gc_program_decode(d, n, p);
    int stmts = p->nstmts;
    if (stmts)
        gc_program_print(p, dialect, text);
    free(p);
    return stmts;
}

void gc_source_triage_one(gc_target *t, const gc_triage_opts *o, const char *path, gc_triage_summary *sum)
{
    gc_clean_stale(o->outdir);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = 0;
    unsigned char *data = gc_read_file(path, &n);
    gc_strbuf text; /* the program as it decodes (not shortened) */
    gc_sb_init(&text);
    if (!data || decoded_text(data, n, t->spec.adapter.dialect, &text) == 0) {
        printf("rejected  %s: %s\n", base, data ? "no program decodes from it" : "unreadable");
        sum->rejected++;
        free(data);
        gc_sb_free(&text);
        return;
    }
    /* 1. it must escape in a fresh process, decoded as the fuzzer decoded it */
    char sig[256] = "";
    int fr = gc_confirm_fresh(o->exe, o->target, path, 1, sig, sizeof sig);
    if (o->next) /* the next input's run, while this one is minimized (gc_confirm_ahead) */
        gc_confirm_ahead(o->exe, o->target, o->next, 1);
    if (fr == GC_FRESH_CRASH) { /* it crashed the target: a crash case, its program as it decodes */
        const char *one = text.data ? text.data : "";
        gc_triage_crash(t, o, base, sig, &one, 1, sum);
    }
    gc_sb_free(&text);
    if (fr == GC_FRESH_CRASH) {
        free(data);
        return;
    }
    /* 2. the program minimized here, each candidate run through evaluate */
    static uint8_t best[GC_P_MAX_INPUT];
    static gc_verdict out;
    size_t best_len = 0;
    gc_src_min_stats st;
    gc_strbuf src;
    gc_sb_init(&src);
    char err[512];
    int rc = fr == 1 ? gc_source_minimize(t, data, n, best, &best_len, &src, &out, &st, err, sizeof err) : 0;
    free(data);
    if (fr != 1)
        printf("%s %s: %s in a fresh process%s\n", fr == GC_FRESH_INCONCLUSIVE ? "inconclusive" : "flaky    ", base,
               fr == 0 ? "does not escape" : fr == GC_FRESH_INCONCLUSIVE ? "is inconclusive" : "could not be run",
               fr == GC_FRESH_INCONCLUSIVE ? " (gatecrash replay --raw says why)" : "");
    else if (rc < 0)
        printf("flaky     %s: escapes in a fresh process but not here (state-dependent)\n", base);
    else if (rc > 0)
        printf("error     %s: %s\n", base, err);
    else
        save_case(t, o, src.data, &out, base, &st, sum);
    sum->flaky += fr != 1 || rc != 0;
    gc_sb_free(&src);
}
