/* backstop.c — see backstop.h.  Written by hand around libseccomp's user notification: no
 * library offers "stop process creation and tell whether it was a chain's doing". */
#define _GNU_SOURCE
#include "backstop.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sched.h>
#include <seccomp.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "confine.h"
#include "oracle.h"
#include "syscalls.h"

volatile unsigned long gc_backstop_blocked;
static int armed;
/* The dirty bits, per process, in a page shared with the harness's own forks (set up at
 * arming): slot 0 the armed process's, the others those of forks that asked for one
 * (gc_backstop_forked: the campaign's sweep).  The supervisor marks the slot of the process
 * whose main thread made the call, or every slot when the caller is another thread (or a
 * fork before it took its slot).  A process the harness forks keeps the filter, and its
 * watched calls reach the parent's supervisor: without a slot its bits are never set, so
 * there every state check runs. */
#define WATCH_SLOTS 64
typedef struct {
    _Atomic pid_t pid;      /* the process (its main thread's id), 0: free */
    _Atomic unsigned dirty;
} watch_slot;
typedef struct {
    watch_slot slot[WATCH_SLOTS];
    _Atomic pid_t forking_tid; /* the thread allowed one new process (gc_backstop_harness_fork), 0: none */
} watch_page;
static watch_page *page;   /* MAP_SHARED, NULL until armed (or when it could not be mapped) */
static pid_t watching_pid; /* the process whose slot my_slot is (0: none watches) */
static int my_slot;

unsigned gc_backstop_take_dirty(void)
{
    if (!page || watching_pid != getpid())
        return GC_DIRTY_ALL;
    return atomic_exchange(&page->slot[my_slot].dirty, 0);
}

/* A watched call of thread 'tid' changed state 'bit'. */
static void mark_dirty(pid_t tid, unsigned bit)
{
    int hit = 0;
    for (int k = 0; k < WATCH_SLOTS && !hit; k++)
        if (atomic_load(&page->slot[k].pid) == tid) {
            atomic_fetch_or(&page->slot[k].dirty, bit);
            hit = 1;
        }
    for (int k = 0; k < WATCH_SLOTS && !hit; k++)
        if (atomic_load(&page->slot[k].pid))
            atomic_fetch_or(&page->slot[k].dirty, bit);
}

void gc_backstop_forked(void)
{
    pid_t me = getpid();
    int watched = page && atomic_load(&page->slot[0].pid) != 0;
    watching_pid = 0;
    for (int k = 1; watched && k < WATCH_SLOTS && !watching_pid; k++) {
        pid_t free_pid = 0;
        if (atomic_compare_exchange_strong(&page->slot[k].pid, &free_pid, me)) {
            atomic_store(&page->slot[k].dirty, GC_DIRTY_ALL);
            watching_pid = me;
            my_slot = k;
        }
    }
}

void gc_backstop_reaped(int pid)
{
    for (int k = 1; page && pid > 0 && k < WATCH_SLOTS; k++) {
        pid_t was = pid;
        atomic_compare_exchange_strong(&page->slot[k].pid, &was, 0);
    }
}

/* A watched call: which state it changes (0: it is a process creation, stopped). */
static unsigned watched_bit(int nr)
{
    switch (nr) {
    case SYS_rt_sigaction: case SYS_rt_sigprocmask: case SYS_setitimer: return GC_DIRTY_SIGNALS;
#ifdef SYS_alarm /* (no such call on aarch64: glibc's alarm is setitimer there) */
    case SYS_alarm: return GC_DIRTY_SIGNALS;
#endif
    case SYS_close: case SYS_dup2: case SYS_dup3: case SYS_close_range: return GC_DIRTY_FDS;
    case SYS_chdir: case SYS_fchdir: return GC_DIRTY_CWD;
    case SYS_umask: return GC_DIRTY_UMASK;
    default: return 0;
    }
}

/* SECCOMP_USER_NOTIF_FLAG_CONTINUE is Linux 5.5 */
static int kernel_continues(void)
{
    struct utsname u;
    if (uname(&u) != 0)
        return 0;
    int major = atoi(u.release), minor = 0;
    const char *dot = strchr(u.release, '.');
    if (dot)
        minor = atoi(dot + 1);
    return major > 5 || (major == 5 && minor >= 5);
}

/* Sanitizer builds only: LeakSanitizer's leak check at exit stops the world with a tracer
 * it starts by clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_UNTRACED), no exit signal
 * (compiler-rt, sanitizer_stoptheworld_linux_libcdep.cpp).  Exactly that call, outside chain
 * steps, runs (a chain step's is stopped and an escape like any other): the tracer shares
 * this memory, runs no program, and keeps this filter, so it can start none either. */
#if defined(__SANITIZE_ADDRESS__)
#define GC_LSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GC_LSAN_BUILD 1
#endif
#endif
static int lsan_tracer(const struct seccomp_notif *req)
{
#ifdef GC_LSAN_BUILD
    return req->data.nr == SYS_clone && req->data.args[0] == (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_UNTRACED) &&
           !gc_orc.in_chain && kernel_continues();
#else
    (void)req;
    return 0;
#endif
}

/* The harness's own fork, from the thread that asked for it (in this process or a fork of
 * it: the page is shared), outside chain steps. */
static int harness_fork(const struct seccomp_notif *req)
{
    pid_t tid = page ? atomic_load(&page->forking_tid) : 0;
    return tid && (pid_t)req->pid == tid && !gc_orc.in_chain &&
           (req->data.nr == SYS_fork || (req->data.nr == SYS_clone && !(req->data.args[0] & CLONE_THREAD)));
}

void gc_backstop_harness_fork(int on)
{
    if (page)
        atomic_store(&page->forking_tid, on ? (pid_t)syscall(SYS_gettid) : 0);
}

/* ---- the network (backstop.h) ---- */

/* A call stopped here (cap: a process creation, or the network): during a chain step whose
 * policy forbids the capability, an escape of kind "syscall"; while the target is imported,
 * its attempt (oracle.h) when 'at_import' (a bind is refused without failing the load:
 * urllib3 probes IPv6 by binding ::1 at import, and a bind connects nowhere). */
static void judge_stopped(gc_cap cap, const char *name, const char *what, int at_import)
{
    if (gc_orc.in_chain && gc_policy_forbids(&gc_orc.policy, cap)) {
        gc_oracle_set_escape(GC_KIND_SYSCALL, cap, name, what);
        return;
    }
    char note[256];
    snprintf(note, sizeof note, "%s (%s: %s)", cap == GC_CAP_NETWORK ? "network" : "spawn", name, what);
    if (at_import)
        gc_oracle_note_import(note);
}

/* socket(): a TCP socket (whose bind and connect Landlock refuses, ABI 4+, and this
 * supervisor too) or a Unix one may be made; any other (UDP, raw, packet, netlink, SCTP,
 * MPTCP...) is stopped.  Its arguments are values, so letting it run is safe. */
static int net_socket(const struct seccomp_notif *req)
{
    unsigned long long fam = req->data.args[0], type = req->data.args[1] & 0xf, proto = req->data.args[2];
    if ((fam == AF_INET || fam == AF_INET6) && type == SOCK_STREAM && (proto == 0 || proto == IPPROTO_TCP) &&
        gc_confine_abi() >= 4)
        return 0;
    char what[128];
    snprintf(what, sizeof what, "socket(%s, type %llu) stopped by the seccomp backstop", gc_sys_family_name(fam), type);
    judge_stopped(GC_CAP_NETWORK, "socket", what, 1);
    return EACCES;
}

/* connect, bind, listen on a socket of this process: a Unix socket's run on, but for a
 * connect while a chain step runs or the target is imported (a local daemon's socket is a
 * way out: a session bus starts processes; refused, never an escape); any other socket's
 * are refused (a descriptor swapped after this check meets Landlock's TCP rules). */
static int net_endpoint(const struct seccomp_notif *req)
{
    static const struct {
        int nr;
        const char *name;
    } calls[] = {{SYS_connect, "connect"}, {SYS_bind, "bind"}, {SYS_listen, "listen"}};
    const char *name = "connect";
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (calls[i].nr == req->data.nr)
            name = calls[i].name;
    char self[64];
    struct stat st;
    snprintf(self, sizeof self, "/proc/self/task/%d", (int)req->pid);
    int dom = -1;
    socklen_t len = sizeof dom;
    int ours = stat(self, &st) == 0;
    if (ours && getsockopt((int)req->data.args[0], SOL_SOCKET, SO_DOMAIN, &dom, &len) != 0)
        return 0; /* no socket: the call fails by itself */
    if (ours && dom == AF_UNIX)
        return req->data.nr == SYS_connect && (gc_orc.in_chain || gc_orc.importing) ? EACCES : 0;
    char what[128];
    snprintf(what, sizeof what, "%s on an %s socket refused below Python", name, gc_sys_family_name((unsigned)dom));
    judge_stopped(GC_CAP_NETWORK, name, what, req->data.nr == SYS_connect);
    return EACCES;
}

/* A network call the filter hands over: 0 (let it run), EACCES (refused, judged), or -1
 * (none of them). */
static int check_net(const struct seccomp_notif *req)
{
    int nr = req->data.nr;
    if (nr == SYS_socket)
        return net_socket(req);
    if (nr == SYS_connect || nr == SYS_bind || nr == SYS_listen)
        return net_endpoint(req);
    if (nr == SYS_sendto || nr == SYS_sendmsg || nr == SYS_sendmmsg) { /* only with MSG_FASTOPEN: a connect */
        judge_stopped(GC_CAP_NETWORK, "connect", "a TCP Fast Open send refused below Python", 1);
        return EACCES;
    }
    return -1;
}

/* The supervisor: the kernel holds the calling thread in the system call and asks here.
 * The answer is always EPERM (the call never runs); when a chain step is running and the
 * policy forbids spawns, the escape is set first: the step returns only after the answer,
 * so the evaluator sees it.  (A SIGSYS handler cannot do this job: _posixsubprocess blocks
 * every signal around vfork, and a blocked SIGSYS from seccomp kills the process.) */
static struct seccomp_notif *notif_req; /* allocated by the arming thread, see below */
static struct seccomp_notif_resp *notif_resp;
static sem_t notif_ready;

/* The answer to one call the filter handed over: 0 (it runs) or the errno it fails with. */
static int answer(const struct seccomp_notif *req)
{
    if (gc_sys_write_name(req->data.nr)) { /* a write: Landlock decides, or refused here */
        int e = gc_confine_check_call((pid_t)req->pid, req->data.nr, req->data.args);
        if (!e)
            mark_dirty((pid_t)req->pid, GC_DIRTY_FILES); /* it may leave a file in scratch */
        return e;
    }
    unsigned bit = watched_bit(req->data.nr);
    if (bit || lsan_tracer(req)) { /* watched, not stopped: mark it, then let the call run */
        mark_dirty((pid_t)req->pid, bit);
        return 0;
    }
    if (harness_fork(req)) /* the campaign's sweep process (gc_backstop_harness_fork) */
        return 0;
    int e = check_net(req);
    if (e >= 0)
        return e;
    gc_backstop_blocked++; /* a process creation */
    const char *name = gc_sys_spawn_name(req->data.nr);
    judge_stopped(GC_CAP_SPAWN, name ? name : "spawn-syscall", "process creation stopped by the seccomp backstop", 1);
    return EPERM;
}

static void *supervise(void *arg)
{
    int hand = (int)(intptr_t)arg, fd = -1;
    ssize_t got;
    while ((got = read(hand, &fd, sizeof fd)) < 0 && errno == EINTR)
        ;
    close(hand);
    if (got != (ssize_t)sizeof fd || fd < 0)
        return NULL;
    struct seccomp_notif *req = notif_req;
    struct seccomp_notif_resp *resp = notif_resp;
    sem_post(&notif_ready);
    for (;;) {
        memset(req, 0, sizeof *req);
        if (seccomp_notify_receive(fd, req) != 0) {
            if (errno == EINTR || errno == ENOENT || errno == ECANCELED)
                continue;
            break;
        }
        gc_sys_respond(fd, resp, req->id, answer(req));
    }
    seccomp_notify_free(req, resp);
    return NULL;
}

int gc_backstop_armed(void) { return armed; }

/* watched (state.c's dirty bits): a new signal action or mask, a timer set (signal.alarm,
 * setitimer: facility.h); 0-2 closed or replaced; the working folder; the umask.  0 or -errno. */
static int add_watch_rules(scmp_filter_ctx ctx)
{
    int rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(rt_sigaction), 1, SCMP_A1(SCMP_CMP_NE, 0, 0));
    if (rc == 0) /* a new signal mask (a set given; reading the mask passes none) */
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(rt_sigprocmask), 1, SCMP_A1(SCMP_CMP_NE, 0, 0));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(close), 1, SCMP_A0(SCMP_CMP_LE, 2, 0));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(close_range), 1, SCMP_A0(SCMP_CMP_LE, 2, 0));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(dup2), 1, SCMP_A1(SCMP_CMP_LE, 2, 0));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(dup3), 1, SCMP_A1(SCMP_CMP_LE, 2, 0));
    static const int always[] = {SCMP_SYS(chdir), SCMP_SYS(fchdir), SCMP_SYS(umask), SCMP_SYS(setitimer),
                                 SCMP_SYS(alarm)};
    for (size_t i = 0; rc == 0 && i < sizeof always / sizeof always[0]; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, always[i], 0);
    return rc;
}

/* The filter's rules: process creation stopped; the watched calls, when the kernel can let
 * them continue; the write-type path calls, when Landlock confines; clone3 refused.  0 or
 * -errno; *watch: the watched calls are in. */
static int add_rules(scmp_filter_ctx ctx, int *watch)
{
    int rc = gc_sys_spawn_rules(ctx); /* process creation; clone3 and io_uring refused */
    *watch = rc == 0 && kernel_continues() && !getenv("GATECRASH_CHECK_EVERY_INPUT");
    if (*watch)
        rc = add_watch_rules(ctx);
    /* write-type path calls (confine.h), when Landlock confines this process's writes */
    if (rc == 0 && kernel_continues() && gc_confine_abi() > 0)
        rc = gc_sys_write_rules(ctx);
    /* the network: what may reach another machine or process is refused (check_net) */
    if (rc == 0)
        rc = kernel_continues() ? gc_sys_net_rules(ctx)
                                : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                                                   SCMP_A0(SCMP_CMP_NE, AF_UNIX, 0));
    return rc;
}

/* The supervisor thread (detached, a small stack), reading the listener's number from
 * hand_read.  0 or pthread_create's error. */
static int start_supervisor(int hand_read)
{
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&at, 64 * 1024);
    /* every signal stays with the main thread (the time limit's, libFuzzer's) */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int prc = pthread_create(&th, &at, supervise, (void *)(intptr_t)hand_read);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&at);
    return prc;
}

int gc_backstop_arm(char *err, size_t errlen)
{
    if (armed)
        return 0;
    if (!page) {
        void *p = mmap(NULL, sizeof *page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        page = p == MAP_FAILED ? NULL : p;
    }
    if (!page) {
        snprintf(err, errlen, "backstop: no memory for its shared page: %s", strerror(errno));
        return -1;
    }
    atomic_store(&page->slot[0].dirty, GC_DIRTY_ALL);
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int watch = 0;
    int rc = ctx ? add_rules(ctx, &watch) : -ENOMEM;
    /* The supervisor starts first, unfiltered, and waits for the listener's number on a
     * pipe: glibc installs its own signal handlers (rt_sigaction) at a process's first
     * pthread_create, and once the filter watches rt_sigaction nobody would answer that. */
    int hand[2] = {-1, -1};
    if (rc == 0 && pipe2(hand, O_CLOEXEC) != 0)
        rc = -errno;
    /* The supervisor allocates nothing once it answers, and arming returns only then: a
     * process that exits right after arming runs LeakSanitizer's check, which holds the
     * allocator's lock while its tracer's clone waits for the answer (sanitizer builds). */
    if (rc == 0 && (seccomp_notify_alloc(&notif_req, &notif_resp) != 0 || sem_init(&notif_ready, 0, 0) != 0))
        rc = -ENOMEM;
    int prc = rc == 0 ? start_supervisor(hand[0]) : 0;
    if (prc != 0) {
        close(hand[0]);
        close(hand[1]);
        seccomp_release(ctx);
        snprintf(err, errlen, "backstop: the supervisor thread could not start: %s", strerror(prc));
        return -1;
    }
    if (rc == 0)
        rc = seccomp_load(ctx);
    int fd = rc == 0 ? seccomp_notify_fd(ctx) : -1;
    if (ctx)
        seccomp_release(ctx); /* the filter and its listener fd stay */
    if (hand[1] >= 0) { /* the listener's number, or -1: the supervisor then ends */
        ssize_t w = write(hand[1], &fd, sizeof fd);
        close(hand[1]);
        if (w == (ssize_t)sizeof fd && fd >= 0)
            while (sem_wait(&notif_ready) != 0 && errno == EINTR)
                ;
    }
    if (rc != 0 || fd < 0) {
        snprintf(err, errlen, "backstop: the seccomp filter could not be installed: %s",
                 strerror(rc ? -rc : errno));
        return -1;
    }
    armed = 1;
    watching_pid = watch ? getpid() : 0;
    my_slot = 0;
    atomic_store(&page->slot[0].pid, watching_pid);
    return 0;
}
