/* pyglob.h — a shell glob matched as Python's fnmatch.fnmatch matches it on POSIX.
 *
 * Owns: the match of a policy's path glob against an absolute path.  The host matches its
 * globs with Python's fnmatch; importing that module before the target would put re, enum and
 * functools copies in the process that the host does not have (a second IntEnum in
 * int.__subclasses__() moves every index after it), and glibc's fnmatch(3) differs from it
 * ('[^…]' negates there and is a literal '^' here; backslash escapes there, never here;
 * '[[:alpha:]]' is a class there), so the rules are written out here: '*' any run of
 * characters, '/' included; '?' one character; '[…]' a set ('!' first negates; ']' first is a
 * member; a range whose ends are reversed is dropped, as fnmatch.translate drops it; no
 * closing ']': a literal '['); everything else literal.  Characters are UTF-8 code points, a
 * byte that is not valid UTF-8 one character of its own (as surrogateescape decodes it). */
#ifndef GATECRASH_PYGLOB_H
#define GATECRASH_PYGLOB_H

/* 1 when 'path' matches 'glob' as a whole, else 0. */
int gc_pyglob_match(const char *glob, const char *path);

#endif
