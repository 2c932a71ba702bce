/* fuzz_decoder.c — the fuzz_decoder target (fuzz_target.h): the chain decoder alone.  Any
 * bytes decode (leniently) without crashing, within bounds, and whatever decodes prints to
 * text that decodes strictly back to the same chain; anything else is a finding, its
 * reason printed.  No interpreter involved, no options, no mutator of its own. */
#include <stdio.h>
#include <stdlib.h>

#include "chain.h"
#include "fuzz_target.h"

int gc_fuzz_initialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int gc_fuzz_test_one_input(const uint8_t *data, size_t size)
{
    static gc_chain a, b;
    gc_parse_error err;
    int verdict = GC_FUZZ_KEEP;
    gc_chain_parse(data, size, GC_PARSE_LENIENT, &a, NULL);
    if (a.nstmts > GC_MAX_STMTS) {
        fprintf(stderr, "decoded %d statements, more than %d\n", a.nstmts, GC_MAX_STMTS);
        return GC_FUZZ_FINDING;
    }
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_chain_print(&a, &sb);
    if (gc_chain_parse((const uint8_t *)sb.data, sb.len, GC_PARSE_STRICT, &b, &err) != 0) {
        fprintf(stderr, "printed chain does not parse: %d:%d %s\n%s", err.line, err.col, err.msg, sb.data);
        verdict = GC_FUZZ_FINDING;
    } else if (!gc_chain_equal(&a, &b)) {
        fprintf(stderr, "round trip changed the chain:\n%s", sb.data);
        verdict = GC_FUZZ_FINDING;
    }
    gc_sb_free(&sb);
    /* strict decoding of the raw bytes must not crash either */
    if (verdict == GC_FUZZ_KEEP)
        gc_chain_parse(data, size, GC_PARSE_STRICT, &b, &err);
    return verdict;
}

void gc_fuzz_cleanup(void) {}
