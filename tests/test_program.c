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
    for (unsigned dialect = 0; dialect < 8; dialect++) { /* PY312 compiled only where it is this CPython */
        printed(&a, dialect, sb);
        printed(&b, dialect, &s2);
        CHECK(strcmp(sb->data, s2.data) == 0, "round trip, dialect %u:\n%s---\n%s", dialect, sb->data, s2.data);
        if (!(dialect & GC_DIALECT_PY312) || PY_VERSION_HEX >= 0x030C0000)
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

/* One row of the language's table (docs/SOURCE.md, "The program language"): the ast nodes
 * it writes, its bytes, what it prints in the default dialect, and how many forms the
 * printer dropped there. */
typedef struct {
    const char *node;
    const uint8_t *in;
    size_t n;
    const char *want;
    int dropped;
} row;
#define ROW(node, want, dropped, ...) \
    {node, (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}), want, dropped}
#define N1(c) OP(NAME), 1, c

static const row rows[] = {
    ROW("Call.keywords, Starred, keyword(arg=None)", "f(*b, k=a, **d)\n", 0, N1('f'), N1('a'), OP(KW), 1, 'k',
        N1('b'), OP(STAR), N1('d'), OP(DSTAR), OP(CALL), 3, OP(EXPR)),
    ROW("keyword repeated", "f(k=a, **{'k': b})\n", 0, N1('f'), N1('a'), OP(KW), 1, 'k', N1('b'), OP(KW), 1, 'k',
        OP(CALL), 2, OP(EXPR)),
    ROW("Import, alias", "import os.path as q\nimport If.ba.b\n", 0, OP(IMPORT), 7, 'o', 's', '.', 'p', 'a', 't',
        'h', 1, 'q', OP(IMPORT), 9, 'i', 'f', '.', '1', 'a', '.', '.', 'b', '.', 0),
    ROW("ImportFrom", "from os import system as x\nfrom .. import y\nfrom x_future__ import z\n", 0, OP(FROM), 2,
        'o', 's', 6, 's', 'y', 's', 't', 'e', 'm', 1, 'x', OP(FROM), 2, '.', '.', 1, 'y', 0, OP(FROM), 10, '_',
        '_', 'f', 'u', 't', 'u', 'r', 'e', '_', '_', 1, 'z', 0),
    ROW("If", "if a:\n    b\nelse:\n    pass\n", 0, N1('a'), OP(IF), N1('b'), OP(EXPR), OP(ELSE)),
    ROW("While, Break, Continue, Pass", "while a:\n    break\n    continue\npass\n", 0, N1('a'), OP(WHILE),
        OP(BREAK), OP(CONTINUE), OP(END), OP(BREAK)),
    ROW("For.orelse", "for x in a:\n    pass\nelse:\n    pass\n", 0, N1('a'), OP(FOR), 1, 'x', OP(ELSE), OP(BREAK)),
    ROW("With, withitem", "with a as f:\n    with b:\n        pass\n", 0, N1('a'), OP(WITH), 1, 'f', N1('b'),
        OP(WITH), 0),
    ROW("ClassDef", "class C(B, metaclass=M):\n    def __eq__(self, *args, **kwargs):\n        return True\n"
        "    @d\n    def __repr__(self, *args, **kwargs):\n        pass\nclass D(B):\n    pass\n", 0,
        N1('B'), N1('M'), OP(KW), 9, 'm', 'e', 't', 'a', 'c', 'l', 'a', 's', 's', OP(TUPLE), 2, OP(CLASS), 1, 'C',
        OP(DEF), 6, '_', '_', 'e', 'q', '_', '_', OP(TRUE), OP(RETURN), OP(END), N1('d'), OP(DECO), OP(DEF), 8,
        '_', '_', 'r', 'e', 'p', 'r', '_', '_', OP(END), OP(END), N1('B'), OP(CLASS), 1, 'D'),
    ROW("BinOp, UnaryOp, IfExp", "((a ** b) if (not c) else d)\n", 0, N1('a'), N1('b'), OP(BINOP), 6, N1('c'),
        OP(UNARY), 0, N1('d'), OP(IFEXP), OP(EXPR)),
    ROW("Compare, BoolOp", "((a is not b) or c)\n", 0, N1('a'), N1('b'), OP(CMP), 7, N1('c'), OP(BOOLOP), 1,
        OP(EXPR)),
    ROW("Lambda", "[(lambda x=a: x), (lambda: 1)]\n", 0, N1('a'), N1('x'), OP(LAMBDAKW), 1, 'x', OP(INT), 1,
        OP(LAMBDA), 0, OP(LIST), 2, OP(EXPR)),
    ROW("Dict, Set", "({a: b, **c}, {a, *b})\n", 0, N1('a'), N1('b'), N1('c'), OP(DSTAR), N1('v'), OP(DICT), 2,
        N1('a'), N1('b'), OP(STAR), OP(SET), 1, OP(TUPLE), 2, OP(EXPR)),
    ROW("Slice", "a[1:2][::s]\n", 0, N1('a'), OP(INT), 1, OP(INT), 2, OP(SLICE), 3, N1('s'), OP(SLICE), 4, OP(EXPR)),
    ROW("DictComp, SetComp", "[{k: v for k in t}, {k for k in t}]\n", 0, N1('k'), N1('v'), N1('t'), OP(DICTCOMP),
        1, 'k', N1('k'), N1('t'), OP(SETCOMP), 1, 'k', OP(LIST), 2, OP(EXPR)),
    ROW("NamedExpr (dropped in a comprehension)", "y = (x := a)\n[x for x in t]\n", 1, N1('a'), OP(WALRUS), 1, 'x',
        OP(ASSIGN), 1, 'y', N1('x'), OP(WALRUS), 1, 'z', N1('t'), OP(COMP), 1, 'x', OP(EXPR)),
    ROW("Await (dropped outside an async def)", "async def f():\n    return (await a)\nb\n", 1, OP(ASYNCDEF), 1, 'f',
        N1('a'), OP(AWAIT), OP(RETURN), OP(END), N1('b'), OP(AWAIT), OP(EXPR)),
    ROW("JoinedStr, FormattedValue (dropped over a backslash)", "[f\"{ a :>10}\", '\\x80']\n", 1, N1('a'),
        OP(FSTR), 4, '>', '1', '0', '{', OP(STR), 1, 0x80, OP(FSTR), 0, OP(LIST), 2, OP(EXPR)),
    ROW("Constant (bytes, Ellipsis)", "(b'a\\x80', (...).x)\n", 0, OP(BYTES), 2, 'a', 0x80, OP(ELLIPSIS), OP(ATTR),
        1, 'x', OP(TUPLE), 2, OP(EXPR)),
    ROW("Assign to Starred, Attribute (a call dropped)", "(a, *b) = c\na.x = v\nv\n", 1, N1('a'), N1('b'),
        OP(STAR), OP(TUPLE), 2, N1('c'), OP(STORE), N1('a'), OP(ATTR), 1, 'x', N1('v'), OP(STORE), N1('f'),
        OP(CALL), 0, N1('v'), OP(STORE)),
    ROW("AugAssign, Subscript, AnnAssign", "a[1] += 1\nx: t = v\n", 0, N1('a'), OP(INT), 1, OP(ITEM), OP(INT), 1,
        OP(AUG), 0, N1('t'), N1('v'), OP(ANN), 1, 'x'),
    ROW("Delete", "del (a.x, b)\nf()\n", 1, N1('a'), OP(ATTR), 1, 'x', N1('b'), OP(TUPLE), 2, OP(DEL), N1('f'),
        OP(CALL), 0, OP(DEL)),
    ROW("Raise, Assert", "raise e\nraise e from c\nassert a, 'm'\n", 0, N1('e'), OP(RAISE), N1('e'), N1('c'),
        OP(RAISEFROM), N1('a'), OP(STR), 1, 'm', OP(ASSERT)),
    ROW("Global, Nonlocal", "def f():\n    x = v\n    def g():\n        nonlocal x\n        global y\n"
        "        pass\n        q = v\n        pass\n", 2, OP(DEF), 1, 'f', N1('v'), OP(ASSIGN), 1, 'x', OP(DEF), 1,
        'g', OP(NONLOCAL), 1, 'x', OP(GLOBAL), 1, 'y', OP(NONLOCAL), 1, 'w', N1('v'), OP(ASSIGN), 1, 'q',
        OP(GLOBAL), 1, 'q'),
    ROW("Global after a use, naming a parameter (dropped)", "q\npass\nclass C(B):\n    def m(self, *args, **kwargs):\n"
        "        pass\n        global z\n", 2, N1('q'), OP(EXPR), OP(GLOBAL), 1, 'q', N1('B'), OP(CLASS), 1, 'C',
        OP(DEF), 1, 'm', OP(GLOBAL), 4, 's', 'e', 'l', 'f', OP(GLOBAL), 1, 'z'),
    ROW("YieldFrom", "def g():\n    yield from a\nasync def h():\n    b\n", 0, OP(DEF), 1, 'g', N1('a'),
        OP(YIELDFROM), OP(END), OP(ASYNCDEF), 1, 'h', N1('b'), OP(YIELDFROM)),
    ROW("decorator_list", "@d\n@e()\ndef f():\n    pass\nd\nx\n", 1, N1('d'), OP(DECO), N1('e'), OP(CALL), 0,
        OP(DECO), OP(DEF), 1, 'f', OP(END), N1('d'), OP(DECO), N1('x'), OP(EXPR)),
    ROW("AsyncFor, AsyncWith", "async def f():\n    async for x in a:\n        async with b:\n            pass\n"
        "for y in a:\n    pass\n", 0, OP(ASYNCDEF), 1, 'f', N1('a'), OP(ASYNCFOR), 1, 'x', N1('b'),
        OP(ASYNCWITH), 0, OP(END), OP(END), OP(END), N1('a'), OP(ASYNCFOR), 1, 'y'),
    ROW("TryStar", "try:\n    a\nexcept* Exception as e:\n    e\n", 0, OP(TRY), N1('a'), OP(EXPR), OP(EXCEPTSTAR),
        1, 'e', N1('e'), OP(RETURN)),
    ROW("Match, MatchClass, MatchAs (wildcard)", "match s:\n    case C(__class__=x):\n        x\n    case _:\n"
        "        pass\n", 0, N1('s'), OP(MATCH), N1('C'), N1('x'), OP(KW), 9, '_', '_', 'c', 'l', 'a', 's', 's', '_',
        '_', OP(CALL), 1, OP(CASE), N1('x'), OP(EXPR), N1('_'), OP(CASE)),
    ROW("MatchSequence, MatchStar, MatchMapping, MatchOr, MatchValue, MatchSingleton, MatchAs",
        "match s:\n    case [1, *r, y]:\n        pass\n    case {'k': (None | a.b), **m}:\n        pass\n"
        "    case x if True:\n        pass\n    case (y as z):\n        pass\n", 0, N1('s'), OP(MATCH), OP(INT), 1,
        N1('r'), OP(STAR), N1('y'), OP(LIST), 3, OP(CASE), OP(STR), 1, 'k', OP(NONE), N1('a'), OP(ATTR), 1, 'b',
        OP(BOOLOP), 1, N1('m'), OP(DSTAR), N1('v'), OP(DICT), 2, OP(CASE), N1('x'), OP(CASE), N1('y'), OP(WALRUS),
        1, 'z', OP(CASE)),
    ROW("match: a name bound twice (dropped), no case, no other statement", "match s:\n    case [a, None]:\n"
        "        pass\nmatch t:\n    case _:\n        pass\n", 1, N1('s'), OP(MATCH), N1('a'), N1('a'), OP(LIST), 2,
        OP(CASE), OP(END), OP(END), N1('t'), OP(MATCH), N1('q'), OP(EXPR), OP(END)),
    ROW("match: an or-pattern binds nothing, a mapping's key once (1 is True)", "match s:\n"
        "    case (None | None):\n        pass\n    case {'k': a}:\n        pass\n    case {1: a}:\n        pass\n",
        4, N1('s'), OP(MATCH), N1('a'), N1('b'), OP(BOOLOP), 0, OP(CASE), OP(STR), 1, 'k', N1('a'), OP(STR), 1, 'k',
        N1('b'), OP(DICT), 2, OP(CASE), OP(INT), 1, N1('a'), OP(TRUE), N1('b'), OP(DICT), 2, OP(CASE)),
};

/* 3.12's type statement and type parameters: written where the dialect says the CPython
 * has them (and compiled there), else dropped and counted. */
static void type_params(gc_strbuf *sb)
{
    const uint8_t in[] = {OP(TPARAM), 1, 'T', 0, OP(TPARAM), 2, 'T', 's', 1, N1('d'), OP(DECO), OP(TPARAM), 1, 'P', 2,
                          OP(TPARAM), 1, 'T', 0, N1('B'), N1('x'), OP(WALRUS), 1, 'y', OP(TUPLE), 2, OP(CLASS), 1, 'C',
                          OP(END), OP(TPARAM), 1, 'U', 0, N1('T'), OP(TYPEALIAS), 1, 'X', N1('v'), OP(TYPEALIAS), 1,
                          'Y', OP(TPARAM), 1, 'Z', 1};
    check_input(in, sizeof in, sb);
    CHECK(strcmp(sb->data, "@d\nclass C(B, (y := x)):\n    pass\nX = T\nY = v\npass\n") == 0, "before 3.12:\n%s",
          sb->data);
    gc_sb_clear(sb);
    int dropped = gc_program_print(&a, 0, sb);
    CHECK(dropped == 8, "before 3.12: %d dropped, not 8", dropped); /* 5 parameters, Z alone, 2 aliases */
    gc_sb_clear(sb);
    dropped = gc_program_print(&a, GC_DIALECT_PY312, sb);
    CHECK(strcmp(sb->data, "@d\nclass C[T, *Ts, **P](B, x):\n    pass\ntype X[U] = T\ntype Y = v\npass\n") == 0,
          "3.12:\n%s", sb->data);
    CHECK(dropped == 3, "3.12: %d dropped, not 3", dropped); /* T twice, the walrus, Z alone */
    if (PY_VERSION_HEX >= 0x030C0000)
        CHECK(check_compiles(sb->data), "3.12 does not compile:\n%s", sb->data);
    /* in a class body, 3.12.1 refuses a lambda or a comprehension in a type alias's value */
    const uint8_t in_class[] = {N1('B'), OP(CLASS), 1, 'A', N1('v'), OP(LAMBDA), 0, OP(TYPEALIAS), 1, 'X'};
    check_input(in_class, sizeof in_class, sb);
    gc_sb_clear(sb);
    dropped = gc_program_print(&a, GC_DIALECT_PY312, sb);
    CHECK(strcmp(sb->data, "class A(B):\n    type X = v\n") == 0 && dropped == 1, "in a class (%d dropped):\n%s",
          dropped, sb->data);
}

/* Every row prints as it says, compiles (check_input: in every dialect, and round-trips),
 * and drops what it says. */
static void table(gc_strbuf *sb)
{
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        check_input(rows[r].in, rows[r].n, sb);
        CHECK(strcmp(sb->data, rows[r].want) == 0, "%s:\n%s", rows[r].node, sb->data);
        gc_sb_clear(sb);
        int dropped = gc_program_print(&a, 0, sb);
        CHECK(dropped == rows[r].dropped, "%s: %d dropped, not %d", rows[r].node, dropped, rows[r].dropped);
    }
    /* a decorated def is one step with its decorators; a '_' attribute is no target where
     * the dialect hides it; the expression dialect prints an assignment's value */
    const row *deco = rows;
    while (strcmp(deco->node, "decorator_list") != 0)
        deco++;
    check_input(deco->in, deco->n, sb);
    printed(&a, 2u << GC_DIALECT_STEPS_SHIFT, sb);
    CHECK(strcmp(sb->data, "@d\n@e()\ndef f():\n    pass\n" GC_STEP_MARKER "\nd\nx\n") == 0, "steps:\n%s", sb->data);
    const uint8_t under[] = {N1('a'), OP(ATTR), 2, '_', 'x', N1('v'), OP(STORE)};
    check_input(under, sizeof under, sb);
    CHECK(strcmp(sb->data, "a._x = v\n") == 0, "store:\n%s", sb->data);
    printed(&a, GC_DIALECT_NO_UNDERSCORE, sb);
    CHECK(strcmp(sb->data, "v\n") == 0, "no '_' target:\n%s", sb->data);
    printed(&a, GC_DIALECT_EXPRESSION, sb);
    CHECK(strcmp(sb->data, "v\n") == 0, "expression dialect:\n%s", sb->data);
    /* IMPORT's two strings are one op for the minimizer, of no one operand kind */
    uint8_t enc[64];
    gc_p_operand kind;
    check_input(rows[2].in, rows[2].n, sb);
    size_t n = gc_program_encode(&a, enc, sizeof enc);
    CHECK(n > 0 && gc_program_op_len(enc, n, 0, &kind) == 11 && kind == GC_P_OPERAND_NONE, "IMPORT's operands");
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
    table(&sb);
    type_params(&sb);
    gc_sb_free(&sb);
}

/* Random inputs (a fixed seed and count): each one's properties (check_input: every print
 * compiles, in every dialect), and every opcode but END among their programs' nodes and
 * statements, so that they are what this checks. */
static void random_inputs(int n)
{
    static uint8_t buf[GC_P_MAX_INPUT + 64];
    uint32_t seed = 12345;
    int seen[GC_P_NOPS] = {0}, dropped = 0;
    gc_strbuf sb;
    gc_sb_init(&sb);
    for (int k = 0; k < n; k++) {
        size_t len = gc_xorshift32(&seed) % (k % 10 == 0 ? sizeof buf : 200);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)gc_xorshift32(&seed);
        int before = failures;
        check_input(buf, len, &sb);
        for (int i = 0; i < a.nexprs; i++)
            seen[a.e[i].op]++;
        for (int i = 0; i < a.nstmts; i++)
            seen[a.s[i].op]++;
        gc_sb_clear(&sb);
        dropped += gc_program_print(&a, 0, &sb) > 0;
        if (failures > before + 20)
            break;
    }
    for (int op = 0; op < GC_P_NOPS; op++)
        CHECK(seen[op] > 0 || op == GC_P_END, "opcode %d is in no random program", op);
    printf("random inputs: %d, every print compiled; %d printed with a form dropped\n", n, dropped);
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
