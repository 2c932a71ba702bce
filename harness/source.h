/* source.h — source-mode targets: sandboxes that take Python source text.
 *
 * Owns: the adapter of a "kind": "source" target (its evaluate entry, optional roots() and
 * refusal exception names, bound after target.c imports it like a gate module), the
 * virtual environment whose site-packages the adapter's sandbox package comes from (and
 * its Python version check), and running one program through evaluate under the oracles:
 * the C-call guard (a profile function that checks every C-level call before it runs) and
 * the bounded search of the returned value for forbidden primitives. */
#ifndef GATECRASH_SOURCE_H
#define GATECRASH_SOURCE_H

#include <Python.h>
#include <cjson/cJSON.h>

#include "eval.h"
#include "target.h"

/* How deep and how wide the returned value is searched (containers, exception attributes). */
#define GC_SOURCE_SEARCH_DEPTH 6
#define GC_SOURCE_SEARCH_NODES 4096

/* The fields of a source target's target.json (kind already "source") into s: adapter
 * (required), entry, venv (relative to the target folder), refusals.  0 or an exit code. */
int gc_source_spec_fields(gc_target_spec *s, const cJSON *json, char *err, size_t errlen);

/* 'dir' (relative to 'base', or absolute) as the spec's venv, checked when it is added.
 * 0 or GC_EXIT_USAGE. */
int gc_source_set_venv(gc_target_spec *s, const char *dir, const char *base, char *err, size_t errlen);

/* After the interpreter started, before the adapter is imported: the venv's site-packages
 * on sys.path (site.addsitedir, so its .pth files apply).  A venv of another Python
 * version is refused.  0 or an exit code (GC_EXIT_USAGE). */
int gc_source_add_venv(const gc_target_spec *s, char *err, size_t errlen);

/* After the adapter is imported (t->module): bind evaluate, roots and the refusal
 * exception classes; roots() is called once to check it.  0 or GC_EXIT_TARGET. */
int gc_source_bind(gc_target *t, char *err, size_t errlen);

/* The names roots() gives, at most 'max'; 0 without roots(), -1 when roots() raises or
 * returns anything but a list of str (message in err). */
int gc_source_roots(gc_target *t, char names[][65], int max, char *err, size_t errlen);

/* One program through evaluate, under the oracles, time limits and state check.  'note'
 * says what came back ("returned int", "refused by the sandbox: …", "raised …").  Returns
 * 0, or an exit code with err filled (GC_EXIT_HARNESS: state could not be restored). */
int gc_source_run(gc_target *t, const char *src, size_t len, gc_outcome *out, char *note, size_t notelen,
                  char *err, size_t errlen);

#endif
