#!/usr/bin/env bash
# Two builds of fuzz_gate side by side in one run, one at a time, builds alternating A B A B.
#
# Replay (the default): "before and after" for a change that must not cost throughput (a
# refactor, a new Python).  Fuzzing trajectories differ between builds (instrumented code
# changes libFuzzer's corpus choices), so this replays one fixed input set: N chains made
# deterministically from corpus/ (one to three seed chains joined as statements, awk's
# srand(7)), each run once with -runs=0.  Reports CPU seconds per run (user+sys, from
# /usr/bin/time) and the per-pair ratio A/B, median of PAIRS, in
# bench/results/compare-builds.md.  Reading each input's file is a large part of it.
#
# --fuzz SECS: execs/s as a campaign sees it, mutation and the mutator's probes included.
# Each pair runs A then B for SECS seconds from corpus/ with seed = pair; the figure is the
# inputs each run ran, the ratio B/A, median of PAIRS, in bench/results/fuzz-rate.md (what a
# run explores decides what an input costs, so read the median, not one pair).  A run that
# ends early (an input that crashes the interpreter: the allow-all target lets a chain call
# anything) leaves its log in bench/results/fuzz-rate-failed-BUILD-SEED.log, and its pair out.
#
# Usage: bench/compare-builds.sh [--fuzz SECS] BUILD_A BUILD_B [PAIRS=10] [N=60000] [TARGET=station-1.5.0]
set -uo pipefail
cd "$(dirname "$0")/.."
secs=0
[[ ${1:-} == --fuzz ]] && { secs=${2:?--fuzz SECS}; shift 2; }
a=${1:?usage: bench/compare-builds.sh [--fuzz SECS] BUILD_A BUILD_B [PAIRS] [N] [TARGET]} b=${2:?BUILD_B}
pairs=${3:-10} n=${4:-60000} target=${5:-station-1.5.0} root=$PWD
for d in "$a" "$b"; do [[ -x $d/fuzz_gate ]] || { echo "compare-builds: no $d/fuzz_gate" >&2; exit 2; }; done
a=$(realpath "$a") b=$(realpath "$b") # the runs start in a scratch folder
[[ -x /usr/bin/time ]] || DEBIAN_FRONTEND=noninteractive apt-get install -y -q time >/dev/null
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in" bench/results
# the input set: one file per chain, the seed chains' lines joined with newlines
((secs)) || find corpus -maxdepth 1 -type f | sort | xargs cat | awk -v n="$n" -v dir="$work/in" '
  NF { c[m++] = $0 }
  END { srand(7); for (i = 0; i < n; i++) { k = 1 + int(rand() * 3); s = c[int(rand() * m)]
          for (j = 1; j < k; j++) s = s "\n" c[int(rand() * m)]
          f = sprintf("%s/%06d", dir, i); print s > f; close(f) } }'
replay() { # BUILD -> CPU seconds of one replay of the set
  rm -rf "$work/c" "$work/s" && mkdir -p "$work/c" "$work/s"
  (cd "$work/s" && /usr/bin/time -f '%U %S' -o "$work/t" "$1/fuzz_gate" --target="$root/targets/$target" --quiet \
     --escapes=continue -runs=0 -max_len=512 "$work/c" "$work/in" >"$work/log" 2>&1)
  grep -q "inputs $((n + 1))," "$work/log" || grep -q "inputs $n," "$work/log" ||
    { echo "compare-builds: $1 did not run the $n inputs (see its log below)" >&2; tail -3 "$work/log" >&2; exit 4; }
  awk '{ printf "%.3f", $1 + $2 }' "$work/t"
}
fuzz() { # BUILD SEED -> inputs run in SECS; 1 when the run ended early
  rm -rf "$work/c" "$work/s" && mkdir -p "$work/c" "$work/s" && cp corpus/* "$work/c/"
  (cd "$work/s" && "$1/fuzz_gate" --target="$root/targets/$target" --quiet --escapes=continue -seed="$2" \
     -max_total_time="$secs" -max_len=512 "$work/c" >"$work/log" 2>&1)
  grep -a -o 'stats: inputs [0-9]*' "$work/log" | grep -o '[0-9]*$' && return
  local f=bench/results/fuzz-rate-failed-$(basename "$1")-$2.log
  cp "$work/log" "$f"
  { echo "compare-builds: $1 seed $2 ended early (this pair is left out); its log: $f"
    grep -a -m2 -E 'ERROR|gatecrash: (error|fatal)' "$work/log"; } >&2
  return 1
}
rows=() ratios=()
for i in $(seq 1 "$pairs"); do
  if ((secs)); then
    va=$(fuzz "$a" "$i") && vb=$(fuzz "$b" "$i") || { rows+=("| $i | ended early (bench/results/fuzz-rate-failed-*-$i.log) | | |"); continue; }
    num=$vb den=$va
  else
    va=$(replay "$a") || exit 4; vb=$(replay "$b") || exit 4; num=$va den=$vb
  fi
  ratios+=("$(awk -v x="$num" -v y="$den" 'BEGIN { printf "%.3f", x / y }')")
  rows+=("| $i | $va | $vb | ${ratios[-1]} |")
done
sorted=$(printf '%s\n' "${ratios[@]}" | sort -n)
med=$(awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }' <<<"$sorted")
range="$(head -1 <<<"$sorted")-$(tail -1 <<<"$sorted")"
if ((secs)); then
  out=bench/results/fuzz-rate.md what="inputs run in $secs s from corpus/, seed = pair" cols="| seed | A inputs | B inputs | B/A |" r=B/A
  title="fuzz_gate fuzzing $target, $pairs pairs of $secs s"
else
  out=bench/results/compare-builds.md what="CPU seconds (user+sys) per replay of the whole set, start-up included" cols="| pair | A cpu s | B cpu s | A/B |" r=A/B
  title="$n fixed chains on $target, $pairs pairs"
fi
{ echo "# compare-builds: $title ($(date -u +%F))"
  echo; echo "A = $a, B = $b. $what."; echo
  echo "$cols"; echo "|---|---|---|---|"; printf '%s\n' "${rows[@]}"
  echo; echo "Median $r: $med (range $range)"; } >"$out"
echo "compare-builds: median ratio $r $med over $pairs pairs (range $range); $out"
