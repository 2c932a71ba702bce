#!/usr/bin/env bash
# The real PyPI sandboxes, each through its documented front door with its defaults: how many
# seeds' campaigns find the sandbox's escape class unaided (generic seeds: corpus-source/ and
# the opening sweep from the adapter's roots; no fixture, no dictionary of payloads), and when.
#   bench/real-sandboxes.sh SEEDS MAXTIME [BUILD] [TARGET...]
# Default targets and the class each is looked for by (a hole of OUT/finds.tsv, docs/HOLES.md):
#   smolagents-1.20.0  agent state (an executor's variables kept from one code action to the
#                      next, "steps"): type . __subclasses__() (its advisory's class)
#   smolagents         the same, each program in the executor's worker thread under its timeout:
#                      function . __globals__ (builtins read back through a format field)
#   mcp-use            code mode, each program on an asyncio event loop under asyncio.wait_for's
#                      timeout: function . __globals__ (the published route: object's subclasses,
#                      a function's __globals__, its __import__)
# For each seed 1..SEEDS, `gatecrash fuzz TARGET --time MAXTIME --seed K`, ended (its process
# group, which this script started) as soon as a row of its finds.tsv names the class.  One
# line per seed: found or not, the second of the campaign at which the class entered the
# table, by the sweep or the engine, and the first find whatever its class; then found/SEEDS
# and the median (a seed not found counts as MAXTIME).  Runs one campaign at a time, under
# nice.  Folders stay in ${OUT:-/tmp/gatecrash-real}/TARGET-SEED.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:?usage: bench/real-sandboxes.sh SEEDS MAXTIME [BUILD] [TARGET...]} maxtime=${2:?}
build=${3:-build}
shift $(($# < 3 ? $# : 3))
targets=("$@")
((${#targets[@]})) || targets=(smolagents-1.20.0 smolagents mcp-use)
out=${OUT:-/tmp/gatecrash-real} && mkdir -p "$out"

class_of() {
  case $1 in
    smolagents-1.20.0) echo 'type \. __subclasses__\(\)' ;;
    *) echo 'function \. __globals__' ;;
  esac
}

# campaign NAME SEED: one campaign, ended at the class's first row; prints "SECONDS BY" or nothing
campaign() {
  local name=$1 seed=$2 dir=$out/$1-$2 class pid t0 row
  class=$(class_of "$name") && rm -rf "$dir" && mkdir -p "$dir"
  setsid nice "$build/gatecrash" fuzz "targets/$name" --venv "$build/venvs/$name" --time "$maxtime" \
    --seed "$seed" --out "$dir" >"$dir.log" 2>&1 &
  pid=$! t0=$(date +%s)
  while kill -0 "$pid" 2>/dev/null; do
    row=$(awk -F'\t' -v re="$class" '$3 ~ re {print $1, $2; exit}' "$dir/finds.tsv" 2>/dev/null || true)
    if [[ -n $row ]]; then
      kill -TERM -- "-$pid" 2>/dev/null || true
      break
    fi
    (($(date +%s) - t0 > maxtime + 120)) && { kill -KILL -- "-$pid" 2>/dev/null || true; break; }
    sleep 1
  done
  wait "$pid" 2>/dev/null || true
  awk -F'\t' -v re="$class" '$3 ~ re {print $1, $2; exit}' "$dir/finds.tsv" 2>/dev/null || true
}

for name in "${targets[@]}"; do
  [[ -d $build/venvs/$name ]] || { echo "$name: no venv (bash ci/target-venv.sh targets/$name)"; continue; }
  times=() found=0
  for seed in $(seq 1 "$seeds"); do
    res=$(campaign "$name" "$seed")
    first=$(head -1 "$out/$name-$seed/finds.tsv" 2>/dev/null | cut -f1-3 | tr '\t' ' ')
    if [[ -n $res ]]; then
      found=$((found + 1)) times+=("${res%% *}")
      printf '%s seed %s: the class at %s s by the %s (first find: %s)\n' "$name" "$seed" "${res%% *}" "${res#* }" "${first:-none}"
    else
      times+=("$maxtime")
      printf '%s seed %s: the class not found in %s s (first find: %s)\n' "$name" "$seed" "$maxtime" "${first:-none}"
    fi
  done
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
  printf '%s: class /%s/ found in %d/%d seeds, median %s s (campaigns of at most %s s)\n' \
    "$name" "$(class_of "$name")" "$found" "$seeds" "$median" "$maxtime"
done
