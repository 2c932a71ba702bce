#!/usr/bin/env bash
# Installs what gatecrash needs to build, fuzz and test, from Debian's packages, on Debian
# 12 or 13 (/etc/debian_version).  Package names are picked by what apt-cache offers:
# clang and the libclang-rt-N-dev of clang's major version N, and for the CPython to embed
# (PYTHON, default the distribution's /usr/bin/python3) pythonX.Y and libpythonX.Y-dev;
# an interpreter of one's own (pyenv, a source build) needs no package.  Idempotent: with
# everything present it changes nothing and reads no package list.  Run as root.
set -euo pipefail
die() { echo "install-deps: error: $*" >&2; exit 2; }
export DEBIAN_FRONTEND=noninteractive
[[ -r /etc/debian_version ]] || die "not a Debian machine (no /etc/debian_version)"
debian=$(cut -d. -f1 /etc/debian_version)
[[ $debian =~ ^[0-9]+$ && $debian -ge 12 ]] ||
  echo "install-deps: note: Debian $(cat /etc/debian_version) (tested: 12 and 13)" >&2

updated=0
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# grep without -q: under pipefail, grep -q quitting at its first match can stop apt-cache
# with SIGPIPE before it has printed the version table, and the pipeline then fails
has_candidate() { apt-cache policy "$1" 2>/dev/null | grep 'Candidate: [^(]' >/dev/null; }
offered() { # the package has an installable version (the lists are read once, when needed)
  has_candidate "$1" && return 0
  ((updated)) && return 1
  local try # a machine just started may hold apt's lock for a while (its own daily update)
  for try in 1 2 3 4 5 6; do
    apt-get update -q >/dev/null 2>&1 && { updated=1; break; }
    sleep 10
  done
  has_candidate "$1"
}
install() { # install PKG... that are missing
  local missing=() p
  for p in "$@"; do
    installed "$p" && continue
    offered "$p" || die "Debian $debian offers no package $p"
    missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "install-deps: installing ${missing[*]}" >&2
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

# The CPython to embed: the distribution's needs its headers and libpython.
py=${PYTHON:-/usr/bin/python3}
[[ -n ${PYTHON:-} ]] || install python3
[[ -x $py ]] || die "PYTHON=$py is not an executable"
read -r ver prefix < <("$py" -I -c 'import sys; print("%d.%d" % sys.version_info[:2], sys.prefix)') ||
  die "$py does not run"
pkgs=()
[[ $prefix == /usr ]] && pkgs+=("python$ver" "libpython$ver-dev")

# clang, and the sanitizer/libFuzzer runtime of the same major version
if command -v clang >/dev/null; then
  major=$(clang -dumpversion | cut -d. -f1)
else
  offered clang || die "Debian $debian offers no clang"
  major=$(apt-cache depends clang | sed -n 's/.*Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -1)
  [[ -n $major ]] || die "cannot tell which clang-N the clang package is"
  pkgs+=(clang)
fi
pkgs+=("libclang-rt-$major-dev")

# the rest (python3-matplotlib: the plots, run with the distribution's python3; python3-venv:
# the venv of the Python test tools, pytest; chromium: report.html rendered by a test)
pkgs+=(cmake make libcjson-dev libseccomp-dev libffi-dev libssl-dev afl++ strace python3-matplotlib zip unzip
       python3-venv chromium)
install "${pkgs[@]}"
