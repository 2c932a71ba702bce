#!/usr/bin/env bash
# The release gate: every saved escape of the target must now be blocked, and a fuzzing
# campaign of TIME seconds must find nothing.  A thin wrapper around `gatecrash gate`.
#
#   ci/release-gate.sh [--no-build] TARGET_DIR
#   ci/release-gate.sh [--no-build] --sandbox PATH --requires JSON|@FILE   (the target inline)
# Environment: TIME (300), JOBS (nproc), ESCAPES (escapes/<name>), REPORT
# (out/<name>/release-gate), SWEEP_DEPTH (0: no sweep), BUILD_DIR (build).  Defaults are in
# the repository; paths you give are relative to where you start the script.  PYTHON picks
# the CPython the build embeds (ci/build.sh).
# Exit: gatecrash gate's — 0 PASS, 1 FAIL (something escapes), 2 bad usage or an unreadable
# case, 3 the target failed to load (a source adapter through which no program gives its
# value back included), 4 harness error, 5 INCONCLUSIVE (a saved case the harness did not see
# run as the host runs it: never a pass).
set -euo pipefail
die() { echo "release-gate: error: $*" >&2; exit "${2:-2}"; }
skip_build=${SKIP_BUILD:-0}
[[ ${1:-} == --no-build ]] && { skip_build=1; shift; }
usage="usage: ci/release-gate.sh [--no-build] TARGET_DIR|--sandbox PATH --requires JSON|@FILE"
if [[ ${1:-} == --sandbox ]]; then # gatecrash names an inline target after its module
  (($# == 4)) && [[ $3 == --requires ]] || die "$usage"
  [[ -f $2 ]] || die "sandbox module $2 not found" 3
  requires=$4
  [[ $requires == @* ]] && requires=@$(realpath -m -- "${requires#@}")
  tgt=(--sandbox "$(realpath -- "$2")" --requires "$requires")
  name=$(basename -- "$2") name=${name%.*}
else
  (($# == 1)) || die "$usage"
  [[ -f $1/target.json ]] || die "$1 has no target.json"
  target=$(realpath -- "$1")
  name=$(/usr/bin/python3 -I -c 'import json, sys; print(json.load(open(sys.argv[1]))["name"])' "$target/target.json") ||
    die "cannot read the name in $target/target.json"
  tgt=("$target")
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
escapes=$(realpath -m -- "${ESCAPES:-$root/escapes/$name}")
report=$(realpath -m -- "${REPORT:-$root/out/$name/release-gate}")
build=$(realpath -m -- "${BUILD_DIR:-$root/build}")
cd "$root"
if [[ $skip_build != 1 ]]; then
  BUILD_DIR=$build bash ci/build.sh || die "the build failed" 4
fi
args=("${tgt[@]}" --time "${TIME:-300}" --jobs "${JOBS:-$(nproc)}" --report "$report" --out "$report/campaign")
[[ -d $escapes ]] && args+=(--escapes "$escapes")
[[ ${SWEEP_DEPTH:-0} != 0 ]] && args+=(--sweep-depth "$SWEEP_DEPTH")
exec "$build/gatecrash" gate "${args[@]}"
