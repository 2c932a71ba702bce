/* fsutil.h — the few file and process-path chores the front ends share: lists of paths,
 * reading inputs, making and removing folders, and where a crash input's resolved chain is
 * kept (its SHA-1 names it).  Plain POSIX and libcrypto; nothing Python here. */
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
/* The same for a source target's programs: a folder's *.py files, less standalone
 * reproducers (*.repro.py). */
int gc_collect_programs(const char *arg, gc_strlist *out);
/* Whole file (up to 64 MiB); NULL when unreadable. */
unsigned char *gc_read_file(const char *path, size_t *len);
void gc_rm_tree(const char *dir);
/* The names in folder 'dir' (not . and ..), added to out when not NULL: how many, or -1 when
 * it cannot be read. */
int gc_dir_entries(const char *dir, gc_strlist *out);
/* Write 'data' to 'path' atomically (a hidden temp file in the same folder, fsync'd, then
 * rename, or link when 'exclusive': then it fails with EEXIST if 'path' exists).  0 or -1
 * (errno set).  Killed at any point, it leaves either no file or the whole file at 'path';
 * the hidden temp file (.NAME.tmp.PID.XXXXXX) matches no case, crash or corpus pattern. */
int gc_write_atomic(const char *path, const char *data, size_t len, int exclusive);
/* Many files at once: gc_write_atomic's each (never exclusive) without its fsync, then one
 * gc_sync_batch of their folder's file system when all are written (syncfs: one flush, not
 * one per file).  0 or -1 (errno set). */
int gc_write_atomic_batch(const char *path, const char *data, size_t len);
int gc_sync_batch(const char *dir);
/* Copy a regular file with gc_write_atomic. */
int gc_copy_file(const char *src, const char *dst);
int gc_mkdirs(const char *path);
/* Path of the running executable ("" and -1 when unknown). */
int gc_exe_path(char *out, size_t len);
/* Folder of the running executable. */
void gc_exe_dir(char *out, size_t len);

/* A crash input's resolved chain (the chain the fuzzing process really ran, exploration
 * forms replaced by the names they took there) is kept in GC_RESOLVED_DIR beside the crash
 * input, named by the SHA-1 of the input's bytes: libFuzzer's crash-SHA1 and AFL++'s id:…
 * alike.  'hex' gets 40 hex digits. */
#define GC_RESOLVED_DIR "resolved"
void gc_sha1_hex(const void *data, size_t len, char hex[41]);
/* "<folder of crash_path>/resolved/<sha1 of data>" */
void gc_resolved_path(const char *crash_path, const void *data, size_t len, char *out, size_t outlen);

#endif
