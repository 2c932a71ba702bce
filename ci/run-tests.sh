#!/usr/bin/env bash
# The test job, from a fresh Debian machine: install, build, run every test with ctest.
# PYTHON=/path/to/python3.X: the CPython to embed (default the distribution's); BUILD_DIR
# (build) the build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j 2
