#!/usr/bin/env bash
# ci/target-venv.sh TARGET [VENV]: the virtual environment a bundled source target's sandbox
# is installed in (default build/venvs/<target folder name>, what its target.json names),
# made with the CPython the build embeds (PYTHON, else build/CMakeCache.txt's
# GATECRASH_PYTHON, else /usr/bin/python3) from TARGET/requirements.txt (exact pins).
# Idempotent: a venv whose stamp matches the requirements and the interpreter is left alone,
# so no network is needed once it is installed.
set -euo pipefail
target=${1:?usage: ci/target-venv.sh TARGET [VENV]}
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${2:-$root/build/venvs/$(basename "$target")}
req=$target/requirements.txt
[[ -f $req ]] || { echo "gatecrash: error: $req not found" >&2; exit 2; }
py=${PYTHON:-$(sed -n 's/^GATECRASH_PYTHON:FILEPATH=//p' "$root/build/CMakeCache.txt" 2>/dev/null || true)}
py=${py:-/usr/bin/python3}
stamp="$("$py" -I -c 'import sys; print(sys.version)' | head -1) $(sha256sum <"$req" | cut -d' ' -f1)"
if [[ -f $venv/.gatecrash-stamp && $(cat "$venv/.gatecrash-stamp") == "$stamp" ]]; then
  exit 0
fi
rm -rf "$venv"
"$py" -I -m venv "$venv"
"$venv/bin/python" -I -m pip install --quiet --disable-pip-version-check --no-input -r "$req"
printf '%s\n' "$stamp" >"$venv/.gatecrash-stamp"
