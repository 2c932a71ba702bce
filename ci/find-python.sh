#!/usr/bin/env bash
# ci/find-python.sh X.Y: prints this machine's CPython X.Y to build gatecrash with — the
# distribution's /usr/bin/pythonX.Y, else the newest pyenv build of X.Y (pyenv on PATH, or
# $PYENV_ROOT / ~/.pyenv) — or nothing, exit 1, when there is none.
set -uo pipefail
v=${1:?usage: ci/find-python.sh X.Y}
[[ -x /usr/bin/python$v ]] && { echo "/usr/bin/python$v"; exit 0; }
root=${PYENV_ROOT:-$HOME/.pyenv}
command -v pyenv >/dev/null && root=$(pyenv root)
p=$(ls -d "$root"/versions/"$v".* 2>/dev/null | grep -E "/$v\.[0-9]+$" | sort -V | tail -1)
[[ -n $p && -x $p/bin/python$v ]] || exit 1
echo "$p/bin/python$v"
