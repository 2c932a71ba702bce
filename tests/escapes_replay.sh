#!/usr/bin/env bash
# Every saved case still escapes on the target it was found on, in the harness and with
# plain CPython alone (escapes/reproduce.py, the runner; its pytest side: escapes_pytest.sh),
# and both name the same escaping chain (the runner's may stop at the primitive where the
# effect-mode harness names the call too): the runner reads chains as chain.c does.
source "$(dirname "$0")/lib.sh" "$@"
for dir in "$SRC"/escapes/*/; do
  t=$(basename "$dir")
  [[ -d $SRC/targets/$t ]] || { fail "escapes/$t has no target"; continue; }
  expect_exit 0 "escapes/$t still escape" -- "$GC" replay -q --expect escape "$SRC/targets/$t" "$dir"
  for c in "$dir"*.chain; do
    via=$("$GC" replay -q "$SRC/targets/$t" "$c" 2>&1 | sed -n 's/.*gatecrash: ESCAPE [a-z]* [a-z]* [^ ]* via //p' | head -1)
    expect_exit 1 "runner: $t/$(basename "$c")" -- "$PYTHON" -I "$SRC/escapes/reproduce.py" "$c"
    expect_fgrep "ESCAPE reproduced: " "runner: $t/$(basename "$c") says so"
    rvia=$(sed -n 's/^ESCAPE reproduced: .* via //p' "$WORK/out")
    [[ -n $rvia && $via == "$rvia"* ]] && ok ||
      fail "runner: $t/$(basename "$c"): the harness escapes via [$via], the runner via [$rvia]"
  done
done
finish
