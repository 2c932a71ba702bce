/* sweep_forms.h — the language's forms of a source sweep's attribute step.
 *
 * Owns: the program bytes (program.h) of an attribute read `X.name` written in forms a
 * validator may not see as one, for the sweep (source_sweep.c) to try on an attribute the
 * sandbox refused:
 *   getattr  getattr(X, 'na' + 'me'): the name made at run time from two halves, so that no
 *            attribute node and no string constant holds it (a check of constants for dunder
 *            names, of attribute nodes for '_' names)
 *   match    match X: / case object(name=v): / result = v: the attribute read by a class
 *            pattern, named in MatchClass.kwd_attrs and not by an attribute node
 * and the statements of an import root (a module of the host's sys.modules named by a
 * program):
 *   import   import M [as m] at the top level, in `if 1:`, or in a def's body
 *            (`def i():` / `import M` / `return M` / `M = i()`): for import checks of the top
 *            level only, and import guards asked only for modules not loaded yet
 * Each writes bytes around X's expression or before a name; it knows nothing of the sweep's
 * graph.  Also the sweep's one writer of an opcode with its string operand (gc_sweep_put_str). */
#ifndef GATECRASH_SWEEP_FORMS_H
#define GATECRASH_SWEEP_FORMS_H

#include <stddef.h>
#include <stdint.h>

#define GC_SWEEP_FORM_PRE 16 /* bytes before X's expression, at most */

/* op, then s[len] as its string operand, at out[n] (cap bytes): the new length, 0 when it does
 * not fit or len passes the IR's bound for a string.  The sweep's one writer of such a part
 * (source_sweep.c's programs too). */
size_t gc_sweep_put_str(uint8_t *out, size_t n, size_t cap, int op, const char *s, size_t len);

/* The getattr form of name[len]: `getattr` into pre (*prelen bytes, at most GC_SWEEP_FORM_PRE)
 * and the halves, their `+` and the call into tr[cap]: tr's length, 0 when it does not fit
 * or the name is shorter than two bytes. */
size_t gc_sweep_form_getattr(const char *name, size_t len, uint8_t *pre, size_t *prelen, uint8_t *tr, size_t cap);

/* The match form of name[len], after X's expression: the match statement and its case into
 * tr[cap] (*stmts bytes), then the expression `v` (the case's capture; `result = v` is the
 * program's assignment, in the case's block): tr's length, 0 when it does not fit. */
size_t gc_sweep_form_match(const char *name, size_t len, uint8_t *tr, size_t cap, size_t *stmts);

/* Where an import root's import stands (gc_sweep_form_import). */
enum { GC_SWEEP_IMPORT_TOP, GC_SWEEP_IMPORT_IF, GC_SWEEP_IMPORT_DEF, GC_SWEEP_NIMPORT };

/* The import form of module mod[len] (dotted identifiers) at 'where': its statements into
 * out[cap] (*blen bytes; they close every block they open), then the expression naming the
 * module (M itself, or `m` for a dotted name or one starting with '_', imported `as m`):
 * out's length, 0 when it does not fit. */
size_t gc_sweep_form_import(const char *mod, size_t len, int where, uint8_t *out, size_t cap, size_t *blen);

#endif
