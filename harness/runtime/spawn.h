/* spawn.h — how the gatecrash command starts processes once the backstop is armed.
 *
 * Owns: a spawner process forked at start-up, before Python and before the seccomp
 * backstop (backstop.h), that starts the engines, the fresh-process replays and the corpus
 * merge on the command's behalf and reports their exit statuses, and removes the command's
 * scratch folder at the end (its parent is outside what Landlock lets the command write,
 * confine.h).  The command itself then carries the filter like the engines' input processes do, so a chain it evaluates (live
 * crash replay, minimization, the sweep) can never start a process, while the command can.
 * Every process the spawner starts is confined before its exec (confine.h, gc_confine_child):
 * writes only beneath the command's own grants (sent once, gc_spawn_lock_writes), no TCP, and
 * execute only on gatecrash's binaries and the tools it runs (timeout, env, the embedded
 * CPython, afl-fuzz, the symbolizer; gatecrash's own binaries, which confine themselves
 * again, also the temp folder and /bin/sh for libFuzzer's jobs); a request for any other
 * program is refused, so target code that finds the spawner's socket in the command can
 * start only those, confined.
 *
 * Without a spawner (unit tests, or before gc_spawner_start) these fall back to fork and
 * exec in the calling process. */
#ifndef GATECRASH_SPAWN_H
#define GATECRASH_SPAWN_H

#include <sys/types.h>

/* Fork the spawner.  0, or -1 with a message (then calls fall back to fork/exec). */
int gc_spawner_start(char *err, size_t errlen);

/* Start argv[0] (searched on PATH when it has no '/') in folder 'cwd' (NULL: the current
 * one) with the caller's current environment, stdout on out_fd and stderr on err_fd (-1:
 * the caller's own).  Returns the child's pid, or -1. */
pid_t gc_spawn(char *const argv[], const char *cwd, int out_fd, int err_fd);

/* waitpid() for a spawned pid: returns pid with *status set (a waitpid status), 0 when
 * 'nohang' and still running, -1 on error. */
pid_t gc_spawn_wait(pid_t pid, int *status, int nohang);

/* Send the spawner the command's final write grants (gc_confine_final), before any target
 * code runs: every process it starts from then on writes only beneath them.  The first
 * call only counts (a later one, from target code that found the socket, is refused). */
void gc_spawn_lock_writes(void);

/* Remove the empty folder 'path' in the spawner, which Landlock does not confine: the
 * command may not write the folder its scratch folder is in (confine.h).  0 or -1. */
int gc_spawn_rmdir(const char *path);

#endif
