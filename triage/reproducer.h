/* reproducer.h — the standalone Python reproducer of an escape case.
 *
 * Owns: writing a plain-Python script, like the advisory's reproduction, that a gate's
 * maintainers can run with nothing but its CPython: it captures the real primitive, imports
 * the gate module from the path given on its command line, installs it as the host does,
 * walks the chain step by step in a frame whose globals are the namespace, and exits 1 with
 * a clear message when the escape reproduces (0 when blocked, 2 on bad usage).  It never
 * spawns or writes: it stops at the primitive, and its own audit hook refuses effects. */
#ifndef GATECRASH_REPRODUCER_H
#define GATECRASH_REPRODUCER_H

#include "eval.h"

void gc_reproducer_write(const gc_target *t, const gc_chain *chain, const gc_outcome *o, gc_strbuf *out);

#endif
