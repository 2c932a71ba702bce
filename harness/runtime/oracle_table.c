/* oracle_table.c — THE table of real primitives, as data.
 *
 * Every object named here is captured from the real modules at start-up, before any gate
 * code runs, and is compared by identity (plus the function's code object or the C
 * function's method table, so a re-bound or re-wrapped builtin still matches).
 *
 *  - GC_CAP_SPAWN / GC_CAP_WRITE / GC_CAP_NETWORK: reaching one whose capability the
 *    policy forbids is a reach escape; calling one is left to the audit hook when CPython
 *    audits it, and refused by the harness when it does not (GC_PRIM_UNAUDITED).
 *  - GC_CAP_HARNESS: calls the harness refuses because they would wreck, block, or forge
 *    signals in the fuzzing process (exit, signals, fd juggling, sleeps, thread starts,
 *    audit forging, code strings that hide steps from the evaluator).  Never an escape.
 *    Source mode runs code strings (GC_PRIM_CODE) and thread starts (GC_PRIM_THREAD).
 *  - FAC (GC_PRIM_FACILITY): harness rows that are what a plain host process offers a
 *    sandbox's own code (its SIGALRM timeout, an atexit function, asyncio.run's hooks).
 *    Refused in chains; given to source mode's evaluation and put back after every input by
 *    the facility table (facility_table.c).  Listed before their module's "*" row: the
 *    first row that captures an object is the one it is known by.
 *
 * Missing names (platform differences) are skipped.  docs/ORACLES.md lists the table.
 * Its rows share one shape by design (a duplicate finder pairs runs of them): data, not code. */
#include "oracle.h"

#define SP GC_CAP_SPAWN
#define WR GC_CAP_WRITE
#define NET GC_CAP_NETWORK
#define HX GC_CAP_HARNESS
#define UN GC_PRIM_UNAUDITED
#define CODE GC_PRIM_CODE
#define THR GC_PRIM_THREAD
#define FAC GC_PRIM_FACILITY

const gc_prim_spec gc_prim_table[] = {
    /* --- process creation --- */
    {"os", "system", SP, 0}, {"os", "popen", SP, 0}, {"os", "fork", SP, 0},
    {"os", "forkpty", SP, 0}, {"os", "execv", SP, 0}, {"os", "execve", SP, 0},
    {"os", "execl", SP, 0}, {"os", "execle", SP, 0}, {"os", "execlp", SP, 0},
    {"os", "execlpe", SP, 0}, {"os", "execvp", SP, 0}, {"os", "execvpe", SP, 0},
    {"os", "spawnv", SP, 0}, {"os", "spawnve", SP, 0}, {"os", "spawnvp", SP, 0},
    {"os", "spawnvpe", SP, 0}, {"os", "spawnl", SP, 0}, {"os", "spawnle", SP, 0},
    {"os", "spawnlp", SP, 0}, {"os", "spawnlpe", SP, 0}, {"os", "posix_spawn", SP, 0},
    {"os", "posix_spawnp", SP, 0},
    {"subprocess", "Popen", SP, 0}, {"subprocess", "run", SP, 0},
    {"subprocess", "call", SP, 0}, {"subprocess", "check_call", SP, 0},
    {"subprocess", "check_output", SP, 0}, {"subprocess", "getoutput", SP, 0},
    {"subprocess", "getstatusoutput", SP, 0},
    /* the same object as subprocess._fork_exec; raises no audit event */
    {"_posixsubprocess", "fork_exec", SP, UN},
    {"pty", "spawn", SP, 0}, {"pty", "fork", SP, 0},

    /* --- filesystem mutation --- */
    {"builtins", "open", WR, 0}, /* == io.open */
    {"io", "FileIO", WR, 0}, {"os", "open", WR, 0},
    {"os", "remove", WR, 0}, {"os", "unlink", WR, 0}, {"os", "rename", WR, 0},
    {"os", "replace", WR, 0}, {"os", "renames", WR, 0}, {"os", "rmdir", WR, 0},
    {"os", "removedirs", WR, 0}, {"os", "mkdir", WR, 0}, {"os", "makedirs", WR, 0},
    {"os", "truncate", WR, 0}, {"os", "chmod", WR, 0}, {"os", "lchmod", WR, 0},
    {"os", "chown", WR, 0}, {"os", "lchown", WR, 0}, {"os", "link", WR, 0},
    {"os", "symlink", WR, 0}, {"os", "utime", WR, 0}, {"os", "setxattr", WR, 0},
    {"os", "removexattr", WR, 0}, {"os", "chflags", WR, 0},
    {"os", "mkfifo", WR, UN}, {"os", "mknod", WR, UN}, /* no audit event in 3.11 */
    {"shutil", "copyfile", WR, 0}, {"shutil", "copymode", WR, 0},
    {"shutil", "copystat", WR, 0}, {"shutil", "copy", WR, 0}, {"shutil", "copy2", WR, 0},
    {"shutil", "copytree", WR, 0}, {"shutil", "rmtree", WR, 0}, {"shutil", "move", WR, 0},
    {"shutil", "chown", WR, 0}, {"shutil", "make_archive", WR, 0},
    {"shutil", "unpack_archive", WR, 0},
    /* C writers CPython does not audit (reached from Python code they are missed: see
     * docs/ORACLES.md, Known limits) */
    {"_dbm", "open", WR, UN}, {"_gdbm", "open", WR, UN},
    {"readline", "write_history_file", WR, UN}, {"readline", "append_history_file", WR, UN},

    /* --- network --- */
    {"socket", "socket", NET, 0}, {"socket", "create_connection", NET, 0},
    {"socket", "create_server", NET, 0}, {"socket", "socketpair", NET, 0},

    /* --- refused by the harness: would wreck, block or forge --- */
    {"os", "_exit", HX, 0}, {"os", "abort", HX, 0}, {"os", "kill", HX, 0},
    {"os", "killpg", HX, 0}, {"os", "close", HX, FAC}, {"os", "closerange", HX, 0},
    {"os", "dup", HX, 0}, {"os", "dup2", HX, 0}, {"os", "pipe", HX, FAC}, {"os", "pipe2", HX, FAC},
    {"os", "openpty", HX, 0}, {"os", "eventfd", HX, 0}, {"os", "memfd_create", HX, 0},
    {"os", "chdir", HX, 0}, {"os", "fchdir", HX, 0}, {"os", "chroot", HX, 0},
    {"os", "umask", HX, 0}, {"os", "putenv", HX, 0}, {"os", "unsetenv", HX, 0},
    {"os", "setsid", HX, 0}, {"os", "setpgrp", HX, 0}, {"os", "setpgid", HX, 0},
    {"os", "setuid", HX, 0}, {"os", "setgid", HX, 0}, {"os", "seteuid", HX, 0},
    {"os", "setegid", HX, 0}, {"os", "setreuid", HX, 0}, {"os", "setregid", HX, 0},
    {"os", "setresuid", HX, 0}, {"os", "setresgid", HX, 0}, {"os", "setgroups", HX, 0},
    {"os", "nice", HX, 0}, {"os", "register_at_fork", HX, FAC},
    {"os", "read", HX, FAC}, {"os", "readv", HX, 0}, {"os", "pread", HX, 0},
    {"os", "write", HX, FAC}, {"os", "writev", HX, 0}, {"os", "pwrite", HX, 0},
    {"os", "sendfile", HX, 0}, {"os", "copy_file_range", HX, 0}, {"os", "splice", HX, 0},
    {"os", "wait", HX, 0}, {"os", "waitpid", HX, 0}, {"os", "wait3", HX, 0},
    {"os", "wait4", HX, 0}, {"os", "waitid", HX, 0}, {"os", "set_blocking", HX, 0},
    {"os", "set_inheritable", HX, 0}, {"os", "lockf", HX, 0},
    /* facilities (facility_table.c): signal handlers, alarms and itimers, the signal mask
     * (signal.signal and three more are Python wrappers: the C functions under them too);
     * signals sent, waited for or woken by (raise_signal, pthread_kill, sigwait, pause,
     * set_wakeup_fd) stay refused by the "*" rows below */
    {"signal", "signal", HX, FAC}, {"signal", "getsignal", HX, FAC}, {"signal", "alarm", HX, FAC},
    {"signal", "setitimer", HX, FAC}, {"signal", "getitimer", HX, FAC}, {"signal", "siginterrupt", HX, FAC},
    {"signal", "pthread_sigmask", HX, FAC}, {"signal", "sigpending", HX, FAC},
    {"signal", "valid_signals", HX, FAC}, {"signal", "strsignal", HX, FAC},
    {"signal", "default_int_handler", HX, FAC},
    {"_signal", "signal", HX, FAC}, {"_signal", "getsignal", HX, FAC}, {"_signal", "pthread_sigmask", HX, FAC},
    {"_signal", "sigpending", HX, FAC}, {"_signal", "valid_signals", HX, FAC},
    /* the rest of the C functions, for a sandbox that imports _signal before signal (the
     * table binds rows as their modules appear: signal's may come later, or never) */
    {"_signal", "alarm", HX, FAC}, {"_signal", "setitimer", HX, FAC}, {"_signal", "getitimer", HX, FAC},
    {"_signal", "siginterrupt", HX, FAC}, {"_signal", "strsignal", HX, FAC},
    {"_signal", "default_int_handler", HX, FAC},
    /* atexit functions; asyncio.run's asynchronous generator hooks; the waits of its selector */
    {"atexit", "register", HX, FAC}, {"sys", "set_asyncgen_hooks", HX, FAC},
    {"select", "select", HX, FAC}, {"select", "poll", HX, FAC}, {"select", "epoll", HX, FAC},
    {"signal", "*", HX, GC_PRIM_ALL}, {"faulthandler", "*", HX, GC_PRIM_ALL},
    /* signal.signal & co. are Python wrappers: the C functions under them too */
    {"_signal", "*", HX, GC_PRIM_ALL},
    {"fcntl", "*", HX, GC_PRIM_ALL}, {"resource", "setrlimit", HX, 0},
    {"resource", "prlimit", HX, 0},
    /* sys.exit raises SystemExit, which a sandbox's own code may (nothing to put back) */
    {"sys", "exit", HX, FAC}, {"sys", "audit", HX, 0}, {"sys", "addaudithook", HX, 0},
    {"sys", "setrecursionlimit", HX, 0}, {"sys", "settrace", HX, 0},
    {"sys", "setprofile", HX, 0}, {"sys", "setswitchinterval", HX, 0},
    {"sys", "setdlopenflags", HX, 0},
    {"sys", "set_coroutine_origin_tracking_depth", HX, 0}, {"sys", "breakpointhook", HX, 0},
    {"sys", "_clear_type_cache", HX, 0}, {"sys", "set_int_max_str_digits", HX, 0},
    /* 3.12+: what would switch gatecrash's own sys.monitoring tool off mid-input (the C-call
     * guard and the line feedback are its events: monitor.h); none is audited */
    {"sys", "monitoring.set_events", HX, 0}, {"sys", "monitoring.set_local_events", HX, 0},
    {"sys", "monitoring.free_tool_id", HX, 0},
    {"time", "sleep", HX, 0},
    /* CPython 3.11 lets these types be called directly and leaves the object half made:
     * its first use dereferences NULL (found by the constants-only ablation: a class walk
     * to _csv.Reader, called, then iterated).  An interpreter crash, not an escape. */
    {"_csv", "Reader", HX, 0}, {"_csv", "Writer", HX, 0},
    /* takes any int as glibc's pthread_t, a pointer, and reads the thread's id through it:
     * (1) reads address 0x2d1 (found by fuzz_gate on station-1.5.0-allow-all, its mutator's
     * probe calling it with a harvested 1 or -1).  Raw memory access, as ctypes' is. */
    {"time", "pthread_getcpuclockid", HX, 0},
    {"builtins", "input", HX, 0}, {"builtins", "breakpoint", HX, 0},
    {"builtins", "help", HX, 0}, {"builtins", "exit", HX, 0}, {"builtins", "quit", HX, 0},
    /* code strings: a step the evaluator cannot see or bound (source mode runs them: there
     * the program is itself source, bounded by the input's limits) */
    {"builtins", "exec", HX, CODE}, {"builtins", "eval", HX, CODE}, {"builtins", "compile", HX, CODE},
    {"gc", "disable", HX, 0}, {"gc", "freeze", HX, 0}, {"gc", "set_threshold", HX, 0},
    {"gc", "set_debug", HX, 0},
    /* thread starts (start_joinable_thread: 3.13's Thread.start): refused in chains, part of
     * the evaluation in source mode */
    {"_thread", "start_new_thread", HX, THR}, {"_thread", "start_new", HX, THR},
    {"_thread", "interrupt_main", HX, 0}, {"_thread", "exit", HX, 0},
    {"threading", "Thread.start", HX, THR}, {"threading", "Timer.start", HX, THR},
    {"_thread", "start_joinable_thread", HX, THR},
    {"atexit", "_run_exitfuncs", HX, 0},
};

const size_t gc_prim_table_len = sizeof gc_prim_table / sizeof gc_prim_table[0];
