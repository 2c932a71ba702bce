#!/usr/bin/env bash
# Per-input isolation (state.c): an input starts with what a fresh process would have, so a
# verdict never depends on the inputs before it.  Two sandboxes whose behaviour differs on a
# second evaluation in one process, each replayed twice in one process: both inputs must be
# blocked, as each is in a fresh process.
#   scratchleft: the sandbox caches a file in its working folder (numpy's memmap does) and
#     gives back a primitive when it finds it there: the scratch folder is emptied after
#     each input ("scratch files removed");
#   warnonce: the sandbox gives back a primitive when a warning it raises is not shown: a
#     warning is shown once per place in a process, and the warnings filters' version is
#     bumped after each input, so each shows it as a fresh process does;
#   importonce: the sandbox imports a module of its own on first use and gives back a
#     primitive when it finds it imported already: the sys.modules entries an input added are
#     removed after it (C extensions' modules are kept), silently.
source "$(dirname "$0")/lib.sh" "$@"
mk() { mkdir -p "$WORK/$1"; cat >"$WORK/$1/adapter.py"
  printf '{"kind": "source", "adapter": "adapter.py", "refusals": [], "requires": {"subprocess": false, "filesystem_writes": %s}}\n' \
    "$2" >"$WORK/$1/target.json"; }
mk scratchleft '["/**"]' <<'PY'
import os
def evaluate(source):
    seen = os.path.exists("cache.bin")
    with open("cache.bin", "wb") as f:
        f.write(b"x")
    return os.system if seen else None
PY
mk warnonce '[]' <<'PY'
import os, warnings
shown = []
warnings.showwarning = lambda *a, **k: shown.append(1)
def other():
    warnings.warn("at import", UserWarning)
other()  # the module's __warningregistry__ exists from here on
def warn():
    warnings.warn("in the evaluation", UserWarning)
def evaluate(source):
    before = len(shown)
    warn()
    return os.system if len(shown) == before else None
PY
mk importonce '[]' <<'PY'
import os, sys
def evaluate(source):
    warm = "gatecrash_lazy" in sys.modules
    import gatecrash_lazy  # beside the adapter, imported on first use
    return os.system if warm else gatecrash_lazy.VALUE
PY
echo 'VALUE = 1' >"$WORK/importonce/gatecrash_lazy.py"
echo 'result = 1' >"$WORK/a.py"
cp "$WORK/a.py" "$WORK/b.py"
for t in scratchleft warnonce importonce; do
  expect_exit 0 "$t: two inputs in one process" -- "$GC" replay "$WORK/$t" "$WORK/a.py" "$WORK/b.py"
  expect_grep "replayed 2: 0 escaped, 2 blocked" "$t: the second as in a fresh process"
done
"$GC" replay "$WORK/scratchleft" "$WORK/a.py" >"$WORK/out" 2>&1
expect_grep "a.py: note: interpreter state changed by the program and repaired: scratch files removed" "scratchleft: named"
"$GC" replay "$WORK/importonce" "$WORK/a.py" "$WORK/b.py" >"$WORK/out" 2>&1
expect_no_grep "note: interpreter state changed" "importonce: no repair noted"
finish
