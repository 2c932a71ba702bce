/* strbuf.c — see strbuf.h. */
#include "strbuf.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(gc_strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    sb->data = gc_xrealloc(sb->data, cap);
    sb->cap = cap;
}

void gc_sb_init(gc_strbuf *sb)
{
    sb->data = NULL;
    sb->len = sb->cap = 0;
    reserve(sb, 0);
    sb->data[0] = '\0';
}

void gc_sb_free(gc_strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void gc_sb_clear(gc_strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

void gc_sb_putn(gc_strbuf *sb, const char *s, size_t n)
{
    reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void gc_sb_puts(gc_strbuf *sb, const char *s) { gc_sb_putn(sb, s, strlen(s)); }

void gc_sb_putc(gc_strbuf *sb, char c) { gc_sb_putn(sb, &c, 1); }

void gc_sb_put_long(gc_strbuf *sb, long v)
{
    char buf[24], *p = buf + sizeof buf;
    unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    gc_sb_putn(sb, p, (size_t)(buf + sizeof buf - p));
}

void gc_sb_vprintf(gc_strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void gc_sb_printf(gc_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gc_sb_vprintf(sb, fmt, ap);
    va_end(ap);
}
