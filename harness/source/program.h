/* program.h — the program language of source mode: what a fuzz input says an untrusted
 * program does, for sandboxes that take Python source (source.h).
 *
 * Owns: the program IR (statements and expressions in one bounded value), its decoder
 * (any bytes -> program, never failing, linear, bounded), its encoder (program -> the bytes
 * that decode back to it: what a mutator writes) and its printer (program -> Python source
 * in a target's dialect).  Knows nothing of CPython; the chain language (chain.h) is
 * separate and unchanged.
 *
 * The bytes are a little stack machine, one opcode per byte (byte % GC_P_NOPS), some with
 * an operand: a count byte, a signed int byte, or a string (a length byte, then that many
 * bytes, cut at the input's end).  Expression opcodes push, statement opcodes pop; an
 * opcode whose operands are not on the stack, or that would pass a bound, does nothing.
 *
 *     NAME s | STR s | INT i | NONE | TRUE | FALSE          push a name or a literal
 *     LIST n | TUPLE n                                      pop n, push [..] / (..)
 *     ATTR s | ITEM | CALL n                                trailers: e.s, e[i], f(a..)
 *     FMT s                                                 pop e, push '{0.s}'.format(e)
 *     COMP s | GEN s                                        pop it, elt: [elt for s in it],
 *                                                           (elt for s in it)
 *     EXPR | ASSIGN s | RETURN                              statements: e, s = e, return e
 *     TRY | EXCEPT s | DEF s | END                          blocks: try/except Exception as
 *                                                           s, def s():, end of the block
 *     FOR s                                                 block: pop e, for s in e:
 *     FIELD s | FMTMAP s                                    pop e, push '{0.s}'.format(e) /
 *                                                           '{k.s}'.format_map({'k': e}): a
 *                                                           field walk of .attr and [key] parts
 *     EQ                                                    pop a b, push (a == b)
 *     FILTER s                                              pop elt it cond:
 *                                                           [elt for s in it if cond]
 *     ASYNCDEF s                                            block: async def s():
 *     YIELD                                                 statement: yield e
 *   after YIELD (docs/SOURCE.md has the table node -> opcode -> test):
 *     KW s | STAR | DSTAR                                   pop e: s=e, *e, **e where a call,
 *                                                           a class's bases or a display takes
 *                                                           them; elsewhere e
 *     IMPORT m a | FROM m n a                               import m [as a], from m import n
 *                                                           [as a] (a empty: no as)
 *     IF | WHILE | WITH a | CLASS s                         blocks: pop e, if e:, while e:,
 *                                                           with e [as a]:, class s(e):
 *     ELSE                                                  else: of the if/for/while open
 *     BINOP o | UNARY o | BOOLOP o | CMP o                  pop b a / a: (a o b), (o a)
 *     IFEXP | LAMBDA a | LAMBDAKW s                         pop a b c: (a if b else c); pop e:
 *                                                           (lambda a: e); pop d e: (lambda s=d: e)
 *     DICT n | SET n | SLICE m                              pop 2n: {k: v}; pop 1+n: {..}; pop e
 *                                                           and m's parts: e[lo:hi:st]
 *     DICTCOMP s | SETCOMP s                                pop k v it / elt it: comprehensions
 *     WALRUS s | AWAIT | FSTR f                             pop e: (s := e), (await e),
 *                                                           f"{ e :f}"
 *     BYTES s | ELLIPSIS                                    push b'..', ...
 *     STORE | AUG o | ANN s | DEL | RAISE | RAISEFROM | ASSERT
 *                                                           pop t v: t = v, t o= v, s: t = v;
 *                                                           pop t: del t, raise t; pop a b:
 *                                                           raise a from b, assert a, b
 *     PASS | BREAK | CONTINUE | GLOBAL s | NONLOCAL s       simple statements
 *     YIELDFROM | DECO                                      pop e: yield from e, @e
 *     ASYNCFOR s | ASYNCWITH a | EXCEPTSTAR s               async for/with (in an async def,
 *                                                           else for/with), except* E as s
 *     MATCH | CASE                                          block: pop e, match e:; in it,
 *                                                           pop p, case p: (nothing else
 *                                                           stands in a match's block), p an
 *                                                           expression printed as a pattern
 *     TYPEALIAS s | TPARAM s k                              pop e: type s = e; a type parameter
 *                                                           (s, *s, **s by k) of the def, class
 *                                                           or type alias after it (3.12: in
 *                                                           other dialects dropped)
 *
 * Names are made identifiers (other bytes map onto letters); a FMT field keeps only
 * identifier characters and dots, a FIELD/FMTMAP field also '[' and ']'; a module name is
 * dotted identifiers (FROM's may start with dots).  The decoder keeps what would not compile
 * wherever it sees it (break outside a loop is pass, return outside a def an expression);
 * what depends on the whole program (await outside an async def, a walrus in a
 * comprehension, a global after a use, a nonlocal with no binding, a decorator with nothing
 * to decorate, a target that cannot be assigned) the printer drops, and counts.
 * Round trip: decode(encode(p)) prints as p does. */
#ifndef GATECRASH_PROGRAM_H
#define GATECRASH_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "dialect.h"
#include "strbuf.h"

#define GC_P_MAX_INPUT 4096 /* bytes of an input that are decoded at all */
#define GC_P_MAX_EXPRS 256
#define GC_P_MAX_STMTS 64
#define GC_P_MAX_ARGS 4     /* call arguments, list and tuple elements */
#define GC_P_MAX_DEPTH 16   /* expression nesting */
#define GC_P_MAX_BLOCKS 4   /* nested try/def blocks */
#define GC_P_MAX_STACK 32
#define GC_P_MAX_STRLEN 64
#define GC_P_ARENA 8192

typedef enum {
    GC_P_NAME, GC_P_STR, GC_P_INT, GC_P_NONE, GC_P_TRUE, GC_P_FALSE, GC_P_LIST, GC_P_TUPLE,
    GC_P_ATTR, GC_P_ITEM, GC_P_CALL, GC_P_FMT, GC_P_COMP,
    GC_P_EXPR, GC_P_ASSIGN, GC_P_RETURN, GC_P_TRY, GC_P_EXCEPT, GC_P_DEF, GC_P_END,
    GC_P_GEN, GC_P_FOR, /* after END: the earlier opcodes keep their bytes */
    GC_P_FIELD, GC_P_FMTMAP, GC_P_EQ, GC_P_FILTER, GC_P_ASYNCDEF, /* after FOR, likewise */
    GC_P_YIELD, /* after ASYNCDEF, likewise */
    /* after YIELD, likewise: every node of Python's ast */
    GC_P_KW, GC_P_STAR, GC_P_DSTAR,                                  /* call arguments */
    GC_P_IMPORT, GC_P_FROM,                                           /* imports */
    GC_P_IF, GC_P_ELSE, GC_P_WHILE, GC_P_WITH, GC_P_CLASS,            /* blocks */
    GC_P_BINOP, GC_P_UNARY, GC_P_BOOLOP, GC_P_CMP, GC_P_IFEXP, GC_P_LAMBDA, GC_P_LAMBDAKW,
    GC_P_DICT, GC_P_SET, GC_P_SLICE, GC_P_DICTCOMP, GC_P_SETCOMP, GC_P_WALRUS, GC_P_AWAIT,
    GC_P_FSTR, GC_P_BYTES, GC_P_ELLIPSIS,                             /* expressions */
    GC_P_STORE, GC_P_AUG, GC_P_ANN, GC_P_DEL, GC_P_RAISE, GC_P_RAISEFROM, GC_P_ASSERT,
    GC_P_PASS, GC_P_BREAK, GC_P_CONTINUE, GC_P_GLOBAL, GC_P_NONLOCAL, GC_P_YIELDFROM,
    GC_P_DECO, GC_P_ASYNCFOR, GC_P_ASYNCWITH, GC_P_EXCEPTSTAR,        /* statements */
    GC_P_MATCH, GC_P_CASE,                                            /* match */
    GC_P_TYPEALIAS, GC_P_TPARAM,                                      /* 3.12 */
    GC_P_NOPS
} gc_p_op;

typedef struct {
    uint16_t off, len;
} gc_p_str;

/* An expression node.  Children are earlier nodes (a[i] < this node's index): a program is
 * acyclic by construction, and its nesting is bounded by 'depth'. */
typedef struct {
    uint8_t op;    /* an expression opcode */
    uint8_t n;     /* children in a[] */
    uint8_t depth; /* 1 + the deepest child's */
    int8_t ival;   /* GC_P_INT; the operator of BINOP/UNARY/BOOLOP/CMP, the parts of SLICE */
    uint16_t a[GC_P_MAX_ARGS + 1];
    gc_p_str s;    /* name, string, attribute, format field, comprehension/generator variable */
} gc_p_expr;

/* A statement: EXPR/ASSIGN/RETURN/YIELD/FOR (expr set), or a block line TRY/EXCEPT/DEF/ASYNCDEF,
 * all at 'depth' (indentation).  END is not stored: a block ends where depth drops.  RETURN and
 * YIELD stand only in a def's block (elsewhere they decode as EXPR), and never both in one
 * async def's (an async generator cannot return a value): the later one decodes as EXPR. */
typedef struct {
    uint8_t op;
    uint8_t depth;
    uint16_t expr;
    gc_p_str s;
    uint16_t expr2; /* the second popped: STORE/AUG/ANN's value, RAISEFROM's cause, ASSERT's message */
    uint8_t ival;   /* AUG's operator, TPARAM's kind */
    gc_p_str t, u;  /* IMPORT's alias; FROM's name and alias */
} gc_p_stmt;

/* Does a statement of 'op' open an indented block (its body follows at depth + 1)? */
static inline int gc_p_opens_block(uint8_t op)
{
    return op == GC_P_TRY || op == GC_P_DEF || op == GC_P_FOR || op == GC_P_ASYNCDEF || op == GC_P_IF ||
           op == GC_P_WHILE || op == GC_P_WITH || op == GC_P_CLASS || op == GC_P_ASYNCFOR || op == GC_P_ASYNCWITH ||
           op == GC_P_MATCH;
}
/* The same, or a clause of one (except, else, except*, case): a line a body follows. */
static inline int gc_p_has_body(uint8_t op)
{
    return gc_p_opens_block(op) || op == GC_P_EXCEPT || op == GC_P_ELSE || op == GC_P_EXCEPTSTAR || op == GC_P_CASE;
}

typedef struct {
    int nexprs, nstmts;
    uint32_t arena_used;
    gc_p_expr e[GC_P_MAX_EXPRS];
    gc_p_stmt s[GC_P_MAX_STMTS];
    char arena[GC_P_ARENA];
} gc_program;

/* Any bytes (the first GC_P_MAX_INPUT) into p.  Never fails; p may have no statement. */
void gc_program_decode(const uint8_t *data, size_t size, gc_program *p);
/* p as bytes that decode to a program printing as p does.  Returns the length written, or
 * 0 when it does not fit in cap. */
size_t gc_program_encode(const gc_program *p, uint8_t *out, size_t cap);
/* p as Python source in 'dialect' (GC_DIALECT_*), one statement a line, blocks indented and
 * completed (pass, except Exception: pass) so that it always compiles; with steps
 * (GC_DIALECT_STEPS), GC_STEP_MARKER lines where its steps begin.  Returns how many forms
 * it dropped (printed as their value alone, or pass) where they would not compile. */
int gc_program_print(const gc_program *p, unsigned dialect, gc_strbuf *out);

/* The op at data[off] (off < size) as the decoder reads it: its length with its operands (a
 * count or int byte; a string's length byte and bytes; IMPORT's and FROM's two and three
 * strings), cut at 'size', and the operand's kind (NONE for more than one operand).  For an
 * opcode-level pass over an encoding (triage's minimizer). */
typedef enum { GC_P_OPERAND_NONE, GC_P_OPERAND_BYTE, GC_P_OPERAND_STR } gc_p_operand;
size_t gc_program_op_len(const uint8_t *data, size_t size, size_t off, gc_p_operand *kind);

#endif
