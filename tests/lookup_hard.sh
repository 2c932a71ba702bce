#!/usr/bin/env bash
# targets/lookup-hard (issue 16): the sweep to depth 5 finds no escape there, while the two
# intended escapes exist — a call with the string only the gate's own data names, and a
# walk through the attribute of the exception a refusal raised (hand-written chains in
# tests/fixtures/lookup-hard, kept out of corpus/ and dict/ so fuzzing must find them), and a
# bounded campaign finds the alias.
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
# the fuzzer finds the alias: a call with a string harvested from the gate module's own data
# (harvest.c), proposed where the probe says tool takes one argument.  Two libFuzzer jobs
# (fork mode): the one-job bounded run (record mode) kept no harvested call in its corpus in
# four seeds of 300,000 runs, where fork mode found the alias in 3 of 3 seeds of 400,000
# (docs/PERFORMANCE.md, "Hybrid"); that difference is not understood yet.
expect_exit 1 "a bounded campaign escapes" -- "$GC" fuzz "$T" --runs 400000 --jobs 2 --seed 1 --out "$WORK/fz"
expect_fgrep "_Tool tool ()<module>" "the alias found by the fuzzer"
"$GC" fuzz "$T" --runs 400000 --jobs 2 --seed 1 --out "$WORK/fz-off" --no-harvest >"$WORK/out" 2>&1
expect_no_grep "_Tool tool \(\)<module>" "--no-harvest: the same campaign without harvested arguments does not"
finish
