#!/usr/bin/env bash
# The harness never crashes (docs/RELIABILITY.md, "The harness never crashes"): RUNS
# `fuzz_gate` runs of SECONDS each on TARGET (default the allow-everything policy, where a
# chain may call anything, so the most of CPython is reached), one seed each, JOBS
# at a time, and how many ended in a harness crash: a deadly signal, a sanitizer report, a
# `gatecrash: error` line (exit 4), libFuzzer's own out-of-memory or timeout.  An escape ends
# a run too (the engine's crash, after its ESCAPE line), and so does any other non-zero
# exit: listed, not counted.  Each run works in its own scratch folder (the
# working folder, which allow-all chains may write and empty) and records its inputs with
# $GATECRASH_TRACE_INPUTS outside it: a crash's report names the last ones (replay them in
# order with fuzz_gate-test, under ASan: BUILD_DIR=build-asan).
# Usage: bench/harness-crash.sh [RUNS=30] [SECONDS=10] [TARGET=station-1.5.0-allow-all] [JOBS=2]
#   env: BUILD_DIR (build), OUT (bench/results/harness-crash-runs), FIRST_SEED (1: seeds FIRST_SEED..+RUNS-1)
# Prints one line per run, then "harness crashes: N of RUNS"; exit 0 when N is 0, else 1.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30} secs=${2:-10} target=${3:-station-1.5.0-allow-all} jobs=${4:-2}
root=$PWD build=${BUILD_DIR:-build} out=${OUT:-bench/results/harness-crash-runs} first=${FIRST_SEED:-1}
[[ $build == /* ]] || build=$root/$build
[[ $out == /* ]] || out=$root/$out
[[ -x $build/fuzz_gate ]] || { echo "bench/harness-crash.sh: $build/fuzz_gate is not built" >&2; exit 2; }
# a sanitizer build: CPython's own allocations at exit are not leaks of ours (tests/lsan.supp)
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/lsan.supp:print_suppressions=0}

# One run: OUT/SEED/{log,trace,rc}, the engine's crash inputs in OUT/SEED/.
one() { # seed
  local d=$out/$1
  rm -rf "$d" && mkdir -p "$d/scratch"
  (cd "$d/scratch" && GATECRASH_TRACE_INPUTS=$d/trace exec nice "$build/fuzz_gate" --target="$root/targets/$target" \
     -max_total_time="$secs" -seed="$1" -artifact_prefix="$d/") >"$d/log" 2>&1
  echo $? >"$d/rc"
}

# "crash: WHAT", "escape: LINE" (a finding: fuzz_gate ends the run on it by design, the
# engine's deadly signal after its ESCAPE and DEDUP_TOKEN lines), "other: exit N", or "" for a
# run that ended as it should.
verdict() { # seed
  local d=$out/$1 rc what
  rc=$(cat "$d/rc")
  if grep -q '^DEDUP_TOKEN: ' "$d/log"; then
    echo "escape: $(grep -m1 '^gatecrash: ESCAPE' "$d/log")"
    return
  fi
  what=$(grep -m1 -oE "ERROR: ([A-Za-z]+Sanitizer|libFuzzer): [^(]*|gatecrash: error: .*" "$d/log")
  if [[ -n $what || $rc -ge 128 ]]; then
    echo "crash: ${what:-exit $rc}"
  elif [[ $rc != 0 ]]; then
    echo "other: exit $rc ($(grep -v '^[#I ]' "$d/log" | tail -1))"
  fi
}

mkdir -p "$out"
for s in $(seq "$first" $((first + runs - 1))); do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
  one "$s" &
done
wait
crashes=0 others=0
for s in $(seq "$first" $((first + runs - 1))); do
  v=$(verdict "$s")
  case $v in
    crash:*) crashes=$((crashes + 1))
             echo "seed $s: $v (last inputs: $(tail -3 "$out/$s/trace" 2>/dev/null | tr '\n' '|'))" ;;
    escape:* | other:*) others=$((others + 1)); echo "seed $s: $v" ;;
    *) echo "seed $s: ok" ;;
  esac
done
echo "harness crashes: $crashes of $runs ($target, $secs s each, seeds $first-$((first + runs - 1)), $build); escapes and other ends: $others"
((crashes == 0))
