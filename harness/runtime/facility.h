/* facility.h — what a plain host process offers a sandbox's own code, given to it in source
 * mode and put back after every input.
 *
 * Owns: the facility table (facility_table.c): for each facility, the primitives that give
 * it (oracle_table.c's GC_PRIM_FACILITY rows: refused in chains, run in source mode), how
 * it is put back, and the check and repair state.c's gc_state_end runs after every input
 * that ran code; the snapshot and repair of the facilities state.c does not keep itself
 * (facility.c: alarms and itimers, descriptors, atexit functions, at-fork functions,
 * asynchronous generator hooks, the running event loop).  A sandbox's SIGALRM timeout, the
 * atexit function it registers per execution, the asyncio.run it evaluates with, its pipe
 * and feeder thread, all run as in a plain host; an input leaves none of it behind.  What no
 * host process survives stays refused with its name (os._exit, os.abort, os.fork without
 * exec, signals sent to the process, dup2: oracle_table.c's other HX rows). */
#ifndef GATECRASH_FACILITY_H
#define GATECRASH_FACILITY_H

#include <stddef.h>

typedef struct {
    const char *name;     /* the repair's note ("alarms and itimers") */
    const char *given;    /* the primitives that give it, as oracle_table.c names them */
    const char *put_back; /* how an input's change is undone (docs/ORACLES.md says the same) */
    unsigned needs;       /* the backstop's dirty bits without which it cannot have changed (0: always) */
    int (*changed)(void); /* NULL: nothing to put back */
    int (*repair)(void);  /* repairs made, or -1 */
    const char *failed;   /* the note when the repair fails */
} gc_facility;

/* In the order they are put back (a timer before the handler its signal would reach). */
extern const gc_facility gc_facility_table[];
extern const size_t gc_facility_table_len;

/* The table's rows' functions.  state.c keeps the signal snapshot (gc_state_begin takes it
 * at the first input) and implements the first two; facility.c the rest. */
int gc_state_handlers_changed(void);
int gc_state_restore_handlers(void);
int gc_state_mask_changed(void);
int gc_state_restore_mask(void);
int gc_facility_timers_changed(void);
int gc_facility_restore_timers(void);
int gc_facility_fds_changed(void);
int gc_facility_restore_fds(void);
int gc_facility_atexit_changed(void);
int gc_facility_restore_atexit(void);
int gc_facility_forkers_changed(void);
int gc_facility_restore_forkers(void);
int gc_facility_asyncgen_changed(void);
int gc_facility_restore_asyncgen(void);
int gc_facility_loop_changed(void);
int gc_facility_restore_loop(void);

/* Before a facility primitive named 'name' runs inside an evaluation (source.c's judge):
 * the input's first os.pipe, os.pipe2 or os.close lists the descriptors open then and copies
 * those the process held at the first input, for the descriptors row. */
void gc_facility_before_call(const char *name);

/* At the first input (with the signal snapshot: after the fuzzing engine set its own timer):
 * what facility.c puts back.  0, or -1 when it could not be read. */
int gc_facility_snapshot(void);

#endif
