/* chain.h — the chain language: what a fuzz input or a saved case says handler code does.
 *
 * Owns: the chain data model, the decoder (bytes -> chain, strict for saved files, lenient
 * for fuzz inputs), and the printers (chain -> text that parses back to the same chain).
 * Knows nothing of CPython: the evaluator gives chains their meaning (and the reproducer
 * runner, escapes/reproduce.py, reads saved chains with its own reader).
 *
 * Syntax (a subset of Python expression syntax, one statement per line or separated by ';'):
 *
 *     statement := root trailer*            # comment
 *     root      := NAME | '_'               '_' is the previous statement's value
 *     trailer   := '.' NAME                 getattr
 *                | '[' STRING ']'           item with a str key
 *                | '[' INT ']'              item with an int key / index
 *                | '(' [arg (',' arg)*] ')' call; a call that raises yields the exception
 *                | '.#' K                   exploration: the K-th name of dir(v)
 *                | '[#' K ']'               exploration: the K-th item of v (mapping: value
 *                                           of its K-th key; else the K-th element)
 *                | '[@' NAME ']'            the element of v (or value of mapping v) whose
 *                                           __name__ is NAME: portable across versions
 *     arg       := STRING | INT | 'None' | 'True' | 'False'
 *                | '_'                      the previous statement's value, as root '_'
 *
 * Every size is bounded (see GC_MAX_*), so decoding any byte string is linear and cannot
 * allocate without limit.  Strings are UTF-8; '\xHH' means the code point U+00HH, as in
 * Python. */
#ifndef GATECRASH_CHAIN_H
#define GATECRASH_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "edge.h"
#include "strbuf.h"

#define GC_MAX_INPUT 8192      /* bytes of a fuzz input that are decoded at all */
#define GC_MAX_STMTS 16        /* statements in a chain */
#define GC_MAX_TRAILERS 24     /* trailers in a statement */
#define GC_MAX_ARGS 6          /* arguments in a call */
#define GC_MAX_NAME 64         /* bytes in a NAME */
#define GC_MAX_STR 256         /* bytes in a STRING (after unescaping) */
#define GC_MAX_INT 1000000000L /* |INT| must be below this */
#define GC_MAX_K 4096          /* exploration index K */
#define GC_ARENA 16384         /* bytes of string storage for one chain */

typedef enum {
    GC_ARG_STR, GC_ARG_INT, GC_ARG_NONE, GC_ARG_TRUE, GC_ARG_FALSE,
    GC_ARG_PREV /* '_': the previous statement's value */
} gc_arg_kind;

/* Strings live in the chain's arena and are addressed by offset, so a chain is a plain
 * value: copying it with '=' or memcpy yields an independent, valid chain. */
typedef struct {
    uint32_t off;
    uint32_t len;
} gc_str;

typedef struct {
    gc_arg_kind kind;
    long ival;
    gc_str s;
} gc_arg;

typedef enum { /* the step kinds of edge.h first, with their values */
    GC_T_ATTR = GC_EDGE_ATTR,         /* .name */
    GC_T_ITEM_STR = GC_EDGE_ITEM_STR, /* ['key'] */
    GC_T_ITEM_INT = GC_EDGE_ITEM_INT, /* [3] */
    GC_T_CALL = GC_EDGE_CALL,         /* (args) */
    GC_T_DIR = GC_EDGE_DIR,           /* .#k */
    GC_T_NTH,      /* [#k] */
    GC_T_NAMED,    /* [@name] */
} gc_trailer_kind;

typedef struct {
    gc_trailer_kind kind;
    gc_str s;  /* ATTR, ITEM_STR, NAMED */
    long k;    /* ITEM_INT, DIR, NTH */
    int nargs; /* CALL */
    gc_arg args[GC_MAX_ARGS];
} gc_trailer;

typedef struct {
    int is_prev; /* root is '_' */
    gc_str root;
    int ntrailers;
    gc_trailer t[GC_MAX_TRAILERS];
} gc_stmt;

typedef struct gc_chain_s {
    int nstmts;
    gc_stmt s[GC_MAX_STMTS];
    uint32_t arena_len;
    char arena[GC_ARENA];
} gc_chain;

typedef enum {
    GC_PARSE_STRICT, /* saved cases: any defect is an error */
    GC_PARSE_LENIENT /* fuzz inputs: keep what parses, drop the rest */
} gc_parse_mode;

typedef struct {
    int line;
    int col;
    char msg[160];
} gc_parse_error;

/* Decode 'len' bytes.  Returns 0 on success.  In strict mode returns -1 and fills 'err' on
 * the first defect (invalid UTF-8, syntax, a bound exceeded).  In lenient mode never fails:
 * a byte where no root or trailer starts is skipped (so every valid piece of a mutated
 * input counts), a statement stops at its line's end or at the trailer bound, and input
 * past the bounds is ignored.  Each skip advances one byte and each attempt reads a bounded
 * number of bytes, so decoding is linear in the input. */
int gc_chain_parse(const uint8_t *data, size_t len, gc_parse_mode mode, gc_chain *out,
                   gc_parse_error *err);

void gc_chain_init(gc_chain *c);
/* dst = src, copying only the parts in use (faster than struct assignment). */
void gc_chain_copy(gc_chain *dst, const gc_chain *src);

/* Accessors and builders (the evaluator fills resolved chains with them). */
const char *gc_chain_str(const gc_chain *c, gc_str s); /* not NUL-terminated: use len */
int gc_chain_intern(gc_chain *c, const char *s, size_t len, gc_str *out);
int gc_chain_equal(const gc_chain *a, const gc_chain *b);
/* A hash of what gc_chain_equal compares (equal chains, equal hashes; never 0): the probe
 * caches' key, with no printing */
uint64_t gc_chain_hash(const gc_chain *c);
/* The hash of c with its last statement cut to its first last_trailers trailers (no more
 * than it has): what gc_chain_hash gave the chain c extends by trailers */
uint64_t gc_chain_hash_upto(const gc_chain *c, int last_trailers);
int gc_trailer_equal(const gc_chain *a, const gc_trailer *s, const gc_chain *b, const gc_trailer *t);
int gc_chain_trailer_count(const gc_chain *c);
/* The number of '_' arguments of trailer t (0 unless it is a call). */
int gc_trailer_prev_args(const gc_trailer *t);
/* The number of '_' arguments in the first 'ntrailers' trailers of st (-1: all of them). */
int gc_stmt_prev_args(const gc_stmt *st, int ntrailers);
/* st reads the previous statement's value: its root is '_', or it passes '_' to a call
 * within its first 'ntrailers' trailers (-1: all). */
int gc_stmt_uses_prev(const gc_stmt *st, int ntrailers);

/* Printers.  gc_chain_print writes one statement per line; gc_chain_print_oneline joins
 * them with "; ".  Both parse back (strictly) to an equal chain.  'upto_stmt'/'upto_trailer'
 * cut the print after that trailer of that statement (-1 for everything). */
void gc_chain_print(const gc_chain *c, gc_strbuf *out);
void gc_chain_print_oneline(const gc_chain *c, gc_strbuf *out);
void gc_chain_print_prefix(const gc_chain *c, int upto_stmt, int upto_trailer, const char *sep,
                           gc_strbuf *out);
void gc_chain_print_string(const char *s, size_t len, gc_strbuf *out); /* Python literal */

#endif
