#!/usr/bin/env bash
# The hybrid against its halves, per target and mode, over seeds:
#   sweep   gatecrash sweep --depth 5 (deterministic: run once; its escapes come at its end)
#   fuzz    gatecrash fuzz --no-sweep-seed --no-harvest (calls get no harvested arguments)
#   hybrid  gatecrash fuzz (the default: the sweep's escapes and frontier first, then the
#           engine with harvested call arguments)
# Each campaign is one libFuzzer job for SECONDS, nice'd, at most PAR at a time; the time to
# each hole is when its first row entered the campaign's table (OUT/finds.tsv, seconds since
# the campaign started, sweep included).  STOP="hole|hole" ends a campaign once it has all of
# those holes (what it measures is found: the rest of its time would show nothing).
# Writes bench/results/hybrid-runs/<target>/<mode>-<SECONDS>s-<seed>/ and, through
# bench/hybrid_report.py, bench/results/hybrid.md and bench/results/hybrid.png.
# After each campaign its crash inputs are triaged (gatecrash triage: each confirmed in a fresh
# process) into <run>/cases, and meta.tsv gets the count that did not reproduce.
# Usage: bench/hybrid.sh [SECONDS=120] [SEEDS="1 2 3 4 5"] [TARGETS=...] [MODES="sweep fuzz hybrid"]
#        bench/hybrid.sh replay   (only the triage, of every run in OUT that has none yet)
#   env: BUILD_DIR (build), PAR (2), STOP (none), OUT (bench/results/hybrid-runs), REPORT (1),
#        TRIAGE (1; 0: no triage after each campaign, `bench/hybrid.sh replay` does it later)
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-120} seeds=${2:-"1 2 3 4 5"}
targets=${3:-"station-1.5.0 station-advisory-fix constants-only lookup-hard"}
modes=${4:-"sweep fuzz hybrid"}
root=$PWD build=${BUILD_DIR:-build} par=${PAR:-2} stop=${STOP:-} out=${OUT:-bench/results/hybrid-runs}
[[ $build == /* ]] || build=$root/$build
[[ $out == /* ]] || out=$root/$out
[[ -x $build/gatecrash ]] || BUILD_DIR=$build bash ci/build.sh || exit 2
GC=$build/gatecrash

# all of STOP's holes are in finds.tsv
found_all() {
  local f=$1 h
  [[ -n $stop && -f $f ]] || return 1
  IFS='|' read -ra hs <<<"$stop"
  for h in "${hs[@]}"; do cut -f3 "$f" | grep -qxF -- "$h" || return 1; done
}

campaign() { # target mode seed dir
  local t=$1 mode=$2 seed=$3 d=$4 flags=()
  [[ $mode == fuzz ]] && flags=(--no-sweep-seed --no-harvest)
  rm -rf "$d" && mkdir -p "$d"
  local t0=$(date +%s.%N)
  setsid nice -n 10 "$GC" fuzz "targets/$t" --time "$secs" --seed "$seed" --out "$d/out" "${flags[@]}" \
    >"$d/stdout" 2>"$d/stderr" &
  local pid=$! stopped=0
  while kill -0 "$pid" 2>/dev/null; do
    if found_all "$d/out/finds.tsv"; then
      kill -TERM -- "-$pid" 2>/dev/null
      stopped=1
      break
    fi
    sleep 1
  done
  wait "$pid"
  local rc=$?
  printf 'target\t%s\nmode\t%s\nseed\t%s\nseconds\t%s\nwall\t%s\nstopped_early\t%s\nexit\t%s\n' "$t" "$mode" \
    "$seed" "$secs" "$(echo "$(date +%s.%N) - $t0" | bc)" "$stopped" "$rc" >"$d/meta.tsv"
  [[ ${TRIAGE:-1} == 1 ]] && replay_run "$d"
  echo "hybrid.sh: $t $mode seed $seed: exit $rc$([[ $stopped == 1 ]] && echo ', stopped: all STOP holes found')" >&2
}

sweep_once() { # target dir
  local t=$1 d=$2
  rm -rf "$d" && mkdir -p "$d"
  local t0=$(date +%s.%N)
  nice -n 10 "$GC" sweep "targets/$t" --depth 5 >"$d/stdout" 2>"$d/stderr"
  local rc=$? wall=$(echo "$(date +%s.%N) - $t0" | bc)
  # the sweep reports at its end: every hole at its wall time
  awk -v w="$wall" '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ && ($4 == "yes" || $4 == "no") { h=$0; sub(/^[^ ]+ +[0-9]+ +[0-9]+ +(yes|no) +((held|returned|exception|yes|NO|unknown|-) +)?/, "", h);
      printf "%s\tsweep\t%s\t-\t-\n", w, h }' "$d/stdout" >"$d/finds.tsv"
  printf 'target\t%s\nmode\tsweep\nseed\t-\nseconds\t-\nwall\t%s\nstopped_early\t0\nexit\t%s\n' "$t" "$wall" "$rc" \
    >"$d/meta.tsv"
}

# the run's crash inputs confirmed in fresh processes: "replayed N, not reproducible M" in meta.tsv
replay_run() { # dir
  local d=$1 t
  t=$(sed -n 's/^target\t//p' "$d/meta.tsv")
  [[ -d $d/out/crashes ]] || return 0
  nice -n 10 "$GC" triage "targets/$t" --out "$d/cases" "$d/out/crashes" >"$d/triage.log" 2>&1
  sed -n 's/^triage of \([0-9]*\) input(s) .*, \([0-9]*\) not reproducible.*/replayed\t\1\nflaky\t\2/p' \
    "$d/triage.log" | head -2 >>"$d/meta.tsv"
}

jobs_running() { jobs -rp | wc -l; }
if [[ $secs == replay ]]; then
  for m in "$out"/*/*/meta.tsv; do
    grep -q '^replayed' "$m" || replay_run "$(dirname "$m")"
  done
  exit 0
fi
# seed by seed, the modes of one seed next to each other: with PAR=2 the fuzz and hybrid
# runs of a seed share the machine's load, so their execs/s compare
for t in $targets; do
  [[ " $modes " == *" sweep "* ]] && sweep_once "$t" "$out/$t/sweep"
  for seed in $seeds; do
    for mode in $modes; do
      [[ $mode == sweep ]] && continue
      while (($(jobs_running) >= par)); do sleep 1; done
      campaign "$t" "$mode" "$seed" "$out/$t/$mode-${secs}s-$seed" &
    done
  done
done
wait
[[ ${REPORT:-1} == 1 ]] && /usr/bin/python3 bench/hybrid_report.py "$out" bench/results/hybrid
exit 0
