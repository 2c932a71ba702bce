/* minimize.c — see minimize.h.
 *
 * Greedy, to a fixed point: generate candidates from the current best, most aggressive
 * first, and move to the first one that still makes the same escape and is strictly
 * smaller (fewer statements + trailers, then fewer characters).  Written here rather than
 * delegated to libFuzzer's -minimize_crash because byte-level shrinking cannot see that
 * `subprocess.os.sys.modules['os'].system` and `subprocess.os.system` reach the same
 * object; bench/ compares the two on the same crash inputs. */
#include "minimize.h"

#include <stdlib.h>
#include <string.h>

#include "session.h"

/* One minimization: what every pass reads and writes, made by gc_minimize and handed down
 * (large: chains hold their strings, so it lives on the heap). */
typedef struct {
    gc_target *t;
    gc_chain *best;       /* the caller's: the smallest escaping chain so far */
    gc_outcome *best_out; /* its outcome */
    gc_escape want;       /* the escape every candidate must make */
    gc_min_stats *st;
    gc_min_check check; /* the caller's extra test, or NULL */
    void *check_ctx;
    gc_chain cand;       /* the candidate being tried */
    gc_chain trimmed;    /* its escaping part, after a run that escaped alike */
    gc_outcome cand_out; /* its outcome */
    char roots[64][65];  /* the target's roots */
    int nroots;
} min_run;

typedef struct {
    int units;  /* statements + trailers */
    size_t len; /* printed length */
} size_key;

static size_key size_of(const gc_chain *c)
{
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_chain_print_oneline(c, &sb);
    size_key k = {c->nstmts + gc_chain_trailer_count(c), sb.len};
    gc_sb_free(&sb);
    return k;
}

static int smaller(size_key a, size_key b) { return a.units < b.units || (a.units == b.units && a.len < b.len); }

/* Does m->cand make the same escape?  On success m->trimmed holds its escaping part. */
static int same_escape(min_run *m)
{
    char err[256];
    m->st->evaluations++;
    if (gc_run_input(m->t, &m->cand, &m->cand_out, NULL, NULL, err, sizeof err) != 0 || !m->cand_out.escaped)
        return 0;
    const gc_escape *e = &m->cand_out.escape;
    if (e->kind != m->want.kind || e->cap != m->want.cap || strcmp(e->primitive, m->want.primitive) != 0)
        return 0;
    gc_outcome_escape_chain(&m->cand_out, &m->trimmed);
    return 1;
}

static int passes_check(min_run *m) { return !m->check || m->check(m->check_ctx, &m->trimmed, &m->cand_out); }

/* Try one candidate (in m->cand); adopt it as the best if it is smaller and escapes alike. */
static int try_cand(min_run *m)
{
    if (m->cand.nstmts == 0 || !smaller(size_of(&m->cand), size_of(m->best)))
        return 0;
    if (!same_escape(m) || !smaller(size_of(&m->trimmed), size_of(m->best)) || !passes_check(m))
        return 0;
    *m->best = m->trimmed;
    *m->best_out = m->cand_out;
    return 1;
}

static int is_identifier(const char *s, size_t n)
{
    if (n == 0 || n > GC_MAX_NAME)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i && c >= '0' && c <= '9')))
            return 0;
    }
    return 1;
}

/* The passes: each tries its candidates from 'best' in order, and returns 1 at the first
 * one adopted, 0 when none was. */

/* 1. drop a statement */
static int drop_statement(min_run *m)
{
    gc_chain *best = m->best, *cand = &m->cand;
    for (int i = 0; best->nstmts > 1 && i < best->nstmts; i++) {
        *cand = *best;
        memmove(&cand->s[i], &cand->s[i + 1], (size_t)(cand->nstmts - i - 1) * sizeof cand->s[0]);
        cand->nstmts--;
        if (try_cand(m))
            return 1;
    }
    return 0;
}

/* 2. delete a run of trailers, longest runs first */
static int delete_run(min_run *m)
{
    gc_chain *best = m->best, *cand = &m->cand;
    for (int si = 0; si < best->nstmts; si++) {
        int n = best->s[si].ntrailers;
        for (int len = n; len >= 1; len--)
            for (int i = 0; i + len <= n; i++) {
                *cand = *best;
                gc_stmt *s = &cand->s[si];
                memmove(&s->t[i], &s->t[i + len], (size_t)(n - i - len) * sizeof s->t[0]);
                s->ntrailers -= len;
                if (try_cand(m))
                    return 1;
            }
    }
    return 0;
}

/* 3. a root for a prefix: `__builtins__['__import__']('os').x` -> `os.x`, or a shorter
 *    root for the same object */
static int root_for_prefix(min_run *m)
{
    gc_chain *best = m->best, *cand = &m->cand;
    for (int si = 0; si < best->nstmts; si++) {
        int n = best->s[si].ntrailers;
        for (int k = n; k >= 0; k--) /* k == 0: just another root for the same value */
            for (int r = 0; r < m->nroots; r++) {
                *cand = *best;
                gc_stmt *s = &cand->s[si];
                if (gc_chain_intern(cand, m->roots[r], strlen(m->roots[r]), &s->root) < 0)
                    continue;
                s->is_prev = 0;
                memmove(&s->t[0], &s->t[k], (size_t)(n - k) * sizeof s->t[0]);
                s->ntrailers = n - k;
                if (try_cand(m))
                    return 1;
            }
    }
    return 0;
}

/* 4a. ['name'] as an attribute: .__dict__['name'] -> .name, then ['name'] -> .name */
static int item_as_attr(min_run *m, int si, int i)
{
    gc_chain *best = m->best, *cand = &m->cand;
    const gc_trailer *tr = &best->s[si].t[i];
    if (tr->kind != GC_T_ITEM_STR || !is_identifier(gc_chain_str(best, tr->s), tr->s.len))
        return 0;
    const gc_trailer *pr = i > 0 ? &best->s[si].t[i - 1] : NULL;
    if (pr && pr->kind == GC_T_ATTR && pr->s.len == 8 && memcmp(gc_chain_str(best, pr->s), "__dict__", 8) == 0) {
        *cand = *best;
        gc_stmt *s = &cand->s[si];
        s->t[i - 1] = s->t[i];
        s->t[i - 1].kind = GC_T_ATTR;
        memmove(&s->t[i], &s->t[i + 1], (size_t)(s->ntrailers - i - 1) * sizeof s->t[0]);
        s->ntrailers--;
        if (try_cand(m))
            return 1;
    }
    *cand = *best;
    cand->s[si].t[i].kind = GC_T_ATTR;
    return try_cand(m);
}

/* 4b. a call with one argument fewer, or an argument as the shortest literal of its kind */
static int shorter_call(min_run *m, int si, int i)
{
    gc_chain *best = m->best, *cand = &m->cand;
    const gc_trailer *tr = &best->s[si].t[i];
    if (tr->kind != GC_T_CALL)
        return 0;
    for (int a = tr->nargs - 1; a >= 0; a--) {
        *cand = *best;
        gc_trailer *ct = &cand->s[si].t[i];
        memmove(&ct->args[a], &ct->args[a + 1], (size_t)(ct->nargs - a - 1) * sizeof ct->args[0]);
        ct->nargs--;
        if (try_cand(m))
            return 1;
    }
    for (int a = 0; a < tr->nargs; a++) {
        const gc_arg *g = &tr->args[a];
        *cand = *best;
        gc_arg *cg = &cand->s[si].t[i].args[a];
        if (g->kind == GC_ARG_STR && g->s.len > 0)
            cg->s.len = 0;
        else if (g->kind == GC_ARG_INT && g->ival != 0)
            cg->ival = 0;
        else
            continue;
        if (try_cand(m))
            return 1;
    }
    return 0;
}

/* One greedy round: the first candidate adopted, most aggressive pass first. */
static int pass(min_run *m)
{
    const gc_chain *best = m->best;
    if (drop_statement(m) || delete_run(m) || root_for_prefix(m))
        return 1;
    /* 4. shortest literal forms */
    for (int si = 0; si < best->nstmts; si++)
        for (int i = 0; i < best->s[si].ntrailers; i++)
            if (item_as_attr(m, si, i) || shorter_call(m, si, i))
                return 1;
    return 0;
}

/* The last phase: a short exhaustive search.  Greedy shrinking can stop in a local
 * minimum (`os.getcwd.__self__.system` when the input also held `.os` and `.system`), so
 * try every root with every order-preserving choice of up to GC_MIN_SEARCH_LEN trailers
 * taken from the input (ending in the escaping trailer), shortest first, within a budget
 * of evaluations.  String items that are identifiers are offered as attributes too. */
#define GC_MIN_SEARCH_LEN 3
#define GC_MIN_SEARCH_BUDGET 4000
#define GC_MIN_ALPHABET 48

/* The trailers the search combines: the input's, first occurrences, in order. */
typedef struct {
    gc_trailer t[GC_MIN_ALPHABET];
    int n;
    gc_chain strings; /* owns the trailers' strings */
} alphabet;

static void alpha_add(alphabet *al, const gc_chain *from, const gc_trailer *tr, int as_attr)
{
    if (al->n >= GC_MIN_ALPHABET)
        return;
    gc_trailer x = *tr;
    if (as_attr)
        x.kind = GC_T_ATTR;
    if (x.kind == GC_T_ATTR || x.kind == GC_T_ITEM_STR || x.kind == GC_T_NAMED)
        if (gc_chain_intern(&al->strings, gc_chain_str(from, x.s), x.s.len, &x.s) < 0)
            return;
    for (int k = 0; k < x.nargs; k++)
        if (x.args[k].kind == GC_ARG_STR &&
            gc_chain_intern(&al->strings, gc_chain_str(from, x.args[k].s), x.args[k].s.len, &x.args[k].s) < 0)
            return;
    for (int i = 0; i < al->n; i++) /* first occurrence only */
        if (gc_trailer_equal(&al->strings, &al->t[i], &al->strings, &x))
            return;
    al->t[al->n++] = x;
}

static void alpha_fill(alphabet *al, const gc_chain *in)
{
    gc_chain_init(&al->strings);
    al->n = 0;
    for (int si = 0; si < in->nstmts; si++)
        for (int i = 0; i < in->s[si].ntrailers; i++) {
            const gc_trailer *tr = &in->s[si].t[i];
            alpha_add(al, in, tr, 0);
            if (tr->kind == GC_T_ITEM_STR && is_identifier(gc_chain_str(in, tr->s), tr->s.len))
                alpha_add(al, in, tr, 1);
        }
}

/* m->cand := root r, the alphabet's trailers idx[0..len-2], then 'last''s last trailer.
 * 0 if a string did not fit. */
static int combine(min_run *m, const alphabet *al, int r, const int *idx, int len, const gc_chain *last)
{
    gc_chain *cand = &m->cand;
    *cand = al->strings;
    cand->nstmts = 1;
    gc_stmt *s = &cand->s[0];
    s->is_prev = 0;
    if (gc_chain_intern(cand, m->roots[r], strlen(m->roots[r]), &s->root) < 0)
        return 0;
    s->ntrailers = 0;
    for (int i = 0; i < len - 1; i++)
        s->t[s->ntrailers++] = al->t[idx[i]];
    gc_trailer lt = last->s[0].t[last->s[0].ntrailers - 1];
    if ((lt.kind == GC_T_ATTR || lt.kind == GC_T_ITEM_STR || lt.kind == GC_T_NAMED) &&
        gc_chain_intern(cand, gc_chain_str(last, lt.s), lt.s.len, &lt.s) < 0)
        return 0;
    for (int k = 0; k < lt.nargs; k++)
        if (lt.args[k].kind == GC_ARG_STR &&
            gc_chain_intern(cand, gc_chain_str(last, lt.args[k].s), lt.args[k].s.len, &lt.args[k].s) < 0)
            return 0;
    s->t[s->ntrailers++] = lt;
    return 1;
}

/* The next order-preserving choice of k indices out of n (idx ascending); 0 after the last. */
static int next_choice(int *idx, int k, int n)
{
    int i = k - 1;
    while (i >= 0 && idx[i] == n - k + i)
        i--;
    if (i < 0)
        return 0;
    idx[i]++;
    for (int j = i + 1; j < k; j++)
        idx[j] = idx[j - 1] + 1;
    return 1;
}

static int search(min_run *m, const gc_chain *in)
{
    /* the escaping trailer: the last one of the best chain */
    const gc_stmt *ls = &m->best->s[m->best->nstmts - 1];
    if (ls->ntrailers == 0 || m->best->nstmts != 1)
        return 0;
    alphabet *al = malloc(sizeof *al);
    gc_chain *last = malloc(sizeof *last);
    if (!al || !last) {
        free(al);
        free(last);
        return 0;
    }
    alpha_fill(al, in);
    *last = *m->best;
    int budget = GC_MIN_SEARCH_BUDGET, improved = 0;
    for (int len = 1; len <= GC_MIN_SEARCH_LEN && budget > 0 && !improved; len++) {
        if (1 + len >= size_of(m->best).units || len - 1 > al->n)
            break;
        int idx[GC_MIN_SEARCH_LEN];
        for (int i = 0; i < len - 1; i++)
            idx[i] = i;
        do {
            for (int r = 0; r < m->nroots && budget > 0; r++)
                if (combine(m, al, r, idx, len, last)) {
                    budget--;
                    improved |= try_cand(m);
                }
        } while (!improved && budget > 0 && next_choice(idx, len - 1, al->n));
    }
    free(al);
    free(last);
    return improved;
}

/* gc_minimize's work once 'in' is known to escape (m->best_out holds its outcome). */
static int minimize_run(min_run *m, const gc_chain *in)
{
    gc_outcome_escape_chain(m->best_out, m->best);
    m->st->trailers_before = gc_chain_trailer_count(in);
    m->nroots = gc_session_roots(m->t, m->roots, 64);
    /* the trimmed chain must itself escape alike (it drops unrelated statements) */
    m->cand = *m->best;
    if (!same_escape(m) || !passes_check(m)) {
        *m->best = m->best_out->resolved; /* keep everything: the escape depends on it */
        if (m->check && !m->check(m->check_ctx, m->best, m->best_out))
            return -2;
    } else {
        *m->best = m->trimmed;
        *m->best_out = m->cand_out;
    }
    while (pass(m))
        ;
    /* exploration forms resolved: the names the input really took */
    char err[256];
    gc_run_input(m->t, in, &m->cand_out, NULL, NULL, err, sizeof err);
    gc_chain *resolved_in = malloc(sizeof *resolved_in);
    if (resolved_in) {
        *resolved_in = m->cand_out.resolved;
        if (search(m, resolved_in))
            while (pass(m))
                ;
        free(resolved_in);
    }
    m->st->trailers_after = gc_chain_trailer_count(m->best);
    return 0;
}

int gc_minimize(gc_target *t, const gc_chain *in, gc_chain *best, gc_outcome *best_out, gc_min_stats *st,
                gc_min_check chk, void *chk_ctx)
{
    memset(st, 0, sizeof *st);
    char err[256];
    st->evaluations++;
    if (gc_run_input(t, in, best_out, NULL, NULL, err, sizeof err) != 0 || !best_out->escaped)
        return -1;
    min_run *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    m->t = t;
    m->best = best;
    m->best_out = best_out;
    m->want = best_out->escape;
    m->st = st;
    m->check = chk;
    m->check_ctx = chk_ctx;
    int rc = minimize_run(m, in);
    free(m);
    return rc;
}
