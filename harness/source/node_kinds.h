/* node_kinds.h — which kinds of syntax node a source sandbox refuses and which it runs.
 *
 * Owns: the table of node-kind probes (one benign program a row, written in the statement
 * and, where the kind has one, the expression dialect; none of them reaches anything) and
 * their verdicts on a target: `gatecrash check` prints the table, one line a kind (runs,
 * refused by the sandbox, or not written in this dialect).  A sandbox's blind spots are the
 * rows where a kind it refuses in one place runs in another (an import at the top level
 * refused, the same import nested in `if True:` run).  And, while fuzzing, the tally of which
 * ast node kinds the programs run held and which of them the sandbox ever accepted: the
 * campaign's summary names the kinds never accepted. */
#ifndef GATECRASH_NODE_KINDS_H
#define GATECRASH_NODE_KINDS_H

#include <Python.h>
#include <stddef.h>

#include "source.h"
#include "strbuf.h"

typedef struct {
    int runs, refused, skipped; /* rows of each verdict */
} gc_node_kinds_report;

/* Each row's program through t's evaluate under the oracles (gc_source_run); one line a row
 * into out ("node KIND: runs (returned int)" / "refused (refused by the sandbox: NAME)" /
 * "not in this dialect").  0, or an exit code with err filled when the harness failed. */
int gc_node_kinds_probe(gc_target *t, gc_strbuf *out, gc_node_kinds_report *r, char *err, size_t errlen);

/* The ast node kinds of the programs run (each program's text parsed by ast, in the
 * target's dialect), and of those the sandbox did not refuse.  Sets of class names. */
typedef struct {
    PyObject *parse, *walk;  /* ast.parse, ast.walk (taken at init, before any input) */
    PyObject *seen, *accepted;
} gc_node_tally;

/* Before the first input: 0, or -1 with err filled. */
int gc_node_tally_init(gc_node_tally *t, char *err, size_t errlen);
/* One program's text (its node kinds; nothing for a text ast cannot parse), refused by the
 * sandbox or not. */
void gc_node_tally_add(gc_node_tally *t, const char *src, size_t len, int expression, int refused);
/* The kinds seen and never accepted, sorted, ", "-separated, into out ("" when none); how
 * many kinds were seen. */
Py_ssize_t gc_node_tally_never(const gc_node_tally *t, gc_strbuf *out);
void gc_node_tally_free(gc_node_tally *t);

#endif
