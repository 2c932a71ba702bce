#!/usr/bin/env bash
# ci/oss-fuzz/build.sh with OSS-Fuzz's libFuzzer environment set by hand (no sanitizer, to
# stay quick): it must produce the binary, the seed corpus zip, the dictionary, the options
# and the target folder, the binary must find its libraries in $OUT/lib and its target beside
# itself, and a bounded run from the unzipped seed corpus must find an escape on
# station-1.5.0 (the default target).
source "$(dirname "$0")/lib.sh" "$@"
OUT=$WORK/oss-out  # ($WORK/out is lib.sh's capture file)
expect_exit 0 "oss-fuzz build.sh (libFuzzer)" -- env PYTHON="$PY" SRC="$SRC/.." OUT="$OUT" WORK="$WORK/build" CC=clang \
  CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=fuzzer-no-link" \
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer bash "$SRC/ci/oss-fuzz/build.sh"
for f in fuzz_gate fuzz_gate_seed_corpus.zip fuzz_gate.dict fuzz_gate.options fuzz_gate.target/target.json \
         fuzz_gate.target/module_sandbox.py lib/libpython$PYVER.so.1.0 fuzz_gate.python/lib/python$PYVER/os.py; do
  [[ -s $OUT/$f ]] && ok || fail "build.sh did not produce \$OUT/$f"
done
ldd "$OUT/fuzz_gate" >"$WORK/out" 2>&1
expect_fgrep "libpython$PYVER.so.1.0 => $OUT/lib/" "libpython is taken from \$OUT/lib (rpath \$ORIGIN/lib)"
expect_no_grep "not found" "every shared library resolves"

mkdir -p "$WORK/seeds" "$WORK/new" "$WORK/scratch"
unzip -q "$OUT/fuzz_gate_seed_corpus.zip" -d "$WORK/seeds"
n_zip=$(ls "$WORK/seeds" | wc -l)
n_src=$(find "$SRC/corpus" -maxdepth 1 -type f | wc -l)
[[ $n_zip -eq $n_src && $n_zip -gt 0 ]] && ok || fail "seed corpus zip holds $n_zip inputs, corpus/ $n_src"

# Bounded by -runs; -max_total_time is only a safety cap.  The target comes from
# fuzz_gate.target beside the binary (no --target flag, as on ClusterFuzz).
cd "$WORK/scratch" || exit 1
expect_exit 77 "fuzz_gate finds an escape from the seed corpus" -- "$OUT/fuzz_gate" -runs=50000 -seed=1 \
  -max_total_time=300 -dict="$OUT/fuzz_gate.dict" -max_len=512 -error_exitcode=77 "$WORK/new" "$WORK/seeds"
expect_grep "^gatecrash: ESCAPE (reach|effect) (spawn|write) " "the ESCAPE line"
expect_grep "^DEDUP_TOKEN: " "the dedup token"
expect_fgrep "fuzz_gate.target/module_sandbox.py" "the target beside the binary was loaded"
ls "$WORK/scratch"/crash-* >/dev/null 2>&1 && ok || fail "no crash input was written"

# The AFL++ engine, as OSS-Fuzz builds it: afl-clang-fast with -fsanitize=fuzzer (AFL++'s
# libAFLDriver), this same driver.c.  The binary runs a file and reports the escape, and
# under afl-showmap the Python-side features show in AFL++'s map beyond the driver's own
# edges (the map grows by the 8192 feature edges).
if need afl-clang-fast afl-showmap; then
  AOUT=$WORK/oss-afl
  expect_exit 0 "oss-fuzz build.sh (AFL++)" -- env PYTHON="$PY" SRC="$SRC/.." OUT="$AOUT" WORK="$WORK/build-afl" CC=afl-clang-fast \
    CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
    bash "$SRC/ci/oss-fuzz/build.sh"
  echo 'subprocess.os.system' >"$WORK/esc.chain"
  expect_exit 134 "the AFL++ build runs a file and aborts on the escape" -- "$AOUT/fuzz_gate" "$WORK/esc.chain"
  expect_fgrep "ESCAPE reach spawn os.system via subprocess.os.system" "the AFL++ build's ESCAPE line"
  echo 'subprocess.os.sys.modules' >"$WORK/walk.chain"
  expect_exit 0 "afl-showmap on the AFL++ build" -- afl-showmap -q -t 30000 -o "$WORK/map.txt" -- "$AOUT/fuzz_gate" "$WORK/walk.chain"
  big=$(awk -F: '$1+0 > 1000' "$WORK/map.txt" | wc -l)
  [[ $big -gt 0 ]] && ok || fail "no Python-side feature in AFL++'s map: $(paste -sd' ' "$WORK/map.txt")"
fi

# The runner image has no such Python: hide the build's standard library (a private mount
# namespace, root only) and the binary must start from the one bundled beside it.
stdlib=$("$PY" -I -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')
if [[ $(id -u) -ne 0 ]]; then
  skip_part "not root: no private mount namespace, the bundled standard library was not exercised"
elif need unshare; then
  mkdir -p "$WORK/empty"
  expect_exit 77 "fuzz_gate starts with the system's standard library hidden" -- unshare -m bash -c \
    "mount --bind '$WORK/empty' '$stdlib' && exec '$OUT/fuzz_gate' -runs=50000 -seed=1 -max_total_time=300 \
     -dict='$OUT/fuzz_gate.dict' -max_len=512 -error_exitcode=77 '$WORK/seeds'"
  expect_grep "^gatecrash: ESCAPE (reach|effect) (spawn|write) " "the ESCAPE line, bundled standard library"
  # without a bundled one, the build's own tools say in one line that their CPython is gone
  echo 'str' >"$WORK/str.chain"
  expect_exit 4 "gatecrash with the build's standard library hidden" -- unshare -m bash -c \
    "mount --bind '$WORK/empty' '$stdlib' && exec '$GC' replay -q '$SRC/targets/station-1.5.0' '$WORK/str.chain'"
  expect_grep "^gatecrash: error: the CPython $PYVER this build embeds has no standard library at .*/lib/python$PYVER " \
    "one line names the missing standard library"
  expect_no_grep "Traceback|Fatal Python error" "no traceback, no fatal error"
fi
finish
