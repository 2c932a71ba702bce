#!/usr/bin/env bash
# Every saved case still escapes on the target it was found on, in the harness and with
# plain CPython alone (escapes/reproduce.py, the runner; its pytest side: escapes_pytest.sh),
# and both name the same escaping chain (the runner's may stop at the primitive where the
# effect-mode harness names the call too): the runner reads chains as chain.c does.  Except
# the cases fixtures/version-specific.txt names for this CPython: those are blocked, by both,
# and the verdict line says they were found on another version.
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
      expect_exit 0 "runner: $t/$(basename "$c") is blocked on CPython $PYVER" -- "$PY" -I "$SRC/escapes/reproduce.py" "$c"
      continue
    fi
    expect_fgrep "$c: gatecrash: ESCAPE " "escapes/$t/$(basename "$c") still escapes"
    via=$(sed -n "s|^$c: gatecrash: ESCAPE [a-z]* [a-z]* [^ ]* via ||p" "$WORK/replay-$t.txt" | sed 's/ (found on CPython.*//' | head -1)
    expect_exit 1 "runner: $t/$(basename "$c")" -- "$PY" -I "$SRC/escapes/reproduce.py" "$c"
    expect_fgrep "ESCAPE reproduced: " "runner: $t/$(basename "$c") says so"
    rvia=$(sed -n 's/^ESCAPE reproduced: .* via //p' "$WORK/out")
    [[ -n $rvia && $via == "$rvia"* ]] && ok ||
      fail "runner: $t/$(basename "$c"): the harness escapes via [$via], the runner via [$rvia]"
  done
done
# the verdict line names the version a case was found on when it is another one, only then
c=$SRC/escapes/station-1.5.0/reach-spawn-os.execv-via-modattr.chain
sed 's/^# python: .*/# python: 3.99.0/' "$c" >"$WORK/other.chain"
sed "s/^# python: .*/# python: $("$PY" -I -c 'import platform; print(platform.python_version())')/" "$c" >"$WORK/same.chain"
expect_exit 0 "a case found on another version still escapes" -- "$GC" replay -q --expect escape "$SRC/targets/station-1.5.0" "$WORK/other.chain"
expect_grep "other\.chain: gatecrash: ESCAPE .* \(found on CPython 3\.99\.0, replayed on $PYVER\.[0-9]+\)$" "the verdict names the other version"
expect_exit 0 "a case found on this version" -- "$GC" replay -q --expect escape "$SRC/targets/station-1.5.0" "$WORK/same.chain"
expect_no_grep "found on CPython" "no note for the same version"
# files named relative to where the command starts (it runs in its scratch folder): replay and
# explain read them there, not in scratch
case=$(cd "$SRC" && ls escapes/station-1.5.0/*.chain | head -1)
in_src() { (cd "$SRC" && "$@"); }
expect_exit 1 "replay of a relative path" -- in_src "$GC" replay -q targets/station-1.5.0 "$case"
expect_exit 1 "explain of a relative path" -- in_src "$GC" explain targets/station-1.5.0 "$case"
finish
