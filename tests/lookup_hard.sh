#!/usr/bin/env bash
# targets/lookup-hard: the sweep to depth 5 finds no escape there, while the two
# intended escapes exist — a call with the string only the gate's own data names, and a
# walk through the attribute of the exception a refusal raised (hand-written chains in
# tests/fixtures/lookup-hard, kept out of corpus/ and dict/ so fuzzing must find them), and a
# bounded campaign finds the alias with harvested arguments and not without.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/targets/lookup-hard
expect_exit 0 "sweep --depth 5: nothing found" -- "$GC" sweep "$T" --depth 5
expect_grep "^0 hole\(s\), 0 escape signature\(s\); [0-9]+ nodes" "sweep: 0 escape signatures"
expect_exit 0 "the intended escapes replay" -- "$GC" replay "$T" --expect escape "$SRC/tests/fixtures/lookup-hard"
expect_fgrep "ESCAPE reach spawn os.system via tool('ops.compat-v1').system" "the call with the alias"
expect_fgrep "ESCAPE reach spawn os.system via tool('x').catalog.__globals__['_os'].system" \
  "the walk through the refusal's attribute"
expect_grep "replayed 2: 2 escaped, 0 blocked" "both escape"
mkdir -p "$WORK/near"
printf "tool('clock')['zone'].__class__\n" >"$WORK/near/a-tool"
printf "tool.__class__.__base__\n" >"$WORK/near/b-class"
printf "tool('ops.compat-v2').system\n" >"$WORK/near/c-alias"
printf "tool(1).catalog\n" >"$WORK/near/d-typeerror"
printf "tool().__class__.__base__\n" >"$WORK/near/e-refusal-class"
printf "tool('clock')().__traceback__\n" >"$WORK/near/f-proxy-call"
expect_exit 0 "near misses are blocked" -- "$GC" replay "$T" --expect blocked "$WORK/near"
expect_grep "replayed 6: 0 escaped, 6 blocked" "all six blocked"
# A bounded campaign finds the alias, a call with a string only the gate module's data names
# (harvest.c).  One job in record mode is deterministic for a build and an OUT path's length
# (a scratch path is a harvested word); 600,000 inputs found it on seeds 1 and 2 here (inputs
# 8,350-459,057 on 7 other runs).  Which seeds find it within the bound moves with the binary
# and the checkout's path: a clean clone of 35f10d1 in /tmp missed on seeds 1, 2 and 3 and
# found it on 4 and 5, so up to four seeds run, each only when the one before missed.
# Before the classes baseline (feedback.c) a 300,000-input run had missed it on 4 seeds.
# The same campaign without harvested arguments does not find it.
need fuzz_gate || { finish; exit; }
found=0
for s in 1 2 3 4; do
  expect_exit 1 "a bounded campaign (seed $s) escapes" -- "$GC" fuzz "$T" --runs 600000 --seed "$s" --out "$WORK/fz$s"
  grep -qxF "_Tool tool ()<module>" <(cut -f3 "$WORK/fz$s/finds.tsv") && { found=1; break; }
done
((found)) && ok || fail "600,000-input campaigns on seeds 1 to 4 found no call with the alias (hole _Tool tool ()<module>)"
"$GC" fuzz "$T" --runs 600000 --seed 1 --out "$WORK/fz-off" --no-harvest >"$WORK/out" 2>&1
expect_no_grep "_Tool tool \(\)<module>" "--no-harvest: the same campaign without harvested arguments does not"
finish
