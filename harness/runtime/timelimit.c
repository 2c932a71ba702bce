/* timelimit.c — the per-input limits: time and memory.
 *
 * Time: a watchdog thread that, when an input runs past its limit, sends the main thread a
 * real-time signal whose Python-level handler is a C function raising gatecrash.Timeout.
 * Arming and disarming only store a deadline (no syscall: a POSIX timer set and cleared
 * around every input cost two timer_settime calls, ~4% of an input's time); the thread
 * wakes at least every 100 ms, reads the deadline, and sleeps until it.  A signal that
 * arrives after its input ended, or before the current input's deadline (the thread read
 * an older one), is ignored.
 * CPython runs that handler at the next bytecode boundary and also when a blocking call
 * (poll, select, wait, sleep, read) is interrupted by the signal (PEP 475 retries only after
 * checking signals), so both a `while True` in Python and a blocked syscall end.  The signal
 * repeats every 100 ms past the limit, so code that swallows the exception gets it again.
 * Signal handlers run on the main thread only: the handler also raises the Timeout, as an
 * asynchronous exception, in every thread the input started (an executor's worker running
 * the program while the main thread waits for its result), each time it runs.
 * The hard limit: when Python has not ended the input 3 s past its limit (a loop in C that
 * never checks signals, or gate code swallowing every Timeout), the tools print one line
 * and exit 4; under libFuzzer its -timeout is the backstop instead (a timeout artifact,
 * which fork mode ignores).  The watchdog thread itself ends the process then: the hard
 * limit needs no signal delivered, no handler, no mask of the input's thread.  The signal
 * and its handler are set from C at start-up.  Chains cannot reach them (every signal.* and
 * _signal.* call is refused there); a sandbox's own code in source mode is given the signal
 * module (facility.h: its SIGALRM timeout runs as in a plain host), so an input that takes
 * this signal or blocks it loses only the soft limit, and state.c puts the handler, the
 * disposition and the mask back after it.
 *
 * Memory: Python's raw allocator (every block pymalloc does not serve, so every large
 * one) and its arena allocator are wrapped.  Blocks of 256 KiB and more are tracked; while
 * an input runs, an allocation that would grow tracked blocks plus arenas past the input's
 * budget fails, which Python turns into MemoryError.  So `'x' * 999999999` is refused at
 * once, without touching a page, and the input is an out-of-memory finding. */
#define _GNU_SOURCE
#include "timelimit.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "oracle.h"

double gc_input_time_limit = 2.0;
volatile int gc_limit_expired;
unsigned long gc_limit_timeouts;
size_t gc_input_memory_limit = (size_t)512 << 20;
volatile int gc_limit_oom;
unsigned long gc_limit_ooms;
unsigned long gc_limit_threads;

const char *volatile gc_limits_hard_what = "the input";
volatile int gc_limits_hard_code = 4;

static int ready, sig_no;
static volatile int armed;
static PyObject *timeout_exc;

/* ---- the watchdog ---- */

#define TICK_NS 100000000ull /* 100 ms: the longest sleep, and the repeat past a deadline */
static _Atomic uint64_t deadline_ns; /* CLOCK_MONOTONIC; 0: no input is timed */
static pid_t main_tid;               /* the thread that runs inputs: where the signal goes */
static int watchdog_running;         /* in this process (a fork has no watchdog: pthread_atfork) */
_Atomic int gc_limit_mark = -1;
static _Atomic int mark_at;          /* gc_limit_mark when the deadline below passed */
static _Atomic uint64_t mark_for;    /* that deadline */
static uint64_t armed_deadline;      /* the current input's (main thread) */
/* The run's stop (gc_limits_stop): a process singleton like the watchdog it rides on.
 * 1: asked now (a signal); else the moment it is due; 0: none. */
static _Atomic uint64_t stop_ns;
static volatile sig_atomic_t stop_sig;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t); /* vDSO: no syscall */
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* Past the current input's deadline?  (A signal sent for an earlier input is not.) */
static int past_deadline(void)
{
    uint64_t d = atomic_load_explicit(&deadline_ns, memory_order_relaxed);
    return d && now_ns() >= d;
}

/* libFuzzer defines this; in its binaries its -timeout is the hard backstop */
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*cb)(const uint8_t *, size_t)) __attribute__((weak));

/* From a signal handler or the watchdog: "gatecrash: error: <gc_limits_hard_what><tail>",
 * then the process ends with code (write and exit_group only: async-signal-safe). */
static void die_from_handler(const char *tail, int code)
{
    static const char head[] = "gatecrash: error: ";
    const char *what = gc_limits_hard_what;
    ssize_t w = write(2, head, sizeof head - 1);
    w = write(2, what, strlen(what));
    w = write(2, tail, strlen(tail));
    (void)w;
    syscall(SYS_exit_group, code);
}

#define HARD_TICKS 31 /* the first signal, then 30 repeats 100 ms apart: 3 s */

/* The hard limit, on the watchdog's thread: past the 31st signal for the same deadline while
 * it is still the current input's (under libFuzzer an input's hang is its -timeout's; start-up
 * has no other backstop). */
static void hard_limit(uint64_t d, int repeats)
{
    if (repeats <= HARD_TICKS || (LLVMFuzzerRunDriver && gc_limits_hard_code == 4) || !armed ||
        atomic_load_explicit(&deadline_ns, memory_order_relaxed) != d)
        return;
    die_from_handler(" ran 3 s past its time limit and Python could not interrupt it "
                     "(a loop in C, or code that swallows gatecrash.Timeout); exiting\n",
                     gc_limits_hard_code);
}

static void *watchdog(void *arg)
{
    (void)arg;
    uint64_t repeats_for = 0;
    int repeats = 0;
    for (;;) {
        uint64_t d = atomic_load_explicit(&deadline_ns, memory_order_relaxed), now = now_ns();
        uint64_t wake = now + TICK_NS;
        if (d && now >= d) {
            if (atomic_load_explicit(&mark_for, memory_order_relaxed) != d) { /* once per deadline */
                atomic_store_explicit(&mark_at, atomic_load_explicit(&gc_limit_mark, memory_order_relaxed),
                                      memory_order_relaxed);
                atomic_store_explicit(&mark_for, d, memory_order_release);
            }
            syscall(SYS_tgkill, getpid(), main_tid, sig_no);
            repeats = repeats_for == d ? repeats + 1 : 1;
            repeats_for = d;
            hard_limit(d, repeats);
        }
        else if (d && d < wake)
            wake = d;
        struct timespec t = {(time_t)(wake / 1000000000ull), (long)(wake % 1000000000ull)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
            ;
    }
    return NULL;
}

static void forked_child(void) { watchdog_running = 0; }

/* Started at the first arm in each process, from the thread that runs inputs; it takes no
 * signal (all blocked) and makes no Python call. */
static int start_watchdog(void)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&at, 64 << 10);
    pthread_t th;
    main_tid = (pid_t)syscall(SYS_gettid);
    int rc = pthread_create(&th, &at, watchdog, NULL);
    pthread_attr_destroy(&at);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc == 0)
        watchdog_running = 1;
    return rc == 0 ? 0 : -1;
}


int (*gc_limits_raise_in_threads)(PyObject *exc);

#define WORKER_GRACE 5 /* signals the thread that runs inputs waits out while the input's threads run */
static int held_signals; /* of this input */

static PyObject *on_timeout(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    if (!armed || !past_deadline())
        Py_RETURN_NONE; /* a late signal after the input ended, or one for an earlier input */
    uint64_t stop = atomic_load_explicit(&stop_ns, memory_order_relaxed);
    if (!gc_limit_expired && !(stop && now_ns() >= stop)) /* a stop of the run is no finding */
        gc_limit_timeouts++;
    gc_limit_expired = 1;
    /* the input's worker threads: at their next bytecode */
    int workers = gc_limits_raise_in_threads ? gc_limits_raise_in_threads(timeout_exc) : 0;
    /* While they run, this thread most likely waits for one (an executor's future.result):
     * it gets the Timeout only after WORKER_GRACE more signals (100 ms apart), so that it
     * comes back from the wait on its own when the worker ends with its Timeout, not with
     * its own landing inside the executor's locking (a Future's condition left held by this
     * thread, and the worker blocked in set_exception for good: docs/RELIABILITY.md). */
    if (workers > 0 && held_signals++ < WORKER_GRACE)
        Py_RETURN_NONE;
    PyErr_SetString(timeout_exc, "gatecrash: the input ran past its time limit");
    return NULL;
}

static PyMethodDef on_timeout_def = {"gatecrash_timeout", on_timeout, METH_VARARGS, "per-input time limit"};

/* ---- the crash handler ---- */

/* ---- a fatal signal (the gatecrash command) ---- */

const char *volatile gc_limits_gate_phase;
const char *volatile gc_limits_crash_label;
volatile int gc_limits_crash_json;
volatile int gc_limits_crash_fd = 1;
volatile int gc_limits_crash_host;

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define GC_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GC_SANITIZED 1
#endif

static int crash_fd = -1; /* faulthandler's dump of the crashing thread (a memfd) */
static void dump_frames_on_crash(void);
static char stdlib_dir[PATH_MAX]; /* the stdlib's folder, with its '/' */

#ifndef GC_SANITIZED
/* The signal's name ("SIGSEGV"). */
static const char *sig_name(int s)
{
    switch (s) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    default: return "a fatal signal";
    }
}

/* Where the crash happened: the top Python frame of faulthandler's dump, as "FILE:LINE in
 * FUNC" with FILE's base name (control bytes, quotes and backslashes dropped), or "" when
 * there is none (C code called straight from the harness).  Async-signal-safe: pread and
 * byte copies. */
static void crash_where(char *where, size_t len)
{
    static char dump[8192];
    where[0] = '\0';
    ssize_t n = crash_fd >= 0 ? pread(crash_fd, dump, sizeof dump - 1, 0) : -1;
    if (n <= 0)
        return;
    dump[n] = '\0';
    char *at = NULL, *p = dump;
    while ((p = strstr(p, "Fatal Python error")) != NULL) /* the last dump: the one of this crash */
        at = p++;
    char *f = at ? strstr(at, "  File \"") : NULL, *first = f;
    while (f && stdlib_dir[0] && strncmp(f + 8, stdlib_dir, strlen(stdlib_dir)) == 0)
        f = strstr(f + 8, "  File \""); /* the stdlib's frames (ctypes, threading) name no place of the target's */
    if (!f && !(f = first))
        return;
    f += 8;
    char *q = strchr(f, '"'), *eol = strchr(f, '\n');
    if (!q || (eol && q > eol))
        return;
    char *base = f;
    for (char *c = f; c < q; c++)
        if (*c == '/')
            base = c + 1;
    size_t o = 0;
    for (char *c = base; o + 1 < len && *c && *c != '\n'; c++) {
        if (c == q) { /* `", line 12 in boom` -> `:12 in boom` */
            c += strlen("\", line ") - 1;
            if (c >= (eol ? eol : dump + n))
                break;
            where[o++] = ':';
            continue;
        }
        if ((unsigned char)*c >= 0x20 && *c != 0x7f && *c != '"' && *c != '\\')
            where[o++] = *c;
    }
    where[o] = '\0';
}

static void put(int fd, const char *s)
{
    ssize_t w = write(fd, s, strlen(s));
    (void)w;
}

/* A fatal signal.  In the target's import or install (gc_limits_gate_phase): one line, exit 3.
 * During an input: the input crashed the target, a finding of its own kind: "LABEL: CRASH
 * SIG at WHERE" on stdout (with --json, also {"crash":SIG,"where":WHERE,"escaped":false}),
 * exit 1.  Outside an input where gc_limits_crash_host is set, the same line and object, marked
 * as the host's read.  Anywhere else the harness itself crashed: one line, exit 4. */
static void crash_tramp(int s)
{
    char where[512];
    crash_where(where, sizeof where);
    const char *phase = gc_limits_gate_phase;
    int host = !phase && !armed && gc_limits_crash_host;
    if (phase || (!armed && !host)) {
        put(2, phase ? "gatecrash: error: the target crashed (" : "gatecrash: error: gatecrash itself crashed (");
        put(2, sig_name(s));
        put(2, phase ? ") while " : " outside the target's code: a harness bug");
        if (phase)
            put(2, phase);
        put(2, where[0] ? ", at " : "");
        put(2, where);
        put(2, phase ? "\n" : ")\n");
        syscall(SYS_exit_group, phase ? 3 : 4);
    }
    const char *label = gc_limits_crash_label;
    int out = gc_limits_crash_fd;
    put(out, label ? label : "gatecrash");
    put(out, ": CRASH ");
    put(out, sig_name(s));
    put(out, where[0] ? " at " : "");
    put(out, where);
    put(out, host ? " (reading the target's values in the host, outside any input)\n"
                  : " (the input crashed the target: a finding, not an escape)\n");
    if (gc_limits_crash_json) {
        put(out, "{\"crash\":\"");
        put(out, sig_name(s));
        put(out, "\",\"where\":\"");
        put(out, where);
        put(out, host ? "\",\"host\":true,\"escaped\":false}\n" : "\",\"escaped\":false}\n");
    }
    syscall(SYS_exit_group, 1);
}
#endif

void gc_limits_catch_crashes(void)
{
#ifndef GC_SANITIZED
    static char altstack[64 << 10]; /* a C stack overflow has no stack left to run the handler on */
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = crash_tramp;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    crash_fd = memfd_create("gatecrash-crash", MFD_CLOEXEC);
    if (ready) /* called after gc_limits_init: faulthandler goes in front of the handler now */
        dump_frames_on_crash();
#endif
}

/* faulthandler, in front of crash_tramp, dumps the crashing thread's Python frames into
 * crash_fd, then hands the signal on: crash_where reads its top frame. */
static void dump_frames_on_crash(void)
{
    if (crash_fd < 0)
        return;
    PyObject *os = PyImport_ImportModule("os");
    PyObject *file = os ? PyObject_GetAttrString(os, "__file__") : NULL;
    const char *path = file && PyUnicode_Check(file) ? PyUnicode_AsUTF8(file) : NULL;
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (slash)
        snprintf(stdlib_dir, sizeof stdlib_dir, "%.*s", (int)(slash + 1 - path), path);
    Py_XDECREF(file);
    Py_XDECREF(os);
    PyErr_Clear();
    PyObject *fh = PyImport_ImportModule("faulthandler");
    PyObject *r = fh ? PyObject_CallMethod(fh, "enable", "ii", crash_fd, 0) : NULL;
    if (!r)
        PyErr_Clear();
    Py_XDECREF(r);
    Py_XDECREF(fh);
}

/* ---- the memory limit ---- */

#define BIG ((size_t)256 << 10)
#define SLOTS 16384 /* power of two */
typedef struct {
    void *p;   /* NULL: empty; TOMB: deleted */
    size_t n;
} big_slot;
#define TOMB ((void *)1)
static big_slot big[SLOTS];
static size_t nbig, ntomb, big_bytes, arena_bytes, budget_base;
static atomic_flag lock = ATOMIC_FLAG_INIT;
static PyMemAllocatorEx raw_orig;
static PyObjectArenaAllocator arena_orig;

static void lk(void) { while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire)) ; }
static void ulk(void) { atomic_flag_clear_explicit(&lock, memory_order_release); }
static size_t slot_of(const void *p) { return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull >> 50 & (SLOTS - 1); }

static void track(void *p, size_t n)
{
    if (nbig + ntomb + 1 > SLOTS * 3 / 4) { /* rebuild without tombstones */
        big_slot *old = malloc(sizeof big);
        if (!old)
            return;
        memcpy(old, big, sizeof big);
        memset(big, 0, sizeof big);
        ntomb = 0;
        size_t live = 0;
        for (size_t i = 0; i < SLOTS; i++)
            if (old[i].p && old[i].p != TOMB) {
                size_t h = slot_of(old[i].p);
                while (big[h].p)
                    h = (h + 1) & (SLOTS - 1);
                big[h] = old[i];
                live++;
            }
        free(old);
        nbig = live;
        if (nbig + 1 > SLOTS * 3 / 4)
            return; /* full: this block goes untracked */
    }
    size_t h = slot_of(p);
    while (big[h].p && big[h].p != TOMB)
        h = (h + 1) & (SLOTS - 1);
    if (big[h].p == TOMB)
        ntomb--;
    big[h].p = p;
    big[h].n = n;
    nbig++;
    big_bytes += n;
}

static size_t untrack(void *p)
{
    if (!p || !nbig)
        return 0;
    for (size_t h = slot_of(p), k = 0; big[h].p && k < SLOTS; h = (h + 1) & (SLOTS - 1), k++)
        if (big[h].p == p) {
            size_t n = big[h].n;
            big[h].p = TOMB;
            nbig--;
            ntomb++;
            big_bytes -= n;
            return n;
        }
    return 0;
}

/* Would 'grow' more bytes exceed the input's budget?  Counts the refusal. */
static int over_budget(size_t grow)
{
    if (!armed || !gc_input_memory_limit)
        return 0;
    size_t now = big_bytes + arena_bytes;
    size_t used = now > budget_base ? now - budget_base : 0;
    if (grow <= gc_input_memory_limit && used <= gc_input_memory_limit - grow)
        return 0;
    if (!gc_limit_oom)
        gc_limit_ooms++;
    gc_limit_oom = 1;
    return 1;
}

static void *raw_malloc(void *ctx, size_t n)
{
    (void)ctx;
    if (n < BIG)
        return raw_orig.malloc(raw_orig.ctx, n);
    lk();
    void *p = over_budget(n) ? NULL : raw_orig.malloc(raw_orig.ctx, n);
    if (p)
        track(p, n);
    ulk();
    return p;
}

static void *raw_calloc(void *ctx, size_t nelem, size_t elsize)
{
    (void)ctx;
    if (elsize && nelem > SIZE_MAX / elsize)
        return NULL;
    size_t n = nelem * elsize;
    if (n < BIG)
        return raw_orig.calloc(raw_orig.ctx, nelem, elsize);
    lk();
    void *p = over_budget(n) ? NULL : raw_orig.calloc(raw_orig.ctx, nelem, elsize);
    if (p)
        track(p, n);
    ulk();
    return p;
}

static void *raw_realloc(void *ctx, void *ptr, size_t n)
{
    (void)ctx;
    if (n < BIG && !nbig)
        return raw_orig.realloc(raw_orig.ctx, ptr, n);
    lk();
    size_t old = untrack(ptr);
    void *q = n >= BIG && over_budget(n > old ? n - old : 0) ? NULL : raw_orig.realloc(raw_orig.ctx, ptr, n);
    if (!q) {
        if (old)
            track(ptr, old);
    } else if (n >= BIG) {
        track(q, n);
    }
    ulk();
    return q;
}

static void raw_free(void *ctx, void *ptr)
{
    (void)ctx;
    if (nbig) {
        lk();
        untrack(ptr);
        ulk();
    }
    raw_orig.free(raw_orig.ctx, ptr);
}

static void *arena_alloc(void *ctx, size_t n)
{
    (void)ctx;
    if (over_budget(n))
        return NULL;
    void *p = arena_orig.alloc(arena_orig.ctx, n);
    if (p)
        arena_bytes += n;
    return p;
}

static void arena_free(void *ctx, void *p, size_t n)
{
    (void)ctx;
    if (p)
        arena_bytes -= n;
    arena_orig.free(arena_orig.ctx, p, n);
}

static void hook_allocators(void)
{
    const char *mb = getenv("GATECRASH_INPUT_MEMORY_MB");
    if (mb && *mb)
        gc_input_memory_limit = (size_t)strtoull(mb, NULL, 10) << 20;
    PyMem_GetAllocator(PYMEM_DOMAIN_RAW, &raw_orig);
    PyMemAllocatorEx raw = {NULL, raw_malloc, raw_calloc, raw_realloc, raw_free};
    PyMem_SetAllocator(PYMEM_DOMAIN_RAW, &raw);
    PyObject_GetArenaAllocator(&arena_orig);
    PyObjectArenaAllocator ar = {NULL, arena_alloc, arena_free};
    PyObject_SetArenaAllocator(&ar);
}

static void print_totals(void)
{
    if (gc_limit_timeouts || gc_limit_ooms || gc_limit_threads)
        fprintf(stderr, "gatecrash: limits: %lu input(s) stopped by the time limit, %lu by the memory limit, %lu "
                "left a thread running (stopped) (findings of their own kind, not escapes)\n", gc_limit_timeouts,
                gc_limit_ooms, gc_limit_threads);
}

int gc_limits_init(char *err, size_t errlen)
{
    if (ready)
        return 0;
    int sig = SIGRTMIN + 1;
    timeout_exc = PyErr_NewException("gatecrash.Timeout", PyExc_BaseException, NULL);
    PyObject *sigmod = PyImport_ImportModule("_signal"); /* built in: signal.py would import enum */
    PyObject *fn = PyCFunction_New(&on_timeout_def, NULL);
    PyObject *r = sigmod && fn && timeout_exc ? PyObject_CallMethod(sigmod, "signal", "iO", sig, fn) : NULL;
    Py_XDECREF(r);
    Py_XDECREF(fn);
    Py_XDECREF(sigmod);
    if (!r) {
        PyErr_Clear();
        snprintf(err, errlen, "could not set up the per-input time limit");
        return -1;
    }
    sig_no = sig;
    pthread_atfork(NULL, NULL, forked_child);
    if (!watchdog_running && start_watchdog() != 0) {
        snprintf(err, errlen, "could not start the per-input time limit's watchdog thread");
        return -1;
    }
    hook_allocators();
    dump_frames_on_crash();
    atexit(print_totals);
    ready = 1;
    return 0;
}

int gc_limits_signal(void) { return sig_no; }

double gc_limits_import_seconds(void)
{
    const char *s = getenv("GATECRASH_IMPORT_TIMEOUT");
    double v = s && *s ? atof(s) : GC_IMPORT_SECONDS;
    return v > 0 ? v : GC_IMPORT_SECONDS;
}

void gc_limits_arm_for(double secs)
{
    gc_limit_expired = 0;
    gc_limit_oom = 0;
    held_signals = 0;
    budget_base = big_bytes + arena_bytes;
    if (!ready)
        return;
    if (secs <= 0) {
        armed_deadline = atomic_load_explicit(&stop_ns, memory_order_relaxed); /* 0: none */
        atomic_store_explicit(&deadline_ns, armed_deadline, memory_order_relaxed);
        armed = 1;
        return;
    }
    if (!watchdog_running) /* the first input after a fork (AFL++'s fork server) */
        start_watchdog();
    armed_deadline = now_ns() + (uint64_t)(secs * 1e9);
    uint64_t stop = atomic_load_explicit(&stop_ns, memory_order_relaxed);
    if (stop && stop < armed_deadline)
        armed_deadline = stop; /* the run stops before this input's own limit */
    atomic_store_explicit(&deadline_ns, armed_deadline, memory_order_relaxed);
    armed = 1;
}

int gc_limit_mark_at_deadline(void)
{
    if (!armed_deadline || atomic_load_explicit(&mark_for, memory_order_acquire) != armed_deadline)
        return -1;
    return atomic_load_explicit(&mark_at, memory_order_relaxed);
}

void gc_limits_arm(void) { gc_limits_arm_for(gc_input_time_limit); }

void gc_limits_disarm(void)
{
    armed = 0;
    atomic_store_explicit(&deadline_ns, 0, memory_order_relaxed);
}

int gc_limits_is_timeout(PyObject *exc) { return exc && timeout_exc && PyErr_GivenExceptionMatches(exc, timeout_exc); }

void gc_limits_stop(int sig)
{
    stop_sig = sig;
    atomic_store_explicit(&stop_ns, 1, memory_order_relaxed); /* lock-free: async-signal-safe */
    if (armed) /* the input running: interrupted as past its limit (the watchdog signals it) */
        atomic_store_explicit(&deadline_ns, 1, memory_order_relaxed);
}

void gc_limits_stop_at(double when)
{
    if (atomic_load_explicit(&stop_ns, memory_order_relaxed) != 1) /* a signal's stop stays */
        atomic_store_explicit(&stop_ns, when > 0 ? (uint64_t)(when * 1e9) : 0, memory_order_relaxed);
}

int gc_limits_stopping(void)
{
    uint64_t s = atomic_load_explicit(&stop_ns, memory_order_relaxed);
    return s && now_ns() >= s;
}

int gc_limits_stop_signal(void) { return stop_sig; }

double gc_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
