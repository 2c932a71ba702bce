/* json.c — see json.h. */
#include "json.h"

#include <stdio.h>

#include "xalloc.h"

void gc_json_line(const cJSON *j, gc_strbuf *out)
{
    char *text = gc_xalloc_check(cJSON_PrintUnformatted(j)); /* NULL only when out of memory */
    gc_sb_puts(out, text);
    cJSON_free(text);
}

void gc_json_print(cJSON *j)
{
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_json_line(j, &sb);
    printf("%s\n", sb.data);
    gc_sb_free(&sb);
    cJSON_Delete(j);
}
