/* fuzz_program.c — the fuzz_program target (fuzz_target.h): the program decoder alone
 * (program.h).  Any bytes decode without crashing, within bounds; the program's encoding
 * decodes to a program that prints the same in every dialect and encodes to the same bytes;
 * anything else is a finding, its reason printed.  No interpreter (test_program checks that
 * what is printed compiles). */
#include <stdio.h>
#include <string.h>

#include "fuzz_target.h"
#include "program.h"

int gc_fuzz_initialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static int same_print(const gc_program *a, const gc_program *b)
{
    int same = 1;
    for (unsigned dialect = 0; dialect < 8 && same; dialect++) { /* GC_DIALECT_PY312 too */
        gc_strbuf x, y;
        gc_sb_init(&x);
        gc_sb_init(&y);
        gc_program_print(a, dialect, &x);
        gc_program_print(b, dialect, &y);
        same = x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
        if (!same)
            fprintf(stderr, "round trip changed the program (dialect %u):\n%s---\n%s", dialect, x.data, y.data);
        gc_sb_free(&x);
        gc_sb_free(&y);
    }
    return same;
}

int gc_fuzz_test_one_input(const uint8_t *data, size_t size)
{
    static gc_program a, b;
    static uint8_t enc[4 * GC_P_MAX_INPUT], enc2[4 * GC_P_MAX_INPUT];
    gc_program_decode(data, size, &a);
    if (a.nexprs > GC_P_MAX_EXPRS || a.nstmts > GC_P_MAX_STMTS || a.arena_used > GC_P_ARENA) {
        fprintf(stderr, "decoded past a bound: %d expressions, %d statements, %u arena bytes\n", a.nexprs,
                a.nstmts, a.arena_used);
        return GC_FUZZ_FINDING;
    }
    size_t n = gc_program_encode(&a, enc, sizeof enc);
    if (n == 0 && a.nstmts > 0) {
        fprintf(stderr, "a decoded program does not encode in %zu bytes\n", sizeof enc);
        return GC_FUZZ_FINDING;
    }
    gc_program_decode(enc, n, &b);
    if (!same_print(&a, &b))
        return GC_FUZZ_FINDING;
    size_t n2 = gc_program_encode(&b, enc2, sizeof enc2);
    if (n2 != n || memcmp(enc, enc2, n) != 0) {
        fprintf(stderr, "encoding is not stable: %zu bytes, then %zu\n", n, n2);
        return GC_FUZZ_FINDING;
    }
    return GC_FUZZ_KEEP;
}

void gc_fuzz_cleanup(void) {}
