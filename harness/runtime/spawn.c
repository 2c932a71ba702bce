/* spawn.c — see spawn.h.  Written by hand: a zygote is the only way for a process under a
 * seccomp filter that forbids process creation to still start processes, and it is small.
 *
 * Protocol, over a SOCK_SEQPACKET socket pair (one request, one reply; the command is
 * single-threaded and asks one thing at a time):
 *   'S' cwd\0 argv0\0 … \0\0 env0\0 … \0\0  (+ up to two fds by SCM_RIGHTS)  -> pid_t
 *   'W' pid_t nohang                                                        -> pid_t, int status
 *   'D' path\0                                                              -> int errno (0: removed)
 *   'L' path0\0 … \0  (the command's final write grants, confine.h; the first one only) -> int errno
 *
 * Every process it starts is confined between fork and exec (gc_confine_child): writes only
 * beneath the folders of the 'L' message once it came (before it, no target code has run in
 * the command), no TCP, and execute only on the files of the exec list: the regular files
 * beside the gatecrash binary (its own binaries and engines), timeout, env, the embedded
 * CPython (a venv's python is a link to it), afl-fuzz, the symbolizer and the dynamic
 * loader; gatecrash's own binaries also /bin/sh, through which libFuzzer's fork mode and
 * merge start their jobs (and their scratch in the temp folder).  A request whose argv[0]
 * is not in the exec list is refused (-1, EACCES). */
#define _GNU_SOURCE
#include "spawn.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "confine.h"

extern char **environ;

#define MSG_MAX (256 * 1024)
#define MAX_EXECS 256

static int sock = -1; /* the command's end; -1: no spawner */

static void child_exec(const char *file, char *const argv[], const char *cwd, int out_fd, int err_fd,
                       char *const envp[])
{
    if (cwd && chdir(cwd) != 0)
        _exit(127);
    if (out_fd >= 0)
        dup2(out_fd, 1);
    if (err_fd >= 0)
        dup2(err_fd, 2);
    if (envp)
        environ = (char **)envp;
    execvp(file, argv);
    fprintf(stderr, "gatecrash: error: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* The real path execvp would run for 'name' with search path 'path' (NULL: the default). */
static int resolve_exe(const char *name, const char *path, char out[PATH_MAX])
{
    if (strchr(name, '/'))
        return realpath(name, out) ? 0 : -1;
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        char cand[PATH_MAX];
        snprintf(cand, sizeof cand, "%.*s/%s", (int)(n ? n : 1), n ? p : ".", name);
        if (access(cand, X_OK) == 0 && realpath(cand, out))
            return 0;
        p += n + (p[n] == ':');
    }
    return -1;
}

static void add_exec(char **execs, int *n, const char *name)
{
    char real[PATH_MAX];
    struct stat st;
    if (name && *n < MAX_EXECS - 1 && resolve_exe(name, getenv("PATH"), real) == 0 && stat(real, &st) == 0 &&
        S_ISREG(st.st_mode))
        execs[(*n)++] = strdup(real);
    execs[*n] = NULL;
}

/* The exec list (see the top of this file), NULL-terminated, in 'execs'; returns how many
 * of its first entries are gatecrash's own binaries. */
static int exec_list(char **execs)
{
    int n = 0;
    char self[PATH_MAX], path[PATH_MAX + 256];
    execs[0] = NULL;
    if (realpath("/proc/self/exe", self)) {
        *strrchr(self, '/') = '\0';
        DIR *d = opendir(self);
        struct dirent *e;
        struct stat st;
        while (d && (e = readdir(d)))
            if (snprintf(path, sizeof path, "%s/%s", self, e->d_name) < (int)sizeof path && stat(path, &st) == 0 &&
                S_ISREG(st.st_mode) && (st.st_mode & S_IXUSR))
                add_exec(execs, &n, path);
        if (d)
            closedir(d);
    }
    int own = n;
    static const char *tools[] = {"timeout", "env", GATECRASH_PYTHON, "afl-fuzz", "llvm-symbolizer",
                                  "/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"};
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
        add_exec(execs, &n, tools[i]);
    add_exec(execs, &n, getenv("ASAN_SYMBOLIZER_PATH"));
    return own;
}

/* The index of 'path' in 'list', or -1. */
static int in_list(char *const list[], const char *path)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], path) == 0)
            return i;
    return -1;
}

/* What the spawner's children may do (the top of this file). */
typedef struct {
    char **execs;      /* the exec list */
    char **own_execs;  /* and /bin/sh: libFuzzer's fork mode and merge start their jobs through system() */
    int nown;          /* its first nown: gatecrash's own binaries */
    char **writes;     /* the command's grants (NULL before they came): a probe's bound */
    char **own_writes; /* those and the temp folder: gatecrash's own binaries make their scratch there */
} bounds;

/* The spawner's start: argv[0] checked against the exec list, the child confined, then exec.
 * -1 with errno EACCES when refused. */
static pid_t confined_spawn(char *const argv[], const char *cwd, int out_fd, int err_fd, char *const envp[],
                            const bounds *b)
{
    const char *path = NULL;
    for (int i = 0; envp[i]; i++)
        if (strncmp(envp[i], "PATH=", 5) == 0)
            path = envp[i] + 5;
    char real[PATH_MAX];
    int which = resolve_exe(argv[0], path, real) == 0 ? in_list(b->execs, real) : -1;
    if (which < 0) {
        fprintf(stderr, "gatecrash: error: spawner: refused to run %s: not one of gatecrash's binaries or tools\n",
                argv[0]);
        errno = EACCES;
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int own = which < b->nown;
        if (gc_confine_child(own ? b->own_writes : b->writes, own ? b->own_execs : b->execs) != 0) {
            fprintf(stderr, "gatecrash: error: spawner: cannot confine %s: %s\n", argv[0], strerror(errno));
            _exit(127);
        }
        child_exec(real, argv, cwd, out_fd, err_fd, envp); /* what was checked is what runs */
    }
    return pid;
}

static pid_t direct_spawn(char *const argv[], const char *cwd, int out_fd, int err_fd, char *const envp[])
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        child_exec(argv[0], argv, cwd, out_fd, err_fd, envp);
    return pid;
}

/* Split "a\0b\0\0" into a NULL-terminated vector; returns the byte after the list. */
static char *split(char *p, char *end, char **vec, int max)
{
    int n = 0;
    while (p < end && *p && n < max - 1) {
        vec[n++] = p;
        p += strlen(p) + 1;
    }
    vec[n] = NULL;
    return p + 1;
}

/* Keep the 'L' message's list as the bounds' writes, and it with the temp folder as their
 * own_writes (1026 entries). */
static void lock(const char *msg, ssize_t n, bounds *b, char **writes, char **own_writes)
{
    static char held[MSG_MAX], tmp[PATH_MAX];
    memcpy(held, msg, (size_t)n + 2);
    split(held + 1, held + n, writes, 1024);
    int k = 0;
    while (writes[k])
        own_writes[k] = writes[k], k++;
    const char *t = getenv("TMPDIR");
    if (realpath(t && *t ? t : "/tmp", tmp))
        own_writes[k++] = tmp;
    own_writes[k] = NULL;
    b->writes = writes;
    b->own_writes = own_writes;
}

static void serve(int s)
{
    static char buf[MSG_MAX];
    static char *argv[1024], *envp[4096], *execs[MAX_EXECS], *own_execs[MAX_EXECS + 1], *writes[1024],
        *own_writes[1026];
    int nown = exec_list(execs), k = 0;
    while (execs[k])
        own_execs[k] = execs[k], k++;
    add_exec(own_execs, &k, "/bin/sh");
    bounds b = {execs, own_execs, nown, NULL, NULL};
    for (;;) {
        int fds[2] = {-1, -1};
        char cbuf[CMSG_SPACE(sizeof fds)];
        struct iovec iov = {buf, sizeof buf - 2};
        struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
        ssize_t n = recvmsg(s, &m, MSG_CMSG_CLOEXEC);
        if (n <= 0)
            _exit(0); /* the command is gone */
        buf[n] = buf[n + 1] = '\0';
        int nfds = 0;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                nfds = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
                memcpy(fds, CMSG_DATA(c), (size_t)(nfds > 2 ? 2 : nfds) * sizeof(int));
            }
        if (buf[0] == 'S') {
            char *p = buf + 1, *end = buf + n;
            unsigned char which = (unsigned char)*p++; /* bit 0: out fd sent, bit 1: err fd sent */
            char *cwd = p;
            p += strlen(p) + 1;
            p = split(p, end, argv, 1024);
            split(p, end, envp, 4096);
            int k = 0, out_fd = (which & 1) ? fds[k++] : -1, err_fd = (which & 2) ? fds[k] : -1;
            pid_t pid = argv[0] ? confined_spawn(argv, *cwd ? cwd : NULL, out_fd, err_fd, envp, &b) : -1;
            for (int i = 0; i < 2; i++)
                if (fds[i] >= 0)
                    close(fds[i]);
            send(s, &pid, sizeof pid, 0);
        } else if (buf[0] == 'W' && n >= (ssize_t)(1 + sizeof(pid_t) + 1)) {
            pid_t pid;
            memcpy(&pid, buf + 1, sizeof pid);
            int nohang = buf[1 + sizeof pid];
            int st = 0;
            pid_t r;
            do
                r = waitpid(pid, &st, nohang ? WNOHANG : 0);
            while (r < 0 && errno == EINTR);
            char rep[sizeof(pid_t) + sizeof(int)];
            memcpy(rep, &r, sizeof r);
            memcpy(rep + sizeof r, &st, sizeof st);
            send(s, rep, sizeof rep, 0);
        } else if (buf[0] == 'L') {
            int e = b.writes ? EPERM : 0;
            if (!b.writes)
                lock(buf, n, &b, writes, own_writes);
            send(s, &e, sizeof e, 0);
        } else if (buf[0] == 'D') {
            int e = rmdir(buf + 1) == 0 ? 0 : errno;
            send(s, &e, sizeof e, 0);
        }
    }
}

int gc_spawner_start(char *err, size_t errlen)
{
    if (sock >= 0)
        return 0;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(err, errlen, "spawner: socketpair: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "spawner: fork: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    if (pid == 0) {
        close(sv[0]);
        signal(SIGINT, SIG_IGN); /* a ^C is the command's to handle; its children get it too */
        serve(sv[1]);
    }
    close(sv[1]);
    sock = sv[0];
    return 0;
}

pid_t gc_spawn(char *const argv[], const char *cwd, int out_fd, int err_fd)
{
    if (sock < 0)
        return direct_spawn(argv, cwd, out_fd, err_fd, NULL);
    static char buf[MSG_MAX];
    size_t n = 0;
    int ok = 1;
#define PUT(s)                                                                                                        \
    do {                                                                                                              \
        size_t l_ = strlen(s) + 1;                                                                                    \
        if (n + l_ + 2 > sizeof buf)                                                                                  \
            ok = 0;                                                                                                   \
        else {                                                                                                        \
            memcpy(buf + n, s, l_);                                                                                   \
            n += l_;                                                                                                  \
        }                                                                                                             \
    } while (0)
    buf[n++] = 'S';
    buf[n++] = (char)((out_fd >= 0 ? 1 : 0) | (err_fd >= 0 ? 2 : 0));
    PUT(cwd ? cwd : "");
    for (int i = 0; argv[i]; i++)
        PUT(argv[i]);
    buf[n++] = '\0';
    for (char **e = environ; e && *e; e++)
        PUT(*e);
    buf[n++] = '\0';
#undef PUT
    if (!ok) {
        errno = E2BIG;
        return -1;
    }
    int fds[2], nfds = 0;
    if (out_fd >= 0)
        fds[nfds++] = out_fd;
    if (err_fd >= 0)
        fds[nfds++] = err_fd;
    char cbuf[CMSG_SPACE(sizeof fds)];
    memset(cbuf, 0, sizeof cbuf);
    struct iovec iov = {buf, n};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    if (nfds) {
        m.msg_control = cbuf;
        m.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
        memcpy(CMSG_DATA(c), fds, (size_t)nfds * sizeof(int));
    }
    fflush(NULL);
    pid_t pid = -1;
    if (sendmsg(sock, &m, 0) < 0 || recv(sock, &pid, sizeof pid, 0) != (ssize_t)sizeof pid)
        return -1;
    return pid;
}

pid_t gc_spawn_wait(pid_t pid, int *status, int nohang)
{
    if (sock < 0) {
        pid_t r;
        do
            r = waitpid(pid, status, nohang ? WNOHANG : 0);
        while (r < 0 && errno == EINTR);
        return r;
    }
    char req[1 + sizeof(pid_t) + 1];
    req[0] = 'W';
    memcpy(req + 1, &pid, sizeof pid);
    req[1 + sizeof pid] = (char)(nohang != 0);
    char rep[sizeof(pid_t) + sizeof(int)];
    if (send(sock, req, sizeof req, 0) < 0 || recv(sock, rep, sizeof rep, 0) != (ssize_t)sizeof rep)
        return -1;
    pid_t r;
    memcpy(&r, rep, sizeof r);
    memcpy(status, rep + sizeof r, sizeof *status);
    return r;
}

void gc_spawn_lock_writes(void)
{
    const char *const *paths;
    const int *dirs;
    int k = gc_confine_final(&paths, &dirs), e = 0;
    if (sock < 0 || k < 0)
        return;
    static char buf[MSG_MAX];
    size_t n = 0;
    buf[n++] = 'L';
    for (int i = 0; i < k; i++) {
        size_t l = strlen(paths[i]) + 1;
        if (n + l + 2 > sizeof buf)
            break;
        memcpy(buf + n, paths[i], l);
        n += l;
    }
    buf[n++] = '\0';
    if (send(sock, buf, n, 0) >= 0)
        (void)recv(sock, &e, sizeof e, 0);
}

int gc_spawn_rmdir(const char *path)
{
    char req[4096 + 2];
    int e = 0;
    if (sock < 0 || strlen(path) >= sizeof req - 2)
        return rmdir(path) == 0 ? 0 : -1;
    int n = snprintf(req, sizeof req, "D%s", path);
    if (send(sock, req, (size_t)n + 1, 0) < 0 || recv(sock, &e, sizeof e, 0) != (ssize_t)sizeof e)
        return -1;
    errno = e;
    return e ? -1 : 0;
}
