#!/usr/bin/env bash
# The campaign's opening sweep deepens: on targets/constants-deep, whose routes
# other than class walks are all 6 steps (a loader's and a refusal helper's __globals__), a
# short bounded `gatecrash fuzz` reports the `function . __globals__` hole from the sweep,
# level by level, before the engine runs; --seed-sweep-depth still caps the depth (at 3,
# the opening sweep's old depth, the hole is not the sweep's); the sweep's crash inputs
# are numbered in the order found, the same in every run, and every one replays.  Its
# budget and its levels: tests/fixtures/slow-levels, below.  (--time 60 with --runs: a 6 s
# budget for depth 8, which takes under a second here but ran past the 2 s of --time 8 under
# ASan on a loaded machine; --runs still ends the run.)
source "$(dirname "$0")/lib.sh" "$@"
need fuzz_gate || { finish; exit; }
T=$SRC/targets/constants-deep
"$GC" fuzz "$T" --time 60 --runs 200 --seed 1 --out "$WORK/deep" >"$WORK/deep.txt" 2>"$WORK/deep.err"
[[ $? -eq 1 ]] && ok || fail "deep: exit 1 (escapes found)"
cp "$WORK/deep.err" "$WORK/out"
expect_grep '^\[ *[0-9]+s\] new hole function \. __globals__ \((spawn|write)\): [^ ]*\.__globals__\[.* \(found by the sweep\)$' \
  "deep: the sweep reports the __globals__ hole"
expect_grep '^\[sweep\] depth 8 of 8 complete in ' "deep: the sweep went to depth 8"
expect_before_engine 'new hole function \. __globals__' "$WORK/deep.err" \
  "deep: the hole is reported before the engine's first progress line"
cp "$WORK/deep.txt" "$WORK/out"
expect_grep '^spawn.* function \. __globals__$' "deep: the table has the __globals__ hole"
cut -f2,3 "$WORK/deep/finds.tsv" >"$WORK/out"
expect_grep $'^sweep\tfunction \\. __globals__$' "deep: finds.tsv has it as the sweep's"
# the crash inputs of the sweep: crash-sweep-0000 on, one per escape it reported, all replaying
n=$(sed -n 's/^\[sweep\] \([0-9]*\) escape(s) found by the sweep.*/\1/p' "$WORK/deep.err")
last=$(printf 'crash-sweep-%04d' $((${n:-0} - 1)))
[[ ${n:-0} -ge 2 && -f $WORK/deep/crashes/$last && ! -e $WORK/deep/crashes/$(printf 'crash-sweep-%04d' "$n") ]] && ok ||
  fail "deep: crash-sweep-0000..$last for the $n escapes of the sweep"
expect_exit 0 "deep: the sweep's crash inputs replay as escapes" -- \
  "$GC" replay -q "$T" --expect escape "$WORK/deep/crashes"/crash-sweep-*
# the same run again: the same crash inputs in the same order
"$GC" fuzz "$T" --time 60 --runs 1 --seed 2 --out "$WORK/again" >/dev/null 2>&1
for f in "$WORK/deep/crashes"/crash-sweep-*; do
  cmp -s "$f" "$WORK/again/crashes/${f##*/}" || { fail "again: ${f##*/} differs"; break; }
done && ok
# --seed-sweep-depth 3 caps it: the class walk is 6 steps here too, so the sweep finds nothing
"$GC" fuzz "$T" --time 8 --runs 1 --seed 1 --seed-sweep-depth 3 --out "$WORK/capped" >/dev/null 2>"$WORK/out"
expect_grep '^\[sweep\] depth 3 of 3 complete in ' "capped: the sweep stops at depth 3"
expect_no_grep 'found by the sweep\)$' "capped: no hole from a depth-3 sweep"

# the budget (tests/fixtures/slow-levels: depth 1 takes 40 ms, 2 0.3 s, 3 2.5 s, 4 20 s, by
# its gate's sleeps): a tenth of --time, at least 2 s (a source target's: two fifths); a level whose projected time passes
# it does not start, and each level's new holes are reported as that level completes
S=$SRC/tests/fixtures/slow-levels
"$GC" fuzz "$S" --time 10 --runs 20 --out "$WORK/slow" >/dev/null 2>"$WORK/out"
expect_grep '^\[sweep\] depth 2 of 8 complete in [0-9.]+s, [0-9]+ nodes; depth 3 not started: its projected time passes the 2\.0s budget$' \
  "slow, --time 10: the 2 s budget ends the sweep after depth 2"
expect_grep 'new hole Node \.<primitive> \(spawn\): tree\.a\.runner \(found by the sweep\)$' "slow, --time 10: depth 2's hole"
expect_no_grep 'tree\.a\.cfg\.writer \(found by the sweep\)' "slow, --time 10: no hole of depth 3 from the sweep"
"$GC" fuzz "$S" --time 60 --runs 20 --out "$WORK/slow60" >/dev/null 2>"$WORK/out"
expect_grep '^\[sweep\] depth 3 of 8 complete in [0-9.]+s, [0-9]+ nodes; depth 4 not started: its projected time passes the 6\.0s budget$' \
  "slow, --time 60: a 6 s budget, depth 3 done"
expect_grep 'tree\.a\.cfg\.writer \(found by the sweep\)$' "slow, --time 60: depth 3's hole"
t2=$(awk -F'\t' '$5 == "tree.a.runner" { print $1 }' "$WORK/slow60/finds.tsv")
t3=$(awk -F'\t' '$5 == "tree.a.cfg.writer" { print $1 }' "$WORK/slow60/finds.tsv")
[[ -n $t2 && -n $t3 && $(echo "$t3 - $t2 >= 2" | bc) == 1 ]] && ok ||
  fail "slow, --time 60: depth 2's hole when depth 2 completed ($t2 s), depth 3's when it did ($t3 s)"
# a source target's budget is two fifths of --time (at least 10 s): tests/fixtures/source/
# slow-levels' sixth level, over 15 s, is projected past the 12 s of --time 30
if need fuzz_source; then
  "$GC" fuzz "$SRC/tests/fixtures/source/slow-levels" --time 30 --runs 20 --out "$WORK/slowsrc" >/dev/null 2>"$WORK/out"
  expect_grep '^\[sweep\] depth [0-9] of 6 complete in [0-9.]+s, [0-9]+ nodes; depth [0-9] not started: its projected time passes the 12\.0s budget$' \
    "slow source, --time 30: a 12 s budget"
fi
finish
