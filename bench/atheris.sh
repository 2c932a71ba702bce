#!/usr/bin/env bash
# fuzz_gate against an Atheris harness of the same job (bench/atheris_gate.py), side by side
# in one run: each for SECONDS on station-1.5.0-allow-all from corpus/, one after the other
# (at once they would share the cores they measure), PAIRS times.  The figure is the walks
# each ran: fuzz_gate's "chains run" (its stats line) against the Atheris harness's inputs
# that parsed and started a walk (it writes them to a file, bench/atheris_gate.py), and
# each one's inputs in all (libFuzzer's "Done N runs"); the ratio of the walks per pair.
# Atheris is installed from PyPI, pinned, into BUILD/venvs/atheris for the CPython the build
# embeds.  A ratio is the figure: absolute rates move with the machine's load.
# Usage: bench/atheris.sh [SECONDS=20] [PAIRS=3]   env: BUILD_DIR (build)
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20} pairs=${2:-3} build=$(realpath -m "${BUILD_DIR:-build}") root=$PWD
[[ -x $build/fuzz_gate ]] || BUILD_DIR=$build bash ci/build.sh || exit 2
py=$(sed -n 's/^GATECRASH_PYTHON:FILEPATH=//p' "$build/CMakeCache.txt")
venv=$build/venvs/atheris
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import atheris' 2>/dev/null; then
  "${py:-/usr/bin/python3}" -m venv "$venv" && "$venv/bin/pip" install -q 'atheris==3.0.0' ||
    { echo "atheris: cannot install atheris==3.0.0 into $venv" >&2; exit 2; }
fi
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
runs() { sed -n 's/^Done \([0-9]*\) runs in .*/\1/p' "$1" | tail -1; }
t=$root/targets/station-1.5.0-allow-all
req='{"subprocess": true, "filesystem_writes": ["/**"]}'
printf '| pair | fuzz_gate walks (inputs) | Atheris walks (inputs) | ratio of walks |\n|---|---|---|---|\n'
for i in $(seq 1 "$pairs"); do
  rm -rf "$work/g" "$work/a" "$work/count" && mkdir -p "$work/g" "$work/a" "$work/s"
  (cd "$work/s" && "$build/fuzz_gate" --target="$t" --quiet --escapes=continue -max_total_time="$secs" \
     -max_len=512 -seed="$i" "$work/g" "$root/corpus" >"$work/g.log" 2>&1)
  (cd "$work/s" && ATHERIS_COUNT=$work/count "$venv/bin/python" "$root/bench/atheris_gate.py" "$root/targets/station-1.5.0/module_sandbox.py" \
     "$req" plugin -max_total_time="$secs" -max_len=512 -seed="$i" "$work/a" "$root/corpus" >"$work/a.log" 2>&1)
  gi=$(runs "$work/g.log") ai=$(runs "$work/a.log")
  g=$(sed -n 's/.*chains run \([0-9]*\),.*/\1/p' "$work/g.log" | tail -1) a=$(cat "$work/count" 2>/dev/null)
  [[ -n $g && -n $a && -n $gi && -n $ai ]] ||
    { echo "atheris: a run did not finish (logs: $work)" >&2; tail -3 "$work/g.log" "$work/a.log" >&2; exit 4; }
  printf '| %s | %s (%s) | %s (%s) | %s |\n' "$i" "$g" "$gi" "$a" "$ai" "$(awk -v g="$g" -v a="$a" 'BEGIN { printf "%.1f", g / a }')"
done
