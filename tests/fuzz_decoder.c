/* fuzz_decoder.c — libFuzzer target for the chain decoder alone: any bytes decode
 * (leniently) without crashing, within bounds, and whatever decodes prints to text that
 * decodes strictly back to the same chain.  No interpreter involved. */
#include <stdio.h>
#include <stdlib.h>

#include "chain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gc_chain a, b;
    gc_parse_error err;
    gc_chain_parse(data, size, GC_PARSE_LENIENT, &a, NULL);
    if (a.nstmts > GC_MAX_STMTS)
        abort();
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_chain_print(&a, &sb);
    if (gc_chain_parse((const uint8_t *)sb.data, sb.len, GC_PARSE_STRICT, &b, &err) != 0) {
        fprintf(stderr, "printed chain does not parse: %d:%d %s\n%s", err.line, err.col, err.msg, sb.data);
        abort();
    }
    if (!gc_chain_equal(&a, &b)) {
        fprintf(stderr, "round trip changed the chain:\n%s", sb.data);
        abort();
    }
    /* strict decoding of the raw bytes must not crash either */
    gc_chain_parse(data, size, GC_PARSE_STRICT, &b, &err);
    gc_sb_free(&sb);
    return 0;
}
