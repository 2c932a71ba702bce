/* xalloc.h — allocation that aborts on failure.
 *
 * Owns: the one way the harness allocates memory it cannot go on without: gc_xmalloc,
 * gc_xcalloc, gc_xrealloc and gc_xstrdup return what malloc, calloc, realloc and strdup
 * return, or print one line and abort (the harness cannot report anything useful without
 * memory).  Not for allocator hooks that must fail softly (timelimit.c's bound on Python's
 * allocations returns NULL). */
#ifndef GATECRASH_XALLOC_H
#define GATECRASH_XALLOC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void *gc_xalloc_check(void *p)
{
    if (!p) {
        fputs("gatecrash: error: out of memory\n", stderr);
        abort();
    }
    return p;
}

static inline void *gc_xmalloc(size_t n) { return gc_xalloc_check(malloc(n ? n : 1)); }
static inline void *gc_xcalloc(size_t n, size_t size) { return gc_xalloc_check(calloc(n ? n : 1, size ? size : 1)); }
static inline void *gc_xrealloc(void *p, size_t n) { return gc_xalloc_check(realloc(p, n ? n : 1)); }
static inline char *gc_xstrdup(const char *s) { return gc_xalloc_check(strdup(s)); }

#endif
