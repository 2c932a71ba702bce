#!/usr/bin/env bash
# Every escape reproduces, or is named with its cause (docs/TRIAGE.md "Resolved chains"):
# a crash input is recorded with the chain the fuzzing process really ran, and the
# campaign's live replay and triage run that; an input whose escape needs an earlier
# input's state is named so in the summary; the minimizer keeps no step whose result rests
# on the hash seed or addresses (the runner reproduces the saved case, and walks
# a set in the harness's order).  The gate
# is tests/fixtures/unportable.  Bounded runs and replays only.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/unportable
HASHSEED="env PYTHONHASHSEED"
# reproduces_under_any_seed CASE_DIR: the runner reproduces the saved case under hash seeds 1, 2, 3
reproduces_under_any_seed() {
  local c seed
  c=$(ls "$1"/*.chain 2>/dev/null | head -1)
  for seed in 1 2 3; do
    expect_exit 1 "the runner, PYTHONHASHSEED=$seed" -- $HASHSEED=$seed "$PY" -s "$SRC/escapes/reproduce.py" "${c:-/dev/null}" "$T/unportable_gate.py"
  done
}

# 1. tools.pick() reaches os.execve under the harness's hash seed only; the minimizer
#    must keep tools.holder.pick(), whose reproducer reproduces under any seed.
mkdir -p "$WORK/pick"
printf 'tools.holder.pick()\n' >"$WORK/pick/crash-holder"
expect_exit 0 "triage of tools.holder.pick()" -- "$GC" triage "$T" --out "$WORK/esc-pick" "$WORK/pick"
expect_grep "^new +crash-holder: reach:spawn:os.execve:.*  tools.holder.pick\(\)$" "the longer, portable chain is saved"
reproduces_under_any_seed "$WORK/esc-pick"
mkdir -p "$WORK/pick2"
printf 'tools.pick()\n' >"$WORK/pick2/crash-pick"
expect_exit 0 "triage of tools.pick() alone" -- "$GC" triage "$T" --out "$WORK/esc-pick2" "$WORK/pick2"
expect_grep "^flaky +crash-pick: its escape rests on address or hash order" "an unportable escape is not a case"
[[ -z $(ls -A "$WORK/esc-pick2" 2>/dev/null) ]] && ok || fail "something was saved: $(ls -A "$WORK/esc-pick2")"

# 2. tools.jobs[#3] (a set of unnamed partials): the harness walks a set in an order every
#    process agrees on; the reproducer must walk it the same way.
mkdir -p "$WORK/jobs"
printf 'tools.jobs[#3].func\n' >"$WORK/jobs/crash-jobs"
expect_exit 0 "triage of tools.jobs[#3].func" -- "$GC" triage "$T" --out "$WORK/esc-jobs" "$WORK/jobs"
expect_grep "^new +crash-jobs: reach:spawn:os.system:.*  tools.jobs\[#3\].func$" "the set walk is saved"
reproduces_under_any_seed "$WORK/esc-jobs"

# 3 and 4 run the engine (a bounded campaign, fuzz_gate itself)
need fuzz_gate || { finish; exit; }
# 3. `[#22]` over Plugin.__subclasses__() names Runner (index 2) only after tools.register()
#    made a class in the same process: 22 mod 4 (and mod 5: libFuzzer's leak check in a
#    sanitizer build runs an input that allocates twice) is 2; in a fresh process 22 mod 3 is
#    1, Safe1.  The engine runs the seeds smallest first.
mkdir -p "$WORK/seeds" "$WORK/in"
printf "tools.register('A')\n" >"$WORK/in/a-register"
printf 'tools.Plugin.__subclasses__()[#22].spawn\n' >"$WORK/in/b-walk"
cp "$WORK"/in/* "$WORK/seeds/" # (the campaign merges its corpus back into --corpus)
expect_exit 1 "bounded campaign: register, then the walk" -- "$GC" fuzz "$T" --corpus "$WORK/seeds" --runs 2 --no-sweep-seed \
  --seed 1 --out "$WORK/walk"
expect_grep "^1 escape input\(s\), 1 distinct escape\(s\) on unportable$" "the escape reproduces in the campaign's replay"
expect_no_grep "did not reproduce" "no crash input fails to reproduce"
crash=$(ls "$WORK/walk/crashes"/crash-* 2>/dev/null | head -1)
side=$WORK/walk/crashes/resolved/$(sha1sum <"${crash:-/dev/null}" | cut -d' ' -f1)
[[ -n $crash && -f $side ]] && ok || fail "no resolved chain beside the crash input ($crash)"
expect_exit 0 "its raw bytes mean another chain in a fresh process" -- "$GC" replay "$T" -q --raw "$crash"
expect_exit 1 "its resolved chain escapes in a fresh process" -- "$GC" replay "$T" -q "$side"
expect_fgrep "tools.Plugin.__subclasses__()[@Runner].spawn" "the resolved chain names Runner"
expect_exit 0 "triage of the crash folder" -- "$GC" triage "$T" --out "$WORK/esc-walk" "$WORK/walk/crashes"
expect_grep "^new +crash-.*reach:spawn:os.system:" "triage saves the escape from its resolved chain"
expect_grep "1 new, 0 known, 0 not reproducible" "triage summary: nothing flaky"
# the abort path of fuzz_gate (fork-mode jobs): the resolved chain beside -artifact_prefix
mkdir -p "$WORK/direct/crashes"
(cd "$WORK/direct" && "$FUZZ" --target="$T" -artifact_prefix="$WORK/direct/crashes/" \
  "$WORK/in/a-register" "$WORK/in/b-walk" >"$WORK/out" 2>&1)
expect_fgrep "gatecrash: ESCAPE reach spawn os.system via tools.Plugin.__subclasses__()[@Runner].spawn" "fuzz_gate escapes"
side=$WORK/direct/crashes/resolved/$(sha1sum <"$WORK/in/b-walk" | cut -d' ' -f1)
[[ -f $side ]] && grep -qxF 'tools.Plugin.__subclasses__()[@Runner].spawn' "$side" && ok ||
  fail "fuzz_gate wrote no resolved chain at $side"
if need fuzz_gate_afl; then # AFL++'s driver: the folder comes from the campaign
  mkdir -p "$WORK/afl"
  (cd "$WORK/afl" && GATECRASH_RESOLVED_DIR=$WORK/afl/crashes/resolved "$BIN/fuzz_gate_afl" --target="$T" \
    "$WORK/in/a-register" "$WORK/in/b-walk" >"$WORK/out" 2>&1) 2>/dev/null # (it aborts on the escape)
  side=$WORK/afl/crashes/resolved/$(sha1sum <"$WORK/in/b-walk" | cut -d' ' -f1)
  [[ -f $side ]] && grep -qxF 'tools.Plugin.__subclasses__()[@Runner].spawn' "$side" && ok ||
    fail "fuzz_gate_afl wrote no resolved chain at $side"
fi

# 4. tools.armed() escapes only after tools.arm() ran in the same process: the summary
#    names the input and the cause, and the campaign is no all-clear (exit 5: a host that
#    runs its programs in one process sees the escape).
mkdir -p "$WORK/seeds2"
printf 'tools.arm()\n' >"$WORK/seeds2/a-arm"
printf 'tools.armed()\n' >"$WORK/seeds2/b-armed"
expect_exit 5 "bounded campaign: arm, then armed" -- "$GC" fuzz "$T" --corpus "$WORK/seeds2" --runs 2 --seed 1 --no-sweep-seed \
  --out "$WORK/arm"
expect_grep "^0 escape input\(s\), 0 distinct escape\(s\) on unportable \(1 crash input\(s\) did not reproduce\)$" \
  "the summary counts it"
expect_grep "^did not reproduce: crash-[0-9a-f]+: its resolved chain escapes only with state an earlier input left" \
  "the summary names it with its cause"
expect_grep "^INCONCLUSIVE: nothing escaped, but an input the engine saw escape did not escape when run alone" \
  "no all-clear, said why"
finish
