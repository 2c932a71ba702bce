/* weakness.h — the weakness behind a source target's hole: the technique its program uses
 * and the check of the sandbox that technique passes, and the name its walk starts from.
 *
 * Owns: the one table of techniques (what in a program's syntax tree marks each, its name,
 * the check it passes) and reading a program's syntax tree (CPython's ast) against it, with
 * the two readers of ast nodes from C that source_holes.c uses too.  Grouping findings by
 * weakness is holes.h's. */
#ifndef GATECRASH_WEAKNESS_H
#define GATECRASH_WEAKNESS_H

#include <Python.h>
#include <stddef.h>

/* Is 'node' an ast.CLS ('ast': the module); a node's field (a new reference, or NULL).  No
 * error is left set either way. */
int gc_ast_isa(PyObject *ast, PyObject *node, const char *cls);
PyObject *gc_ast_field(PyObject *node, const char *name);

/* The weakness of program 'src' (source text, as evaluate runs it): its name into 'name'
 * ("format walk, read back through an exception"), the check it passes into 'check' (one
 * sentence), the root its walk starts from into 'root' ("" when none is a name).  Returns 0,
 * or -1 when the text does not parse (all three "").  Needs the interpreter. */
int gc_weakness_of_program(const char *src, char *name, size_t namelen, char *check, size_t checklen, char *root,
                           size_t rootlen);

#endif
