#!/usr/bin/env bash
# Configures and builds gatecrash (libFuzzer engine, clang) into ${BUILD_DIR:-build}.
# PYTHON=/path/to/python3.X picks the CPython to embed (3.11-3.13; default the
# distribution's /usr/bin/python3); a build folder keeps the interpreter it was made with.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
py=()
[[ -n ${PYTHON:-} ]] && py=(-DGATECRASH_PYTHON="$PYTHON")
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DGATECRASH_ENGINE=libfuzzer "${py[@]}" ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
