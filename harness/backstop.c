/* backstop.c — see backstop.h.  Written by hand around libseccomp's user notification: no
 * library offers "stop process creation and tell whether it was a chain's doing". */
#define _GNU_SOURCE
#include "backstop.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "oracle.h"

volatile unsigned long gc_backstop_blocked;
static int armed;

static const char *syscall_name(int nr)
{
    switch (nr) {
    case SYS_execve: return "execve";
    case SYS_execveat: return "execveat";
    case SYS_fork: return "fork";
    case SYS_vfork: return "vfork";
    case SYS_clone: return "clone";
    default: return "spawn-syscall";
    }
}

/* The supervisor: the kernel holds the calling thread in the system call and asks here.
 * The answer is always EPERM (the call never runs); when a chain step is running and the
 * policy forbids spawns, the escape is set first: the step returns only after the answer,
 * so the evaluator sees it.  (A SIGSYS handler cannot do this job: _posixsubprocess blocks
 * every signal around vfork, and a blocked SIGSYS from seccomp kills the process.) */
static void *supervise(void *arg)
{
    int fd = (int)(intptr_t)arg;
    struct seccomp_notif *req = NULL;
    struct seccomp_notif_resp *resp = NULL;
    if (seccomp_notify_alloc(&req, &resp) != 0)
        return NULL;
    for (;;) {
        memset(req, 0, sizeof *req);
        if (seccomp_notify_receive(fd, req) != 0) {
            if (errno == EINTR || errno == ENOENT || errno == ECANCELED)
                continue;
            break;
        }
        gc_backstop_blocked++;
        if (gc_orc.in_chain && gc_policy_forbids(&gc_orc.policy, GC_CAP_SPAWN))
            gc_oracle_set_escape(GC_KIND_SYSCALL, GC_CAP_SPAWN, syscall_name(req->data.nr),
                                 "process creation stopped by the seccomp backstop");
        memset(resp, 0, sizeof *resp);
        resp->id = req->id;
        resp->error = -EPERM;
        seccomp_notify_respond(fd, resp);
    }
    seccomp_notify_free(req, resp);
    return NULL;
}

int gc_backstop_armed(void) { return armed; }

int gc_backstop_arm(char *err, size_t errlen)
{
    if (armed)
        return 0;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int rc = ctx ? 0 : -ENOMEM;
    static const int stopped[] = {SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork)};
    for (size_t i = 0; rc == 0 && i < sizeof stopped / sizeof stopped[0]; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, stopped[i], 0);
    /* clone: a new thread (CLONE_THREAD) passes, anything else is a new process */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    /* clone3 passes its flags in memory the filter cannot read: ENOSYS makes glibc use clone */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (rc == 0)
        rc = seccomp_load(ctx);
    int fd = rc == 0 ? seccomp_notify_fd(ctx) : -1;
    if (ctx)
        seccomp_release(ctx); /* the filter and its listener fd stay */
    if (rc != 0 || fd < 0) {
        snprintf(err, errlen, "backstop: the seccomp filter could not be installed: %s",
                 strerror(rc ? -rc : errno));
        return -1;
    }
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&at, 64 * 1024);
    /* every signal stays with the main thread (the time limit's timer, libFuzzer's) */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    rc = pthread_create(&th, &at, supervise, (void *)(intptr_t)fd);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&at);
    if (rc != 0) {
        snprintf(err, errlen, "backstop: the supervisor thread could not start: %s", strerror(rc));
        return -1;
    }
    armed = 1;
    return 0;
}
