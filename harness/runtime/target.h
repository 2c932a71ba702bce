/* target.h — a gate under test, loaded the way the host loads it.
 *
 * Owns: the target description (target.json, or --sandbox/--requires), importing the real,
 * unmodified gate module by file path with its folder on sys.path, and installing its
 * gates into a fresh namespace through the host's entry point (a source target's adapter is
 * imported the same way; adapter.h binds it).  Also owns start-up as a
 * whole (gc_target_open): interpreter, oracle table, first install, oracle self-test. */
#ifndef GATECRASH_TARGET_H
#define GATECRASH_TARGET_H

#include <Python.h>
#include <limits.h>

#include "adapter.h"
#include "diag.h" /* the exit codes */
#include "oracle.h"

typedef enum { GC_INSTALL_RESTRICTIONS = 0, GC_INSTALL_GATES } gc_install_kind;
/* gate: a module installing gates into a namespace; source: an adapter taking source text
 * (source.h) */
typedef enum { GC_TARGET_GATE = 0, GC_TARGET_SOURCE } gc_target_kind;

/* A target's name names the folders it is given (out/NAME, escapes/NAME): target.json's
 * "name" must be a safe file-name component of at most this many bytes (target.c). */
#define GC_TARGET_NAME_MAX 100

typedef struct {
    char name[128];
    char dir[PATH_MAX];     /* target folder, or the sandbox's folder */
    char sandbox[PATH_MAX]; /* absolute path of the gate module (source: the adapter) */
    char *requires_json;    /* the requires block as JSON text */
    gc_install_kind install;
    char entry_install[64]; /* install_restrictions(ns, requires, module_id) */
    char entry_sp[64];      /* _install_subprocess_gate(ns, allowed, module_id) */
    char entry_fs[64];      /* _install_filesystem_gate(ns, globs, module_id) */
    char module_id[64];
    gc_mode mode;
    gc_target_kind kind;
    gc_adapter_spec adapter; /* source: entry, venv, refusals, dialect (adapter.h) */
} gc_target_spec;

typedef struct {
    gc_target_spec spec;
    gc_policy policy;
    PyObject *module;       /* the gate module */
    PyObject *requires;     /* parsed requires (template; each install gets a deep copy) */
    PyObject *install_fn;   /* bound entry points */
    PyObject *sp_fn, *fs_fn;
    PyObject *builtins;     /* the real builtins dict, for namespaces the gate leaves bare */
    PyObject *startup_log;  /* what the gate printed on its first install (str) */
    unsigned long installs;
    gc_adapter adapter;     /* source: the adapter's bound entries (adapter.h) */
} gc_target;

/* Fill a spec from a target folder (target.json) or from --sandbox/--requires (requires:
 * JSON text or @FILE).  Returns 0, or an exit code with a one-line message in err. */
int gc_target_spec_from_dir(const char *dir, gc_target_spec *out, char *err, size_t errlen);
int gc_target_spec_from_args(const char *sandbox, const char *requires, gc_target_spec *out,
                             char *err, size_t errlen);
/* The same for a source target's --adapter PATH --requires JSON|@FILE. */
int gc_target_spec_from_adapter(const char *adapter, const char *requires, gc_target_spec *out, char *err,
                                size_t errlen);
void gc_target_spec_free(gc_target_spec *s);
/* Write 'dir'/target.json (made if missing) describing 's' exactly: absolute sandbox path,
 * requires, install entries, mode.  A folder is what a child process is given: a path,
 * where the JSON itself would be split by the shell libFuzzer's fork mode runs its jobs
 * through.  0, or an exit code with a message in err. */
int gc_target_spec_write(const gc_target_spec *s, const char *dir, char *err, size_t errlen);
/* The same as JSON text (malloc'd; NULL when out of memory), with 'sandbox' in place of the
 * absolute path when not NULL (a path relative to the folder the JSON is written in). */
char *gc_target_spec_json(const gc_target_spec *s, const char *sandbox);

/* Start everything: interpreter in 'scratch', oracle table, import, first install (its log
 * captured in startup_log), effect-mode tail hook, self-test.  Returns 0 or an exit code. */
int gc_target_open(gc_target *t, const gc_target_spec *spec, const char *scratch, char *err,
                   size_t errlen);

/* A fresh namespace, equivalent to the host's: a new dict the gates are installed into.
 * NULL with a message when the install raised. */
PyObject *gc_target_install(gc_target *t, char *err, size_t errlen);


#endif
