/* sweep_forms.c — see sweep_forms.h. */
#include "sweep_forms.h"

#include <string.h>

#include "program.h"

/* op, then s[len] as its string operand, at out[n] (cap bytes): the new length, 0 past cap. */
static size_t put(uint8_t *out, size_t n, size_t cap, int op, const char *s, size_t len)
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
    *prelen = put(pre, 0, GC_SWEEP_FORM_PRE, GC_P_NAME, "getattr", 7);
    if (len < 2 || !*prelen)
        return 0;
    n = put(tr, 0, cap, GC_P_STR, name, half);
    n = n ? put(tr, n, cap, GC_P_STR, name + half, len - half) : 0;
    n = put_byte(tr, n, cap, GC_P_BINOP, 0); /* + */
    return put_byte(tr, n, cap, GC_P_CALL, 2);
}

size_t gc_sweep_form_match(const char *name, size_t len, uint8_t *tr, size_t cap, size_t *stmts)
{
    size_t n = cap ? 1 : 0;
    if (n)
        tr[0] = GC_P_MATCH;
    n = n ? put(tr, n, cap, GC_P_NAME, "object", 6) : 0;
    n = n ? put(tr, n, cap, GC_P_NAME, "v", 1) : 0;
    n = n ? put(tr, n, cap, GC_P_KW, name, len) : 0;
    n = put_byte(tr, n, cap, GC_P_CALL, 1);
    if (!n || n + 1 > cap)
        return 0;
    tr[n++] = GC_P_CASE;
    *stmts = n;
    return put(tr, n, cap, GC_P_NAME, "v", 1);
}
