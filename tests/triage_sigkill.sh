#!/usr/bin/env bash
# Cases are never lost or half-written when triage is killed: SIGKILL as soon as the first
# case appears, then a second run completes the job.  Every file a case folder shows is a
# whole case, killed runs' temp files are hidden and cleaned up, and each expected
# signature ends up saved exactly once.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/targets/station-1.5.0
FX=$(crash_fixtures)/station-1.5.0
# a reference: the same crashes triaged without interruption
"$GC" triage "$T" --out "$WORK/ref" "$FX" >"$WORK/out" 2>&1
expected=$(grep -h '^# signature: ' "$WORK/ref"/*.chain | sort)
n=$(printf '%s\n' "$expected" | grep -c .)
[[ $n -ge 3 ]] && ok || fail "the reference triage saved $n cases"

# killed mid-run: wait for the first case (the run is between cases or inside the next one)
mkdir -p "$WORK/cases"
printf 'partial' >"$WORK/cases/.reach-spawn-os.system-via-modattr.chain.tmp.999999.AbCdEf" # a dead run's temp file
printf 'partial' >"$WORK/cases/.reach-spawn-os.system-via-modattr.probe.999999"
"$GC" triage "$T" --out "$WORK/cases" "$FX" >"$WORK/killed.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  compgen -G "$WORK/cases/*.chain" >/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.05
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
killed=$(ls "$WORK/cases"/*.chain 2>/dev/null | wc -l)
[[ $killed -lt $n ]] && ok || echo "note: the run finished before it was killed ($killed cases)"
# what a reader of the folder sees is whole: every visible .chain is a strictly valid case
for f in "$WORK/cases"/*; do
  case $f in
    *.chain) "$GC" replay -q --expect escape "$T" "$f" >/dev/null 2>&1 && ok || fail "$(basename "$f") is not a whole case";;
    */target.json) ok;;
    *) fail "a visible file that is no case: $(basename "$f")";;
  esac
done
# the killed run cleaned the dead run's leftovers before its first case
cp "$WORK/killed.log" "$WORK/out"
expect_grep "^cleaned   \.reach-spawn-os.system-via-modattr\.chain\.tmp\.999999\.AbCdEf" "a dead run's temp file is removed"
expect_grep "^cleaned   \.reach-spawn-os.system-via-modattr\.probe\.999999" "a dead run's probe is removed"
# second run: completes the job
expect_exit 0 "the second triage run" -- "$GC" triage "$T" --out "$WORK/cases" "$FX"
got=$(grep -h '^# signature: ' "$WORK/cases"/*.chain | sort)
[[ "$got" == "$expected" ]] && ok || { fail "cases after kill + rerun differ from an uninterrupted run"; diff <(echo "$expected") <(echo "$got") >&2; }
dups=$(printf '%s\n' "$got" | uniq -d | wc -l)
[[ $dups -eq 0 ]] && ok || fail "$dups signatures saved twice"
[[ -f $WORK/cases/target.json ]] && ok || fail "the case folder has no target.json for the runner"
left=$(find "$WORK/cases" -name '.*' -type f | wc -l)
[[ $left -eq 0 ]] && ok || fail "$left hidden leftovers after the second run"
expect_exit 0 "the folder replays as cases" -- "$GC" replay -q --expect escape "$T" "$WORK/cases"
finish
