#!/usr/bin/env bash
# The saved cases with plain CPython: escapes/reproduce.py (the one runner) replays any case,
# `pytest escapes/<target>` collects one test per case (failing while it escapes, or with
# --expect escape while it no longer does), and the runner's tables, escapes/_tables.py, are
# what gatecrash writes from the harness's own (a drift fails here).  Nothing is written
# into escapes/.
source "$(dirname "$0")/lib.sh" "$@"
ST=$SRC/escapes/station-1.5.0
snap() { (cd "$SRC/escapes" && find . -printf '%p %s %T@\n' | sort | md5sum); }
before=$(snap)

expect_exit 0 "gatecrash writes the tables" -- "$GC" triage --tables "$WORK/_tables.py"
cmp -s "$WORK/_tables.py" "$SRC/escapes/_tables.py" && ok ||
  fail "escapes/_tables.py is not what gatecrash writes (regenerate: gatecrash triage --tables escapes/_tables.py)"

# the runner, on the case of every folder's first file and its own target
case=$ST/reach-spawn-os.execv-via-self.chain
expect_exit 1 "runner: the case escapes" -- "$PY" -I "$SRC/escapes/reproduce.py" "$case"
expect_fgrep "ESCAPE reproduced: reach spawn os.execv via os.strerror.__self__.execv" "runner: the verdict line"
expect_exit 0 "runner: a modattr case against the advisory's fix is blocked" -- "$PY" -I "$SRC/escapes/reproduce.py" \
  "$ST/reach-spawn-os.execv-via-modattr.chain" "$SRC/targets/station-advisory-fix/module_sandbox.py"
expect_grep "^blocked" "runner: blocked"
expect_exit 2 "runner: no case" -- "$PY" -I "$SRC/escapes/reproduce.py"
printf '# kind: reach\nos.strerror.__self__.execv\n' >"$WORK/bad.chain"
cp "$ST/target.json" "$WORK/target.json"
expect_exit 2 "runner: a header without its capability" -- "$PY" -I "$SRC/escapes/reproduce.py" "$WORK/bad.chain" \
  "$SRC/targets/station-1.5.0/module_sandbox.py"

test_venv || { finish; exit; }
export PYTHONDONTWRITEBYTECODE=1
n=$(ls "$ST"/*.chain | wc -l)
expect_exit 0 "pytest --expect escape: every case still escapes" -- "$VENV/bin/pytest" -q "$ST" --expect escape
expect_grep "^$n passed" "pytest: one test per case ($n)"
expect_exit 1 "pytest: the cases fail while they escape" -- "$VENV/bin/pytest" -q "$ST"
expect_grep "^$n failed" "pytest: every case fails"
expect_fgrep "reach-spawn-os.execv-via-self.chain: ESCAPE reproduced: reach spawn os.execv via os.strerror.__self__.execv" \
  "pytest: the failure says what escaped"
expect_exit 1 "pytest --gate: the advisory's fix blocks some" -- "$VENV/bin/pytest" -q "$ST" --expect escape \
  --gate "$SRC/targets/station-advisory-fix/module_sandbox.py"
expect_grep "^[1-9][0-9]* failed, [1-9][0-9]* passed" "pytest --gate: some blocked, some not"
for t in audit-gate station-advisory-fix; do
  expect_exit 0 "pytest escapes/$t --expect escape" -- "$VENV/bin/pytest" -q "$SRC/escapes/$t" --expect escape
done
[[ $(snap) == "$before" ]] && ok || fail "something was written into escapes/"
finish
