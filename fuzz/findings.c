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
    char **nk = realloc(known, (size_t)(nknown + 1) * sizeof *known);
    char *copy = strdup(signature);
    if (!nk || !copy) {
        free(copy);
        if (nk)
            known = nk;
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

uint64_t gc_findings_hash(const uint8_t *data, size_t size)
{
    uint64_t h = GC_FNV64_OFFSET;
    for (size_t i = 0; i < size; i++)
        h = gc_fnv1a64_step(h, data[i]);
    return h;
}

int gc_findings_save(const char *prefix, const uint8_t *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%scrash-%016llx", prefix, (unsigned long long)gc_findings_hash(data, size));
    if (gc_write_atomic(path, (const char *)data, size, 0) == 0)
        return 0;
    fprintf(stderr, "gatecrash: error: cannot save %s\n", path);
    return -1;
}
