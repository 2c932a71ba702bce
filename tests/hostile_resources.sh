#!/usr/bin/env bash
# Resource attacks: endless loops, loops in __getattr__/properties/iterators, infinite
# iterators walked by exploration forms, deep recursion, huge and unbounded allocations.
# Each is bounded by the harness (walk bound, recursion limit, per-input time limit,
# per-input memory limit), reported as a finding of its own kind (LIMIT timeout /
# out-of-memory), never as an escape, and never ends the tool or the fuzzing campaign.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/hostile/resources
I="__builtins__['__import__']"
c() { printf '%s\n' "$2" >"$WORK/$1.chain"; }
c spin "spin()"; c getattr "looper.anything"; c property "looper.value"; c stuck "stuck[#3]"
c swallow-once "swallow_once()"; c forever "forever[#5]"; c forever-named "forever[@nothing]"
c recurse "recurse()"; c mul "$I('os').sep.__mul__(999999999)"; c zfill "$I('os').sep.zfill(999999999)"
c hoard "hoard()"; c after "$I('os').sep.__mul__(3)"
ch() { for n in "$@"; do printf '%s ' "$WORK/$n.chain"; done; }

# time: each loop ends at the time limit, as a timeout finding, and the next input runs
expect_exit 5 "loops end at the time limit (inconclusive: exit 5)" -- "$GC" replay -q --json "$T" $(ch spin after getattr after property after stuck after swallow-once after)
for n in spin getattr property stuck swallow-once; do
  expect_fgrep "$n.chain: LIMIT timeout (not an escape)" "$n is a timeout finding"
done
expect_count 5 '^\{"limit":"timeout","escaped":false' "--json: one limit object per timeout"
expect_count 5 "after.chain: blocked \(6 steps, 0 failed\)$" "the input after each timeout runs normally"
expect_no_grep "ESCAPE" "no timeout is an escape"
expect_grep "limits: 5 input\(s\) stopped by the time limit, 0 by the memory limit" "the totals"

# bounded walks and recursion: no limit needed
expect_exit 0 "infinite iterators and recursion are bounded" -- "$GC" replay -q "$T" $(ch forever forever-named recurse after)
expect_fgrep "forever.chain: blocked (2 steps, 0 failed)" "[#K] walks at most 4096 items of an infinite iterator"
expect_fgrep "forever-named.chain: blocked (2 steps, 1 failed)" "[@NAME] gives up after 4096 items"
expect_fgrep "recurse.chain: blocked (2 steps, 0 failed)" "unbounded recursion yields RecursionError"
expect_no_grep "LIMIT" "none of them needs a limit"

# memory: huge single allocations are refused at once; unbounded growth at the budget
expect_exit 5 "huge allocations are out-of-memory findings (inconclusive)" -- "$GC" replay -q --json "$T" $(ch mul after zfill after)
expect_fgrep "mul.chain: LIMIT out-of-memory (not an escape)" "'x' * 999999999"
expect_fgrep "zfill.chain: LIMIT out-of-memory (not an escape)" "'x'.zfill(999999999)"
expect_count 2 '^\{"limit":"oom","escaped":false' "--json: one limit object per OOM"
expect_count 2 "after.chain: blocked \(6 steps, 0 failed\)$" "the input after each OOM runs normally"
GATECRASH_INPUT_MEMORY_MB=64 expect_exit 5 "unbounded growth stops at the budget" -- "$GC" replay -q "$T" $(ch hoard after)
expect_fgrep "hoard.chain: LIMIT out-of-memory (not an escape)" "hoard() is an OOM finding"
expect_no_grep "ESCAPE" "no OOM is an escape"

# the hard limit: gate code that swallows every interruption ends the tool with one line
c swallow-all "swallow_all()"
expect_exit 4 "code swallowing every interruption" -- "$GC" replay -q "$T" "$WORK/swallow-all.chain"
expect_grep "^gatecrash: error: the input ran 3 s past its time limit and Python could not interrupt it" "hard limit line"

# interpreter crashers: types CPython 3.11 lets a chain call and then dereferences NULL in
# (found by fuzzing constants-only); the harness refuses the call instead of dying
c csv-reader "$I('_csv').Reader()[#0]"; c csv-writer "$I('_csv').Writer().writerow(1)"
expect_exit 0 "half-made objects are refused, not run" -- "$GC" replay -q "$T" $(ch csv-reader csv-writer after)
expect_fgrep "csv-reader.chain: blocked (5 steps, 1 failed; refused by the harness: _csv.Reader)" "_csv.Reader() refused"
expect_fgrep "csv-writer.chain: blocked (5 steps, 1 failed; refused by the harness: _csv.Writer)" "_csv.Writer() refused"

# the fuzzer: a bounded campaign over these seeds is never ended by them (-reload=0: on a slow
# machine libFuzzer re-reads the corpus folder after a few seconds and runs more than 40)
need fuzz_gate || { finish; exit; }
mkdir -p "$WORK/corpus" "$WORK/scratch"
for n in spin getattr stuck forever recurse mul zfill; do cp "$WORK/$n.chain" "$WORK/corpus/"; done
(cd "$WORK/scratch" && "$FUZZ" --target="$T" --escapes=continue --input-timeout=0.3 -runs=40 -seed=1 -reload=0 "$WORK/corpus") >"$WORK/out" 2>&1
rc=$?
[[ $rc -eq 0 ]] && ok || { fail "bounded fuzz_gate run ended with $rc"; tail -5 "$WORK/out" >&2; }
expect_grep "Done 40 runs" "libFuzzer ran every input"
expect_grep "stats: .* inputs stopped by the time limit [1-9]" "fuzz_gate counted timeouts"
expect_grep "limits: [1-9][0-9]* input\(s\) stopped by the time limit, [1-9][0-9]* by the memory limit" "fuzz_gate counted both kinds"
expect_no_grep "NEW-ESCAPE|ESCAPE reach|deadly signal|out-of-memory \(" "no escape, no crash, no libFuzzer OOM"
finish
