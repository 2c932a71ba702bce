/* gen_source_seeds.c — writes (or, with --check, compares) corpus-source/: source mode's seed
 * corpus, generic programs in the program IR's bytes (program.h), one file each.  Each seed
 * is spelled here in opcodes, decoded, checked to print as the source beside it, and written
 * as its canonical encoding (what the mutator's outputs are).  No seed names an attribute
 * of any sandbox or any escape: they are the shapes a program is built from.
 *     gen_source_seeds DIR            write DIR/<name> for every seed
 *     gen_source_seeds --check DIR    exit 1 unless DIR holds exactly these bytes */
#include <stdio.h>
#include <string.h>

#include "program.h"

#define OP(x) GC_P_##x
#define S1(a) 1, a
#define RESULT 6, 'r', 'e', 's', 'u', 'l', 't'

typedef struct {
    const char *name, *source;
    uint8_t bytes[96];
    size_t len;
} seed;

#define SEED(n, src, ...) {n, src, {__VA_ARGS__}, sizeof((uint8_t[]){__VA_ARGS__})}
static const seed seeds[] = {
    SEED("root", "result = str\n", OP(NAME), 3, 's', 't', 'r', OP(ASSIGN), RESULT),
    SEED("call", "result = str(1)\n", OP(NAME), 3, 's', 't', 'r', OP(INT), 1, OP(CALL), 1, OP(ASSIGN), RESULT),
    SEED("method", "result = 'abc'.upper()\n", OP(STR), 3, 'a', 'b', 'c', OP(ATTR), 5, 'u', 'p', 'p', 'e', 'r',
         OP(CALL), 0, OP(ASSIGN), RESULT),
    SEED("comprehension", "result = [x for x in [1, 2]]\n", OP(NAME), S1('x'), OP(INT), 1, OP(INT), 2, OP(LIST), 2,
         OP(COMP), S1('x'), OP(ASSIGN), RESULT),
    SEED("generator", "g = (x for x in [1])\nresult = [y for y in g]\n", OP(NAME), S1('x'), OP(INT), 1, OP(LIST), 1,
         OP(GEN), S1('x'), OP(ASSIGN), S1('g'), OP(NAME), S1('y'), OP(NAME), S1('g'), OP(COMP), S1('y'),
         OP(ASSIGN), RESULT),
    SEED("def", "def f():\n    return 1\nresult = f()\n", OP(DEF), S1('f'), OP(INT), 1, OP(RETURN), OP(END),
         OP(NAME), S1('f'), OP(CALL), 0, OP(ASSIGN), RESULT),
    SEED("for", "for v in [1]:\n    result = v\n", OP(INT), 1, OP(LIST), 1, OP(FOR), S1('v'), OP(NAME), S1('v'),
         OP(ASSIGN), RESULT, OP(END)),
    SEED("try", "try:\n    result = str(1).x\nexcept Exception as e:\n    result = e\n", OP(TRY), OP(NAME), 3, 's',
         't', 'r', OP(INT), 1, OP(CALL), 1, OP(ATTR), S1('x'), OP(ASSIGN), RESULT, OP(EXCEPT), S1('e'), OP(NAME),
         S1('e'), OP(ASSIGN), RESULT, OP(END)),
};

int main(int argc, char **argv)
{
    int check = argc == 3 && strcmp(argv[1], "--check") == 0, bad = 0;
    if (argc != 2 + check) {
        fprintf(stderr, "usage: gen_source_seeds [--check] DIR\n");
        return 2;
    }
    static gc_program p;
    static uint8_t enc[512], old[512];
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        const seed *s = &seeds[i];
        gc_strbuf src;
        gc_sb_init(&src);
        gc_program_decode(s->bytes, s->len, &p);
        gc_program_print(&p, 0, &src);
        size_t len = gc_program_encode(&p, enc, sizeof enc);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1 + check], s->name);
        if (strcmp(src.data, s->source) != 0) {
            fprintf(stderr, "%s prints as\n%sinstead of\n%s", s->name, src.data, s->source);
            bad = 1;
        }
        FILE *f = fopen(path, check ? "rb" : "wb");
        size_t n = f && check ? fread(old, 1, sizeof old, f) : 0;
        if (!f || (!check && fwrite(enc, 1, len, f) != len) || (check && (n != len || memcmp(old, enc, len) != 0))) {
            fprintf(stderr, "%s: %s\n", path, f ? "differs from the seed spelled in gen_source_seeds.c" : "cannot open");
            bad = 1;
        }
        if (f)
            fclose(f);
        gc_sb_free(&src);
    }
    return bad;
}
