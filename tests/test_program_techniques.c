/* test_program_techniques.c — the named technique edits (program_mutator.h): each one, from
 * generic seed programs, makes the shape of its published class (a format-field walk, an
 * object read back from an exception, a call with the program's own values, a frame walk, a
 * class picked by name, a dunder method called, a path resolver of the standard library, an
 * import of a loaded module, a callable passed where one is taken, a string made from parts, a
 * class whose dunder the host calls, an attribute read by a class pattern), with every output canonical and compiling
 * in every dialect; they compose with each other, and gc_program_mutate draws them.  Each
 * count below is 0 when its technique is left out. */
#include <Python.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pycheck.h"
#include "program.h"
#include "program_mutator.h"
#include "rng.h"

#define OP(x) GC_P_##x
#define RESULT 6, 'r', 'e', 's', 'u', 'l', 't'
typedef struct {
    const uint8_t *d;
    size_t n;
} seed;
#define SEED(...) {(const uint8_t[]){__VA_ARGS__}, sizeof((uint8_t[]){__VA_ARGS__})}
static const seed seeds[] = {
    SEED(OP(NAME), 1, 'x', OP(ATTR), 1, 'y', OP(ATTR), 1, 'z', OP(ASSIGN), RESULT), /* result = x.y.z */
    /* f = str / result = f(1) */
    SEED(OP(NAME), 3, 's', 't', 'r', OP(ASSIGN), 1, 'f', OP(NAME), 1, 'f', OP(INT), 1, OP(CALL), 1, OP(ASSIGN), RESULT),
    /* result = x.get('', [x]) */
    SEED(OP(NAME), 1, 'x', OP(ATTR), 3, 'g', 'e', 't', OP(STR), 0, OP(NAME), 1, 'x', OP(LIST), 1, OP(CALL), 2,
         OP(ASSIGN), RESULT),
    /* try: / result = x.y / except Exception as e: / result = e */
    SEED(OP(TRY), OP(NAME), 1, 'x', OP(ATTR), 1, 'y', OP(ASSIGN), RESULT, OP(EXCEPT), 1, 'e', OP(NAME), 1, 'e',
         OP(ASSIGN), RESULT, OP(END)),
};
#define NSEEDS ((int)(sizeof seeds / sizeof seeds[0]))

static gc_program p;
static gc_pm_dict dict;

/* The invariants on one output (canonical, compiles in every dialect); its source in the
 * default dialect into sb, the no-underscore one into nu. */
static int check_output(const uint8_t *d, size_t n, size_t max, gc_strbuf *sb, gc_strbuf *nu)
{
    static uint8_t enc[GC_P_MAX_INPUT * 2];
    int before = failures;
    CHECK(n <= max, "output of %zu bytes past max_size %zu", n, max);
    gc_program_decode(d, n, &p);
    size_t len = gc_program_encode(&p, enc, sizeof enc);
    CHECK(p.nstmts > 0 && len == n && memcmp(enc, d, n) == 0, "output is canonical (%zu bytes, re-encoded %zu)", n,
          len);
    for (unsigned dialect = GC_DIALECT_EXPRESSION + 1; dialect-- > 0;) {
        gc_strbuf *out = dialect == GC_DIALECT_NO_UNDERSCORE ? nu : sb;
        gc_sb_clear(out);
        gc_program_print(&p, dialect, out);
        CHECK(check_compiles(out->data), "dialect %u does not compile:\n%s", dialect, out->data);
    }
    gc_sb_clear(sb);
    gc_program_print(&p, 0, sb);
    return failures == before;
}

/* Technique t from every seed, 'runs' times each, chained 'steps' edits long: how many
 * outputs hold each of the strings in want[] (counts[k]), in the default dialect or, for a
 * string starting with '~', in the no-underscore one. */
static void apply(gc_pm_technique t, int runs, int steps, const char *const *want, int nwant, int *counts)
{
    static uint8_t buf[512];
    gc_strbuf sb, nu;
    gc_sb_init(&sb), gc_sb_init(&nu);
    uint32_t rng = 11 + (uint32_t)t;
    for (int s = 0; s < NSEEDS; s++)
        for (int run = 0; run < runs; run++) {
            size_t n = seeds[s].n;
            memcpy(buf, seeds[s].d, n);
            for (int step = 0; step < steps; step++) {
                size_t m = gc_program_technique(buf, n, sizeof buf, gc_xorshift32(&rng), &dict, t);
                if (!m)
                    continue;
                n = m;
                if (!check_output(buf, n, sizeof buf, &sb, &nu))
                    return;
                for (int k = 0; k < nwant; k++)
                    counts[k] += want[k][0] == '~' ? strstr(nu.data, want[k] + 1) != NULL
                                                   : strstr(sb.data, want[k]) != NULL;
            }
        }
    gc_sb_free(&sb), gc_sb_free(&nu);
}

/* Each string of want[] in some output of technique t. */
static void expect(gc_pm_technique t, const char *const *want, int nwant)
{
    int counts[24] = {0};
    if (nwant > (int)(sizeof counts / sizeof *counts)) {
        CHECK(0, "%s: %d strings, room for %zu", gc_pm_technique_name[t], nwant, sizeof counts / sizeof *counts);
        return;
    }
    apply(t, 100, 3, want, nwant, counts);
    for (int k = 0; k < nwant; k++)
        CHECK(counts[k] > 0, "%s: no output holds %s", gc_pm_technique_name[t], want[k]);
}

static void each_technique(void)
{
    static const char *const format[] = {"'{0.y.z}'.format(x)", "'{k.y.z}'.format_map({'k': x})", "[0]}'", "]}'",
                                         "._hidden", "~'{0.y._hidden", "x.get('0.", "~x.get('0._hidden"};
    static const char *const except[] = {"except Exception as e:\n    result = e.obj\n", "result = e.name\n",
                                         "result = e.args[0]\n", "result = e.value\n",
                                         "result = e.__traceback__.tb_frame", "~getattr(e, '__traceback__').tb_frame",
                                         "result = x.y\nexcept Exception as e:\n    result = e."};
    static const char *const own[] = {"f(1, f)", "f(1, [f", "f(1, (f", "f(1, str)", "(f)"};
    static const char *const frame[] = {".gi_frame", ".cr_frame", ".ag_frame", ".tb_frame", ".f_back.f_back",
                                        ".f_globals", ".f_builtins", ".f_locals", "__traceback__.tb_frame",
                                        "():\n    g = (g.gi_frame", "    return [y for y in g]\nresult = f",
                                        "():\n    return c.cr_frame", "c = f", "    c.send(None)\n",
                                        "():\n    yield a.ag_frame", "    a.asend(None).send(None)\n",
                                        "except Exception as e:\n    result = e.value\n"};
    static const char *const by_name[] = {".__subclasses__() if (c.__name__ == 'Widget')][0]", "c.__qualname__ ==",
                                          "~[c for c in getattr(x, '__subclasses__')() if (getattr(c, '__name__') =="};
    static const char *const dunder[] = {".__getattribute__('", ".__dir__()", ".__subclasses__()", ".__reduce_ex__(2)",
                                         "~getattr(x, '__dir__')()"};
    expect(GC_PM_T_FORMAT_WALK, format, 8);
    expect(GC_PM_T_EXCEPTION_READ, except, 7);
    expect(GC_PM_T_OWN_VALUES, own, 5);
    expect(GC_PM_T_FRAME_WALK, frame, 17);
    expect(GC_PM_T_CLASS_BY_NAME, by_name, 3);
    expect(GC_PM_T_DUNDER_CALL, dunder, 5);
    static const char *const resolver[] = {"string.Formatter().get_field('0.", "', [x], None)[0]",
                                           "string.Formatter().vformat('{0.", "operator.attrgetter('",
                                           "operator.itemgetter('", "operator.methodcaller('",
                                           "functools.reduce(getattr, ['", "string.Formatter().get_value(0, [x], None)",
                                           "~string.Formatter().get_field('0._hidden"};
    expect(GC_PM_T_PATH_RESOLVER, resolver, 9);
    static const char *const import[] = {"from pkg import Widget as m", "import string as m", "result = m",
                                         "result = __import__('", "import importlib\n",
                                         "importlib.import_module('", "if True:\n    import ", "if True:\n    from ",
                                         "():\n    import ", "    return m", "result = f", "import sys\n",
                                         ").Formatter\n"};
    expect(GC_PM_T_IMPORT, import, 13);
    static const char *const callable[] = {"result = sorted([", "], key=", "result = min([", "result = max([",
                                           "result = list(map(", "result = list(filter(", "l.sort(key=",
                                           "import functools\n", "functools.reduce(", "result = max([], key=",
                                           ", default=", "'{0.", "}'.format", "(lambda v: v.", "f = '{0.",
                                           "key=f)", "key=repr"};
    expect(GC_PM_T_CALLABLE_ARG, callable, 17);
    static const char *const split[] = {"getattr(x, ", "' + '", "''.join(['", "[::2]", "'%s%s' % ("};
    expect(GC_PM_T_SPLIT_STRING, split, 5);
    static const char *const dunder_class[] = {"class K", "():\n    def __repr__(self, *args, **kwargs):\n        return x.y.z",
                                               "    def __eq__(self, *args, **kwargs):", "    def __del__(self",
                                               "\nresult = K"};
    expect(GC_PM_T_CLASS_DUNDER, dunder_class, 5);
    static const char *const match[] = {"match x:\n    case object(", "=v):\n        result = v\n", "match f:\n",
                                        "match e:\n", "case object(Formatter=v)", "case object(attrgetter=v)"};
    expect(GC_PM_T_MATCH_ATTR, match, 6);
    static const char *const stores[] = {"\nx.", "'] = ", " += ", "\ndel x.", "\n@x.y.z\ndef f", "\nresult = f",
                                         "result = (lambda a=x.y.z: a)()"};
    expect(GC_PM_T_STORE_FORMS, stores, 7);
    static const char *const nodes[] = {"\ndef f", "():\n    return x.", ".body[0].value.attr = '", "\nresult = f",
                                        "' + '"};
    expect(GC_PM_T_NODE_FIELD, nodes, 5);
    CHECK(gc_program_technique((uint8_t[]){OP(NONE)}, 1, 16, 1, &dict, GC_PM_NTECHNIQUES) == 0,
          "no technique past the last");
}

/* Techniques composed: chains of random techniques and edits; outputs that hold two
 * classes at once (a field walk read back from an exception, a class by name inside a
 * frame walk), and gc_program_mutate's own draws of them. */
static void composed(void)
{
    static uint8_t buf[512];
    gc_strbuf sb, nu;
    gc_sb_init(&sb), gc_sb_init(&nu);
    uint32_t rng = 5;
    int field_exc = 0, class_frame = 0, drawn = 0;
    for (int run = 0; run < 600; run++) {
        size_t n = seeds[run % NSEEDS].n;
        memcpy(buf, seeds[run % NSEEDS].d, n);
        for (int step = 0; step < 8; step++) {
            uint32_t r = gc_xorshift32(&rng);
            size_t m = r % 3 ? gc_program_technique(buf, n, sizeof buf, r, &dict, (gc_pm_technique)(r / 3 % GC_PM_NTECHNIQUES))
                             : gc_program_mutate(buf, n, sizeof buf, r, &dict);
            if (!m)
                continue;
            n = m;
            if (!check_output(buf, n, sizeof buf, &sb, &nu))
                return;
            field_exc += strstr(sb.data, "}'.format") && strstr(sb.data, "result = e.");
            class_frame += strstr(sb.data, "__subclasses__() if") && strstr(sb.data, ".f_back");
            drawn += r % 3 == 0 && (strstr(sb.data, "}'.format") || strstr(sb.data, "__subclasses__() if"));
        }
    }
    CHECK(field_exc > 0 && class_frame > 0, "composed: field walk + exception read %d, class by name + frame %d",
          field_exc, class_frame);
    CHECK(drawn > 0, "gc_program_mutate draws the techniques (%d)", drawn);
    gc_sb_free(&sb), gc_sb_free(&nu);
}

/* One edit of technique t on seed[n0] under d, printed into sb: its text, or NULL when the
 * technique made none. */
static const char *edit_once(const gc_pm_dict *d, const uint8_t *seed, size_t n0, gc_pm_technique t, uint32_t *rng,
                             gc_strbuf *sb)
{
    static uint8_t buf[512];
    memcpy(buf, seed, n0);
    size_t n = gc_program_technique(buf, n0, sizeof buf, gc_xorshift32(rng), d, t);
    if (!n)
        return NULL;
    gc_program_decode(buf, n, &p);
    gc_sb_clear(sb);
    gc_program_print(&p, 0, sb);
    return sb->data;
}

/* How many of 400 edits of technique t on seed[n0] under d (rng its start) print 'want'. */
static int edits_holding(const gc_pm_dict *d, const uint8_t *seed, size_t n0, gc_pm_technique t, uint32_t rng,
                         const char *want)
{
    gc_strbuf sb;
    gc_sb_init(&sb);
    int hits = 0;
    for (int run = 0; run < 400; run++) {
        const char *text = edit_once(d, seed, n0, t, &rng, &sb);
        hits += text && strstr(text, want) != NULL;
    }
    gc_sb_free(&sb);
    return hits;
}

/* split-string: the names a validator scans for, made at run time from parts, each form on
 * an attribute, a format field and a string constant. */
static void split_strings(void)
{
    static const uint8_t attr[] = {OP(NAME), 1, 'x', OP(ATTR), 9, '_', '_', 'c', 'l', 'a', 's', 's', '_', '_',
                                   OP(ASSIGN), RESULT};
    static const uint8_t field[] = {OP(NAME), 1, 'x', OP(FIELD), 9, '_', '_', 'c', 'l', 'a', 's', 's', '_', '_',
                                    OP(ASSIGN), RESULT};
    static const uint8_t map[] = {OP(NAME), 1, 'x', OP(FMTMAP), 4, 'r', 'e', 'a', 'l', OP(ASSIGN), RESULT};
    static const uint8_t str[] = {OP(STR), 4, 'o', 'p', 'e', 'n', OP(ASSIGN), RESULT};
    static const struct {
        const uint8_t *seed;
        size_t n;
        const char *want;
    } cases[] = {
        {attr, sizeof attr, "result = getattr(x, ((chr(95) * 2) + 'class__'))"}, {attr, sizeof attr, "' + '"},
        {attr, sizeof attr, "''.join(['"}, {attr, sizeof attr, "('%s%s' % ('_"}, {attr, sizeof attr, "'_z_zczlzazszsz_z_'[::2]"},
        {field, sizeof field, "result = ('{0"}, {field, sizeof field, "}').format(x)\n"},
        {field, sizeof field, "'{z0z.z_z_zczlzazszsz_z_z}'[::2].format(x)"}, {map, sizeof map, "}').format_map({'k': x})"},
        {str, sizeof str, "result = ('o"}, {str, sizeof str, "result = 'ozpzezn'[::2]"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        CHECK(edits_holding(&dict, cases[c].seed, cases[c].n, GC_PM_T_SPLIT_STRING, 7, cases[c].want) > 0,
              "split-string: no edit prints %s", cases[c].want);
}

/* Walk feedback (source_feedback.h): a field path known to reach a kind of value grows by a
 * word of that kind, `[w]` on a module's namespace; without the path's kind the same words
 * are drawn rarely, and never as a key. */
static int field_grows(const gc_pm_dict *d, const uint8_t *seed, size_t n0, const char *want)
{
    return edits_holding(d, seed, n0, GC_PM_T_FORMAT_WALK, 3, want);
}

static void walk_kinds(void)
{
    static gc_pm_dict with, without;
    static const char *const kinds[][2] = {{"function", "__globals__"}, {"function", "__code__"},
                                           {GC_PM_GLOBALS_KIND "host", "os"}, {"int", "real"},
                                           {"int", "imag"}, {"str", "upper"}};
    for (int i = 0; i < 6; i++)
        gc_pm_dict_add_kind(&with, kinds[i][0], kinds[i][1]), gc_pm_dict_add_kind(&without, kinds[i][0], kinds[i][1]);
    gc_pm_dict_name_kind(&with, "{y.z", gc_pm_dict_kind(&with, "function"));
    gc_pm_dict_name_kind(&with, "{y.z.__globals__", gc_pm_dict_kind(&with, GC_PM_GLOBALS_KIND "host"));
    static const uint8_t yz[] = {OP(NAME), 1, 'x', OP(FIELD), 3, 'y', '.', 'z', OP(ASSIGN), RESULT};
    static const uint8_t yzg[] = {OP(NAME), 1, 'x', OP(FIELD), 15, 'y', '.', 'z', '.', '_', '_', 'g', 'l', 'o', 'b',
                                  'a', 'l', 's', '_', '_', OP(ASSIGN), RESULT};
    int a = field_grows(&with, yz, sizeof yz, "'{0.y.z.__globals__}'"), b = field_grows(&without, yz, sizeof yz, "'{0.y.z.__globals__}'");
    CHECK(a > 40 && a > 3 * b, "a path of kind function grows by its words: %d of 400 with the path's kind, %d without", a, b);
    a = field_grows(&with, yzg, sizeof yzg, "'{0.y.z.__globals__[os]}'");
    b = field_grows(&without, yzg, sizeof yzg, "[os]}'");
    CHECK(a > 60 && b == 0, "a module's namespace grows by a key: %d of 400, %d without", a, b);
}

/* How many of 400 path-resolver edits of seed[n0] under d print 'want'. */
static int resolver_writes(const gc_pm_dict *d, const uint8_t *seed, size_t n0, const char *want)
{
    return edits_holding(d, seed, n0, GC_PM_T_PATH_RESOLVER, 5, want);
}

/* A field's first part is drawn from the kind of the name it walks from, and half the
 * time from that kind's leads (the words seen reaching a module, a namespace, a frame, a
 * function or a primitive): 'id' (a builtin function, 31 names) walks '__self__'. */
static void leads(void)
{
    static gc_pm_dict with, without;
    gc_pm_dict *ds[2] = {&with, &without};
    for (int i = 0; i < 2; i++) {
        char w[16];
        for (int j = 0; j < 30; j++)
            snprintf(w, sizeof w, "name%d", j), gc_pm_dict_add_kind(ds[i], "builtin_function_or_method", w);
        gc_pm_dict_add_kind(ds[i], "builtin_function_or_method", "__self__");
        gc_pm_dict_add_kind(ds[i], "module string", "Formatter");
        gc_pm_dict_add_root(ds[i], "string"), gc_pm_dict_add_root(ds[i], "id");
        gc_pm_dict_name_kind(ds[i], "string", gc_pm_dict_kind(ds[i], "module string"));
        gc_pm_dict_name_kind(ds[i], "id", gc_pm_dict_kind(ds[i], "builtin_function_or_method"));
    }
    int k = gc_pm_dict_kind(&with, "builtin_function_or_method");
    CHECK(gc_pm_dict_add_lead(&with, k, "__self__") == 1 && gc_pm_dict_add_lead(&with, k, "__self__") == 0 &&
              with.kind[k].n == 31, "a lead is added once, and is one of its kind's words");
    static const uint8_t id[] = {OP(NAME), 2, 'i', 'd', OP(ASSIGN), RESULT};
    int a = resolver_writes(&with, id, sizeof id, "('0.__self__"), b = resolver_writes(&without, id, sizeof id, "('0.__self__");
    int c = resolver_writes(&with, id, sizeof id, "('{0.__self__");
    CHECK(a > 40 && c > 40 && a > 4 * (b + 1), "get_field/vformat on id walk its lead first: %d and %d of 400, %d without the lead", a, c, b);
}

/* Of 400 exception-read edits of 'result = string' (string of a known kind, words Formatter
 * and capwords), how many read AttributeError's .obj or .name back after a lookup of a name
 * the kind lacks, and how many read them at all. */
static int absent_lookups(const gc_pm_dict *d, int *reads)
{
    static const uint8_t seed[] = {OP(NAME), 6, 's', 't', 'r', 'i', 'n', 'g', OP(ASSIGN), RESULT};
    gc_strbuf sb;
    gc_sb_init(&sb);
    uint32_t rng = 7;
    int hits = 0;
    *reads = 0;
    for (int run = 0; run < 400; run++) {
        const char *text = edit_once(d, seed, sizeof seed, GC_PM_T_EXCEPTION_READ, &rng, &sb);
        if (!text || (!strstr(text, "result = e.obj\n") && !strstr(text, "result = e.name\n")))
            continue;
        ++*reads;
        const char *look = strstr(text, "    result = string.");
        if (look && strncmp(look + 20, "Formatter\n", 10) != 0 && strncmp(look + 20, "capwords\n", 9) != 0)
            hits++;
    }
    gc_sb_free(&sb);
    return hits;
}

/* AttributeError's readback (the CVE-2024-47532 class) needs a lookup that fails: before
 * reading .obj or .name, the try's statement looks up, three times in four, a name the
 * value's kind lacks (a view or a proxy forwards it to what it wraps, which raises). */
static void absent_lookup(void)
{
    static gc_pm_dict d;
    gc_pm_dict_add_kind(&d, "module string", "Formatter"), gc_pm_dict_add_kind(&d, "module string", "capwords");
    gc_pm_dict_add_kind(&d, "int", "real"), gc_pm_dict_add_kind(&d, "int", "imag");
    gc_pm_dict_add_root(&d, "string");
    gc_pm_dict_name_kind(&d, "string", gc_pm_dict_kind(&d, "module string"));
    int reads, hits = absent_lookups(&d, &reads);
    CHECK(reads > 60 && hits * 2 > reads, "exception-read: %d of %d .obj/.name reads follow a lookup of a name string lacks",
          hits, reads);
}

/* The readback of a format field's failed last part: a field walk in the try gets a part no
 * object has, so AttributeError.obj is what the walk reached (the two classes composed). */
static void absent_field_part(void)
{
    static gc_pm_dict d;
    gc_pm_dict_add_root(&d, "x");
    static const uint8_t yz[] = {OP(NAME), 1, 'x', OP(FIELD), 3, 'y', '.', 'z', OP(ASSIGN), RESULT};
    int a = edits_holding(&d, yz, sizeof yz, GC_PM_T_EXCEPTION_READ, 9,
                          "try:\n    result = '{0.y.z.gatecrash}'.format(x)\nexcept Exception as e:\n    result = e.obj\n");
    CHECK(a > 20, "exception-read on a field walk: %d of 400 edits fail its last part and read .obj back", a);
}

/* The readback composed with a path resolver (29.3): a program that reads AttributeError's
 * .obj back, under a dictionary where no root is seen holding a resolver, gets the
 * Formatter's field walk written on what it read back (the module behind a view). */
static void readback_resolver(void)
{
    static gc_pm_dict d;
    gc_pm_dict_add_kind(&d, "module pkg", "Widget");
    gc_pm_dict_add_root(&d, "string");
    /* try: / result = string.gatecrash / except Exception as e: / result = e.obj */
    static const uint8_t seed[] = {OP(TRY), OP(NAME), 6, 's', 't', 'r', 'i', 'n', 'g', OP(ATTR), 9, 'g', 'a', 't', 'e',
                                   'c', 'r', 'a', 's', 'h', OP(ASSIGN), RESULT, OP(EXCEPT), 1, 'e', OP(NAME), 1, 'e',
                                   OP(ATTR), 3, 'o', 'b', 'j', OP(ASSIGN), RESULT, OP(END)};
    static const uint8_t plain[] = {OP(NAME), 6, 's', 't', 'r', 'i', 'n', 'g', OP(ASSIGN), RESULT};
    int a = resolver_writes(&d, seed, sizeof seed, "e.obj.Formatter().get_field('0."),
        b = resolver_writes(&d, plain, sizeof plain, ".Formatter()");
    CHECK(a > 20 && b == 0, "the Formatter on the readback: %d of 400 edits; %d without a readback", a, b);
}

/* A root whose lookup-readback was learnt to hold a resolver (the name "string.gatecrash"
 * of kind module string, the view 'string' itself refusing Formatter): the readback is
 * written first and the resolver on what it gave back, where no root and no read of the
 * program's holds one. */
static void readback_root(void)
{
    static gc_pm_dict with, without;
    gc_pm_dict *ds[2] = {&with, &without};
    for (int i = 0; i < 2; i++) {
        gc_pm_dict_add_kind(ds[i], "module string", "Formatter");
        gc_pm_dict_add_kind(ds[i], "_AttributeDelegator", "capwords");
        gc_pm_dict_add_root(ds[i], "string"), gc_pm_dict_add_root(ds[i], "id");
        gc_pm_dict_name_kind(ds[i], "string", gc_pm_dict_kind(ds[i], "_AttributeDelegator"));
    }
    gc_pm_dict_name_kind(&with, "string." GC_PM_ABSENT, gc_pm_dict_kind(&with, "module string"));
    static const uint8_t id[] = {OP(NAME), 2, 'i', 'd', OP(ASSIGN), RESULT};
    const char *want = "try:\n    result = string.gatecrash\nexcept Exception as e:\n    held = e.obj\n"
                       "result = held.Formatter().get_field('0.";
    int a = resolver_writes(&with, id, sizeof id, want), b = resolver_writes(&without, id, sizeof id, ".Formatter()");
    CHECK(a > 20 && b == 0, "the readback of a root written before its resolver: %d of 400 edits; %d unlearnt", a, b);
}

/* How many of 400 split-string edits of `result = x` under d build the name 'want' at run
 * time, in whatever form: each output run with getattr giving back the name it is asked for. */
static int names_built(const gc_pm_dict *d, const char *want)
{
    static const uint8_t x[] = {OP(NAME), 1, 'x', OP(ASSIGN), RESULT};
    gc_strbuf sb;
    gc_sb_init(&sb);
    uint32_t rng = 5;
    int hits = 0;
    for (int run = 0; run < 400; run++) {
        const char *text = edit_once(d, x, sizeof x, GC_PM_T_SPLIT_STRING, &rng, &sb);
        PyObject *g = text ? PyDict_New() : NULL;
        PyObject *r = g ? PyRun_String("getattr = lambda o, n: n\nx = None\n", Py_file_input, g, g) : NULL;
        Py_XDECREF(r);
        r = r ? PyRun_String(text, Py_file_input, g, g) : NULL;
        PyObject *res = r ? PyDict_GetItemString(g, "result") : NULL;
        hits += res && PyUnicode_Check(res) && PyUnicode_CompareWithASCIIString(res, want) == 0;
        Py_XDECREF(r);
        Py_XDECREF(g);
        PyErr_Clear();
    }
    gc_sb_free(&sb);
    return hits;
}

/* The names made at run time (a getattr's from parts, a node field's new value) are the ones
 * a check refuses to see written: of a root whose kind holds ten plain words and one with a
 * leading '_' (a lead), that one is drawn most of the time. */
static void refused_words(void)
{
    static gc_pm_dict d;
    static const char *const plain[] = {"count", "index", "copy", "keys", "items", "upper", "lower", "strip", "split", "join"};
    int k = gc_pm_dict_kind(&d, "function");
    for (int i = 0; i < 10; i++)
        gc_pm_dict_add_kind(&d, "function", plain[i]);
    gc_pm_dict_add_lead(&d, k, "__globals__");
    gc_pm_dict_add_root(&d, "x");
    gc_pm_dict_name_kind(&d, "x", k);
    static const uint8_t x[] = {OP(NAME), 1, 'x', OP(ASSIGN), RESULT};
    int a = names_built(&d, "__globals__");
    int b = edits_holding(&d, x, sizeof x, GC_PM_T_NODE_FIELD, 5, ".value.attr = '__globals__'\n");
    CHECK(a > 300, "split-string builds the refused name: %d of 400 edits getattr(x, <'__globals__' made from parts>)", a);
    CHECK(b > 120, "node-field writes the refused name: %d of 400 edits set attr to '__globals__'", b);
}

/* The first edits fuzz_source makes: each root alone, the implicit ones first. */
static void root_programs(void)
{
    static gc_pm_dict d;
    uint8_t buf[64];
    gc_strbuf sb;
    gc_sb_init(&sb);
    gc_pm_dict_add_root(&d, "ctx");
    CHECK(gc_pm_dict_add_implicit(&d, "open") == 1 && gc_pm_dict_add_implicit(&d, "ctx") == 0,
          "an implicit root is added once, and not when a root");
    size_t n = gc_program_root_program(&d, 0, buf, sizeof buf);
    gc_program_decode(buf, n, &p);
    gc_program_print(&p, GC_DIALECT_EXPRESSION, &sb);
    CHECK(n && strcmp(sb.data, "open\n") == 0, "the first program is the implicit root alone: %s", sb.data);
    gc_sb_clear(&sb);
    n = gc_program_root_program(&d, 1, buf, sizeof buf);
    gc_program_decode(buf, n, &p);
    gc_program_print(&p, 0, &sb);
    CHECK(n && strcmp(sb.data, "result = ctx\n") == 0, "then the roots: %s", sb.data);
    CHECK(gc_program_root_program(&d, 2, buf, sizeof buf) == 0, "then none");
    gc_sb_free(&sb);
}

int main(void)
{
    Py_InitializeEx(0);
    PyRun_SimpleString("import warnings\nwarnings.simplefilter(\"ignore\")\n"); /* SyntaxWarnings */
    gc_pm_dict_add_kind(&dict, "class pkg.Widget", "_hidden");
    gc_pm_dict_add_kind(&dict, "module pkg", "Widget");
    gc_pm_dict_add_root(&dict, "x");
    /* roots seen holding modules with path resolvers */
    static const char *const holders[][2] = {{"string", "Formatter"}, {"operator", "attrgetter"},
                                             {"operator", "itemgetter"}, {"operator", "methodcaller"},
                                             {"functools", "reduce"}};
    for (int i = 0; i < 5; i++) {
        char kind[32];
        snprintf(kind, sizeof kind, "module %s", holders[i][0]);
        gc_pm_dict_add_kind(&dict, kind, holders[i][1]);
        gc_pm_dict_add_root(&dict, holders[i][0]);
        gc_pm_dict_name_kind(&dict, holders[i][0], gc_pm_dict_kind(&dict, kind));
    }
    dict.no_underscore = 1;
    each_technique();
    split_strings();
    composed();
    walk_kinds();
    leads();
    absent_lookup();
    absent_field_part();
    readback_resolver();
    readback_root();
    root_programs();
    refused_words();
    Py_FinalizeEx();
    return check_summary();
}
