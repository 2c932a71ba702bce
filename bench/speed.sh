#!/usr/bin/env bash
# The naive loop against gatecrash's default, side by side in one run (issue 4).
#   naive:   fuzz_gate --naive=1  (a fresh install per input, no Python-side feedback,
#            libFuzzer's byte mutations only)
#   default: fuzz_gate            (namespace reuse, Python-side features, chain mutator)
# For each target and mode, SEEDS single-process runs of SECONDS each (escapes reported
# once per signature, not as crashes), then one long default run for RSS after ~100k and
# ~1M inputs.  Writes bench/results/speed.{md,json} and bench/results/escapes-over-time.png.
# Usage: bench/speed.sh [SECONDS=60] [SEEDS=10] [BUILD_DIR=build]
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60} seeds=${2:-10} build=${3:-build}
root=$PWD
out=bench/results/speed-runs
rm -rf "$out" && mkdir -p "$out"
dpkg-query -W -f='${Status}' python3-matplotlib 2>/dev/null | grep -q "ok installed" ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-matplotlib >/dev/null
seed_inputs=$(ls "$root"/corpus/* | paste -sd,)
run() { # target mode seed
  local t=$1 mode=$2 s=$3 flags=""
  [[ $mode == naive ]] && flags="--naive=1"
  local d=$out/$t-$mode-$s
  mkdir -p "$d/scratch"
  (cd "$d/scratch" && timeout $((secs + 60)) "$root/$build/fuzz_gate" --target="$root/targets/$t" --quiet \
     --escapes=continue $flags -seed="$s" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=512 \
     -dict="$root/dict/gatecrash.dict" -seed_inputs="$seed_inputs" -print_final_stats=1) >"$d/log" 2>&1
}
jobs=()
for t in station-1.5.0 station-advisory-fix; do
  for s in $(seq 1 "$seeds"); do
    for mode in naive default; do
      run "$t" "$mode" "$s" &
      jobs+=($!)
      if ((${#jobs[@]} >= $(nproc))); then wait "${jobs[0]}"; jobs=("${jobs[@]:1}"); fi
    done
  done
done
wait
# memory: one long default run per target, rss at the 2^17 and 2^20 pulses
for t in station-1.5.0 station-advisory-fix; do
  d=$out/$t-rss && mkdir -p "$d/scratch"
  (cd "$d/scratch" && "$root/$build/fuzz_gate" --target="$root/targets/$t" --quiet --escapes=continue -seed=1 \
     -runs=1100000 -timeout=10 -max_len=512 -dict="$root/dict/gatecrash.dict" -seed_inputs="$seed_inputs") \
     >"$d/log" 2>&1
done
/usr/bin/python3.11 bench/speed_report.py "$out" "$secs" "$seeds"
