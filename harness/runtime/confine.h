/* confine.h — the write backstop below Python: Landlock confinement of filesystem writes.
 *
 * Owns: the list of folders (and device files) a process that imports a target and runs
 * chains may write in — its scratch folder and the folders the run itself writes (corpus,
 * crashes, the output, report and case folders, libFuzzer's temp files) —, the Landlock
 * ruleset that confines every write-type right the kernel's ABI knows to them (reads stay
 * open) and refuses every TCP bind and connect (ABI 4+), the start-up line that says what
 * is confined, the ruleset the spawner's children get (gc_confine_child), the
 * --require-confinement rule (exit 4 when Landlock is missing), and the
 * judgement of a write made outside them during a chain step or the target's import.
 *
 * Landlock confines the calling thread and the threads and processes it starts later, so it
 * is applied before the first line of the target (gate module or adapter) is imported, in
 * the thread that imports it and later runs inputs; the grants are known by then (the
 * command's scratch, case, output, corpus, report and save folders; the engines' argv and
 * environment).  Every thread the target or the interpreter starts comes after it and
 * inherits it (and the seccomp backstop, armed right after).  Where it goes:
 *  - the gatecrash command: in cli/start.c (cli_start_in_scratch, cli_campaign_start), just
 *    before gc_session_start.  Started before, unconfined, and never running Python: the
 *    spawner (a process forked at start-up: it removes the scratch folder, whose parent is
 *    not granted, and confines every process it starts with gc_confine_child, writes bounded
 *    by this list, which the command hands it once right after gc_confine_self: spawn.h)
 *    and the backstop's supervisor thread (C only: it answers system calls).
 *  - fuzz_gate, fuzz_source and their -test runners: gc_fuzz_start_confined (fuzz_target.h)
 *    in LLVMFuzzerInitialize, before the import; libFuzzer's RSS thread and the time limit's
 *    watchdog start later and inherit it.  libFuzzer's -fork, -jobs, -merge and
 *    -minimize_crash parents start processes, so they are never confined and never import
 *    the target: a child forked there imports it confined, and its exit code is theirs.
 *    AFL++'s fork server is confined (Landlock) before the import, and the backstop goes on
 *    in each input's process (a supervisor thread does not survive fork); the target was
 *    first imported in a fully confined child.
 * ABI 4+: the ruleset also handles TCP bind and connect and grants no port, so no TCP
 * connection is made or accepted by the process, whatever thread or C code asks (the
 * backstop judges it, backstop.h).
 *
 * Detection: Landlock only answers EACCES.  The backstop's seccomp filter (backstop.h)
 * also hands write-type path system calls to its supervisor (opens only with a write,
 * create or truncate flag: Python's read-only opens never stop there), which asks
 * gc_confine_check_call: during a chain step a path outside the granted folders is refused
 * there and then (EACCES, safe against a path changed under it), and noted; while the
 * target is imported it is the target's attempt (oracle.h: loading fails, exit 3); the
 * evaluator's thread judges a chain step's note against the policy (gc_confine_judge: an
 * escape of kind "landlock" unless the policy allows writing the path).  Every other call runs on
 * and Landlock decides: allowing is not safe against a path changed after the check,
 * which is why the kernel enforces.
 *
 * A private /dev/shm (gc_confine_private_shm) is the one folder outside the run's that is
 * granted: the process's own tmpfs, in a mount namespace of its own.
 *
 * Environment: GATECRASH_REQUIRE_CONFINEMENT=1 (what --require-confinement sets, so every
 * process a run starts inherits it) makes a missing Landlock an error; GATECRASH_NO_CONFINE=1
 * (for tests only) behaves as a kernel without Landlock. */
#ifndef GATECRASH_CONFINE_H
#define GATECRASH_CONFINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Grant writes beneath 'path' (a folder) or to it (a file).  Paths that do not exist are
 * skipped.  Before gc_confine_self only. */
void gc_confine_grant(const char *path);
/* libFuzzer's / AFL++'s argv: the first corpus folder (the one it writes),
 * -artifact_prefix, -exact_artifact_path, -merge_control_file, -features_dir; $TMPDIR,
 * $GATECRASH_STATS_FILE, $GATECRASH_TRACE_INPUTS and the working folder (the scratch).
 * --require-confinement sets the rule.  0, or GC_EXIT_HARNESS with the message printed
 * when confinement is required and missing. */
int gc_confine_note_argv(int argc, char **argv);
/* Remove --require-confinement from argv (the gatecrash command); sets the rule. */
void gc_confine_take_option(int *argc, char **argv);
/* The kernel's Landlock ABI (0: none, or disabled by GATECRASH_NO_CONFINE). */
int gc_confine_abi(void);
/* Confine this thread (idempotent).  0 (confined, or not and warned), or GC_EXIT_HARNESS
 * with the message printed (required and missing, or the ruleset failed). */
int gc_confine_self(void);
/* A /dev/shm of the process's own, so that what a host offers there (POSIX named semaphores:
 * multiprocessing's Lock, Queue, Event) is offered without a write outside the run: a new
 * user namespace (the same uid and gid, mapped to themselves) and mount namespace, a tmpfs
 * mounted on /dev/shm that no other process sees and that is gone with the run's last
 * process, then every capability the new namespace gave dropped for good (securebits
 * NOROOT, locked).  gc_confine_self then grants writes beneath /dev/shm.  While the process
 * is still one thread, before the spawner and the backstop start (cli/main.c's set_up,
 * fuzz/engine.c's gc_fuzz_start_confined); idempotent.  1 when /dev/shm is private, 0
 * when the kernel would not (no user namespaces; a thread already running;
 * GATECRASH_NO_PRIVATE_SHM=1): semaphores are then not offered (the refusal is named). */
int gc_confine_private_shm(void);
int gc_confine_active(void);

/* The final grant list (after gc_confine_self): its length, or -1 before; *dirs[i] says
 * whether paths[i] is a folder. */
int gc_confine_final(const char *const **paths, const int **dirs);
/* For the spawner's child (spawn.h), before exec: handle execute (granted only on the files
 * 'execs' names), TCP bind and connect (ABI 4+, no port granted) and, unless 'writes' is
 * NULL, every write right (granted beneath the folders and files it names).  Both lists
 * NULL-terminated real paths.  0 (or no Landlock), or -1. */
int gc_confine_child(char *const writes[], char *const execs[]);

/* The backstop supervisor's answer for thread 'tid''s write-type call 'nr' (syscalls.h:
 * the calls and the rules that hand them over) with 'args': 0 (let it run) or
 * EACCES (refused here, outside the granted folders during a chain step; noted). */
int gc_confine_check_call(pid_t tid, int nr, const unsigned long long args[6]);
/* The evaluator's thread, after a step: a noted refusal becomes an escape of kind
 * landlock if the policy forbids writing its path (else it is counted as a refusal). */
void gc_confine_judge(void);

#endif
