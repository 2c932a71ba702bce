/* options.h — the command line's one option parser, driven by tables.
 *
 * Owns: the option syntax every command takes — an option is one word, its value (if it
 * takes one) the next word whatever it looks like ("--depth 3", never "--depth=3"), options
 * and positional words interleaved in any order, a word starting with '-' that no table
 * names is an error — and the --help lines made from the same tables.  A command declares
 * its options as static tables (cli_opt); cli_parse reads argv against them, left to right,
 * and stops at the first error (its one line printed, GC_EXIT_USAGE returned). */
#ifndef GATECRASH_OPTIONS_H
#define GATECRASH_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "fsutil.h"

/* Store an option's value (NULL for a flag) in 'slot': 0, or -1 with its message printed.
 * 'opt' is the word as given (the name or the alias). */
typedef int (*cli_opt_set)(const char *opt, const char *val, void *slot);

typedef struct {
    const char *name;  /* "--depth"; NULL ends a table */
    const char *alias; /* "-q", or NULL */
    const char *arg;   /* its value's name in --help ("N", "DIR"), or NULL: a flag, no value */
    cli_opt_set set;   /* cli_opt_str, _long, _flag, _list or the command's own; NULL: listed in
                        * --help only, taken out of argv before parsing (--require-confinement) */
    size_t off;        /* its slot: this offset into the struct the table's set points at */
    const char *help;  /* its --help text (a '\n' continues it under itself); NULL: not listed */
} cli_opt;

/* A table and where its slots are: 'at' into the struct cli_parse is given; 'heading', when
 * not NULL, is printed above the table's --help lines; 'needs_value': an option of the table
 * given without its value is "OPT needs a value" (else the unknown-option line).  A list of
 * sets ends with opts NULL. */
typedef struct {
    const char *heading;
    const cli_opt *opts;
    size_t at;
    int needs_value;
} cli_optset;

/* Parse argv (the words after the command) against 'sets', slots in 'args'; the words no
 * option takes go to 'pos' in order.  0, or GC_EXIT_USAGE with one line printed. */
int cli_parse(const char *cmd, const cli_optset *sets, void *args, int argc, char **argv, gc_strlist *pos);

/* The --help lines of 'sets', each table under its heading. */
void cli_print_options(FILE *f, const cli_optset *sets);

/* The line for an option 'cmd' does not know (or one missing its value); GC_EXIT_USAGE. */
int cli_bad_option(const char *cmd, const char *opt);

/* The non-negative integer 's' into *v: 0, or -1 with a message naming the option 'what'. */
int cli_parse_long(const char *s, const char *what, long *v);

/* The common setters: slot is a const char * (the value), a long (a non-negative integer), an
 * int (set to 1), a gc_strlist (the value appended). */
int cli_opt_str(const char *opt, const char *val, void *slot);
/* --by's value: hole, root or signature (what a hole table's rows are); else one line, -1. */
int cli_opt_by(const char *opt, const char *val, void *slot);
int cli_opt_long(const char *opt, const char *val, void *slot);
int cli_opt_flag(const char *opt, const char *val, void *slot);
int cli_opt_list(const char *opt, const char *val, void *slot);

#endif
