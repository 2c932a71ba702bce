#!/usr/bin/env bash
# Time to the published escape class with the whole campaign (the source sweep first, then
# fuzz_source from its frontier and corpus-source/), beside bench/source-rediscover.sh
# (fuzz_source alone):
#   bench/source-campaign.sh TARGET SEEDS SECONDS [BUILD]
# For each seed 1..SEEDS, `gatecrash fuzz TARGET --time SECONDS --seed K`; one line per seed:
# the first row of OUT/finds.tsv (seconds since the campaign started, found by the sweep or
# the engine, its signature), the distinct escapes of the table and the exit code; then
# found/SEEDS and the median time to the first find.  Output folders stay in
# ${OUT:-/tmp/gatecrash-campaign}/TARGET-SEED.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: bench/source-campaign.sh TARGET SEEDS SECONDS [BUILD]} seeds=${2:?} secs=${3:?}
build=${4:-build} name=$(basename "$target")
out=${OUT:-/tmp/gatecrash-campaign} && mkdir -p "$out"
venv=()
[[ -d $build/venvs/$name ]] && venv=(--venv "$build/venvs/$name")
times=() found=0
for seed in $(seq 1 "$seeds"); do
  dir=$out/$name-$seed && rm -rf "$dir"
  rc=0
  "$build/gatecrash" fuzz "$target" "${venv[@]}" --time "$secs" --seed "$seed" --out "$dir" >"$dir.log" 2>&1 || rc=$?
  distinct=$(grep -oE '[0-9]+ distinct escape\(s\)' "$dir.log" | tail -1)
  if [[ -s $dir/finds.tsv ]]; then
    found=$((found + 1))
    IFS=$'\t' read -r t by _hole sig _ <"$dir/finds.tsv"
    times+=("$t")
    printf 'seed %s: first find at %s s by the %s: %s; %s; exit %s\n' "$seed" "$t" "$by" "$sig" "$distinct" "$rc"
  else
    times+=("$secs")
    printf 'seed %s: nothing in %s s; exit %s\n' "$seed" "$secs" "$rc"
  fi
done
median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
printf '%s: found %d/%d, median %s s to the first find (campaigns of %s s)\n' "$name" "$found" "$seeds" "$median" "$secs"
