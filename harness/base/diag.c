/* diag.c — see diag.h. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

void gc_die_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gatecrash: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
