#!/usr/bin/env bash
# Two builds of fuzz_gate on the same inputs, side by side in one run: "before and after" for a
# change that must not cost throughput (a refactor, a new Python).  Fuzzing trajectories differ
# between builds (instrumented code changes libFuzzer's corpus choices), so this replays one
# fixed input set instead: N chains made deterministically from corpus/ (one to three seed
# chains joined as statements, awk's srand(7)), each run once with -runs=0 on station-1.5.0,
# builds alternating A B A B.  Reports CPU seconds per run (user+sys, from /usr/bin/time) and
# the per-pair ratio A/B, median of PAIRS, in bench/results/compare-builds.md.
# Usage: bench/compare-builds.sh BUILD_A BUILD_B [PAIRS=10] [N=60000] [TARGET=station-1.5.0]
set -uo pipefail
cd "$(dirname "$0")/.."
a=${1:?usage: bench/compare-builds.sh BUILD_A BUILD_B [PAIRS] [N] [TARGET]} b=${2:?BUILD_B}
pairs=${3:-10} n=${4:-60000} target=${5:-station-1.5.0} root=$PWD
for d in "$a" "$b"; do [[ -x $d/fuzz_gate ]] || { echo "compare-builds: no $d/fuzz_gate" >&2; exit 2; }; done
[[ -x /usr/bin/time ]] || DEBIAN_FRONTEND=noninteractive apt-get install -y -q time >/dev/null
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
# the input set: one file per chain, the seed chains' lines joined with newlines
find corpus -maxdepth 1 -type f | sort | xargs cat | awk -v n="$n" -v dir="$work/in" '
  NF { c[m++] = $0 }
  END { srand(7); for (i = 0; i < n; i++) { k = 1 + int(rand() * 3); s = c[int(rand() * m)]
          for (j = 1; j < k; j++) s = s "\n" c[int(rand() * m)]
          f = sprintf("%s/%06d", dir, i); print s > f; close(f) } }'
one() { # BUILD -> CPU seconds of one replay of the set
  rm -rf "$work/c" "$work/s" && mkdir -p "$work/c" "$work/s"
  (cd "$work/s" && /usr/bin/time -f '%U %S' -o "$work/t" "$1/fuzz_gate" --target="$root/targets/$target" --quiet \
     --escapes=continue -runs=0 -max_len=512 "$work/c" "$work/in" >"$work/log" 2>&1)
  grep -q "inputs $((n + 1))," "$work/log" || grep -q "inputs $n," "$work/log" ||
    { echo "compare-builds: $1 did not run the $n inputs (see its log below)" >&2; tail -3 "$work/log" >&2; exit 4; }
  awk '{ printf "%.3f", $1 + $2 }' "$work/t"
}
rows=() ratios=()
for i in $(seq 1 "$pairs"); do
  ta=$(one "$a") || exit 4; tb=$(one "$b") || exit 4
  rows+=("| $i | $ta | $tb | $(awk -v x="$ta" -v y="$tb" 'BEGIN { printf "%.3f", x / y }') |")
  ratios+=("$(awk -v x="$ta" -v y="$tb" 'BEGIN { printf "%.4f", x / y }')")
done
med=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
lo=$(printf '%s\n' "${ratios[@]}" | sort -n | head -1) hi=$(printf '%s\n' "${ratios[@]}" | sort -n | tail -1)
mkdir -p bench/results
{ echo "# compare-builds: $n fixed chains on $target, $pairs pairs ($(date -u +%F))"
  echo; echo "A = $a, B = $b. CPU seconds (user+sys) per replay of the whole set, start-up included."; echo
  echo "| pair | A cpu s | B cpu s | A/B |"; echo "|---|---|---|---|"; printf '%s\n' "${rows[@]}"
  echo; echo "Median A/B: $med (range $lo-$hi)"; } >bench/results/compare-builds.md
echo "compare-builds: median CPU ratio A/B $med over $pairs pairs (range $lo-$hi); bench/results/compare-builds.md"
