/* watch.c — gatecrash-watch (watch.h).  Written by hand around libseccomp's user
 * notification, as the backstop is (backstop.c): no tool runs a program with its process
 * creation, network and writes stopped and named only between two marks of its own. */
#define _GNU_SOURCE
#include "watch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pyglob.h"
#include "syscalls.h"

#define MAX_LIST 64

typedef struct {
    int seconds;
    int count_spawn, count_net, count_write;
    const char *allow[MAX_LIST]; /* --allow-write globs */
    int nallow;
    char grant[3][PATH_MAX];     /* real paths: the working folder, /dev/shm, /dev/null */
    int ngrant;
    char **argv;                 /* PROGRAM [ARG]... */
} options;

typedef struct {
    int inside; /* between 'B' and 'E' */
    char seen[PATH_MAX + 128]; /* the first counted call ("syscall spawn execve (/bin/sh)"), or "" */
} watch;

static void add_grant(options *o, const char *path)
{
    if (o->ngrant < 3 && realpath(path, o->grant[o->ngrant]))
        o->ngrant++;
}

/* 0, or -1 with the line printed. */
static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->seconds = 60;
    add_grant(o, ".");
    add_grant(o, "/dev/shm");
    add_grant(o, "/dev/null");
    int i = 1;
    while (i + 1 < argc && strcmp(argv[i], "--") != 0) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--seconds") && atoi(v) > 0)
            o->seconds = atoi(v);
        else if (!strcmp(a, "--count") && !strcmp(v, "spawn"))
            o->count_spawn = 1;
        else if (!strcmp(a, "--count") && !strcmp(v, "network"))
            o->count_net = 1;
        else if (!strcmp(a, "--count") && !strcmp(v, "write"))
            o->count_write = 1;
        else if (!strcmp(a, "--allow-write") && o->nallow < MAX_LIST)
            o->allow[o->nallow++] = v;
        else
            break;
        i += 2;
    }
    if (i >= argc - 1 || strcmp(argv[i], "--") != 0) {
        fprintf(stderr, "gatecrash-watch: usage: gatecrash-watch [--seconds N] [--count spawn|network|write]... "
                        "[--allow-write GLOB]... -- PROGRAM [ARG]...\n");
        return -1;
    }
    o->argv = argv + i + 1;
    return 0;
}

/* ---- the child: the filter, its listener handed to the parent, then PROGRAM ---- */

static int send_fd(int sock, int fd)
{
    char byte = 0, ctl[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {&byte, 1};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl};
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
    char byte, ctl[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {&byte, 1};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl};
    if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != 1)
        return -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    int fd = -1;
    if (c && c->cmsg_type == SCM_RIGHTS)
        memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}

static void child(const options *o, int sock, int mark)
{
    char num[16];
    snprintf(num, sizeof num, "%d", mark);
    setenv(GC_WATCH_FD_ENV, num, 1);
    fcntl(mark, F_SETFD, 0); /* PROGRAM keeps it */
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int rc = ctx ? gc_sys_spawn_rules(ctx) : -ENOMEM;
    if (rc == 0)
        rc = gc_sys_net_rules(ctx);
    if (rc == 0)
        rc = gc_sys_write_rules(ctx);
    if (rc == 0)
        rc = seccomp_load(ctx);
    int fd = rc == 0 ? seccomp_notify_fd(ctx) : -1;
    if (fd < 0 || send_fd(sock, fd) != 0) {
        fprintf(stderr, "gatecrash-watch: the seccomp filter could not be installed: %s\n",
                strerror(rc ? -rc : errno));
        _exit(2);
    }
    close(fd);
    close(sock);
    execvp(o->argv[0], o->argv);
    fprintf(stderr, "gatecrash-watch: cannot run %s: %s\n", o->argv[0], strerror(errno));
    _exit(127);
}

/* ---- the parent: the supervisor ---- */

static int granted(const options *o, const char *p)
{
    for (int i = 0; i < o->ngrant; i++)
        if (gc_sys_path_beneath(p, o->grant[i], 1))
            return 1;
    return 0;
}

static int allowed(const options *o, const char *p)
{
    for (int i = 0; i < o->nallow; i++)
        if (gc_pyglob_match(o->allow[i], p))
            return 1;
    return 0;
}

static void note(watch *w, int counted, const char *fmt, const char *a, const char *b)
{
    if (counted && !w->seen[0])
        snprintf(w->seen, sizeof w->seen, fmt, a, b);
}

/* A write-type call inside the marks: 0 or EACCES. */
static int judge_write(const options *o, watch *w, const struct seccomp_notif *req, const char *name)
{
    char paths[2][PATH_MAX];
    int n = gc_sys_write_paths((pid_t)req->pid, req->data.nr, req->data.args, paths);
    for (int k = 0; k < n; k++)
        if (!granted(o, paths[k])) {
            note(w, o->count_write && !allowed(o, paths[k]), "landlock write %s (%s)", name, paths[k]);
            return EACCES;
        }
    return 0;
}

/* A network call inside the marks: 0 or EACCES.  A Unix socket is made and bound, never
 * connected (a local daemon's socket is a way out; refused, not counted). */
static int judge_net(const options *o, watch *w, const struct seccomp_notif *req, const char *name)
{
    unsigned short fam = AF_UNSPEC;
    if (req->data.nr == SYS_socket)
        fam = (unsigned short)req->data.args[0];
    else if (req->data.nr == SYS_connect || req->data.nr == SYS_bind)
        gc_sys_read((pid_t)req->pid, req->data.args[1], (char *)&fam, sizeof fam, 0);
    else if (req->data.nr == SYS_listen)
        return 0; /* no bind but a Unix one got through */
    if (fam == AF_UNIX)
        return req->data.nr == SYS_connect ? EACCES : 0;
    note(w, o->count_net, "syscall network %s (%s)", name, gc_sys_family_name(fam));
    return EACCES;
}

/* The answer to one stopped call: 0 (it runs) or an errno. */
static int answer(const options *o, watch *w, const struct seccomp_notif *req)
{
    if (!w->inside)
        return 0;
    const char *name;
    if ((name = gc_sys_write_name(req->data.nr)))
        return judge_write(o, w, req, name);
    if ((name = gc_sys_net_name(req->data.nr)))
        return judge_net(o, w, req, name);
    char path[PATH_MAX] = "";
    name = gc_sys_spawn_name(req->data.nr);
    if (req->data.nr == SYS_execve && gc_sys_read((pid_t)req->pid, req->data.args[0], path, sizeof path, 1) != 0)
        path[0] = '\0';
    note(w, o->count_spawn, "syscall spawn %s (%s)", name ? name : "spawn-syscall", path[0] ? path : "a new process");
    return EPERM;
}

/* 'B' and 'E' marks read so far (before any stopped call: a mark is written before the
 * call it covers). */
static void read_marks(int fd, watch *w)
{
    char buf[64];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++)
            w->inside = buf[i] == 'B' ? 1 : buf[i] == 'E' ? 0 : w->inside;
}

/* Answer the child's calls until it exits (1) or the time is up (0). */
static int supervise(const options *o, watch *w, int listener, int marks, int pidfd)
{
    struct seccomp_notif *req;
    struct seccomp_notif_resp *resp;
    if (seccomp_notify_alloc(&req, &resp) != 0)
        return 0;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int exited = 0;
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = o->seconds * 1000L - ((now.tv_sec - start.tv_sec) * 1000L + (now.tv_nsec - start.tv_nsec) / 1000000);
        if (left <= 0)
            break;
        struct pollfd p[3] = {{listener, POLLIN, 0}, {marks, POLLIN, 0}, {pidfd, POLLIN, 0}};
        if (poll(p, 3, (int)(left > 1000 ? 1000 : left)) < 0 && errno != EINTR)
            break;
        read_marks(marks, w);
        if (p[0].revents & POLLIN) {
            memset(req, 0, sizeof *req);
            if (seccomp_notify_receive(listener, req) == 0)
                gc_sys_respond(listener, resp, req->id, answer(o, w, req));
            continue;
        }
        if (p[2].revents & POLLIN) {
            exited = 1;
            break;
        }
    }
    seccomp_notify_free(req, resp);
    return exited;
}

int main(int argc, char **argv)
{
    options o;
    if (parse(argc, argv, &o) != 0)
        return 2;
    int sv[2], mk[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(mk, O_CLOEXEC) != 0) {
        fprintf(stderr, "gatecrash-watch: %s\n", strerror(errno));
        return 2;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "gatecrash-watch: cannot fork: %s\n", strerror(errno));
        return 2;
    }
    if (pid == 0) {
        close(sv[0]);
        close(mk[0]);
        child(&o, sv[1], mk[1]);
    }
    close(sv[1]);
    close(mk[1]);
    fcntl(mk[0], F_SETFL, O_NONBLOCK);
    int listener = recv_fd(sv[0]);
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    watch w = {0, ""};
    int exited = listener >= 0 && pidfd >= 0 && supervise(&o, &w, listener, mk[0], pidfd);
    int status = 0;
    if (!exited)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (listener < 0 || pidfd < 0)
        return WIFEXITED(status) ? WEXITSTATUS(status) : 2; /* the child said why */
    if (!exited) {
        printf("gatecrash-watch: the program did not finish within %d s\n", o.seconds);
        return 124;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (w.seen[0] && code != 1) {
        printf("ESCAPE reproduced: %s below Python, via the evaluation\n", w.seen);
        return 1;
    }
    return code;
}
