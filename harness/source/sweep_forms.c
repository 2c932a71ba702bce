/* sweep_forms.c — see sweep_forms.h. */
#include "sweep_forms.h"

#include <string.h>

#include "program.h"

size_t gc_sweep_put_str(uint8_t *out, size_t n, size_t cap, int op, const char *s, size_t len)
{
    if (len > GC_P_MAX_STRLEN || n + 2 + len > cap)
        return 0;
    out[n++] = (uint8_t)op;
    out[n++] = (uint8_t)len;
    memcpy(out + n, s, len);
    return n + len;
}

/* op and its byte operand at out[n]: the new length, 0 past cap. */
static size_t put_byte(uint8_t *out, size_t n, size_t cap, int op, uint8_t b)
{
    if (!n || n + 2 > cap)
        return 0;
    out[n++] = (uint8_t)op;
    out[n++] = b;
    return n;
}

size_t gc_sweep_form_getattr(const char *name, size_t len, uint8_t *pre, size_t *prelen, uint8_t *tr, size_t cap)
{
    size_t half = len / 2, n;
    *prelen = gc_sweep_put_str(pre, 0, GC_SWEEP_FORM_PRE, GC_P_NAME, "getattr", 7);
    if (len < 2 || !*prelen)
        return 0;
    n = gc_sweep_put_str(tr, 0, cap, GC_P_STR, name, half);
    n = n ? gc_sweep_put_str(tr, n, cap, GC_P_STR, name + half, len - half) : 0;
    n = put_byte(tr, n, cap, GC_P_BINOP, 0); /* + */
    return put_byte(tr, n, cap, GC_P_CALL, 2);
}

size_t gc_sweep_form_match(const char *name, size_t len, uint8_t *tr, size_t cap, size_t *stmts)
{
    size_t n = cap ? 1 : 0;
    if (n)
        tr[0] = GC_P_MATCH;
    n = n ? gc_sweep_put_str(tr, n, cap, GC_P_NAME, "object", 6) : 0;
    n = n ? gc_sweep_put_str(tr, n, cap, GC_P_NAME, "v", 1) : 0;
    n = n ? gc_sweep_put_str(tr, n, cap, GC_P_KW, name, len) : 0;
    n = put_byte(tr, n, cap, GC_P_CALL, 1);
    if (!n || n + 1 > cap)
        return 0;
    tr[n++] = GC_P_CASE;
    *stmts = n;
    return gc_sweep_put_str(tr, n, cap, GC_P_NAME, "v", 1);
}

/* op alone (no operand) at out[n]: the new length, 0 past cap (or n 0: an earlier part did
 * not fit). */
static size_t put_op(uint8_t *out, size_t n, size_t cap, int op)
{
    if (!n || n + 1 > cap)
        return 0;
    out[n++] = (uint8_t)op;
    return n;
}

size_t gc_sweep_form_import(const char *mod, size_t len, int where, uint8_t *out, size_t cap, size_t *blen)
{
    int alias = len && (memchr(mod, '.', len) || mod[0] == '_');
    const char *name = alias ? "m" : mod;
    size_t nlen = alias ? 1 : len, n = 0;
    *blen = 0;
    if (!len)
        return 0;
    if (where == GC_SWEEP_IMPORT_IF && cap >= 3) { /* if 1: */
        static const uint8_t if1[] = {GC_P_INT, 1, GC_P_IF};
        memcpy(out, if1, sizeof if1);
        n = sizeof if1;
    } else if (where == GC_SWEEP_IMPORT_DEF) /* def i(): */
        n = gc_sweep_put_str(out, 0, cap, GC_P_DEF, "i", 1);
    if (where != GC_SWEEP_IMPORT_TOP && !n)
        return 0;
    /* IMPORT M a: the module's string, then the alias's (empty: no `as`) */
    n = gc_sweep_put_str(out, n, cap, GC_P_IMPORT, mod, len);
    if (!n || n + 1 + (alias ? 1 : 0) > cap)
        return 0;
    out[n++] = (uint8_t)(alias ? 1 : 0);
    if (alias)
        out[n++] = 'm';
    if (where == GC_SWEEP_IMPORT_DEF) { /* return M / (end) / M = i() */
        n = gc_sweep_put_str(out, n, cap, GC_P_NAME, name, nlen);
        n = put_op(out, put_op(out, n, cap, GC_P_RETURN), cap, GC_P_END);
        n = n ? gc_sweep_put_str(out, n, cap, GC_P_NAME, "i", 1) : 0;
        n = put_byte(out, n, cap, GC_P_CALL, 0);
        n = n ? gc_sweep_put_str(out, n, cap, GC_P_ASSIGN, name, nlen) : 0;
    } else if (where == GC_SWEEP_IMPORT_IF)
        n = put_op(out, n, cap, GC_P_END);
    *blen = n;
    return n ? gc_sweep_put_str(out, n, cap, GC_P_NAME, name, nlen) : 0;
}

