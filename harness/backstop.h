/* backstop.h — the last line of defence, below Python: a seccomp filter on process creation.
 *
 * Owns: the filter (libseccomp) that hands execve, execveat, fork, vfork and clone without
 * CLONE_THREAD to a supervisor thread (seccomp user notification; clone3, whose flags a
 * filter cannot read, fails with ENOSYS so that threads fall back to clone), and that
 * supervisor: the system call never runs (it returns EPERM), and when a chain step is
 * running and the policy forbids spawns, it is an escape of kind "syscall" (an unaudited
 * route the oracles did not see, such as _posixsubprocess.fork_exec called from a gate's
 * own function), reported like any escape: fuzz_gate aborts with it, replay exits 1.
 *
 * A seccomp filter cannot be removed, and children inherit it.  So it is installed where
 * it applies to input execution only: in fuzz_gate / fuzz_gate_afl at the first input
 * (libFuzzer's fork-mode, -merge and -minimize_crash parents and AFL++'s fork server run
 * no input and stay unfiltered), and in the gatecrash command after its spawner (spawn.h)
 * is up: every process the command starts comes from the spawner, which has no filter. */
#ifndef GATECRASH_BACKSTOP_H
#define GATECRASH_BACKSTOP_H

#include <stddef.h>

/* Install the filter in this process (idempotent).  0, or -1 with a message. */
int gc_backstop_arm(char *err, size_t errlen);
int gc_backstop_armed(void);
/* Process-creation calls the filter stopped (in and out of chain steps). */
extern volatile unsigned long gc_backstop_blocked;

#endif
