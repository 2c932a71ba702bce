/* pycheck.h — what the C unit tests that run Python share: a session on a target in a
 * scratch folder of their own, and "does this source compile". */
#ifndef GATECRASH_PYCHECK_H
#define GATECRASH_PYCHECK_H

#include <Python.h>
#include <stdlib.h>

#include "session.h"

/* Start the harness on TARGET_DIR in a new /tmp/gatecrash-test-XXXXXX scratch folder (the
 * session moves into it).  The folder's path, or NULL when it or the session cannot be made. */
static inline const char *check_session(gc_target *t, const char *target_dir)
{
    static char scratch[] = "/tmp/gatecrash-test-XXXXXX";
    if (!mkdtemp(scratch))
        return NULL;
    gc_session_opts o = {.target_dir = target_dir, .scratch = scratch, .quiet = 1};
    return gc_session_start(t, &o) == 0 ? scratch : NULL;
}

/* Does 'src' compile as a Python module? */
static inline int check_compiles(const char *src)
{
    PyObject *code = Py_CompileString(src, "<program>", Py_file_input);
    Py_XDECREF(code);
    if (!code)
        PyErr_Clear();
    return code != NULL;
}

#endif
