/* test_weakness.c — the weakness behind a source program's hole (triage/weakness.c): each
 * technique of the table named from the program's syntax tree, with the root its walk
 * starts from (a name the program assigned followed to what it was assigned from); a format
 * walk read back through an exception is told from one given back; text that does not parse
 * names none. */
#include <Python.h>
#include <string.h>

#include "check.h"
#include "weakness.h"

/* 'src' is weakness 'want' from root 'root'. */
static void expect(const char *src, const char *want, const char *root)
{
    char name[160], check[400], r[128];
    int rc = gc_weakness_of_program(src, name, sizeof name, check, sizeof check, r, sizeof r);
    CHECK(rc == 0 && strcmp(name, want) == 0, "%s: weakness '%s' (rc %d), want '%s'", src, name, rc, want);
    CHECK(strcmp(r, root) == 0, "%s: root '%s', want '%s'", src, r, root);
    CHECK(check[0], "%s: no check named", src);
}

int main(void)
{
    Py_InitializeEx(0);
    expect("try:\n    '{0.sub.__globals__[x].y}'.format(re)\nexcept AttributeError as e:\n    b = e.obj\nresult = b\n",
           "format walk, read back through an exception", "re");
    expect("try:\n    ('{0.a' + '.b}').format(uuid)\nexcept Exception as e:\n    result = e.__context__\n",
           "format walk, read back through an exception", "uuid");
    expect("result = '{k.__globals__}'.format_map({'k': json.dumps})", "format walk", "json");
    expect("result = string.Formatter().get_field('0.__builtins__', [heapq], None)[0]", "format walk", "heapq");
    expect("g = (x for x in [1])\nresult = g.gi_frame.f_back.f_globals", "frame walk", "g");
    expect("result = config.__class__.__mro__[1].__subclasses__()", "class walk", "config");
    expect("result = getattr(bisect.insort, '__globals__')", "function's globals", "bisect");
    expect("result = getattr(m, 'sy' + 's')", "resolver handed out", "m");
    expect("result = path.os.system", "handed out directly", "path");
    expect("path.os.system", "handed out directly", "path");
    /* a name the program assigned: what it was assigned from */
    expect("s = run.__self__\nresult = s.execv", "handed out directly", "run");
    expect("m = re\ntry:\n    '{0.a.b}'.format(m)\nexcept AttributeError as e:\n    result = e.obj\n",
           "format walk, read back through an exception", "re");
    expect("x = x.a\nresult = x.__globals__", "function's globals", "x");
    char name[160], check[400], r[128];
    CHECK(gc_weakness_of_program("result = (", name, sizeof name, check, sizeof check, r, sizeof r) == -1 && !name[0],
          "text that does not parse: '%s'", name);
    Py_FinalizeEx();
    return check_summary();
}
