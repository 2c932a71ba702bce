/* options.c — the table-driven option parser and the --help lines (options.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "options.h"

int cli_bad_option(const char *cmd, const char *opt)
{
    gc_die_msg("unknown or incomplete option %s (gatecrash %s --help lists the options)", opt, cmd);
    return GC_EXIT_USAGE;
}

int cli_parse_long(const char *s, const char *what, long *v)
{
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (errno || *end || n < 0) {
        gc_die_msg("%s must be a non-negative integer", what);
        return -1;
    }
    *v = n;
    return 0;
}

int cli_opt_str(const char *opt, const char *val, void *slot)
{
    (void)opt;
    *(const char **)slot = val;
    return 0;
}

int cli_opt_by(const char *opt, const char *val, void *slot)
{
    if (strcmp(val, "hole") != 0 && strcmp(val, "root") != 0 && strcmp(val, "signature") != 0) {
        gc_die_msg("%s takes hole, root or signature, not '%s'", opt, val);
        return -1;
    }
    *(const char **)slot = val;
    return 0;
}

int cli_opt_long(const char *opt, const char *val, void *slot)
{
    return cli_parse_long(val, opt, slot);
}

int cli_opt_flag(const char *opt, const char *val, void *slot)
{
    (void)opt, (void)val;
    *(int *)slot = 1;
    return 0;
}

int cli_opt_list(const char *opt, const char *val, void *slot)
{
    (void)opt;
    gc_sl_add(slot, val);
    return 0;
}

/* The option 'word' names in 'sets' (its set in *in), or NULL. */
static const cli_opt *find_opt(const cli_optset *sets, const char *word, const cli_optset **in)
{
    for (const cli_optset *s = sets; s->opts; s++)
        for (const cli_opt *o = s->opts; o->name; o++)
            if (o->set && (strcmp(word, o->name) == 0 || (o->alias && strcmp(word, o->alias) == 0))) {
                *in = s;
                return o;
            }
    return NULL;
}

int cli_parse(const char *cmd, const cli_optset *sets, void *args, int argc, char **argv, gc_strlist *pos)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        const cli_optset *s;
        const cli_opt *o = find_opt(sets, a, &s);
        if (!o && a[0] == '-')
            return cli_bad_option(cmd, a);
        if (!o) {
            gc_sl_add(pos, a);
            continue;
        }
        if (o->arg && i + 1 >= argc && s->needs_value) {
            gc_die_msg("%s needs a value", a);
            return GC_EXIT_USAGE;
        }
        if (o->arg && i + 1 >= argc)
            return cli_bad_option(cmd, a);
        if (o->arg)
            val = argv[++i];
        if (o->set(a, val, (char *)args + s->at + o->off) < 0)
            return GC_EXIT_USAGE;
    }
    return 0;
}

/* One option's --help line(s): "  -q, --quiet  text", the texts in a column of their own. */
static void print_opt(FILE *f, const cli_opt *o)
{
    enum { WIDTH = 24 }; /* the names' column */
    char left[64];
    snprintf(left, sizeof left, "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
             o->arg ? " " : "", o->arg ? o->arg : "");
    fprintf(f, "  %-*s", WIDTH, left);
    for (const char *h = o->help; *h;) {
        size_t n = strcspn(h, "\n");
        fprintf(f, " %.*s\n", (int)n, h);
        h += n + (h[n] == '\n');
        if (*h)
            fprintf(f, "  %*s", WIDTH, "");
    }
}

void cli_print_options(FILE *f, const cli_optset *sets)
{
    for (const cli_optset *s = sets; s->opts; s++) {
        if (s->heading)
            fprintf(f, "%s\n", s->heading);
        for (const cli_opt *o = s->opts; o->name; o++)
            if (o->help)
                print_opt(f, o);
    }
}
