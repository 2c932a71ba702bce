/* fsutil.c — see fsutil.h. */
#define _GNU_SOURCE /* nftw, syncfs */
#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "diag.h"
#include "xalloc.h"

void gc_sl_add(gc_strlist *l, const char *s)
{
    if (l->n + 1 >= l->cap) { /* room for a NULL terminator too */
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = gc_xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = s ? strdup(s) : NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files that sit beside chains and crash inputs but are neither: reproducers, reports. */
static int not_an_input(const char *name)
{
    static const char *skip[] = {".py", ".md", ".json", ".sarif", ".log", ".txt"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++) {
        size_t k = strlen(skip[i]);
        if (n > k && strcmp(name + n - k, skip[i]) == 0)
            return 1;
    }
    return 0;
}

/* A source target's programs: *.py, less standalone reproducers (*.repro.py). */
static int not_a_program(const char *name)
{
    size_t n = strlen(name);
    return n < 4 || strcmp(name + n - 3, ".py") != 0 || (n > 9 && strcmp(name + n - 9, ".repro.py") == 0);
}

static int collect(const char *arg, gc_strlist *out, int (*skip)(const char *name));

int gc_collect_inputs(const char *arg, gc_strlist *out)
{
    return collect(arg, out, not_an_input);
}

int gc_collect_programs(const char *arg, gc_strlist *out)
{
    return collect(arg, out, not_a_program);
}

static int collect(const char *arg, gc_strlist *out, int (*skip)(const char *name))
{
    char abs[PATH_MAX];
    if (!realpath(arg, abs)) {
        gc_die_msg("cannot read %s: %s", arg, strerror(errno));
        return -1;
    }
    struct stat st;
    if (stat(abs, &st) != 0) {
        gc_die_msg("cannot read %s: %s", arg, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        gc_sl_add(out, abs);
        return 0;
    }
    DIR *d = opendir(abs);
    if (!d) {
        gc_die_msg("cannot read folder %s: %s", arg, strerror(errno));
        return -1;
    }
    int first = out->n;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || skip(e->d_name))
            continue;
        char p[PATH_MAX * 2];
        snprintf(p, sizeof p, "%s/%s", abs, e->d_name);
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
            gc_sl_add(out, p);
    }
    closedir(d);
    if (out->n > first) /* out->v may still be NULL: no arithmetic on it */
        qsort(out->v + first, (size_t)(out->n - first), sizeof *out->v, cmp_str);
    return 0;
}

unsigned char *gc_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            if (cap >= (size_t)64 << 20)
                break; /* far past any chain: the parser reports "too large" */
            cap *= 2;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

void gc_rm_tree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

int gc_dir_entries(const char *dir, gc_strlist *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            if (out)
                gc_sl_add(out, e->d_name);
            n++;
        }
    closedir(d);
    return n;
}

int gc_mkdirs(const char *path)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    }
    return mkdir(tmp, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

int gc_exe_path(char *out, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", out, len - 1);
    out[n > 0 ? n : 0] = '\0';
    return n > 0 ? 0 : -1;
}

void gc_exe_dir(char *out, size_t len)
{
    char self[PATH_MAX];
    if (gc_exe_path(self, sizeof self) != 0) {
        snprintf(out, len, ".");
        return;
    }
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(out, len, "%s", self);
}


void gc_sl_free(gc_strlist *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

int gc_sl_contains(const gc_strlist *l, const char *s)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i] && strcmp(l->v[i], s) == 0)
            return 1;
    return 0;
}

static int write_atomic(const char *path, const char *data, size_t len, int exclusive, int sync)
{
    /* the temp file is hidden (.NAME.tmp.PID.XXXXXX): a run killed before the rename leaves
     * nothing that replay, gate, a later triage or an engine takes for an input; triage's
     * gc_clean_stale removes it once its process is gone */
    char tmp[4096];
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(tmp, sizeof tmp, "%.*s/.%s.tmp.%ld.XXXXXX", (int)(slash - path), path, slash + 1, (long)getpid());
    else
        snprintf(tmp, sizeof tmp, ".%s.tmp.%ld.XXXXXX", path, (long)getpid());
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n <= 0) {
            close(fd);
            unlink(tmp);
            return -1;
        }
        done += (size_t)n;
    }
    if ((sync && fsync(fd) != 0) || fchmod(fd, 0644) != 0 || close(fd) != 0) {
        unlink(tmp);
        return -1;
    }
    int rc = exclusive ? link(tmp, path) : rename(tmp, path);
    int saved = errno;
    if (exclusive || rc != 0)
        unlink(tmp);
    errno = saved;
    return rc;
}

int gc_write_atomic(const char *path, const char *data, size_t len, int exclusive)
{
    return write_atomic(path, data, len, exclusive, 1);
}

int gc_write_atomic_batch(const char *path, const char *data, size_t len)
{
    return write_atomic(path, data, len, 0, 0);
}

int gc_sync_batch(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = syncfs(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

int gc_copy_file(const char *src, const char *dst)
{
    size_t len = 0;
    unsigned char *data = gc_read_file(src, &len);
    if (!data)
        return -1;
    int rc = gc_write_atomic(dst, (const char *)data, len, 0);
    free(data);
    return rc;
}

void gc_sha1_hex(const void *data, size_t len, char hex[41])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(data, len, md, &n, EVP_sha1(), NULL))
        n = 0;
    for (unsigned int i = 0; i < n && i < 20; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    hex[2 * (n < 20 ? n : 20)] = '\0';
}

void gc_resolved_path(const char *crash_path, const void *data, size_t len, char *out, size_t outlen)
{
    char hex[41];
    gc_sha1_hex(data, len, hex);
    const char *slash = strrchr(crash_path, '/');
    if (slash)
        snprintf(out, outlen, "%.*s/" GC_RESOLVED_DIR "/%s", (int)(slash - crash_path), crash_path, hex);
    else
        snprintf(out, outlen, GC_RESOLVED_DIR "/%s", hex);
}
