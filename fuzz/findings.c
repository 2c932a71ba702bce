/* findings.c — see findings.h. */
#include "findings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "hash.h"

static char **known;
static int nknown;

void gc_findings_add(const char *signature)
{
    char *copy = strdup(signature);
    char **nk = copy ? realloc(known, (size_t)(nknown + 1) * sizeof *known) : NULL;
    if (!nk) {
        free(copy);
        return;
    }
    known = nk;
    known[nknown++] = copy;
}

void gc_findings_load(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0])
            gc_findings_add(line);
    }
    if (f)
        fclose(f);
}

int gc_findings_known(const char *signature)
{
    for (int i = 0; i < nknown; i++)
        if (strcmp(known[i], signature) == 0)
            return 1;
    return 0;
}

int gc_findings_save(const char *prefix, const uint8_t *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%scrash-%016llx", prefix, (unsigned long long)gc_fnv1a64_bytes(GC_FNV64_OFFSET, data, size));
    if (gc_write_atomic(path, (const char *)data, size, 0) == 0)
        return 0;
    fprintf(stderr, "gatecrash: error: cannot save %s\n", path);
    return -1;
}
