#!/usr/bin/env bash
# --jobs N against --jobs 1: the same SECONDS-s campaign on each target,
# one with one libFuzzer job and one with N (libFuzzer's -fork=N), run one after the other
# (side by side they would share the cores they are measuring), the opening sweep off so
# that only the engine is counted; the inputs each ran (its last progress line's "execs") and
# the ratio.  A ratio is the figure: absolute rates depend on the machine's load.
# Usage: bench/jobs.sh [SECONDS=30] [N=2] [TARGETS="station-1.5.0-allow-all station-1.5.0 simpleeval-1.0.4"]
#   env: BUILD_DIR (build), OUT (a temporary folder)
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30} jobs=${2:-2} targets=${3:-"station-1.5.0-allow-all station-1.5.0 simpleeval-1.0.4"}
build=${BUILD_DIR:-build}
[[ -x $build/gatecrash ]] || BUILD_DIR=$build bash ci/build.sh || exit 2
out=${OUT:-$(mktemp -d)} && mkdir -p "$out"
execs() { # the last "(done)" line's execs of a campaign's stderr
  sed -n 's/^\[ *[0-9]*s\] execs \([0-9]*\) .*(done)$/\1/p' "$1" | tail -1
}
printf '| target | --jobs 1 execs | --jobs %s execs | ratio |\n|---|---|---|---|\n' "$jobs"
for t in $targets; do
  [[ -f targets/$t/requirements.txt ]] && bash ci/target-venv.sh "targets/$t" >/dev/null
  for j in 1 "$jobs"; do
    "$build/gatecrash" fuzz "targets/$t" --time "$secs" --jobs "$j" --seed 1 --no-sweep-seed \
      --out "$out/$t-$j" >/dev/null 2>"$out/$t-$j.log"
  done
  a=$(execs "$out/$t-1.log") b=$(execs "$out/$t-$jobs.log")
  ratio=$(awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }')
  printf '| %s | %s | %s | %s |\n' "$t" "${a:--}" "${b:--}" "$ratio"
done
