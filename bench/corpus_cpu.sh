#!/usr/bin/env bash
# CPU seconds of N inputs run by one fuzz_gate process from a finished campaign's corpus: how
# much an input costs in the state the campaign left (its later phase), without fork mode's
# job restarts and without the machine's load in the figure (user+sys, not wall time).
# The process runs in an empty scratch folder, as a campaign's jobs do (a chain that lists the
# working folder costs what that folder holds).  Escapes are recorded, not ended on.
# Usage: bench/corpus_cpu.sh RUN_OUT MODE [N=300000] [SEED=11]
#   RUN_OUT  a campaign's --out folder (its corpus/ and target/)
#   MODE     fuzz (--mutator=no-harvest: calls get no harvested arguments) or hybrid (the default)
#   env: FUZZ_GATE (build/fuzz_gate), PREFIX (a command to run it under, e.g. "chrt -f 10" on a
#        busy machine: not pinned to one core, where the time limit's watchdog could not run)
# Prints one line: binary, mode, CPU s, corpus at the end, time-limit stops, hangs not run again,
# escapes recorded.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bench/corpus_cpu.sh RUN_OUT fuzz|hybrid [N] [SEED]} mode=${2:?mode: fuzz or hybrid}
n=${3:-300000} seed=${4:-11} root=$PWD fg=${FUZZ_GATE:-$PWD/build/fuzz_gate}
[[ -d $out/corpus && -d $out/target ]] || { echo "bench/corpus_cpu.sh: $out has no corpus/ and target/" >&2; exit 2; }
[[ $mode == fuzz || $mode == hybrid ]] || { echo "bench/corpus_cpu.sh: mode $mode: want fuzz or hybrid" >&2; exit 2; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/corpus" "$w/crashes" "$w/scratch"
cp "$out"/corpus/* "$w/corpus/"
flags=()
[[ $mode == fuzz ]] && flags=(--mutator=no-harvest)
(cd "$w/scratch" && /usr/bin/time -f "%U %S" -o "$w/time" ${PREFIX:-} "$fg" --target="$out/target" --escapes=record \
  "${flags[@]}" -dict="$root/dict/gatecrash.dict" -max_len=512 -timeout=10 -seed="$seed" -runs="$n" \
  -artifact_prefix="$w/crashes/" "$w/corpus" >"$w/log" 2>&1) ||
  { echo "bench/corpus_cpu.sh: $fg failed (last lines of its log below)" >&2; tail -3 "$w/log" >&2; exit 1; }
stats=$(grep 'gatecrash: stats:' "$w/log" | tail -1)
printf '%s %s: cpu %.2f s for %s inputs, corpus %s, stopped by the time limit %s, hangs not run again %s, escapes %s\n' \
  "$fg" "$mode" "$(tail -1 "$w/time" | awk '{print $1 + $2}')" "$n" \
  "$(grep -oE 'corp: [0-9]+' "$w/log" | tail -1 | cut -d' ' -f2)" \
  "$(sed -n 's/.*stopped by the time limit \([0-9]*\),.*/\1/p' <<<"$stats")" \
  "$(sed -n 's/.*known hangs not run again \([0-9]*\).*/\1/p' <<<"$stats")" \
  "$(grep -c 'NEW-ESCAPE' "$w/log")"
