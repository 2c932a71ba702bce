#!/usr/bin/env bash
# Every saved case still escapes on the target it was found on, and every reproducer of
# station-1.5.0 exits non-zero under the build's CPython alone.
source "$(dirname "$0")/lib.sh" "$@"
for dir in "$SRC"/escapes/*/; do
  t=$(basename "$dir")
  [[ -d $SRC/targets/$t ]] || { fail "escapes/$t has no target"; continue; }
  expect_exit 0 "escapes/$t still escape" -- "$GC" replay -q --expect escape "$SRC/targets/$t" "$dir"
done
for py in "$SRC"/escapes/station-1.5.0/*.py; do
  expect_exit 1 "reproducer $(basename "$py")" -- "$PY" -I "$py" "$SRC/targets/station-1.5.0/module_sandbox.py"
done
finish
