/* holes.c — see holes.h; the rule is docs/HOLES.md's.
 *
 * An edge opens a hole when its source is something the gate hands out (every edge before
 * it on the path opened none) and it is one of:
 *   - a value that is a forbidden primitive or a real module (sys.modules holds it under
 *     its name): named by the source's owner and the edge, "proxy os .<primitive>",
 *     "proxy subprocess .<module>", "set os.supports_fd []<primitive>", "namespace open";
 *   - a bridge Python itself provides: "TYPE . __self__" (to a module), "[gate ]function .
 *     __globals__" (or its __builtins__), "type . __subclasses__()", "cell . cell_contents",
 *     "[gate ]frame . f_globals" (or f_builtins), "[gate ]frame . f_locals" (not of the
 *     harness's handler frame, whose locals are the call's own callee and arguments).
 * Everything else (plain attributes, items, __class__, __mro__, __dict__, __closure__, a
 * call's value or exception, tracebacks and frames themselves) stays inside: its value is
 * one more thing the gate hands out.  An edge back to the namespace or one of its values
 * ends the hole the path went through. */
#include "holes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weakness.h"
#include "xalloc.h"


/* A module the interpreter imported (sys.modules holds it under its name), not a proxy. */
static int real_module(PyObject *v)
{
    if (!PyModule_Check(v))
        return 0;
    PyObject *name = PyModule_GetNameObject(v);
    PyObject *m = name ? PyDict_GetItemWithError(PyImport_GetModuleDict(), name) : NULL;
    Py_XDECREF(name);
    PyErr_Clear();
    return m == v;
}

/* v is the namespace of a real module (its __dict__; a module's __builtins__ is the
 * builtins module's): reaching it reaches that module. */
static int real_module_dict(PyObject *v)
{
    PyObject *name = PyDict_Check(v) ? PyDict_GetItemString(v, "__name__") : NULL; /* borrowed */
    PyObject *m = name && PyUnicode_Check(name) ? PyDict_GetItemWithError(PyImport_GetModuleDict(), name) : NULL;
    PyErr_Clear();
    return m && real_module(m) && PyModule_GetDict(m) == v;
}

static int is_gate_function(PyObject *gate_file, PyObject *f)
{
    if (!PyFunction_Check(f) || !gate_file)
        return 0;
    PyCodeObject *co = (PyCodeObject *)PyFunction_GET_CODE(f);
    int r = PyUnicode_Compare(co->co_filename, gate_file) == 0;
    PyErr_Clear();
    return r;
}

/* A module's name ("proxy os", "module posix"), else its type's. */
static void type_name(PyObject *gate_file, PyObject *v, char *out, size_t len)
{
    if (PyModule_Check(v)) {
        const char *n = PyModule_GetName(v);
        PyErr_Clear();
        snprintf(out, len, "%s %s", real_module(v) ? "module" : "proxy", n ? n : "?");
    } else if (PyType_Check(v)) {
        snprintf(out, len, "type");
    } else if (PyFunction_Check(v)) {
        snprintf(out, len, "%sfunction", is_gate_function(gate_file, v) ? "gate " : "");
    } else if (PyFrame_Check(v)) {
        PyCodeObject *co = PyFrame_GetCode((PyFrameObject *)v);
        int gate = gate_file && PyUnicode_Compare(co->co_filename, gate_file) == 0;
        PyErr_Clear();
        Py_DECREF(co);
        snprintf(out, len, "%sframe", gate ? "gate " : "");
    } else {
        snprintf(out, len, "%s", Py_TYPE(v)->tp_name);
    }
}

/* The source's owner: a module by its name; a root by its type and name ("dict
 * __builtins__"); a proxy's attribute by its type and where it sits ("set os.supports_fd");
 * else its type. */
static void owner_name(PyObject *gate_file, PyObject *from, const char *from_key, PyObject *src, char *out,
                       size_t len)
{
    char t[96];
    type_name(gate_file, src, t, sizeof t);
    if (PyModule_Check(src) || !from_key) {
        snprintf(out, len, "%s", t);
    } else if (!from) {
        snprintf(out, len, "%s %s", t, from_key);
    } else if (PyModule_Check(from) && !real_module(from)) {
        const char *n = PyModule_GetName(from);
        PyErr_Clear();
        snprintf(out, len, "%s %s.%s", t, n ? n : "?", from_key);
    } else {
        snprintf(out, len, "%s", t);
    }
}

static int eq(const char *a, const char *b) { return a && strcmp(a, b) == 0; }

/* The bridge rules on an attribute edge: 1 and 'name' filled, or 0.  The source's type name
 * is made only for a bridge (every edge of a sweep asks). */
static int bridge_attr(PyObject *gate_file, PyObject *src, const char *key, PyObject *dst, char *name,
                       size_t len)
{
    const char *step = NULL; /* "__globals__" for "TYPE . __globals__" */
    if (!key || (key[0] != '_' && key[0] != 'c' && key[0] != 'f'))
        return 0; /* no rule's key starts otherwise */
    if (eq(key, "__subclasses__") && PyType_Check(src))
        snprintf(name, len, "type . __subclasses__()");
    else if ((eq(key, "__globals__") || eq(key, "__builtins__")) && PyFunction_Check(src))
        step = "__globals__"; /* its __builtins__ are its globals' */
    else if (eq(key, "__self__") && PyModule_Check(dst))
        step = "__self__";
    else if (eq(key, "cell_contents"))
        snprintf(name, len, "cell . cell_contents");
    else if ((eq(key, "f_globals") || eq(key, "f_builtins") || (eq(key, "f_locals") && !gc_eval_handler_frame(src))) &&
             PyFrame_Check(src)) /* the handler frame's locals are the call's callee and arguments */
        step = eq(key, "f_builtins") ? "f_globals" : key; /* its builtins are its globals' */
    else
        return 0;
    if (step) {
        char t[96];
        type_name(gate_file, src, t, sizeof t);
        snprintf(name, len, "%s . %s", t, step);
    }
    return 1;
}

/* dst is the namespace or one of its values. */
static int inside(PyObject *ns, PyObject *dst)
{
    if (!ns || !PyDict_Check(ns))
        return 0;
    if (dst == ns)
        return 1;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(ns, &pos, &k, &v))
        if (v == dst)
            return 1;
    return 0;
}

int gc_hole_edge(PyObject *ns, PyObject *gate_file, PyObject *from, const char *from_key, PyObject *src, int kind,
                 const char *key, PyObject *dst, char *name, size_t len)
{
    name[0] = '\0';
    /* an effect in this call */
    if (src && kind == GC_T_CALL && gc_orc.escape.set && (!dst || !gc_oracle_forbidden(dst))) {
        char owner[GC_HOLE_NAME - 16];
        owner_name(gate_file, from, from_key, src, owner, sizeof owner);
        snprintf(name, len, "%s ()<%s>", owner, gc_kind_name(gc_orc.escape.kind));
        return 1;
    }
    if (!dst)
        return 0;
    if (src && inside(ns, dst))
        return 2;
    if (!src) {
        if (!gc_oracle_forbidden(dst))
            return 0;
        snprintf(name, len, "namespace %s", key ? key : "?");
        return 1;
    }
    if (from && PyModule_Check(from) && PyDict_Check(src) && PyModule_GetDict(from) == src) {
        src = from, from = NULL, from_key = NULL; /* a module's __dict__[k] is its attribute k */
        kind = GC_T_ATTR;
    }
    int attr = kind == GC_T_ATTR || kind == GC_T_DIR;
    if (attr && bridge_attr(gate_file, src, key, dst, name, len))
        return 1;
    const char *edge = attr ? "." : kind == GC_T_CALL ? "()" : "[]";
    const char *what = gc_oracle_forbidden(dst)                          ? "<primitive>"
                       : real_module(dst) || real_module_dict(dst) ? "<module>"
                                                                   : NULL;
    if (!what)
        return 0;
    char owner[GC_HOLE_NAME - 16];
    owner_name(gate_file, from, from_key, src, owner, sizeof owner);
    snprintf(name, len, "%s %s%s", owner, edge, what);
    return 1;
}


/* ---- the hole of an evaluated chain ---- */

/* The path of the statement being evaluated: its value, the value before it and the key
 * between them, and the hole it went through ('_' continues the previous statement's). */
typedef struct {
    PyObject *gate_file;
    PyObject *cur, *from, *from2;   /* strong; from NULL: cur is the root cur_key */
    char cur_key[GC_MAX_NAME + 24]; /* the key by which cur was reached */
    char from_key[GC_MAX_NAME + 24]; /* and from */
    char hole[GC_HOLE_NAME];
} tracker;

static void trailer_key(const gc_chain *c, const gc_trailer *t, char *out, size_t len)
{
    if (t->kind == GC_T_ITEM_INT || t->kind == GC_T_NTH)
        snprintf(out, len, "%ld", t->k);
    else if (t->kind == GC_T_CALL || t->kind == GC_T_DIR)
        out[0] = '\0';
    else
        snprintf(out, len, "%.*s", (int)t->s.len, gc_chain_str(c, t->s));
}

static void track_root(tracker *k, const gc_step_info *si)
{
    const gc_stmt *st = &si->resolved->s[si->stmt];
    if (st->is_prev && si->value && si->value == k->cur)
        return; /* the previous statement's path goes on */
    Py_CLEAR(k->cur);
    Py_CLEAR(k->from);
    Py_CLEAR(k->from2);
    k->hole[0] = '\0';
    if (st->is_prev)
        return; /* '_' after a failed statement: None */
    snprintf(k->cur_key, sizeof k->cur_key, "%.*s", (int)st->root.len, gc_chain_str(si->resolved, st->root));
    k->cur = si->value;
    Py_XINCREF(k->cur);
    if (si->value)
        gc_hole_edge(si->ns, k->gate_file, NULL, NULL, NULL, -1, k->cur_key, si->value, k->hole, sizeof k->hole);
}

/* A hole any object reaches (every class walks to object.__subclasses__()): a primitive
 * reached through it is cut by no hole before it, so it replaces the hole the path went
 * through. */
static int anywhere(const char *hole) { return strstr(hole, ". __subclasses__()") != NULL; }

int gc_hole_bound_to(PyObject *f, PyObject *obj)
{
    if (PyCFunction_Check(f))
        return PyCFunction_GET_SELF(f) == obj;
    if (strcmp(Py_TYPE(f)->tp_name, "method-wrapper") != 0)
        return 0;
    PyObject *self = PyObject_GetAttrString(f, "__self__");
    PyErr_Clear();
    Py_XDECREF(self);
    return self == obj;
}

static void track_step(void *ctx, const gc_step_info *si)
{
    tracker *k = ctx;
    if (si->trailer < 0) {
        track_root(k, si);
        return;
    }
    const gc_trailer *t = &si->resolved->s[si->stmt].t[si->trailer];
    char key[GC_MAX_NAME + 24];
    trailer_key(si->resolved, t, key, sizeof key);
    if (k->cur && (si->value || gc_orc.escape.set)) {
        char h[GC_HOLE_NAME];
        int r = t->kind == GC_T_CALL && k->from && gc_hole_bound_to(k->cur, k->from) /* X.pop(), X.__getattribute__('k') */
                    ? gc_hole_edge(si->ns, k->gate_file, k->from2, k->from_key[0] ? k->from_key : NULL, k->from,
                                   PyModule_Check(k->from) ? GC_T_ATTR : GC_T_ITEM_INT, "", si->value, h, sizeof h)
                    : gc_hole_edge(si->ns, k->gate_file, k->from, k->cur_key[0] ? k->cur_key : NULL, k->cur, t->kind,
                                   key, si->value, h, sizeof h);
        if (r == 2)
            k->hole[0] = '\0'; /* back inside: a hole before this one led nowhere new */
        else if (r == 1 && (!k->hole[0] || anywhere(h)))
            snprintf(k->hole, sizeof k->hole, "%s", h);
    }
    Py_XSETREF(k->from2, k->from);
    k->from = k->cur;
    k->cur = si->value;
    Py_XINCREF(k->cur);
    snprintf(k->from_key, sizeof k->from_key, "%s", k->cur_key);
    snprintf(k->cur_key, sizeof k->cur_key, "%s", key);
}

int gc_hole_of_chain(gc_target *t, const gc_chain *c, gc_outcome *out, char *name, size_t len, char *err,
                     size_t errlen)
{
    tracker k = {PyUnicode_DecodeFSDefault(t->spec.sandbox), NULL, NULL, NULL, "", "", ""};
    PyErr_Clear();
    int rc = gc_run_input(t, c, out, track_step, &k, err, errlen);
    snprintf(name, len, "%s", rc == 0 && out->escaped ? k.hole : "");
    Py_XDECREF(k.cur);
    Py_XDECREF(k.from);
    Py_XDECREF(k.from2);
    Py_XDECREF(k.gate_file);
    if (rc)
        return rc;
    return out->escaped ? 0 : -1;
}

/* ---- what closing a hole means ---- */

int gc_hole_closable(const char *hole)
{
    /* Python semantics: every class reaches object.__subclasses__(), every closure's cells
     * hold what the function closed over; no namespace can take these away. */
    return !strstr(hole, ". __subclasses__()") && !strstr(hole, "cell . cell_contents") && !strstr(hole, ". f_locals");
}

void gc_hole_advice(const char *hole, char *out, size_t len)
{
    if (!gc_hole_closable(hole))
        snprintf(out, len, "not closable by a namespace gate: this edge is Python semantics; it needs "
                           "compile-time attribute restrictions, or not handing out the object at all");
    else if (strstr(hole, ".<module>") || strstr(hole, "[]<module>"))
        snprintf(out, len, "do not copy module-valued attributes onto the proxy (copy functions and "
                           "constants, or proxy the module too)");
    else if (strncmp(hole, "namespace ", 10) == 0)
        snprintf(out, len, "do not put the real object in the namespace: hand out a wrapper or a refusal");
    else if (strstr(hole, "[]<primitive>"))
        snprintf(out, len, "filter the container: it holds real forbidden functions (or do not copy it)");
    else if (strstr(hole, "<primitive>"))
        snprintf(out, len, "wrap or refuse these real functions instead of copying them onto the proxy");
    else if (strstr(hole, ". __self__"))
        snprintf(out, len, "do not hand out real builtins: their __self__ is the real module; wrap them");
    else if (strncmp(hole, "gate function", 13) == 0)
        snprintf(out, len, "build the gate's own functions over globals that hold no real module or builtins "
                           "(types.FunctionType(code, {...})), keeping what they need out of reach");
    else if (strncmp(hole, "function", 8) == 0)
        snprintf(out, len, "do not hand out the real module's Python functions: their __globals__ (and "
                           "__builtins__) are the real module's; wrap them");
    else if (strncmp(hole, "gate frame . f_globals", 22) == 0)
        snprintf(out, len, "the gate's frames reach handler code in tracebacks: run the gate's functions over "
                           "globals that hold no real module or builtins");
    else if (strstr(hole, "frame . f_globals"))
        snprintf(out, len, "exceptions from real Python functions carry their frames: catch them in the wrapper "
                           "and raise a fresh exception after the except block (no __context__)");
    else
        snprintf(out, len, "do not hand out this object (it leads out of the gate)");
}

/* ---- one row per hole ---- */

static int cap_rank(const char *cap)
{
    for (int c = 0; c < GC_CAP_COUNT; c++)
        if (eq(cap, gc_cap_name((gc_cap)c)))
            return c;
    return GC_CAP_COUNT;
}

/* Add 'item' to the ", "-separated list unless it is there; returns 1 if added. */
static int list_add(char *list, size_t len, const char *item)
{
    size_t n = strlen(item);
    for (const char *p = list; (p = strstr(p, item)); p += n)
        if ((p == list || p[-2] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 0;
    size_t used = strlen(list);
    if (used + n + 3 < len)
        snprintf(list + used, len - used, "%s%s", used ? ", " : "", item);
    return 1;
}

static void row_add(gc_hole_row *r, const gc_finding *f)
{
    char cap[32] = "";
    snprintf(cap, sizeof cap, "%s", r->caps);
    if (!strstr(r->caps, f->cap)) /* spawn before write before network */
        snprintf(r->caps, sizeof r->caps, "%s%s%s", cap_rank(f->cap) < r->cap_rank ? f->cap : cap,
                 cap[0] ? "+" : "", cap_rank(f->cap) < r->cap_rank ? cap : f->cap);
    if (cap_rank(f->cap) < r->cap_rank)
        r->cap_rank = cap_rank(f->cap);
    r->nprims += list_add(r->prims, sizeof r->prims, f->prim);
    r->nsigs++;
    if (!r->chain[0] || strlen(f->chain) < strlen(r->chain)) {
        snprintf(r->chain, sizeof r->chain, "%s", f->chain);
        snprintf(r->kind, sizeof r->kind, "%s", f->kind);
        snprintf(r->cap, sizeof r->cap, "%s", f->cap);
        snprintf(r->prim, sizeof r->prim, "%s", f->prim);
        snprintf(r->sig, sizeof r->sig, "%s", f->sig);
        snprintf(r->chain_hole, sizeof r->chain_hole, "%s", f->hole);
    }
}

static int cmp_row(const void *a, const void *b)
{
    const gc_hole_row *x = a, *y = b;
    return x->cap_rank != y->cap_rank ? x->cap_rank - y->cap_rank : strcmp(x->hole, y->hole);
}

/* The row named 'name' among r[0..*nr), made when missing. */
static gc_hole_row *row_named(gc_hole_row *r, int *nr, const char *name)
{
    int k;
    for (k = 0; k < *nr && strcmp(r[k].hole, name) != 0; k++)
        ;
    if (k == *nr) {
        snprintf(r[k].hole, sizeof r[k].hole, "%s", name);
        r[k].cap_rank = GC_CAP_COUNT;
        r[k].closable = 1;
        (*nr)++;
    }
    return &r[k];
}

static int sorted(gc_hole_row *r, int nr, gc_hole_row **rows)
{
    if (nr > 1)
        qsort(r, (size_t)nr, sizeof *r, cmp_row);
    *rows = r;
    return nr;
}

/* ---- each row in a plain interpreter ---- */

/* The grade's order: where the primitive was, then how sure. */
static const char *const grades[] = {"held", "returned", "exception", "yes", "NO", "unknown", "-"};

static int grade_rank(const gc_hole_row *r)
{
    if (!r->confirmed)
        return 6;
    if (r->conf.kind == GC_CONFIRM_NO)
        return 4;
    if (r->conf.kind != GC_CONFIRM_YES)
        return 5;
    return r->conf.where == GC_WHERE_HELD ? 0 : r->conf.where == GC_WHERE_RETURNED ? 1
                                            : r->conf.where == GC_WHERE_EXCEPTION ? 2
                                                                                  : 3;
}

const char *gc_holes_grade(const gc_hole_row *r) { return grades[grade_rank(r)]; }

static int cmp_graded(const void *a, const void *b)
{
    const gc_hole_row *x = a, *y = b;
    if (x->cap_rank != y->cap_rank)
        return x->cap_rank - y->cap_rank;
    return grade_rank(x) != grade_rank(y) ? grade_rank(x) - grade_rank(y) : strcmp(x->hole, y->hole);
}

void gc_holes_confirm(const gc_target *t, gc_hole_row *rows, int n, long seconds)
{
    time_t end = time(NULL) + seconds;
    for (int i = 0; i < n; i++) {
        long left = (long)(end - time(NULL));
        rows[i].confirmed = 1;
        if (left <= 0 || !rows[i].prim[0]) {
            rows[i].conf.kind = GC_CONFIRM_UNKNOWN;
            rows[i].conf.where = GC_WHERE_UNKNOWN;
            snprintf(rows[i].conf.why, sizeof rows[i].conf.why, "%s",
                     rows[i].prim[0] ? "not run: the table's time for confirmations was spent"
                                     : "not run: the row's primitive is not known");
            continue;
        }
        fflush(stdout);
        gc_confirm_text(t, rows[i].kind, rows[i].cap, rows[i].prim, rows[i].sig, rows[i].chain,
                        left < 60 ? (int)left : 60, &rows[i].conf);
    }
    if (n > 1)
        qsort(rows, (size_t)n, sizeof *rows, cmp_graded);
}

/* The row of weakness finding f (hole h) is in, its check, root and hole listed on it; the
 * hole's own row when f's program names no weakness. */
static gc_hole_row *weakness_row(gc_hole_row *r, int *nr, const gc_finding *f, const char *h)
{
    char name[GC_HOLE_NAME], check[400], root[128];
    if (gc_weakness_of_program(f->chain, name, sizeof name, check, sizeof check, root, sizeof root) != 0)
        return row_named(r, nr, h);
    gc_hole_row *row = row_named(r, nr, name);
    snprintf(row->check, sizeof row->check, "%s", check);
    row->nroots += list_add(row->roots, sizeof row->roots, root[0] ? root : "?");
    row->ncovers += list_add(row->covers, sizeof row->covers, h);
    return row;
}

/* One row per hole, or per weakness: a row is closable when a gate closes every hole under it. */
static int group(const gc_finding *f, int n, int by_weakness, gc_hole_row **rows)
{
    gc_hole_row *r = gc_xcalloc((size_t)n + 1, sizeof *r);
    int nr = 0;
    for (int i = 0; i < n; i++) {
        const char *h = f[i].hole[0] ? f[i].hole : "(not named)";
        gc_hole_row *row = by_weakness ? weakness_row(r, &nr, &f[i], h) : row_named(r, &nr, h);
        row->closable &= gc_hole_closable(h);
        row_add(row, &f[i]);
    }
    return sorted(r, nr, rows);
}

int gc_holes_group(const gc_finding *f, int n, gc_hole_row **rows) { return group(f, n, 0, rows); }

int gc_holes_group_weakness(const gc_finding *f, int n, gc_hole_row **rows) { return group(f, n, 1, rows); }

void gc_holes_print(FILE *fp, const gc_hole_row *rows, int n)
{
    int graded = n > 0 && rows[0].confirmed;
    if (graded)
        fprintf(fp, "%-11s %5s %4s %-8s %-9s %s\n", "CAP", "PRIMS", "SIGS", "CLOSABLE", "CONFIRMED",
                "HOLE / shortest chain");
    else
        fprintf(fp, "%-11s %5s %4s %-8s %s\n", "CAP", "PRIMS", "SIGS", "CLOSABLE", "HOLE / shortest chain");
    int in = graded ? 46 : 36; /* where the row's further lines start */
    for (int i = 0; i < n; i++) {
        if (graded)
            fprintf(fp, "%-11s %5d %4d %-8s %-9s %s\n%46s%s\n", rows[i].caps, rows[i].nprims, rows[i].nsigs,
                    rows[i].closable ? "yes" : "no", gc_holes_grade(&rows[i]), rows[i].hole, "via ", rows[i].chain);
        else
            fprintf(fp, "%-11s %5d %4d %-8s %s\n%36s%s\n", rows[i].caps, rows[i].nprims, rows[i].nsigs,
                    rows[i].closable ? "yes" : "no", rows[i].hole, "via ", rows[i].chain);
        if (rows[i].roots[0]) /* a weakness's row: the check it passes, its roots, its holes */
            fprintf(fp, "%*s%s\n%*s%s (%d)\n%*s%s (%d)\n", in, "passes: ", rows[i].check, in, "roots: ", rows[i].roots,
                    rows[i].nroots, in, "holes: ", rows[i].covers, rows[i].ncovers);
        if (graded && grade_rank(&rows[i]) >= 2) { /* only inside an exception, or not confirmed: where and why */
            char line[600];
            gc_confirm_line(&rows[i].conf, line, sizeof line);
            fprintf(fp, "%46s%s\n", "", line);
        }
    }
}

cJSON *gc_holes_json(const gc_hole_row *rows, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++) {
        cJSON *j = cJSON_CreateObject();
        char advice[400];
        gc_hole_advice(rows[i].roots[0] ? rows[i].chain_hole : rows[i].hole, advice, sizeof advice);
        cJSON_AddStringToObject(j, "hole", rows[i].hole);
        cJSON_AddStringToObject(j, "capabilities", rows[i].caps);
        cJSON_AddBoolToObject(j, "closable", rows[i].closable);
        cJSON_AddNumberToObject(j, "primitives", rows[i].nprims);
        cJSON_AddNumberToObject(j, "signatures", rows[i].nsigs);
        cJSON_AddStringToObject(j, "primitive_names", rows[i].prims);
        cJSON_AddStringToObject(j, "chain", rows[i].chain);
        cJSON_AddStringToObject(j, "closing", advice);
        if (rows[i].confirmed) {
            char line[600];
            gc_confirm_line(&rows[i].conf, line, sizeof line);
            cJSON_AddStringToObject(j, "confirmed", gc_holes_grade(&rows[i]));
            cJSON_AddStringToObject(j, "confirmation", line);
        }
        if (rows[i].roots[0]) { /* a weakness's row */
            cJSON_AddStringToObject(j, "passes", rows[i].check);
            cJSON_AddStringToObject(j, "roots", rows[i].roots);
            cJSON_AddStringToObject(j, "holes", rows[i].covers);
        }
        cJSON_AddItemToArray(a, j);
    }
    return a;
}

void gc_holes_name_findings(gc_target *t, gc_finding *f, int n)
{
    static gc_chain c;
    static gc_outcome out;
    for (int i = 0; i < n; i++) {
        gc_parse_error pe;
        char err[256];
        if (gc_chain_parse((const uint8_t *)f[i].chain, strlen(f[i].chain), GC_PARSE_STRICT, &c, &pe) == 0)
            gc_hole_of_chain(t, &c, &out, f[i].hole, sizeof f[i].hole, err, sizeof err);
    }
}

/* ---- holes in the sweep ---- */

struct gc_hole_names {
    gc_strlist names;     /* hole i + 1 is names.v[i] */
    const char *const *closed;
    gc_strlist matched;   /* closed holes some edge of the last sweep carried */
    PyObject *gate_file;
    char (*keys)[400];    /* per hole: the keys of its edges ("os, sys, io") */
    int capkeys;
};

gc_hole_names *gc_hole_names_new(gc_target *t)
{
    gc_hole_names *h = gc_xcalloc(1, sizeof *h);
    h->gate_file = PyUnicode_DecodeFSDefault(t->spec.sandbox);
    PyErr_Clear();
    return h;
}

void gc_hole_names_free(gc_hole_names *h)
{
    if (!h)
        return;
    gc_sl_free(&h->names);
    gc_sl_free(&h->matched);
    Py_XDECREF(h->gate_file);
    free(h->keys);
    free(h);
}

static void key_text(PyObject *key, char *out, size_t len)
{
    out[0] = '\0';
    Py_ssize_t n;
    const char *u = key && PyUnicode_Check(key) ? PyUnicode_AsUTF8AndSize(key, &n) : NULL;
    if (u) { /* copied, not formatted: two keys of every edge of a sweep */
        n = n < (Py_ssize_t)len ? n : (Py_ssize_t)len - 1;
        memcpy(out, u, (size_t)n);
        out[n] = '\0';
    } else if (key && PyLong_Check(key)) {
        snprintf(out, len, "%ld", PyLong_AsLong(key));
    }
    PyErr_Clear();
}

static int sweep_hole(void *ctx, PyObject *ns, PyObject *from, PyObject *from_key, PyObject *src, int kind,
                      PyObject *key, PyObject *dst)
{
    gc_hole_names *sw = ctx;
    char fk[GC_MAX_NAME + 24], k[GC_MAX_NAME + 24], name[GC_HOLE_NAME];
    key_text(from_key, fk, sizeof fk);
    key_text(key, k, sizeof k);
    int r = gc_hole_edge(ns, sw->gate_file, from, fk[0] ? fk : NULL, src, kind, k, dst, name, sizeof name);
    if (r == 2)
        return GC_SWEEP_INSIDE;
    if (r == 0)
        return 0;
    int id;
    for (id = 0; id < sw->names.n && strcmp(sw->names.v[id], name) != 0; id++)
        ;
    if (id == sw->names.n) {
        gc_sl_add(&sw->names, name);
        if (id >= sw->capkeys) {
            sw->capkeys = sw->capkeys ? sw->capkeys * 2 : 32;
            sw->keys = gc_xrealloc(sw->keys, (size_t)sw->capkeys * sizeof *sw->keys);
        }
        sw->keys[id][0] = '\0';
    }
    /* what the maintainer acts on: the attribute copied ("os"), or for a bridge ("TYPE .
     * __self__") the name its source was handed out under ("getpid") */
    const char *what = strstr(name, " . ") ? fk : k;
    if (what[0])
        list_add(sw->keys[id], sizeof sw->keys[id], what);
    for (const char *const *c = sw->closed; c && *c; c++)
        if (strcmp(*c, name) == 0) {
            if (!gc_sl_contains(&sw->matched, name))
                gc_sl_add(&sw->matched, name);
            return -(id + 1);
        }
    return anywhere(name) ? (id + 1) | GC_SWEEP_ANYWHERE : id + 1;
}

static const char *sweep_hole_name(void *ctx, int id)
{
    const gc_hole_names *sw = ctx;
    return id > 0 && id <= sw->names.n ? sw->names.v[id - 1] : "";
}

void gc_holes_sweep_setup(gc_sweep_opts *o, gc_hole_names *h, const char *const *closed)
{
    h->closed = closed;
    gc_sl_free(&h->matched);
    o->hole = sweep_hole;
    o->hole_name = sweep_hole_name;
    o->hole_ctx = h;
}

const char *gc_holes_edge_keys(const gc_hole_names *h, const char *hole)
{
    for (int i = 0; i < h->names.n; i++)
        if (strcmp(h->names.v[i], hole) == 0)
            return h->keys[i];
    return "";
}

int gc_holes_unmatched(const gc_hole_names *h, const char *const *closed, const char **out, int max)
{
    int n = 0;
    for (const char *const *c = closed; c && *c && n < max; c++)
        if (!gc_sl_contains(&h->matched, *c))
            out[n++] = *c;
    return n;
}
