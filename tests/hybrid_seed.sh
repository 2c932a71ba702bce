#!/usr/bin/env bash
# The hybrid's first phase: `gatecrash fuzz` sweeps first (deepening to depth 8), reports each new hole
# of the sweep on one line before the engine runs any input, counts them in the table, and seeds the
# engine with chains to the sweep's frontier (OUT/seeds/sweep-*, read by libFuzzer as seed
# corpus); with --no-sweep-seed the engine runs alone from the repository's corpus.  `gate`'s
# fuzzing half does the same.
source "$(dirname "$0")/lib.sh" "$@"
need fuzz_gate || { finish; exit; }
T=$SRC/targets/station-1.5.0
"$GC" fuzz "$T" --runs 200 --seed 1 --out "$WORK/on" >"$WORK/on.txt" 2>"$WORK/on.err"
[[ $? -eq 1 ]] && ok || fail "hybrid: exit 1 (escapes found)"
cp "$WORK/on.err" "$WORK/out"
expect_grep '^\[ *[0-9]+s\] new hole [^ ].* \(spawn\): [^ ].* \(found by the sweep\)$' "hybrid: a sweep hole reported"
# one line per hole, not per signature: as many as the table (by hole) has rows
holes=$(grep -c '^\[ *[0-9]*s\] new hole ' "$WORK/on.err")
rows=$(sed -n 's/^\([0-9]*\) hole(s) .*/\1/p' "$WORK/on.txt")
[[ $holes -ge 1 && $holes -eq $rows ]] && ok || fail "hybrid: $holes 'new hole' lines, the table has $rows holes"
expect_no_grep '^\[sweep\] escape ' "hybrid: no line per signature"
expect_grep "  holes $rows +\(done\)$" "hybrid: the progress line counts the holes"
expect_before_engine '^\[ *[0-9]*s\] new hole ' "$WORK/on.err" \
  "hybrid: the sweep's escapes come before the engine's first progress line"
cp "$WORK/on.txt" "$WORK/out"
expect_grep 'distinct escape\(s\) on station-1.5.0 \(with [1-9][0-9]* found by the sweep before the engine started\)' \
  "hybrid: the table counts the sweep's escapes"
expect_grep '^spawn.* function \. __globals__$' "hybrid: the table has the sweep's __globals__ hole"
n=$(ls "$WORK/on/seeds" 2>/dev/null | grep -c '^sweep-')
[[ $n -ge 100 ]] && ok || fail "hybrid: $n frontier chains in OUT/seeds, want 100 or more"
cat "$WORK/on/seeds"/sweep-* >"$WORK/out" 2>/dev/null
expect_fgrep "open.__globals__" "frontier: a gate function's globals"
expect_fgrep "os.sys.modules['_posixsubprocess']" "frontier: a real module"
expect_grep '__subclasses__\(\)$' "frontier: a class's subclasses"
expect_grep '\(\)\.__traceback__$' "frontier: what a call raised"
seeded=$(sed -n 's/^INFO: seed corpus: files: \([0-9]*\).*/\1/p' "$WORK/on/fuzz.log")
[[ -n $seeded && $seeded -ge $((n + $(find "$SRC/corpus" -maxdepth 1 -type f | wc -l))) ]] && ok ||
  fail "hybrid: libFuzzer read $seeded seed files, want the $n frontier chains and corpus/"
# every frontier chain parses strictly (they are valid resolved chains) and runs
expect_exit 0 "frontier: the chains replay as blocked or harmless" -- \
  "$GC" replay -q "$T" --expect blocked "$WORK/on/seeds"/sweep-0000 "$WORK/on/seeds"/sweep-0005
"$GC" fuzz "$T" --runs 200 --seed 1 --out "$WORK/off" --no-sweep-seed >"$WORK/off.txt" 2>"$WORK/off.err"
cat "$WORK/off.err" "$WORK/off.txt" >"$WORK/out"
expect_no_grep '^\[sweep\]|found by the sweep' "--no-sweep-seed: no sweep"
[[ ! -e $WORK/off/seeds ]] && ok || fail "--no-sweep-seed: OUT/seeds made"
seeded=$(sed -n 's/^INFO: seed corpus: files: \([0-9]*\).*/\1/p' "$WORK/off/fuzz.log")
# corpus/ alone: source mode's seeds are corpus-source/, which gate campaigns never read
[[ $seeded -eq $(find "$SRC/corpus" -type f | wc -l) ]] && ok || fail "--no-sweep-seed: $seeded seed files, want corpus/ alone"
"$GC" fuzz "$T" --runs 1 --out "$WORK/zero" --seed-sweep-depth 0 >/dev/null 2>"$WORK/out"
expect_no_grep '^\[sweep\]' "--seed-sweep-depth 0: no sweep"
# OUT/finds.tsv: each row of the table when first seen, the sweep's first
head -1 "$WORK/on/finds.tsv" >"$WORK/out"
expect_grep $'^[0-9]+\\.[0-9]{3}\tsweep\t' "finds.tsv: the sweep's escape first"
# the release gate's fuzzing half starts with the hybrid too: the sweep's escapes reported
# and counted as found by its campaign
mkdir -p "$WORK/no-cases"
"$GC" gate "$T" --escapes "$WORK/no-cases" --time 30 --runs 100 --seed 1 --report "$WORK/gate-report" \
  --out "$WORK/gate" >"$WORK/gate.txt" 2>"$WORK/gate.err"
[[ $? -eq 1 ]] && ok || fail "gate: exit 1 (escapes found)"
cp "$WORK/gate.err" "$WORK/out"
expect_grep '^\[ *[0-9]+s\] new hole [^ ].* \(spawn\): [^ ].* \(found by the sweep\)$' "gate: the sweep's holes reported"
# as many as the sweep's rows of OUT/finds.tsv at least (826 on an idle machine; how deep the
# opening sweep gets in its tenth of --time depends on the load, so no fixed count)
swept=$(grep -c $'\tsweep\t' "$WORK/gate/finds.tsv" 2>/dev/null)
counted=$(sed -n 's/.* \([0-9]*\) escape(s) found by fuzzing.*/\1/p' "$WORK/gate.txt")
[[ ${swept:-0} -ge 1 && ${counted:-0} -ge $swept ]] && ok ||
  fail "gate: the sweep's escapes counted by its campaign: ${counted:-no} found by fuzzing, the sweep's rows ${swept:-0}"
"$GC" gate "$T" --escapes "$WORK/no-cases" --time 30 --runs 100 --seed 1 --report "$WORK/gate-report2" \
  --out "$WORK/gate2" --no-sweep-seed >"$WORK/out" 2>&1
expect_no_grep '^\[sweep\]' "gate --no-sweep-seed: no sweep"
finish
