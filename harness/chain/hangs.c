/* hangs.c — see hangs.h.  Hand-written: the key is over the chain's own structure, step by
 * step, which no hashing library walks for us; the table is a fixed open-addressed array
 * (a fuzzing process meets a few hundred distinct blocks at most, and a full table only stops
 * remembering). */
#include "hangs.h"

#include "hash.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define HANG_SLOTS 8192 /* a power of two */

static struct {
    uint64_t key;
    unsigned char timeouts;
} table[HANG_SLOTS];
static int used;
unsigned long gc_hangs_skipped;

static uint64_t mix_bytes(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = gc_fnv1a64_step(h, (unsigned char)s[i]);
    return gc_fnv1a64_step(h, 0x100 + n); /* the length: "ab","c" differs from "a","bc" */
}

static uint64_t mix_str(uint64_t h, const gc_chain *c, gc_str s) { return mix_bytes(h, gc_chain_str(c, s), s.len); }

static uint64_t mix_trailer(uint64_t h, const gc_chain *c, const gc_trailer *t)
{
    h = gc_fnv1a64_step(h, 0x200 + (uint64_t)t->kind);
    switch (t->kind) {
    case GC_T_ATTR: case GC_T_ITEM_STR: case GC_T_NAMED: return mix_str(h, c, t->s);
    case GC_T_ITEM_INT: case GC_T_DIR: case GC_T_NTH: return gc_fnv1a64_step(h, (uint64_t)t->k);
    case GC_T_CALL: break;
    }
    h = gc_fnv1a64_step(h, (uint64_t)t->nargs);
    for (int i = 0; i < t->nargs; i++) {
        const gc_arg *a = &t->args[i];
        h = gc_fnv1a64_step(h, 0x300 + (uint64_t)a->kind);
        if (a->kind == GC_ARG_STR)
            h = mix_str(h, c, a->s);
        else if (a->kind == GC_ARG_INT)
            h = gc_fnv1a64_step(h, (uint64_t)a->ival);
    }
    return h;
}

static unsigned char *slot(uint64_t key, int add)
{
    uint64_t i = key;
    for (int n = 0; n < HANG_SLOTS; n++, i++) {
        uint64_t k = table[i & (HANG_SLOTS - 1)].key;
        if (k == key)
            return &table[i & (HANG_SLOTS - 1)].timeouts;
        if (k == 0) {
            if (!add || used >= HANG_SLOTS / 2)
                return NULL;
            used++;
            table[i & (HANG_SLOTS - 1)].key = key;
            return &table[i & (HANG_SLOTS - 1)].timeouts;
        }
    }
    return NULL;
}

/* The keys of every step of c, in the evaluator's order: keys[si][ti + 1]. */
static void keys_of(const gc_chain *c, uint64_t keys[][GC_MAX_TRAILERS + 1])
{
    uint64_t prev = 0; /* the slice of the whole statement before */
    for (int si = 0; si < c->nstmts; si++) {
        const gc_stmt *st = &c->s[si];
        uint64_t h = GC_FNV64_OFFSET;
        h = st->is_prev ? gc_fnv1a64_step(h ^ prev, 1) : mix_str(gc_fnv1a64_step(h, 2), c, st->root);
        keys[si][0] = h | 1;
        for (int ti = 0; ti < st->ntrailers; ti++) {
            if (!st->is_prev && gc_trailer_prev_args(&st->t[ti]) > 0)
                h = gc_fnv1a64_step(h ^ prev, 3); /* a '_' argument: the slice takes in the one before */
            h = mix_trailer(h, c, &st->t[ti]);
            keys[si][ti + 1] = h | 1;
        }
        prev = h;
    }
}

static uint64_t prepared[GC_MAX_STMTS][GC_MAX_TRAILERS + 1];
static int prepared_stmts; /* 0: nothing is known, every step may run */

#define CONFIRMED 255

/* The key of step (stmt, trailer) of c; 0 when c has no such step. */
static uint64_t key_of(const gc_chain *c, int stmt, int trailer)
{
    static uint64_t keys[GC_MAX_STMTS][GC_MAX_TRAILERS + 1];
    if (stmt < 0 || stmt >= c->nstmts || trailer < -1 || trailer >= c->s[stmt].ntrailers)
        return 0;
    keys_of(c, keys);
    return keys[stmt][trailer + 1];
}

static unsigned char *slot_of(const gc_chain *c, int stmt, int trailer)
{
    uint64_t key = key_of(c, stmt, trailer);
    return key ? slot(key, 1) : NULL;
}

int gc_hangs_note(const gc_chain *c, int stmt, int trailer)
{
    unsigned char *n = slot_of(c, stmt, trailer);
    if (!n)
        return 0;
    if (*n < CONFIRMED - 1)
        ++*n;
    return *n;
}

static const char *shared_path; /* --known-hangs: NULL when this process keeps its own */

/* key, appended to the shared file as one line. */
static void share_key(uint64_t key)
{
    char line[32];
    int len = snprintf(line, sizeof line, "%016llx\n", (unsigned long long)key);
    int fd = open(shared_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, line, (size_t)len) != len)
        fprintf(stderr, "gatecrash: warning: cannot append to the known hangs %s\n", shared_path);
    if (fd >= 0)
        close(fd);
}

/* key is a confirmed hang from now on: 1 when it was not one before. */
static int confirm_key(uint64_t key)
{
    unsigned char *n = key ? slot(key, 1) : NULL;
    if (!n || *n == CONFIRMED)
        return 0;
    *n = CONFIRMED;
    return 1;
}

void gc_hangs_confirm(const gc_chain *c, int stmt, int trailer)
{
    uint64_t key = key_of(c, stmt, trailer);
    if (confirm_key(key) && shared_path)
        share_key(key);
}

void gc_hangs_share(const char *path)
{
    shared_path = path;
    FILE *f = fopen(path, "r");
    char line[64];
    while (f && fgets(line, sizeof line, f)) {
        char *end;
        unsigned long long key = strtoull(line, &end, 16);
        if (end == line + 16 && *end == '\n' && (key & 1)) /* not a torn or foreign line */
            confirm_key(key);
    }
    if (f)
        fclose(f);
}

void gc_hangs_prepare(const gc_chain *c)
{
    prepared_stmts = used ? c->nstmts : 0;
    if (used)
        keys_of(c, prepared);
}

int gc_hangs_may_run(int stmt, int trailer)
{
    if (stmt >= prepared_stmts)
        return 1;
    unsigned char *n = slot(prepared[stmt][trailer + 1], 0);
    if (!n || *n != CONFIRMED)
        return 1;
    gc_hangs_skipped++;
    return 0;
}
