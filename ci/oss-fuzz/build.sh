#!/usr/bin/env bash
# OSS-Fuzz / ClusterFuzzLite build script for gatecrash (also .clusterfuzzlite/build.sh).
#
# Honours the OSS-Fuzz build environment: $CC, $CFLAGS, $LIB_FUZZING_ENGINE, $OUT, $SRC
# (and $WORK for objects).  Drives the compiler directly, like most OSS-Fuzz build.sh files:
#   - the harness layers (CMakeLists.txt GATECRASH_*_SOURCES) are compiled WITHOUT coverage
#     instrumentation (-fsanitize=fuzzer-no-link / -fsanitize-coverage=* are stripped; with
#     afl-clang-* an AFL_LLVM_ALLOWLIST names the two files below only), sanitizers kept;
#   - fuzz/driver.c and fuzz/fuzz_gate.c (the engine glue and the target's own file)
#     get the full $CFLAGS, and the link adds $LIB_FUZZING_ENGINE
#     (-fsanitize=fuzzer: libFuzzer with clang, libAFLDriver.a with afl-clang-fast) and
#     fuzz/fuzz_gate.map.
# Produces in $OUT:
#   fuzz_gate                    the fuzz target (rpath $ORIGIN/lib)
#   fuzz_gate_seed_corpus.zip    corpus/ (flat)
#   fuzz_gate.dict               dict/gatecrash.dict
#   fuzz_gate.options            libFuzzer/ASan defaults
#   fuzz_gate.target/            the target folder fuzz_gate loads by default (target.json +
#                                gate module), from $GATECRASH_FUZZ_TARGET
#                                (default targets/station-1.5.0)
#   lib/                         libpython3.X and the other non-libc shared libraries it needs
#   fuzz_gate.python/            the Python standard library (lib/python3.X) of the CPython
#                                built with, for runners without it (docs/CI.md "libpython at
#                                run time")
# Optional: PYTHON (the CPython 3.11-3.13 to embed; default the distribution's /usr/bin/python3),
# GATECRASH_FUZZ_TARGET, GATECRASH_BUNDLE_PYTHON=0 to skip fuzz_gate.python/.
set -euo pipefail

die() { echo "oss-fuzz/build.sh: error: $*" >&2; exit 2; }

: "${OUT:?OUT must name the output folder}"
CC=${CC:-clang}
CFLAGS=${CFLAGS:-}
LIB_FUZZING_ENGINE=${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}

# The repository: $SRC/gatecrash in the OSS-Fuzz image (Dockerfile), else the tree this
# script is in.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [[ -n ${SRC:-} && -f $SRC/gatecrash/fuzz/driver.c ]]; then
  root=$(cd "$SRC/gatecrash" && pwd)
fi
[[ -f $root/fuzz/driver.c ]] || die "no gatecrash sources at $root"

PYTHON=${PYTHON:-/usr/bin/python3}
[[ -x $PYTHON ]] || die "no $PYTHON (set PYTHON=/path/to/python3.X)"
pyver=$("$PYTHON" -I -c 'import sys; print("%d.%d" % sys.version_info[:2])') || die "$PYTHON does not run"
[[ $pyver =~ ^3\.1[123]$ ]] || die "$PYTHON is Python $pyver; gatecrash supports CPython 3.11, 3.12 and 3.13"
pyprefix=$("$PYTHON" -I -c 'import sys; print(sys.prefix)')
PYTHON_CONFIG=${PYTHON_CONFIG:-$(dirname "$PYTHON")/python$pyver-config}
[[ -x $PYTHON_CONFIG ]] || die "$PYTHON_CONFIG not found (install libpython$pyver-dev, or set PYTHON_CONFIG)"

target=${GATECRASH_FUZZ_TARGET:-$root/targets/station-1.5.0}
[[ -f $target/target.json ]] || die "$target has no target.json"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=${WORK:-}
if [[ -z $work ]]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/gatecrash-oss-fuzz.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
obj=$work/gatecrash-obj
rm -rf "$obj"
mkdir -p "$obj"

# The harness layers' source lists, read from CMakeLists.txt so the two builds cannot drift
# apart, and fuzz_gate's configuration (gatecrash_fuzz).
mapfile -t core < <(sed -n '/^set(GATECRASH_[A-Z]*_SOURCES/,/)/p' "$root/CMakeLists.txt" |
                    grep -o 'harness/[A-Za-z0-9_/]*\.c')
((${#core[@]} > 5)) || die "could not read the GATECRASH_*_SOURCES lists from $root/CMakeLists.txt"
core+=(fuzz/fuzz_gate_config.c fuzz/engine.c fuzz/ratewatch.c fuzz/findings.c)

# Core flags: $CFLAGS without coverage instrumentation (see CMakeLists.txt: only the engine
# glue and the target's own file are instrumented; the signal is the Python-side feedback).
core_cflags=()
for f in $CFLAGS; do
  case $f in
    -fsanitize=fuzzer-no-link|-fsanitize=fuzzer|-fsanitize-coverage=*) ;;
    *) core_cflags+=("$f") ;;
  esac
done
read -r -a driver_cflags <<<"$CFLAGS"
read -r -a py_includes <<<"$("$PYTHON_CONFIG" --includes)"
read -r -a py_ldflags <<<"$("$PYTHON_CONFIG" --embed --ldflags)"
# libpython is found in $OUT/lib: no rpath of the build machine's (pyenv's config adds one)
for i in "${!py_ldflags[@]}"; do [[ ${py_ldflags[$i]} == -Wl,-rpath,* ]] && unset 'py_ldflags[i]'; done
incs=()
for d in harness/base harness/runtime harness/chain harness/source harness/campaign fuzz; do incs+=(-I"$root/$d"); done
common=(-std=gnu11 -Wall -Wextra "${incs[@]}" "${py_includes[@]}" -DGATECRASH_PYTHON="\"$PYTHON\""
        -DGATECRASH_PYTHON_VERSION="\"$pyver\"" -DGATECRASH_PYTHON_PREFIX="\"$pyprefix\"")

case $(basename "${CC%% *}") in
  afl-*)
    # afl-clang-fast instruments whatever it compiles: keep that to driver.c and fuzz_gate.c.
    printf '%s\n' driver.c fuzz_gate.c >"$work/afl-allowlist.txt"
    export AFL_LLVM_ALLOWLIST=$work/afl-allowlist.txt
    export AFL_QUIET=1
    ;;
esac

echo "oss-fuzz/build.sh: CC=$CC engine=$LIB_FUZZING_ENGINE, ${#core[@]} core sources from $root" >&2
objs=()
for src in "${core[@]}"; do
  o=$obj/$(basename "$src" .c).o
  $CC "${core_cflags[@]}" "${common[@]}" -c "$root/$src" -o "$o"
  objs+=("$o")
done
for src in driver fuzz_gate; do
  $CC "${driver_cflags[@]}" "${common[@]}" -c "$root/fuzz/$src.c" -o "$obj/$src.o"
done

# Link: the engine, the version script (libFuzzer's string-compare interceptors stay
# local), libpython/cjson/seccomp/libffi/libcrypto found at run time in $OUT/lib.
# shellcheck disable=SC2086 # $LIB_FUZZING_ENGINE may hold several words
$CC "${driver_cflags[@]}" "$obj/driver.o" "$obj/fuzz_gate.o" "${objs[@]}" $LIB_FUZZING_ENGINE \
  -Wl,--version-script="$root/fuzz/fuzz_gate.map" \
  "${py_ldflags[@]}" -lcjson -lseccomp -lffi -lcrypto -lrt -lm -ldl -lpthread \
  -Wl,-rpath,'$ORIGIN/lib' -o "$OUT/fuzz_gate"

# Shared libraries the runner image may lack: everything but the C library family.
mkdir -p "$OUT/lib"
pylibdir=$("$PYTHON" -I -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR"))')
LD_LIBRARY_PATH=$pylibdir ldd "$OUT/fuzz_gate" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | while read -r lib; do
  case $(basename "$lib") in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libutil.so*|ld-linux*|libgcc_s.so*|libstdc++.so*) ;;
    *) cp -L "$lib" "$OUT/lib/" ;;
  esac
done

# The target the binary loads by default, and the fuzzing inputs.
rm -rf "$OUT/fuzz_gate.target"
cp -R "$target" "$OUT/fuzz_gate.target"
rm -rf "$OUT/fuzz_gate.target/__pycache__"
cp "$root/dict/gatecrash.dict" "$OUT/fuzz_gate.dict"
rm -f "$OUT/fuzz_gate_seed_corpus.zip"
(cd "$root/corpus" && find . -maxdepth 1 -type f -print0 | xargs -0 zip -q -j "$OUT/fuzz_gate_seed_corpus.zip" --)
cat >"$OUT/fuzz_gate.options" <<'OPTIONS'
[libfuzzer]
dict = fuzz_gate.dict
max_len = 512
timeout = 10
rss_limit_mb = 2048

[asan]
# The fuzz target never finalizes CPython (docs/CI.md) and ClusterFuzz runs without
# tests/lsan.supp: libpython's allocations would be reported as leaks; they are not findings.
detect_leaks = 0
OPTIONS

# The standard library, for a runner without this Python (docs/CI.md).
if [[ ${GATECRASH_BUNDLE_PYTHON:-1} != 0 ]]; then
  stdlib=$("$PYTHON" -I -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')
  dynload=$("$PYTHON" -I -c 'import sysconfig; print(sysconfig.get_config_var("DESTSHARED"))')
  dest=$OUT/fuzz_gate.python/lib/python$pyver
  rm -rf "$OUT/fuzz_gate.python"
  mkdir -p "$dest"
  tar -C "$stdlib" -cf - --exclude=./test --exclude=./idlelib --exclude=./tkinter --exclude=./turtledemo \
      --exclude=./ensurepip --exclude=./site-packages --exclude=./dist-packages --exclude="./config-$pyver*" . |
    tar -C "$dest" -xf -
  if [[ ! -d $dest/lib-dynload && -d $dynload ]]; then
    cp -R "$dynload" "$dest/lib-dynload"
  fi
  [[ -f $dest/os.py ]] || die "the standard library copy in $dest has no os.py"
fi
echo "oss-fuzz/build.sh: built $OUT/fuzz_gate (target $(basename "$target"))" >&2
