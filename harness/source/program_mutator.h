/* program_mutator.h — the program-aware mutator of source mode (fuzz_source's gc_fuzz_mutate).
 *
 * Owns: edits on the program IR (program.h) and the dictionary they draw names and strings
 * from.  An input is decoded, edited (insert, replace or drop a statement; add a trailer to
 * any expression or drop one; wrap a statement in try; move statements into a def; turn an
 * expression into a generator or comprehension over it; use a name the program binds;
 * alias a name; move an attribute walk into a format string; one of the named techniques,
 * below; splice a statement of another input) and encoded back, so every output is a
 * canonical encoding: it decodes, and decoding and encoding it again gives the same bytes.
 * Knows nothing of CPython: the dictionary is filled by its caller (fuzz_source.c: the
 * sandbox package's own string constants, its blocklists; the adapter's roots(); the
 * implicit roots, builtins by name; and, as inputs run, the names harvested from what the
 * evaluation returned, one word list per kind of value).
 */
#ifndef GATECRASH_PROGRAM_MUTATOR_H
#define GATECRASH_PROGRAM_MUTATOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GC_PM_MAX_WORDS 8192  /* distinct words, all lists together */
#define GC_PM_MAX_ROOTS 128
#define GC_PM_MAX_IMPLICIT 256 /* builtins by name, __builtins__ */
#define GC_PM_MAX_KINDS 192   /* word lists by the kind of value they were harvested from */
#define GC_PM_KIND_WORDS 1024
#define GC_PM_KIND_LEADS 32  /* of a kind's words, those seen leading somewhere */
#define GC_PM_MAX_FOCUS 8
#define GC_PM_MAX_OUTPUT 512  /* bytes: an edit past it is not made (escapes are short programs) */
/* The kinds of a loaded module's namespace (a function's __globals__), "globals of module os":
 * their words are its keys, so a field part on one is `[w]`, not `.w`. */
#define GC_PM_GLOBALS_KIND "globals of module "
static inline int gc_pm_kind_is_globals(const char *kind)
{
    return strncmp(kind, GC_PM_GLOBALS_KIND, sizeof GC_PM_GLOBALS_KIND - 1) == 0;
}
/* The name a lookup-readback looks up (an attribute no object has, the source sweep's too),
 * and the names key under which a root's readback is kept: the kind of AttributeError.obj
 * after 'ROOT.gatecrash' (a view, a proxy or a lazy module that forwards the lookup gives
 * back what it wraps) is the kind of the name "ROOT.gatecrash". */
#define GC_PM_ABSENT "gatecrash"

/* Names and strings the edits use; words longer than GC_P_MAX_STRLEN are cut.
 *   pool   strings and names of any use (constants, dict keys): literals, item keys, attributes
 *   roots  what the sandbox exposes: the names a program starts from
 *   implicit  what every evaluation has in scope unless the sandbox removes it (builtins by
 *          name, the types of literals among them, __builtins__): roots drawn a quarter of
 *          the time a root is, and the first one-token programs (gc_program_root_program)
 *   kinds  the attribute names of one kind of value (a type, or one module): what may
 *          follow a value of that kind; its leads, those of them seen reaching a module, a
 *          module's namespace, a frame, a function, a generator or a primitive (a walk's
 *          part, a module's own value): drawn half the time a kind's word is
 *   focus  the kinds the input being edited reached when it ran (its caller sets them
 *          before each edit; containers left out: they are walked into, not on): an
 *          attribute is drawn from them first
 *   names  the kind of value a name of the program was seen to hold (its caller learns them
 *          from the program's frames): an attribute on that name is drawn from its kind;
 *          "ROOT.gatecrash" (GC_PM_ABSENT), the kind a root's lookup-readback gave back
 *   no_underscore  the target's dialect refuses '_' attribute names: kinds' words with one
 *          are not drawn (the pool's still are: getattr(e, '_a') is printed for them) */
typedef struct {
    int n, npool, nroots, nkinds;
    char word[GC_PM_MAX_WORDS][64];
    uint16_t slot[2 * GC_PM_MAX_WORDS]; /* open addressing over word: index + 1, 0 empty */
    int nimplicit;
    uint16_t pool[GC_PM_MAX_WORDS], root[GC_PM_MAX_ROOTS], implicit[GC_PM_MAX_IMPLICIT];
    struct {
        char name[64];
        int n;
        uint16_t w[GC_PM_KIND_WORDS];
        int nleads;
        uint16_t lead[GC_PM_KIND_LEADS];
    } kind[GC_PM_MAX_KINDS];
    uint16_t kslot[4 * GC_PM_MAX_KINDS]; /* open addressing over kind names: index + 1, 0 empty */
    int nfocus, no_underscore;
    uint16_t focus[GC_PM_MAX_FOCUS];
    int16_t name_kind[GC_PM_MAX_WORDS]; /* by word index: kind index + 1, 0 unknown */
} gc_pm_dict;

/* Adds w (its first 63 bytes) to the pool unless the dictionary is full or the pool holds
 * it: 1 if added. */
int gc_pm_dict_add(gc_pm_dict *d, const char *w);
/* The same for the roots (a root is in the pool too). */
int gc_pm_dict_add_root(gc_pm_dict *d, const char *w);
/* The same for the implicit roots (not in the pool, and not when a root already). */
int gc_pm_dict_add_implicit(gc_pm_dict *d, const char *w);
/* The index of the word list of 'kind' (made when new), or -1 when there is no room. */
int gc_pm_dict_kind(gc_pm_dict *d, const char *kind);
/* The name 'name' was seen holding a value of kind k (gc_pm_dict_kind's index). */
void gc_pm_dict_name_kind(gc_pm_dict *d, const char *name, int k);
/* The walk path 'path' (its parts below the walk's base as a field writes them, `a.b[k]`)
 * was seen reaching a value of kind k: the next field part on it is drawn from k's words.
 * 1 when the path was new to the dictionary. */
int gc_pm_dict_path_kind(gc_pm_dict *d, const char *path, int k);
/* w into the word list of 'kind' (made when new and there is room): 1 if added. */
int gc_pm_dict_add_kind(gc_pm_dict *d, const char *kind, const char *w);
/* w (a word of kind k, added to its words when not one) leads somewhere from k: 1 if new. */
int gc_pm_dict_add_lead(gc_pm_dict *d, int k, const char *w);

/* data (size bytes, room for max_size) mutated in place: the new size, or 0 when no edit
 * fit (the engine mutates instead).  d may be NULL (built-in words only). */
size_t gc_program_mutate(uint8_t *data, size_t size, size_t max_size, uint32_t seed, const gc_pm_dict *d);

/* The one-token program 'result = R' of the k-th root (the implicit ones first, then the
 * roots), canonical into out[max]: its size, or 0 when k is past them or it does not fit.
 * fuzz_source's first edits: a builtin the sandbox forgot to remove is found at once. */
size_t gc_program_root_program(const gc_pm_dict *d, int k, uint8_t *out, size_t max);

/* The published escape classes as named edits, each composable with the others and with
 * every statement of the IR (docs/SOURCE.md, "Techniques"):
 *   format-walk     '{0.a[k]}'.format(x) / format_map: an attribute and item walk moved into
 *                   a field, a field one part longer (the CVE-2023-41039 class)
 *   exception-read  try: <walk> except Exception as e: result = e.obj / .name / .args[0] /
 *                   .value / .__traceback__.tb_frame... (the CVE-2024-47532 class)
 *   own-values      calls whose arguments are the program's own names, displays of them,
 *                   earlier statements' expressions
 *   frame-walk      .gi_frame / .cr_frame / .ag_frame / .tb_frame, f_back hops, f_globals /
 *                   f_builtins / f_locals (the CVE-2023-37271 class)
 *   class-by-name   [c for c in X.__subclasses__() if c.__name__ == 'W'][0], W a class name
 *                   of the dictionary
 *   dunder-call     x.__getattribute__('w'), x.__dir__(), ... written as calls (the class of
 *                   smolagents' CVE-2025-9959)
 *   path-resolver   M.Formatter().get_field('0.P', [x], None)[0], vformat, M.attrgetter('P')(x),
 *                   itemgetter, methodcaller, M.reduce(getattr, ['w'], x): M a root seen
 *                   holding a module that has the resolver
 *   import          import X [as a], from X import Y as a, __import__('X'),
 *                   importlib.import_module('X'), then result = a.Y: X a module every
 *                   interpreter has loaded (sys.modules) or one of the dictionary's module
 *                   kinds, Y one of its names; at the top level, in 'if True:' or in a def
 *   callable-arg    sorted/min/max([x], key=F), list(map(F, [x])), l.sort(key=F),
 *                   functools.reduce(F, [x], x), max([], key=F, default=x): F
 *                   '{0.P}'.format (stored first half the time), a lambda or a builtin, which
 *                   the host calls
 *   split-string    a string constant, a format field or an attribute name made at run time
 *                   from parts: 'ab' + 'cd', ''.join([..]), '%s%s' % (..), 'azbzczd'[::2],
 *                   chr(95) * 2 + 'rest'; ('{0.a' + '.b}').format(x); getattr(x, '_' + 'a')
 *   class-dunder    class K0: def __repr__(self, *args, **kwargs): return <a statement's
 *                   expression> (or __eq__, __hash__, __del__, ...), result = K0(): the host
 *                   runs it after the evaluation
 *   match-attr      match x: case object(a=v): result = v: an attribute read by a class
 *                   pattern, not by an attribute node
 *   store-forms     x.w = v, x['w'] = v, x.w += v, del x.w; @E over a def; (lambda a=E: a)()
 *   node-field      def fK(): return x.w / fK.body[0].value.attr = 'v' / result = fK(): a
 *                   field of the program's own syntax tree, where an interpreter hands it out
 * gc_program_mutate draws them among its edits; gc_program_technique applies one. */
typedef enum {
    GC_PM_T_FORMAT_WALK, GC_PM_T_EXCEPTION_READ, GC_PM_T_OWN_VALUES, GC_PM_T_FRAME_WALK, GC_PM_T_CLASS_BY_NAME,
    GC_PM_T_DUNDER_CALL, GC_PM_T_PATH_RESOLVER, GC_PM_T_IMPORT, GC_PM_T_CALLABLE_ARG,
    GC_PM_T_SPLIT_STRING, GC_PM_T_CLASS_DUNDER, GC_PM_T_MATCH_ATTR,
    GC_PM_T_STORE_FORMS, GC_PM_T_NODE_FIELD, GC_PM_NTECHNIQUES
} gc_pm_technique;
extern const char *const gc_pm_technique_name[GC_PM_NTECHNIQUES];

/* Technique t applied to data (as gc_program_mutate): the new size, or 0 when it did not
 * apply or fit. */
size_t gc_program_technique(uint8_t *data, size_t size, size_t max_size, uint32_t seed, const gc_pm_dict *d,
                            gc_pm_technique t);

/* A statement of input 2 (with its expression) spliced into input 1, or an edit of input 1
 * when input 2 has none: the output's size (canonical, at most max_out), or 0. */
size_t gc_program_crossover(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                            size_t max_out, uint32_t seed, const gc_pm_dict *d);

#endif
