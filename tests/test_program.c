/* test_program.c — the program IR (program.h): decoding hand-written and random bytes stays
 * in bounds, encoding round-trips (decode(encode(p)) prints as p, and encodes the same), and
 * everything printed compiles as Python in both dialects (checked with the embedded
 * CPython's own compiler: only compile(), nothing runs). */
#include <Python.h>
#include <string.h>

#include "check.h"
#include "pycheck.h"
#include "program.h"
#include "rng.h"

static gc_program a, b;

static void printed(const gc_program *p, unsigned dialect, gc_strbuf *sb)
{
    gc_sb_clear(sb);
    gc_program_print(p, dialect, sb);
}

/* The properties on one input; returns the printed default dialect in 'sb'. */
static void check_input(const uint8_t *d, size_t n, gc_strbuf *sb)
{
    static uint8_t enc[2 * GC_P_MAX_INPUT + 1024], enc2[2 * GC_P_MAX_INPUT + 1024];
    gc_strbuf s2;
    gc_sb_init(&s2);
    gc_program_decode(d, n, &a);
    CHECK(a.nexprs <= GC_P_MAX_EXPRS && a.nstmts <= GC_P_MAX_STMTS && a.arena_used <= GC_P_ARENA, "bounds");
    size_t len = gc_program_encode(&a, enc, sizeof enc);
    CHECK(len > 0 || a.nstmts == 0, "encode fits");
    gc_program_decode(enc, len, &b);
    for (unsigned dialect = 0; dialect < 4; dialect++) {
        printed(&a, dialect, sb);
        printed(&b, dialect, &s2);
        CHECK(strcmp(sb->data, s2.data) == 0, "round trip, dialect %u:\n%s---\n%s", dialect, sb->data, s2.data);
        CHECK(check_compiles(sb->data), "dialect %u does not compile:\n%s", dialect, sb->data);
    }
    size_t len2 = gc_program_encode(&b, enc2, sizeof enc2);
    CHECK(len2 == len && memcmp(enc, enc2, len) == 0, "encoding is stable");
    printed(&a, 0, sb);
    gc_sb_free(&s2);
}

#define OP(x) GC_P_##x
/* The opcodes after FOR: field walks with [key] parts (format and format_map), ==, a
 * filtered comprehension, async def, yield; and a GEN's name is one operand, not opcodes. */
static void new_ops(gc_strbuf *sb)
{
    const uint8_t walk[] = {OP(NAME), 1, 'x', OP(FIELD), 9, '_', '_', 'c', '[', 'k', ']', '.', 'y', '{', OP(EXPR),
                            OP(NAME), 1, 'x', OP(FMTMAP), 3, '[', '0', ']', OP(EXPR), OP(NAME), 1, 'x', OP(FIELD),
                            0, OP(EXPR)};
    check_input(walk, sizeof walk, sb);
    CHECK(strcmp(sb->data, "'{0.__c[k].y}'.format(x)\n'{k[0]}'.format_map({'k': x})\n'{0}'.format(x)\n") == 0,
          "field walks:\n%s", sb->data);
    printed(&a, GC_DIALECT_NO_UNDERSCORE, sb);
    CHECK(strstr(sb->data, "'{0.__c[k].y}'") != NULL, "a field's '_' names stay data:\n%s", sb->data);
    const uint8_t filter[] = {OP(ASYNCDEF), 1, 'f', OP(NAME), 1, 'c', OP(NAME), 1, 'X', OP(NAME), 1, 'c', OP(ATTR),
                              1, 'n', OP(STR), 1, 'W', OP(EQ), OP(FILTER), 1, 'c', OP(INT), 0, OP(ITEM), OP(RETURN),
                              OP(END), OP(NAME), 1, 'g', OP(INT), 1, OP(GEN), 2, 'x', 'y', OP(EXPR)};
    check_input(filter, sizeof filter, sb);
    CHECK(strcmp(sb->data, "async def f():\n    return [c for c in X if (c.n == 'W')][0]\n(g for xy in 1)\n") == 0,
          "filter, async def:\n%s", sb->data);
    uint8_t enc[64];
    gc_p_operand kind;
    size_t n = gc_program_encode(&a, enc, sizeof enc);
    CHECK(n > 0 && gc_program_op_len(enc, n, n - 5, &kind) == 4 && kind == GC_P_OPERAND_STR,
          "GEN's name is its operand");
    /* yield: in a def; outside one an expression; in an async def that returns a value (or
     * a return after its yield) the later one an expression, as an async generator cannot
     * return a value (printed as both, it would not compile) */
    const uint8_t yield[] = {OP(ASYNCDEF), 1, 'f', OP(NAME), 1, 'a', OP(YIELD), OP(NAME), 1, 'b', OP(RETURN),
                             OP(END), OP(NAME), 1, 'c', OP(YIELD), OP(ASYNCDEF), 1, 'h', OP(NAME), 1, 'r',
                             OP(RETURN), OP(NAME), 1, 'y', OP(YIELD), OP(END), OP(DEF), 1, 'g', OP(NAME), 1, 'd',
                             OP(RETURN), OP(NAME), 1, 'e', OP(YIELD)};
    check_input(yield, sizeof yield, sb);
    CHECK(strcmp(sb->data, "async def f():\n    yield a\n    b\nc\nasync def h():\n    return r\n    y\n"
                           "def g():\n    return d\n    yield e\n") == 0,
          "yield:\n%s", sb->data);
}

static void hand_written(void)
{
    gc_strbuf sb;
    gc_sb_init(&sb);
    /* try: e = ().__class__ except Exception as err: result = err.obj */
    const uint8_t walk[] = {OP(TRY), OP(TUPLE), 0, OP(ATTR), 9, '_', '_', 'c', 'l', 'a', 's', 's', '_', '_',
                            OP(ASSIGN), 1, 'e', OP(EXCEPT), 3, 'e', 'r', 'r', OP(NAME), 3, 'e', 'r', 'r',
                            OP(ATTR), 3, 'o', 'b', 'j', OP(ASSIGN), 6, 'r', 'e', 's', 'u', 'l', 't'};
    check_input(walk, sizeof walk, &sb);
    CHECK(strcmp(sb.data, "try:\n    e = ().__class__\nexcept Exception as err:\n    result = err.obj\n") == 0,
          "walk:\n%s", sb.data);
    printed(&a, GC_DIALECT_NO_UNDERSCORE, &sb);
    CHECK(strstr(sb.data, "e = getattr((), '__class__')") != NULL, "dialect hides the walk:\n%s", sb.data);
    /* '{0.__class__}'.format(1), a call with a list and a string, a comprehension, a def */
    const uint8_t more[] = {OP(INT), 1, OP(FMT), 9, '_', '_', 'c', 'l', 'a', 's', 's', '_', '_', OP(EXPR),
                            OP(NAME), 1, 'f', OP(INT), 0xfe, OP(LIST), 1, OP(STR), 2, '\'', 0x80, OP(CALL), 2,
                            OP(EXPR), OP(DEF), 1, 'g', OP(NAME), 1, 'x', OP(NAME), 1, 'y', OP(COMP), 1, 'x',
                            OP(RETURN), OP(END), OP(RETURN) /* outside def: an expression */};
    check_input(more, sizeof more, &sb);
    CHECK(strcmp(sb.data, "'{0.__class__}'.format(1)\nf([(-2)], '\\'\\x80')\ndef g():\n    return [x for x in y]\n") == 0,
          "more:\n%s", sb.data);
    /* keywords and bad bytes in names, an empty try, a try without except, nested blocks */
    const uint8_t odd[] = {OP(NONE), OP(ASSIGN), 2, 'i', 'f', OP(TRUE), OP(ASSIGN), 3, '9', '-', 'z', OP(TRY),
                           OP(TRY), OP(DEF), 0, OP(END), OP(END), OP(END), OP(FALSE), OP(EXPR)};
    check_input(odd, sizeof odd, &sb);
    CHECK(strcmp(sb.data, "if_ = None\njtz = True\ntry:\n    try:\n        def x():\n            pass\n"
                          "    except Exception:\n        pass\nexcept Exception:\n    pass\nFalse\n") == 0,
          "odd:\n%s", sb.data);
    printed(&a, GC_DIALECT_EXPRESSION, &sb);
    CHECK(strcmp(sb.data, "False\n") == 0, "expression dialect: %s", sb.data);
    /* a generator consumed by a for loop inside a def; an empty for body; a for at the end */
    const uint8_t gen[] = {OP(DEF), 1, 'f', OP(NAME), 1, 'g', OP(ATTR), 8, 'g', 'i', '_', 'f', 'r', 'a', 'm', 'e',
                           OP(INT), 1, OP(LIST), 1, OP(GEN), 1, 'x', OP(ASSIGN), 1, 'g', OP(NAME), 1, 'g', OP(FOR),
                           1, 'b', OP(NAME), 1, 'b', OP(RETURN), OP(END), OP(END), OP(NAME), 1, 'f', OP(CALL), 0,
                           OP(FOR), 1, 'v', OP(END), OP(NONE), OP(FOR), 2, 'i', 'n'};
    check_input(gen, sizeof gen, &sb);
    CHECK(strcmp(sb.data, "def f():\n    g = (g.gi_frame for x in [1])\n    for b in g:\n        return b\n"
                          "for v in f():\n    pass\nfor in_ in None:\n    pass\n") == 0,
          "generator:\n%s", sb.data);
    /* steps (target.json "steps": 2): a marker before the second top-level statement only,
     * not inside a block, none past the N-th */
    printed(&a, 2u << GC_DIALECT_STEPS_SHIFT, &sb);
    CHECK(strcmp(sb.data, "def f():\n    g = (g.gi_frame for x in [1])\n    for b in g:\n        return b\n"
                          GC_STEP_MARKER "\nfor v in f():\n    pass\nfor in_ in None:\n    pass\n") == 0,
          "steps:\n%s", sb.data);
    printed(&a, GC_DIALECT_EXPRESSION | (2u << GC_DIALECT_STEPS_SHIFT), &sb);
    CHECK(strchr(sb.data, '#') == NULL, "no steps in the expression dialect:\n%s", sb.data);
    new_ops(&sb);
    gc_sb_free(&sb);
}

static void random_inputs(int n)
{
    static uint8_t buf[GC_P_MAX_INPUT + 64];
    uint32_t seed = 12345;
    gc_strbuf sb;
    gc_sb_init(&sb);
    for (int k = 0; k < n; k++) {
        size_t len = gc_xorshift32(&seed) % (k % 10 == 0 ? sizeof buf : 200);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)gc_xorshift32(&seed);
        int before = failures;
        check_input(buf, len, &sb);
        if (failures > before + 20)
            break;
    }
    gc_sb_free(&sb);
}

int main(void)
{
    Py_InitializeEx(0);
    PyRun_SimpleString("import warnings\nwarnings.simplefilter(\"ignore\")\n"); /* SyntaxWarnings */
    hand_written();
    random_inputs(3000);
    Py_FinalizeEx();
    return check_summary();
}
