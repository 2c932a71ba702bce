#!/usr/bin/env bash
# Evaluations/s of fuzz_source against a naive loop, side by side in one run, per bundled
# source target.  The same fixed programs for both: corpus-source/'s eight seeds (PROGRAMS=DIR:
# the inputs in DIR instead, say a campaign's corpus) printed in the target's dialect, REPS
# times over.  Not corpus-source/README: decoded as a program it is 1.2 KB of garbage that
# cost more than the eight seeds together on RestrictedPython (its compile of a long program),
# and what it decodes to changes whenever the program language gains an opcode (it did on
# 2026-12-06, and the ratio on restrictedpython-utility went from 0.71 to 0.40 with it).
#   fuzz_source:  build/fuzz_source-test -runs=REPS over the seeds (the C-call guard, the
#                 returned value's search, state restore, the sandbox's line trace, the
#                 returned value's features and harvest: what a fuzzing run does per input,
#                 less the engine); each file read once, as the naive loop reads its
#                 programs once (until 2026-12-05 REPS copies of the files, each read: about
#                 3 us an input of file reading, ~6% on simpleeval); its start-up taken off
#                 (a run over one copy)
#   naive:        bench/source_naive.py in the venv's python: the adapter's entry called on
#                 each program (a fresh sandbox object per call, as the adapter makes it)
# FUZZ_OPTS="--no-feedback" (or --no-harvest) measures fuzz_source without them.  Each side is
# timed TRIES times (default 3), in turn, and its fastest run is taken: the machine is shared,
# and a slower run is another process's time, not ours.
# REPS defaults to 3000: at 100 (a run of tens of milliseconds against a start-up of half a
# second taken off) one sitting gave ratios from 0.57 to 2.98 for the same build (2026-12-06).
# Usage: bench/source-speed.sh [REPS=3000] [BUILD_DIR=build] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3000} build=${2:-build}
shift $(($# < 2 ? $# : 2))
targets=("$@")
((${#targets[@]})) || targets=(targets/simpleeval targets/simpleeval-module targets/simpleeval-1.0.4
                                targets/restrictedpython targets/restrictedpython-utility targets/restrictedpython-6.0)
read -r -a opts <<<"${FUZZ_OPTS:-}"
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
printf '| target | programs | fuzz_source evals/s | naive evals/s | ratio |\n|---|---|---|---|---|\n'
for t in "${targets[@]}"; do
  name=$(basename "$t") venv=$build/venvs/$(basename "$t")
  [[ -x $venv/bin/python ]] || { echo "| $name | (no venv: bash ci/target-venv.sh $t) | | | |"; continue; }
  adapter=$(cd "$t" && python3 -c 'import json,os;print(os.path.abspath(json.load(open("target.json"))["adapter"]))')
  entry=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1])).get("entry","evaluate"))' "$t/target.json")
  one=$work/$name.one progs=$work/$name.progs
  rm -rf "$one" "$progs" && mkdir -p "$one" "$progs"
  if [[ -n ${PROGRAMS:-} ]]; then cp "$PROGRAMS"/* "$one"/; else cp corpus-source/* "$one"/ && rm -f "$one/README"; fi
  # the programs as the target's dialect prints them, for the naive loop
  "$build/fuzz_source-test" --target="$t" --venv="$venv" --print-programs "$one" 2>&1 >/dev/null |
    awk -v d="$progs" '/^gatecrash: program /{n++; f=sprintf("%s/%02d.py", d, n); printf "" > f; next}
                       /^gatecrash: /{f=""; next} f{print >> f}'
  nprog=$(ls "$progs" | wc -l)
  gc=0 naive=0
  for ((try = 0; try < ${TRIES:-3}; try++)); do
    t0=$(date +%s.%N); "$build/fuzz_source-test" --target="$t" --venv="$venv" "${opts[@]}" "$one" >/dev/null 2>&1
    t1=$(date +%s.%N); "$build/fuzz_source-test" --target="$t" --venv="$venv" "${opts[@]}" -runs="$reps" "$one" >/dev/null 2>&1
    t2=$(date +%s.%N)
    gc=$(echo "r = ($reps - 1) * $nprog / (($t2 - $t1) - ($t1 - $t0)); if (r > $gc) r else $gc" | bc -l)
    read -r n secs < <("$venv/bin/python" bench/source_naive.py "$adapter" "$entry" "$reps" "$progs"/*.py)
    naive=$(echo "r = $n / $secs; if (r > $naive) r else $naive" | bc -l)
  done
  printf '| %s | %d | %.0f | %.0f | %.2f |\n' "$name" "$nprog" "$gc" "$naive" "$(echo "$gc / $naive" | bc -l)"
done
