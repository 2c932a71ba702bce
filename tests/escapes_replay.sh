#!/usr/bin/env bash
# Every saved case still escapes on the target it was found on, in the harness and with
# plain CPython alone (escapes/reproduce.py, the runner; its pytest side: escapes_pytest.sh).
source "$(dirname "$0")/lib.sh" "$@"
for dir in "$SRC"/escapes/*/; do
  t=$(basename "$dir")
  [[ -d $SRC/targets/$t ]] || { fail "escapes/$t has no target"; continue; }
  expect_exit 0 "escapes/$t still escape" -- "$GC" replay -q --expect escape "$SRC/targets/$t" "$dir"
  for c in "$dir"*.chain; do
    expect_exit 1 "runner: $t/$(basename "$c")" -- "$PYTHON" -I "$SRC/escapes/reproduce.py" "$c"
  done
done
finish
