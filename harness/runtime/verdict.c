/* verdict.c — see verdict.h. */
#include "verdict.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

gc_verdict_kind gc_verdict_of(const gc_target *t, const gc_verdict *v, char *why, size_t whylen)
{
    char buf[128] = "";
    gc_verdict_kind k = GC_VERDICT_INCONCLUSIVE;
    if (v->escaped)
        k = GC_VERDICT_ESCAPE;
    else if (v->timed_out || v->oom)
        snprintf(buf, sizeof buf, "%s limit", v->oom ? "memory" : "time");
    else if (v->thread_stopped)
        snprintf(buf, sizeof buf, "thread stopped");
    else if (v->refused[0] && t->spec.kind == GC_TARGET_SOURCE)
        snprintf(buf, sizeof buf, "refused by the harness: %s", v->refused);
    else
        k = GC_VERDICT_BLOCKED;
    if (why && whylen)
        snprintf(why, whylen, "%s", buf);
    return k;
}

const char *gc_verdict_word(gc_verdict_kind k)
{
    return k == GC_VERDICT_ESCAPE ? "escape" : k == GC_VERDICT_BLOCKED ? "blocked" : "inconclusive";
}

static void tally_add(gc_verdict_tally *y, const char *cause, unsigned long n)
{
    int k = 0;
    while (k < y->ncauses && strcmp(y->cause[k], cause) != 0)
        k++;
    if (k == y->ncauses && k == GC_TALLY_CAUSES) { /* full: the last row is "other" */
        k = GC_TALLY_CAUSES - 1;
        snprintf(y->cause[k], sizeof y->cause[k], "other");
    } else if (k == y->ncauses) {
        snprintf(y->cause[y->ncauses++], sizeof y->cause[0], "%s", cause);
    }
    y->count[k] += n;
}

void gc_tally_input(gc_verdict_tally *y, const gc_target *t, const gc_verdict *v)
{
    char why[128];
    y->inputs++;
    if (gc_verdict_of(t, v, why, sizeof why) != GC_VERDICT_INCONCLUSIVE)
        return;
    y->inconclusive++;
    tally_add(y, why, 1);
}

void gc_tally_line(const gc_verdict_tally *y, char *out, size_t n)
{
    size_t o = (size_t)snprintf(out, n, GC_TALLY_PREFIX "%lu inputs, %lu inconclusive", y->inputs, y->inconclusive);
    for (int k = 0; k < y->ncauses && o < n; k++)
        o += (size_t)snprintf(out + o, n - o, "\t%s\t%lu", y->cause[k], y->count[k]);
    if (o < n)
        snprintf(out + o, n - o, "\n");
}

void gc_tally_emit(const gc_verdict_tally *y, const char *stats_file)
{
    char line[2048];
    gc_tally_line(y, line, sizeof line);
    fputs(line, stderr);
    int fd = stats_file ? open(stats_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (fd >= 0) {
        ssize_t w = write(fd, line, strlen(line));
        (void)w;
        close(fd);
    }
}

/* One tally line added to y: 1, or 0 when it is none. */
static int tally_parse(gc_verdict_tally *y, char *line)
{
    unsigned long inputs, inconclusive;
    size_t pl = strlen(GC_TALLY_PREFIX);
    if (strncmp(line, GC_TALLY_PREFIX, pl) != 0 ||
        sscanf(line + pl, "%lu inputs, %lu inconclusive", &inputs, &inconclusive) != 2)
        return 0;
    y->inputs += inputs;
    y->inconclusive += inconclusive;
    line[strcspn(line, "\n")] = '\0';
    for (char *c = strchr(line, '\t'); c;) {
        char *cause = c + 1, *num = strchr(cause, '\t');
        if (!num)
            break;
        *num++ = '\0';
        c = strchr(num, '\t');
        tally_add(y, cause, strtoul(num, NULL, 10));
    }
    return 1;
}

int gc_tally_read(gc_verdict_tally *y, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[2048];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += tally_parse(y, line);
    if (f)
        fclose(f);
    return n;
}

void gc_tally_print(const gc_verdict_tally *y, FILE *f)
{
    if (!y->inputs)
        return;
    double share = 100.0 * (double)y->inconclusive / (double)y->inputs;
    fprintf(f, "verdicts: %lu input(s) run by the engine, %lu escape or blocked, %lu inconclusive (%.1f%%)",
            y->inputs, y->inputs - y->inconclusive, y->inconclusive, share);
    int shown[GC_TALLY_CAUSES] = {0};
    for (int i = 0; i < 3 && i < y->ncauses; i++) { /* the top three causes, most first */
        int best = -1;
        for (int k = 0; k < y->ncauses; k++)
            if (!shown[k] && (best < 0 || y->count[k] > y->count[best]))
                best = k;
        shown[best] = 1;
        fprintf(f, "%s%s %lu", i ? ", " : "; top causes: ", y->cause[best], y->count[best]);
    }
    fprintf(f, "\n");
    if (share > 10.0)
        fprintf(f, "verdicts: WARNING: %.1f%% of the inputs were inconclusive: the harness did not see them run as "
                "the host runs them, so the campaign's result says nothing about them (docs/ORACLES.md, \"Three "
                "verdicts\")\n", share);
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
    return (o->seconds > 0 && now - start >= (double)o->seconds) || (o->budget > 0 && now - start >= o->budget) ||
           gc_limits_stopping();
}

void gc_sweep_bound(const gc_sweep_opts *o, double start)
{
    double b = o->seconds > 0 ? (double)o->seconds : 0;
    if (o->budget > 0 && (b == 0 || o->budget < b))
        b = o->budget;
    if (b > 0) /* (a sweep without a bound leaves a caller's moment as it is) */
        gc_limits_stop_at(start > 0 ? start + b : 0);
}

/* After level 'level' (of o->depth) took t seconds for work n, the next queued with work
 * 'next': when the walk to o->depth is projected to end, in seconds from 'start' — each
 * level to come as long as the one before, scaled by how its work grew (the next level's is
 * known; those after it grow as it did). */
static double projected_end(const gc_sweep_opts *o, double start, int level, double t, long n, long next)
{
    double rate = n > 0 ? t / (double)n : 0, grow = n > 0 ? (double)next / (double)n : 1, work = (double)next, sum = 0;
    for (int l = level + 1; l <= o->depth && sum < 1e9; l++, work *= grow)
        sum += rate * work;
    return gc_now_s() - start + sum;
}

/* "gatecrash: sweep: level 1 done in 0.4 s (N nodes); depth 4 projected at ~M s": a sweep too
 * long for its caller's patience says so early (not with o->quiet). */
static void level_line(const gc_sweep_opts *o, double start, int level, double t, long n, long next, long nodes)
{
    double end = projected_end(o, start, level, t, n, next);
    fprintf(stderr, "gatecrash: sweep: level %d done in %.1f s (%ld nodes); depth %d projected at ~%.0f s%s\n", level,
            t, nodes, o->depth, end,
            o->seconds > 0 && end > (double)o->seconds ? " (past --time: it will be cut, its report incomplete)" : "");
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
        int out = gc_sweep_out_of_time(o, start, gc_now_s());
        if (to == from && !(out && level == 1)) { /* nothing queued: the walk is whole, every level to
                                                     the depth with it (unless the roots were cut) */
            st->levels = o->depth; /* (levels past it only count their nodes) */
            if (level == 1 && o->level) /* the roots queued nothing (each escaped): what they found */
                o->level(o->level_ctx, w->graph, 1, 1);
            break;
        }
        long work = level_work(w, from, to);
        if (level <= o->depth && !level_fits(o, start, prev_t, prev_n, work)) {
            st->cut_budget = 1;
            break;
        }
        if (out) { /* a stop asked for between levels, or the roots cut */
            st->cut_time = 1;
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
            o->level(o->level_ctx, w->graph, level, 1);
        if (level < o->depth && !o->quiet)
            level_line(o, start, level, prev_t, prev_n, level_work(w, from, *complete_end), *complete_end);
    }
    if (st->cut_time) {
        st->stopped_at = gc_now_s() - start;
        st->stop_signal = gc_limits_stop_signal();
    }
    if (!rc && st->cut_time && level <= o->depth && o->level)
        o->level(o->level_ctx, w->graph, level, 0);
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
    cJSON_AddNumberToObject(cut, "levels_complete", st->levels); /* with time: the depth done */
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
    if (st->cut_time)
        printf("stopped at %.1f s (%s): depth %d complete, depth %d cut; this report is INCOMPLETE\n", st->stopped_at,
               st->stop_signal == SIGINT ? "SIGINT" : st->stop_signal == SIGTERM ? "SIGTERM" : "the time bound",
               st->levels, st->levels + 1);
}
