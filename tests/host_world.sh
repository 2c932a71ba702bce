#!/usr/bin/env bash
# A source target runs as its host runs it (docs/SOURCE.md, "The host's world"), and what a
# program holds is judged (docs/ORACLES.md, "What the program holds"):
#   output: an agent executor's adapter that gives back the value of the program's last
#     expression statement only (`executor(code).output`): a primitive the program binds in
#     its namespace is an escape though evaluate gives back None; a namespace() the adapter
#     exports is searched too (an AST interpreter's symbol table, no exec);
#   finder: a sandbox whose sys.meta_path finder refuses `import subprocess`: the harness put
#     no subprocess in sys.modules, so the import is the sandbox's refusal, not an escape;
#   tempwrite: a sandbox that writes each program to a temporary file, the policy allowing
#     /tmp/*: tempfile's folder is the scratch folder, judged as the host's temp folder;
#   mkdirs: Path('a/b').mkdir(parents=True) inside the scratch folder is allowed;
#   venv: sys.path is what VENV/bin/python has (the venv's site-packages before the
#     system's, which are left out when pyvenv.cfg does not include them);
#   slowimport: an adapter import that takes longer than the old 10 s is waited for, with a
#     progress line; --import-timeout S shortens the wait.
source "$(dirname "$0")/lib.sh" "$@"
mk() { mkdir -p "$WORK/$1"; cat >"$WORK/$1/adapter.py"
  printf '{"kind": "source", "adapter": "adapter.py", "refusals": %s, "requires": {"subprocess": false, "filesystem_writes": %s}}\n' \
    "$3" "$2" >"$WORK/$1/target.json"; }
prog() { printf '%b' "$2" >"$WORK/$1.py"; }

# --- output: the value of the last expression statement only ---
mk output '[]' '["Refused"]' <<'PY'
import ast, os
class Refused(Exception):
    pass
def helper(text):  # a tool the agent is given; this module's globals hold os
    return text.strip()
def roots():
    return ["helper"]
def evaluate(source):
    tree = ast.parse(source)
    if any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(tree)):
        raise Refused("imports are not allowed")
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    ns = {"helper": helper}
    exec(compile(tree, "<agent>", "exec"), ns)
    return eval(compile(ast.Expression(last.value), "<agent>", "eval"), ns) if last else None
PY
prog bound 'x = helper.__globals__["os"].system\nresult = None\n'
prog held 'try:\n    "{0.__globals__[os].posix_spawn.zzz}".format(helper)\nexcept AttributeError as e:\n    result = e.obj\n'
prog nested 'kept = [{"k": helper.__globals__["os"].system}]\n'
prog plain 'x = helper.__globals__["os"].getcwd\nresult = 1\n'
for p in bound held nested; do
  expect_exit 1 "output: $p" -- "$GC" replay "$WORK/output" "$WORK/$p.py"
  expect_grep "ESCAPE reach spawn os\.(system|posix_spawn)" "output: $p: the primitive the program holds"
done
expect_fgrep "in the program's namespace, at kept[0]{value 0}" "output: where it was found"
expect_exit 0 "output: a harmless binding" -- "$GC" replay "$WORK/output" "$WORK/plain.py"
# the sweep and the fuzzer find it through this adapter
expect_exit 1 "output: a sweep finds the escape" -- "$GC" sweep --no-confirm "$WORK/output" --depth 3 --by root
expect_grep "^spawn.* function \\. __globals__$" "output: the sweep's hole"
expect_exit 1 "output: a short campaign finds it" -- "$GC" fuzz "$WORK/output" --time 8 --out "$WORK/out-output"

# an AST interpreter (no exec): its symbol table handed over by namespace()
mk symtab '[]' '[]' <<'PY'
import ast, os
table = {}
def namespace():
    return table
def evaluate(source):
    table.clear()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute):
            table[node.targets[0].id] = getattr(os, node.value.attr)
    return None
PY
prog symtab 'x = os.system\n'
expect_exit 1 "symtab: a binding in namespace()" -- "$GC" replay "$WORK/symtab" "$WORK/symtab.py"
expect_grep "ESCAPE reach spawn os\.system" "symtab: the primitive in its table"

# --- finder: the sandbox refuses the import ---
mk finder '[]' '["ImportError"]' <<'PY'
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("subprocess", "pty", "_posixsubprocess"):
            raise ImportError("import of %s refused" % name)
        return None
sys.meta_path.insert(0, Refuse())
def evaluate(source):
    ns = {}
    exec(source, ns)
    return ns.get("result")
PY
prog popen 'import subprocess\nresult = subprocess.Popen\n'
expect_exit 0 "finder: import subprocess is the sandbox's refusal" -- "$GC" replay "$WORK/finder" "$WORK/popen.py"
expect_grep "refused by the sandbox: ImportError" "finder: refused"
prog osys 'import os\nresult = os.system\n'
expect_exit 1 "finder: what it does not refuse still escapes" -- "$GC" replay "$WORK/finder" "$WORK/osys.py"

# --- tempwrite: tempfile writes where the host's temp folder is ---
mk tempwrite '["/tmp/*"]' '[]' <<'PY'
import tempfile
def evaluate(source):
    with tempfile.NamedTemporaryFile("w", suffix=".py") as f:
        f.write(source)
        f.flush()
        return eval(compile(source, f.name, "eval"), {})
PY
prog one '1\n'
expect_exit 0 "tempwrite: a temp file the policy allows" -- "$GC" replay "$WORK/tempwrite" "$WORK/one.py"
expect_grep "replayed 1: 0 escaped, 1 blocked" "tempwrite: no escape on 1"
mk gettempdir '[]' '[]' <<'PY'
import tempfile
def evaluate(source):
    return tempfile.gettempdir()
PY
expect_exit 0 "gettempdir: its folder is known, no probe written" -- "$GC" replay "$WORK/gettempdir" "$WORK/one.py"
mk tempdeny '["/srv/*"]' '[]' <<'PY'
import tempfile
def evaluate(source):
    with tempfile.NamedTemporaryFile("w") as f:
        f.write(source)
    return 1
PY
expect_exit 1 "tempdeny: a temp file the policy does not allow" -- "$GC" replay "$WORK/tempdeny" "$WORK/one.py"
expect_grep "ESCAPE effect write open" "tempdeny: the write is judged"

# --- mkdirs: a folder tree inside scratch ---
mk mkdirs '["/**"]' '[]' <<'PY'
import os, pathlib
def evaluate(source):
    try:
        pathlib.Path("a/b/c").mkdir(parents=True)
    except OSError:
        return os.system  # refused: gives a primitive back, so the test sees it
    return 1
PY
expect_exit 0 "mkdirs: parents=True inside scratch" -- "$GC" replay "$WORK/mkdirs" "$WORK/one.py"

# --- venv: the venv's site-packages first ---
"$PY" -m venv --without-pip "$WORK/venv" >/dev/null 2>&1 || fail "cannot make a venv"
mk venvpath '[]' '[]' <<'PY'
import os, sys
venv = open(os.path.join(os.path.dirname(__file__), "venvdir")).read().strip() + "/"
def evaluate(source):
    sites = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    ok = bool(sites) and all(os.path.realpath(p).startswith(venv) for p in sites)
    return 1 if ok else os.system
PY
realpath "$WORK/venv" >"$WORK/venvpath/venvdir"
expect_exit 0 "venv: sys.path as VENV/bin/python has it" -- "$GC" replay --venv "$WORK/venv" "$WORK/venvpath" "$WORK/one.py"
# include-system-site-packages = true: the venv's first, the system's after it
"$PY" -m venv --without-pip --system-site-packages "$WORK/venvsys" >/dev/null 2>&1 || fail "cannot make a venv"
mkdir -p "$WORK/venvsyspath"
cp "$WORK/venvpath/target.json" "$WORK/venvsyspath/"
realpath "$WORK/venvsys" >"$WORK/venvsyspath/venvdir"
sed 's/ok = bool(sites) and all(/ok = bool(sites) and os.path.realpath(sites[0]).startswith(venv) and not all(/' \
  "$WORK/venvpath/adapter.py" >"$WORK/venvsyspath/adapter.py"
expect_exit 0 "venv: the system's site-packages after the venv's" -- "$GC" replay --venv "$WORK/venvsys" "$WORK/venvsyspath" "$WORK/one.py"

# --- slowimport: a framework that takes long to import ---
mk slowimport '[]' '[]' <<'PY'
import time
import os
time.sleep(float(open(os.path.join(os.path.dirname(__file__), "delay")).read()))
def evaluate(source):
    return 1
PY
echo 1.5 >"$WORK/slowimport/delay"
(cd "$WORK/slowimport" && "$GC" replay --import-timeout 0.5 . "$WORK/one.py") >"$WORK/out" 2>&1
rc=$?
[[ $rc -eq 3 ]] && ok || fail "slowimport: --import-timeout 0.5: exit $rc, want 3"
expect_fgrep "within 0.5 s" "slowimport: the limit given"
echo 11 >"$WORK/slowimport/delay"
(cd "$WORK/slowimport" && "$GC" replay . "$WORK/one.py") >"$WORK/out" 2>&1
rc=$?
[[ $rc -eq 0 ]] && ok || { fail "slowimport: 11 s import: exit $rc, want 0"; head -5 "$WORK/out" >&2; }
expect_fgrep "gatecrash: still importing the adapter" "slowimport: a progress line"

# one copy of each module's classes, as in the host: the harness imports no pure-Python module
# before the target (signal.py, fnmatch, json brought enum and re), so a sandbox that imports re
# finds one Enum class among object.__subclasses__(), not the harness's stale one beside its
# own (before: two; a program picking classes by index or name saw another list than the host's)
mk classes '[]' '[]' <<'PY'
import os
import re
def evaluate(source):
    enums = [c for c in object.__subclasses__() if c.__name__ == "Enum"]
    ns = {}
    exec(source, {"__builtins__": {}}, ns)
    return ns.get("result") if len(enums) == 1 else os.system
PY
printf 'result = 1\n' >"$WORK/one-value.py"
expect_exit 0 "classes: one Enum class, as in the host" -- "$GC" replay -q "$WORK/classes" "$WORK/one-value.py"
expect_grep "one-value.py: blocked \(returned int\)$" "classes: the program ran, its value given back"

# the same for an extension module the primitive table imports for its C definitions (resource,
# _dbm): let go once the world is restored, so its structseq type is one tuple subclass, not
# the harness's copy beside the target's (before: two struct_rusage; a program indexing
# tuple.__subclasses__() escaped where the host's did not); and a program's `import re` after
# the import makes the first copies (the harness never imports fnmatch: pyglob.c)
mk extclasses '[]' '[]' <<'PY'
import os
import resource
def evaluate(source):
    ns = {}
    exec(source, {"__builtins__": __builtins__}, ns)
    rusage = [c for c in tuple.__subclasses__() if c.__name__ == "struct_rusage"]
    enums = [c for c in object.__subclasses__() if c.__name__ == "Enum"]
    return ns.get("result") if len(rusage) == 1 and len(enums) == 1 else os.system
PY
printf 'import re\nresult = 1\n' >"$WORK/import-re.py"
expect_exit 0 "extclasses: one struct_rusage, one Enum after the program's import of re" -- \
  "$GC" replay -q "$WORK/extclasses" "$WORK/import-re.py"
expect_grep "import-re.py: blocked \(returned int\)$" "extclasses: the program ran, its value given back"

# the table's C modules the harness imports for their definitions are not in the target's
# sys.modules where the host has not imported them, whether the libpython has them built in
# (Debian's: _csv, select, fcntl, _posixsubprocess) or as files, nor what a start under the
# "C" locale imports (encodings.ascii): the adapter sees at its import what the plain
# interpreter of the build sees at the same import.  Before (Debian's CPython 3.11): the
# built-in ones and encodings.ascii stayed, and `import select` was a module already loaded
mkdir -p "$WORK/cmods"
cat >"$WORK/cmods/seen.py" <<'PY'
import sys
SEEN = " ".join(sorted(m for m in ("_csv", "select", "fcntl", "_posixsubprocess", "gc", "faulthandler", "_dbm",
                                    "resource", "readline", "encodings.ascii") if m in sys.modules))
PY
plain=$(cd "$WORK/cmods" && "$PY" -s -c 'import seen; print(seen.SEEN)')
mk cmods '[]' '[]' <<PY
import os
import seen
def evaluate(source):
    return 1 if seen.SEEN == "$plain" else os.system
PY
printf 'result = 1\n' >"$WORK/one.py"
expect_exit 0 "cmods: the modules the plain interpreter has at the adapter's import ('$plain'), no more" -- \
  "$GC" replay -q "$WORK/cmods" "$WORK/one.py"
expect_grep "one.py: blocked \(returned int\)$" "cmods: the same modules"
finish
