/* oracle.c — reach and effect oracles, the policy, and the harness's refusals.
 *
 * Reach: gc_oracle_lookup() maps a value to a row of oracle_table.c by identity, by its
 * code object (Python functions) or by its PyMethodDef (C functions and method
 * descriptors), through a small open-addressing pointer table built once at start-up.
 *
 * Effect: one C audit hook, registered before Py_Initialize so nothing can run before it.
 * From the moment the table is armed it blocks every process creation, every network
 * connect/bind/send and every write outside the scratch folder, whoever asks; while a chain
 * step runs it also judges the event against the policy (an escape) and refuses the
 * interpreter wreckers.  In effect mode the judging moves to a second hook appended after
 * the gate's own hooks, so a gate that enforces with an audit hook refuses first and only
 * what it lets through is judged (the C hook still refuses wreckers at once). */
#include "oracle.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pycompat.h"
#include "pyglob.h"

gc_oracle gc_orc;
_Thread_local int gc_oracle_own_event;
void (*gc_oracle_exec_observer)(PyObject *code);

#define TABLE_SLOTS 2048 /* power of two, > 3 keys per primitive */

typedef struct {
    const void *key;
    int prim; /* index into prims */
} slot;

static slot slots[TABLE_SLOTS];
static gc_prim prims[1024];
static int nprims;
static PyObject *keepalive; /* list: the captured objects stay alive for the whole run */
static int tail_installed;

const char *gc_cap_name(gc_cap cap)
{
    static const char *names[] = {"spawn", "write", "network", "harness"};
    return cap < GC_CAP_COUNT ? names[cap] : "?";
}

const char *gc_kind_name(gc_kind k)
{
    return k == GC_KIND_EFFECT ? "effect" : k == GC_KIND_SYSCALL ? "syscall" : k == GC_KIND_LANDLOCK ? "landlock" : "reach";
}

static size_t hash_ptr(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= 0xed5ad4bbU;
    x ^= x >> 11;
    return (size_t)x & (TABLE_SLOTS - 1);
}

static void table_put(const void *key, int prim)
{
    if (!key)
        return;
    for (size_t i = hash_ptr(key), n = 0; n < TABLE_SLOTS; i = (i + 1) & (TABLE_SLOTS - 1), n++) {
        if (slots[i].key == key)
            return; /* first row wins (builtins.open before io.open aliases) */
        if (!slots[i].key) {
            slots[i].key = key;
            slots[i].prim = prim;
            return;
        }
    }
}

static const gc_prim *table_get(const void *key)
{
    if (!key)
        return NULL;
    for (size_t i = hash_ptr(key), n = 0; n < TABLE_SLOTS; i = (i + 1) & (TABLE_SLOTS - 1), n++) {
        if (slots[i].key == key)
            return &prims[slots[i].prim];
        if (!slots[i].key)
            return NULL;
    }
    return NULL;
}

/* The keys a callable is known by.  A value matches a row if any key matches. */
static int keys_of(PyObject *v, const void *keys[3])
{
    int n = 0;
    if (PyCode_Check(v))
        return 0; /* a primitive's code, bare, is none: a function made from it matches, below */
    keys[n++] = v;
    if (PyCFunction_Check(v))
        keys[n++] = ((PyCFunctionObject *)v)->m_ml;
    else if (PyFunction_Check(v))
        keys[n++] = PyFunction_GET_CODE(v);
    else if (Py_IS_TYPE(v, &PyMethodDescr_Type))
        keys[n++] = ((PyMethodDescrObject *)v)->d_method;
    else if (PyMethod_Check(v)) {
        PyObject *f = PyMethod_GET_FUNCTION(v);
        keys[n++] = f;
        if (PyFunction_Check(f))
            keys[n++] = PyFunction_GET_CODE(f);
    }
    return n;
}

/* Where each row of the table stands: the module object it was bound from (a strong
 * reference; NULL: never bound), and its primitive's index in prims (-1: none; a GC_PRIM_ALL
 * row's are found by name).  A process singleton, as the table is. */
static PyObject **row_mod;
static int *row_prim;
static Py_ssize_t modules_seen = -1; /* len(sys.modules) at the last refresh */
static volatile int modules_pending;  /* an "import" event since the last refresh */
static int refreshing;
void (*gc_oracle_bound_hook)(PyObject *const *mods, int n);

/* The primitive index of (spec, name): the row's own, the ALL row's entry of that name, or a
 * new one.  -1 when prims is full. */
static int prim_slot(size_t row, const char *name)
{
    const gc_prim_spec *spec = &gc_prim_table[row];
    if (!(spec->flags & GC_PRIM_ALL) && row_prim[row] >= 0)
        return row_prim[row];
    for (int i = 0; (spec->flags & GC_PRIM_ALL) && i < nprims; i++)
        if (prims[i].spec == spec && strcmp(prims[i].name, name) == 0)
            return i;
    if (nprims >= (int)(sizeof prims / sizeof prims[0]))
        return -1;
    if (PyList_Append(keepalive, Py_None) < 0) {
        PyErr_Clear();
        return -1;
    }
    return nprims++;
}

static void set_prim(size_t row, const char *name, PyObject *obj)
{
    int k = prim_slot(row, name);
    if (k < 0)
        return;
    gc_prim *p = &prims[k];
    p->spec = &gc_prim_table[row];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->def = PyCFunction_Check(obj)                  ? ((PyCFunctionObject *)obj)->m_ml
             : Py_IS_TYPE(obj, &PyMethodDescr_Type) ? ((PyMethodDescrObject *)obj)->d_method
                                                    : NULL;
    PyList_SetItem(keepalive, k, Py_NewRef(obj));
    if (!(p->spec->flags & GC_PRIM_ALL))
        row_prim[row] = k;
}

/* The lookup table made again from every primitive's object: a row bound again (its module
 * imported afresh) replaces its keys, so the table never grows with re-imports. */
static void rebuild_slots(void)
{
    memset(slots, 0, sizeof slots);
    for (int i = 0; i < nprims; i++) {
        const void *keys[3];
        PyObject *o = PyList_GET_ITEM(keepalive, i);
        if (o == Py_None) { /* let go (gc_oracle_release_unloaded): its definition is still a key */
            if (prims[i].def)
                table_put(prims[i].def, i);
            continue;
        }
        int n = keys_of(o, keys);
        for (int k = 0; k < n; k++)
            table_put(keys[k], i);
    }
}

/* o.name when o has it (a new reference), else NULL; no error is left set. */
static PyObject *opt_attr(PyObject *o, const char *name)
{
    PyObject *n = PyUnicode_FromString(name), *v = NULL;
    if (!n || PyObject_GetOptionalAttr(o, n, &v) < 0)
        PyErr_Clear();
    Py_XDECREF(n);
    return v;
}

/* Row 'row' from the module object 'mod', read from its namespace (no module __getattr__,
 * no import): its attribute path, or with GC_PRIM_ALL each public callable that is no class. */
static void bind_row(size_t row, PyObject *mod)
{
    const gc_prim_spec *s = &gc_prim_table[row];
    PyObject *d = PyModule_GetDict(mod); /* borrowed */
    char full[96];
    if (s->flags & GC_PRIM_ALL) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (d && PyDict_Next(d, &pos, &k, &v)) {
            const char *cn = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
            if (cn && cn[0] != '_' && PyCallable_Check(v) && !PyType_Check(v)) {
                snprintf(full, sizeof full, "%s.%s", s->module, cn);
                set_prim(row, full, v);
            }
        }
        PyErr_Clear();
        return;
    }
    char part[64];
    const char *a = s->attr;
    size_t n = strcspn(a, ".");
    snprintf(part, sizeof part, "%.*s", (int)n, a);
    PyObject *v = d ? Py_XNewRef(PyDict_GetItemString(d, part)) : NULL;
    for (a += n; v && *a == '.'; a += n) {
        a++;
        n = strcspn(a, ".");
        snprintf(part, sizeof part, "%.*s", (int)n, a);
        Py_SETREF(v, opt_attr(v, part));
    }
    if (v) {
        snprintf(full, sizeof full, "%s.%s", s->module, s->attr);
        set_prim(row, full, v);
        Py_DECREF(v);
    }
}

/* Is the module object still running its own code (in sys.modules from the import's start)? */
static int initializing(PyObject *mod)
{
    PyObject *spec = PyDict_GetItemString(PyModule_GetDict(mod), "__spec__");
    PyObject *flag = spec && spec != Py_None ? opt_attr(spec, "_initializing") : NULL;
    int busy = flag && PyObject_IsTrue(flag) == 1;
    Py_XDECREF(flag);
    PyErr_Clear();
    return busy;
}

/* tempfile, once imported: its folder (tempfile.tempdir, while unset) is the scratch
 * folder's temporary folder (interp.c), as TMPDIR says, without the probe of each candidate
 * folder gettempdir() makes first.  1 while tempfile is still importing. */
static int temp_folder(PyObject *modules)
{
    PyObject *tf = PyDict_GetItemString(modules, "tempfile"); /* borrowed */
    if (!tf || !PyModule_Check(tf) || !gc_orc.tmp[0])
        return 0;
    if (initializing(tf))
        return 1;
    PyObject *d = PyModule_GetDict(tf), *dir = PyDict_GetItemString(d, "tempdir");
    PyObject *path = dir == Py_None ? PyUnicode_DecodeFSDefault(gc_orc.tmp) : NULL;
    if (path && PyDict_SetItemString(d, "tempdir", path) < 0)
        PyErr_Clear();
    Py_XDECREF(path);
    return 0;
}

/* Bind every row whose module is in sys.modules as another object than the one it was
 * bound from.  The number of modules bound; modules_pending stays set while one of the
 * table's modules is still importing. */
static int refresh(void)
{
    PyObject *modules = PyImport_GetModuleDict();
    PyObject *fresh[64];
    int nfresh = 0, busy = 0;
    refreshing = 1;
    for (size_t i = 0; i < gc_prim_table_len; i++) {
        PyObject *m = PyDict_GetItemString(modules, gc_prim_table[i].module); /* borrowed */
        if (!m || m == row_mod[i] || !PyModule_Check(m))
            continue;
        if (initializing(m)) {
            busy = 1;
            continue;
        }
        bind_row(i, m);
        Py_XSETREF(row_mod[i], Py_NewRef(m));
        int dup = 0;
        for (int k = 0; k < nfresh && !dup; k++)
            dup = fresh[k] == m;
        if (!dup && nfresh < 64)
            fresh[nfresh++] = m;
    }
    busy |= temp_folder(modules);
    PyErr_Clear();
    modules_seen = PyDict_GET_SIZE(modules);
    modules_pending = busy;
    if (nfresh) {
        rebuild_slots();
        if (gc_oracle_bound_hook)
            gc_oracle_bound_hook(fresh, nfresh);
    }
    refreshing = 0;
    return nfresh;
}

void gc_oracle_refresh(void)
{
    if (!row_mod || refreshing || (!modules_pending && PyDict_GET_SIZE(PyImport_GetModuleDict()) == modules_seen))
        return;
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb); /* a lookup may be made with an exception set: it stays */
    refresh();
    PyErr_Restore(t, v, tb);
}

/* Is 'name' a built-in or extension module (its functions are C functions, whose method
 * definitions stay the same in every module object made from it)?  Found without importing
 * it: sys.builtin_module_names, or the path finder's spec (its origin a shared object). */
static int c_module(const char *name)
{
    PyObject *builtin = PySys_GetObject("builtin_module_names"); /* borrowed */
    PyObject *n = PyUnicode_FromString(name);
    int c = builtin && n && PySequence_Contains(builtin, n) == 1;
    if (!c && n) {
        PyObject *ext = PyImport_AddModule("_frozen_importlib_external"); /* borrowed */
        PyObject *finder = ext ? PyObject_GetAttrString(ext, "PathFinder") : NULL;
        PyObject *spec = finder ? PyObject_CallMethod(finder, "find_spec", "O", n) : NULL;
        PyObject *origin = spec && spec != Py_None ? PyObject_GetAttrString(spec, "origin") : NULL;
        const char *o = origin && PyUnicode_Check(origin) ? PyUnicode_AsUTF8(origin) : NULL;
        c = o && strlen(o) > 3 && strcmp(o + strlen(o) - 3, ".so") == 0;
        Py_XDECREF(origin);
        Py_XDECREF(spec);
        Py_XDECREF(finder);
    }
    Py_XDECREF(n);
    PyErr_Clear();
    return c;
}

/* The rows are bound lazily, as their modules appear in sys.modules (gc_oracle_refresh), so
 * the harness puts no module there that the host would not have: an import the sandbox
 * refuses (a sys.meta_path finder) is refused as in the host.  A built-in or extension
 * module the host has not imported yet is imported here all the same, for its C
 * functions' definitions, on which the C-call guard is placed before any program can call
 * them; gc_interp_world_restore takes it out of sys.modules again before the target is
 * imported, and its rows are bound again from the module object the host imports. */
int gc_oracle_load_table(char *err, size_t errlen)
{
    keepalive = PyList_New(0);
    row_mod = calloc(gc_prim_table_len, sizeof *row_mod);
    row_prim = malloc(gc_prim_table_len * sizeof *row_prim);
    if (!keepalive || !row_mod || !row_prim) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    PyObject *modules = PyImport_GetModuleDict();
    for (size_t i = 0; i < gc_prim_table_len; i++) {
        row_prim[i] = -1;
        const char *m = gc_prim_table[i].module;
        if (i > 0 && strcmp(m, gc_prim_table[i - 1].module) == 0)
            continue; /* the row before asked already */
        if (!PyDict_GetItemString(modules, m) && c_module(m)) {
            PyObject *mod = PyImport_ImportModule(m);
            Py_XDECREF(mod);
            PyErr_Clear();
        }
    }
    refresh();
    if (nprims == 0) {
        snprintf(err, errlen, "no real primitive could be captured");
        return -1;
    }
    gc_orc.armed = 1;
    return 0;
}

void gc_oracle_release_unloaded(void)
{
    PyObject *modules = PyImport_GetModuleDict();
    int released = 0;
    for (size_t i = 0; row_mod && i < gc_prim_table_len; i++) {
        if (!row_mod[i] || PyDict_GetItemString(modules, gc_prim_table[i].module) == row_mod[i])
            continue;
        Py_CLEAR(row_mod[i]);
        for (int k = 0; k < nprims; k++)
            if (prims[k].spec == &gc_prim_table[i])
                PyList_SetItem(keepalive, k, Py_NewRef(Py_None));
        released = 1;
    }
    if (released) {
        rebuild_slots();
        PyGC_Collect();
    }
    PyErr_Clear();
}

int gc_oracle_prim_count(void) { return nprims; }

const gc_prim *gc_oracle_prim(int i) { return &prims[i]; }

const gc_prim *gc_oracle_lookup(PyObject *v)
{
    gc_oracle_refresh();
    const void *keys[3];
    int n = keys_of(v, keys);
    for (int i = 0; i < n; i++) {
        const gc_prim *p = table_get(keys[i]);
        if (p)
            return p;
    }
    return NULL;
}

const gc_prim *gc_oracle_forbidden(PyObject *v)
{
    const gc_prim *p = gc_oracle_lookup(v);
    return p && p->spec->cap != GC_CAP_HARNESS && gc_policy_forbids(&gc_orc.policy, p->spec->cap) ? p : NULL;
}

/* Does some glob grant every path?  A star crosses a slash (pyglob.h), so
 * "/STAR", "/STARSTAR" and "STAR" all do; a glob is taken to grant everything when it matches each of
 * these probes, chosen to differ in depth, location and characters. */
static int globs_grant_everything(const gc_policy *p)
{
    static const char *probes[] = {"/", "/etc/passwd", "/root/.ssh/authorized_keys", "/tmp/a b/c.d",
                                   "/usr/lib/python3.11/os.py", "/.hidden", "/x/y/z/w/v/u"};
    for (int i = 0; i < p->nglobs; i++) {
        int all = 1;
        for (size_t k = 0; k < sizeof probes / sizeof probes[0] && all; k++)
            all = gc_pyglob_match(p->globs[i], probes[k]);
        if (all)
            return 1;
    }
    return 0;
}

void gc_policy_finish(gc_policy *p) { p->write_everywhere = p->write_restricted && globs_grant_everything(p); }

int gc_policy_forbids(const gc_policy *p, gc_cap cap)
{
    switch (cap) {
    case GC_CAP_SPAWN: return p->spawn_forbidden;
    case GC_CAP_WRITE: return p->write_restricted && !p->write_everywhere;
    case GC_CAP_NETWORK: return p->network_forbidden;
    default: return 0;
    }
}

int gc_policy_allows_path(const gc_policy *p, const char *abspath)
{
    if (!p->write_restricted)
        return 1;
    if (!abspath) /* a path that resolves to nothing ('' or an unknown dir_fd) */
        return p->write_everywhere;
    for (int i = 0; i < p->nglobs; i++)
        if (gc_pyglob_match(p->globs[i], abspath))
            return 1;
    return 0;
}

const char *gc_oracle_judged_path(const char *abspath, char *out, size_t len)
{
    size_t n = strlen(gc_orc.tmp);
    if (!n || !gc_orc.host_tmp[0] || strncmp(abspath, gc_orc.tmp, n) != 0 || (abspath[n] != '/' && abspath[n]))
        return abspath;
    return (size_t)snprintf(out, len, "%s%s", gc_orc.host_tmp, abspath + n) < len ? out : abspath;
}

void gc_oracle_fd_opened(int fd)
{
    if (fd >= 0 && gc_orc.nowned < (int)(sizeof gc_orc.owned_fds / sizeof gc_orc.owned_fds[0]))
        gc_orc.owned_fds[gc_orc.nowned++] = fd;
}

int gc_oracle_fd_owned(long fd, int release)
{
    for (int i = 0; i < gc_orc.nowned; i++)
        if (gc_orc.owned_fds[i] == fd) {
            if (release)
                gc_orc.owned_fds[i] = gc_orc.owned_fds[--gc_orc.nowned];
            return 1;
        }
    return 0;
}

void gc_oracle_reset_input(void)
{
    gc_orc.nowned = 0;
    gc_orc.escape.set = 0;
    gc_orc.refused[0] = '\0';
    gc_orc.write_pending = 0;
}

void gc_oracle_set_escape(gc_kind kind, gc_cap cap, const char *primitive, const char *detail)
{
    if (gc_orc.escape.set)
        return;
    gc_orc.escape.set = 1;
    gc_orc.escape.kind = kind;
    gc_orc.escape.cap = cap;
    snprintf(gc_orc.escape.primitive, sizeof gc_orc.escape.primitive, "%s", primitive);
    snprintf(gc_orc.escape.detail, sizeof gc_orc.escape.detail, "%s", detail ? detail : "");
    /* a detail is a repr the gate may shape: it must not break the harness's lines */
    for (char *c = gc_orc.escape.detail; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
}

void gc_oracle_set_refused(const char *what)
{
    gc_orc.refusals++;
    snprintf(gc_orc.refused, sizeof gc_orc.refused, "%s", what);
}

/* The first attempt only: the flag is taken before the text is written, published after. */
static atomic_int import_taken, import_ready;
static char import_what[PATH_MAX + 96];

void gc_oracle_note_import(const char *what)
{
    if (!gc_orc.importing || atomic_exchange(&import_taken, 1))
        return;
    snprintf(import_what, sizeof import_what, "%s", what);
    atomic_store(&import_ready, 1);
}

const char *gc_oracle_import_attempt(void) { return atomic_load(&import_ready) ? import_what : NULL; }

void gc_oracle_import_clear(void)
{
    atomic_store(&import_ready, 0);
    atomic_store(&import_taken, 0);
}

/* ---- audit events ---- */

typedef enum { EV_NONE, EV_SPAWN, EV_WRITE, EV_NET, EV_HARNESS, EV_THREAD } ev_class;

typedef struct {
    const char *name;
    ev_class cls;
    signed char paths[2];  /* argument indices that name written paths, -1 for none */
    signed char dir_fd[2]; /* argument index of each path's dir_fd, -1 for none */
} ev_spec;

static const ev_spec events[] = {
    {"os.system", EV_SPAWN, {-1, -1}, {-1, -1}}, {"os.exec", EV_SPAWN, {-1, -1}, {-1, -1}},
    {"os.posix_spawn", EV_SPAWN, {-1, -1}, {-1, -1}}, {"os.spawn", EV_SPAWN, {-1, -1}, {-1, -1}},
    {"os.fork", EV_SPAWN, {-1, -1}, {-1, -1}}, {"os.forkpty", EV_SPAWN, {-1, -1}, {-1, -1}},
    {"subprocess.Popen", EV_SPAWN, {-1, -1}, {-1, -1}}, {"pty.spawn", EV_SPAWN, {-1, -1}, {-1, -1}},
    {"os.startfile", EV_SPAWN, {-1, -1}, {-1, -1}},
    {"open", EV_WRITE, {0, -1}, {-1, -1}}, /* judged by its mode/flags */
    {"os.remove", EV_WRITE, {0, -1}, {1, 1}}, {"os.rmdir", EV_WRITE, {0, -1}, {1, 1}},
    {"os.mkdir", EV_WRITE, {0, -1}, {2, 2}}, {"os.rename", EV_WRITE, {0, 1}, {2, 3}},
    {"os.truncate", EV_WRITE, {0, -1}, {-1, -1}}, {"os.chmod", EV_WRITE, {0, -1}, {2, 2}},
    {"os.chown", EV_WRITE, {0, -1}, {3, 3}}, {"os.utime", EV_WRITE, {0, -1}, {3, 3}},
    {"os.link", EV_WRITE, {0, 1}, {2, 3}} /* a hard link to an outside file is a write to it */, {"os.symlink", EV_WRITE, {1, -1}, {2, 2}},
    {"os.setxattr", EV_WRITE, {0, -1}, {-1, -1}}, {"os.removexattr", EV_WRITE, {0, -1}, {-1, -1}},
    {"os.chflags", EV_WRITE, {0, -1}, {-1, -1}},
    {"shutil.copyfile", EV_WRITE, {1, -1}, {-1, -1}}, {"shutil.copymode", EV_WRITE, {1, -1}, {-1, -1}},
    {"shutil.copystat", EV_WRITE, {1, -1}, {-1, -1}}, {"shutil.copytree", EV_WRITE, {1, -1}, {-1, -1}},
    {"shutil.chown", EV_WRITE, {0, -1}, {-1, -1}}, {"shutil.make_archive", EV_WRITE, {0, -1}, {-1, -1}},
    {"shutil.move", EV_WRITE, {0, 1}, {-1, -1}}, {"shutil.rmtree", EV_WRITE, {0, -1}, {1, 1}},
    {"shutil.unpack_archive", EV_WRITE, {1, -1}, {-1, -1}},
    {"sqlite3.connect", EV_WRITE, {0, -1}, {-1, -1}}, /* creates the database file */
    {"socket.connect", EV_NET, {-1, -1}, {-1, -1}}, {"socket.getaddrinfo", EV_NET, {-1, -1}, {-1, -1}},
    {"socket.gethostbyname", EV_NET, {-1, -1}, {-1, -1}}, {"socket.gethostbyaddr", EV_NET, {-1, -1}, {-1, -1}}, {"socket.bind", EV_NET, {-1, -1}, {-1, -1}},
    {"socket.sendto", EV_NET, {-1, -1}, {-1, -1}}, {"socket.sendmsg", EV_NET, {-1, -1}, {-1, -1}},
    {"sys.addaudithook", EV_HARNESS, {-1, -1}, {-1, -1}}, {"os.kill", EV_HARNESS, {-1, -1}, {-1, -1}},
    {"os.killpg", EV_HARNESS, {-1, -1}, {-1, -1}}, {"os.putenv", EV_HARNESS, {-1, -1}, {-1, -1}},
    {"os.unsetenv", EV_HARNESS, {-1, -1}, {-1, -1}}, {"os.chdir", EV_HARNESS, {-1, -1}, {-1, -1}},
    {"signal.pthread_kill", EV_HARNESS, {-1, -1}, {-1, -1}},
    {"resource.setrlimit", EV_HARNESS, {-1, -1}, {-1, -1}}, {"resource.prlimit", EV_HARNESS, {-1, -1}, {-1, -1}},
    {"sys.setprofile", EV_HARNESS, {-1, -1}, {-1, -1}}, {"sys.settrace", EV_HARNESS, {-1, -1}, {-1, -1}},
    {"sys.monitoring.register_callback", EV_HARNESS, {-1, -1}, {-1, -1}}, /* 3.12+: PEP 669 tools */
    {"object.__setattr__", EV_HARNESS, {-1, -1}, {-1, -1}}, /* mutating a class */
    {"object.__delattr__", EV_HARNESS, {-1, -1}, {-1, -1}},
};

/* Every event whose name starts with "ctypes." (raw memory access): refused. */
static const ev_spec ctypes_events = {"ctypes.*", EV_HARNESS, {-1, -1}, {-1, -1}};

int gc_oracle_event(size_t i, const char **name, gc_cap *cap, int paths[2])
{
    static const gc_cap caps[] = {[EV_NONE] = GC_CAP_COUNT, [EV_SPAWN] = GC_CAP_SPAWN, [EV_WRITE] = GC_CAP_WRITE,
                                  [EV_NET] = GC_CAP_NETWORK, [EV_HARNESS] = GC_CAP_HARNESS};
    size_t n = sizeof events / sizeof events[0];
    if (i > n)
        return -1;
    const ev_spec *e = i < n ? &events[i] : &ctypes_events;
    *name = e->name;
    *cap = caps[e->cls];
    paths[0] = e->paths[0];
    paths[1] = e->paths[1];
    return 0;
}

static int selftest_spawn; /* the self-test's synthetic spawn event is live */

/* A thread's start (3.12+; 3.11 raises no event): its function is judged as a call made
 * inside the input (no Python frame on the new thread sees it called).  Not in events[]:
 * no capability of its own, nothing for the reproducer's tables. */
static const ev_spec thread_starts[] = {{"_thread.start_new_thread", EV_THREAD, {-1, -1}, {-1, -1}},
                                        {"_thread.start_joinable_thread", EV_THREAD, {-1, -1}, {-1, -1}}};

static const ev_spec *classify(const char *event)
{
    for (size_t i = 0; strncmp(event, "_thread.", 8) == 0 && i < 2; i++)
        if (strcmp(event, thread_starts[i].name) == 0)
            return &thread_starts[i];
    if (selftest_spawn && strcmp(event, "gatecrash.selftest.spawn") == 0) {
        static const ev_spec st = {"gatecrash.selftest.spawn", EV_SPAWN, {-1, -1}, {-1, -1}};
        return &st;
    }
    if (strncmp(event, "ctypes.", 7) == 0)
        return &ctypes_events;
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        if (strcmp(events[i].name, event) == 0)
            return &events[i];
    return NULL;
}

static int block(const char *what)
{
    PyErr_Format(gc_orc.blocked_exc ? gc_orc.blocked_exc : PyExc_PermissionError,
                 "gatecrash: %s blocked by the harness", what);
    return -1;
}

/* Lexical abspath, like os.path.abspath. */
static void lexical_abspath(const char *in, char *out, size_t outlen)
{
    char tmp[PATH_MAX * 2];
    if (in[0] == '/')
        snprintf(tmp, sizeof tmp, "%s", in);
    else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            snprintf(cwd, sizeof cwd, "/");
        snprintf(tmp, sizeof tmp, "%s/%s", cwd, in);
    }
    /* collapse '', '.', '..' components */
    const char *comp[PATH_MAX / 2];
    size_t clen[PATH_MAX / 2];
    int n = 0;
    for (char *p = tmp; *p;) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        char *s = p;
        while (*p && *p != '/')
            p++;
        size_t len = (size_t)(p - s);
        if (len == 1 && s[0] == '.')
            continue;
        if (len == 2 && s[0] == '.' && s[1] == '.') {
            if (n > 0)
                n--;
            continue;
        }
        if (n < (int)(sizeof comp / sizeof comp[0])) {
            comp[n] = s;
            clen[n] = len;
            n++;
        }
    }
    size_t o = 0;
    if (n == 0)
        snprintf(out, outlen, "/");
    for (int i = 0; i < n && o + clen[i] + 2 < outlen; i++) {
        out[o++] = '/';
        memcpy(out + o, comp[i], clen[i]);
        o += clen[i];
        out[o] = '\0';
    }
}

/* Would a write to 'raw' (absolute, NOT normalised: "d/.." must go through d the way the
 * kernel does) land inside scratch?  A path that exists is resolved with realpath (a final
 * symlink followed); one that does not yet is its nearest existing folder resolved, with
 * the missing components after it (mkdir(parents=True) makes them one by one, each judged
 * while the next is still missing), none of them '.' or '..'.  A dangling symlink is
 * refused. */
static int inside_scratch(const char *raw)
{
    char real[PATH_MAX], rp[PATH_MAX], parent[PATH_MAX];
    const char *p = NULL;
    struct stat lst;
    if (lstat(raw, &lst) == 0)
        p = realpath(raw, real);
    else if (snprintf(parent, sizeof parent, "%s", raw) < (int)sizeof parent) {
        char *slash = strrchr(parent, '/');
        while (slash && !p) {
            const char *last = slash + 1;
            if (!*last || strcmp(last, "..") == 0 || strcmp(last, ".") == 0)
                break; /* "d/" or "d/.." of a missing d: resolved only by the kernel */
            *slash = '\0';
            if (lstat(parent[0] ? parent : "/", &lst) == 0) {
                if (realpath(parent[0] ? parent : "/", rp) &&
                    (size_t)snprintf(real, sizeof real, "%s/%s", rp, raw + (slash - parent) + 1) < sizeof real)
                    p = real;
                break;
            }
            slash = strrchr(parent, '/');
        }
    }
    if (!p)
        return 0; /* a dangling symlink, or a path that cannot be resolved */
    size_t n = strlen(gc_orc.scratch);
    return n > 1 && strncmp(p, gc_orc.scratch, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

/* A written path argument, as the lexical absolute path the host's globs are matched
 * against ('norm') and as the raw absolute path the kernel will resolve ('raw').  Both
 * empty when it cannot be known (an fd, a dir_fd-relative path, a relative path whose
 * event leaves out a dir_fd the call may have had: 'unseen_dir_fd'): such a write is outside
 * scratch and outside every glob. */
static void written_path(PyObject *arg, PyObject *dir_fd, int unseen_dir_fd, char *norm, char *raw, size_t len)
{
    norm[0] = raw[0] = '\0';
    if (!arg || PyLong_Check(arg))
        return;
    PyObject *fs = PyOS_FSPath(arg);
    if (!fs) {
        PyErr_Clear();
        return;
    }
    PyObject *b = NULL;
    if (PyUnicode_Check(fs))
        b = PyUnicode_EncodeFSDefault(fs);
    else if (PyBytes_Check(fs)) {
        b = fs;
        Py_INCREF(b);
    }
    Py_DECREF(fs);
    if (!b) {
        PyErr_Clear();
        return;
    }
    const char *s = PyBytes_AS_STRING(b);
    /* audit events give dir_fd as None or -1 when it was not passed */
    int has_dir_fd = dir_fd && dir_fd != Py_None && !(PyLong_Check(dir_fd) && PyLong_AsLong(dir_fd) == -1);
    PyErr_Clear();
    int relative_to_fd = s[0] != '/' && (has_dir_fd || unseen_dir_fd);
    if (!relative_to_fd && s[0] && strlen(s) == (size_t)PyBytes_GET_SIZE(b)) {
        lexical_abspath(s, norm, len);
        char cwd[PATH_MAX];
        if (s[0] == '/')
            snprintf(raw, len, "%s", s);
        else if (getcwd(cwd, sizeof cwd) && (size_t)snprintf(raw, len, "%s/%s", cwd, s) >= len)
            raw[0] = '\0';
        if (!raw[0])
            norm[0] = '\0';
    }
    Py_DECREF(b);
}

static int open_writes(PyObject *args)
{
    if (PyTuple_GET_SIZE(args) < 3)
        return 1;
    PyObject *mode = PyTuple_GET_ITEM(args, 1), *flags = PyTuple_GET_ITEM(args, 2);
    if (mode && PyUnicode_Check(mode)) {
        const char *m = PyUnicode_AsUTF8(mode);
        if (!m) {
            PyErr_Clear();
            return 1;
        }
        return strpbrk(m, "wax+") != NULL;
    }
    if (flags && PyLong_Check(flags)) {
        long f = PyLong_AsLong(flags);
        if (f == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 1;
        }
        return (f & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) != 0;
    }
    return 0;
}

/* An open with O_TMPFILE (tempfile's TemporaryFile on Linux): its path is a folder, and the
 * write is of an unnamed file inside it. */
static int open_tmpfile(const char *event, PyObject *args)
{
#ifdef O_TMPFILE
    PyObject *flags = strcmp(event, "open") == 0 && PyTuple_GET_SIZE(args) > 2 ? PyTuple_GET_ITEM(args, 2) : NULL;
    long f = flags && PyLong_Check(flags) ? PyLong_AsLong(flags) : 0;
    PyErr_Clear();
    return (f & O_TMPFILE) == O_TMPFILE;
#else
    (void)event, (void)args;
    return 0;
#endif
}

/* path and raw (each len bytes) as the file "<O_TMPFILE>" inside them; both empty when it
 * does not fit. */
static void in_folder(char *path, char *raw, size_t len)
{
    size_t n = strlen(path);
    if (n + 13 >= len || strlen(raw) + 13 >= len) {
        path[0] = raw[0] = '\0';
        return;
    }
    snprintf(path + n, len - n, "%s<O_TMPFILE>", n && path[n - 1] == '/' ? "" : "/");
    n = strlen(raw);
    snprintf(raw + n, len - n, "%s<O_TMPFILE>", n && raw[n - 1] == '/' ? "" : "/");
}

static void short_repr(PyObject *v, char *out, size_t len)
{
    out[0] = '\0';
    PyObject *r = v ? PyObject_Repr(v) : NULL;
    const char *s = r ? PyUnicode_AsUTF8(r) : NULL;
    if (s)
        snprintf(out, len, "%s", s);
    Py_XDECREF(r);
    PyErr_Clear();
}

/* object.__setattr__ / __delattr__ is CPython's event for setting a function's special
 * attributes (__module__, __doc__, __defaults__, __name__...), which functools.wraps and
 * dataclasses do as a module is imported.  While a source target's evaluate runs
 * (in_sandbox) that is the sandbox's own code running as in a plain host: given, except a
 * function's __code__, which changes what the reach oracle recognises.  Chains stay refused (a chain changing a gate
 * function's defaults would outlive its input). */
static int sandbox_sets_function_attr(const char *event, PyObject *args)
{
    if (!gc_orc.in_sandbox || strncmp(event, "object.__", 9) != 0 || !PyTuple_Check(args) ||
        PyTuple_GET_SIZE(args) < 2 || !PyUnicode_Check(PyTuple_GET_ITEM(args, 1)))
        return 0;
    const char *attr = PyUnicode_AsUTF8(PyTuple_GET_ITEM(args, 1));
    if (!attr)
        PyErr_Clear();
    return attr && strcmp(attr, "__code__") != 0 &&
           (strcmp(event, "object.__setattr__") == 0 || strcmp(event, "object.__delattr__") == 0);
}

/* Decide one event.  'judging': a chain step is running and escapes are counted. */
static int judge(const ev_spec *ev, const char *event, PyObject *args, int judging)
{
    Py_ssize_t nargs = PyTuple_Check(args) ? PyTuple_GET_SIZE(args) : 0;
    switch (ev->cls) {
    case EV_NONE: return 0;
    case EV_THREAD:
        return judging && nargs > 0 && gc_oracle_guard_call(PyTuple_GET_ITEM(args, 0),
                                                            "started as a thread's function inside the input")
                   ? -1
                   : 0;
    case EV_HARNESS:
        if (!judging || sandbox_sets_function_attr(event, args))
            return 0;
        gc_oracle_set_refused(event);
        return block(event);
    case EV_SPAWN:
    case EV_NET: {
        gc_cap cap = ev->cls == EV_SPAWN ? GC_CAP_SPAWN : GC_CAP_NETWORK;
        char detail[256];
        short_repr(nargs > 0 ? PyTuple_GET_ITEM(args, 0) : NULL, detail, sizeof detail);
        if (judging && gc_policy_forbids(&gc_orc.policy, cap)) {
            gc_oracle_set_escape(GC_KIND_EFFECT, cap, event, detail);
        } else {
            char what[400], addr[256]; /* socket.connect, bind, sendto, sendmsg: (socket, address, ...) */
            snprintf(addr, sizeof addr, "%s", detail);
            if (cap == GC_CAP_NETWORK && strncmp(event, "socket.", 7) == 0 && strncmp(event, "socket.get", 10) != 0 &&
                nargs > 1)
                short_repr(PyTuple_GET_ITEM(args, 1), addr, sizeof addr);
            snprintf(what, sizeof what, "%s (%s %s)", cap == GC_CAP_SPAWN ? "spawn" : "network", event, addr);
            if (strcmp(event, "socket.bind") != 0) /* a bind connects nowhere (backstop.c) */
                gc_oracle_note_import(what);
            gc_oracle_set_refused(event);
        }
        return block(event);
    }
    case EV_WRITE:
        if (strcmp(event, "open") == 0 && nargs > 0 && PyLong_Check(PyTuple_GET_ITEM(args, 0))) {
            /* open(fd) / os.fdopen(fd): the file object closes that descriptor when it goes,
             * whatever it is (stderr, the engine's corpus or log): fd juggling, refused */
            if (!judging || gc_oracle_fd_owned(PyLong_AsLong(PyTuple_GET_ITEM(args, 0)), 0))
                return 0;
            PyErr_Clear();
            gc_oracle_set_refused("open(fd)");
            return block("open(fd)");
        }
        if (strcmp(event, "open") == 0 && !open_writes(args))
            return 0;
        if (strcmp(event, "sqlite3.connect") == 0 && nargs > 0 && PyUnicode_Check(PyTuple_GET_ITEM(args, 0))) {
            const char *db = PyUnicode_AsUTF8(PyTuple_GET_ITEM(args, 0));
            if (db && (strcmp(db, ":memory:") == 0 || db[0] == '\0'))
                return 0; /* an in-memory database writes nothing */
            PyErr_Clear();
        }
        /* os.open's event (mode None; the builtin open's has a mode string) has no dir_fd:
         * a relative path that os.open writes may be relative to any folder */
        int unseen_dir_fd = strcmp(event, "open") == 0 && nargs > 1 && PyTuple_GET_ITEM(args, 1) == Py_None;
        for (int i = 0; i < 2; i++) {
            int idx = ev->paths[i];
            if (idx < 0 || idx >= nargs)
                continue;
            int di = ev->dir_fd[i];
            PyObject *dfd = di >= 0 && di < nargs ? PyTuple_GET_ITEM(args, di) : NULL;
            char path[PATH_MAX], raw[PATH_MAX];
            written_path(PyTuple_GET_ITEM(args, idx), dfd, unseen_dir_fd, path, raw, sizeof path);
            struct stat dst;
            if (path[0] && open_tmpfile(event, args))
                in_folder(path, raw, sizeof path);
            else if (raw[0] && strcmp(event, "open") == 0 && stat(raw, &dst) == 0 && S_ISDIR(dst.st_mode))
                continue; /* a folder opened for writing: EISDIR, or an opener that opens
                           * another path (tempfile's), whose own event is judged */
            int known = path[0] != '\0';
            char host[PATH_MAX];
            const char *as = known ? gc_oracle_judged_path(path, host, sizeof host) : NULL;
            if (judging && !gc_policy_allows_path(&gc_orc.policy, as)) {
                char detail[256 + 8];
                if (known)
                    snprintf(detail, sizeof detail, "%s", as);
                else
                    short_repr(PyTuple_GET_ITEM(args, idx), detail, sizeof detail);
                gc_oracle_set_escape(GC_KIND_EFFECT, GC_CAP_WRITE, event, detail);
                return block(event);
            }
            if (!known || !inside_scratch(raw)) {
                char what[PATH_MAX + 64];
                if (known)
                    snprintf(what, sizeof what, "write to %s (%s)", path, event);
                else
                    snprintf(what, sizeof what, "write (%s)", event);
                gc_oracle_note_import(what);
                gc_oracle_set_refused(event);
                return block(event);
            }
        }
        return 0;
    }
    return 0;
}

static int c_hook(const char *event, PyObject *args, void *ud)
{
    (void)ud;
    if (strcmp(event, "gatecrash.selftest") == 0) {
        gc_orc.selftest_events++;
        return 0;
    }
    if (!gc_orc.armed || gc_oracle_own_event)
        return 0;
    /* the event comes before the import: the rows of the module it brings are bound at the
     * next event (or the next value judged) */
    if (event[0] == 'i' && strcmp(event, "import") == 0)
        modules_pending = 1;
    else if (modules_pending)
        gc_oracle_refresh();
    if (event[0] == 'e' && gc_oracle_exec_observer && gc_orc.in_chain && strcmp(event, "exec") == 0 &&
        PyTuple_Check(args) && PyTuple_GET_SIZE(args) > 0)
        gc_oracle_exec_observer(PyTuple_GET_ITEM(args, 0));
    const ev_spec *ev = classify(event);
    if (!ev)
        return 0;
    int judging = gc_orc.in_chain;
    /* Effect mode: let the gate's own hooks refuse first; the tail hook judges. */
    if (judging && gc_orc.mode == GC_MODE_EFFECT && tail_installed && ev->cls != EV_HARNESS)
        return 0;
    return judge(ev, event, args, judging);
}

int gc_oracle_register_hook(void)
{
    return PySys_AddAuditHook(c_hook, NULL);
}

static PyObject *tail_hook(PyObject *self, PyObject *const *a, Py_ssize_t n)
{
    (void)self;
    if (n != 2 || !PyUnicode_Check(a[0]))
        Py_RETURN_NONE;
    const char *event = PyUnicode_AsUTF8(a[0]);
    if (!event)
        return NULL;
    const ev_spec *ev = classify(event);
    if (!ev || !gc_orc.in_chain || gc_orc.mode != GC_MODE_EFFECT || gc_oracle_own_event)
        Py_RETURN_NONE;
    if (judge(ev, event, a[1], 1) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef tail_def = {"gatecrash_effect_oracle", (PyCFunction)(void (*)(void))tail_hook,
                               METH_FASTCALL, "gatecrash's effect oracle (last audit hook)"};

int gc_oracle_add_tail_hook(char *err, size_t errlen)
{
    if (tail_installed)
        return 0;
    PyObject *fn = PyCFunction_New(&tail_def, NULL);
    PyObject *sys = PyImport_ImportModule("sys");
    PyObject *r = fn && sys ? PyObject_CallMethod(sys, "addaudithook", "O", fn) : NULL;
    Py_XDECREF(fn);
    Py_XDECREF(sys);
    if (!r) {
        PyErr_Clear();
        snprintf(err, errlen, "could not append the effect oracle's audit hook");
        return -1;
    }
    Py_DECREF(r);
    tail_installed = 1;
    return 0;
}

int gc_oracle_selftest(char *err, size_t errlen)
{
    /* 1. a known reach is caught */
    PyObject *os = PyImport_ImportModule("os");
    PyObject *sysfn = os ? PyObject_GetAttrString(os, "system") : NULL;
    PyObject *rm = os ? PyObject_GetAttrString(os, "remove") : NULL;
    const gc_prim *p1 = sysfn ? gc_oracle_lookup(sysfn) : NULL;
    const gc_prim *p2 = rm ? gc_oracle_lookup(rm) : NULL;
    Py_XDECREF(sysfn);
    Py_XDECREF(rm);
    Py_XDECREF(os);
    if (!p1 || p1->spec->cap != GC_CAP_SPAWN || !p2 || p2->spec->cap != GC_CAP_WRITE) {
        PyErr_Clear();
        snprintf(err, errlen, "oracle self-test: the real os.system/os.remove are not recognised");
        return -1;
    }
    /* 2. a refusal stub (compiled in isolation) is not a primitive */
    PyObject *g = PyDict_New();
    PyObject *r = g ? PyRun_String("def refuse(*a):\n    raise PermissionError('refused')\n",
                                   Py_file_input, g, g) : NULL;
    PyObject *stub = g ? PyDict_GetItemString(g, "refuse") : NULL;
    int stub_flagged = !stub || gc_oracle_lookup(stub) != NULL;
    Py_XDECREF(r);
    Py_XDECREF(g);
    if (stub_flagged) {
        PyErr_Clear();
        snprintf(err, errlen, "oracle self-test: a refusal stub is taken for a real primitive");
        return -1;
    }
    /* 3. audit events reach the hook, and a forbidden spawn event is judged and blocked
     * (the event is raised by hand: nothing is spawned) */
    unsigned long before = gc_orc.selftest_events;
    if (PySys_Audit("gatecrash.selftest", NULL) < 0 || gc_orc.selftest_events != before + 1) {
        PyErr_Clear();
        snprintf(err, errlen, "oracle self-test: audit events do not reach the hook");
        return -1;
    }
    gc_policy saved = gc_orc.policy;
    gc_orc.policy.spawn_forbidden = 1;
    gc_oracle_reset_input();
    gc_orc.in_chain = 1;
    /* In effect mode the judging hook is the tail hook: this event (which no gate knows)
     * goes through the gate's hooks to it, proving the tail hook is in place. */
    selftest_spawn = 1;
    int rc = PySys_Audit("gatecrash.selftest.spawn", "(y)", "gatecrash-selftest");
    selftest_spawn = 0;
    gc_orc.in_chain = 0;
    int caught = rc < 0 && gc_orc.escape.set && gc_orc.escape.cap == GC_CAP_SPAWN;
    PyErr_Clear();
    gc_orc.policy = saved;
    gc_oracle_reset_input();
    if (!caught) {
        snprintf(err, errlen, "oracle self-test: a forbidden spawn event was not caught");
        return -1;
    }
    return 0;
}

/* ---- policy ---- */

int gc_policy_from_requires(PyObject *req, gc_policy *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!PyDict_Check(req)) {
        snprintf(err, errlen, "requires must be a JSON object");
        return -1;
    }
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(req, &pos, &k, &v)) {
        const char *key = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
        if (!key) {
            PyErr_Clear();
            snprintf(err, errlen, "requires: keys must be strings");
            goto bad;
        }
        if (strcmp(key, "subprocess") == 0 || strcmp(key, "network") == 0) {
            if (!PyBool_Check(v)) {
                snprintf(err, errlen, "requires.%s must be true or false", key);
                goto bad;
            }
            if (key[0] == 's')
                out->spawn_forbidden = v == Py_False;
            else
                out->network_forbidden = v == Py_False;
        } else if (strcmp(key, "filesystem_writes") == 0) {
            if (!PyList_Check(v)) {
                snprintf(err, errlen, "requires.filesystem_writes must be a list of glob strings");
                goto bad;
            }
            if (PyList_GET_SIZE(v) > GC_MAX_GLOBS) {
                snprintf(err, errlen, "requires.filesystem_writes: more than %d globs", GC_MAX_GLOBS);
                goto bad;
            }
            out->write_restricted = 1;
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(v); i++) {
                PyObject *gobj = PyList_GET_ITEM(v, i);
                const char *gs = PyUnicode_Check(gobj) ? PyUnicode_AsUTF8(gobj) : NULL;
                if (!gs || !gs[0]) {
                    PyErr_Clear();
                    snprintf(err, errlen, "requires.filesystem_writes[%zd] must be a non-empty string", i);
                    goto bad;
                }
                out->globs[out->nglobs++] = strdup(gs);
            }
        } else {
            snprintf(err, errlen, "requires: unknown key '%.60s' (known: subprocess, filesystem_writes, network)", key);
            goto bad;
        }
    }
    return 0;
bad:
    gc_policy_free(out);
    return -1;
}

void gc_policy_free(gc_policy *p)
{
    for (int i = 0; i < p->nglobs; i++)
        free(p->globs[i]);
    p->nglobs = 0;
}

void gc_policy_describe(const gc_policy *p, char *buf, size_t len)
{
    size_t o = (size_t)snprintf(buf, len, "subprocess=%s filesystem_writes=",
                                p->spawn_forbidden ? "false" : "true");
    if (o >= len)
        return;
    if (!p->write_restricted)
        o += (size_t)snprintf(buf + o, len - o, "unrestricted");
    else {
        o += (size_t)snprintf(buf + o, len - o, "[");
        for (int i = 0; i < p->nglobs && o < len; i++)
            o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? "," : "", p->globs[i]);
        if (o < len)
            o += (size_t)snprintf(buf + o, len - o, "]");
    }
    if (o < len)
        snprintf(buf + o, len - o, " network=%s", p->network_forbidden ? "false" : "true");
}

/* From the table's rows, bound or not: a module the host has not imported yet (subprocess)
 * still names what a directed mutator aims for. */
int gc_oracle_target_names(const char **out, int max)
{
    int n = 0;
    for (size_t i = 0; i < gc_prim_table_len && n < max; i++) {
        const gc_prim_spec *p = &gc_prim_table[i];
        if (p->cap == GC_CAP_HARNESS || (p->flags & GC_PRIM_ALL) || !gc_policy_forbids(&gc_orc.policy, p->cap))
            continue;
        const char *dot = strrchr(p->attr, '.');
        const char *s = dot ? dot + 1 : p->attr;
        int dup = 0;
        for (int k = 0; k < n && !dup; k++)
            dup = strcmp(out[k], s) == 0;
        if (!dup)
            out[n++] = s;
    }
    return n;
}

/* The primitive a callable would invoke, looking through method-wrappers' __self__. */
static const gc_prim *callee_prim(PyObject *f)
{
    /* os.abort.__call__.__call__() calls os.abort: through any number of method-wrappers
     * (one level only, before, and a benchmark run ended in abort() after 1.6M inputs) */
    const gc_prim *p = gc_oracle_lookup(f);
    Py_INCREF(f);
    for (int depth = 0; !p && depth < 64 && strcmp(Py_TYPE(f)->tp_name, "method-wrapper") == 0; depth++) {
        PyObject *self = PyObject_GetAttrString(f, "__self__");
        PyErr_Clear();
        if (!self)
            break;
        Py_SETREF(f, self);
        p = gc_oracle_lookup(f);
    }
    Py_DECREF(f);
    return p;
}

/* See oracle.h. */
int gc_oracle_judged_by_event(const gc_prim *p)
{
    return p->spec->cap == GC_CAP_WRITE && !(p->spec->flags & GC_PRIM_UNAUDITED);
}

/* gc_oracle_refuse_call's rule for the primitive p. */
static const char *refuse_prim(const gc_prim *p)
{
    if (p->spec->cap == GC_CAP_HARNESS)
        return p->name;
    int forbidden = gc_policy_forbids(&gc_orc.policy, p->spec->cap);
    if (forbidden && gc_orc.mode == GC_MODE_EFFECT) {
        if (p->spec->flags & GC_PRIM_UNAUDITED) {
            gc_oracle_set_escape(GC_KIND_REACH, p->spec->cap, p->name,
                                 "called; CPython raises no audit event for it");
            return p->name;
        }
        return NULL; /* audited: the gate's hooks refuse first, then the oracle judges */
    }
    if (p->spec->cap == GC_CAP_SPAWN || p->spec->cap == GC_CAP_NETWORK)
        return p->name; /* allowed by policy, still never run */
    if (gc_oracle_judged_by_event(p))
        return NULL; /* writes: the audit hook judges their arguments, confines them to scratch */
    return p->name; /* unaudited */
}

/* See oracle.h. */
const char *gc_oracle_guard_prim(const gc_prim *p, const char *detail)
{
    if (gc_orc.mode == GC_MODE_REACH && p->spec->cap != GC_CAP_HARNESS &&
        gc_policy_forbids(&gc_orc.policy, p->spec->cap) && !gc_oracle_judged_by_event(p)) {
        if (!gc_orc.escape.set)
            gc_oracle_set_escape(GC_KIND_REACH, p->spec->cap, p->name, detail);
        block(p->name);
        return p->name;
    }
    if (p->spec->flags & GC_PRIM_SOURCE_RUNS)
        return NULL;
    const char *why = refuse_prim(p);
    if (why) {
        gc_oracle_set_refused(why);
        block(why);
    }
    return why;
}

/* See oracle.h. */
const char *gc_oracle_guard_call(PyObject *f, const char *detail)
{
    const gc_prim *p = callee_prim(f);
    return p ? gc_oracle_guard_prim(p, detail) : NULL;
}

/* See oracle.h. */
const char *gc_oracle_refuse_call(PyObject *f)
{
    const gc_prim *p = callee_prim(f);
    return p ? refuse_prim(p) : NULL;
}
