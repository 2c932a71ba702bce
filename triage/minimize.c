/* minimize.c — see minimize.h.
 *
 * Greedy, to a fixed point: generate candidates from the current best, most aggressive
 * first, and move to the first one that still makes the same escape and is strictly
 * smaller (fewer statements + trailers, then fewer characters).  Written here rather than
 * delegated to libFuzzer's -minimize_crash because byte-level shrinking cannot see that
 * `subprocess.os.sys.modules['os'].system` and `subprocess.os.system` reach the same
 * object; bench/ compares the two on the same crash inputs. */
#include "minimize.h"

#include <string.h>

#include "session.h"

static gc_chain cand, trimmed;
static gc_outcome cand_out;
static char roots[64][65];
static int nroots;
static gc_min_check check; /* gc_minimize's, for this run */
static void *check_ctx;

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

/* Does 'c' make the same escape?  On success 'trimmed' holds its escaping part. */
static int same_escape(gc_target *t, const gc_chain *c, const gc_escape *want, gc_min_stats *st)
{
    char err[256];
    st->evaluations++;
    if (gc_run_input(t, c, &cand_out, NULL, NULL, err, sizeof err) != 0 || !cand_out.escaped)
        return 0;
    if (cand_out.escape.kind != want->kind || cand_out.escape.cap != want->cap ||
        strcmp(cand_out.escape.primitive, want->primitive) != 0)
        return 0;
    gc_outcome_escape_chain(&cand_out, &trimmed);
    return 1;
}

/* Try one candidate (in 'cand'); adopt it into 'best' if it is smaller and escapes alike. */
static int try_cand(gc_target *t, gc_chain *best, gc_outcome *best_out, const gc_escape *want, gc_min_stats *st)
{
    if (cand.nstmts == 0 || !smaller(size_of(&cand), size_of(best)))
        return 0;
    if (!same_escape(t, &cand, want, st))
        return 0;
    if (!smaller(size_of(&trimmed), size_of(best)))
        return 0;
    if (check && !check(check_ctx, &trimmed, &cand_out))
        return 0;
    *best = trimmed;
    *best_out = cand_out;
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
static int drop_statement(gc_target *t, gc_chain *best, gc_outcome *bo, const gc_escape *want, gc_min_stats *st)
{
    for (int i = 0; best->nstmts > 1 && i < best->nstmts; i++) {
        cand = *best;
        memmove(&cand.s[i], &cand.s[i + 1], (size_t)(cand.nstmts - i - 1) * sizeof cand.s[0]);
        cand.nstmts--;
        if (try_cand(t, best, bo, want, st))
            return 1;
    }
    return 0;
}

/* 2. delete a run of trailers, longest runs first */
static int delete_run(gc_target *t, gc_chain *best, gc_outcome *bo, const gc_escape *want, gc_min_stats *st)
{
    for (int si = 0; si < best->nstmts; si++) {
        int n = best->s[si].ntrailers;
        for (int len = n; len >= 1; len--)
            for (int i = 0; i + len <= n; i++) {
                cand = *best;
                gc_stmt *s = &cand.s[si];
                memmove(&s->t[i], &s->t[i + len], (size_t)(n - i - len) * sizeof s->t[0]);
                s->ntrailers -= len;
                if (try_cand(t, best, bo, want, st))
                    return 1;
            }
    }
    return 0;
}

/* 3. a root for a prefix: `__builtins__['__import__']('os').x` -> `os.x`, or a shorter
 *    root for the same object */
static int root_for_prefix(gc_target *t, gc_chain *best, gc_outcome *bo, const gc_escape *want, gc_min_stats *st)
{
    for (int si = 0; si < best->nstmts; si++) {
        int n = best->s[si].ntrailers;
        for (int k = n; k >= 0; k--) /* k == 0: just another root for the same value */
            for (int r = 0; r < nroots; r++) {
                cand = *best;
                gc_stmt *s = &cand.s[si];
                if (gc_chain_intern(&cand, roots[r], strlen(roots[r]), &s->root) < 0)
                    continue;
                s->is_prev = 0;
                memmove(&s->t[0], &s->t[k], (size_t)(n - k) * sizeof s->t[0]);
                s->ntrailers = n - k;
                if (try_cand(t, best, bo, want, st))
                    return 1;
            }
    }
    return 0;
}

/* 4a. ['name'] as an attribute: .__dict__['name'] -> .name, then ['name'] -> .name */
static int item_as_attr(gc_target *t, gc_chain *best, gc_outcome *bo, const gc_escape *want, gc_min_stats *st,
                        int si, int i)
{
    const gc_trailer *tr = &best->s[si].t[i];
    if (tr->kind != GC_T_ITEM_STR || !is_identifier(gc_chain_str(best, tr->s), tr->s.len))
        return 0;
    const gc_trailer *pr = i > 0 ? &best->s[si].t[i - 1] : NULL;
    if (pr && pr->kind == GC_T_ATTR && pr->s.len == 8 && memcmp(gc_chain_str(best, pr->s), "__dict__", 8) == 0) {
        cand = *best;
        gc_stmt *s = &cand.s[si];
        s->t[i - 1] = s->t[i];
        s->t[i - 1].kind = GC_T_ATTR;
        memmove(&s->t[i], &s->t[i + 1], (size_t)(s->ntrailers - i - 1) * sizeof s->t[0]);
        s->ntrailers--;
        if (try_cand(t, best, bo, want, st))
            return 1;
    }
    cand = *best;
    cand.s[si].t[i].kind = GC_T_ATTR;
    return try_cand(t, best, bo, want, st);
}

/* 4b. a call with one argument fewer, or an argument as the shortest literal of its kind */
static int shorter_call(gc_target *t, gc_chain *best, gc_outcome *bo, const gc_escape *want, gc_min_stats *st,
                        int si, int i)
{
    const gc_trailer *tr = &best->s[si].t[i];
    if (tr->kind != GC_T_CALL)
        return 0;
    for (int a = tr->nargs - 1; a >= 0; a--) {
        cand = *best;
        gc_trailer *ct = &cand.s[si].t[i];
        memmove(&ct->args[a], &ct->args[a + 1], (size_t)(ct->nargs - a - 1) * sizeof ct->args[0]);
        ct->nargs--;
        if (try_cand(t, best, bo, want, st))
            return 1;
    }
    for (int a = 0; a < tr->nargs; a++) {
        const gc_arg *g = &tr->args[a];
        cand = *best;
        gc_arg *cg = &cand.s[si].t[i].args[a];
        if (g->kind == GC_ARG_STR && g->s.len > 0)
            cg->s.len = 0;
        else if (g->kind == GC_ARG_INT && g->ival != 0)
            cg->ival = 0;
        else
            continue;
        if (try_cand(t, best, bo, want, st))
            return 1;
    }
    return 0;
}

/* One greedy round: the first candidate adopted, most aggressive pass first. */
static int pass(gc_target *t, gc_chain *best, gc_outcome *bo, const gc_escape *want, gc_min_stats *st)
{
    if (drop_statement(t, best, bo, want, st) || delete_run(t, best, bo, want, st) ||
        root_for_prefix(t, best, bo, want, st))
        return 1;
    /* 4. shortest literal forms */
    for (int si = 0; si < best->nstmts; si++)
        for (int i = 0; i < best->s[si].ntrailers; i++)
            if (item_as_attr(t, best, bo, want, st, si, i) || shorter_call(t, best, bo, want, st, si, i))
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

static gc_trailer alphabet[GC_MIN_ALPHABET];
static int nalpha;
static gc_chain alpha_chain; /* owns the alphabet's strings */

static void alpha_add(const gc_chain *from, const gc_trailer *tr, int as_attr)
{
    if (nalpha >= GC_MIN_ALPHABET)
        return;
    gc_trailer x = *tr;
    if (as_attr)
        x.kind = GC_T_ATTR;
    if (x.kind == GC_T_ATTR || x.kind == GC_T_ITEM_STR || x.kind == GC_T_NAMED)
        if (gc_chain_intern(&alpha_chain, gc_chain_str(from, x.s), x.s.len, &x.s) < 0)
            return;
    for (int k = 0; k < x.nargs; k++)
        if (x.args[k].kind == GC_ARG_STR &&
            gc_chain_intern(&alpha_chain, gc_chain_str(from, x.args[k].s), x.args[k].s.len, &x.args[k].s) < 0)
            return;
    for (int i = 0; i < nalpha; i++) /* first occurrence only */
        if (gc_trailer_equal(&alpha_chain, &alphabet[i], &alpha_chain, &x))
            return;
    alphabet[nalpha++] = x;
}

static int search(gc_target *t, gc_chain *best, gc_outcome *bo, const gc_escape *want, gc_min_stats *st,
                  const gc_chain *in)
{
    gc_chain_init(&alpha_chain);
    nalpha = 0;
    for (int si = 0; si < in->nstmts; si++)
        for (int i = 0; i < in->s[si].ntrailers; i++) {
            const gc_trailer *tr = &in->s[si].t[i];
            alpha_add(in, tr, 0);
            if (tr->kind == GC_T_ITEM_STR && is_identifier(gc_chain_str(in, tr->s), tr->s.len))
                alpha_add(in, tr, 1);
        }
    /* the escaping trailer: the last one of the best chain */
    const gc_stmt *ls = &best->s[best->nstmts - 1];
    if (ls->ntrailers == 0 || best->nstmts != 1)
        return 0;
    gc_chain last = *best;
    int budget = GC_MIN_SEARCH_BUDGET;
    int improved = 0;
    for (int len = 1; len <= GC_MIN_SEARCH_LEN && budget > 0; len++) {
        if (1 + len >= size_of(best).units || len - 1 > nalpha)
            break;
        int idx[GC_MIN_SEARCH_LEN];
        for (int i = 0; i < len - 1; i++)
            idx[i] = i;
        for (;;) {
            for (int r = 0; r < nroots && budget > 0; r++) {
                cand = alpha_chain;
                cand.nstmts = 1;
                gc_stmt *s = &cand.s[0];
                s->is_prev = 0;
                if (gc_chain_intern(&cand, roots[r], strlen(roots[r]), &s->root) < 0)
                    continue;
                s->ntrailers = 0;
                int ok = 1;
                for (int i = 0; i < len - 1 && ok; i++)
                    s->t[s->ntrailers++] = alphabet[idx[i]];
                gc_trailer lt = last.s[0].t[last.s[0].ntrailers - 1];
                if ((lt.kind == GC_T_ATTR || lt.kind == GC_T_ITEM_STR || lt.kind == GC_T_NAMED) &&
                    gc_chain_intern(&cand, gc_chain_str(&last, lt.s), lt.s.len, &lt.s) < 0)
                    ok = 0;
                for (int k = 0; ok && k < lt.nargs; k++)
                    if (lt.args[k].kind == GC_ARG_STR &&
                        gc_chain_intern(&cand, gc_chain_str(&last, lt.args[k].s), lt.args[k].s.len, &lt.args[k].s) < 0)
                        ok = 0;
                if (!ok)
                    continue;
                s->t[s->ntrailers++] = lt;
                budget--;
                if (try_cand(t, best, bo, want, st))
                    improved = 1;
            }
            if (improved || budget <= 0)
                return improved;
            /* next combination of len-1 indices out of nalpha */
            int i = len - 2;
            while (i >= 0 && idx[i] == nalpha - (len - 1) + i)
                i--;
            if (i < 0)
                break;
            idx[i]++;
            for (int j = i + 1; j < len - 1; j++)
                idx[j] = idx[j - 1] + 1;
        }
    }
    return improved;
}

int gc_minimize(gc_target *t, const gc_chain *in, gc_chain *best, gc_outcome *best_out, gc_min_stats *st,
                gc_min_check chk, void *chk_ctx)
{
    memset(st, 0, sizeof *st);
    check = chk;
    check_ctx = chk_ctx;
    char err[256];
    st->evaluations++;
    if (gc_run_input(t, in, best_out, NULL, NULL, err, sizeof err) != 0 || !best_out->escaped)
        return -1;
    gc_escape want = best_out->escape;
    gc_outcome_escape_chain(best_out, best);
    st->trailers_before = gc_chain_trailer_count(in);
    nroots = gc_session_roots(t, roots, 64);
    /* the trimmed chain must itself escape alike (it drops unrelated statements) */
    cand = *best;
    if (!same_escape(t, &cand, &want, st) || (check && !check(check_ctx, &trimmed, &cand_out))) {
        *best = best_out->resolved; /* keep everything: the escape depends on it */
        if (check && !check(check_ctx, best, best_out))
            return -2;
    } else {
        *best = trimmed;
        *best_out = cand_out;
    }
    while (pass(t, best, best_out, &want, st))
        ;
    static gc_chain resolved_in; /* exploration forms resolved: the names the input really took */
    resolved_in = best_out->resolved;
    gc_run_input(t, in, &cand_out, NULL, NULL, err, sizeof err);
    resolved_in = cand_out.resolved;
    if (search(t, best, best_out, &want, st, &resolved_in))
        while (pass(t, best, best_out, &want, st))
            ;
    st->trailers_after = gc_chain_trailer_count(best);
    return 0;
}
