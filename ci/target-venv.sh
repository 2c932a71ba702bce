#!/usr/bin/env bash
# ci/target-venv.sh TARGET [VENV]: the virtual environment a bundled source target's sandbox
# is installed in (default build/venvs/<target folder name>, what its target.json names),
# made with the CPython the build embeds (PYTHON, else build/CMakeCache.txt's
# GATECRASH_PYTHON, else /usr/bin/python3) from TARGET/requirements.txt (exact pins).
# Idempotent: a venv whose stamp matches the requirements and the interpreter is left alone,
# so no network is needed once it is installed.
# The venv itself is made once per machine, in GATECRASH_VENV_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/gatecrash/venvs), under a name that holds the stamp's hash, and
# VENV is a link to it: a fresh clone, another build folder or another checkout of the same
# pins and interpreter reuses it instead of installing again (as pip's cache spares the
# download).  GATECRASH_VENV_CACHE= (empty) makes VENV a venv of its own, as before.
set -euo pipefail
target=${1:?usage: ci/target-venv.sh TARGET [VENV]}
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${2:-$root/build/venvs/$(basename "$target")}
req=$target/requirements.txt
[[ -f $req ]] || { echo "gatecrash: error: $req not found" >&2; exit 2; }
py=${PYTHON:-$(sed -n 's/^GATECRASH_PYTHON:FILEPATH=//p' "$root/build/CMakeCache.txt" 2>/dev/null || true)}
py=${py:-/usr/bin/python3}
stamp="$("$py" -I -c 'import sys; print(sys.version)' | head -1) $(sha256sum <"$req" | cut -d' ' -f1)"
fresh() { [[ -f $1/.gatecrash-stamp && $(cat "$1/.gatecrash-stamp") == "$stamp" ]]; }
make_venv() { # DIR: a venv of the pins there, its stamp written last (a cut-short install has none)
  rm -rf "$1"
  "$py" -I -m venv "$1"
  "$1/bin/python" -I -m pip install --quiet --disable-pip-version-check --no-input -r "$req"
  printf '%s\n' "$stamp" >"$1/.gatecrash-stamp"
}
fresh "$venv" && exit 0
cache=${GATECRASH_VENV_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/gatecrash/venvs}
if [[ -z $cache ]]; then
  make_venv "$venv"
  exit 0
fi
shared=$cache/$(basename "$target")-$(printf '%s' "$stamp" | sha256sum | cut -c1-16)
mkdir -p "$cache" "$(dirname "$venv")"
( # one maker at a time per venv: two runs of the suite may set up the same pins at once
  flock 9
  fresh "$shared" || make_venv "$shared"
) 9>"$shared.lock"
rm -rf "$venv"
ln -sfn "$shared" "$venv"
