#!/usr/bin/env bash
# Time to the published escape class on a historical source target:
#   bench/source-rediscover.sh TARGET SEEDS MAXTIME [BUILD]
# For each libFuzzer seed 1..SEEDS, fuzz_source runs from corpus-source/ alone (a fresh
# corpus folder, the seeds only; no dictionary file) until its first finding or MAXTIME
# seconds.  One line per seed: seed, found or not, seconds, programs run, the escape line and
# the program; then found/SEEDS and the median time (a seed not found counts as
# MAXTIME).  Logs stay in ${OUT:-/tmp/gatecrash-rediscover}/TARGET-SEED.log.  FIRST=K starts
# at seed K (two runs at a time: FIRST=1 ... 3 & FIRST=4 ... 2).  HANG=S ends a seed's run at an
# input that runs S seconds (libFuzzer's -timeout: its default, 1200 s, is the backstop when
# the per-input limit cannot stop a program); that seed is then not found.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: bench/source-rediscover.sh TARGET SEEDS MAXTIME [BUILD]} seeds=${2:?} maxtime=${3:?}
build=${4:-build} name=$(basename "$target")
out=${OUT:-/tmp/gatecrash-rediscover} && mkdir -p "$out"
venv=()
[[ -d $build/venvs/$name ]] && venv=(--venv="$build/venvs/$name")
times=() found=0
for seed in $(seq "${FIRST:-1}" $((${FIRST:-1} + seeds - 1))); do
  corpus=$out/$name-$seed.corpus log=$out/$name-$seed.log
  rm -rf "$corpus" && mkdir -p "$corpus"
  start=$(date +%s.%N)
  # (the subshell keeps bash's "Aborted" line for the finding's abort out of the table)
  ("$build/fuzz_source" --target="$target" "${venv[@]}" -seed="$seed" -max_total_time="$maxtime" ${HANG:+-timeout="$HANG"} \
    -error_exitcode=77 -artifact_prefix="$out/$name-$seed." "$corpus" corpus-source >"$log" 2>&1 || true) 2>/dev/null
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  progs=$(grep -oE 'fuzz_source on [^:]+: [0-9]+ programs' "$log" | grep -oE '[0-9]+ programs' | tail -1)
  if grep -q '^gatecrash: ESCAPE' "$log"; then
    found=$((found + 1)) times+=("$secs")
    esc=$(grep -m1 '^gatecrash: ESCAPE' "$log" | cut -d' ' -f3-5)
    prog=$(grep -m1 '^gatecrash: ESCAPE' "$log" | sed -n 's/^.* via \(.*\) (\(in\|called\) .*$/\1/p')
    printf 'seed %s: found in %.0f s, %s: %s   %s\n' "$seed" "$secs" "$progs" "$esc" "$prog"
  else
    times+=("$maxtime")
    printf 'seed %s: not found in %s s, %s\n' "$seed" "$maxtime" "$progs"
  fi
done
median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
printf '%s: found %d/%d, median %.0f s (cap %s s)\n' "$name" "$found" "$seeds" "$median" "$maxtime"
