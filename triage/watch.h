/* watch.h — gatecrash-watch: a plain interpreter run under the kernel's eyes.
 *
 * Owns: the tool that lets a confirmation (confirm.h) see what an audit hook cannot: a
 * process made from C (_posixsubprocess.fork_exec, libc's system() through ctypes), a
 * connection made through libc, a file written by C code (SQLite's ATTACH, _dbm).  The
 * harness sees those with its seccomp backstop and Landlock (backstop.h, confine.h) and
 * reports them as escapes of kind "syscall" and "landlock"; the plain interpreter that
 * confirms one runs under this watch:
 *
 *   gatecrash-watch [--seconds N] [--count spawn|network|write]... [--allow-write GLOB]...
 *                   -- PROGRAM [ARG]...
 *
 * It starts PROGRAM with a seccomp filter that hands process creation, the network and the
 * write-type path calls (syscalls.h) to its own supervisor, and tells PROGRAM, in
 * GC_WATCH_FD_ENV, a descriptor on which it marks the evaluation: 'B' when the case starts,
 * 'E' when it ends (escapes/reproduce.py, Run.in_chain).  Outside the marks every call runs
 * as in a plain host (the interpreter's own exec, the target's import).  Inside them no
 * process is made (EPERM), no socket but a Unix one is made, connected or bound (EACCES),
 * and no path is written outside the grants (EACCES): the working folder, /dev/shm,
 * /dev/null.  A refused call of a capability given with --count is what
 * the watch saw (a write only where no --allow-write glob, matched as Python's fnmatch,
 * allows its path); the first is named.
 *
 * Exit status: PROGRAM's, except 1 with the line "ESCAPE reproduced: KIND CAP CALL (WHAT)
 * below Python, via the evaluation" printed last when the watch saw something and PROGRAM
 * did not itself exit 1; 124 when PROGRAM did not finish within N seconds (default 60; it
 * is killed); 2 with one line when the watch cannot be set up (no seccomp user
 * notification, bad arguments). */
#ifndef GATECRASH_WATCH_H
#define GATECRASH_WATCH_H

#define GC_WATCH_FD_ENV "GATECRASH_WATCH_FD"
#define GC_WATCH_BIN "gatecrash-watch"

#endif
