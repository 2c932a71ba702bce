/* weakness.h — the weakness behind a source target's hole: the technique its program uses
 * and the check of the sandbox that technique passes, and the name its walk starts from.
 *
 * Owns: the one table of techniques (what in a program's syntax tree marks each, its name,
 * the check it passes) and reading a program's syntax tree (CPython's ast) against it.
 * Grouping findings by weakness is holes.h's. */
#ifndef GATECRASH_WEAKNESS_H
#define GATECRASH_WEAKNESS_H

#include <stddef.h>

/* The weakness of program 'src' (source text, as evaluate runs it): its name into 'name'
 * ("format walk, read back through an exception"), the check it passes into 'check' (one
 * sentence), the root its walk starts from into 'root' ("" when none is a name).  Returns 0,
 * or -1 when the text does not parse (all three "").  Needs the interpreter. */
int gc_weakness_of_program(const char *src, char *name, size_t namelen, char *check, size_t checklen, char *root,
                           size_t rootlen);

#endif
