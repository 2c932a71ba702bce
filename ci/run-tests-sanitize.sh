#!/usr/bin/env bash
# The sanitizer stage of CI (.ci/run, after ci/run-tests.sh): the whole ctest suite again on a
# build with AddressSanitizer and UndefinedBehaviorSanitizer (-DGATECRASH_SANITIZE=ON, every
# binary, fuzz_gate_afl included) in ${BUILD_DIR:-build-asan}.  LeakSanitizer reads
# tests/lsan.supp (set by tests/CMakeLists.txt for every test).  Left out: the tests labelled
# own-build (they run no binary of this build) and search (what a search finds, over engine
# code the stage's other tests run); tests/CMakeLists.txt says which and why.  Any
# failing test fails the stage.  Expects the dependencies ci/install-deps.sh installs.
set -euo pipefail
cd "$(dirname "$0")/.."
export BUILD_DIR=${BUILD_DIR:-build-asan}
CMAKE_ARGS="-DGATECRASH_SANITIZE=ON ${CMAKE_ARGS:-}" bash ci/build.sh
# The bundled source targets' venvs depend only on the interpreter and the pins, not on how
# gatecrash is compiled: when build/ (ci/run-tests.sh's) embeds the same CPython, its venvs
# are used (ci/target-venv.sh still checks each one's stamp) instead of installing all again.
pyline() { sed -n 's/^GATECRASH_PYTHON:FILEPATH=//p' "$1/CMakeCache.txt" 2>/dev/null; }
if [[ $BUILD_DIR != build && -d build/venvs && ! -e $BUILD_DIR/venvs && -n $(pyline build) &&
      $(pyline build) == "$(pyline "$BUILD_DIR")" ]]; then
  ln -s "$PWD/build/venvs" "$BUILD_DIR/venvs"
fi
ctest --test-dir "$BUILD_DIR" --output-on-failure -j 2 -LE '^(own-build|search)$'
