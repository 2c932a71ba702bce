#!/usr/bin/env bash
# Every saved case still escapes on the target it was found on, and every reproducer of
# station-1.5.0 exits non-zero under the build's CPython alone — except the cases
# fixtures/version-specific.txt names for this CPython: those are blocked, and the verdict
# line says they were found on another version.
source "$(dirname "$0")/lib.sh" "$@"
mapfile -t blocked < <(blocked_here)
is_blocked() { [[ " ${blocked[*]} " == *" escapes/$1 "* ]]; }
for dir in "$SRC"/escapes/*/; do
  t=$(basename "$dir")
  [[ -d $SRC/targets/$t ]] || { fail "escapes/$t has no target"; continue; }
  "$GC" replay -q "$SRC/targets/$t" "$dir" >"$WORK/replay-$t.txt" 2>&1
  for c in "$dir"*.chain; do
    cp "$WORK/replay-$t.txt" "$WORK/out"
    if is_blocked "$t/$(basename "$c")"; then
      expect_grep "^$c: blocked .*\(found on CPython 3\.[0-9]+\.[0-9]+, replayed on $PYVER\.[0-9]+\)$" \
        "escapes/$t/$(basename "$c") is blocked on CPython $PYVER, found on another version"
    else
      expect_fgrep "$c: gatecrash: ESCAPE " "escapes/$t/$(basename "$c") still escapes"
    fi
  done
done
for py in "$SRC"/escapes/station-1.5.0/*.py; do
  want=1
  is_blocked "station-1.5.0/$(basename "${py%.py}").chain" && want=0
  expect_exit $want "reproducer $(basename "$py")" -- "$PY" -I "$py" "$SRC/targets/station-1.5.0/module_sandbox.py"
done
finish
