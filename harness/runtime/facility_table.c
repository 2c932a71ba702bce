/* facility_table.c — THE table of facilities a plain host process offers a sandbox's own code
 * (facility.h), as data: what gives each (oracle_table.c's FAC rows, refused in chains, run
 * in source mode) and how it is put back after every input that ran code (state.c's
 * gc_state_end runs the rows, in this order, after its own checks).  docs/ORACLES.md lists
 * it.  Rows with no check give something with nothing to put back.  Given as well: threads
 * (GC_PRIM_THREAD: those still alive are stopped, state.c) and code strings (GC_PRIM_CODE).
 * What no host process survives stays refused (oracle_table.c's other HX rows).  Every FAC
 * primitive is named in some row's 'given' (tests/test_facility.c). */
#include "facility.h"

#include "backstop.h"

const gc_facility gc_facility_table[] = {
    /* first: a cancelled timer sends no signal to a handler already put back */
    {"alarms and itimers", "signal.alarm, signal.setitimer, signal.getitimer",
     "ITIMER_REAL, ITIMER_VIRTUAL and ITIMER_PROF as at the first input (off, or the fuzzing engine's period); "
     "a timer signal the input left pending is taken, and its handler runs before it is put back",
     GC_DIRTY_SIGNALS, gc_facility_timers_changed, gc_facility_restore_timers,
     "a timer could not be put back"},
    {"signal mask", "signal.pthread_sigmask, signal.sigpending, signal.valid_signals", "the mask as at the first input",
     GC_DIRTY_SIGNALS, gc_state_mask_changed, gc_state_restore_mask, NULL},
    {"signal handlers",
     "signal.signal, signal.getsignal, signal.siginterrupt, signal.default_int_handler, signal.strsignal",
     "Python's handler and the disposition of every standard signal and of the time limit's, as at the first "
     "input (signals that came are handled first)",
     GC_DIRTY_SIGNALS, gc_state_handlers_changed, gc_state_restore_handlers, NULL},
    {"descriptors", "os.pipe, os.pipe2, os.read, os.write, os.close (a pipe and a feeder thread: multiprocessing's "
     "Connection, a REPL's output)",
     "after an input that made a pipe or closed a descriptor: every descriptor the process held at the first input "
     "that it closed or replaced, from a copy made at its first such call; a pipe it made and left open, closed once "
     "the collector freed the input's objects", 0, gc_facility_fds_changed, gc_facility_restore_fds,
     "a descriptor the process held could not be put back"},
    {"atexit functions", "atexit.register (atexit.unregister is never refused)",
     "the interpreter's list as at the first input: what an input added freed, what it removed made again",
     0, gc_facility_atexit_changed, gc_facility_restore_atexit, "the atexit functions could not be put back"},
    {"at-fork functions", "os.register_at_fork (random's, imported by tempfile and multiprocessing)",
     "the interpreter's three lists cut back to their length at the first input (never run: nothing forks)", 0,
     gc_facility_forkers_changed, gc_facility_restore_forkers, "the at-fork functions could not be put back"},
    {"asynchronous generator hooks", "sys.set_asyncgen_hooks (asyncio.run sets and resets them)",
     "the hooks of the thread that runs inputs as at the first input", 0, gc_facility_asyncgen_changed,
     gc_facility_restore_asyncgen, NULL},
    {"running event loop", "asyncio.run, loop.run_until_complete, run_forever (no primitive: nothing refused)",
     "no loop running on the thread that runs inputs (_asyncio._set_running_loop(None))", 0,
     gc_facility_loop_changed, gc_facility_restore_loop, "the running event loop could not be cleared"},
    /* given with nothing to put back */
    {"SystemExit", "sys.exit", "nothing: it raises SystemExit, which evaluate gives back like any exception", 0,
     NULL, NULL, NULL},
    {"waits", "select.select, select.poll, select.epoll (asyncio's selector)",
     "nothing: an object whose descriptor closes with it", 0, NULL, NULL, NULL},
};

const size_t gc_facility_table_len = sizeof gc_facility_table / sizeof gc_facility_table[0];
