/* test_eval.c — the evaluator and the oracles on the real station-1.5.0 gate, in one
 * process: the handler's view of frame-reading builtins, reach escapes, refusals that are
 * not escapes, the harness's own refusals (a missing one would kill this process), and the
 * repair of interpreter state a chain damages. */
#include <Python.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eval.h"
#include "nscache.h"
#include "session.h"
#include "state.h"
#include "check.h"
#include "pycheck.h"
#include "timelimit.h"


static gc_target target;
static gc_chain chain;
static gc_outcome out;
static PyObject *last_value; /* strong ref to the last step's value */

static void keep_last(void *ctx, const gc_step_info *s)
{
    (void)ctx;
    Py_XDECREF(last_value);
    last_value = s->value;
    Py_XINCREF(last_value);
}

/* Evaluate against a namespace we keep, so identities can be compared. */
static PyObject *eval_in(PyObject *ns, const char *text)
{
    gc_parse_error err;
    if (gc_chain_parse((const uint8_t *)text, strlen(text), GC_PARSE_STRICT, &chain, &err) != 0) {
        fprintf(stderr, "bad test chain %s: %s\n", text, err.msg);
        exit(2);
    }
    Py_CLEAR(last_value);
    gc_evaluator ev = {ns, NULL, keep_last, NULL, 0, NULL, 0};
    gc_state_begin();
    gc_eval_chain(&ev, &chain, &out);
    Py_XDECREF(ev.tramp);
    char note[256];
    out.state_repairs = gc_state_end(note, sizeof note);
    snprintf(out.state_note, sizeof out.state_note, "%s", note);
    return last_value;
}

static void run(const char *text)
{
    char err[512];
    gc_parse_error perr;
    if (gc_chain_parse((const uint8_t *)text, strlen(text), GC_PARSE_STRICT, &chain, &perr) != 0) {
        fprintf(stderr, "bad test chain %s: %s\n", text, perr.msg);
        exit(2);
    }
    if (gc_run_input(&target, &chain, &out, NULL, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "run failed: %s\n", err);
        exit(2);
    }
}

static void expect_escape(const char *text, const char *kind, const char *cap, const char *prim)
{
    run(text);
    CHECK(out.escaped, "%s should escape", text);
    if (!out.escaped)
        return;
    CHECK(strcmp(gc_kind_name(out.escape.kind), kind) == 0 && strcmp(gc_cap_name(out.escape.cap), cap) == 0 &&
              strcmp(out.escape.primitive, prim) == 0,
          "%s: got %s %s %s, want %s %s %s", text, gc_kind_name(out.escape.kind), gc_cap_name(out.escape.cap),
          out.escape.primitive, kind, cap, prim);
}

static void expect_refused(const char *text, const char *what)
{
    run(text);
    CHECK(!out.escaped, "%s must not be an escape (%s)", text, out.signature);
    CHECK(strcmp(out.refused, what) == 0, "%s: refused [%s], want [%s]", text, out.refused, what);
}

static void parse_into(gc_chain *c, const char *text)
{
    gc_parse_error perr;
    if (gc_chain_parse((const uint8_t *)text, strlen(text), GC_PARSE_STRICT, c, &perr) != 0) {
        fprintf(stderr, "bad test chain %s: %s\n", text, perr.msg);
        exit(2);
    }
}

static void open_input(void)
{
    static gc_chain more;
    static gc_open_input o;
    char err[256];
    parse_into(&chain, "subprocess.os.sys.path");
    CHECK(gc_input_open(&target, &chain, &out, keep_last, &o, err, sizeof err) == 0 && o.open && o.ev.kept,
          "gc_input_open holds the value: %s", err);
    PyObject *path = PySys_GetObject("path");
    CHECK(o.ev.kept == path, "what it holds is what the chain ends on");
    parse_into(&more, "subprocess.os.sys.path");
    CHECK(gc_input_more(&o, &more, 1, &out, keep_last) == 0 && out.steps == 1 && last_value == path,
          "again: the held value shown as the last step, nothing evaluated (%d steps)", out.steps);
    parse_into(&more, "subprocess.os.sys.path.clear");
    CHECK(gc_input_more(&o, &more, 0, &out, keep_last) == 0 && out.steps == 1 && last_value &&
              PyCFunction_Check(last_value) && PyCFunction_GET_SELF(last_value) == path,
          "an extension runs its one trailer on the held value (%d steps)", out.steps);
    parse_into(&more, "subprocess.os.sys.path.clear()");
    CHECK(gc_input_more(&o, &more, 0, &out, keep_last) == 0 && PyList_GET_SIZE(path) == 0,
          "the extension's call ran: sys.path is empty in the open window");
    parse_into(&more, "subprocess.os.sys.path.clear()(_)");
    CHECK(gc_input_more(&o, &more, 0, &out, keep_last) == -1, "a trailer that takes '_' is not run on the held value");
    CHECK(gc_input_close(&o, err, sizeof err) == 0 && !o.open && !o.ev.kept, "the close lets go: %s", err);
    CHECK(PyList_GET_SIZE(path) > 0, "the close repaired sys.path");
    CHECK(gc_input_more(&o, &more, 1, &out, keep_last) == -1, "nothing to go on from after the close");
    parse_into(&chain, "subprocess.os");
    parse_into(&more, "subprocess.os.system");
    CHECK(gc_input_open(&target, &chain, &out, keep_last, &o, err, sizeof err) == 0 &&
              gc_input_more(&o, &more, 0, &out, keep_last) == 0 && out.escaped &&
              strcmp(out.signature, "reach:spawn:os.system:modattr") == 0 && !o.ev.kept,
          "an escape on the held value is one, with its signature, and is not held (%s)", out.signature);
    gc_input_close(&o, err, sizeof err);
}

/* A call that only reads (type's __subclasses__, or of something not callable) runs no
 * Python frame but the trampoline's: no full state check after it, as after attribute steps
 * alone.  A call of a C function that writes (list.clear) is checked, and repaired. */
static void reader_calls(void)
{
    unsigned long full = gc_state_total_checks(); /* (not 'checks': CHECK counts in that name) */
    run("__builtins__['object'].__subclasses__()");
    CHECK(!out.escaped && out.steps == 4 && gc_state_total_checks() == full,
          "a class walk's call is no code the input ran: %lu full checks after it (%d steps, escaped %d)",
          gc_state_total_checks() - full, out.steps, out.escaped);
    run("subprocess.os.sep()");
    CHECK(gc_state_total_checks() == full, "nor is calling a str (a TypeError)");
    PyObject *path = PySys_GetObject("path");
    run("subprocess.os.sys.path.clear()");
    CHECK(gc_state_total_checks() == full + 1 && PyList_GET_SIZE(path) > 0,
          "list.clear of sys.path is checked (%lu) and repaired", gc_state_total_checks() - full);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_eval TARGET_DIR\n");
        return 2;
    }
    const char *scratch = check_session(&target, argv[1]);
    if (!scratch)
        return 2;

    /* frame-reading builtins see the handler's namespace, never the harness's */
    char err[256];
    PyObject *ns = gc_target_install(&target, err, sizeof err);
    CHECK(ns != NULL, "install: %s", err);
    PyObject *v = eval_in(ns, "__builtins__['globals']()");
    CHECK(v == ns, "__builtins__['globals']() must be the namespace itself");
    v = eval_in(ns, "__builtins__['__import__']('sys')._getframe().f_globals");
    CHECK(v == ns, "sys._getframe().f_globals must be the namespace");
    v = eval_in(ns, "__builtins__['__import__']('sys')._getframe().f_back");
    CHECK(v == Py_None, "the handler frame has no caller: the harness has no Python frames");
    v = eval_in(ns, "__builtins__['locals']()");
    CHECK(v && PyDict_Check(v) && !PyDict_GetItemString(v, "__rc_sandbox_gated__"),
          "locals() is the handler frame's, not the namespace");
    /* the import guard answers with the proxy */
    v = eval_in(ns, "__builtins__['__import__']('os')");
    CHECK(v == PyDict_GetItemString(ns, "os"), "import os in the handler gives the os proxy");
    Py_DECREF(ns);

    /* reach: the advisory's shapes; the chain up to the escape is reported */
    reader_calls();
    expect_escape("subprocess.os.system", "reach", "spawn", "os.system");
    CHECK(strcmp(out.signature, "reach:spawn:os.system:modattr") == 0, "signature %s", out.signature);
    expect_escape("os.sys.modules['os'].remove", "reach", "write", "os.remove");
    CHECK(strcmp(out.signature, "reach:write:os.remove:modattr+sys.modules") == 0, "signature %s", out.signature);
    expect_escape("os.sys.modules['subprocess'].run.__name__", "reach", "spawn", "subprocess.run");
    CHECK(out.esc_trailer == 3, "the escape is at the 4th trailer, not after it (got %d)", out.esc_trailer);
    expect_escape("subprocess._fork_exec", "reach", "spawn", "_posixsubprocess.fork_exec");
    expect_escape("os.getcwd.__self__.system", "reach", "spawn", "os.system");
    CHECK(strstr(out.signature, ":self") != NULL, "a builtin's __self__ is its own bridge: %s", out.signature);
    /* exploration forms resolve to readable names */
    run("subprocess.os.#0");
    {
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_chain_print_oneline(&out.resolved, &sb);
        CHECK(strncmp(sb.data, "subprocess.os.", 14) == 0 && strchr(sb.data, '#') == NULL,
              "resolved exploration: %s", sb.data);
        gc_sb_free(&sb);
    }
    /* '_' continues from the previous statement; folded in the reported chain */
    expect_escape("subprocess.os\n_.system", "reach", "spawn", "os.system");
    {
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_escape_chain_text(&out, &sb);
        CHECK(strcmp(sb.data, "subprocess.os.system") == 0, "folded chain: %s", sb.data);
        gc_sb_free(&sb);
    }

    /* '_' as a call's argument: the previous statement's value.  getattr is in station's
     * builtins, and the proxy's os is the real module: the escape needs that value passed in */
    expect_escape("subprocess.os\n__builtins__['getattr'](_, 'system')", "reach", "spawn", "os.system");
    CHECK(strcmp(out.signature, "reach:spawn:os.system:modattr+builtins+call") == 0,
          "the value passed as '_' brings its bridges: %s", out.signature);
    run("subprocess.os\n__builtins__['getattr'](None, 'system')");
    CHECK(!out.escaped, "getattr(None, 'system') is no escape: '_' is what made it one");
    static const char *const kept[][2] = {
        /* the statement '_' reads is kept, though the escaping one does not start from '_' */
        {"subprocess.os\n__builtins__['getattr'](_, 'system')", "subprocess.os; __builtins__['getattr'](_, 'system')"},
        {"subprocess\n_.os\n__builtins__['getattr'](_, 'system')", "subprocess.os; __builtins__['getattr'](_, 'system')"},
        {"nope\nsubprocess.os\n__builtins__['getattr'](_, 'system')", "subprocess.os; __builtins__['getattr'](_, 'system')"},
        /* not folded: in 'subprocess.os.__class__.__getattribute__(_, ...)' '_' would be None */
        {"subprocess.os\n_.__class__.__getattribute__(_, 'system')", "subprocess.os; _.__class__.__getattribute__(_, 'system')"},
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        expect_escape(kept[i][0], "reach", "spawn", "os.system");
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_escape_chain_text(&out, &sb);
        CHECK(strcmp(sb.data, kept[i][1]) == 0, "reported chain of %s: [%s], want [%s]", kept[i][0], sb.data, kept[i][1]);
        char text[256];
        snprintf(text, sizeof text, "%s", sb.data);
        gc_sb_free(&sb);
        expect_escape(text, "reach", "spawn", "os.system"); /* and it escapes as reported */
    }
    /* [#K] on a subclass list resolves past the class of a stale module copy (the harness's
     * start-up import of enum, taken out of sys.modules before the target made it anew): the
     * live enum.IntEnum is [@IntEnum], the one class of that name a host's list holds, and
     * [@IntEnum] finds it again */
    {
        PyObject *g = PyDict_New();
        PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins());
        PyObject *k = PyRun_String("[i for i, c in enumerate(int.__subclasses__()) "
                                   "if c is __import__('sys').modules['enum'].IntEnum][0]",
                                   Py_eval_input, g, g);
        CHECK(k && PyLong_Check(k), "the live IntEnum's index");
        char text[128];
        snprintf(text, sizeof text, "os.O_APPEND.__class__.__subclasses__()[#%ld]", k ? PyLong_AsLong(k) : 0L);
        Py_XDECREF(k);
        Py_DECREF(g);
        PyErr_Clear();
        run(text);
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_chain_print_oneline(&out.resolved, &sb);
        CHECK(strcmp(sb.data, "os.O_APPEND.__class__.__subclasses__()[@IntEnum]") == 0, "the live IntEnum: [%s]",
              sb.data);
        /* the harness leaves no copy of its own (it imports no pure-Python module before the
         * target), so one IntEnum; a stale copy (a module imported afresh while the old one
         * lives on, as the harness's own imports did) is named as the one a host has */
        g = PyDict_New();
        PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins());
        k = PyRun_String("len([c for c in int.__subclasses__() if c.__name__ == 'IntEnum'])", Py_eval_input, g, g);
        CHECK(k && PyLong_AsLong(k) == 1, "one IntEnum: no stale copy of the harness's");
        Py_XDECREF(k);
        PyObject *made = PyRun_String("import sys\nold = sys.modules.pop('enum')\nimport enum\n", Py_file_input, g, g);
        Py_XDECREF(made);
        k = PyRun_String("[i for i, c in enumerate(int.__subclasses__()) if c.__name__ == 'IntEnum' "
                         "and c is not __import__('sys').modules['enum'].IntEnum][0]", Py_eval_input, g, g);
        CHECK(k && PyLong_Check(k), "a stale IntEnum's index (enum imported afresh, the old one kept)");
        snprintf(text, sizeof text, "os.O_APPEND.__class__.__subclasses__()[#%ld]", k ? PyLong_AsLong(k) : 0L);
        Py_XDECREF(k);
        PyErr_Clear();
        run(text);
        Py_DECREF(g); /* the copy, after its run */
        gc_sb_clear(&sb);
        gc_chain_print_oneline(&out.resolved, &sb);
        CHECK(strcmp(sb.data, "os.O_APPEND.__class__.__subclasses__()[@IntEnum]") == 0, "the stale IntEnum: [%s]",
              sb.data);
        gc_sb_free(&sb);
        char ierr[512];
        PyObject *ins = gc_target_install(&target, ierr, sizeof ierr);
        PyObject *v = ins ? eval_in(ins, "os.O_APPEND.__class__.__subclasses__()[@IntEnum]") : NULL;
        PyObject *live = PyImport_ImportModule("enum");
        PyObject *ie = live ? PyObject_GetAttrString(live, "IntEnum") : NULL;
        CHECK(ie && v == ie, "[@IntEnum] is the live enum.IntEnum");
        Py_XDECREF(ie);
        Py_XDECREF(live);
        Py_XDECREF(ins);
        PyErr_Clear();
    }
    /* a class picked out of a list by position ([-1], [K]) resolves by its name, as [#K]
     * does: its position is this process's (what it imported before), and a plain
     * interpreter's list ends elsewhere; an int subscript of anything else stays */
    {
        const char *cases[][2] = {
            {"os.O_APPEND.__class__.__subclasses__()[-1]", "os.O_APPEND.__class__.__subclasses__()[@"},
            {"os.O_APPEND.__class__.__subclasses__()[0]", "os.O_APPEND.__class__.__subclasses__()[@"},
            {"os.O_APPEND.__class__.__mro__[1]", "os.O_APPEND.__class__.__mro__[1]"},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            run(cases[i][0]);
            gc_strbuf sb;
            gc_sb_init(&sb);
            gc_chain_print_oneline(&out.resolved, &sb);
            CHECK(strncmp(sb.data, cases[i][1], strlen(cases[i][1])) == 0, "%s resolved: [%s], want [%s...]",
                  cases[i][0], sb.data, cases[i][1]);
            gc_sb_free(&sb);
        }
    }
    /* a statement that failed is not kept: '_' after it was None, as a first statement's is,
     * whatever made it fail (a harness refusal's exception is no host's) */
    expect_escape("nope.x\n_.__str__()().__traceback__.tb_frame.f_globals['subprocess'].os.system", "reach", "spawn",
                  "os.system");
    {
        gc_strbuf sb;
        gc_sb_init(&sb);
        gc_escape_chain_text(&out, &sb);
        CHECK(strcmp(sb.data, "_.__str__()().__traceback__.tb_frame.f_globals['subprocess'].os.system") == 0,
              "the failed statement is not kept: [%s]", sb.data);
        gc_sb_free(&sb);
    }
    /* without a statement before it (or after a failed one) '_' is None, as for roots */
    ns = gc_target_install(&target, err, sizeof err);
    CHECK(ns != NULL, "install: %s", err);
    v = eval_in(ns, "os\n__builtins__['id'](_)");
    CHECK(v && PyLong_Check(v) && PyLong_AsVoidPtr(v) == PyDict_GetItemString(ns, "os"), "f(_) gets the previous value");
    v = eval_in(ns, "__builtins__['repr'](_)");
    CHECK(v && PyUnicode_Check(v) && strcmp(PyUnicode_AsUTF8(v), "None") == 0, "'_' of the first statement is None");
    v = eval_in(ns, "nope\n__builtins__['repr'](_)");
    CHECK(v && PyUnicode_Check(v) && strcmp(PyUnicode_AsUTF8(v), "None") == 0 && out.failed_steps == 1,
          "'_' after a failed statement is None");
    Py_DECREF(ns);

    /* a gate refusal is not an escape: the exception is the value, its traceback walkable */
    run("subprocess.run()");
    CHECK(!out.escaped && out.failed_steps == 0, "a refusal stub's exception is a value");
    run("subprocess.run().__traceback__.tb_next.tb_frame.f_globals['_real_os'].system");
    CHECK(out.escaped && strcmp(out.escape.primitive, "os.system") == 0,
          "the refusal's traceback leads to the gate's globals");

    /* the harness refuses what would wreck the fuzzing process (else this test dies) */
    expect_refused("subprocess.os._exit(0)", "os._exit");
    expect_refused("subprocess.os.kill(0, 9)", "os.kill");
    expect_refused("subprocess.os.abort()", "os.abort");
    expect_refused("subprocess.os.abort.__call__()", "os.abort");
    expect_refused("subprocess.os.abort.__call__.__call__.__call__()", "os.abort"); /* a benchmark run died of it */
    expect_refused("subprocess.os.sys.exit(0)", "sys.exit");
    expect_refused("subprocess.os.sys.audit('os.system', 'forged')", "sys.audit");
    expect_refused("subprocess.os.sys.addaudithook", "");
    expect_refused("__builtins__['exec']('1')", "builtins.exec");
    expect_refused("subprocess.os.sys.setrecursionlimit(50)", "sys.setrecursionlimit");
    expect_refused("subprocess.os.close(2)", "os.close");
    expect_refused("subprocess.os.chdir('/')", "os.chdir");

    /* state a chain damages is repaired, and said so */
    Py_ssize_t nmods = PyDict_GET_SIZE(PyImport_GetModuleDict());
    run("subprocess.os.sys.modules.clear()");
    CHECK(out.state_repairs > 0 && strstr(out.state_note, "sys.modules"), "sys.modules repair: %s", out.state_note);
    CHECK(PyDict_GET_SIZE(PyImport_GetModuleDict()) >= nmods, "sys.modules restored");
    expect_refused("subprocess.os.environ.clear()", "os.unsetenv"); /* unsetenv is refused */
    run("subprocess.os.environ._data.clear()");
    CHECK(out.state_repairs > 0 && strstr(out.state_note, "os.environ"), "environ repair: %s", out.state_note);
    run("subprocess.os.sys.path.clear()");
    CHECK(out.state_repairs > 0 && strstr(out.state_note, "sys.path"), "sys.path repair: %s", out.state_note);
    run("subprocess.os.__dict__.pop('getcwd')");
    CHECK(out.state_repairs > 0 && strstr(out.state_note, "os"), "os namespace repair: %s", out.state_note);
    run("subprocess.os.getcwd.__self__");
    CHECK(!out.escaped && out.failed_steps == 0, "os.getcwd is back after the repair");
    run("subprocess.os.path");
    CHECK(out.state_repairs == 0, "an innocent chain changes nothing (%s)", out.state_note);
    /* an open input (the mutator's probes): an extension runs only its new trailer, on the
     * value held; the state check and repair come at the close */
    open_input();

    /* a chain that blocks (a wait with no timeout) is stopped by the per-input time limit */
    gc_input_time_limit = 0.3;
    run("__builtins__['__import__']('threading').Event().wait()");
    CHECK(out.timed_out && !out.escaped, "a blocking wait is stopped, and is no escape");
    run("subprocess.os.system");
    CHECK(out.escaped && !out.timed_out, "the next input runs normally after a timeout");
    /* a chain that breaks the stream the gate prints to does not break later installs */
    run("subprocess.os.sys.stdout.detach()");
    run("subprocess.os.system");
    CHECK(out.escaped, "the next input still installs and escapes after sys.stdout.detach()");

    /* .#K of a class whose metaclass is not type (ABCMeta): dir() is memoised by the class's
     * version tag (eval.c); it must name what dir() names, before and after the class changes */
    PyObject *abcmod = PyImport_ImportModule("collections.abc");
    PyObject *mapping = abcmod ? PyObject_GetAttrString(abcmod, "Mapping") : NULL;
    CHECK(mapping != NULL, "collections.abc.Mapping");
    for (int round = 0; mapping && round < 3; round++) {
        if (round == 1)
            PyObject_SetAttrString(mapping, "AAAA_added", Py_True); /* sorts first */
        if (round == 2)
            PyObject_DelAttrString(mapping, "AAAA_added");
        for (int k = 0; k < 40; k += 13) {
            char text[128];
            snprintf(text, sizeof text, "__builtins__['__import__']('collections').abc.Mapping.#%d", k);
            run(text);
            PyObject *names = PyObject_Dir(mapping);
            const char *want = names && PyList_GET_SIZE(names) ? PyUnicode_AsUTF8(PyList_GET_ITEM(names, k % PyList_GET_SIZE(names))) : "?";
            gc_strbuf sb;
            gc_sb_init(&sb);
            gc_chain_print_oneline(&out.resolved, &sb);
            const char *dot = strrchr(sb.data, '.');
            CHECK(dot && strcmp(dot + 1, want) == 0, "round %d: %s resolved to %s, dir() says %s", round, text, sb.data, want);
            if (round == 1 && k == 0)
                CHECK(strcmp(want, "AAAA_added") == 0, "the added attribute is in dir(): %s", want);
            gc_sb_free(&sb);
            Py_XDECREF(names);
        }
    }
    Py_XDECREF(mapping);
    Py_XDECREF(abcmod);

    /* a namespace kept across inputs (fuzz_gate): a dict an input changes is put back as the
     * install left it (keys removed and added alike), not re-installed */
    gc_nscache_enabled = 1;
    run("subprocess.os.system");
    unsigned long installs = gc_nscache_stats_get()->installs, restores = gc_nscache_stats_get()->restores;
    run("subprocess.__dict__.pop('os')");
    run("subprocess.__dict__.setdefault('zz_added', 1)");
    expect_escape("subprocess.os.system", "reach", "spawn", "os.system");
    run("subprocess.zz_added");
    CHECK(out.failed_steps == 1, "a key an input added to a proxy is gone in the next input");
    CHECK(gc_nscache_stats_get()->installs == installs, "no re-install (%lu, was %lu)", gc_nscache_stats_get()->installs, installs);
    CHECK(gc_nscache_stats_get()->restores >= restores + 2, "the proxy's dict was put back twice (%lu, was %lu)",
          gc_nscache_stats_get()->restores, restores);
    gc_nscache_enabled = 0;

    rmdir(scratch);
    /* what the interpreter still holds is freed, so LeakSanitizer sees only real leaks */
    CHECK(Py_FinalizeEx() == 0, "the interpreter finalizes cleanly");
    return check_summary();
}
