#!/usr/bin/env bash
# ClusterFuzzLite build: the same script as OSS-Fuzz's (ci/oss-fuzz/build.sh).
set -euo pipefail
exec bash "$SRC/gatecrash/ci/oss-fuzz/build.sh"
