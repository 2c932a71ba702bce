#!/usr/bin/env bash
# The fuzzing process never crashes on an input (docs/RELIABILITY.md, "The harness never
# crashes"): every input sequence that once ended fuzz_gate with a deadly signal, kept in a
# folder of tests/fixtures/hostile/interp-crash/ and replayed in name order in one process by
# fuzz_gate-test (as the engine ran them), and by `gatecrash replay`.
#   cpuclock: time.pthread_getcpuclockid(1) and (-1), which glibc reads as a pthread_t pointer
#   (SEGV at 0x2d1 / 0x2cf).  fuzz_gate reached it from its mutator's probe (a harvested 1 or
#   -1 passed to a harvested callable), so the crash input libFuzzer wrote was empty and no
#   input of the trace replayed it.  Now refused (oracle_table.c); before, fuzz_gate-test died
#   of SIGSEGV at the first file.
#   type-dict: object.__getstate__(builtin_function_or_method) is that static type's own dict;
#   cleared, it left the type's method cache on freed descriptors, and a later input's error
#   message (tuple.__subclasses__('x'): the method's __qualname__) read one.  Found by
#   fuzz_gate after 71,024 inputs, reduced to three by replaying the trace in order (the
#   first only fills the cache).  Now refused for a type (eval.c), bound or passed; an
#   instance's state (5-instance) is still taken.  Before, fuzz_gate-test died at 3-clear-bound.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/targets/station-1.5.0-allow-all
F=$SRC/tests/fixtures/hostile/interp-crash
mkdir -p "$WORK/scratch"
in_order() { # folder: its inputs in one fuzz_gate-test process, from the scratch folder
  (cd "$WORK/scratch" && exec "$BIN/fuzz_gate-test" --target="$T" "$1")
}
expect_exit 0 "cpuclock: the inputs that crashed fuzz_gate, in order in one process" -- in_order "$F/cpuclock"
expect_grep "^gatecrash: 3 inputs: 3 ok, 0 rejected, 0 findings" "each ran to its end, none an escape"
expect_exit 0 "cpuclock: the same in gatecrash replay" -- "$GC" replay "$T" "$F/cpuclock"
for n in 1-cpuclock 2-cpuclock-minus; do
  expect_fgrep "$n: blocked (4 steps, 1 failed; refused by the harness: time.pthread_getcpuclockid)" "$n refused"
done
expect_grep "3-after: blocked \(4 steps, 0 failed\)" "the input after them runs normally"

expect_exit 0 "type-dict: the inputs that crashed fuzz_gate, in order in one process" -- in_order "$F/type-dict"
expect_grep "^gatecrash: 5 inputs: 5 ok, 0 rejected, 0 findings" "each ran to its end, none an escape"
expect_exit 0 "type-dict: the same in gatecrash replay" -- "$GC" replay "$T" "$F/type-dict"
for n in 2-clear 3-clear-bound; do
  expect_grep "$n: blocked \([0-9]+ steps, 1 failed; refused by the harness: object.__getstate__ of a type\)" "$n refused"
done
expect_grep "5-instance: blocked \(7 steps, 0 failed\)" "an instance's state is still taken"
# finding the next one: $GATECRASH_TRACE_INPUTS has the probe's runs too, which no input replays
need fuzz_gate || { finish; exit; }
(cd "$WORK/scratch" && GATECRASH_TRACE_INPUTS=$WORK/trace "$FUZZ" --target="$T" -runs=300 -seed=1) >"$WORK/out" 2>&1
expect_grep "Done 300 runs" "a bounded run with the trace"
grep '^probe: ' "$WORK/trace" >"$WORK/out"
expect_grep "^probe: [^ ]" "the trace has the mutator's probe runs"
finish
