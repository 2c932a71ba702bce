/* verdict.c — see verdict.h. */
#include "verdict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "timelimit.h"
#include "xalloc.h"

void gc_inputs_add(gc_inputs *l, const void *data, size_t len)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = gc_xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
        l->len = gc_xrealloc(l->len, (size_t)l->cap * sizeof *l->len);
    }
    l->v[l->n] = gc_xmalloc(len + 1);
    memcpy(l->v[l->n], data, len);
    l->len[l->n++] = len;
}

void gc_inputs_free(gc_inputs *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    free(l->len);
    *l = (gc_inputs){0};
}

void gc_input_oneline(const char *input, const char *sep, gc_strbuf *out)
{
    int first = 1;
    for (const char *line = input; *line;) {
        size_t n = strcspn(line, "\n");
        size_t lead = strspn(line, " \t");
        if (lead < n && line[lead] != '#') {
            gc_sb_printf(out, "%s%.*s", first ? "" : sep, (int)n, line);
            first = 0;
        }
        line += n + (line[n] == '\n');
    }
}

int gc_sweep_transient(PyObject *v)
{
    if (PyMethod_Check(v))
        return 1;
    if (PyCFunction_Check(v)) {
        PyObject *self = PyCFunction_GET_SELF(v);
        return self && !PyModule_Check(self);
    }
    return strcmp(Py_TYPE(v)->tp_name, "method-wrapper") == 0;
}

int gc_sweep_skips(const gc_sweep_opts *o, long i)
{
    if (o->node_at)
        *o->node_at = i;
    for (int k = 0; k < o->nskip; k++)
        if (o->skip[k] == i)
            return 1;
    return 0;
}

int gc_sweep_out_of_time(const gc_sweep_opts *o, double start, double now)
{
    return (o->seconds > 0 && now - start >= (double)o->seconds) || (o->budget > 0 && now - start >= o->budget);
}

/* Does a level of work n end within the budget?  Its time projected from the level
 * before's (prev_t seconds for work prev_n); the first level always starts. */
static int level_fits(const gc_sweep_opts *o, double start, double prev_t, long prev_n, long n)
{
    if (o->budget <= 0 || prev_n == 0)
        return 1;
    return gc_now_s() + prev_t * (double)n / (double)prev_n <= start + o->budget;
}

/* The work of nodes [from, to): the walker's estimate, else their count. */
static long level_work(const gc_sweep_walker *w, long from, long to)
{
    return w->work ? w->work(w->ctx, from, to) : to - from;
}

int gc_sweep_levels(const gc_sweep_opts *o, gc_sweep_stats *st, const gc_sweep_walker *w, double start,
                    long *complete_end)
{
    long from = 0, prev_n = 0;
    double prev_t = 0;
    int rc = 0, level;
    *complete_end = w->queued(w->ctx);
    for (level = 1;; level++) {
        long to = w->queued(w->ctx);
        if (to == from) { /* nothing queued: the walk is whole, every level to the depth with it */
            st->levels = o->depth; /* (levels past it only count their nodes) */
            break;
        }
        long work = level_work(w, from, to);
        if (level <= o->depth && !level_fits(o, start, prev_t, prev_n, work)) {
            st->cut_budget = 1;
            break;
        }
        double t0 = gc_now_s();
        if ((rc = w->walk(w->ctx, from, to)) != 0 || st->cut_time)
            break;
        prev_t = gc_now_s() - t0;
        prev_n = work;
        from = to;
        *complete_end = w->queued(w->ctx);
        if (level <= o->depth)
            st->levels = level;
        if (level <= o->depth && o->level)
            o->level(o->level_ctx, level, 1);
    }
    if (!rc && st->cut_time && level <= o->depth && o->level)
        o->level(o->level_ctx, level, 0);
    return rc;
}

void gc_escape_text(const gc_verdict *v, const char *input, gc_strbuf *out)
{
    gc_sb_printf(out, "gatecrash: ESCAPE %s %s %s via ", gc_kind_name(v->escape.kind), gc_cap_name(v->escape.cap),
                 v->escape.primitive);
    gc_input_oneline(input, GC_LINE_SEP, out);
    if (v->escape.detail[0])
        gc_sb_printf(out, " (%s)", v->escape.detail);
}

int gc_program_size(const char *text, size_t len)
{
    int n = 0, blank = 1;
    for (const char *p = text; p < text + len; p++) {
        if (*p == '\n') {
            n += !blank;
            blank = 1;
        } else if (*p != ' ' && *p != '\t' && *p != '\r') {
            blank = 0;
        }
    }
    return n + !blank;
}

/* The one object: every escape JSON of the project is built here. */
static cJSON *escape_object(const gc_target *t, const char *kind, const char *cap, const char *prim, const char *sig,
                            const char *detail, const char *hole, const char *input, int size)
{
    char policy[512];
    gc_policy_describe(&t->policy, policy, sizeof policy);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "kind", kind);
    cJSON_AddStringToObject(j, "capability", cap);
    cJSON_AddStringToObject(j, "primitive", prim);
    cJSON_AddStringToObject(j, "signature", sig);
    cJSON_AddStringToObject(j, "detail", detail);
    cJSON_AddStringToObject(j, "hole", hole ? hole : "");
    cJSON_AddStringToObject(j, "input", input);
    cJSON_AddNumberToObject(j, "size", size);
    cJSON_AddStringToObject(j, "target", t->spec.name);
    cJSON_AddStringToObject(j, "policy", policy);
    return j;
}

cJSON *gc_escape_object(const gc_target *t, const gc_verdict *v, const char *input, int size, const char *hole)
{
    return escape_object(t, gc_kind_name(v->escape.kind), gc_cap_name(v->escape.cap), v->escape.primitive,
                         v->signature, v->escape.detail, hole, input, size);
}

cJSON *gc_finding_object(const gc_target *t, const gc_finding *f)
{
    return escape_object(t, f->kind, f->cap, f->prim, f->sig, f->detail, f->hole, f->chain, f->size);
}

cJSON *gc_sweep_json(const gc_target *t, const gc_sweep_opts *o, const gc_sweep_stats *st, const gc_finding *f, int n)
{
    char policy[512];
    gc_policy_describe(&t->policy, policy, sizeof policy);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "target", t->spec.name);
    cJSON_AddStringToObject(j, "policy", policy);
    cJSON_AddNumberToObject(j, "depth", o->depth);
    cJSON_AddNumberToObject(j, "max_nodes", (double)o->max_nodes);
    cJSON_AddNumberToObject(j, "nodes", (double)st->nodes);
    cJSON_AddNumberToObject(j, "edges", (double)st->edges);
    cJSON *cut = cJSON_AddObjectToObject(j, "cut");
    cJSON_AddNumberToObject(cut, "depth", (double)st->cut_depth);
    cJSON_AddNumberToObject(cut, "max_nodes", (double)st->cut_nodes);
    cJSON_AddNumberToObject(cut, "items", (double)st->cut_items);
    cJSON_AddBoolToObject(cut, "time", st->cut_time);
    cJSON_AddNumberToObject(cut, "time_limit", (double)st->cut_limit);
    cJSON *esc = cJSON_AddArrayToObject(j, "escapes");
    for (int k = 0; k < n; k++)
        cJSON_AddItemToArray(esc, gc_finding_object(t, &f[k]));
    return j;
}

void gc_sweep_report(const gc_target *t, const gc_sweep_opts *o, const gc_sweep_stats *st, const gc_finding *f, int n)
{
    if (o->json) {
        gc_json_print(gc_sweep_json(t, o, st, f, n));
        return;
    }
    char policy[512];
    gc_policy_describe(&t->policy, policy, sizeof policy);
    printf("sweep of %s (policy %s), depth %d, at most %ld nodes\n", t->spec.name, policy, o->depth, o->max_nodes);
    const char *cap = "";
    for (int k = 0; k < n; k++) {
        if (strcmp(f[k].cap, cap) != 0)
            printf("%s:\n", f[k].cap);
        cap = f[k].cap;
        gc_strbuf line;
        gc_sb_init(&line);
        gc_input_oneline(f[k].chain, GC_LINE_SEP, &line);
        printf("  %-52s %s\n", f[k].sig, line.data);
        gc_sb_free(&line);
    }
    printf("%d escape signature(s); ", n);
    gc_sweep_print_counts(st);
}

void gc_sweep_print_counts(const gc_sweep_stats *st)
{
    char host[64] = "";
    if (st->host_nodes)
        snprintf(host, sizeof host, " (%ld of them host walks' objects)", st->host_nodes);
    printf("%ld nodes%s, %ld edges; not expanded: %ld at the depth bound, %ld past max-nodes, "
           "%ld oversized containers cut at %d items, %ld cut by the per-input time limit%s\n",
           st->nodes, host, st->edges, st->cut_depth, st->cut_nodes, st->cut_items, GC_SWEEP_MAX_ITEMS, st->cut_limit,
           st->cut_time ? "; CUT BY THE TIME BOUND (output not exhaustive)" : "");
}
