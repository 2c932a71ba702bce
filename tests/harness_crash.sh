#!/usr/bin/env bash
# The fuzzing process never crashes on an input (docs/RELIABILITY.md, "The harness never
# crashes"): every input sequence that once ended fuzz_gate with a deadly signal, kept in
# tests/fixtures/hostile/interp-crash/ and replayed in name order in one process by
# fuzz_gate-test (as the engine ran them), and by `gatecrash replay`.
#   1-cpuclock, 2-cpuclock-minus: time.pthread_getcpuclockid(1) and (-1), which glibc reads
#   as a pthread_t pointer (SEGV at 0x2d1 / 0x2cf).  fuzz_gate on station-1.5.0-allow-all
#   reached it from its mutator's probe (a harvested 1 or -1 passed to a harvested callable),
#   so the crash input libFuzzer wrote was empty and no input of the trace replayed it.
#   Now refused (oracle_table.c); before, fuzz_gate-test died of SIGSEGV at the first file.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/targets/station-1.5.0-allow-all
F=$SRC/tests/fixtures/hostile/interp-crash
mkdir -p "$WORK/scratch"
expect_exit 0 "the inputs that crashed fuzz_gate, in order in one process" -- \
  bash -c 'cd "$1" && exec "$2" --target="$3" "$4"' - "$WORK/scratch" "$BIN/fuzz_gate-test" "$T" "$F"
expect_grep "^gatecrash: 3 inputs: 3 ok, 0 rejected, 0 findings" "each ran to its end, none an escape"
expect_no_grep "DEADLYSIGNAL|SEGV|deadly signal" "no crash"
expect_exit 0 "the same in gatecrash replay" -- "$GC" replay "$T" "$F"/*
for n in 1-cpuclock 2-cpuclock-minus; do
  expect_fgrep "$n: blocked (4 steps, 1 failed; refused by the harness: time.pthread_getcpuclockid)" "$n refused"
done
expect_grep "3-after: blocked \(4 steps, 0 failed\)" "the input after them runs normally"
# finding the next one: $GATECRASH_TRACE_INPUTS has the probe's runs too, which no input replays
need fuzz_gate || { finish; exit; }
(cd "$WORK/scratch" && GATECRASH_TRACE_INPUTS=$WORK/trace "$FUZZ" --target="$T" -runs=300 -seed=1) >"$WORK/out" 2>&1
expect_grep "Done 300 runs" "a bounded run with the trace"
grep '^probe: ' "$WORK/trace" >"$WORK/out"
expect_grep "^probe: [^ ]" "the trace has the mutator's probe runs"
finish
