#!/usr/bin/env bash
# A sweep is never killed with nothing: after its first level it projects when
# its depth ends; --time, SIGTERM (`timeout`'s) and SIGINT end it with the report of what
# it has, the depth it completed and the one it cut, and the usual exit code for what it
# found (1: escapes, else 0).  tests/fixtures/source/slow-levels: an evaluate of ~10 ms a
# program, its sixth level over 15 s; tests/fixtures/slow-levels: a gate whose levels cost
# eight times the one before (its spawn primitive two steps away).  No outcome depends on
# how fast this machine is: the signals wait for the level line they follow.
source "$(dirname "$0")/lib.sh" "$@"
S=$SRC/tests/fixtures/source/slow-levels
G=$SRC/tests/fixtures/slow-levels
# wait_for PATTERN FILE: until a line of FILE matches (at most 120 s)
wait_for() {
  local i
  for ((i = 0; i < 1200; i++)); do
    grep -qE -- "$1" "$2" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
# stop_after SIGNAL PATTERN OUT ARGS...: `gatecrash ARGS...` (stdout to OUT, stderr to
# OUT.err) sent SIGNAL once its stderr has a line matching PATTERN; its exit code in $rc
stop_after() {
  local sig=$1 pat=$2 out=$3
  shift 3
  "$GC" "$@" >"$out" 2>"$out.err" &
  local pid=$!
  wait_for "$pat" "$out.err" || fail "no line /$pat/ within 120 s"
  kill "-$sig" "$pid"
  local i=0
  while ((i++ < 600)) && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && { fail "SIG$sig did not stop the sweep within 60 s"; kill -KILL "$pid"; }
  wait "$pid"
  rc=$?
}

# --time on a source target: the report, and which depth it completed
"$GC" sweep "$S" --depth 6 --time 3 >"$WORK/time.out" 2>"$WORK/time.err"
rc=$?
[[ $rc == 0 ]] && ok || fail "--time 3: exit $rc, want 0 (nothing escapes)"
cp "$WORK/time.out" "$WORK/out"
expect_grep '^sweep of slow-levels ' "--time 3: the report"
expect_grep '^[0-9]+ hole\(s\), 0 escape signature\(s\); ' "--time 3: its summary line"
expect_grep '^stopped at [0-9.]+ s \(the time bound\): depth [0-5] complete, depth [1-6] cut; this report is INCOMPLETE$' \
  "--time 3: the depth it completed, said to be incomplete"

# SIGTERM (what `timeout` sends) once the first level is done and its projection printed:
# the report all the same
stop_after TERM '^gatecrash: sweep: level 1 done in [0-9.]+ s \([0-9]+ nodes\); depth 6 projected at ~[0-9]+ s' \
  "$WORK/term.out" sweep "$S" --depth 6
[[ $rc == 0 ]] && ok || fail "SIGTERM: exit $rc, want 0"
cp "$WORK/term.out" "$WORK/out"
expect_grep '^sweep of slow-levels ' "SIGTERM: the report"
expect_grep '^stopped at [0-9.]+ s \(SIGTERM\): depth [1-5] complete, depth [2-6] cut; this report is INCOMPLETE$' \
  "SIGTERM: the depth it completed"

# SIGINT on a gate target once depth 2 (its spawn primitive) is done: its table, exit 1
stop_after INT '^\[sweep\] depth 2 complete' "$WORK/int.out" sweep "$G" --depth 8 --json
[[ $rc == 1 ]] && ok || fail "SIGINT: exit $rc, want 1 (escapes found before the stop)"
"$PY" - "$WORK/int.out" <<'PYEOF' && ok || fail "SIGINT: the JSON report with depth 2's escape, cut by time at level 2 or later"
import json, sys
j = json.loads(open(sys.argv[1]).read())
assert j["cut"]["time"] and j["cut"]["levels_complete"] >= 2, j["cut"]
assert any(e["input"] == "tree.a.runner" for e in j["escapes"]), j["escapes"]
PYEOF

# advise: --time bounds all its sweeps; stopped, it says so and proves nothing (exit 1)
expect_exit 1 "advise --time 2: stopped, no cut proven" -- "$GC" advise "$G" --depth 8 --time 2
expect_grep '^advise for slow-levels at depth 8: STOPPED \(the time bound, or SIGINT/SIGTERM\) before its sweeps were whole: INCOMPLETE' \
  "advise --time 2: says it is incomplete"
finish
