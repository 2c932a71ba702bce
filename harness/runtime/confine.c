/* confine.c — see confine.h.  Raw system calls around <linux/landlock.h>: Debian packages
 * no library for Landlock (the upstream Rust and Go crates are not C, and libc has no
 * wrappers), and the three calls are small. */
#define _GNU_SOURCE
#include "confine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/securebits.h>

#include "oracle.h"
#include "diag.h"
#include "syscalls.h"

/* rights newer than the oldest headers we build with (Debian 12: Linux 6.1) */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#endif

/* ABI 4: TCP bind and connect (Linux 6.7); the struct as it is there, for older headers */
#define GC_LANDLOCK_NET_BIND_TCP (1ULL << 0)
#define GC_LANDLOCK_NET_CONNECT_TCP (1ULL << 1)
struct gc_ruleset_attr {
    uint64_t handled_access_fs, handled_access_net;
};

#define MAX_GRANTS 64
static char *granted[MAX_GRANTS];
static int granted_dir[MAX_GRANTS];
static int ngranted;
static int active, applied;
static int private_shm; /* /dev/shm is this process's own tmpfs (gc_confine_private_shm) */
static char pending_path[PATH_MAX], pending_call[16];

/* what a process writes that is no folder of the run's */
static const char *devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom"};

static int required(void) { return getenv("GATECRASH_REQUIRE_CONFINEMENT") != NULL; }

static int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? write(fd, text, strlen(text)) : -1;
    if (fd >= 0)
        close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Every capability gone, and none regained by exec (uid 0 in the namespace included). */
static int drop_capabilities(void)
{
    struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct d[2];
    memset(d, 0, sizeof d);
    if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                                     SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED) != 0)
        return -1;
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    for (int c = 0; c <= CAP_LAST_CAP; c++)
        prctl(PR_CAPBSET_DROP, c, 0, 0, 0);
    return (int)syscall(SYS_capset, &h, d);
}

/* /dev/shm is already the run's own: a process of the run started this one (an engine's
 * job, a spawned command) in its namespaces, which exec keeps (mountinfo: its source). */
static int shm_inherited(void)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    char line[1024];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, " /dev/shm ") && strstr(line, " - tmpfs gatecrash-shm ");
    if (f)
        fclose(f);
    return found;
}

int gc_confine_private_shm(void)
{
    static int tried;
    if (tried || getenv("GATECRASH_NO_PRIVATE_SHM") || gc_confine_abi() <= 0)
        return private_shm;
    tried = 1;
    struct stat st;
    if (stat("/dev/shm", &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;
    if (shm_inherited())
        return private_shm = 1;
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
        return 0; /* no user namespaces here, or a thread already runs: not offered */
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    int rc = write_text("/proc/self/setgroups", "deny");
    rc = rc ? rc : write_text("/proc/self/uid_map", map);
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    rc = rc ? rc : write_text("/proc/self/gid_map", map);
    if (rc != 0) { /* ids unmapped would read as nobody: nothing the run owns would be its own */
        gc_die_msg("cannot map this process's own user and group in a new user namespace: %s (set "
                   "GATECRASH_NO_PRIVATE_SHM=1 to run without a private /dev/shm)", strerror(errno));
        exit(GC_EXIT_HARNESS);
    }
    private_shm = mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
                  mount("gatecrash-shm", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=1777,size=64m") == 0;
    if (drop_capabilities() != 0) {
        gc_die_msg("cannot drop the capabilities of the new user namespace: %s", strerror(errno));
        exit(GC_EXIT_HARNESS);
    }
    return private_shm;
}

void gc_confine_grant(const char *path)
{
    char real[PATH_MAX];
    struct stat st;
    if (!path || !*path || applied || ngranted >= MAX_GRANTS || !realpath(path, real) || stat(real, &st) != 0)
        return;
    for (int i = 0; i < ngranted; i++)
        if (strcmp(granted[i], real) == 0)
            return;
    granted_dir[ngranted] = S_ISDIR(st.st_mode);
    granted[ngranted++] = strdup(real);
}

/* A folder for a path that names a file in it (-artifact_prefix=DIR/crash-: DIR). */
static void grant_dir_of(const char *path, int prefix)
{
    char d[PATH_MAX];
    snprintf(d, sizeof d, "%s", path);
    size_t n = strlen(d);
    if (prefix && n && d[n - 1] == '/') {
        gc_confine_grant(d);
        return;
    }
    char *slash = strrchr(d, '/');
    if (!slash)
        snprintf(d, sizeof d, ".");
    else
        slash[slash == d ? 1 : 0] = '\0';
    gc_confine_grant(d);
}

static const char *flag(const char *a, const char *name)
{
    size_t n = strlen(name);
    return strncmp(a, name, n) == 0 && a[n] == '=' ? a + n + 1 : NULL;
}

int gc_confine_note_argv(int argc, char **argv)
{
    const char *v;
    int corpus = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        struct stat st;
        if (strcmp(a, "--require-confinement") == 0)
            setenv("GATECRASH_REQUIRE_CONFINEMENT", "1", 1);
        else if ((v = flag(a, "-artifact_prefix")))
            grant_dir_of(v, 1);
        else if ((v = flag(a, "-exact_artifact_path")))
            grant_dir_of(v, 0);
        else if ((v = flag(a, "-merge_control_file")))
            gc_confine_grant(v); /* the parent made it; the job appends to it */
        else if ((v = flag(a, "-features_dir")))
            gc_confine_grant(v);
        else if ((v = flag(a, "--known-hangs")))
            grant_dir_of(v, 0); /* confirmed hangs are appended there (hangs.h) */
        else if (a[0] != '-' && !corpus++ && stat(a, &st) == 0 && S_ISDIR(st.st_mode))
            gc_confine_grant(a); /* libFuzzer writes only to the first corpus folder (-merge too) */
    }
    gc_confine_grant(".");
    gc_confine_grant(getenv("TMPDIR"));
    if (getenv("GATECRASH_STATS_FILE"))
        grant_dir_of(getenv("GATECRASH_STATS_FILE"), 0);
    if (getenv("GATECRASH_TRACE_INPUTS"))
        grant_dir_of(getenv("GATECRASH_TRACE_INPUTS"), 0);
    if (required() && gc_confine_abi() <= 0)
        return gc_confine_self(); /* the error, before the engine starts */
    return 0;
}

void gc_confine_take_option(int *argc, char **argv)
{
    int kept = 0;
    for (int i = 0; i < *argc; i++) {
        if (strcmp(argv[i], "--require-confinement") == 0)
            setenv("GATECRASH_REQUIRE_CONFINEMENT", "1", 1);
        else
            argv[kept++] = argv[i];
    }
    argv[kept] = NULL;
    *argc = kept;
}

static const char *why_missing = "";

int gc_confine_abi(void)
{
    if (getenv("GATECRASH_NO_CONFINE")) {
        why_missing = "disabled by GATECRASH_NO_CONFINE";
        return 0;
    }
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi <= 0)
        why_missing = errno == EOPNOTSUPP ? "disabled in this kernel" : "not in this kernel";
    return abi > 0 ? (int)abi : 0;
}

int gc_confine_active(void) { return active; }

/* Every write-type right the ABI knows. */
static uint64_t handled_rights(int abi)
{
    uint64_t r = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                 LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                 LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2)
        r |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        r |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5)
        r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return r;
}

static int add_rule(int ruleset, const char *path, int is_dir, uint64_t handled)
{
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0)
        return -1;
    const uint64_t file_rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
                                 LANDLOCK_ACCESS_FS_IOCTL_DEV | LANDLOCK_ACCESS_FS_EXECUTE;
    struct landlock_path_beneath_attr pb = {.allowed_access = is_dir ? handled : handled & file_rights,
                                            .parent_fd = fd};
    long rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
    close(fd);
    return rc == 0 ? 0 : -1;
}

static void print_line(int abi)
{
    char line[8192];
    int n = snprintf(line, sizeof line, "gatecrash: confined: Landlock ABI %d, writes only beneath", abi);
    for (int i = 0; i < ngranted && n < (int)sizeof line; i++)
        if (granted_dir[i])
            n += snprintf(line + n, sizeof line - (size_t)n, " %s%s", granted[i],
                          private_shm && strcmp(granted[i], "/dev/shm") == 0 ? " (the run's own)" : "");
    if (n < (int)sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, " (and to /dev/null-like devices)%s\n",
                 abi >= 4 ? "; no TCP bind or connect" : "");
    fputs(line, stderr);
}

int gc_confine_self(void)
{
    static int result;
    if (applied)
        return result;
    int abi = gc_confine_abi();
    if (abi <= 0) {
        if (required()) {
            gc_die_msg("Landlock is %s and --require-confinement is given: writes cannot be confined", why_missing);
            applied = 1;
            return result = GC_EXIT_HARNESS;
        }
        fprintf(stderr, "gatecrash: warning: Landlock is %s: writes below Python's audit hook are not confined "
                        "(--require-confinement makes this an error)\n", why_missing);
        applied = 1;
        return 0;
    }
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++)
        gc_confine_grant(devices[i]);
    if (private_shm)
        gc_confine_grant("/dev/shm"); /* the process's own tmpfs: no other process sees it */
    applied = 1; /* the list is final */
    uint64_t handled = handled_rights(abi);
    /* ABI 4+: every TCP bind and connect is refused (no rule grants a port) */
    struct gc_ruleset_attr ra = {.handled_access_fs = handled,
                                 .handled_access_net = GC_LANDLOCK_NET_BIND_TCP | GC_LANDLOCK_NET_CONNECT_TCP};
    size_t rasize = abi >= 4 ? sizeof ra : sizeof ra.handled_access_fs;
    int rs = (int)syscall(SYS_landlock_create_ruleset, &ra, rasize, 0);
    int rc = rs < 0 ? -1 : 0;
    for (int i = 0; rc == 0 && i < ngranted; i++)
        rc = add_rule(rs, granted[i], granted_dir[i], handled);
    if (rc == 0)
        rc = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (rc == 0)
        rc = (int)syscall(SYS_landlock_restrict_self, rs, 0);
    int e = errno;
    if (rs >= 0)
        close(rs);
    if (rc != 0) {
        gc_die_msg("Landlock (ABI %d) could not confine writes: %s", abi, strerror(e));
        return result = GC_EXIT_HARNESS;
    }
    active = 1;
    print_line(abi);
    return 0;
}

int gc_confine_final(const char *const **paths, const int **dirs)
{
    *paths = (const char *const *)granted;
    *dirs = granted_dir;
    return applied ? ngranted : -1;
}

int gc_confine_child(char *const writes[], char *const execs[])
{
    int abi = gc_confine_abi();
    if (abi <= 0)
        return 0;
    uint64_t wr = writes ? handled_rights(abi) : 0;
    struct gc_ruleset_attr ra = {.handled_access_fs = wr | LANDLOCK_ACCESS_FS_EXECUTE,
                                 .handled_access_net = GC_LANDLOCK_NET_BIND_TCP | GC_LANDLOCK_NET_CONNECT_TCP};
    int rs = (int)syscall(SYS_landlock_create_ruleset, &ra, abi >= 4 ? sizeof ra : sizeof ra.handled_access_fs, 0);
    int rc = rs < 0 ? -1 : 0;
    struct stat st;
    for (int i = 0; rc == 0 && writes && writes[i]; i++)
        if (stat(writes[i], &st) == 0)
            rc = add_rule(rs, writes[i], S_ISDIR(st.st_mode), wr);
    for (int i = 0; rc == 0 && execs[i]; i++)
        rc = add_rule(rs, execs[i], 0, LANDLOCK_ACCESS_FS_EXECUTE);
    if (rc == 0)
        rc = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (rc == 0)
        rc = (int)syscall(SYS_landlock_restrict_self, rs, 0);
    if (rs >= 0)
        close(rs);
    return rc == 0 ? 0 : -1;
}

/* ---- the supervisor's side ---- */

static int granted_path(const char *p)
{
    for (int i = 0; i < ngranted; i++)
        if (gc_sys_path_beneath(p, granted[i], granted_dir[i]))
            return 1;
    return 0;
}

int gc_confine_check_call(pid_t tid, int nr, const unsigned long long args[6])
{
    const char *name = gc_sys_write_name(nr);
    if (!active || !(gc_orc.in_chain || gc_orc.importing) || !name)
        return 0;
    char self[64];
    struct stat st;
    snprintf(self, sizeof self, "/proc/self/task/%d", (int)tid);
    if (stat(self, &st) != 0)
        return 0; /* not a thread of this process */
    char abs[2][PATH_MAX];
    int n = gc_sys_write_paths(tid, nr, args, abs);
    for (int k = 0; k < n; k++) {
        if (granted_path(abs[k]))
            continue;
        if (gc_orc.importing) { /* the target's own: loading it fails (target.c) */
            char what[PATH_MAX + 64];
            snprintf(what, sizeof what, "write to %s (%s)", abs[k], name);
            gc_oracle_note_import(what);
        } else if (!gc_orc.write_pending) {
            snprintf(pending_path, sizeof pending_path, "%s", abs[k]);
            snprintf(pending_call, sizeof pending_call, "%s", name);
            atomic_thread_fence(memory_order_release);
            gc_orc.write_pending = 1;
        }
        return EACCES;
    }
    return 0;
}

void gc_confine_judge(void)
{
    if (!gc_orc.write_pending)
        return;
    atomic_thread_fence(memory_order_acquire);
    if (strncmp(pending_path, "/dev/shm/sem.", strlen("/dev/shm/sem.")) == 0) {
        /* glibc's sem_open: a semaphore, not a file anyone reads; outside the run's folders */
        gc_oracle_set_refused("a POSIX named semaphore in /dev/shm (multiprocessing's locks and queues), not offered");
    } else if (gc_policy_forbids(&gc_orc.policy, GC_CAP_WRITE) && !gc_policy_allows_path(&gc_orc.policy, pending_path)) {
        char detail[PATH_MAX + 64];
        snprintf(detail, sizeof detail, "write to %s refused by Landlock", pending_path);
        gc_oracle_set_escape(GC_KIND_LANDLOCK, GC_CAP_WRITE, pending_call, detail);
    } else {
        gc_oracle_set_refused("a write outside scratch (Landlock)");
    }
    gc_orc.write_pending = 0;
}
