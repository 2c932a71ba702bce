#!/usr/bin/env bash
# Do a campaign's crash inputs reproduce in a fresh process?  For each seed: one
# `gatecrash fuzz TARGET --time SECONDS --seed N`, then every crash input it wrote is replayed
# alone in a new `gatecrash replay` process: its recorded resolved chain
# (`<crash folder>/resolved/<sha1 of the input>`, docs/TRIAGE.md) when there is one, else its
# raw bytes (--raw).  Where there is a resolved chain the raw bytes are replayed too, to count
# the inputs whose bytes alone would not have reproduced.  Prints one line per seed and a
# total; the runs stay in OUT (OUT/seed-N.fresh: every replay, and each input that did not
# reproduce).  Usage: bench/reproduce.sh BUILD_DIR TARGET_DIR SECONDS "SEEDS" OUT
# RUNS=N in the environment bounds each campaign by inputs instead (--runs N: one process
# that records each new escape and goes on, the same inputs whatever the machine's load).
set -euo pipefail
build=$(realpath "$1"); target=$(realpath "$2"); seconds=$3; seeds=$4; out=$5
mkdir -p "$out"; out=$(realpath "$out")
replay() { # replay ARGS... -> 0 when it escaped (exit 1)
  local rc=0
  nice "$build/gatecrash" replay "$target" -q "$@" >>"$run.fresh" 2>&1 || rc=$?
  [[ $rc -eq 1 ]]
}
total=0; total_ok=0; total_resolved=0; total_raw_bad=0
for seed in $seeds; do
  run="$out/seed-$seed"
  rm -rf "$run"
  nice "$build/gatecrash" fuzz "$target" --time "$seconds" --seed "$seed" ${RUNS:+--runs "$RUNS"} --out "$run" \
    >"$run.summary" 2>"$run.log" || true
  n=0; ok=0; resolved=0; raw_bad=0
  : >"$run.fresh"
  for f in "$run"/crashes/crash-*; do
    [[ -e $f ]] || continue
    n=$((n + 1))
    side="$run/crashes/resolved/$(sha1sum <"$f" | cut -d' ' -f1)"
    if [[ -f $side ]]; then
      resolved=$((resolved + 1))
      replay --raw "$f" || raw_bad=$((raw_bad + 1))
      args=("$side")
    else
      args=(--raw "$f")
    fi
    if replay "${args[@]}"; then ok=$((ok + 1)); else echo "NOT REPRODUCED: $f" >>"$run.fresh"; fi
  done
  execs=$(grep -o 'execs [0-9]*' "$run.log" | tail -1 || true)
  summary=$(grep -m1 'escape input' "$run.summary" || true)
  echo "seed $seed: $n crash input(s), $ok reproduce in a fresh process ($resolved by their resolved chain; raw bytes alone: $((resolved - raw_bad)) of $resolved); $execs; campaign: $summary"
  total=$((total + n)); total_ok=$((total_ok + ok)); total_resolved=$((total_resolved + resolved))
  total_raw_bad=$((total_raw_bad + raw_bad))
done
echo "total: $total crash input(s), $total_ok reproduce in a fresh process ($total_resolved by their resolved chain, whose raw bytes alone would not reproduce for $total_raw_bad)"
