#!/usr/bin/env bash
# The program language's escape classes, each on its fixture sandbox (tests/fixtures/lang/):
# time to the class by fuzzing alone from the generic seeds, SEEDS seeds of at most MAXTIME
# seconds each (bench/source-rediscover.sh for each class, niced).
#   bench/lang-rediscover.sh [SEEDS] [MAXTIME] [BUILD]    (default 5 seeds, 300 s; CLASSES="a b" for some)
# One line a seed and a summary a class (found/SEEDS, median seconds, a seed not found counting
# as MAXTIME), then a table of the summaries; the logs stay in ${OUT:-/tmp/gatecrash-lang}.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-5} maxtime=${2:-300} build=${3:-build}
export OUT=${OUT:-/tmp/gatecrash-lang}
export HANG=${HANG:-60} # a finalizer chain past the time limit can hang an input (source-rediscover.sh)
summaries=()
mkdir -p "$OUT"
for class in ${CLASSES:-nested-import loaded-import stored-callable match-class host-dunder split-constant node-tamper}; do
  echo "== $class"
  nice bash bench/source-rediscover.sh "tests/fixtures/lang/$class" "$seeds" "$maxtime" "$build" | tee "$OUT/$class.txt"
  summaries+=("$(tail -1 "$OUT/$class.txt")")
done
printf '\n| class | found | median |\n|---|---|---|\n'
for s in "${summaries[@]}"; do
  sed -E 's/^([^:]+): found ([0-9]+\/[0-9]+), median ([0-9]+ s) \(cap ([0-9]+ s)\)$/| \1 | \2 | \3 (cap \4) |/' <<<"$s"
done
