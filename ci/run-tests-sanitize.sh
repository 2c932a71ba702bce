#!/usr/bin/env bash
# The sanitizer stage of CI (.ci/run, after ci/run-tests.sh): the whole ctest suite again on a
# build with AddressSanitizer and UndefinedBehaviorSanitizer (-DGATECRASH_SANITIZE=ON, every
# binary, fuzz_gate_afl included) in ${BUILD_DIR:-build-asan}.  LeakSanitizer reads
# tests/lsan.supp (set by tests/CMakeLists.txt for every test).  No test is left out; any
# failing test fails the stage.  Expects the dependencies ci/install-deps.sh installs.
set -euo pipefail
cd "$(dirname "$0")/.."
export BUILD_DIR=${BUILD_DIR:-build-asan}
CMAKE_ARGS="-DGATECRASH_SANITIZE=ON ${CMAKE_ARGS:-}" bash ci/build.sh
ctest --test-dir "$BUILD_DIR" --output-on-failure -j 2
