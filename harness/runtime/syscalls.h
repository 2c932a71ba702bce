/* syscalls.h — the system calls gatecrash stops below Python, as data for a supervisor.
 *
 * Owns: the three classes of system call that a seccomp user-notification supervisor is
 * handed, both by the backstop in the harness's own processes (backstop.h, confine.h) and by
 * the watch around a plain interpreter that confirms an escape (triage/watch.c): process
 * creation, the network, and the write-type path calls; the libseccomp rules that hand
 * each class over; their names; and what a stopped write call names — its paths, read from
 * the calling thread's memory and resolved as Landlock will see them.  No Python and no
 * judgement here (which call is an escape is the supervisor's): the watch links this alone. */
#ifndef GATECRASH_SYSCALLS_H
#define GATECRASH_SYSCALLS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Process creation handed over: execve, execveat, fork, vfork, clone without CLONE_THREAD
 * (a new thread passes).  clone3, whose flags are in memory a filter cannot read, and
 * io_uring_setup, whose operations are no system calls a filter sees, fail with ENOSYS
 * (glibc then makes threads with clone).  'ctx' is a scmp_filter_ctx.  0 or -errno. */
int gc_sys_spawn_rules(void *ctx);
/* "execve" | "execveat" | "fork" | "vfork" | "clone" for a process-creation call, else NULL. */
const char *gc_sys_spawn_name(int nr);

/* The network handed over: socket() of any family but AF_UNIX, connect, bind, listen, and
 * sends with MSG_FASTOPEN (a connect).  0 or -errno. */
int gc_sys_net_rules(void *ctx);
/* "socket" | "connect" | "bind" | "listen" | "fastopen" for a network call, else NULL. */
const char *gc_sys_net_name(int nr);
/* "AF_INET", "AF_INET6", "AF_UNIX", "AF_NETLINK", "AF_PACKET" or "another family". */
const char *gc_sys_family_name(unsigned long long family);

/* The write-type path calls handed over: opens with a write, create or truncate flag (a
 * read-only open never stops), truncate, mkdir, mknod, unlink, rmdir, rename, link,
 * symlink and their *at forms.  0 or -errno. */
int gc_sys_write_rules(void *ctx);
/* The call's name for a write-type path call, else NULL. */
const char *gc_sys_write_name(int nr);
/* The paths write call 'nr' of thread 'tid' names (at most two: a rename's), each resolved
 * as Landlock will see it: the folder it is in resolved, and the last component too when
 * the call follows it and it exists.  Returns how many are in out (0: none to judge — an
 * openat2 without a write flag, a path that cannot be read or resolved, /proc and /dev/fd
 * descriptors: the call fails by itself or names no file Landlock guards). */
int gc_sys_write_paths(pid_t tid, int nr, const unsigned long long args[6], char out[2][PATH_MAX]);

/* Answer notification 'id' on listener 'fd' (a supervisor's): let the call run (err 0:
 * SECCOMP_USER_NOTIF_FLAG_CONTINUE) or fail it with errno 'err'.  'resp' is libseccomp's
 * buffer (seccomp_notify_alloc), so nothing is allocated here.  0 or -1. */
int gc_sys_respond(int fd, void *resp, uint64_t id, int err);

/* Is 'path' (resolved, absolute) 'grant' itself or, when 'dir', beneath it? */
int gc_sys_path_beneath(const char *path, const char *grant, int dir);

/* 'len' bytes (a NUL-terminated string of at most len when 'string') of process 'pid''s
 * memory at 'addr', without faulting on a bad pointer.  0 or -1. */
int gc_sys_read(pid_t pid, uint64_t addr, char *out, size_t len, int string);

#endif
