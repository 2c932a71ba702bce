/* adapter.h — a source target's description and its adapter's entries.
 *
 * Owns: the source keys of target.json ("entry", "venv", "refusals", "dialect") and their
 * JSON form, the virtual environment the sandbox package is installed in (its
 * site-packages put on sys.path, a venv of another Python version refused by its
 * pyvenv.cfg), and binding what the adapter exports: evaluate (or "entry"), optional
 * roots() (without it, the names probe.h found in its place), optional namespace() (where the program's bindings live: source.c searches it),
 * the refusal exception classes, and with "steps" session(): a fresh session of the
 * sandbox as the host keeps one (an agent's executor), a callable that runs one step's
 * source and gives back its value, as evaluate does.  A step target's input runs as its
 * parts between GC_STEP_MARKER lines (dialect.h), in turn, against one session.  target.c imports the adapter like a gate module
 * and calls these; source.h runs programs through the bound entries.  Depends on no
 * harness module that knows the target (so target.c may include it). */
#ifndef GATECRASH_ADAPTER_H
#define GATECRASH_ADAPTER_H

#include <Python.h>
#include <cjson/cJSON.h>
#include <limits.h>

typedef struct {
    char entry[64];      /* evaluate(source) */
    char venv[PATH_MAX]; /* virtual environment folder, "" for none */
    char refusals[512];  /* the sandbox's refusal exception names, comma-separated */
    unsigned dialect;    /* what its parser accepts, GC_DIALECT_* (dialect.h), its steps included */
} gc_adapter_spec;

typedef struct {
    /* evaluate; with steps, the harness's own runner of the steps through session() */
    PyObject *eval_fn, *roots_fn; /* roots_fn may be NULL */
    /* namespace(): the dict(s) the program's bindings live in after the last evaluate, or NULL */
    PyObject *ns_fn;
    PyObject *refusal_types;      /* tuple of exception classes */
    /* Without roots(): the names the sandbox was found to hand out (a list of str, set by
     * probe.h gc_source_find_roots), which gc_adapter_roots gives instead; NULL: none. */
    PyObject *found_roots;
} gc_adapter;

/* A string field of target.json: 'v' (may be NULL: absent, 0) into dst[n], or -1 with one
 * line in 'err' when it is not a non-empty string that fits.  Shared by every key reader. */
int gc_spec_string(char *dst, size_t n, const cJSON *v, const char *key, char *err, size_t errlen);
/* The source keys of target.json into s ("venv" relative to the target folder 'dir').
 * 0 or an exit code, message in err. */
int gc_adapter_spec_fields(gc_adapter_spec *s, const cJSON *j, const char *dir, char *err, size_t errlen);
/* The same keys written into j (gc_adapter_spec_fields reads them back). */
void gc_adapter_write(const gc_adapter_spec *s, cJSON *j);

/* 'dir' (relative to 'base', or absolute) as the venv, checked when it is added.
 * 0 or GC_EXIT_USAGE. */
int gc_adapter_set_venv(gc_adapter_spec *s, const char *dir, const char *base, char *err, size_t errlen);

/* After the interpreter started, before the adapter is imported: sys.path as VENV/bin/python
 * has it (the venv's site-packages by site.addsitedir, so its .pth files apply; the system's
 * only after it, and only with include-system-site-packages = true; sys.prefix the venv).  Missing, not a venv, or of
 * another Python version: GC_EXIT_USAGE.  0 without a venv. */
int gc_adapter_add_venv(const gc_adapter_spec *s, char *err, size_t errlen);

/* Bind the entries of the imported adapter 'module' (file 'path', for messages); refusal
 * names are attributes of the adapter, "module.Name", or builtins; roots() is called once
 * to check it.  0 or GC_EXIT_TARGET. */
int gc_adapter_bind(gc_adapter *a, const gc_adapter_spec *s, PyObject *module, PyObject *builtins,
                    const char *path, char *err, size_t errlen);

/* The names roots() gives, at most 'max' (without roots(): the names found, found_roots);
 * 0 without either, -1 when roots() raises or returns anything but a list of str (message
 * in err). */
int gc_adapter_roots(const gc_adapter *a, const char *path, char names[][65], int max, char *err, size_t errlen);
/* Every loaded module of the packages the adapter's evaluate sees (the packages of its
 * globals' modules, and of the modules its functions and classes come from): fn(mod, ctx)
 * for each, a module once per global that leads to it.  What the fuzzer harvests and where
 * roots are looked for when the adapter has no roots(). */
void gc_adapter_each_package_module(const gc_adapter *a, void (*fn)(PyObject *mod, void *ctx), void *ctx);

#endif
