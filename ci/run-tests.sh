#!/usr/bin/env bash
# The test job, from a fresh Debian machine: install, build, run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh
ctest --test-dir build --output-on-failure -j 2
