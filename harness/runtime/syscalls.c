/* syscalls.c — see syscalls.h.  Data for libseccomp (the rules) and for a supervisor (the
 * names, the paths): written by hand, as no library classifies system calls this way. */
#define _GNU_SOURCE
#include "syscalls.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* ---- process creation ---- */

int gc_sys_spawn_rules(void *ctx_)
{
    scmp_filter_ctx ctx = ctx_;
    int rc = 0;
    static const int stopped[] = {SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork)};
    for (size_t i = 0; rc == 0 && i < sizeof stopped / sizeof stopped[0]; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, stopped[i], 0);
    /* clone: a new thread (CLONE_THREAD) passes, anything else is a new process */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    /* clone3 passes its flags in memory the filter cannot read: ENOSYS makes glibc use clone */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    /* io_uring's operations (socket, connect, openat) are no system calls a filter sees */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(io_uring_setup), 0);
    return rc;
}

const char *gc_sys_spawn_name(int nr)
{
    switch (nr) {
    case SYS_execve: return "execve";
    case SYS_execveat: return "execveat";
#ifdef SYS_fork /* (x86-64; aarch64 has clone only) */
    case SYS_fork: return "fork";
    case SYS_vfork: return "vfork";
#endif
    case SYS_clone: return "clone";
    default: return NULL;
    }
}

/* ---- the network ---- */

int gc_sys_net_rules(void *ctx_)
{
    scmp_filter_ctx ctx = ctx_;
    int rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX, 0));
    static const int endpoint[] = {SCMP_SYS(connect), SCMP_SYS(bind), SCMP_SYS(listen)};
    for (size_t i = 0; rc == 0 && i < sizeof endpoint / sizeof endpoint[0]; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, endpoint[i], 0);
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(sendto), 1,
                              SCMP_A3(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(sendmsg), 1,
                              SCMP_A2(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(sendmmsg), 1,
                              SCMP_A3(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN));
    return rc;
}

const char *gc_sys_net_name(int nr)
{
    switch (nr) {
    case SYS_socket: return "socket";
    case SYS_connect: return "connect";
    case SYS_bind: return "bind";
    case SYS_listen: return "listen";
    case SYS_sendto: case SYS_sendmsg: case SYS_sendmmsg: return "fastopen";
    default: return NULL;
    }
}

const char *gc_sys_family_name(unsigned long long f)
{
    switch (f) {
    case AF_INET: return "AF_INET";
    case AF_INET6: return "AF_INET6";
    case AF_UNIX: return "AF_UNIX";
    case AF_NETLINK: return "AF_NETLINK";
    case AF_PACKET: return "AF_PACKET";
    default: return "another family";
    }
}

/* ---- the write-type path calls ---- */

/* The write-type path calls: where their paths (and dir fds) are, where their open flags
 * are (-1: always a write; 9: in struct open_how), whether the last component is followed. */
typedef struct {
    int nr;
    const char *name;
    signed char dirfd[2], path[2], flags;
    char follow;
} wcall;

static const wcall wcalls[] = {
    {SYS_openat, "openat", {0, -1}, {1, -1}, 2, 1},
    {SYS_openat2, "openat2", {0, -1}, {1, -1}, 9, 1},
    {SYS_truncate, "truncate", {-1, -1}, {0, -1}, -1, 1},
    {SYS_mkdirat, "mkdirat", {0, -1}, {1, -1}, -1, 0},
    {SYS_mknodat, "mknodat", {0, -1}, {1, -1}, -1, 0},
    {SYS_unlinkat, "unlinkat", {0, -1}, {1, -1}, -1, 0},
    {SYS_renameat2, "renameat2", {0, 2}, {1, 3}, -1, 0},
    {SYS_linkat, "linkat", {0, 2}, {1, 3}, -1, 0},
    {SYS_symlinkat, "symlinkat", {1, -1}, {2, -1}, -1, 0},
#ifdef SYS_open /* the older calls: x86-64 has them, arm64 has only the *at ones */
    {SYS_open, "open", {-1, -1}, {0, -1}, 1, 1},
    {SYS_creat, "creat", {-1, -1}, {0, -1}, -1, 1},
    {SYS_mkdir, "mkdir", {-1, -1}, {0, -1}, -1, 0},
    {SYS_mknod, "mknod", {-1, -1}, {0, -1}, -1, 0},
    {SYS_unlink, "unlink", {-1, -1}, {0, -1}, -1, 0},
    {SYS_rmdir, "rmdir", {-1, -1}, {0, -1}, -1, 0},
    {SYS_rename, "rename", {-1, -1}, {0, 1}, -1, 0},
    {SYS_link, "link", {-1, -1}, {0, 1}, -1, 0},
    {SYS_symlink, "symlink", {-1, -1}, {1, -1}, -1, 0},
#endif
#ifdef SYS_renameat
    {SYS_renameat, "renameat", {0, 2}, {1, 3}, -1, 0},
#endif
};
#define NWCALLS (sizeof wcalls / sizeof wcalls[0])

static const wcall *find_call(int nr)
{
    for (size_t i = 0; i < NWCALLS; i++)
        if (wcalls[i].nr == nr)
            return &wcalls[i];
    return NULL;
}

const char *gc_sys_write_name(int nr)
{
    const wcall *w = find_call(nr);
    return w ? w->name : NULL;
}

int gc_sys_write_rules(void *seccomp_ctx)
{
    scmp_filter_ctx ctx = seccomp_ctx;
    /* an open stops only with a write, create or truncate flag */
    static const unsigned wflags[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < NWCALLS; i++) {
        const wcall *w = &wcalls[i];
        if (w->flags < 0 || w->flags == 9) {
            rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, w->nr, 0);
            continue;
        }
        for (size_t k = 0; rc == 0 && k < sizeof wflags / sizeof wflags[0]; k++)
            rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, w->nr, 1,
                                  SCMP_CMP((unsigned)w->flags, SCMP_CMP_MASKED_EQ, wflags[k], wflags[k]));
    }
    return rc;
}

int gc_sys_read(pid_t pid, uint64_t addr, char *out, size_t len, int string)
{
    size_t got = 0, page = (size_t)sysconf(_SC_PAGESIZE);
    while (got < len) {
        uintptr_t a = (uintptr_t)addr + got;
        size_t chunk = page - a % page;
        if (chunk > len - got)
            chunk = len - got;
        struct iovec l = {out + got, chunk}, r = {(void *)a, chunk};
        ssize_t n = process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (n <= 0)
            return -1;
        if (string && memchr(out + got, '\0', (size_t)n))
            return 0;
        got += (size_t)n;
    }
    return string ? -1 : 0;
}

/* The path the call names, as Landlock will see it: the folder it is in resolved, and the
 * last component too when the call follows it and it exists.  -1: not resolvable (the call
 * fails by itself, or names no file: Landlock decides). */
static int resolve(pid_t tid, int dirfd, const char *path, int follow, char out[PATH_MAX])
{
    char full[PATH_MAX * 2], base[PATH_MAX];
    if (path[0] == '/')
        snprintf(full, sizeof full, "%s", path);
    else {
        char link[64];
        if (dirfd == AT_FDCWD)
            snprintf(link, sizeof link, "/proc/%d/cwd", (int)tid);
        else
            snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)tid, dirfd);
        ssize_t n = readlink(link, base, sizeof base - 1);
        if (n <= 0 || base[0] != '/')
            return -1;
        base[n] = '\0';
        snprintf(full, sizeof full, "%s/%s", base, path);
    }
    /* descriptors and terminals: pipes and sockets are no file Landlock guards */
    if (strncmp(full, "/proc/", 6) == 0 || strncmp(full, "/dev/fd/", 8) == 0 || strncmp(full, "/dev/std", 8) == 0)
        return -1;
    if (follow && realpath(full, out))
        return 0;
    size_t n = strlen(full);
    while (n > 1 && full[n - 1] == '/')
        full[--n] = '\0';
    char *slash = strrchr(full, '/');
    snprintf(base, sizeof base, "%s", slash + 1);
    if (slash == full)
        slash[1] = '\0';
    else
        *slash = '\0';
    char dir[PATH_MAX];
    if (!realpath(full, dir))
        return -1;
    snprintf(out, PATH_MAX, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, base);
    return 0;
}


int gc_sys_write_paths(pid_t tid, int nr, const unsigned long long args[6], char out[2][PATH_MAX])
{
    const wcall *w = find_call(nr);
    if (!w)
        return 0;
    if (w->flags == 9) { /* openat2: the flags are in struct open_how */
        uint64_t how;
        if (gc_sys_read(tid, args[2], (char *)&how, sizeof how, 0) != 0 || !(how & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)))
            return 0;
    }
    int n = 0;
    for (int k = 0; k < 2 && w->path[k] >= 0; k++) {
        char path[PATH_MAX];
        int dirfd = w->dirfd[k] >= 0 ? (int)args[(int)w->dirfd[k]] : AT_FDCWD;
        if (gc_sys_read(tid, args[(int)w->path[k]], path, sizeof path, 1) == 0 && path[0] &&
            resolve(tid, dirfd, path, w->follow, out[n]) == 0)
            n++;
    }
    return n;
}

int gc_sys_respond(int fd, void *resp_, uint64_t id, int err)
{
    struct seccomp_notif_resp *resp = resp_;
    memset(resp, 0, sizeof *resp);
    resp->id = id;
    resp->flags = err ? 0 : SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    resp->error = -err;
    return seccomp_notify_respond(fd, resp) == 0 ? 0 : -1;
}

int gc_sys_path_beneath(const char *p, const char *grant, int dir)
{
    size_t n = strlen(grant);
    return strncmp(p, grant, n) == 0 && (p[n] == '\0' || (dir && (p[n] == '/' || (n == 1 && p[0] == '/'))));
}
