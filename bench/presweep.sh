#!/usr/bin/env bash
# The campaign's opening sweep against the standalone sweep: for each target,
# `gatecrash sweep --depth 8` once (its holes: what the campaign must have), then a
# SECONDS-s `gatecrash fuzz` per seed; the time at which every one of those holes is in
# the campaign's table is the latest of their first rows in OUT/finds.tsv (seconds since
# the campaign started, its sweep included).  A target whose sweep finds no hole has
# nothing to wait for ("-"); a hole the campaign never showed is named as missing.
# Writes bench/results/presweep-runs/<target>/<seed>/ and bench/results/presweep.md.
# Usage: bench/presweep.sh [SECONDS=10] [SEEDS="1 2 3 4 5"] [TARGETS=the bundled gate targets and constants-deep]
#   env: BUILD_DIR (build), OUT (bench/results/presweep-runs), REPORT (bench/results/presweep.md)
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10} seeds=${2:-"1 2 3 4 5"}
targets=${3:-"station-1.5.0 station-advisory-fix station-hardened audit-gate station-1.5.0-allow-all constants-only lookup-hard constants-deep"}
root=$PWD build=${BUILD_DIR:-build} out=${OUT:-bench/results/presweep-runs} report=${REPORT:-bench/results/presweep.md}
[[ $build == /* ]] || build=$root/$build
[[ $out == /* ]] || out=$root/$out
[[ -x $build/gatecrash ]] || BUILD_DIR=$build bash ci/build.sh || exit 2
GC=$build/gatecrash

# The holes of a `sweep --by hole` table (stdout), one a line.
table_holes() {
  awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ && ($4 == "yes" || $4 == "no") {
         h = $0; sub(/^[^ ]+ +[0-9]+ +[0-9]+ +(yes|no) +((held|returned|exception|yes|NO|unknown|-) +)?/, "", h); print h }' "$1"
}

# The time all of 'holes' (a file, one a line) are in finds.tsv: "T", or "missing: H; H".
all_in() { # holes finds.tsv
  awk -F'\t' 'FILENAME == ARGV[1] { want[$0] = 1; n++; next }
              ($3 in want) && !($3 in first) { first[$3] = $1 }
              END { if (n == 0) { print "-"; exit }
                    t = 0; miss = ""
                    for (h in want) { if (!(h in first)) miss = miss (miss == "" ? "" : "; ") h
                                      else if (first[h] + 0 > t) t = first[h] + 0 }
                    if (miss != "") print "missing: " miss; else printf "%.2f\n", t }' "$1" "$2"
}

rows=()
for t in $targets; do
  d=$out/$t
  rm -rf "$d" && mkdir -p "$d"
  t0=$(date +%s.%N)
  "$GC" sweep "targets/$t" --depth 8 -q >"$d/sweep.txt" 2>"$d/sweep.err"
  swall=$(echo "$(date +%s.%N) - $t0" | bc)
  table_holes "$d/sweep.txt" >"$d/holes"
  nholes=$(wc -l <"$d/holes")
  cells=() worst=0 bad=0 within2=0
  for s in $seeds; do
    "$GC" fuzz "targets/$t" --time "$secs" --seed "$s" --out "$d/$s" >"$d/$s.txt" 2>"$d/$s.err"
    touch "$d/$s/finds.tsv"
    c=$(all_in "$d/holes" "$d/$s/finds.tsv")
    depth=$(sed -n 's/^\[sweep\] depth \([0-9]*\) of .* complete in \([0-9.]*\)s.*/\1 in \2s/p' "$d/$s.err")
    cells+=("$c (depth ${depth:-?})")
    case $c in
    -) within2=$((within2 + 1)) ;;
    missing*) bad=$((bad + 1)) ;;
    *) [[ $(echo "$c > $worst" | bc) == 1 ]] && worst=$c
       [[ $(echo "$c <= 2" | bc) == 1 ]] && within2=$((within2 + 1)) ;;
    esac
    echo "presweep.sh: $t seed $s: every sweep hole in the table at $c (opening sweep to depth ${depth:-?})" >&2
  done
  n=$(wc -w <<<"$seeds")
  rows+=("| $t | $nholes | $(printf '%.2f' "$swall") | $(IFS='|'; echo "${cells[*]}" | sed 's/|/ · /g') | $([[ $nholes -eq 0 ]] && echo - || echo "$worst") | $within2/$n |")
done

{
  echo "# The opening sweep: when every hole of a depth-8 sweep is in the campaign's table"
  echo
  echo "\`bash bench/presweep.sh $secs \"$seeds\"\` on $(date -u +%Y-%m-%d), $(nproc) cores, $("$GC" --version | head -1)."
  echo "Per seed: seconds since the campaign started (sweep included) at which the last of the"
  echo "standalone sweep's holes entered the table (OUT/finds.tsv), and how deep the opening sweep went in how long."
  echo
  echo "| target | holes (sweep --depth 8) | sweep --depth 8 wall s | per seed: all in at s (opening sweep) | worst s | seeds within 2 s |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} >"$report"
cat "$report"
