#!/usr/bin/env bash
# Installs what gatecrash needs to build, fuzz and test, from Debian's packages.
# Idempotent: packages already present are left alone; run as root on Debian 12.
set -euo pipefail
pkgs=(clang libclang-rt-14-dev python3.11 libpython3.11-dev cmake make
      libcjson-dev libseccomp-dev libssl-dev afl++ strace python3-matplotlib zip unzip
      python3-venv chromium) # the venv of the Python test tools (pytest); report.html in a browser
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "gatecrash: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
