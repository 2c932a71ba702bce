/* strbuf.h — a growable, always NUL-terminated byte buffer.
 *
 * Owns: the one string builder every printer in the harness uses (chain text, Python
 * reproducers, ESCAPE lines, JSON).  Written by hand because C11 has none and pulling a
 * library in for sixty lines is not worth a dependency.  Allocation failure aborts (xalloc.h): the
 * harness cannot report anything useful without memory. */
#ifndef GATECRASH_STRBUF_H
#define GATECRASH_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct {
    char *data;
    size_t len;
    size_t cap;
} gc_strbuf;

void gc_sb_init(gc_strbuf *sb);
void gc_sb_free(gc_strbuf *sb);
void gc_sb_clear(gc_strbuf *sb);
void gc_sb_putn(gc_strbuf *sb, const char *s, size_t n);
void gc_sb_puts(gc_strbuf *sb, const char *s);
void gc_sb_putc(gc_strbuf *sb, char c);
/* v in decimal, as "%ld" prints it (the chain printer's indices: no format parsed) */
void gc_sb_put_long(gc_strbuf *sb, long v);
void gc_sb_printf(gc_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gc_sb_vprintf(gc_strbuf *sb, const char *fmt, va_list ap);

#endif
