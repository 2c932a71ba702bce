/* oracle.h — what counts as an escape, and the harness's own refusals.
 *
 * Owns: the policy (from the host's `requires` block), the one data table of real
 * primitives (spawn, write, network, and the interpreter wreckers the harness refuses to
 * call), identity lookup of a value against that table (reach oracle), the PEP 578 audit
 * hook registered before Py_Initialize (effect oracle, and the guarantee that nothing is
 * ever spawned and nothing outside scratch is written), the note of what the target
 * attempted while it was imported (refused, and its load fails), and the oracle self-test. */
#ifndef GATECRASH_ORACLE_H
#define GATECRASH_ORACLE_H

#include <Python.h>

typedef enum {
    GC_CAP_SPAWN = 0,  /* process creation: requires.subprocess */
    GC_CAP_WRITE,      /* filesystem mutation: requires.filesystem_writes */
    GC_CAP_NETWORK,    /* sockets: requires.network */
    GC_CAP_HARNESS,    /* would wreck the fuzzing process: always refused, never an escape */
    GC_CAP_COUNT
} gc_cap;

typedef enum { GC_MODE_REACH = 0, GC_MODE_EFFECT } gc_mode;
/* reach: a forbidden primitive reached (identity); effect: its audit event seen; syscall:
 * the process-creation system call itself, stopped by the seccomp backstop (backstop.h);
 * landlock: a write outside the granted folders, refused below Python (confine.h). */
typedef enum { GC_KIND_REACH = 0, GC_KIND_EFFECT, GC_KIND_SYSCALL, GC_KIND_LANDLOCK } gc_kind;

#define GC_MAX_GLOBS 32

typedef struct {
    int spawn_forbidden;   /* subprocess: false */
    int write_restricted;  /* filesystem_writes: [globs] present */
    int nglobs;
    char *globs[GC_MAX_GLOBS];
    int network_forbidden; /* network: false */
    int write_everywhere;  /* some glob grants every path (gc_policy_finish) */
} gc_policy;

/* One row of the primitive table (oracle_table.c). */
#define GC_PRIM_UNAUDITED 1u /* CPython raises no audit event: refuse before the call */
#define GC_PRIM_ALL 2u       /* attr "*": every callable attribute of the module */
#define GC_PRIM_CODE 4u      /* runs a code string: refused in chains, run in source mode */
/* starts a thread: refused in chains; in source mode the sandbox's threads (an executor's
 * worker pool) and the program's are part of the evaluation (source.c, state.c) */
#define GC_PRIM_THREAD 8u
/* a facility a plain host process offers (a signal handler, an alarm, an atexit function, an
 * event loop's hooks): refused in chains; in source mode given to the evaluation, and put
 * back after every input by its row of the facility table (facility.h) */
#define GC_PRIM_FACILITY 16u
/* what source mode runs that chains refuse */
#define GC_PRIM_SOURCE_RUNS (GC_PRIM_CODE | GC_PRIM_THREAD | GC_PRIM_FACILITY)
typedef struct {
    const char *module;
    const char *attr; /* dotted for class members: "Thread.start" */
    gc_cap cap;
    unsigned flags;
} gc_prim_spec;

extern const gc_prim_spec gc_prim_table[];
extern const size_t gc_prim_table_len;

typedef struct {
    const gc_prim_spec *spec;
    char name[96];    /* "os.system" */
    PyMethodDef *def; /* a C function's or method descriptor's definition, else NULL */
} gc_prim;

typedef struct {
    int set;
    gc_kind kind;
    gc_cap cap;
    char primitive[96];
    char detail[256];
} gc_escape;

/* State shared by the audit hook and the evaluator (one interpreter, one thread). */
typedef struct {
    gc_policy policy;
    gc_mode mode;
    char scratch[4096];   /* realpath of the scratch folder; writes may land only here */
    /* the temporary folder inside it (TMPDIR of the interpreter: interp.c), and the host's
     * own, what a write there is judged as (gc_oracle_judged_path) */
    char tmp[4096], host_tmp[4096];
    volatile int in_chain; /* a chain step is running: events are judged */
    /* a write the confinement's supervisor refused during this step awaits gc_confine_judge
     * (set on the supervisor's thread, confine.c) */
    volatile int write_pending;
    /* a source target's evaluate runs: the sandbox's own code, which may do what a plain host
     * process does (source.c sets it with in_chain) */
    volatile int in_sandbox;
    int armed;            /* the table is loaded: spawns are blocked from now on */
    /* the target is being imported and installed (target.c): what it attempts then is
     * refused and noted (gc_oracle_note_import), and loading it fails with that */
    volatile int importing;
    gc_escape escape;     /* first escape of the current input */
    char refused[96];     /* last thing the harness refused during the current input */
    int owned_fds[16];    /* descriptors os.open gave the current input (gc_oracle_fd_owned) */
    int nowned;
    unsigned long refusals;
    unsigned long selftest_events;
    PyObject *blocked_exc; /* gatecrash.Blocked, a PermissionError subclass */
} gc_oracle;

extern gc_oracle gc_orc;
/* Told, while an input runs, of each "exec" audit event's code object (source mode: where
 * the program's namespace is, program_ns.h); NULL: nobody asks. */
extern void (*gc_oracle_exec_observer)(PyObject *code);
/* Set on a thread while the harness itself raises an audit event there (source.c: setting
 * its own profile and trace functions on a thread an evaluation started): not judged. */
extern _Thread_local int gc_oracle_own_event;

const char *gc_cap_name(gc_cap cap);
const char *gc_kind_name(gc_kind k);

/* Before Py_Initialize: register the C audit hook. */
int gc_oracle_register_hook(void);
/* After Py_Initialize and before the gate is imported: capture the real primitives. */
int gc_oracle_load_table(char *err, size_t errlen);
/* After gc_interp_world_restore: the objects of every row whose module it took out of
 * sys.modules (one the table imported for its C definitions and the host has not) let go,
 * and collected, so that no copy of that module's types outlives it: a second
 * resource.struct_rusage in tuple.__subclasses__() moves every index after it, and a
 * program that indexes that list escapes where the host's would not.  The definitions stay
 * keys of the lookup and keep their guard; the row is bound again when the target imports
 * the module. */
void gc_oracle_release_unloaded(void);
/* In effect mode, after the gate's first install: append the judging hook after the gate's. */
int gc_oracle_add_tail_hook(char *err, size_t errlen);

/* The rows are bound as their modules appear in sys.modules (an "import" audit event, or
 * its size changed), and bound again when a module is imported afresh (state.c drops what an
 * input imported): checked at each audit event after an import, at each lookup, and here
 * (source.c: after evaluate).  After a refresh that bound modules, gc_oracle_bound_hook
 * (callguard.c) is told which. */
void gc_oracle_refresh(void);
extern void (*gc_oracle_bound_hook)(PyObject *const *mods, int n);

/* The table's rows, in load order: how many, and the i-th (0 <= i < count). */
int gc_oracle_prim_count(void);
const gc_prim *gc_oracle_prim(int i);

/* Reach oracle: the primitive 'v' is (by identity, code object or C method table), or NULL. */
const gc_prim *gc_oracle_lookup(PyObject *v);
/* The primitive 'v' is when the policy forbids its capability (a harness row never), or NULL:
 * 'v' itself reached is then an escape. */
const gc_prim *gc_oracle_forbidden(PyObject *v);
int gc_policy_forbids(const gc_policy *p, gc_cap cap);
/* After the table is loaded (globs are matched as Python's fnmatch does: pyglob.h): work out whether a
 * glob grants every path, so reaching a real write primitive is then no escape. */
void gc_policy_finish(gc_policy *p);
int gc_policy_allows_path(const gc_policy *p, const char *abspath);
/* The path a write to 'abspath' is judged as: inside the scratch folder's temporary folder,
 * the same place in the host's (gc_orc.host_tmp), else 'abspath'.  Into out[len]. */
const char *gc_oracle_judged_path(const char *abspath, char *out, size_t len);

void gc_oracle_reset_input(void);
/* A descriptor the current input opened with os.open (callguard.c sees the call return it)
 * is its own: open(fd) and os.close(fd) of it are allowed (tempfile's probe of its folder,
 * mkstemp's fd), those of any other descriptor stay refused (the harness's own: stderr,
 * the corpus).  gc_oracle_fd_owned: is fd one (release: and forget it). */
void gc_oracle_fd_opened(int fd);
int gc_oracle_fd_owned(long fd, int release);
void gc_oracle_set_escape(gc_kind kind, gc_cap cap, const char *primitive, const char *detail);
void gc_oracle_set_refused(const char *what);
/* While the target is imported (gc_orc.importing): note the first thing it attempted that
 * the harness refused ("write to /x", "spawn (execve)", "network (socket.connect)"); safe
 * from the backstop's supervisor thread.  gc_oracle_import_attempt: the note, or NULL;
 * gc_oracle_import_clear forgets it. */
void gc_oracle_note_import(const char *what);
const char *gc_oracle_import_attempt(void);
void gc_oracle_import_clear(void);
/* The harness's refusal of calling f (a harness primitive, a spawn allowed by policy, an
 * unaudited one; through any number of method-wrappers' __self__): its name, or NULL.  May
 * record an escape (effect mode: a forbidden primitive that CPython does not audit).  Both
 * modes' evaluators refuse by this one rule before a call. */
const char *gc_oracle_refuse_call(PyObject *f);
/* The C-call guard's rule for a call of primitive p about to run inside an input (source.c's
 * judge of callguard.h's closures; a thread's function at its start, oracle.c): in reach
 * mode a forbidden primitive is the escape ('detail' says where), unless its audit event
 * judges it; code strings, thread starts and the facilities (facility.h) run; otherwise
 * gc_oracle_refuse_call's refusals.  The name of what was stopped, with gatecrash.Blocked set, or NULL.
 * gc_oracle_guard_call is the same rule for a callable f (NULL when f is no primitive). */
const char *gc_oracle_guard_prim(const gc_prim *p, const char *detail);
const char *gc_oracle_guard_call(PyObject *f, const char *detail);
/* Is a call of p judged by its audit event, not by the call itself?  True for the write
 * primitives CPython audits: their event carries the arguments the call will use (open's
 * mode and flags, the written paths and their dir_fd), so a read-only open is no escape and
 * a write the globs allow is none either.  The C-call guard leaves such calls to the event. */
int gc_oracle_judged_by_event(const gc_prim *p);

/* The short names ("system", "Popen") of the primitives the policy forbids: what a
 * directed mutator aims for.  Returns how many were written (pointers into the table). */
int gc_oracle_target_names(const char **out, int max);

/* The audit events the effect oracle judges (oracle.c), for the tables generated from them
 * (the reproducer's): 0 with the i-th event's name, capability and the indices of the
 * arguments naming the paths it writes (-1: none), or -1 past the last.  A name ending in
 * ".*" ("ctypes.*") stands for every event with that prefix. */
int gc_oracle_event(size_t i, const char **name, gc_cap *cap, int paths[2]);

/* Start-up proof that the oracles see: a known reach is caught, a refusal is not an
 * escape, an audit event reaches the hook.  Returns 0 or -1 with a message. */
int gc_oracle_selftest(char *err, size_t errlen);

/* Policy from a Python dict (the `requires` block).  -1 with a one-line message on a
 * malformed block (wrong types, unknown keys). */
int gc_policy_from_requires(PyObject *requires, gc_policy *out, char *err, size_t errlen);
void gc_policy_free(gc_policy *p);
void gc_policy_describe(const gc_policy *p, char *buf, size_t len);

#endif
