#!/usr/bin/env bash
# The naive loop against gatecrash's default, side by side in one run.
#   naive:   fuzz_gate --naive=1  (a fresh install per input, no Python-side feedback,
#            libFuzzer's byte mutations only)
#   default: fuzz_gate            (namespace reuse, Python-side features, chain mutator)
# 1. For station-1.5.0 and station-advisory-fix, SEEDS single-process runs of SECONDS per
#    mode (escapes reported once per signature, not as crashes), two runs at a time.
# 2. One naive run of NAIVE_LONG seconds per target (both at once): the signatures it finds
#    are the ones the default mode must find.
# 3. One default run per target of 1.1M inputs: RSS at libFuzzer's 2^17 and 2^20 pulses.
# 4. targets/constants-only (escapes need 4+ steps): HARD_SEEDS default runs of HARD_SECONDS.
# Writes bench/results/speed.{md,json} and bench/results/escapes-over-time.png.
# PYTHON=/path/to/python3.X builds BUILD_DIR with that CPython when it is not built yet
# (ci/build.sh); bench/speed-pythons.sh compares the supported versions in one run.
# With the defaults it takes about 40 minutes on 2 cores.
# Usage: bench/speed.sh [SECONDS=60] [SEEDS=10] [BUILD_DIR=build] [NAIVE_LONG=600] [HARD_SECONDS=120] [HARD_SEEDS=5]
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60} seeds=${2:-10} build=${3:-build} naive_long=${4:-600} hard_secs=${5:-120} hard_seeds=${6:-5}
root=$PWD
[[ $build == /* ]] || build=$root/$build
[[ -x $build/fuzz_gate ]] || { bash ci/install-deps.sh && BUILD_DIR=$build bash ci/build.sh; } || exit 2
out=bench/results/speed-runs
rm -rf "$out" && mkdir -p "$out"
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-matplotlib >/dev/null
seed_inputs=$(find "$root/corpus" -maxdepth 1 -type f | sort | paste -sd,)
common=(--quiet --escapes=continue -timeout=10 -rss_limit_mb=4096 -max_len=512 -dict="$root/dict/gatecrash.dict"
        -seed_inputs="$seed_inputs" -print_final_stats=1)
run() { # dir target seconds seed flags...
  local d=$1 t=$2 s=$3 seed=$4
  shift 4
  mkdir -p "$d/scratch"
  (cd "$d/scratch" && timeout $((s + 120)) "$build/fuzz_gate" --target="$root/targets/$t" "${common[@]}" \
     -seed="$seed" -max_total_time="$s" "$@") >"$d/log" 2>&1
}
jobs=()
slot() { jobs+=($!); if ((${#jobs[@]} >= 2)); then wait "${jobs[0]}"; jobs=("${jobs[@]:1}"); fi; }
for t in station-1.5.0 station-advisory-fix; do
  for s in $(seq 1 "$seeds"); do
    run "$out/$t-naive-$s" "$t" "$secs" "$s" --naive=1 & slot
    run "$out/$t-default-$s" "$t" "$secs" "$s" & slot
  done
done
wait; jobs=()
for t in station-1.5.0 station-advisory-fix; do
  run "$out/$t-naive-long" "$t" "$naive_long" 1 --naive=1 & slot
done
wait; jobs=()
for t in station-1.5.0 station-advisory-fix; do # memory: rss at the 2^17 and 2^20 pulses
  d=$out/$t-rss && mkdir -p "$d/scratch"
  (cd "$d/scratch" && "$build/fuzz_gate" --target="$root/targets/$t" "${common[@]}" -seed=1 -runs=1100000) \
     >"$d/log" 2>&1 & slot
done
wait; jobs=()
for s in $(seq 1 "$hard_seeds"); do
  run "$out/constants-only-default-$s" constants-only "$hard_secs" "$s" & slot
done
wait
/usr/bin/python3 bench/speed_report.py "$out" "$secs" "$seeds" "$naive_long" "$hard_secs" "$hard_seeds"
