#!/usr/bin/env bash
# Interpreter wreckers: every hostile chain in fixtures/hostile/state-chains is followed by
# probe(), which escapes (hands out a real network primitive) exactly when some state the
# hostile chain wrecked was carried into the next input (fixtures/hostile/state).  Each
# wrecker must be refused by the harness, or detected after the input and repaired.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/hostile/state
CH=$SRC/tests/fixtures/hostile/state-chains
printf 'probe()\n' >"$WORK/probe.chain"
args=()
n=0
for f in "$CH"/*.chain; do args+=("$f" "$WORK/probe.chain"); n=$((n + 1)); done
[[ $n -ge 25 ]] && ok || fail "hostile chains missing ($n)"

# sanity: the probe does escape when state differs (a wrecker inside the same input)
printf '%s\n' "__builtins__['__import__']('os').environ._data.clear()" "probe()" >"$WORK/same-input.chain"
expect_exit 1 "probe() sees damage done earlier in the same input" -- "$GC" replay -q "$T" "$WORK/same-input.chain"

# 1. the tools: one process replays hostile, probe, hostile, probe, ...
expect_exit 5 "no hostile chain's damage reaches the next input (replay; thread-gate's limit: inconclusive)" -- "$GC" replay -q "$T" "${args[@]}"
expect_count "$n" "probe.chain: blocked" "every probe after a hostile chain is blocked"
expect_no_grep "ESCAPE" "nothing escapes"
for name in modules-clear modules-replace environ-data environ-attr environ-dict delattr setattr module-key gate-globals \
            gate-cache gate-items gate-proxy gate-settings gate-class warnings set-clear signal-gate signal-mask \
            thread-gate; do
  expect_grep "$name.chain: note: interpreter state changed by the chain and repaired" "$name is detected and repaired"
done
expect_fgrep "gate-settings.chain: note: interpreter state changed by the chain and repaired: state_gate._SETTINGS" \
  "an instance attribute is put back"
# sys.monitoring (3.12+): a tool a chain claims, and the one _lsprof.Profiler().enable() claims
# before its register_callback is refused, are freed
if [[ $PYVER != 3.11 ]]; then
  for name in monitoring setprofile; do
    expect_fgrep "$name.chain: note: interpreter state changed by the chain and repaired: sys.monitoring tool" \
      "$name: the monitoring tool is removed"
  done
fi
for name in recursionlimit setprofile gc-disable gc-freeze environ-set chdir umask signal signal-c thread open-fd fdopen; do
  expect_grep "$name.chain: blocked .*refused by the harness" "$name is refused"
done
expect_fgrep "thread-gate.chain: note: interpreter state changed by the chain and repaired: threads stopped" "a gate thread is stopped"
expect_fgrep "thread-gate.chain: LIMIT thread (not an escape)" "a gate thread left running is a limit"
expect_fgrep "gc-freeze-gate.chain: note: interpreter state changed by the chain and repaired: gc frozen" "gate code's gc.freeze is undone"
expect_fgrep "signal-c.chain: blocked (5 steps, 1 failed; refused by the harness: _signal.signal)" "_signal.signal refused"

# A class attribute set by stdlib code a chain runs raises no audit event (copyreg caches
# __slotnames__ on the class when __getstate__ runs): the class is put back after the input,
# or `.#K` would name other attributes of its instances in later inputs.
printf 'diagnostics.__getstate__()\n' >"$WORK/slot1.chain"
printf "diagnostics.__class__.__dict__['__slotnames__']\n" >"$WORK/slot2.chain"
expect_exit 0 "a class changed by stdlib code" -- "$GC" replay "$SRC/tests/fixtures/backstop" "$WORK/slot1.chain" "$WORK/slot2.chain"
expect_fgrep "repaired: leaky_gate._Diagnostics" "the class is repaired"
expect_grep "slot2.chain: blocked \(4 steps, 1 failed\)" "the next input does not see the cached attribute"

need fuzz_gate || { finish; exit; }
# 2. the fuzzer: the same inputs, in this order, in one fuzz_gate process (namespace reuse on)
mkdir -p "$WORK/scratch"
(cd "$WORK/scratch" && "$FUZZ" --target="$T" "${args[@]}") >"$WORK/out" 2>&1
rc=$?
[[ $rc -eq 0 ]] && ok || { fail "fuzz_gate over hostile, probe, ...: exit $rc"; grep -E "ESCAPE|error" "$WORK/out" | head -5 >&2; }
expect_no_grep "ESCAPE" "fuzz_gate: no probe escapes"
expect_grep "gatecrash: stats: inputs [0-9]+, chains run [0-9]+, .* state repairs [1-9]" "fuzz_gate ran the inputs and repaired state"
expect_count $((2 * n)) "^Running: " "fuzz_gate ran every input"

# 3. a bounded fuzzing run seeded with the hostile chains and the probe (largest, so it runs
#    after them); escapes are reported, not crashes, and the probe's must never appear
mkdir -p "$WORK/corpus"
cp "$CH"/*.chain "$WORK/corpus/"
{ printf 'probe()\n'; for i in $(seq 1 20); do printf '# the seed corpus runs smallest first: this probe runs last\n'; done; } >"$WORK/corpus/zz-probe"
(cd "$WORK/scratch" && "$FUZZ" --target="$T" --escapes=continue -runs=400 -seed=1 "$WORK/corpus") >"$WORK/out" 2>&1
rc=$?
[[ $rc -eq 0 ]] && ok || { fail "bounded fuzz_gate run: exit $rc"; tail -5 "$WORK/out" >&2; }
expect_no_grep "NEW-ESCAPE .* via probe\(\)" "the probe never escapes while fuzzing"
expect_grep "gatecrash: stats: .* state repairs [1-9]" "the run repaired state"
finish
