/* fsutil.h — the few file and process-path chores the front ends share: lists of paths,
 * reading inputs, making and removing folders.  Plain POSIX; nothing Python here. */
#ifndef GATECRASH_FSUTIL_H
#define GATECRASH_FSUTIL_H

#include <stddef.h>

typedef struct {
    char **v;
    int n, cap;
} gc_strlist;

void gc_sl_add(gc_strlist *l, const char *s); /* NULL allowed: an argv terminator */
void gc_sl_free(gc_strlist *l);
int gc_sl_contains(const gc_strlist *l, const char *s);

/* Regular files named by 'arg' (itself, or the non-hidden files directly in it, sorted,
 * less reproducers and reports: *.py *.md *.json *.sarif *.log *.txt), as absolute paths.
 * -1 with a one-line error printed when unreadable. */
int gc_collect_inputs(const char *arg, gc_strlist *out);
/* Whole file (up to 64 MiB); NULL when unreadable. */
unsigned char *gc_read_file(const char *path, size_t *len);
void gc_rm_tree(const char *dir);
/* Copy a regular file (temp file and rename: the destination is whole or absent). */
int gc_copy_file(const char *src, const char *dst);
int gc_mkdirs(const char *path);
/* Folder of the running executable. */
void gc_exe_dir(char *out, size_t len);

#endif
