/* nscache.h — cheap fresh namespaces.
 *
 * Owns: keeping one installed namespace across inputs while no input could have changed
 * it, and re-installing when one could.  Change is detected, not guessed: after an install
 * the objects the namespace reaches (to a bounded depth: the namespace, its values, their
 * attributes) are recorded — dicts (3.11: version tags; 3.12+: a dict watcher; by content
 * where the version's signal misses changes), function slots (code, defaults, closure
 * cells, __dict__), instance dicts, list contents — and compared after every input.  A
 * dict that changed is put back as the install left it (a copy is kept); any other
 * difference drops the cached namespace.  Real module state is gc_state's job. */
#ifndef GATECRASH_NSCACHE_H
#define GATECRASH_NSCACHE_H

#include <Python.h>

#include "target.h"

extern int gc_nscache_enabled; /* 0: a fresh install for every input (the naive loop) */

typedef struct {
    unsigned long installs, reuses, drops;
    unsigned long restores; /* dicts put back as the install left them, instead of a drop */
    size_t watched; /* objects recorded for the current namespace */
} gc_nscache_stats;

/* The namespace for the next input (new reference): the cached one, or a fresh install. */
PyObject *gc_nscache_get(gc_target *t, char *err, size_t errlen);
/* After the input ran: drop the cached namespace if anything it reaches changed. */
void gc_nscache_after(void);
void gc_nscache_reset(void);
const gc_nscache_stats *gc_nscache_stats_get(void);

#endif
