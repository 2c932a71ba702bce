/* source_sweep.c — see source_sweep.h.
 *
 * Every program is one expression built in the program IR (program.h: its bytes, a root
 * then trailers, then `result = ...`), printed in the target's dialect and run through
 * evaluate under the oracles like any input, or answered in the host by a rule the sandbox's
 * own answers taught ("the host-side search", above run_edge).  Roots, in this order: the names roots()
 * gives, shortest first then by name; the implicit roots, what every evaluation has in scope
 * unless the sandbox removes it, whatever roots() says (each name of the builtins module and
 * __builtins__, as the dialect writes them, shortest first); the literals every dialect
 * writes ('', 0, [], ()),
 * and in a dialect with statements (not GC_DIALECT_EXPRESSION) one a program reaches with
 * no name at all: the running frame of a generator expression, the expression being the
 * generator's element so that the walk runs while its frame is live (f_back is None once
 * it stops):
 *     def f():
 *         g = (g.gi_frame<trailers> for x in [1])
 *         for r in g:
 *             return r
 *     result = f()
 * A generic root: any sandbox that lets a program write a generator hands it out (its
 * f_back leads to the frames that run the program, then the host's); it is no advisory's
 * payload, and a sandbox that refuses gi_frame refuses the root.  In such a dialect also the
 * exception root (exc_root): what `[].pop()` raises, caught by `except Exception as e:`,
 * the expression `e`; its traceback's frames are those that ran the call (the program's, or
 * a host evaluator's); and the coroutine root (cor_root), the running frame of a coroutine
 * the program steps itself, its value read back from the StopIteration that ends it:
 *     async def f():
 *         return c.cr_frame<trailers>
 *     c = f()
 *     try:
 *         c.send(None)
 *     except Exception as e:
 *         result = e.value
 * (a sandbox that lists gi_frame among its refused names and not cr_frame); and the
 * async-generator root (agen_root), the same with `async def g():` / `yield a.ag_frame...` /
 * `a = g()` and `a.asend(None).send(None)`, whose step ends in a StopIteration of the yielded
 * value (a sandbox that refuses both gi_frame and cr_frame and forgets ag_frame).
 * Edges of a node (a program whose returned value is new), in this order:
 *   - `.name` for every name of dir(value) the dialect writes as an attribute (with
 *     "no_underscore", none starting with '_': the sandbox refuses those, and their
 *     getattr(x, '_name') form too) — except on containers and scalars (str, bytes, int,
 *     float, None, dict, list, tuple, set), whose methods are bound afresh and lead
 *     nowhere new; a value whose class forwards unknown names (defines __getattr__, as
 *     simpleeval's ModuleWrapper does) hides them from dir(), so the names of what its
 *     instance __dict__ holds are tried too;
 *   - `['key']` for each str key (printable ASCII) and `[k]` for each small int key of a
 *     mapping, `[i]` for each element of a list or tuple (the first GC_SWEEP_MAX_ITEMS, and
 *     no index past what the IR's int literal holds); a list of classes by name where the
 *     dialect writes `__name__`: `[c for c in X if c.__name__ == 'N'][0]` (expand_by_name);
 *   - calls, a documented safe set only: `.mro()` and `.__subclasses__()` of a class whose
 *     metaclass is type (type's own methods: they read the class's bases and subclasses and
 *     run no user code); and where a root is the builtin vars, type or list, that builtin
 *     with the program's own value (expand_own_calls).  No other callable is called: what a
 *     sandbox's function does with no argument is not known to be safe;
 *   - the dunder-call form of a `_` attribute or safe call the sandbox refused (its note says
 *     "refused by the sandbox"): `X.__getattribute__('name')`, for a class
 *     `type.__getattribute__(X, 'name')`, then `()` for a call — for checkers that look at
 *     attribute names but not at what a call of a dunder method fetches;
 *   - the field-walk form of a `_` attribute the sandbox refused or the dialect cannot write,
 *     once a path resolver (resolvers[]) is a node: `F.get_field('0._name', [X], None)[0]`
 *     of a string.Formatter F (`string.Formatter()` is a safe call of the class itself), or
 *     `operator.attrgetter('_name')(X)`, the path one part longer a step below a value
 *     that came from a field walk (`'0._a._b'` from X) — for sandboxes whose checks see the
 *     program's code but not a path given as data, resolved in the host; with no resolver
 *     yet, where the sandbox passes one probe (probe_readback), the error-readback form
 *     `try: '{0._name._gatecrash}'.format(X)` / `except Exception as e:` / `e.obj`;
 *   - in a statement dialect, the lookup readback (lookup_readback) of a value no scalar or
 *     container: what a failed lookup of a name it lacks stopped at, read back from the
 *     AttributeError into a name; a forwarding proxy gives what it wraps.
 * A returned value is a node the first time it is seen (by identity, kept alive, per hole
 * with a hole rule); bound methods and method wrappers, made afresh on every access, are
 * checked by the oracles but not expanded.  A program that escapes is a leaf: it is run a
 * second time, and kept when it escapes again, per signature (the first is the shortest:
 * breadth first). */
#include "source_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle.h"
#include "program.h"
#include "program_mutator.h"
#include "pycompat.h"
#include "state.h"
#include "sweep_forms.h"
#include "timelimit.h"
#include "walk.h"
#include "walk_feedback.h"
#include "xalloc.h"

#define ROOT GC_WALK_ROOT
#define CODE_MAX 1024 /* a program's bytes: depth * (2 + GC_P_MAX_STRLEN) and the assignment fit */
#define MAX_INT_KEY 127 /* the IR's int literal is a signed byte */

/* A node's own data in this mode (gc_walk_node_ext): its program, and what the field walks
 * and the host-side search keep of it.  (The value, its edge and depth: walk.h's node.) */
typedef struct {
    uint8_t *code;      /* the expression's bytes (program.h) */
    size_t len;
    size_t blen;        /* code's first blen bytes are statements before the expression
                           (the exception root's try/except); an edge keeps them first */
    int froot;          /* from a field walk: the node it walked from (else -1) */
    char *fpath;        /* malloc'd: the walk's path below that node (`a.b`), or NULL */
    unsigned char closed; /* its statements (if any) close every block they open
                             (lookup_readback): other statements may follow them */
    unsigned char early;  /* expanded ahead of its level (walk_nodes: a late shallow node) */
    unsigned char passage; /* a host object a format field passes through, which no program
                              gives back (the sandbox refuses it): only field walks go on from
                              it (expand_passage); its code is the readback that was refused */
    unsigned char host;    /* an object of a host walk (host_walk): its parts from froot
                              (fpath), found by lookups that run no code; no program gives it
                              back and no level expands it */
    unsigned char parts;   /* a host node's parts from froot */
    unsigned char fresh;   /* its program makes it afresh on each run (a root the program makes:
                              a frame, the exception; or a value reached from one that is not the
                              object the host's lookup on the earlier one finds): the host cannot
                              answer its edges (the host-side search) */
} snode;

/* A program to confirm (gc_walk_record's candidate). */
typedef struct {
    const uint8_t *code;
    size_t len;
} scand;

/* A finding's own data (gc_walk_find_ext): the program's bytes (program_code). */
typedef struct {
    uint8_t code[CODE_MAX + 64];
    size_t len;
} sfound;

typedef struct {
    gc_target *t;
    const gc_sweep_opts *o;
    gc_sweep_stats *st;
    PyObject *ns;       /* {root name: value}: what the sandbox hands out */
    int rc;             /* an exit code that stopped the walk */
    gc_source_graph *g; /* what it hands its caller */
    int escaped, gave;  /* the last edge's program escaped, gave a value back (run_edge) */
    PyObject *rules;    /* the host-side search's: {rule key: RULE_*} (NULL: exhaustive) */
    long answered;      /* edges a rule answered so far (every HOST_SAMPLE-th is run) */
    long answered_lang; /* the same for the language's forms (lang_edges), counted apart */
    int importer;       /* a root gave back the host's own builtins.__import__ (push_imports) */
} sctx;

/* The builtins of the calls with the program's own values (expand_own_calls). */
enum { OWN_TYPE, OWN_VARS, OWN_LIST, NOWN };

typedef struct {
    int node;
    PyObject *name; /* strong */
} pfield;

/* One source sweep's graph, findings and frontier (source_sweep.h): nothing of it outlives
 * gc_source_sweep_free. */
struct gc_source_graph {
    gc_walk *w;         /* the walk (walk.h): nodes, findings, frontier */
    long resolver;      /* the first node that is a path resolver (field walks), -1: none yet */
    int rkind;          /* its row of resolvers[] */
    int error_readback; /* the sandbox lets a format field's failed lookup be read back */
    long *hwait;        /* nodes whose host walk waits for a form to write it in */
    long nhwait, caphwait;
    pfield *pending;    /* the field walks asked for before a resolver was found */
    long npending, cappending;
    PyObject *own_fn[NOWN]; /* strong: the shortest root name that is each, or NULL */
};


/* ---- programs ---- */

/* gc_sweep_put_str into a program's bytes (CODE_MAX of them). */
static size_t put_str(uint8_t *code, size_t n, int op, const char *s, size_t len)
{
    return gc_sweep_put_str(code, n, CODE_MAX, op, s, len);
}

/* The generator root: `def f():` then `g.gi_frame`, the element of the generator that
 * gen_tail closes (a program whose code starts with GC_P_DEF is one). */
static const uint8_t gen_root[] = {GC_P_DEF, 1, 'f', GC_P_NAME, 1, 'g', GC_P_ATTR, 8, 'g', 'i', '_', 'f', 'r', 'a', 'm', 'e'};
/*     g = (ELT for x in [1])
 *     for r in g:
 *         return r
 * result = f() */
/* The exception root: what an ordinary failing call raises, caught (its traceback's frames
 * are those that ran the call: the program's, or the host's evaluator's):
 *     try:
 *         [].pop()
 *     except Exception as e:
 *         result = e<trailers>
 * Generic like the generator root: no advisory's payload, any sandbox with try/except. */
static const uint8_t exc_root[] = {GC_P_TRY,    GC_P_LIST, 0,         GC_P_ATTR, 3, 'p', 'o', 'p', GC_P_CALL, 0,
                                   GC_P_EXPR,   GC_P_EXCEPT, 1,        'e',       GC_P_NAME, 1, 'e'};
#define EXC_ROOT_BLEN (sizeof exc_root - 3) /* its statements: all but the expression `e` */
/* The coroutine root: `async def f():` then `return c.cr_frame...`; cor_tail steps it. */
static const uint8_t cor_root[] = {GC_P_ASYNCDEF, 1, 'f', GC_P_NAME, 1, 'c',
                                   GC_P_ATTR,     8, 'c', 'r', '_', 'f', 'r', 'a', 'm', 'e'};
static const uint8_t cor_tail[] = {GC_P_RETURN, GC_P_END,  GC_P_NAME, 1,           'f', GC_P_CALL, 0,   GC_P_ASSIGN,
                                   1,           'c',       GC_P_TRY,  GC_P_NAME,   1,   'c',       GC_P_ATTR, 4,
                                   's',         'e',       'n',       'd',         GC_P_NONE, GC_P_CALL, 1, GC_P_EXPR,
                                   GC_P_EXCEPT, 1,         'e',       GC_P_NAME,   1,   'e',       GC_P_ATTR, 5,
                                   'v',         'a',       'l',       'u',         'e'};
/* The async-generator root: `async def g():` then `yield a.ag_frame...`; agen_tail steps it
 * (an async generator's yield ends asend(None)'s step with a StopIteration of its value). */
static const uint8_t agen_root[] = {GC_P_ASYNCDEF, 1, 'g', GC_P_NAME, 1, 'a',
                                    GC_P_ATTR,     8, 'a', 'g', '_', 'f', 'r', 'a', 'm', 'e'};
static const uint8_t agen_tail[] = {GC_P_YIELD, GC_P_END,  GC_P_NAME, 1,   'g',       GC_P_CALL, 0,    GC_P_ASSIGN,
                                    1,          'a',       GC_P_TRY,  GC_P_NAME, 1,  'a',       GC_P_ATTR, 5,
                                    'a',        's',       'e',       'n',       'd', GC_P_NONE, GC_P_CALL, 1,
                                    GC_P_ATTR,  4,         's',       'e',       'n', 'd',       GC_P_NONE, GC_P_CALL,
                                    1,          GC_P_EXPR, GC_P_EXCEPT, 1,       'e', GC_P_NAME, 1,    'e',
                                    GC_P_ATTR,  5,         'v',       'a',       'l', 'u',       'e'};
#define TAIL_MAX (sizeof agen_tail) /* the longest tail */
static const uint8_t gen_tail[] = {GC_P_INT,  1, GC_P_LIST, 1,   GC_P_GEN, 1,        'x',      GC_P_ASSIGN, 1, 'g',
                                   GC_P_NAME, 1, 'g',       GC_P_FOR, 1,   'r',      GC_P_NAME, 1,          'r',
                                   GC_P_RETURN, GC_P_END,   GC_P_END, GC_P_NAME, 1, 'f', GC_P_CALL, 0};

/* Is 'code' the generator root's (an import root's def has another name)? */
static int is_gen(const uint8_t *code, size_t len)
{
    return len > 2 && code[0] == GC_P_DEF && code[2] == gen_root[2];
}

/* The program bytes of an expression's: `result = EXPR`, or the generator's or the
 * coroutine's program when EXPR is its element or return value.  The length (0 when it
 * does not fit in cap). */
_Static_assert(sizeof agen_tail >= sizeof cor_tail && sizeof agen_tail >= sizeof gen_tail, "TAIL_MAX");
static size_t program_code(const uint8_t *code, size_t len, uint8_t *buf, size_t cap)
{
    int gen = is_gen(code, len), cor = len > 2 && code[0] == GC_P_ASYNCDEF && code[2] == 'f',
        agen = len > 2 && code[0] == GC_P_ASYNCDEF && code[2] == 'g';
    const uint8_t *tail = gen ? gen_tail : cor ? cor_tail : agen ? agen_tail : NULL;
    size_t tlen = gen ? sizeof gen_tail : cor ? sizeof cor_tail : agen ? sizeof agen_tail : 0, n = len + tlen;
    if (n + 8 > cap)
        return 0;
    memcpy(buf, code, len);
    if (tlen)
        memcpy(buf + len, tail, tlen);
    return put_str(buf, n, GC_P_ASSIGN, "result", 6);
}

/* The program of an expression's bytes in the target's dialect. */
static void program_text(const gc_target *t, const uint8_t *code, size_t len, gc_strbuf *sb)
{
    static gc_program p;
    uint8_t buf[CODE_MAX + 64];
    size_t n = program_code(code, len, buf, sizeof buf);
    gc_program_decode(buf, n, &p);
    gc_sb_init(sb);
    gc_program_print(&p, t->spec.adapter.dialect, sb);
}

/* Run the program of 'code': its outcome and value, and (refused not NULL) was it refused by
 * the sandbox.  0 or an exit code. */
static int run_code(const gc_target *t, const uint8_t *code, size_t len, gc_verdict *out, PyObject **v,
                    gc_strbuf *sb, int *refused)
{
    char note[256] = "", err[512];
    program_text(t, code, len, sb);
    int rc = gc_source_run_value((gc_target *)t, sb->data, sb->len, out, v, note, sizeof note, err, sizeof err);
    if (refused)
        *refused = strncmp(note, "refused by the sandbox", 22) == 0;
    if (rc)
        gc_die_msg("%s", err);
    return rc;
}

/* ---- the walk ---- */

void gc_source_sweep_free(gc_source_graph *g)
{
    if (!g)
        return;
    gc_walk_free(g->w);
    for (long i = 0; i < g->npending; i++)
        Py_DECREF(g->pending[i].name);
    for (int k = 0; k < NOWN; k++)
        Py_XDECREF(g->own_fn[k]);
    free(g->hwait);
    free(g->pending);
    free(g);
}

static void free_snode(void *ext)
{
    snode *n = ext;
    free(n->code);
    free(n->fpath);
}

/* Node i of the walk, and its data in this mode (both move when the graph grows). */
static gc_walk_node *wn(const gc_source_graph *g, long i)
{
    return gc_walk_node_at(g->w, i);
}

static snode *sn(const gc_source_graph *g, long i)
{
    return gc_walk_node_ext(g->w, i);
}

static long nnodes(const gc_source_graph *g)
{
    return gc_walk_nnodes(g->w);
}

static void push(gc_source_graph *g, PyObject *obj, PyObject *key, int parent, int kind, int depth, int hole,
                 const uint8_t *code, size_t len, size_t blen)
{
    long i = gc_walk_push(g->w, obj, key, parent, kind, depth, hole);
    uint8_t *c = gc_xmalloc(len + 1);
    memcpy(c, code, len);
    *sn(g, i) = (snode){c, len, blen, -1, NULL, blen == 0, 0, 0, 0, 0, 0};
}

/* Seen (v, hole) before?  Marks it seen unless 'peek'. */
static int seen_as(sctx *x, PyObject *v, int hole, int peek)
{
    return gc_walk_seen(x->g->w, v, hole, !peek);
}

static int visited(sctx *x, PyObject *v, int hole)
{
    return seen_as(x, v, hole, 0);
}

/* A passage's key in the seen set: apart from the nodes' (a value first met as a passage
 * is still a node when a program later gives it back). */
#define PASSAGE_HOLE(h) (-2 - (h))

/* The hole of the edge node i --(kind, key)--> v (walk.h), -1 when the edge is closed
 * (`sweep --close`: its program's value is not taken). */
static int edge_hole(sctx *x, int i, int kind, PyObject *key, PyObject *v)
{
    int hole;
    return gc_walk_edge_hole(x->g->w, i, kind, key, v, &hole) ? hole : -1;
}

/* The walk's confirmation of a program (gc_walk_ops.confirm): run again, kept when it
 * escapes. */
static int confirm_program(void *m, const void *cand, gc_walk_find *f, void *ext)
{
    sctx *x = m;
    const scand *c = cand;
    sfound *d = ext;
    static gc_verdict out;
    gc_strbuf sb;
    PyObject *v;
    int rc = run_code(x->t, c->code, c->len, &out, &v, &sb, NULL);
    Py_XDECREF(v);
    int ok = !rc && out.escaped;
    if (ok) {
        snprintf(f->f.sig, sizeof f->f.sig, "%s", out.signature);
        snprintf(f->f.chain, sizeof f->f.chain, "%.*s",
                 (int)(sb.len && sb.data[sb.len - 1] == '\n' ? sb.len - 1 : sb.len), sb.data);
        f->cap = out.escape.cap;
        snprintf(f->f.kind, sizeof f->f.kind, "%s", gc_kind_name(out.escape.kind));
        snprintf(f->f.cap, sizeof f->f.cap, "%s", gc_cap_name(out.escape.cap));
        snprintf(f->f.prim, sizeof f->f.prim, "%s", out.escape.primitive);
        snprintf(f->f.detail, sizeof f->f.detail, "%s", out.escape.detail);
        f->f.size = gc_program_size(f->f.chain, strlen(f->f.chain));
        snprintf(f->f.first, sizeof f->f.first, "sweep");
        f->f.count = 1;
        d->len = program_code(c->code, c->len, d->code, sizeof d->code);
    }
    gc_sb_free(&sb);
    return rc ? -rc : ok;
}

/* An escaping program of 'steps' steps: run again, kept when it escapes again with a new
 * signature (and hole), or in place of one of both with more steps.  0 or an exit code. */
static int record(sctx *x, const uint8_t *code, size_t len, const gc_verdict *first, int hole, int steps)
{
    scand c = {code, len};
    return gc_walk_record(x->g->w, &c, first->signature, hole, steps);
}

static void note_resolver(sctx *x, int i);

/* ---- the host-side search (the default; gc_sweep_opts.exhaustive runs every edge) ----
 *
 * An edge's program asks the sandbox one step (a form below) from a value the host holds, so
 * the host can answer it itself by the reading lookup the step makes (host_value: an
 * attribute get, an item, type's own calls; what the gate sweep does).  The sandbox's rules
 * are learned, not assumed: a rule is the sandbox's answer for a kind of step, a name (or
 * key), the type it is taken from and the type of what the host finds, learned by running
 * the first program of each (a probe): the sandbox gives what the host found (RULE_OK), gives
 * nothing (RULE_BLOCK, with RULE_NOTE when it said it refused), or gives another value (RULE_RUN: that
 * kind of edge always runs).  An answered edge runs no program, except one that reaches a
 * forbidden primitive (run to confirm it: every finding is a program the sandbox ran, once
 * per signature and hole as record keeps them) and every HOST_SAMPLE-th (a sampled
 * confirmation: a rule found wrong is learned again from it and the sweep says so).  A step
 * the host cannot answer (a lookup readback through a class's own __getattr__, an instance
 * the sandbox makes) always runs. */
enum { F_RUN, F_ATTR, F_ITEM, F_NAMED, F_DUNDER, F_DUNDER_CALL, F_CALL, F_OWN_TYPE, F_OWN_VARS, F_OWN_LIST,
       F_RESOLVER, F_READBACK, F_LOOKUP, F_GETATTR, F_MATCH, /* the last two: lang_edges */
       F_IMPORT };  /* import roots: F_IMPORT + where (gc_sweep_form_import), their own rule keys */
enum { RULE_OK = 1, RULE_BLOCK = 2, RULE_RUN = 4, RULE_NOTE = 8 };
#define HOST_SAMPLE 50

/* Does a failed lookup on v raise from v's own lookup (no __getattr__ of a class or module of
 * the sandbox's in the way): the generic lookups of objects, classes of type, modules? */
static int plain_lookup(PyObject *v)
{
    getattrofunc f = Py_TYPE(v)->tp_getattro;
    if (PyModule_Check(v)) {
        PyObject *d = PyModule_GetDict(v); /* borrowed */
        return f == PyModule_Type.tp_getattro && d && !PyDict_GetItemString(d, "__getattr__");
    }
    return f == PyObject_GenericGetAttr || (PyType_Check(v) && Py_IS_TYPE(v, &PyType_Type));
}

static PyObject *host_attr(PyObject *v, PyObject *name)
{
    PyObject *r = gc_static_attr(v, name);
    if (!r)
        r = PyObject_GetAttr(v, name);
    PyErr_Clear();
    return r;
}

static PyObject *host_item(PyObject *v, PyObject *key)
{
    PyObject *r = gc_static_item(v, key, 0);
    if (!r && !PyDict_CheckExact(v) && !PyList_CheckExact(v) && !PyTuple_CheckExact(v))
        r = PyObject_GetItem(v, key);
    PyErr_Clear();
    return r;
}

/* What node i's step of 'form' by 'key' (an item with 'item') gives, read in the host: 1 with
 * *hv (new, NULL where the step raises), 0 where the host cannot say. */
static int host_value(sctx *x, int i, int form, int item, PyObject *key, PyObject **hv)
{
    PyObject *v = wn(x->g, i)->obj, *r = NULL;
    *hv = NULL;
    switch (form) {
    case F_ATTR:
    case F_RESOLVER:
    case F_GETATTR: /* the language's forms of the attribute (sweep_forms.h) */
    case F_MATCH:
        *hv = item ? host_item(v, key) : host_attr(v, key);
        return 1;
    case F_ITEM:
        *hv = host_item(v, key);
        return 1;
    case F_NAMED: {
        Py_ssize_t k = PyLong_Check(key) ? PyLong_AsSsize_t(key) : -1;
        PyErr_Clear();
        *hv = PyList_CheckExact(v) && k >= 0 && k < PyList_GET_SIZE(v) ? Py_NewRef(PyList_GET_ITEM(v, k)) : NULL;
        return *hv != NULL;
    }
    case F_DUNDER: /* X.__getattribute__('k'): the type's own lookup, no __getattr__ */
        if (PyType_Check(v) ? !Py_IS_TYPE(v, &PyType_Type)
                            : !PyModule_Check(v) && Py_TYPE(v)->tp_getattro != PyObject_GenericGetAttr)
            return 0;
        *hv = host_attr(v, key);
        return 1;
    case F_DUNDER_CALL:
    case F_CALL: /* type's own mro() and __subclasses__() (expand_calls) */
        if (!PyType_Check(v) || !Py_IS_TYPE(v, &PyType_Type) || !key)
            return 0;
        *hv = PyObject_CallMethodNoArgs(v, key);
        PyErr_Clear();
        return 1;
    case F_OWN_TYPE:
        *hv = Py_NewRef((PyObject *)Py_TYPE(v));
        return 1;
    case F_OWN_VARS:
        *hv = PyObject_GetAttrString(v, "__dict__");
        PyErr_Clear();
        return 1;
    case F_OWN_LIST:
        *hv = PySequence_List(v);
        PyErr_Clear();
        return 1;
    case F_READBACK: /* e.obj: where the field's lookup of the missing name failed */
        r = item ? host_item(v, key) : host_attr(v, key);
        if (r && !plain_lookup(r)) {
            Py_DECREF(r);
            return 0;
        }
        *hv = r ? r : item ? NULL : Py_NewRef(v); /* a failed item lookup raises no AttributeError */
        return 1;
    case F_LOOKUP:
        if (!plain_lookup(v))
            return 0;
        *hv = Py_NewRef(v);
        return 1;
    default:
        return 0;
    }
}

static int is_scalar(PyObject *v);

/* Did the sandbox give what the host found?  The same object; or, for what a step makes
 * afresh, the same parts (a list's or tuple's elements, a dict's values, a mappingproxy's
 * mapping, a bound method's function and self). */
static int agree(PyObject *v, PyObject *hv)
{
    if (v == hv)
        return 1;
    if (!v || !hv || Py_TYPE(v) != Py_TYPE(hv))
        return 0;
    if (is_scalar(v)) { /* a str a getter makes afresh (a descriptor's __doc__): equal is the same */
        int eq = PyObject_RichCompareBool(v, hv, Py_EQ);
        PyErr_Clear();
        return eq == 1;
    }
    if (PyList_CheckExact(v) || PyTuple_CheckExact(v)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
        int same = n == PySequence_Fast_GET_SIZE(hv);
        for (Py_ssize_t k = 0; same && k < n; k++)
            same = PySequence_Fast_GET_ITEM(v, k) == PySequence_Fast_GET_ITEM(hv, k);
        return same;
    }
    if (PyDict_CheckExact(v)) {
        PyObject *k, *val;
        Py_ssize_t pos = 0;
        int same = PyDict_GET_SIZE(v) == PyDict_GET_SIZE(hv);
        while (same && PyDict_Next(v, &pos, &k, &val))
            same = PyDict_GetItemWithError(hv, k) == val;
        PyErr_Clear();
        return same;
    }
    if (Py_IS_TYPE(v, &PyDictProxy_Type))
        return gc_mappingproxy_mapping(v) == gc_mappingproxy_mapping(hv);
    if (PyMethod_Check(v))
        return PyMethod_GET_FUNCTION(v) == PyMethod_GET_FUNCTION(hv) &&
               agree(PyMethod_GET_SELF(v), PyMethod_GET_SELF(hv));
    if (PyCFunction_Check(v)) /* its self may be made afresh too (a mappingproxy's get) */
        return PyCFunction_GET_FUNCTION(v) == PyCFunction_GET_FUNCTION(hv) &&
               agree(PyCFunction_GET_SELF(v), PyCFunction_GET_SELF(hv));
    return 0;
}

/* The host's answer for one edge: what it found, the rule that says what the sandbox does. */
typedef struct {
    int form;         /* F_*: the step's form */
    int known;        /* the host can say what the step gives */
    PyObject *hv;     /* strong: what it gives, or NULL (it raises) */
    PyObject *rkey;   /* strong: the rule's key (form, name or key, from type, found type) */
    int rule;         /* RULE_*, 0: not learned yet */
    char prim[96];    /* the forbidden primitive the value search would find in hv, or "" */
} hanswer;

/* h's answer from what the host found (h->hv): the primitive the value search finds in it, and
 * the rule learned for 'rkey' (taken; NULL: none could be made, the answer is unknown). */
static void answer_by_rule(sctx *x, hanswer *h, PyObject *rkey)
{
    const char *p = gc_source_value_reaches(h->hv);
    snprintf(h->prim, sizeof h->prim, "%s", p ? p : "");
    h->rkey = rkey;
    PyObject *r = h->rkey ? PyDict_GetItemWithError(x->rules, h->rkey) : NULL; /* borrowed */
    h->rule = r ? (int)PyLong_AsLong(r) : 0;
    h->known = h->rkey != NULL;
    PyErr_Clear();
}

static void host_answer(sctx *x, int i, int form, int kind, PyObject *key, hanswer *h)
{
    memset(h, 0, sizeof *h);
    h->form = form;
    if (x->o->exhaustive || !x->rules || form == F_RUN || gc_host_read_unsafe(wn(x->g, i)->obj))
        return;
    int item = kind == GC_EDGE_ITEM_STR || kind == GC_EDGE_ITEM_INT;
    if (!(h->known = host_value(x, i, form, item, key, &h->hv)))
        return;
    PyObject *name = !key || PyLong_Check(key) || form == F_NAMED ? Py_None : key;
    PyObject *vt = h->hv ? (PyObject *)Py_TYPE(h->hv) : Py_None;
    answer_by_rule(x, h, Py_BuildValue("(iiOOO)", form, item, name, (PyObject *)Py_TYPE(wn(x->g, i)->obj), vt));
}

/* The rule a program's outcome teaches (a probe's, or a confirmation's). */
static int outcome_rule(const hanswer *h, const gc_verdict *out, PyObject *v, int refused)
{
    char sig[sizeof out->signature];
    snprintf(sig, sizeof sig, "source:%s:%s", gc_kind_name(GC_KIND_REACH), h->prim);
    if (out->escaped)
        return h->prim[0] && strcmp(out->signature, sig) == 0 ? RULE_OK : RULE_RUN;
    if (refused)
        return RULE_BLOCK | RULE_NOTE;
    if (!v)
        return h->hv ? RULE_BLOCK : RULE_OK;
    return !h->prim[0] && agree(v, h->hv) ? RULE_OK : RULE_RUN;
}

/* A probe's rule, or a confirmation's: one that finds the rule wrong says so, and the kind
 * of edge runs from then on (RULE_RUN: a rule that held for some of its edges only is no rule). */
static void learn(sctx *x, hanswer *h, int rule, int probe)
{
    rule = !probe && rule != h->rule ? RULE_RUN : rule;
    PyObject *r = PyLong_FromLong(rule);
    if (r && PyDict_SetItem(x->rules, h->rkey, r) == 0 && !probe && rule != h->rule) {
        x->st->mismatches++;
        if (!x->o->quiet) {
            PyObject *k = PyObject_Repr(h->rkey);
            fprintf(stderr, "[sweep] a confirmation found the rule for %s wrong: its edges run from now on\n",
                    k ? PyUnicode_AsUTF8(k) : "?");
            Py_XDECREF(k);
        }
    }
    Py_XDECREF(r);
    PyErr_Clear();
    h->rule = rule;
}

/* The program of 'code' run (counted as an edge), and what its outcome teaches about h's
 * rule (a probe's or a confirmation's), unless its node is 'fresh' or the rule is RULE_RUN;
 * 'none_is_nothing': a None given back counts as no value.  Was it refused by the sandbox? */
static int run_learning(sctx *x, hanswer *h, const uint8_t *code, size_t len, gc_verdict *out, PyObject **v,
                        int fresh, int none_is_nothing)
{
    gc_strbuf sb;
    int refused = 0;
    x->st->edges++;
    x->rc = run_code(x->t, code, len, out, v, &sb, &refused);
    gc_sb_free(&sb);
    if (none_is_nothing && *v == Py_None)
        Py_CLEAR(*v);
    if (!x->rc && h->known && !(h->rule & RULE_RUN) && !fresh) {
        x->st->probes += !h->rule;
        x->st->confirms += h->rule != 0;
        learn(x, h, outcome_rule(h, out, *v, refused), !h->rule);
    }
    return refused;
}

/* A signature already kept for 'hole' in at most 'steps' steps? */
static int found_already(const gc_source_graph *g, const char *prim, int hole, int steps)
{
    char sig[256];
    snprintf(sig, sizeof sig, "source:%s:%s", gc_kind_name(GC_KIND_REACH), prim);
    return gc_walk_found(g->w, sig, hole, steps);
}

/* A program a rule answers: is it the HOST_SAMPLE-th, run as a sampled confirmation?  The
 * language's forms (lang_edges, import roots) are sampled on a count of their own: the other
 * edges' sampled confirmations fall where they did before the forms were written. */
static int sampled(sctx *x, const hanswer *h)
{
    long *count = h->form >= F_GETATTR ? &x->answered_lang : &x->answered;
    return ++*count % HOST_SAMPLE == 0;
}

/* Must the edge's program run (h: the host's answer)?  Not when a learned rule answers it,
 * unless it reaches a primitive not yet kept for its hole, or it is a sampled confirmation. */
static int must_run(sctx *x, int i, int kind, PyObject *key, const hanswer *h)
{
    if (!h->known || !h->rule || (h->rule & RULE_RUN) || sn(x->g, i)->fresh)
        return 1;
    if ((h->rule & RULE_OK) && h->prim[0]) {
        gc_oracle_reset_input(); /* the hole of a value, with no escape of an earlier program in the way */
        return !found_already(x->g, h->prim, edge_hole(x, i, kind, key, h->hv), wn(x->g, i)->depth + 1);
    }
    return sampled(x, h);
}

/* One edge of node i: the program of blk (statements), then the expression of pre, mid and
 * tr, joined; run, or answered in the host (the host-side search above); a new value queued
 * as node i's child, an escape recorded.  Was the program refused by the sandbox? */
static int run_edge(sctx *x, int i, int form, int kind, PyObject *key, const uint8_t *blk, size_t blklen,
                    const uint8_t *pre, size_t prelen, const uint8_t *mid, size_t midlen, const uint8_t *tr,
                    size_t trlen)
{
    gc_source_graph *g = x->g;
    uint8_t code[CODE_MAX];
    if (x->rc || gc_limits_stopping() || !trlen || blklen + prelen + midlen + trlen + 8 + 2 + TAIL_MAX > CODE_MAX)
        return 0;
    size_t len = 0;
    const uint8_t *part[] = {blk, pre, mid, tr};
    size_t plen[] = {blklen, prelen, midlen, trlen};
    for (int k = 0; k < 4; k++)
        if (plen[k]) { /* memcpy from NULL is undefined even for 0 bytes */
            memcpy(code + len, part[k], plen[k]);
            len += plen[k];
        }
    static gc_verdict out;
    PyObject *v = NULL;
    int refused = 0;
    hanswer h;
    host_answer(x, i, form, kind, key, &h);
    if (must_run(x, i, kind, key, &h)) {
        refused = run_learning(x, &h, code, len, &out, &v, sn(g, i)->fresh, 0);
        /* (the program's run may have grown the graph: nodes moved) */
    } else { /* answered by a rule */
        x->st->host_answered++;
        gc_oracle_reset_input();
        out.escaped = 0;
        refused = (h.rule & RULE_NOTE) != 0;
        v = h.rule & RULE_OK ? Py_XNewRef(h.hv) : NULL;
        if (v && h.prim[0]) { /* an escape kept already for its signature and hole: a leaf */
            Py_CLEAR(v);
            x->escaped = x->gave = 1;
            Py_XDECREF(h.hv);
            Py_XDECREF(h.rkey);
            return refused;
        }
    }
    const snode *n = sn(g, i); /* nodes move when the graph grows */
    int fresh = n->fresh && !(h.known && v && v == h.hv); /* the host found it on the earlier object too */
    Py_XDECREF(h.hv);
    Py_XDECREF(h.rkey);
    if (x->rc) {
        Py_XDECREF(v);
        return 0;
    }
    int hole = edge_hole(x, i, kind, key, v), depth = wn(g, i)->depth;
    x->escaped = out.escaped;
    x->gave = v != NULL;
    if (hole < 0)
        ; /* a closed edge (sweep --close): its value is not taken */
    else if (out.escaped)
        x->rc = record(x, code, len, &out, hole, depth + 1);
    else if (v && !gc_sweep_transient(v) && nnodes(g) >= x->o->max_nodes)
        x->st->cut_nodes++;
    else if (v && !gc_sweep_transient(v) && !visited(x, v, hole)) {
        int own = blk == n->code && blklen == n->blen, closed = n->closed; /* push moves nodes */
        push(g, v, key, i, kind, depth + 1, hole, code, len, blklen); /* kept alive from here on */
        sn(g, nnodes(g) - 1)->fresh = (unsigned char)fresh;
        if (own) /* node i's own statements */
            sn(g, nnodes(g) - 1)->closed = (unsigned char)closed;
        note_resolver(x, (int)nnodes(g) - 1);
    }
    Py_XDECREF(v);
    return refused;
}

/* node i's expression wrapped in 'pre' and 'tr' (bytes before and after it); its step a
 * 'form' (the host-side search's). */
static int edge_around(sctx *x, int i, int form, int kind, PyObject *key, const uint8_t *pre, size_t prelen,
                       const uint8_t *tr, size_t trlen)
{
    const snode *n = sn(x->g, i);
    return run_edge(x, i, form, kind, key, n->code, n->blen, pre, prelen, n->code + n->blen, n->len - n->blen, tr,
                    trlen);
}

/* node i's expression followed by 'tr'. */
static int edge(sctx *x, int i, int form, int kind, PyObject *key, const uint8_t *tr, size_t trlen)
{
    return edge_around(x, i, form, kind, key, NULL, 0, tr, trlen);
}

/* Can node i's expression stand inside another (not a generator's or coroutine's block)? */
static int inline_ok(const gc_source_graph *g, int i)
{
    return sn(g, i)->len && !is_gen(sn(g, i)->code, sn(g, i)->len) && sn(g, i)->code[0] != GC_P_ASYNCDEF;
}

/* The dunder-call form of `.name` (then `()` when 'call'), for a sandbox that refuses the
 * attribute but not a call of the value's own __getattribute__ (the class of smolagents'
 * CVE-2025-9959: dunder attributes checked, calls of dunder methods not):
 * `X.__getattribute__('name')`, and for a class `type.__getattribute__(X, 'name')` (a
 * class's own __getattribute__ wants an instance).  Generic: any name, any value. */
static int dunder_edge(sctx *x, int i, PyObject *name, int call)
{
    gc_source_graph *g = x->g;
    Py_ssize_t sz;
    const char *s = PyUnicode_AsUTF8AndSize(name, &sz);
    uint8_t pre[32], tr[8 + GC_P_MAX_STRLEN];
    size_t prelen = 0, n;
    int cls = PyType_Check(wn(g, i)->obj);
    if (!s || (cls && !inline_ok(g, i))) { /* a block can't be an argument */
        PyErr_Clear();
        return 1;
    }
    if (cls)
        prelen = put_str(pre, put_str(pre, 0, GC_P_NAME, "type", 4), GC_P_ATTR, "__getattribute__", 16);
    n = cls ? 0 : put_str(tr, 0, GC_P_ATTR, "__getattribute__", 16);
    if (!(n = put_str(tr, n, GC_P_STR, s, (size_t)sz)))
        return 1;
    tr[n++] = GC_P_CALL;
    tr[n++] = cls ? 2 : 1;
    if (call) {
        tr[n++] = GC_P_CALL;
        tr[n++] = 0;
    }
    return edge_around(x, i, call ? F_DUNDER_CALL : F_DUNDER, GC_EDGE_ATTR, name, pre, prelen, tr, n); /* named as the attribute's edge */
}

/* The language's forms of `.name` (sweep_forms.h) where the sandbox refused its plain and
 * dunder-call forms and what the host finds there is worth the runs (no scalar, nothing made
 * afresh on each access): getattr of the name made from two halves, then (a dialect with
 * statements) the class pattern of a match, its capture the expression.  Did neither give
 * a value back (refused, or an error: a sandbox may lack getattr)? */
static int lang_edges(sctx *x, int i, PyObject *name)
{
    gc_source_graph *g = x->g;
    Py_ssize_t sz;
    const char *s = PyUnicode_AsUTF8AndSize(name, &sz);
    PyObject *hv = s && inline_ok(g, i) ? host_attr(wn(g, i)->obj, name) : NULL;
    int worth = hv && !is_scalar(hv) && !gc_sweep_transient(hv);
    Py_XDECREF(hv);
    PyErr_Clear();
    uint8_t pre[GC_SWEEP_FORM_PRE], tr[CODE_MAX], blk[CODE_MAX];
    size_t prelen, stmts, n = worth ? gc_sweep_form_getattr(s, (size_t)sz, pre, &prelen, tr, sizeof tr) : 0;
    if (!n)
        return 1;
    edge_around(x, i, F_GETATTR, GC_EDGE_ATTR, name, pre, prelen, tr, n);
    if (x->gave || x->rc) /* (not refused, but with no value: the sandbox may lack getattr) */
        return 0;
    const snode *nd = sn(g, i);
    n = x->t->spec.adapter.dialect & GC_DIALECT_EXPRESSION ? 0 : gc_sweep_form_match(s, (size_t)sz, tr, sizeof tr, &stmts);
    if (!n || nd->len + stmts > sizeof blk)
        return 1;
    memcpy(blk, nd->code, nd->len);
    memcpy(blk + nd->len, tr, stmts);
    run_edge(x, i, F_MATCH, GC_EDGE_ATTR, name, blk, nd->len + stmts, NULL, 0, NULL, 0, tr + stmts, n - stmts);
    return !x->gave && !x->rc;
}

/* The path resolvers of field walks: host objects that take a dotted path as data and give
 * back the object at its end, resolved in the host where no attribute check of the sandbox
 * runs.  A program is the resolver's expression, 'mid1', the path (after 'prefix') as a
 * string, 'mid2', X's expression, 'tail'.  Each row is a published class:
 *   - string.Formatter().get_field('0.PATH', [X], None)[0]: RestrictedPython's
 *     CVE-2023-41039 (format fields);
 *   - operator.attrgetter('PATH')(X): the same walk through attrgetter, reported against
 *     RestrictedPython after its string.Formatter fix (attrgetter, itemgetter, methodcaller). */
typedef struct {
    const char *module, *cls;
    int instance; /* the resolver is an instance of the class (made by calling the class) */
    const char *prefix;
    int items; /* its path may hold `[key]` parts */
    uint8_t mid1[12], nmid1, mid2[4], nmid2, tail[10], ntail;
} path_resolver;

static const path_resolver resolvers[] = {
    {"string", "Formatter", 1, "0.", 1, {GC_P_ATTR, 9, 'g', 'e', 't', '_', 'f', 'i', 'e', 'l', 'd'}, 11, {0}, 0,
     {GC_P_LIST, 1, GC_P_NONE, GC_P_CALL, 3, GC_P_INT, 0, GC_P_ITEM}, 8},
    {"operator", "attrgetter", 0, "", 0, {0}, 0, {GC_P_CALL, 1}, 2, {GC_P_CALL, 1}, 2},
};
#define NRESOLVERS (int)(sizeof resolvers / sizeof *resolvers)

/* The host's class of resolvers[k] (borrowed, kept), or NULL. */
static PyObject *resolver_class(int k)
{
    static PyObject *cls[NRESOLVERS]; /* a process singleton: the host's class, every sweep's */
    if (!cls[k]) {
        PyObject *m = PyImport_ImportModule(resolvers[k].module);
        cls[k] = m ? PyObject_GetAttrString(m, resolvers[k].cls) : NULL;
        Py_XDECREF(m);
        PyErr_Clear();
    }
    return cls[k] && PyType_Check(cls[k]) ? cls[k] : NULL;
}

/* Is v.name a method made afresh on each access (a slot wrapper or a C method of v's class,
 * v no class)?  The walk would check it and not expand it, so a field walk skips it.  Looked
 * up in the class's dicts only: no code of v runs. */
static int fresh_method(PyObject *v, PyObject *name)
{
    PyObject *d = PyType_Check(v) ? NULL : _PyType_Lookup(Py_TYPE(v), name); /* borrowed */
    return d && (Py_IS_TYPE(d, &PyWrapperDescr_Type) || Py_IS_TYPE(d, &PyMethodDescr_Type));
}

static int field_key(PyObject *key, char *buf);

/* The path of node i's field walk one part longer, by 'name' (with 'item', by the key
 * `[name]`), after 'prefix', into buf (GC_P_MAX_STRLEN + 1 bytes); *root: the node the
 * path starts from.  Its length, or -1. */
static int field_path(const gc_source_graph *g, int i, PyObject *name, int item, const char *prefix, char *buf,
                      int *root)
{
    char key[GC_P_MAX_STRLEN + 1], tail[2 * GC_P_MAX_STRLEN + 8];
    const char *s = item ? (field_key(name, key) ? key : NULL) : PyUnicode_AsUTF8(name);
    const char *fp = sn(g, i)->fpath;
    PyErr_Clear();
    *root = fp ? sn(g, i)->froot : i;
    if (!s)
        return -1;
    snprintf(tail, sizeof tail, "%s%s%s%s", fp ? fp : "", item ? "[" : fp ? "." : "", s, item ? "]" : "");
    int plen = (int)strlen(prefix);
    plen -= tail[0] == '[' && plen > 0 && prefix[plen - 1] == '.'; /* `0[k]`, not `0.[k]` */
    int w = snprintf(buf, GC_P_MAX_STRLEN + 1, "%.*s%s", plen, prefix, tail);
    return w < 0 || w > GC_P_MAX_STRLEN ? -1 : w;
}

#define MISSING "._gatecrash" /* an attribute no object has: the lookup that fails */

/* The error-readback program of X.PATH (xexpr: X's expression; PATH `a.b[k]`, or `[k].a`):
 *     try:
 *         '{0.PATH._gatecrash}'.format(X)
 *     except Exception as e:
 *         result = e.obj
 * str.format resolves the field in the host, and the AttributeError of its last part holds
 * the object it failed on (the class of RestrictedPython's CVE-2024-47532).  Its length
 * (0: too long); *blen: where the statements end. */
static size_t readback_code(uint8_t *code, const char *path, const uint8_t *xexpr, size_t xlen, size_t *blen)
{
    char fmt[GC_P_MAX_STRLEN + 1];
    int w = snprintf(fmt, sizeof fmt, "{0%s%s" MISSING "}", path[0] == '[' ? "" : ".", path);
    if (w < 0 || (size_t)w >= sizeof fmt || xlen + (size_t)w + 32 > CODE_MAX)
        return 0;
    code[0] = GC_P_TRY;
    size_t n = put_str(code, 1, GC_P_STR, fmt, (size_t)w);
    n = put_str(code, n, GC_P_ATTR, "format", 6);
    memcpy(code + n, xexpr, xlen);
    n += xlen;
    code[n++] = GC_P_CALL;
    code[n++] = 1;
    code[n++] = GC_P_EXPR;
    *blen = n = put_str(code, n, GC_P_EXCEPT, "e", 1);
    n = put_str(code, n, GC_P_NAME, "e", 1);
    return put_str(code, n, GC_P_ATTR, "obj", 3);
}

/* Does the sandbox give back what a failed format field lookup stopped at?  One probe:
 * `'{0.__class__._gatecrash}'.format(0)` read back must be int.  0 or an exit code. */
static int probe_readback(sctx *x)
{
    gc_source_graph *g = x->g;
    static const uint8_t zero[] = {GC_P_INT, 0};
    if (x->t->spec.adapter.dialect & GC_DIALECT_EXPRESSION)
        return 0;
    uint8_t code[CODE_MAX];
    size_t blen, len = readback_code(code, "__class__", zero, sizeof zero, &blen);
    static gc_verdict out;
    gc_strbuf sb;
    PyObject *v = NULL;
    x->st->edges++;
    int rc = run_code(x->t, code, len, &out, &v, &sb, NULL);
    gc_sb_free(&sb);
    g->error_readback = !rc && !out.escaped && v == (PyObject *)&PyLong_Type;
    Py_XDECREF(v);
    return rc;
}

/* The node an edge just queued (if it queued one since 'before') came from a field walk:
 * from node r, by 'path'. */
static void walked_from(gc_source_graph *g, long before, int r, const char *path)
{
    if (nnodes(g) > before) {
        sn(g, nnodes(g) - 1)->froot = r;
        sn(g, nnodes(g) - 1)->fpath = gc_xstrdup(path);
    }
}

static int is_scalar(PyObject *v)
{
    return PyUnicode_Check(v) || PyBytes_Check(v) || PyLong_Check(v) || PyFloat_Check(v) || v == Py_None ||
           PyComplex_Check(v) || PyByteArray_Check(v);
}

/* Can a format field hold 'key' as an item part, `[key]`?  A str of printable ASCII, not
 * empty, not all digits (a field reads those as an int), without ']', '{' or '}'; or a small
 * int (a sequence's index).  Its text into buf (GC_P_MAX_STRLEN + 1 bytes). */
static int field_key(PyObject *key, char *buf)
{
    if (PyLong_CheckExact(key)) {
        long k = PyLong_AsLong(key);
        PyErr_Clear();
        return k >= 0 && k <= MAX_INT_KEY && snprintf(buf, GC_P_MAX_STRLEN + 1, "%ld", k) > 0;
    }
    Py_ssize_t sz;
    const char *s = PyUnicode_Check(key) && PyUnicode_IS_ASCII(key) ? PyUnicode_AsUTF8AndSize(key, &sz) : NULL;
    PyErr_Clear();
    int digits = 1, ok = s && sz > 0 && sz < GC_P_MAX_STRLEN - 2;
    for (Py_ssize_t k = 0; ok && k < sz; k++) {
        ok = s[k] >= 0x20 && s[k] < 0x7f && s[k] != ']' && s[k] != '{' && s[k] != '}';
        digits &= s[k] >= '0' && s[k] <= '9';
    }
    return ok && !digits && snprintf(buf, GC_P_MAX_STRLEN + 1, "%s", s) > 0;
}

/* A passage (snode.passage): what a refused readback of node i's part 'key' walked to in the
 * host, found again by lookups that run no code (gc_static_attr/item, what str.format's own
 * lookups give where no code runs), queued as node i's child (by an edge of 'kind') for the
 * field walks from it.  'code' is the readback that was refused, r and path the walk's. */
static void passage(sctx *x, int i, PyObject *key, int kind, int r, const char *path, const uint8_t *code,
                    size_t len, size_t blen)
{
    gc_source_graph *g = x->g;
    PyObject *obj = wn(g, i)->obj;
    PyObject *host = kind == GC_EDGE_ATTR ? gc_static_attr(obj, key) : gc_static_item(obj, key, 1);
    int hole = host ? edge_hole(x, i, kind, key, host) : 0;
    if (host && hole >= 0 && !gc_sweep_transient(host) && !is_scalar(host) && nnodes(g) < x->o->max_nodes &&
        !seen_as(x, host, hole, 1) && !visited(x, host, PASSAGE_HOLE(hole))) {
        push(g, host, key, i, kind, wn(g, i)->depth + 1, hole, code, len, blen);
        sn(g, nnodes(g) - 1)->passage = 1;
        sn(g, nnodes(g) - 1)->froot = r;
        sn(g, nnodes(g) - 1)->fpath = gc_xstrdup(path);
    }
    Py_XDECREF(host);
    PyErr_Clear();
}

/* The error-readback form of node i's part 'key' (readback_code): `.key` (an attribute
 * name) or, with 'item', `[key]`; X being node i or the node its walk started from.  A
 * readback that gives nothing back (the sandbox refuses what it read back: a module's
 * namespace, a module) leaves a passage. */
static int edge_kind(PyObject *key, int item)
{
    return !item ? GC_EDGE_ATTR : PyLong_Check(key) ? GC_EDGE_ITEM_INT : GC_EDGE_ITEM_STR;
}

static void readback_part(sctx *x, int i, PyObject *key, int item)
{
    gc_source_graph *g = x->g;
    char path[GC_P_MAX_STRLEN + 1];
    int r, w = field_path(g, i, key, item, "", path, &r);
    const snode *xr = sn(g, r);
    uint8_t code[CODE_MAX];
    size_t blen, len = w < 0 || w > GC_P_MAX_STRLEN || !inline_ok(g, r) || xr->blen
                           ? 0
                           : readback_code(code, path, xr->code, xr->len, &blen);
    if (!len)
        return;
    long before = nnodes(g);
    int kind = edge_kind(key, item);
    run_edge(x, i, F_READBACK, kind, key, code, blen, NULL, 0, code + blen, 3, code + blen + 3, len - blen - 3);
    walked_from(g, before, r, path);
    if (nnodes(g) == before && !x->rc && !x->escaped)
        passage(x, i, key, kind, r, path, code, len, blen);
}

static void readback_edge(sctx *x, int i, PyObject *name)
{
    readback_part(x, i, name, 0);
}

/* The resolver's form of node i's part 'key' (`.key`, with 'item' `[key]`), the sweep's
 * resolver being a node (resolvers[]): X.PATH given back whole, X being node i, or the node
 * node i was walked from (its path one part longer). */
static void resolver_part(sctx *x, int i, PyObject *key, int item)
{
    gc_source_graph *g = x->g;
    const path_resolver *rs = &resolvers[g->rkind];
    char path[GC_P_MAX_STRLEN + 1];
    int r = i, w = item && !rs->items ? -1 : field_path(g, i, key, item, rs->prefix, path, &r);
    size_t pl = strlen(rs->prefix), skip = pl && w > 0 && path[pl - 1] == '[' ? pl - 1 : pl; /* what follows */
    const snode *f = sn(g, g->resolver), *xr = sn(g, r);
    size_t fexpr = f->len - f->blen;
    /* a resolver's statements go first, so they must close their blocks (lookup_readback) */
    if (w < 0 || !inline_ok(g, r) || !inline_ok(g, (int)g->resolver) || !f->closed ||
        f->len + xr->blen + rs->nmid1 + 2 + (size_t)w + rs->nmid2 > CODE_MAX)
        return;
    uint8_t blk[CODE_MAX], pre[CODE_MAX];
    /* X's statements may start with the resolver's own (both from one readback): once */
    size_t fblen = xr->blen >= f->blen && memcmp(xr->code, f->code, f->blen) == 0 ? 0 : f->blen;
    memcpy(blk, f->code, fblen);
    memcpy(blk + fblen, xr->code, xr->blen);
    memcpy(pre, f->code + f->blen, fexpr);
    memcpy(pre + fexpr, rs->mid1, rs->nmid1);
    size_t n = put_str(pre, fexpr + rs->nmid1, GC_P_STR, path, (size_t)w);
    if (!n || n + rs->nmid2 > CODE_MAX)
        return;
    memcpy(pre + n, rs->mid2, rs->nmid2);
    long before = nnodes(g);
    unsigned char closed = xr->closed; /* run_edge may move nodes */
    run_edge(x, i, F_RESOLVER, edge_kind(key, item), key, blk, fblen + xr->blen, pre, n + rs->nmid2, xr->code + xr->blen,
             xr->len - xr->blen, rs->tail, rs->ntail);
    if (nnodes(g) > before)
        sn(g, nnodes(g) - 1)->closed = closed;
    walked_from(g, before, r, path + skip);
}

/* The field-walk form of `.name`, for a `_` name the sandbox refuses or the dialect cannot
 * write: the resolver's (resolver_part), else the error readback's.  Asked before either
 * is known, it waits until a resolver is found. */
static void field_edge(sctx *x, int i, PyObject *name)
{
    gc_source_graph *g = x->g;
    if (fresh_method(wn(g, i)->obj, name))
        return;
    if (g->resolver < 0 && g->error_readback) {
        readback_edge(x, i, name);
        return;
    }
    if (g->resolver < 0) {
        if (g->npending == g->cappending) {
            g->cappending = g->cappending ? g->cappending * 2 : 256;
            g->pending = gc_xrealloc(g->pending, (size_t)g->cappending * sizeof *g->pending);
        }
        Py_INCREF(name);
        g->pending[g->npending++] = (pfield){i, name};
        return;
    }
    resolver_part(x, i, name, 0);
}

/* Is node i the sweep's first path resolver?  Then the field walks asked for so far run
 * (from the edge that found it: a resolver at the depth bound serves all the same). */
static void note_resolver(sctx *x, int i)
{
    gc_source_graph *g = x->g;
    if (g->resolver >= 0 || !inline_ok(g, i))
        return;
    int k = 0;
    for (; k < NRESOLVERS; k++) {
        PyObject *c = resolver_class(k);
        PyObject *v = wn(g, i)->obj;
        if (c && (resolvers[k].instance ? PyObject_TypeCheck(v, (PyTypeObject *)c) : v == c))
            break;
    }
    if (k == NRESOLVERS)
        return;
    g->resolver = i;
    g->rkind = k;
    for (long k = 0; k < g->npending && !x->rc; k++)
        field_edge(x, g->pending[k].node, g->pending[k].name);
    for (long k = 0; k < g->npending; k++)
        Py_DECREF(g->pending[k].name);
    g->npending = 0;
}

/* A `_` name, an ASCII identifier a format field can hold as an attribute part? */
static int field_name(PyObject *name)
{
    Py_ssize_t sz;
    const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &sz) : NULL;
    PyErr_Clear();
    return s && s[0] == '_' && sz < GC_P_MAX_STRLEN - 2 && PyUnicode_IS_ASCII(name) && PyUnicode_IsIdentifier(name);
}

int gc_source_writable(const gc_target *t, PyObject *name)
{
    Py_ssize_t sz;
    const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &sz) : NULL;
    PyErr_Clear();
    if (!s || sz == 0 || sz > GC_P_MAX_STRLEN || !PyUnicode_IsIdentifier(name) || !PyUnicode_IS_ASCII(name))
        return 0;
    if (s[0] == '_' && (t->spec.adapter.dialect & GC_DIALECT_NO_UNDERSCORE))
        return 0;
    PyObject *kw = PyImport_ImportModule("keyword");
    PyObject *r = kw ? PyObject_CallMethod(kw, "iskeyword", "O", name) : NULL;
    int is_kw = r == Py_True;
    Py_XDECREF(r);
    Py_XDECREF(kw);
    PyErr_Clear();
    return !is_kw;
}

/* dir(v), and for a class that forwards unknown names (defines __getattr__) the dir() of
 * each value in v's instance __dict__: sorted, once each (a new list, or NULL). */
static PyObject *attr_names(PyObject *v)
{
    PyObject *names = PySet_New(NULL), *d = PyObject_Dir(v);
    for (Py_ssize_t k = 0; names && d && k < PyList_GET_SIZE(d); k++)
        PySet_Add(names, PyList_GET_ITEM(d, k));
    Py_XDECREF(d);
    PyErr_Clear();
    PyObject *inst = PyObject_HasAttrString((PyObject *)Py_TYPE(v), "__getattr__") && !PyModule_Check(v)
                         ? PyObject_GenericGetDict(v, NULL)
                         : NULL;
    PyErr_Clear();
    PyObject *key, *held;
    Py_ssize_t pos = 0;
    while (names && inst && PyDict_Check(inst) && PyDict_Next(inst, &pos, &key, &held)) {
        PyObject *hd = PyObject_Dir(held);
        for (Py_ssize_t k = 0; hd && k < PyList_GET_SIZE(hd); k++)
            PySet_Add(names, PyList_GET_ITEM(hd, k));
        Py_XDECREF(hd);
        PyErr_Clear();
    }
    Py_XDECREF(inst);
    PyObject *sorted = names ? PySequence_List(names) : NULL;
    Py_XDECREF(names);
    if (sorted && PyList_Sort(sorted) < 0)
        Py_CLEAR(sorted);
    PyErr_Clear();
    return sorted;
}

static int is_scalar_or_container(PyObject *v)
{
    return is_scalar(v) || PyDict_Check(v) || PyList_Check(v) || PyTuple_Check(v) || PyAnySet_Check(v);
}

/* `.name`; for a `_` name the sandbox refuses, its dunder-call form, then its forms in the
 * language (lang_edges), then (refused too, or a name the dialect cannot write) its
 * field-walk form. */
static void attr_edges(sctx *x, int i, PyObject *name)
{
    if (!gc_source_writable(x->t, name)) {
        if (field_name(name) && lang_edges(x, i, name))
            field_edge(x, i, name);
        return;
    }
    Py_ssize_t sz;
    const char *s = PyUnicode_AsUTF8AndSize(name, &sz);
    uint8_t tr[2 + GC_P_MAX_STRLEN];
    if (edge(x, i, F_ATTR, GC_EDGE_ATTR, name, tr, put_str(tr, 0, GC_P_ATTR, s, (size_t)sz)) && s[0] == '_' &&
        dunder_edge(x, i, name, 0) && lang_edges(x, i, name) && field_name(name))
        field_edge(x, i, name);
}

static void expand_attrs(sctx *x, int i, PyObject *v)
{
    PyObject *names = is_scalar_or_container(v) ? Py_BuildValue("[s]", "__class__") : attr_names(v);
    for (Py_ssize_t k = 0; names && k < PyList_GET_SIZE(names); k++)
        attr_edges(x, i, PyList_GET_ITEM(names, k));
    Py_XDECREF(names);
    PyErr_Clear();
}

/* `[key]`: a str key of printable ASCII, or an int that fits the IR's literal. */
static void item_edge(sctx *x, int i, PyObject *key)
{
    uint8_t tr[4 + GC_P_MAX_STRLEN];
    size_t n = 0;
    if (PyUnicode_Check(key) && PyUnicode_IS_ASCII(key)) {
        Py_ssize_t sz;
        const char *s = PyUnicode_AsUTF8AndSize(key, &sz);
        int printable = s != NULL;
        for (Py_ssize_t k = 0; printable && k < sz; k++)
            printable = s[k] >= 0x20 && s[k] < 0x7f;
        if (printable && (n = put_str(tr, 0, GC_P_STR, s, (size_t)sz)))
            tr[n++] = GC_P_ITEM;
        if (n)
            edge(x, i, F_ITEM, GC_EDGE_ITEM_STR, key, tr, n);
    } else if (PyLong_CheckExact(key)) {
        long kv = PyLong_AsLong(key);
        if (!PyErr_Occurred() && kv >= -MAX_INT_KEY && kv <= MAX_INT_KEY) {
            tr[n++] = GC_P_INT;
            tr[n++] = (uint8_t)(int8_t)kv;
            tr[n++] = GC_P_ITEM;
            edge(x, i, F_ITEM, GC_EDGE_ITEM_INT, key, tr, n);
        }
    }
    PyErr_Clear();
}

/* `[c for c in X if c.__name__ == 'N'][0]`: element k of node i's list of classes, by its
 * name N, unique in the list.  1 when it gave a value or escaped, 2 when the sandbox refused
 * it or it raised, 0 when it cannot be written (the name too long or not printable). */
static int named_item(sctx *x, int i, Py_ssize_t k, PyObject *name)
{
    static const uint8_t elt[] = {GC_P_NAME, 1, 'c'};
    uint8_t tr[32 + GC_P_MAX_STRLEN];
    Py_ssize_t sz;
    const char *s = PyUnicode_IS_ASCII(name) ? PyUnicode_AsUTF8AndSize(name, &sz) : NULL;
    int printable = s && sz <= GC_P_MAX_STRLEN;
    for (Py_ssize_t j = 0; printable && j < sz; j++)
        printable = s[j] > 0x20 && s[j] < 0x7f && s[j] != '\'' && s[j] != '\\';
    size_t n = printable ? put_str(tr, put_str(tr, 0, GC_P_NAME, "c", 1), GC_P_ATTR, "__name__", 8) : 0;
    n = n ? put_str(tr, n, GC_P_STR, s, (size_t)sz) : 0;
    if (!n)
        return 0;
    tr[n++] = GC_P_EQ;
    n = put_str(tr, n, GC_P_FILTER, "c", 1);
    tr[n++] = GC_P_INT;
    tr[n++] = 0;
    tr[n++] = GC_P_ITEM;
    PyObject *idx = PyLong_FromSsize_t(k);
    x->gave = x->escaped = 0;
    int refused = idx && edge_around(x, i, F_NAMED, GC_EDGE_ITEM_INT, idx, elt, sizeof elt, tr, n);
    Py_XDECREF(idx);
    return refused || !(x->gave || x->escaped) ? 2 : 1;
}

/* Class walks by name: a list of classes (what .__subclasses__() and .mro() give) in a
 * dialect that writes `__name__`, each element by its name where it is unique there, not
 * by its index: the interpreter's class order differs between processes and versions, and
 * an index past the IR's int literal (127) is none (object.__subclasses__() holds hundreds).
 * 1 when the list was expanded so. */
static int expand_by_name(sctx *x, int i, PyObject *v)
{
    gc_source_graph *g = x->g;
    static PyObject *attr; /* a process singleton: the interned name */
    if (!PyList_CheckExact(v) || PyList_GET_SIZE(v) == 0 || !inline_ok(g, i) ||
        !(attr || (attr = PyUnicode_InternFromString("__name__"))) || !gc_source_writable(x->t, attr))
        return 0;
    Py_ssize_t n = PyList_GET_SIZE(v);
    PyObject *names = PyList_New(n), *count = PyDict_New();
    int ok = names && count;
    for (Py_ssize_t k = 0; ok && k < n; k++) { /* type's own name: no metaclass code runs */
        PyObject *c = PyList_GET_ITEM(v, k), *name = NULL;
        ok = PyType_Check(c) && Py_IS_TYPE(c, &PyType_Type) && (name = PyType_GetName((PyTypeObject *)c));
        PyObject *seen = ok ? PyDict_GetItemWithError(count, name) : NULL; /* borrowed */
        PyObject *more = ok ? PyLong_FromLong(seen ? PyLong_AsLong(seen) + 1 : 1) : NULL;
        ok = more && PyDict_SetItem(count, name, more) == 0;
        Py_XDECREF(more);
        if (name)
            PyList_SET_ITEM(names, k, name);
    }
    x->st->cut_items += ok && n > GC_SWEEP_MAX_ITEMS;
    int by_name = 1; /* until the form fails (the sandbox refuses c.__name__ or a comprehension) */
    for (Py_ssize_t k = 0; ok && k < n && k < GC_SWEEP_MAX_ITEMS && !x->rc; k++) {
        PyObject *name = PyList_GET_ITEM(names, k), *idx;
        int r = by_name && PyLong_AsLong(PyDict_GetItem(count, name)) == 1 ? named_item(x, i, k, name) : 0;
        by_name = r != 2;
        if (r == 1)
            continue;
        if (k <= MAX_INT_KEY && (idx = PyLong_FromSsize_t(k))) { /* a name shared: by index */
            item_edge(x, i, idx);
            Py_DECREF(idx);
        }
    }
    Py_XDECREF(names);
    Py_XDECREF(count);
    PyErr_Clear();
    return ok;
}

static void expand_items(sctx *x, int i, PyObject *v)
{
    if (expand_by_name(x, i, v))
        return;
    int mapping = PyDict_Check(v) || (!is_scalar_or_container(v) && !PyType_Check(v) &&
                                      PyObject_HasAttrString(v, "keys") && PyObject_HasAttrString(v, "__getitem__"));
    PyErr_Clear();
    PyObject *keys = mapping ? gc_mapping_keys(v) : NULL;
    PyErr_Clear();
    if (keys && PyList_Check(keys)) {
        Py_ssize_t n = PyList_GET_SIZE(keys);
        x->st->cut_items += n > GC_SWEEP_MAX_ITEMS;
        for (Py_ssize_t k = 0; k < n && k < GC_SWEEP_MAX_ITEMS; k++)
            item_edge(x, i, PyList_GET_ITEM(keys, k));
    } else if (PyList_Check(v) || PyTuple_Check(v)) {
        Py_ssize_t n = PySequence_Size(v);
        x->st->cut_items += n > MAX_INT_KEY + 1;
        for (Py_ssize_t k = 0; k < n && k <= MAX_INT_KEY; k++) {
            PyObject *idx = PyLong_FromSsize_t(k);
            item_edge(x, i, idx);
            Py_XDECREF(idx);
        }
    }
    Py_XDECREF(keys);
}

/* Calls with the program's own values (the own-values technique's form in the sweep): a
 * builtin a root names, handed node i's expression.  Each reads what it is handed and runs
 * no code of the sandbox's own:
 *   - `type(X)`, X.__class__ by another route (the hole is named as that step);
 *   - `vars(X)`, X.__dict__ (likewise), of a module, a class or a value with a dict;
 *   - `list(X)` of a set or a dict view, whose elements no item edge reaches.
 * For sandboxes whose checks see attribute names in the program's code and not what a
 * builtin they hand out reads (a `_` name refused in code, `vars(X)['_name']` as data).
 * Only where a root is that very builtin (own_fn[]: the name the program calls it by). */

static PyObject *own_builtin(int k)
{
    static const char *const names[NOWN] = {"type", "vars", "list"};
    PyObject *b = PyEval_GetBuiltins(); /* borrowed; the interpreter's own builtins */
    return b ? PyDict_GetItemString(b, names[k]) : NULL;
}

/* A root's value: is it one of the catalogue's builtins (named first by this name)? */
static void note_own_fn(gc_source_graph *g, PyObject *name, PyObject *v)
{
    for (int k = 0; k < NOWN; k++)
        if (!g->own_fn[k] && v && v == own_builtin(k))
            g->own_fn[k] = Py_NewRef(name);
}

/* Would builtin k give node i's value something to walk? */
static int own_call_fits(int k, PyObject *v)
{
    if (k == OWN_TYPE)
        return !PyType_Check(v) || Py_TYPE(v) != &PyType_Type; /* type(C) of a plain class: type */
    if (k == OWN_VARS) {
        PyObject **dp = PyType_Check(v) || PyModule_Check(v) ? NULL : _PyObject_GetDictPtr(v);
        return PyType_Check(v) || PyModule_Check(v) || (dp && *dp);
    }
    return PyAnySet_Check(v) || PyDictKeys_Check(v) || PyDictValues_Check(v) || PyDictItems_Check(v);
}

static void expand_own_calls(sctx *x, int i, PyObject *v)
{
    gc_source_graph *g = x->g;
    static const char *const as_attr[NOWN] = {"__class__", "__dict__", NULL};
    static const uint8_t call1[] = {GC_P_CALL, 1};
    for (int k = 0; k < NOWN && inline_ok(g, i); k++) {
        uint8_t pre[2 + GC_P_MAX_STRLEN];
        Py_ssize_t sz;
        const char *fn = g->own_fn[k] && own_call_fits(k, v) ? PyUnicode_AsUTF8AndSize(g->own_fn[k], &sz) : NULL;
        size_t plen = fn ? put_str(pre, 0, GC_P_NAME, fn, (size_t)sz) : 0;
        PyObject *key = plen && as_attr[k] ? PyUnicode_FromString(as_attr[k]) : NULL;
        if (plen)
            edge_around(x, i, F_OWN_TYPE + k, key ? GC_EDGE_ATTR : GC_EDGE_CALL, key, pre, plen, call1, sizeof call1);
        Py_XDECREF(key);
        PyErr_Clear();
    }
}

/* The safe calls: `.mro()` and `.__subclasses__()` of a class whose metaclass is type
 * (type's own methods: they read the class's bases and subclasses and run no user code),
 * each in its dunder-call form too when the sandbox refuses the attribute. */
static void expand_calls(sctx *x, int i, PyObject *v)
{
    static const char *safe[] = {"mro", "__subclasses__"};
    if (!PyType_Check(v) || Py_TYPE(v) != &PyType_Type)
        return;
    for (size_t k = 0; k < sizeof safe / sizeof *safe; k++) {
        PyObject *name = PyUnicode_FromString(safe[k]);
        uint8_t tr[8 + 16];
        size_t n = name && gc_source_writable(x->t, name) ? put_str(tr, 0, GC_P_ATTR, safe[k], strlen(safe[k])) : 0;
        if (n) {
            tr[n++] = GC_P_CALL;
            tr[n++] = 0;
        }
        /* named as the attribute's edge, as the gate sweep and a replayed program name it
         * (holes.h: `type . __subclasses__()`); the program is the call */
        if (n && edge(x, i, F_CALL, GC_EDGE_ATTR, name, tr, n) && safe[k][0] == '_')
            dunder_edge(x, i, name, 1);
        Py_XDECREF(name);
        PyErr_Clear();
    }
}

/* `X()` of a resolver's class whose instance is the resolver (string.Formatter: object's
 * constructor, no user code). */
static void resolver_call(sctx *x, int i, PyObject *v)
{
    static const uint8_t tr[] = {GC_P_CALL, 0};
    for (int k = 0; k < NRESOLVERS; k++)
        if (resolvers[k].instance && v == resolver_class(k))
            edge(x, i, F_RUN, GC_EDGE_CALL, NULL, tr, sizeof tr);
}

/* At code[at], the lookup readback of X (xexpr[xlen], its expression):
 *     try:
 *         X.gatecrash
 *     except Exception as e:
 *         VAR = e.obj
 * closed, then the expression VAR.  The length; *blen: where the statements end.  The caller
 * leaves room (some 40 bytes and VAR past X). */
static size_t put_lookup_readback(uint8_t *code, size_t at, const uint8_t *xexpr, size_t xlen, const char *var,
                                  size_t *blen)
{
    size_t vlen = strlen(var), len = at + 1;
    code[at] = GC_P_TRY;
    memcpy(code + len, xexpr, xlen);
    len = put_str(code, len + xlen, GC_P_ATTR, GC_PM_ABSENT, sizeof GC_PM_ABSENT - 1);
    code[len++] = GC_P_EXPR;
    len = put_str(code, put_str(code, put_str(code, len, GC_P_EXCEPT, "e", 1), GC_P_NAME, "e", 1), GC_P_ATTR, "obj", 3);
    len = put_str(code, len, GC_P_ASSIGN, var, vlen);
    code[len++] = GC_P_END;
    *blen = len;
    return put_str(code, len, GC_P_NAME, var, vlen);
}

/* What a failed lookup on node i's value stopped at, read back from its AttributeError
 * (a statement dialect):
 *     try:
 *         X.gatecrash
 *     except Exception as e:
 *         oI = e.obj
 *     result = oI
 * A value whose lookups are delegated (a proxy's __getattr__ that calls getattr on what it
 * wraps, a module's __getattr__, a lazy loader) gives back the object behind it: the class
 * of RestrictedPython's CVE-2024-47532 (utility_builtins' restricted view of `string`).
 * Generic: any value not a scalar or container (on which the lookup fails on itself, a
 * node already); the block closes, so a resolver's statements may stand before others. */
static void lookup_readback(sctx *x, int i)
{
    gc_source_graph *g = x->g;
    const snode *n = sn(g, i);
    uint8_t code[CODE_MAX];
    char var[16];
    size_t expr = n->len - n->blen, len, blen;
    if ((x->t->spec.adapter.dialect & GC_DIALECT_EXPRESSION) || !inline_ok(g, i) || is_scalar_or_container(wn(g, i)->obj) ||
        n->len + 48 > CODE_MAX)
        return;
    snprintf(var, sizeof var, "o%d", i);
    memcpy(code, n->code, n->blen);
    len = put_lookup_readback(code, n->blen, n->code + n->blen, expr, var, &blen);
    static PyObject *key; /* the edge's name, made once (kept) */
    if (!key && !(key = PyUnicode_InternFromString("obj"))) {
        PyErr_Clear();
        return;
    }
    long before = nnodes(g);
    unsigned char closed = n->closed; /* run_edge may move nodes */
    run_edge(x, i, F_LOOKUP, GC_EDGE_ATTR, key, code, blen, NULL, 0, NULL, 0, code + blen, len - blen);
    if (nnodes(g) > before)
        sn(g, nnodes(g) - 1)->closed = closed;
}

/* Node i's field parts, each to 'part' (item 0: an attribute name, 1: an item's key): the
 * names of its dir() a field can hold that are no method made afresh (`_` ones too, whatever
 * the dialect: a field is data), then its items, an exact dict's (or a class's mappingproxy's)
 * keys or an exact list's or tuple's indices, at most GC_SWEEP_MAX_ITEMS (the only
 * containers a field's lookups read without running code: gc_static_item).  Were items
 * left out? */
static int each_field_part(sctx *x, int i, void (*part)(sctx *x, int i, PyObject *key, int item))
{
    gc_source_graph *g = x->g;
    PyObject *v = wn(g, i)->obj, *names = is_scalar_or_container(v) ? NULL : attr_names(v);
    for (Py_ssize_t k = 0; names && k < PyList_GET_SIZE(names) && !x->rc; k++) {
        PyObject *name = PyList_GET_ITEM(names, k);
        if (PyUnicode_Check(name) && PyUnicode_IS_ASCII(name) && PyUnicode_IsIdentifier(name) &&
            !fresh_method(v, name))
            part(x, i, name, 0);
        PyErr_Clear();
    }
    Py_XDECREF(names);
    PyObject *map = Py_IS_TYPE(v, &PyDictProxy_Type) ? gc_mappingproxy_mapping(v) : v;
    PyObject *keys = PyDict_CheckExact(map) ? PyDict_Keys(map) : NULL;
    Py_ssize_t n = keys                                         ? PyList_GET_SIZE(keys)
                   : PyList_CheckExact(v) || PyTuple_CheckExact(v) ? PySequence_Fast_GET_SIZE(v)
                                                                   : 0;
    for (Py_ssize_t k = 0; k < n && k < GC_SWEEP_MAX_ITEMS && !x->rc; k++) {
        PyObject *key = keys ? Py_NewRef(PyList_GET_ITEM(keys, k)) : PyLong_FromSsize_t(k);
        if (key)
            part(x, i, key, 1);
        Py_XDECREF(key);
        PyErr_Clear();
    }
    Py_XDECREF(keys);
    PyErr_Clear();
    return n > GC_SWEEP_MAX_ITEMS;
}

/* A passage's edges: the readback form of each of its field parts. */
static void expand_passage(sctx *x, int i)
{
    x->st->cut_items += each_field_part(x, i, readback_part);
}

/* ---- host walks ----
 *
 * A format field is data: the walk it names runs in the host (str.format's lookups, a
 * resolver's), where no attribute check of the sandbox runs.  So from each node a program
 * gives back, the sweep walks the host's object graph itself by field parts, `.name` (`_`
 * names too) and `[key]`, with lookups that run no code (gc_static_attr/item: instance and
 * type dicts, CPython's own descriptors), up to HOST_PARTS parts, each object once per
 * hole (as the gate sweep walks real objects; the passages' key in the seen set).  No
 * program runs for an object on the way; one whose value would be an escape (a forbidden
 * primitive, or a namespace or sequence holding one) is written as a program in the form
 * the sandbox allows (the resolver's, else the error readback's) and run, and what it
 * gives is judged as every edge's.  Exhaustive within its parts, and cheap: the programs
 * run are the escapes' (docs/SOURCE.md, "Host walks"). */
#define HOST_PARTS 6

/* Would v, given back, be an escape the value search (source.c) finds at its first step:
 * a forbidden primitive, or a dict, list or tuple holding one (a function's __globals__)? */
static int gives_primitive(PyObject *v)
{
    if (gc_oracle_forbidden(v))
        return 1;
    PyObject *k, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Check(v) && PyDict_Next(v, &pos, &k, &val))
        if (gc_oracle_forbidden(val) || gc_oracle_forbidden(k))
            return 1;
    Py_ssize_t n = PyTuple_Check(v) || PyList_Check(v) ? PySequence_Fast_GET_SIZE(v) : 0;
    for (Py_ssize_t j = 0; j < n && j < GC_SWEEP_MAX_ITEMS; j++)
        if (gc_oracle_forbidden(PySequence_Fast_GET_ITEM(v, j)))
            return 1;
    return 0;
}

/* Can the sweep's resolver write a field part (with 'item', a `[key]` one)? */
static int resolver_writes(const gc_source_graph *g, int item)
{
    return g->resolver >= 0 && (!item || resolvers[g->rkind].items);
}

/* Can node i's field parts be written as a program (with 'item', `[key]` ones)? */
static int field_form(const gc_source_graph *g, int item)
{
    return resolver_writes(g, item) || g->error_readback;
}

/* Node i's part as a program, in the resolver's form, else the readback's. */
static void field_part(sctx *x, int i, PyObject *key, int item)
{
    gc_source_graph *g = x->g;
    if (resolver_writes(g, item))
        resolver_part(x, i, key, item);
    else if (g->error_readback)
        readback_part(x, i, key, item);
}

/* v, node i's part (kind, key) in the host: an escape's program, or a host node. */
static void host_child(sctx *x, int i, int kind, PyObject *key, PyObject *v)
{
    gc_source_graph *g = x->g;
    int item = kind != GC_EDGE_ATTR;
    if (!v || is_scalar(v) || x->rc || !field_form(g, item))
        return;
    if (gives_primitive(v)) {
        field_part(x, i, key, item);
        return;
    }
    char path[GC_P_MAX_STRLEN + 1];
    int r, hole = edge_hole(x, i, kind, key, v);
    if (hole < 0 || sn(g, i)->parts + 1 >= HOST_PARTS || gc_sweep_transient(v) || field_path(g, i, key, item, "", path, &r) < 0 ||
        seen_as(x, v, hole, 1) || visited(x, v, PASSAGE_HOLE(hole)))
        return;
    if (nnodes(g) >= x->o->max_nodes) {
        x->st->cut_nodes++;
        return;
    }
    static const uint8_t none[1];
    unsigned char parts = sn(g, i)->parts; /* push moves nodes */
    push(g, v, key, i, kind, wn(g, i)->depth + 1, hole, none, 0, 0);
    snode *h = sn(g, nnodes(g) - 1);
    h->host = h->early = 1;
    x->st->host_nodes++;
    h->parts = (unsigned char)(parts + 1);
    h->froot = r;
    h->fpath = gc_xstrdup(path);
}

/* Node i's part (key, item) in the host, by the lookups a field makes where no code runs. */
static void host_part(sctx *x, int i, PyObject *key, int item)
{
    gc_source_graph *g = x->g;
    char buf[GC_P_MAX_STRLEN + 1];
    if (item && !field_key(key, buf)) /* no field holds it */
        return;
    PyObject *v = item ? gc_static_item(wn(g, i)->obj, key, 1) : gc_static_attr(wn(g, i)->obj, key);
    host_child(x, i, edge_kind(key, item), key, v);
    Py_XDECREF(v);
}

/* The host walk from program node i, breadth first (its host nodes are expanded here, at
 * once, never by a level). */
static void host_walk(sctx *x, int i)
{
    gc_source_graph *g = x->g;
    if (!inline_ok(g, i) || (g->resolver < 0 && sn(g, i)->blen)) /* the readback's X has no statements */
        return;
    long from = nnodes(g);
    each_field_part(x, i, host_part);
    for (long k = from; k < nnodes(g) && !x->rc; k++)
        if (sn(g, k)->host)
            each_field_part(x, (int)k, host_part);
}

/* Node i's host walk, now or (no form to write its programs in yet) once a resolver is
 * found; and the walks that waited, when one has been. */
static void host_walks(sctx *x, int i)
{
    gc_source_graph *g = x->g;
    if (i >= 0 && !field_form(g, 0)) {
        if (g->nhwait == g->caphwait) {
            g->caphwait = g->caphwait ? g->caphwait * 2 : 256;
            g->hwait = gc_xrealloc(g->hwait, (size_t)g->caphwait * sizeof *g->hwait);
        }
        g->hwait[g->nhwait++] = i;
        return;
    }
    int before = gc_walk_nfinds(g->w), ran = field_form(g, 0) && g->nhwait > 0;
    for (long k = 0; field_form(g, 0) && k < g->nhwait && !x->rc; k++)
        host_walk(x, (int)g->hwait[k]);
    if (field_form(g, 0))
        g->nhwait = 0;
    if (ran && gc_walk_nfinds(g->w) > before && x->o->level) /* a campaign has them now, not at the level's end */
        x->o->level(x->o->level_ctx, g, i >= 0 ? wn(g, i)->depth + 1 : 0, -1);
    if (i >= 0 && !x->rc)
        host_walk(x, i);
}

static void expand(sctx *x, int i)
{
    gc_source_graph *g = x->g;
    PyObject *v = wn(g, i)->obj;
    if (sn(g, i)->passage) {
        expand_passage(x, i);
        return;
    }
    host_walks(x, i);
    note_resolver(x, i);
    resolver_call(x, i, v);
    lookup_readback(x, i);
    expand_attrs(x, i, v);
    expand_items(x, i, v);
    expand_calls(x, i, v);
    expand_own_calls(x, i, v);
}

/* ---- roots ---- */

/* The names of 'names' (a list of str) the dialect writes and 'except' (a list, or NULL)
 * lacks, shortest first then by name, each once (a new list). */
static PyObject *shortest_first(const gc_target *t, PyObject *names, PyObject *except)
{
    PyObject *bylen = PyList_New(0), *out = PyList_New(0);
    for (Py_ssize_t k = 0; names && bylen && k < PyList_GET_SIZE(names); k++) {
        PyObject *name = PyList_GET_ITEM(names, k);
        int skip = !gc_source_writable(t, name) || (except && PySequence_Contains(except, name) == 1);
        PyObject *pair = skip ? NULL : Py_BuildValue("(nO)", PyUnicode_GET_LENGTH(name), name);
        if (pair)
            PyList_Append(bylen, pair);
        Py_XDECREF(pair);
    }
    if (bylen && out && PyList_Sort(bylen) == 0)
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(bylen); k++) {
            PyObject *name = PyTuple_GET_ITEM(PyList_GET_ITEM(bylen, k), 1);
            if (k == 0 || PyUnicode_Compare(name, PyTuple_GET_ITEM(PyList_GET_ITEM(bylen, k - 1), 1)) != 0)
                PyList_Append(out, name);
        }
    Py_XDECREF(bylen);
    PyErr_Clear();
    return out;
}

/* The names roots() gives that the dialect writes, shortest first then by name (the same
 * value under two names is reported by the shorter): a new list of str. */
static PyObject *root_names(gc_target *t, char *err, size_t errlen)
{
    static char names[1024][65];
    int n = gc_adapter_roots(&t->adapter, t->spec.sandbox, names, 1024, err, errlen);
    if (n < 0)
        return NULL;
    PyObject *list = PyList_New(0);
    for (int k = 0; list && k < n; k++) {
        PyObject *name = PyUnicode_FromString(names[k]);
        if (name)
            PyList_Append(list, name);
        Py_XDECREF(name);
    }
    PyObject *out = shortest_first(t, list, NULL);
    Py_XDECREF(list);
    return out;
}

/* The implicit roots: the names of the builtins module and "__builtins__" that the dialect
 * writes and 'given' (roots()'s) lacks, shortest first then by name (a new list). */
static PyObject *implicit_roots(const gc_target *t, PyObject *given)
{
    PyObject *mod = PyImport_ImportModule("builtins");
    PyObject *dir = mod ? PyObject_Dir(mod) : NULL;
    PyObject *own = PyUnicode_FromString("__builtins__");
    if (dir && own)
        PyList_Append(dir, own);
    PyObject *out = shortest_first(t, dir, given);
    Py_XDECREF(own);
    Py_XDECREF(dir);
    Py_XDECREF(mod);
    PyErr_Clear();
    return out;
}

/* A root's bytes: a name, one of the literals ('', 0, [], ()), or (literals 4 to 7) the
 * generator's running frame, the exception, the coroutine's and the async generator's
 * running frames. */
static size_t root_code(PyObject *name, int literal, uint8_t *code)
{
    static const uint8_t lit[][2] = {{GC_P_STR, 0}, {GC_P_INT, 0}, {GC_P_LIST, 0}, {GC_P_TUPLE, 0}};
    if (literal == 4) {
        memcpy(code, gen_root, sizeof gen_root);
        return sizeof gen_root;
    }
    if (literal == 5) {
        memcpy(code, exc_root, sizeof exc_root);
        return sizeof exc_root;
    }
    if (literal == 6) {
        memcpy(code, cor_root, sizeof cor_root);
        return sizeof cor_root;
    }
    if (literal == 7) {
        memcpy(code, agen_root, sizeof agen_root);
        return sizeof agen_root;
    }
    if (literal >= 0) {
        memcpy(code, lit[literal], 2);
        return 2;
    }
    Py_ssize_t sz;
    const char *s = PyUnicode_AsUTF8AndSize(name, &sz);
    return s ? put_str(code, 0, GC_P_NAME, s, (size_t)sz) : 0;
}

PyObject *gc_source_roots_ns(gc_target *t, char *err, size_t errlen)
{
    PyObject *names = root_names(t, err, errlen);
    PyObject *ns = names ? PyDict_New() : NULL;
    for (Py_ssize_t k = 0; ns && k < PyList_GET_SIZE(names); k++) {
        uint8_t code[CODE_MAX];
        static gc_verdict out;
        gc_strbuf sb;
        PyObject *v = NULL, *name = PyList_GET_ITEM(names, k);
        size_t len = root_code(name, -1, code);
        if (len && run_code(t, code, len, &out, &v, &sb, NULL) == 0 && v)
            PyDict_SetItem(ns, name, v);
        gc_sb_free(&sb);
        Py_XDECREF(v);
    }
    Py_XDECREF(names);
    PyErr_Clear();
    return ns;
}

PyObject *gc_source_readbacks_ns(gc_target *t, PyObject *roots)
{
    PyObject *ns = PyDict_New(), *name, *v;
    Py_ssize_t pos = 0;
    while (ns && !(t->spec.adapter.dialect & GC_DIALECT_EXPRESSION) && PyDict_Next(roots, &pos, &name, &v)) {
        uint8_t root[2 + GC_P_MAX_STRLEN], code[CODE_MAX];
        size_t rlen = root_code(name, -1, root), blen, len = rlen ? put_lookup_readback(code, 0, root, rlen, "o", &blen) : 0;
        static gc_verdict out;
        gc_strbuf sb;
        PyObject *got = NULL;
        if (len && run_code(t, code, len, &out, &got, &sb, NULL) == 0 && got && got != v && got != Py_None)
            PyDict_SetItem(ns, name, got);
        if (len)
            gc_sb_free(&sb);
        Py_XDECREF(got);
    }
    PyErr_Clear();
    return ns;
}

/* The host's own builtins.__import__ (borrowed), or NULL. */
static PyObject *own_import(void)
{
    PyObject *b = PyEval_GetBuiltins(); /* borrowed; the interpreter's own builtins */
    return b ? PyDict_GetItemString(b, "__import__") : NULL;
}

/* Run each root's program: its value queued at depth 0 (into x->ns too), an escaping one
 * recorded; the generator's frame only in a dialect with statements.  0 or an exit code. */
static int push_roots(sctx *x)
{
    gc_source_graph *g = x->g;
    static const char *lit_names[] = {"''", "0", "[]", "()", "gi_frame", "e", "cr_frame", "ag_frame"};
    int nlits = x->t->spec.adapter.dialect & GC_DIALECT_EXPRESSION ? 4 : 8;
    char err[512];
    PyObject *names = root_names(x->t, err, sizeof err);
    if (!names) {
        gc_die_msg("%s", err);
        return GC_EXIT_TARGET;
    }
    Py_ssize_t given = PyList_GET_SIZE(names); /* roots()'s; the implicit ones after them */
    PyObject *implicit = implicit_roots(x->t, names);
    for (Py_ssize_t k = 0; implicit && k < PyList_GET_SIZE(implicit); k++)
        PyList_Append(names, PyList_GET_ITEM(implicit, k));
    Py_XDECREF(implicit);
    Py_ssize_t nroots = PyList_GET_SIZE(names);
    for (Py_ssize_t k = 0; !x->rc && !gc_limits_stopping() && k < nroots + nlits; k++) {
        int lit = k < nroots ? -1 : (int)(k - nroots);
        PyObject *name = lit < 0 ? PyList_GET_ITEM(names, k) : PyUnicode_FromString(lit_names[lit]);
        if (lit >= 0 && !name)
            break;
        uint8_t code[CODE_MAX];
        size_t len = root_code(name, lit, code);
        static gc_verdict out;
        gc_strbuf sb;
        PyObject *v = NULL;
        x->st->edges++;
        x->rc = len ? run_code(x->t, code, len, &out, &v, &sb, NULL) : 0;
        gc_sb_free(&sb);
        if (!x->rc && v) {
            if (k < given) /* what the sandbox means to hand out, for the hole rule */
                PyDict_SetItem(x->ns, name, v);
            if (lit < 0)
                note_own_fn(g, name, v);
            x->importer |= v == own_import();
            int h = gc_walk_root_hole(g->w, name, v);
            if (h < 0)
                ; /* closed: the sandbox no longer hands it out (sweep --close) */
            else if (out.escaped)
                x->rc = record(x, code, len, &out, h, 0);
            else if (!visited(x, v, h)) {
                push(g, v, name, -1, ROOT, 0, h, code, len, lit == 5 ? EXC_ROOT_BLEN : 0);
                sn(g, nnodes(g) - 1)->fresh = lit >= 4;
            }
        }
        Py_XDECREF(v);
        if (lit >= 0)
            Py_DECREF(name);
    }
    Py_DECREF(names);
    PyErr_Clear();
    return x->rc;
}

/* ---- import roots ----
 *
 * A module the host process has loaded (its sys.modules) is a root where the sandbox lets a
 * program import it: `import M` at the top level, else in `if 1:`, else in a def's body
 * (gc_sweep_form_import), the first form that gives a value back.  Each form is answered by
 * a rule as an edge is (one rule per form and type of what the import gives, whatever the
 * module: a probe per form, the others answered in the host, an escape always run, every
 * HOST_SAMPLE-th of the language's forms a sampled confirmation).  Bounded: sys.modules can
 * hold over a thousand modules, so only those no earlier root reached (the visited set), in
 * the order shortest name first then by name, at most IMPORT_TRIES of them tried and
 * IMPORT_ROOTS queued. */
#define IMPORT_ROOTS 64
#define IMPORT_TRIES 256

/* Can a program import 'name': dotted parts the dialect writes, the whole no longer than a
 * string of the IR? */
static int module_writable(const gc_target *t, PyObject *name)
{
    PyObject *dot = PyUnicode_FromString(".");
    PyObject *parts = dot && PyUnicode_Check(name) && PyUnicode_GET_LENGTH(name) <= GC_P_MAX_STRLEN
                          ? PyUnicode_Split(name, dot, -1)
                          : NULL;
    int ok = parts && PyList_GET_SIZE(parts) > 0;
    for (Py_ssize_t k = 0; ok && k < PyList_GET_SIZE(parts); k++)
        ok = gc_source_writable(t, PyList_GET_ITEM(parts, k));
    Py_XDECREF(parts);
    Py_XDECREF(dot);
    PyErr_Clear();
    return ok;
}

/* The names of the host's sys.modules a program can import, shortest first then by name (a
 * new list: the modules the programs import on the way do not change it). */
static PyObject *module_names(const gc_target *t)
{
    PyObject *keys = PyDict_Keys(PyImport_GetModuleDict()), *bylen = PyList_New(0), *out = PyList_New(0);
    for (Py_ssize_t k = 0; keys && bylen && k < PyList_GET_SIZE(keys); k++) {
        PyObject *name = PyList_GET_ITEM(keys, k);
        PyObject *pair = module_writable(t, name) ? Py_BuildValue("(nO)", PyUnicode_GET_LENGTH(name), name) : NULL;
        if (pair)
            PyList_Append(bylen, pair);
        Py_XDECREF(pair);
    }
    if (bylen && out && PyList_Sort(bylen) == 0)
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(bylen); k++)
            PyList_Append(out, PyTuple_GET_ITEM(PyList_GET_ITEM(bylen, k), 1));
    Py_XDECREF(keys);
    Py_XDECREF(bylen);
    PyErr_Clear();
    return out;
}

/* The host's answer for an import of 'mod' in 'form' (F_IMPORT + where), as host_answer's for
 * an edge: the module, and the rule of (form, the type of what the import gives). */
static void import_answer(sctx *x, int form, PyObject *mod, hanswer *h)
{
    memset(h, 0, sizeof *h);
    h->form = form;
    if (x->o->exhaustive || !x->rules)
        return;
    h->hv = Py_NewRef(mod);
    answer_by_rule(x, h, Py_BuildValue("(iiOOO)", form, 0, Py_None, Py_None, (PyObject *)Py_TYPE(mod)));
}

/* The import of module 'name' (mod, its sys.modules entry; hole, its root's) in its first form
 * that gives a value back or escapes: an escape recorded, a new value queued at depth 0.  1
 * when it queued one. */
static int import_root(sctx *x, PyObject *name, PyObject *mod, int hole)
{
    gc_source_graph *g = x->g;
    Py_ssize_t sz;
    const char *s = PyUnicode_AsUTF8AndSize(name, &sz);
    int done = !s, queued = 0;
    for (int where = 0; where < GC_SWEEP_NIMPORT && !done && !x->rc; where++) {
        uint8_t code[CODE_MAX];
        size_t blen, len = gc_sweep_form_import(s, (size_t)sz, where, code, sizeof code, &blen);
        if (!len)
            continue;
        static gc_verdict out;
        PyObject *v = NULL;
        hanswer h;
        import_answer(x, F_IMPORT + where, mod, &h);
        int run = !h.known || !h.rule || (h.rule & RULE_RUN);
        if (!run && (h.rule & RULE_OK) && h.prim[0]) {
            gc_oracle_reset_input();
            run = !found_already(g, h.prim, hole, 0);
        } else if (!run)
            run = sampled(x, &h);
        if (run) {
            /* an import binds no None: a sandbox that turns its error into None */
            run_learning(x, &h, code, len, &out, &v, 0, 1);
        } else { /* answered by a rule */
            x->st->host_answered++;
            gc_oracle_reset_input();
            out.escaped = 0;
            v = h.rule & RULE_OK ? Py_NewRef(mod) : NULL;
            done = v && h.prim[0]; /* an escape kept already for its signature and hole: a leaf */
            if (done)
                Py_CLEAR(v);
        }
        Py_XDECREF(h.hv);
        Py_XDECREF(h.rkey);
        done |= out.escaped || v;
        if (!x->rc && out.escaped && run)
            x->rc = record(x, code, len, &out, hole, 0);
        else if (!x->rc && v && !gc_sweep_transient(v) && nnodes(g) < x->o->max_nodes && !visited(x, v, hole)) {
            push(g, v, name, -1, ROOT, 0, hole, code, len, blen);
            sn(g, nnodes(g) - 1)->closed = 1;  /* its blocks end before the expression */
            sn(g, nnodes(g) - 1)->fresh = v != mod; /* not the host's module: the host cannot answer */
            queued = 1;
        }
        Py_XDECREF(v);
    }
    return queued;
}

/* The import roots (above), after the others; none where a root gave back the host's own
 * __import__ (the sandbox hands out the import machinery itself: an import statement passes
 * no check of its, and every module would be a root of a graph many times the sweep's
 * without them).  0 or an exit code. */
static int push_imports(sctx *x)
{
    gc_source_graph *g = x->g;
    if ((x->t->spec.adapter.dialect & GC_DIALECT_EXPRESSION) || x->importer)
        return 0;
    PyObject *names = module_names(x->t);
    int queued = 0, tried = 0;
    for (Py_ssize_t k = 0; names && k < PyList_GET_SIZE(names) && queued < IMPORT_ROOTS && tried < IMPORT_TRIES &&
                           !x->rc && !gc_limits_stopping();
         k++) {
        PyObject *name = PyList_GET_ITEM(names, k);
        PyObject *mod = Py_XNewRef(PyDict_GetItemWithError(PyImport_GetModuleDict(), name)); /* as it is now */
        PyErr_Clear();
        int hole = mod && PyModule_Check(mod) ? gc_walk_root_hole(g->w, name, mod) : -1;
        if (hole >= 0 && !seen_as(x, mod, hole, 1)) { /* reached by no earlier root */
            tried++;
            queued += import_root(x, name, mod, hole);
        }
        Py_XDECREF(mod);
    }
    x->st->cut_items += names && tried == IMPORT_TRIES;
    Py_XDECREF(names);
    return x->rc;
}

/* ---- the sweep ---- */

/* The roots, then the one probe of the error readback, then the import roots
 * (gc_walk_ops.roots). */
static int walk_roots(void *m, gc_walk *w)
{
    sctx *x = m;
    (void)w;
    int rc = push_roots(x);
    rc = rc ? rc : probe_readback(x);
    return rc ? rc : push_imports(x);
}

/* Node i of a level (gc_walk_ops.node): expanded within the depth bound; 1 when not
 * (a host node, expanded by its host walk; one expanded early), or an exit code. */
static int walk_node(void *m, gc_walk *w, long i)
{
    sctx *x = m;
    gc_source_graph *g = x->g;
    if (sn(g, i)->host || gc_walk_at_depth(w, i))
        return 1;
    if (sn(g, i)->early || gc_sweep_transient(wn(g, i)->obj) || gc_sweep_skips(x->o, i))
        return 1;
    expand(x, (int)i);
    return x->rc;
}

/* After a level's nodes [from, to) (gc_walk_ops.level_end): the late shallow nodes.  A
 * field walk waits for the sweep's first path resolver (note_resolver), so the walks asked
 * for at shallower depths run when it is found, and queue their values behind this
 * level's, at their own depth.  Those queued no deeper than this level's nodes are expanded
 * now (marked early, the next level skips them): the level is complete only with them, and
 * a budget that cannot fit the next level still covers them.  0 or an exit code. */
static int level_end(void *m, gc_walk *w, long from, long to)
{
    sctx *x = m;
    gc_source_graph *g = x->g;
    int level = 0;
    for (long i = from; i < to; i++)
        level = wn(g, i)->depth > level ? wn(g, i)->depth : level;
    for (long i = to; i < nnodes(g) && !x->rc; i++) {
        if (wn(g, i)->depth > level || sn(g, i)->early)
            continue;
        int rc = gc_walk_step(w, i);
        if (rc)
            return rc == 1 ? 0 : rc;
        sn(g, i)->early = 1;
    }
    if (!x->rc)
        host_walks(x, -1); /* those a resolver found in this level lets run */
    return x->rc;
}

/* The programs nodes [from, to) will run, estimated for the budget's projection: a
 * container or scalar runs a few, a value about one per name of its dir().  Sampled: at most
 * 256 nodes evenly spaced, scaled to the level. */
static long level_work(void *m, long from, long to)
{
    sctx *x = m;
    const gc_source_graph *g = x->g;
    long n = to - from, step = n > 256 ? n / 256 : 1, sampled = 0, work = 0;
    for (long i = from; i < to; i += step, sampled++) {
        PyObject *v = wn(g, i)->obj;
        if (wn(g, i)->depth >= x->o->depth || sn(g, i)->early || gc_sweep_transient(v))
            continue;
        Py_ssize_t items = PyList_Check(v) || PyTuple_Check(v) || PyDict_Check(v) ? PyObject_Length(v) : 0;
        PyObject *d = is_scalar_or_container(v) ? NULL : PyObject_Dir(v);
        work += 1 + (items > 0 ? items : 0) + (d && PyList_Check(d) ? PyList_GET_SIZE(d) : 0);
        Py_XDECREF(d);
        PyErr_Clear();
    }
    return sampled ? work * n / sampled : 0;
}

static const gc_walk_ops source_walk = {
    .unit = "programs",
    .node_ext = sizeof(snode),
    .find_ext = sizeof(sfound),
    .sort_hole = 1,
    .roots = walk_roots,
    .node = walk_node,
    .level_end = level_end,
    .work = level_work,
    .confirm = confirm_program,
    .free_node = free_snode,
};

int gc_source_sweep(gc_target *t, const gc_sweep_opts *o, gc_sweep_stats *st, gc_source_graph **out)
{
    memset(st, 0, sizeof *st);
    gc_source_graph *g = gc_xcalloc(1, sizeof *g);
    g->resolver = -1;
    double start = gc_now_s();
    sctx x = {t, o, st, PyDict_New(), 0, g, 0, 0, NULL, 0, 0, 0};
    g->w = gc_walk_new(&source_walk, &x, o, st, x.ns);
    if (!o->exhaustive && gc_orc.mode == GC_MODE_REACH) /* the host predicts only the value search's escapes */
        x.rules = PyDict_New();
    int rc = x.ns ? gc_walk_run(g->w, g) : GC_EXIT_HARNESS;
    double took = gc_now_s() - start;
    if (!rc && !o->quiet)
        fprintf(stderr,
                "[sweep %5.2fs] done: %ld nodes, %ld programs (%.0f programs/s), %d escape signature(s); "
                "%ld edges answered in the host, %ld probes, %ld confirmations, %ld rule(s) found wrong\n",
                took, st->nodes, st->edges, took > 0 ? st->edges / took : 0.0, st->escapes, st->host_answered,
                st->probes, st->confirms, st->mismatches);
    gc_finding *f;
    int n = gc_source_sweep_findings(g, &f);
    if (!rc && !o->no_report)
        gc_sweep_report(t, o, st, f, n);
    fflush(stdout);
    for (int k = 0; !rc && o->save_program && k < n; k++)
        o->save_program(o->save_ctx, t, f[k].chain);
    free(f);
    Py_XDECREF(x.ns);
    Py_XDECREF(x.rules);
    if (out)
        *out = rc ? NULL : g;
    if (!out || rc)
        gc_source_sweep_free(g);
    return rc;
}

int gc_source_sweep_findings(const gc_source_graph *g, gc_finding **out)
{
    return gc_walk_findings(g->w, out);
}

void gc_source_sweep_inputs(const gc_source_graph *g, gc_inputs *out)
{
    for (int k = 0; k < gc_walk_nfinds(g->w); k++) {
        const sfound *d = gc_walk_find_ext(g->w, k);
        gc_inputs_add(out, d->code, d->len);
    }
}

void gc_source_sweep_frontier(const gc_source_graph *g, gc_inputs *out, int max)
{
    uint8_t buf[CODE_MAX + 64];
    for (long i = 0; i < gc_walk_frontier_end(g->w) && out->n < max; i++) { /* the complete levels' */
        size_t n = program_code(sn(g, i)->code, sn(g, i)->len, buf, sizeof buf);
        if (n)
            gc_inputs_add(out, buf, n);
    }
}
