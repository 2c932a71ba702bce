/* backstop.h — the last line of defence, below Python: a seccomp filter on process creation
 * and the network.
 *
 * Owns: the filter (libseccomp) that hands execve, execveat, fork, vfork and clone without
 * CLONE_THREAD to a supervisor thread (seccomp user notification; clone3, whose flags a
 * filter cannot read, fails with ENOSYS so that threads fall back to clone), and that
 * supervisor: the system call never runs (it returns EPERM), and when a chain step is
 * running and the policy forbids spawns, it is an escape of kind "syscall" (an unaudited
 * route the oracles did not see, such as _posixsubprocess.fork_exec called from a gate's
 * own function), reported like any escape: fuzz_gate aborts with it, replay exits 1.
 * Sanitizer builds only: LeakSanitizer's tracer clone (its exact flags) runs when no chain
 * step is running, so the leak check at exit works in armed processes (docs/CI.md).
 *
 * The network, whatever the policy: socket() of a family other than AF_UNIX goes to the
 * supervisor, which lets a TCP socket be made (Landlock, ABI 4+, refuses its bind and
 * connect: confine.h) and refuses every other (UDP, raw, packet, netlink, SCTP, MPTCP;
 * without Landlock's TCP rules, TCP too); connect, bind and listen go to it too, and on a
 * socket that is not AF_UNIX they are refused (EACCES; a descriptor swapped after the check
 * meets Landlock), as is a connect to a Unix socket during a chain step or the import (a
 * local daemon's socket; a refusal, never an escape); a send with MSG_FASTOPEN (a connect) is refused; io_uring_setup fails
 * (ENOSYS: its operations are no system calls a filter sees).  During a chain step whose
 * policy says network: false each is an escape of kind "syscall" with the network
 * capability (from Python, ctypes, an extension or any thread of the process).
 *
 * While the target is imported (gc_orc.importing), a stopped spawn, a refused connect or
 * socket is the target's attempt (gc_oracle_note_import: loading fails with "at import:",
 * exit 3); a bind is refused only (urllib3 binds ::1 at import to probe IPv6).
 *
 * A seccomp filter cannot be removed, and children inherit it.  So it is installed where
 * it applies to the target only, before its first line is imported (confine.h says where):
 * in the engines' initialisation (not in libFuzzer's fork-mode, -jobs, -merge and
 * -minimize_crash parents, which import nothing; under AFL++ in each input's process, the
 * fork server's import checked first in a fully armed child), and in the gatecrash command
 * after its spawner (spawn.h) is up: every process the command starts comes from the
 * spawner, which has no filter.
 *
 * When Landlock confines the process's writes (confine.h), the filter also hands the
 * supervisor the write-type path calls (opens with a write, create or truncate flag,
 * mkdir, unlink, rename, link, symlink, truncate...), which confine.c judges: refused
 * outside the granted folders during a chain step, else run on for Landlock to decide.
 *
 * The same filter also reports, without stopping them, the system calls that change the
 * process state state.c must put back after an input: setting a signal disposition or mask
 * (rt_sigaction with a new action, rt_sigprocmask with a new set), closing or replacing
 * descriptors 0-2 (close, dup2, dup3, close_range from 0-2), chdir, fchdir and umask, and
 * (when Landlock confines) a
 * write-type path call let through (GC_DIRTY_FILES: something may be left in scratch).  The supervisor marks them dirty
 * (per process, in a page shared with the harness's forks: the armed process's bits, and
 * those of each fork that asks for its own, gc_backstop_forked) and lets the call run (SECCOMP_USER_NOTIF_FLAG_CONTINUE).  So the check after an input
 * skips some forty system calls (one sigaction per signal, fstat of 0-2, getcwd, umask)
 * when nothing was marked, and such calls are rare: the notification costs only then. */
#ifndef GATECRASH_BACKSTOP_H
#define GATECRASH_BACKSTOP_H

#include <stddef.h>

/* Install the filter in this process (idempotent).  0, or -1 with a message. */
int gc_backstop_arm(char *err, size_t errlen);
int gc_backstop_armed(void);
/* The calling thread may start one process of the harness's own (fork) until called with 0:
 * the campaign's sweep process (campaign.c), which keeps this filter, its notifications
 * answered by this process's supervisor (so the sweep sees no escape of kind "syscall": the
 * call is still refused). */
void gc_backstop_harness_fork(int on);
/* Process-creation calls the filter stopped (in and out of chain steps). */
extern volatile unsigned long gc_backstop_blocked;

/* What changed since the last call: GC_DIRTY_* bits, cleared by the call.  Every bit is
 * set while the filter does not watch (not armed, or a kernel before 5.5). */
enum { GC_DIRTY_SIGNALS = 1, GC_DIRTY_FDS = 2, GC_DIRTY_CWD = 4, GC_DIRTY_UMASK = 8, GC_DIRTY_FILES = 16,
       GC_DIRTY_ALL = 31 };
unsigned gc_backstop_take_dirty(void);
/* In a process the harness just forked (the campaign's sweep): dirty bits of
 * its own, which the supervisor marks for its calls (else every state check runs there).
 * The parent gives the slot back once it reaped the process (gc_backstop_reaped). */
void gc_backstop_forked(void);
void gc_backstop_reaped(int pid);

#endif
