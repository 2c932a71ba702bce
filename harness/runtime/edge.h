/* edge.h — the kinds of step both modes take from one object to the next.
 *
 * Owns: the step kinds a sweep's hole rule is told of (gc_sweep_opts.hole, verdict.h): an
 * attribute, a str or int item, a call, a dir() name.  Chain mode's trailer kinds
 * (chain.h) are these values and more; source mode's sweep prints each as its dialect
 * writes it.  No CPython. */
#ifndef GATECRASH_EDGE_H
#define GATECRASH_EDGE_H

enum {
    GC_EDGE_ATTR,     /* .name */
    GC_EDGE_ITEM_STR, /* ['key'] */
    GC_EDGE_ITEM_INT, /* [3] */
    GC_EDGE_CALL,     /* (args) */
    GC_EDGE_DIR,      /* a dir() name, .#k in a chain */
};

#endif
