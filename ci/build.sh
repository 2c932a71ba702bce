#!/usr/bin/env bash
# Configures and builds gatecrash (libFuzzer engine, clang) into ${BUILD_DIR:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DGATECRASH_ENGINE=libfuzzer ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
