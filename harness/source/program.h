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
 *
 * Names are made identifiers (other bytes map onto letters); a FMT field keeps only
 * identifier characters and dots, a FIELD/FMTMAP field also '[' and ']'.
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
    GC_P_NOPS
} gc_p_op;

typedef struct {
    uint16_t off, len;
} gc_p_str;

/* An expression node.  Children are earlier nodes (a[i] < this node's index): a program is
 * acyclic by construction, and its nesting is bounded by 'depth'. */
typedef struct {
    uint8_t op;    /* GC_P_NAME .. GC_P_COMP, GC_P_GEN, GC_P_FIELD .. GC_P_FILTER */
    uint8_t n;     /* children in a[] */
    uint8_t depth; /* 1 + the deepest child's */
    int8_t ival;   /* GC_P_INT */
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
} gc_p_stmt;

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
 * (GC_DIALECT_STEPS), GC_STEP_MARKER lines where its steps begin. */
void gc_program_print(const gc_program *p, unsigned dialect, gc_strbuf *out);

/* The op at data[off] (off < size) as the decoder reads it: its length with its operand (a
 * count or int byte; a string's length byte and bytes), cut at 'size', and the operand's
 * kind.  For an opcode-level pass over an encoding (triage's minimizer). */
typedef enum { GC_P_OPERAND_NONE, GC_P_OPERAND_BYTE, GC_P_OPERAND_STR } gc_p_operand;
size_t gc_program_op_len(const uint8_t *data, size_t size, size_t off, gc_p_operand *kind);

#endif
