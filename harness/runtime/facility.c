/* facility.c — see facility.h.  The snapshot (at the first input, with state.c's signal
 * snapshot) and the repair of the facilities state.c does not keep itself.
 *
 * The atexit functions live in the interpreter's own list (struct atexit_state, internal:
 * Py_BUILD_CORE, internal/pycore_interp.h; its entries' type is atexit_callback in 3.11 and
 * atexit_py_callback from 3.12, the same three fields).  The atexit module can count them
 * but not list them, nor remove one without removing every registration of its function:
 * the list is put back by its entries, those an input added freed as atexit.unregister
 * frees them (CPython's atexit_delete_cb), one it removed made again from the snapshot's
 * copy (the snapshot holds a reference to each of its functions and arguments). */
#define Py_BUILD_CORE 1
#include "facility.h"

#include <Python.h>
#include <internal/pycore_interp.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* ---- alarms and itimers ---- */

/* Each timer's period at the snapshot: 0 (off: the plain gatecrash command), or the fuzzing
 * engine's (libFuzzer's -timeout is a periodic ITIMER_REAL).  A one-shot timer running then
 * is not put back. */
static const int timer_which[] = {ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF};
#define NTIMERS (sizeof timer_which / sizeof timer_which[0])
static struct timeval saved_period[NTIMERS];

static int timer_differs(size_t i)
{
    struct itimerval now;
    if (getitimer(timer_which[i], &now) != 0)
        return 0;
    const struct timeval *p = &saved_period[i];
    int want_on = p->tv_sec || p->tv_usec, on = now.it_value.tv_sec || now.it_value.tv_usec;
    return on != want_on || now.it_interval.tv_sec != p->tv_sec || now.it_interval.tv_usec != p->tv_usec;
}

int gc_facility_timers_changed(void)
{
    for (size_t i = 0; i < NTIMERS; i++)
        if (timer_differs(i))
            return 1;
    return 0;
}

/* Each changed timer cancelled (or the engine's period restarted); a timer signal left
 * pending while the input blocked it is taken, and the handlers of the signals that came
 * while the input ran are run now, the input's own still in place (state.c puts those back
 * next): none reaches the next input, nor a default action that would end the process. */
int gc_facility_restore_timers(void)
{
    int repairs = 0;
    for (size_t i = 0; i < NTIMERS; i++)
        if (timer_differs(i)) {
            struct itimerval t = {saved_period[i], saved_period[i]};
            if (setitimer(timer_which[i], &t, NULL) != 0)
                return -1;
            repairs++;
        }
    sigset_t timer_sigs;
    sigemptyset(&timer_sigs);
    sigaddset(&timer_sigs, SIGALRM);
    sigaddset(&timer_sigs, SIGVTALRM);
    sigaddset(&timer_sigs, SIGPROF);
    struct timespec zero = {0, 0};
    while (sigtimedwait(&timer_sigs, NULL, &zero) > 0)
        ;
    if (PyErr_CheckSignals() < 0)
        PyErr_Clear();
    return repairs;
}

/* ---- atexit functions ---- */

#if PY_VERSION_HEX >= 0x030c0000
typedef atexit_py_callback gc_atexit_cb;
#else
typedef atexit_callback gc_atexit_cb;
#endif

static gc_atexit_cb *saved_cb;   /* copies of the snapshot's entries (strong references) */
static gc_atexit_cb **saved_at;  /* where each lived (NULL: a hole unregister left) */
static int saved_n;

static struct atexit_state *atexit_list(void) { return &PyInterpreterState_Get()->atexit; }

static int snapshot_atexit(void)
{
    struct atexit_state *st = atexit_list();
    saved_n = st->ncallbacks;
    saved_cb = PyMem_RawCalloc((size_t)saved_n + 1, sizeof *saved_cb);
    saved_at = PyMem_RawCalloc((size_t)saved_n + 1, sizeof *saved_at);
    if (!saved_cb || !saved_at)
        return -1;
    for (int i = 0; i < saved_n; i++) {
        gc_atexit_cb *cb = st->callbacks[i];
        saved_at[i] = cb;
        if (!cb)
            continue;
        saved_cb[i] = *cb;
        Py_XINCREF(cb->func);
        Py_XINCREF(cb->args);
        Py_XINCREF(cb->kwargs);
    }
    return 0;
}

int gc_facility_atexit_changed(void)
{
    struct atexit_state *st = atexit_list();
    if (!saved_cb) /* no snapshot (out of memory): left as it is */
        return 0;
    if (st->ncallbacks != saved_n)
        return 1;
    for (int i = 0; i < saved_n; i++)
        if (st->callbacks[i] != saved_at[i])
            return 1;
    return 0;
}

static void free_entry(gc_atexit_cb *cb)
{
    if (!cb)
        return;
    Py_XDECREF(cb->func);
    Py_XDECREF(cb->args);
    Py_XDECREF(cb->kwargs);
    PyMem_Free(cb);
}

int gc_facility_restore_atexit(void)
{
    struct atexit_state *st = atexit_list();
    if (st->callback_len < saved_n)
        return -1;
    int repairs = 0;
    for (int i = saved_n; i < st->ncallbacks; i++) {
        gc_atexit_cb *cb = st->callbacks[i];
        st->callbacks[i] = NULL;
        free_entry(cb);
        repairs++;
    }
    st->ncallbacks = saved_n;
    for (int i = 0; i < saved_n; i++) {
        if (st->callbacks[i] == saved_at[i])
            continue;
        gc_atexit_cb *cur = st->callbacks[i], *cb = NULL;
        if (saved_at[i]) {
            cb = PyMem_Malloc(sizeof *cb);
            if (!cb)
                return -1;
            *cb = saved_cb[i];
            Py_XINCREF(cb->func);
            Py_XINCREF(cb->args);
            Py_XINCREF(cb->kwargs);
        }
        st->callbacks[i] = cb;
        saved_at[i] = cb;
        free_entry(cur);
        repairs++;
    }
    return repairs;
}

/* ---- at-fork functions (random, imported by tempfile, multiprocessing and others, adds one) ---- */

/* The interpreter's three lists (NULL until the first registration): never run, since no
 * process is forked here (os.fork and fork_exec are refused or stopped), so what an input
 * adds is only cut off again. */
static Py_ssize_t saved_forkers[3];

static PyObject **forkers(int i)
{
    PyInterpreterState *in = PyInterpreterState_Get();
    return i == 0 ? &in->before_forkers : i == 1 ? &in->after_forkers_parent : &in->after_forkers_child;
}

static Py_ssize_t forkers_len(int i)
{
    PyObject *l = *forkers(i);
    return l && PyList_Check(l) ? PyList_GET_SIZE(l) : 0;
}

int gc_facility_forkers_changed(void)
{
    for (int i = 0; i < 3; i++)
        if (forkers_len(i) != saved_forkers[i])
            return 1;
    return 0;
}

int gc_facility_restore_forkers(void)
{
    int repairs = 0;
    for (int i = 0; i < 3; i++) {
        Py_ssize_t n = forkers_len(i);
        if (n > saved_forkers[i]) {
            if (PyList_SetSlice(*forkers(i), saved_forkers[i], n, NULL) < 0)
                return -1;
            repairs++;
        } else if (n < saved_forkers[i]) {
            return -1; /* removed: os.register_at_fork has no way to; only C code could */
        }
    }
    return repairs;
}

/* ---- asynchronous generator hooks (asyncio.run sets them, an interrupted run leaves them) ---- */

static PyThreadState *input_ts; /* the thread that runs inputs (the hooks are per thread) */
static PyObject *saved_firstiter, *saved_finalizer; /* strong */

int gc_facility_asyncgen_changed(void)
{
    return input_ts && (input_ts->async_gen_firstiter != saved_firstiter ||
                        input_ts->async_gen_finalizer != saved_finalizer);
}

int gc_facility_restore_asyncgen(void)
{
    Py_XINCREF(saved_firstiter);
    Py_XSETREF(input_ts->async_gen_firstiter, saved_firstiter);
    Py_XINCREF(saved_finalizer);
    Py_XSETREF(input_ts->async_gen_finalizer, saved_finalizer);
    return 1;
}

/* ---- the running event loop (_asyncio's, per thread) ---- */

/* _asyncio's function 'name', when an input or the sandbox has loaded it (never imported
 * here: that would change what a class walk reaches). */
static PyObject *asyncio_fn(const char *name)
{
    PyObject *mname = PyUnicode_FromString("_asyncio");
    PyObject *m = mname ? PyImport_GetModule(mname) : NULL;
    PyObject *f = m ? PyObject_GetAttrString(m, name) : NULL;
    Py_XDECREF(m);
    Py_XDECREF(mname);
    PyErr_Clear();
    return f;
}

int gc_facility_loop_changed(void)
{
    PyObject *get = asyncio_fn("_get_running_loop");
    PyObject *loop = get ? PyObject_CallNoArgs(get) : NULL;
    int running = loop && loop != Py_None;
    Py_XDECREF(loop);
    Py_XDECREF(get);
    PyErr_Clear();
    return running;
}

int gc_facility_restore_loop(void)
{
    PyObject *set = asyncio_fn("_set_running_loop");
    PyObject *r = set ? PyObject_CallOneArg(set, Py_None) : NULL;
    Py_XDECREF(set);
    int ok = r != NULL;
    Py_XDECREF(r);
    PyErr_Clear();
    return ok ? 1 : -1;
}

/* ---- descriptors (os.pipe, read, write, close: a pipe and a feeder thread in the process) ---- */

/* The descriptors (3 and up; 0-2 are state.c's) the process held at the first input, and,
 * at an input's first os.pipe, os.pipe2 or os.close, every one open then, with a copy of
 * each the process held at the first input.  After that input: one of those it closed or
 * replaced is put back from its copy, and a pipe it made and left open is closed, once the
 * collector has freed what the input's objects held (a multiprocessing Connection closes
 * its own; a raw os.pipe number has no owner to close it). */
typedef struct {
    int fd, copy, fdflags;
    dev_t dev;
    ino_t ino;
} held_fd;
#define MAX_HELD 512
static held_fd first_fds[MAX_HELD], input_fds[MAX_HELD];
static int nfirst, ninput, watching_fds;

static int same_file(int fd, const held_fd *h)
{
    struct stat st;
    return fstat(fd, &st) == 0 && st.st_dev == h->dev && st.st_ino == h->ino;
}

static int list_fds(held_fd *out, int max)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while (n < max && (e = readdir(d))) {
        struct stat st;
        int fd = atoi(e->d_name);
        if (fd < 3 || fd == dirfd(d) || fstat(fd, &st) != 0)
            continue;
        out[n++] = (held_fd){fd, -1, 0, st.st_dev, st.st_ino};
    }
    closedir(d);
    return n;
}

static int held_at_first(const held_fd *h)
{
    for (int i = 0; i < nfirst; i++)
        if (first_fds[i].fd == h->fd && first_fds[i].dev == h->dev && first_fds[i].ino == h->ino)
            return 1;
    return 0;
}

/* The seccomp backstop's listener (backstop.c) is never copied: a copy would keep it open
 * with no reader once the input closed the supervisor's number, and every watched call would
 * then wait for an answer for good; closed, the kernel fails those calls (ENOSYS: a spawn
 * still does not run), and the row reports it could not be put back (exit 4). */
static int is_listener(int fd)
{
    char path[64], link[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, link, sizeof link - 1);
    link[n > 0 ? n : 0] = '\0';
    return strstr(link, "seccomp") != NULL;
}

/* Copies go high (half the descriptor limit up): a program closing what it listed before
 * its first os.close does not meet them. */
static int copy_high(int fd)
{
    struct rlimit lim;
    int low = getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY ? (int)(lim.rlim_cur / 2) : 512;
    int c = fcntl(fd, F_DUPFD_CLOEXEC, low > 3 ? low : 3);
    return c >= 0 ? c : fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

void gc_facility_before_call(const char *name)
{
    if (watching_fds || (strcmp(name, "os.close") != 0 && strncmp(name, "os.pipe", 7) != 0))
        return;
    watching_fds = 1;
    ninput = list_fds(input_fds, MAX_HELD);
    for (int i = 0; i < ninput; i++)
        if (held_at_first(&input_fds[i])) {
            input_fds[i].fdflags = fcntl(input_fds[i].fd, F_GETFD);
            input_fds[i].copy = is_listener(input_fds[i].fd) ? -2 : copy_high(input_fds[i].fd);
        }
}

int gc_facility_fds_changed(void) { return watching_fds; }

/* A pipe open now that was not open at the input's first descriptor call. */
static int new_pipes(held_fd *now, int n, int *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        int known = 0;
        for (int j = 0; j < ninput && !known; j++)
            known = input_fds[j].fd == now[i].fd && input_fds[j].dev == now[i].dev && input_fds[j].ino == now[i].ino;
        if (!known && fstat(now[i].fd, &st) == 0 && S_ISFIFO(st.st_mode))
            out[k++] = now[i].fd;
    }
    return k;
}

int gc_facility_restore_fds(void)
{
    int repairs = 0, failed = 0;
    for (int i = 0; i < ninput; i++) {
        held_fd *h = &input_fds[i];
        if (h->copy == -1)
            continue; /* not held at the first input */
        if (!same_file(h->fd, h)) {
            failed |= h->copy < 0 || dup2(h->copy, h->fd) < 0 || fcntl(h->fd, F_SETFD, h->fdflags) < 0;
            repairs++;
        }
        if (h->copy >= 0)
            close(h->copy);
    }
    static held_fd now[MAX_HELD];
    static int left[MAX_HELD];
    int n = list_fds(now, MAX_HELD), k = new_pipes(now, n, left);
    if (k > 0) { /* what the input's objects held, freed first: they close their own */
        PyGC_Collect();
        n = list_fds(now, MAX_HELD);
        k = new_pipes(now, n, left);
    }
    for (int i = 0; i < k; i++)
        close(left[i]);
    repairs += k;
    watching_fds = 0;
    ninput = 0;
    return failed ? -1 : repairs;
}

/* ---- the snapshot ---- */

int gc_facility_snapshot(void)
{
    for (size_t i = 0; i < NTIMERS; i++) {
        struct itimerval t;
        memset(&saved_period[i], 0, sizeof saved_period[i]);
        if (getitimer(timer_which[i], &t) == 0)
            saved_period[i] = t.it_interval;
    }
    for (int i = 0; i < 3; i++)
        saved_forkers[i] = forkers_len(i);
    nfirst = list_fds(first_fds, MAX_HELD);
    input_ts = PyThreadState_Get();
    Py_XSETREF(saved_firstiter, Py_XNewRef(input_ts->async_gen_firstiter));
    Py_XSETREF(saved_finalizer, Py_XNewRef(input_ts->async_gen_finalizer));
    if (saved_cb) /* taken again (gc_state_signals_anew): the atexit list's copy is kept */
        return 0;
    return snapshot_atexit();
}
