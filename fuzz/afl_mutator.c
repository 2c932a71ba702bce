/* afl_mutator.c — the chain-aware mutator (mutator.c) as an AFL++ custom mutator library
 * (libgatecrash_afl_mutator.so, loaded by afl-fuzz through AFL_CUSTOM_MUTATOR_LIBRARY).
 *
 * It runs inside afl-fuzz, not in the target: there is no Python here, so the mutator edits
 * blind (no probe of the value at the end of a statement).  What it knows of the gate comes
 * from the environment `gatecrash fuzz --engine afl` sets: GATECRASH_MUTATOR_ROOTS (the names
 * the gate put in the namespace) and GATECRASH_MUTATOR_TARGETS (the forbidden primitives'
 * short names), comma-separated, and GATECRASH_MUTATOR_WORDS (a file of the words harvested
 * for calls' arguments, harvest.h: "g WORD" for the gate module's own, "o WORD" for the rest).  AFL++'s own havoc, splice and dictionary stages still run:
 * this stage adds chain-level edits and splices of two queue entries. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutator.h"
#include "rng.h"

#define OUT_MAX 8192

typedef struct {
    uint32_t rng;
    uint8_t out[OUT_MAX];
    char *roots_buf, *targets_buf;
} gc_afl_mutator;

static uint32_t next(gc_afl_mutator *m) { return gc_xorshift32(&m->rng); }

/* "a,b,c" → a vector of pointers into a private copy. */
static int split_list(const char *env, char **copy, const char **out, int max)
{
    const char *v = getenv(env);
    *copy = v ? strdup(v) : NULL;
    int n = 0;
    for (char *p = *copy, *save = NULL, *tok; p && n < max && (tok = strtok_r(p, ",", &save)); p = NULL)
        out[n++] = tok;
    return n;
}

/* The harvested words of GATECRASH_MUTATOR_WORDS into the mutator. */
static void load_words(void)
{
    const char *path = getenv("GATECRASH_MUTATOR_WORDS");
    FILE *f = path ? fopen(path, "r") : NULL;
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *w = line + 2;
        if (strlen(line) > 2 && line[1] == ' ')
            gc_mutator_add_words(&w, 1, line[0] == 'g');
    }
    if (f)
        fclose(f);
}

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    gc_afl_mutator *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->rng = seed ? seed : 0x9e3779b9u;
    static const char *roots[64], *targets[256];
    int nr = split_list("GATECRASH_MUTATOR_ROOTS", &m->roots_buf, roots, 64);
    int nt = split_list("GATECRASH_MUTATOR_TARGETS", &m->targets_buf, targets, 256);
    gc_mutator_set_roots(roots, nr);
    gc_mutator_set_targets(targets, nt);
    load_words();
    return m;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size)
{
    gc_afl_mutator *m = data;
    size_t cap = max_size < OUT_MAX ? max_size : OUT_MAX;
    size_t n = 0;
    unsigned seed = next(m);
    /* one edit in four splices another queue entry in, when afl-fuzz offers one */
    if (add_buf && add_buf_size && seed % 4 == 0)
        n = gc_crossover_chain(buf, buf_size, add_buf, add_buf_size, m->out, cap, next(m));
    if (!n) {
        n = buf_size < cap ? buf_size : cap;
        memcpy(m->out, buf, n);
        n = gc_mutate_chain(m->out, n, cap, next(m));
    }
    if (!n) { /* nothing chain-level applies: flip one byte, as havoc would */
        n = buf_size < cap ? buf_size : cap;
        memcpy(m->out, buf, n);
        if (n)
            m->out[next(m) % n] ^= (uint8_t)(1u << (next(m) % 8));
        else
            m->out[n++] = 'x';
    }
    *out_buf = m->out;
    return n;
}

void afl_custom_deinit(void *data)
{
    gc_afl_mutator *m = data;
    if (m) {
        free(m->roots_buf);
        free(m->targets_buf);
        free(m);
    }
}
