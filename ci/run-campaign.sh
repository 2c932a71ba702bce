#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install, build, fuzz the bundled target, and
# end with the table of escapes.  Usage: ci/run-campaign.sh [TARGET_DIR] [SECONDS]
# PYTHON=/path/to/python3.X: the CPython to embed (default the distribution's); BUILD_DIR
# (build) the build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-targets/station-1.5.0}
seconds=${2:-60}
bash ci/install-deps.sh
bash ci/build.sh
set +e
"${BUILD_DIR:-build}/gatecrash" fuzz "$target" --time "$seconds"
rc=$?
set -e
# 0: no escape, 1: escapes found (the expected result on station-1.5.0); others are errors
[[ $rc -le 1 ]]
