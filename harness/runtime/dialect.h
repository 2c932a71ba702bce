/* dialect.h — what a source target's parser accepts.
 *
 * Owns: the dialect bits of target.json's "dialect" (adapter.h reads them) by which the
 * program printer (program.h) writes what the target's parser accepts (its docs and error
 * messages say what it rejects).  No CPython: the printer knows nothing of it. */
#ifndef GATECRASH_DIALECT_H
#define GATECRASH_DIALECT_H

/* What the target's parser accepts (its docs and error messages say what it rejects). */
enum {
    GC_DIALECT_NO_UNDERSCORE = 1u << 0, /* no attribute names starting with '_': such a walk
                                           is printed as getattr(e, '_name') */
    GC_DIALECT_EXPRESSION = 1u << 1     /* one expression (simpleeval): the last statement's
                                           value is printed alone */
};

#endif
