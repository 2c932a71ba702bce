/* json.h — the one step by which every --json output becomes text.
 *
 * Owns: a cJSON value as one line (no newline), and a command's --json output (that line
 * on stdout).  Allocation failure aborts (xalloc.h). */
#ifndef GATECRASH_JSON_H
#define GATECRASH_JSON_H

#include <cjson/cJSON.h>

#include "strbuf.h"

/* 'j' appended to 'out' as one line (no newline), through cJSON. */
void gc_json_line(const cJSON *j, gc_strbuf *out);
/* 'j' as one line on stdout, then deleted: a command's --json output. */
void gc_json_print(cJSON *j);

#endif
