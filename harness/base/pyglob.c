/* pyglob.c — see pyglob.h.  Written by hand: no library matches as Python's fnmatch does
 * (glibc's fnmatch(3) and libc's glob(7) rules differ on sets and escapes), and importing
 * Python's own before the target changes the process the target runs in. */
#include "pyglob.h"

#include <stdlib.h>
#include <string.h>

#define SEP 0xFFFFFFFFu /* a range's '-' inside a set (fnmatch.translate's unescaped one) */

enum { T_LIT, T_ANY, T_STAR, T_SET };

typedef struct {
    int type;
    unsigned cp;          /* T_LIT */
    int negate;           /* T_SET */
    size_t first, count;  /* T_SET: its ranges in the glob's range array */
} token;

typedef struct {
    unsigned lo, hi;
} range;

/* One character of s at *i (advanced): its code point; a byte that does not start a valid
 * UTF-8 sequence is U+DC00 + the byte, as surrogateescape decodes it. */
static unsigned next_cp(const unsigned char *s, size_t n, size_t *i)
{
    unsigned c = s[*i];
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    unsigned cp = len > 1 ? c & (0x7Fu >> len) : c;
    for (int k = 1; len > 1 && k < len; k++) {
        unsigned b = *i + (size_t)k < n ? s[*i + (size_t)k] : 0;
        if ((b & 0xC0) != 0x80)
            len = 0;
        else
            cp = cp << 6 | (b & 0x3F);
    }
    if (len == 0) {
        (*i)++;
        return 0xDC00 + c;
    }
    *i += (size_t)len;
    return cp;
}

/* 's' as code points (malloc'd, *n of them). */
static unsigned *decode(const char *s, size_t *n)
{
    size_t len = strlen(s), i = 0;
    unsigned *cp = malloc((len + 1) * sizeof *cp);
    *n = 0;
    while (cp && i < len)
        cp[(*n)++] = next_cp((const unsigned char *)s, len, &i);
    return cp;
}

/* The members of the set p[i, j) as fnmatch.translate writes them: its chunks between the
 * hyphens that make ranges (the first hyphen looked for after the first member, the next
 * two past a range's end), a range whose ends are reversed dropped with its ends, then
 * written into 'flat' (SEP: a range's hyphen).  Its length. */
static size_t set_members(const unsigned *p, size_t i, size_t j, unsigned *flat)
{
    size_t m = 0, start = i, k = i + (p[i] == '!' ? 2 : 1);
    for (; k < j; k++)
        if (p[k] == '-') {
            memcpy(flat + m, p + start, (k - start) * sizeof *flat);
            m += k - start;
            flat[m++] = SEP;
            start = k + 1;
            k += 2; /* the loop's k++ makes it the hyphen's place + 3 */
        }
    if (start == j && m && flat[m - 1] == SEP) /* a hyphen last: a member of the chunk before */
        flat[m - 1] = '-';
    memcpy(flat + m, p + start, (j - start) * sizeof *flat);
    m += j - start;
    for (size_t s = m; s-- > 0;) /* reversed ranges, from the last */
        if (flat[s] == SEP && s > 0 && s + 1 < m && flat[s - 1] != SEP && flat[s + 1] != SEP &&
            flat[s - 1] > flat[s + 1]) {
            memmove(flat + s - 1, flat + s + 2, (m - s - 2) * sizeof *flat);
            m -= 3;
            s = s > 1 ? s - 1 : 0;
        }
    return m;
}

/* The set p[i, j) as a token, its ranges appended to r (*nr of them). */
static token set_token(const unsigned *p, size_t i, size_t j, range *r, size_t *nr)
{
    unsigned *flat = malloc((j - i + 1) * sizeof *flat);
    token t = {.type = T_SET, .first = *nr};
    size_t m = flat ? set_members(p, i, j, flat) : 0, k = 0;
    if (m == 1 && flat[0] == '!') { /* a negated empty set: any character */
        free(flat);
        return (token){.type = T_ANY};
    }
    if (m && flat[0] == '!')
        t.negate = 1, k = 1;
    for (; k < m; k++) {
        unsigned lo = flat[k] == SEP ? '-' : flat[k], hi = lo;
        if (flat[k] != SEP && k + 2 < m && flat[k + 1] == SEP && flat[k + 2] != SEP)
            hi = flat[k += 2];
        r[(*nr)++] = (range){lo, hi};
    }
    t.count = *nr - t.first;
    free(flat);
    return t;
}

/* The glob p[0, n) as tokens (t and r hold n each); how many tokens. */
static size_t compile(const unsigned *p, size_t n, token *t, range *r)
{
    size_t nt = 0, nr = 0;
    for (size_t i = 0; i < n;) {
        unsigned c = p[i++];
        if (c == '*') {
            if (!nt || t[nt - 1].type != T_STAR)
                t[nt++] = (token){.type = T_STAR};
            continue;
        }
        if (c == '?') {
            t[nt++] = (token){.type = T_ANY};
            continue;
        }
        size_t j = i;
        if (c == '[') {
            j += j < n && p[j] == '!';
            j += j < n && p[j] == ']';
            while (j < n && p[j] != ']')
                j++;
        }
        if (c != '[' || j >= n) {
            t[nt++] = (token){.type = T_LIT, .cp = c};
            continue;
        }
        t[nt++] = set_token(p, i, j, r, &nr);
        i = j + 1;
    }
    return nt;
}

static int one(const token *t, const range *r, unsigned c)
{
    if (t->type == T_ANY)
        return 1;
    if (t->type == T_LIT)
        return t->cp == c;
    int in = 0;
    for (size_t k = 0; k < t->count && !in; k++)
        in = r[t->first + k].lo <= c && c <= r[t->first + k].hi;
    return in != t->negate;
}

/* Single-character tokens and '*': the last '*' is the only backtrack point needed. */
static int match(const token *t, size_t nt, const range *r, const unsigned *s, size_t ns)
{
    size_t pi = 0, si = 0, star = (size_t)-1, mark = 0;
    while (si < ns) {
        if (pi < nt && t[pi].type != T_STAR && one(&t[pi], r, s[si]))
            pi++, si++;
        else if (pi < nt && t[pi].type == T_STAR)
            star = pi++, mark = si;
        else if (star != (size_t)-1)
            pi = star + 1, si = ++mark;
        else
            return 0;
    }
    while (pi < nt && t[pi].type == T_STAR)
        pi++;
    return pi == nt;
}

int gc_pyglob_match(const char *glob, const char *path)
{
    size_t np, ns;
    unsigned *p = decode(glob, &np), *s = decode(path, &ns);
    token *t = malloc((np + 1) * sizeof *t);
    range *r = malloc((np + 1) * sizeof *r);
    int m = p && s && t && r ? match(t, compile(p, np, t, r), r, s, ns) : 0;
    free(p);
    free(s);
    free(t);
    free(r);
    return m;
}
