/* interp.c — see interp.h.  Start-up follows CPython's own fuzz harness
 * (Modules/_xxtestfuzz): a PyConfig built in C, no signal handlers (the engine owns
 * signals), no bytecode writes, no user site. */
#include "interp.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "oracle.h"

static PyObject *sink;    /* open(os.devnull, 'w'): where handler prints go */
static PyObject *orig_std[2]; /* the original sys.__stdout__/__stderr__, kept alive (never closed) */
static PyObject *capture; /* io.StringIO during capture */
static PyObject *start_modules; /* the names in sys.modules once Python started */

static int set_std(PyObject *stream)
{
    if (PySys_SetObject("stdout", stream) < 0 || PySys_SetObject("stderr", stream) < 0)
        return -1;
    /* once the originals are put away, __stdout__/__stderr__ follow the sink */
    if (orig_std[0] && stream == sink &&
        (PySys_SetObject("__stdout__", stream) < 0 || PySys_SetObject("__stderr__", stream) < 0))
        return -1;
    return 0;
}

/* The isolated configuration the harness runs under (then Py_InitializeFromConfig). */
static void base_config(PyConfig *config)
{
    PyConfig_InitIsolatedConfig(config);
    config->install_signal_handlers = 0;
    config->write_bytecode = 0;
    config->user_site_directory = 0;
    config->use_hash_seed = 1;
    config->hash_seed = 0;
    config->parse_argv = 0;
    config->buffered_stdio = 0;
    config->faulthandler = 0;
    config->tracemalloc = 0;
}

/* The interpreter the build chose (CMakeLists.txt: GATECRASH_PYTHON), whatever python3
 * comes first on PATH; its standard library is PREFIX/lib/pythonX.Y, unless one travels
 * beside the binary (BINARY.python/lib/pythonX.Y): OSS-Fuzz's runner image has no system
 * Python (ci/oss-fuzz/build.sh bundles it), and the isolated configuration ignores
 * PYTHONHOME.  0, or -1 with 'err' set. */
#define GC_STDLIB_LANDMARK "/lib/python" GATECRASH_PYTHON_VERSION "/os.py"
static int start_python(char *err, size_t errlen)
{
    PyConfig config;
    base_config(&config);
    PyStatus st = PyConfig_SetBytesString(&config, &config.program_name, GATECRASH_PYTHON);
    char exe[PATH_MAX], home[PATH_MAX + 16], landmark[PATH_MAX + 64];
    int bundled = 0;
    if (gc_exe_path(exe, sizeof exe) == 0) {
        snprintf(home, sizeof home, "%s.python", exe);
        snprintf(landmark, sizeof landmark, "%s" GC_STDLIB_LANDMARK, home);
        bundled = access(landmark, R_OK) == 0;
        if (!PyStatus_Exception(st) && bundled)
            st = PyConfig_SetBytesString(&config, &config.home, home);
    }
    if (!bundled && access(GATECRASH_PYTHON_PREFIX GC_STDLIB_LANDMARK, R_OK) != 0) {
        PyConfig_Clear(&config);
        snprintf(err, errlen, "the CPython %s this build embeds has no standard library at %s/lib/python%s "
                 "(rebuild with -DGATECRASH_PYTHON=/path/to/python3.X)", GATECRASH_PYTHON_VERSION,
                 GATECRASH_PYTHON_PREFIX, GATECRASH_PYTHON_VERSION);
        return -1;
    }
    if (!PyStatus_Exception(st))
        st = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(st)) {
        snprintf(err, errlen, "Python failed to start: %s", st.err_msg ? st.err_msg : "unknown error");
        return -1;
    }
    return 0;
}

/* The Blocked exception and the sink that stdout, stderr and sys.__stdout__/__stderr__
 * write to: those two write to the harness's own fds 1 and 2, where a chain could print
 * lines that look like the harness's verdicts.  0 or -1. */
static int set_streams(void)
{
    gc_orc.blocked_exc = PyErr_NewException("gatecrash.Blocked", PyExc_PermissionError, NULL);
    PyObject *io = PyImport_ImportModule("io");
    sink = io ? PyObject_CallMethod(io, "open", "ssiss", "/dev/null", "w", -1, "utf-8", "replace") : NULL;
    Py_XDECREF(io);
    if (!gc_orc.blocked_exc || !sink || set_std(sink) < 0) {
        PyErr_Clear();
        return -1;
    }
    static const char *orig_names[2] = {"__stdout__", "__stderr__"};
    for (int i = 0; i < 2; i++) {
        orig_std[i] = PySys_GetObject(orig_names[i]);
        Py_XINCREF(orig_std[i]);
        if (PySys_SetObject(orig_names[i], sink) < 0) {
            PyErr_Clear();
            return -1;
        }
    }
    return 0;
}

/* The folder the host's tempfile would pick (its candidates: $TMPDIR, $TEMP, $TMP, /tmp,
 * /var/tmp, /usr/tmp, the first writable folder), into out[len]; "/tmp" when none is. */
static void host_tempdir(char *out, size_t len)
{
    static const char *envs[] = {"TMPDIR", "TEMP", "TMP"}, *dirs[] = {"/tmp", "/var/tmp", "/usr/tmp"};
    const char *pick = NULL;
    for (size_t i = 0; i < 6 && !pick; i++) {
        const char *d = i < 3 ? getenv(envs[i]) : dirs[i - 3];
        struct stat st;
        if (d && d[0] == '/' && stat(d, &st) == 0 && S_ISDIR(st.st_mode) && access(d, W_OK | X_OK) == 0)
            pick = d;
    }
    char real[PATH_MAX];
    snprintf(out, len, "%s", pick && realpath(pick, real) ? real : "/tmp");
}

/* The scratch folder (the process's working folder) and its temporary folder, "tmp", made
 * here: the interpreter's TMPDIR, so tempfile writes where writes may land (Landlock closes
 * the host's /tmp), judged as writes to the host's temporary folder (oracle.h).  0 or -1. */
static int scratch_start(const char *scratch, char *err, size_t errlen)
{
    char real[PATH_MAX];
    if (!realpath(scratch, real) || chdir(real) != 0) {
        snprintf(err, errlen, "scratch folder %s is not usable", scratch);
        return -1;
    }
    snprintf(gc_orc.scratch, sizeof gc_orc.scratch, "%s", real);
    snprintf(gc_orc.tmp, sizeof gc_orc.tmp, "%s/tmp", real);
    if (mkdir(gc_orc.tmp, 0700) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot make %s: %s", gc_orc.tmp, strerror(errno));
        return -1;
    }
    host_tempdir(gc_orc.host_tmp, sizeof gc_orc.host_tmp);
    return 0;
}

/* Python starts with TMPDIR naming the scratch folder's temporary folder (os.environ is read
 * from the process's environment as it starts); the process's own is put back after, so a
 * process the harness starts has the user's TMPDIR.  0 or -1. */
static int start_python_tmp(char *err, size_t errlen)
{
    const char *was = getenv("TMPDIR");
    char *saved = was ? strdup(was) : NULL;
    setenv("TMPDIR", gc_orc.tmp, 1);
    int rc = start_python(err, errlen);
    if (saved)
        setenv("TMPDIR", saved, 1);
    else
        unsetenv("TMPDIR");
    free(saved);
    return rc;
}

int gc_interp_start(const char *scratch, char *err, size_t errlen)
{
    if (scratch_start(scratch, err, errlen) < 0)
        return -1;

    /* Handler code must never block on a terminal: stdin reads see end of file. */
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0) {
        dup2(nul, 0);
        if (nul != 0)
            close(nul);
    }

    if (gc_oracle_register_hook() != 0) {
        snprintf(err, errlen, "could not register the audit hook");
        return -1;
    }

    /* UTF-8 mode: the same encodings whatever the machine's locale.  The locale (LC_CTYPE) is
     * set from the environment as a plain start sets it: left at "C", the start-up imported
     * encodings.ascii, a module a host under a UTF-8 locale has not loaded (a sandbox that
     * hands out loaded modules handed it out here only). */
    PyPreConfig pre;
    PyPreConfig_InitIsolatedConfig(&pre);
    pre.utf8_mode = 1;
    pre.configure_locale = 1;
    PyStatus pst = Py_PreInitialize(&pre);
    if (PyStatus_Exception(pst)) {
        snprintf(err, errlen, "Python failed to pre-initialise: %s", pst.err_msg ? pst.err_msg : "unknown error");
        return -1;
    }
    if (start_python_tmp(err, errlen) < 0)
        return -1;
    if (set_streams() < 0) {
        snprintf(err, errlen, "Python started but its standard streams could not be set up");
        return -1;
    }
    start_modules = PyDict_Keys(PyImport_GetModuleDict());
    if (!start_modules) {
        PyErr_Clear();
        snprintf(err, errlen, "Python started but sys.modules cannot be read");
        return -1;
    }
    return 0;
}

/* Built-in modules a plain interpreter has imported by the time it runs a script (its main
 * sets up signals and exit functions): kept where the harness imported them, the others
 * (gc, faulthandler, and the table's: _csv, select, ... where the libpython has them built
 * in) taken out as extension modules are, for a plain interpreter has not imported them. */
static const char *const plain_start[] = {"_signal", "atexit"};

static int kept_builtin(PyObject *builtin, PyObject *k)
{
    const char *name = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
    for (size_t i = 0; name && i < sizeof plain_start / sizeof plain_start[0]; i++)
        if (strcmp(name, plain_start[i]) == 0)
            return PySequence_Contains(builtin, k) == 1;
    return 0;
}

int gc_interp_world_restore(void)
{
    PyObject *modules = PyImport_GetModuleDict(), *keys = PyDict_Keys(modules);
    PyObject *builtin = PySys_GetObject("builtin_module_names"); /* borrowed */
    int n = 0;
    for (Py_ssize_t i = 0; keys && start_modules && builtin && i < PyList_GET_SIZE(keys); i++) {
        PyObject *k = PyList_GET_ITEM(keys, i);
        if (PySequence_Contains(start_modules, k) == 0 && !kept_builtin(builtin, k) &&
            PyDict_DelItem(modules, k) == 0)
            n++;
    }
    Py_XDECREF(keys);
    PyErr_Clear();
    return n;
}

int gc_interp_reset_sink(void)
{
    /* the harness's own write-open of /dev/null: not a chain's, so the hook stands aside */
    int armed = gc_orc.armed;
    gc_orc.armed = 0;
    PyObject *io = PyImport_ImportModule("io");
    PyObject *fresh = io ? PyObject_CallMethod(io, "open", "ssiss", "/dev/null", "w", -1, "utf-8", "replace") : NULL;
    gc_orc.armed = armed;
    Py_XDECREF(io);
    if (!fresh) {
        PyErr_Clear();
        return -1;
    }
    Py_XSETREF(sink, fresh);
    return set_std(sink);
}

int gc_interp_capture_begin(void)
{
    PyObject *io = PyImport_ImportModule("io");
    Py_XDECREF(capture);
    capture = io ? PyObject_CallMethod(io, "StringIO", NULL) : NULL;
    Py_XDECREF(io);
    if (!capture || set_std(capture) < 0) {
        PyErr_Clear();
        return -1;
    }
    return 0;
}

PyObject *gc_interp_capture_end(void)
{
    PyObject *text = capture ? PyObject_CallMethod(capture, "getvalue", NULL) : NULL;
    if (!text) {
        PyErr_Clear();
        text = PyUnicode_FromString("");
    }
    Py_CLEAR(capture);
    set_std(sink);
    return text;
}

void gc_interp_error_line(char *buf, size_t len)
{
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyErr_NormalizeException(&t, &v, &tb);
    const char *tn = t ? ((PyTypeObject *)t)->tp_name : "error";
    PyObject *s = v ? PyObject_Str(v) : NULL;
    const char *ms = s ? PyUnicode_AsUTF8(s) : NULL;
    if (ms && ms[0])
        snprintf(buf, len, "%s: %s", tn, ms);
    else
        snprintf(buf, len, "%s", tn);
    for (char *p = buf; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    Py_XDECREF(s);
    Py_XDECREF(t);
    Py_XDECREF(v);
    Py_XDECREF(tb);
    PyErr_Clear();
}

PyObject *gc_exception_value(void)
{
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyErr_NormalizeException(&t, &v, &tb);
    if (v && tb)
        PyException_SetTraceback(v, tb);
    Py_XDECREF(t);
    Py_XDECREF(tb);
    if (!v) {
        v = Py_None;
        Py_INCREF(v);
    }
    return v;
}
