#!/usr/bin/env bash
# The command line as a new user meets it: --help, -h and --version exit 0 and print the
# usage (each command's lists every option its parser takes); unknown options and commands
# exit 2 with one line; a plain `cmake -S . -B build` (no CC) picks clang when installed.
source "$(dirname "$0")/lib.sh" "$@"
one_line() { # exactly one line, a gatecrash error
  if [[ $(wc -l <"$WORK/out") -eq 1 ]] && grep -q '^gatecrash: error: ' "$WORK/out"; then ok
  else fail "$1: not one error line"; sed 's/^/    /' "$WORK/out" >&2; fi
}
for h in --help -h; do
  expect_exit 0 "gatecrash $h" -- "$GC" $h
  for c in replay fuzz triage explain sweep advise gate; do expect_grep "^  gatecrash $c TARGET" "$h lists $c"; done
  expect_grep "--version" "$h mentions --version"
done
target_opts="--sandbox --requires --mode"
campaign_opts="--engine --time --jobs --runs --seed --corpus --out --dict --fuzzer"
declare -A opts=(
  [replay]="--expect --raw --json --quiet"
  [fuzz]="--by $campaign_opts"
  [triage]="--out --found-by"
  [explain]="--raw"
  [sweep]="--depth --max-nodes --time --save --by --close --json --quiet --exhaustive"
  [advise]="--depth --max-nodes --verify --json --quiet"
  [gate]="--escapes --report --sweep-depth $campaign_opts")
for c in "${!opts[@]}"; do
  for h in --help -h; do
    expect_exit 0 "gatecrash $c $h" -- "$GC" $c $h
    expect_grep "^usage: gatecrash $c TARGET" "$c $h: its synopsis"
    for o in ${opts[$c]} $target_opts; do expect_grep "$o( |,|$)" "$c $h lists $o"; done
  done
  expect_exit 0 "$c TARGET ... --help, after other options" -- "$GC" $c "$SRC/targets/station-1.5.0" --json --help
  expect_exit 2 "$c with an unknown option" -- "$GC" $c "$SRC/targets/station-1.5.0" --frobnicate
  one_line "$c --frobnicate"
  expect_grep "gatecrash $c --help" "$c --frobnicate points at the command's help"
done
expect_exit 2 "fuzz --time without its value" -- "$GC" fuzz "$SRC/targets/station-1.5.0" --time
one_line "fuzz --time"
expect_exit 2 "unknown command" -- "$GC" frobnicate
one_line "unknown command"
expect_exit 2 "no command" -- "$GC"
one_line "no command"

# replay of a folder with nothing in it: no verdict, so --expect escape must not pass
mkdir -p "$WORK/empty"
expect_exit 2 "replay --expect escape of an empty folder" -- "$GC" replay -q "$SRC/targets/station-1.5.0" \
  --expect escape "$WORK/empty"
expect_grep "^gatecrash: error: nothing to replay: no chain file in the files and folders given$" \
  "replay of an empty folder: one line"

expect_exit 0 "--version" -- "$GC" --version
expect_grep "^gatecrash [0-9]+\.[0-9]+\.[0-9]+ \(CPython ${PYVER/./\\.}\.[0-9]+, libFuzzer (yes|no), AFL\+\+ (yes|no)\)$" "--version's line"
want=$(sed -n 's/^project(gatecrash VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
expect_grep "^gatecrash $want " "--version is CMake's project version ($want)"
# it says which engine binaries this build has, both ways
if [[ -x $FUZZ ]]; then expect_grep "libFuzzer yes" "--version sees fuzz_gate"; else expect_grep "libFuzzer no" "--version: no fuzz_gate"; fi
if [[ -x $BIN/fuzz_gate_afl ]]; then expect_grep "AFL\+\+ yes" "--version sees fuzz_gate_afl"; else expect_grep "AFL\+\+ no" "--version: no fuzz_gate_afl"; fi

# a plain configure, no CC and no -DCMAKE_C_COMPILER: clang when it is installed
if need clang; then
  expect_exit 0 "cmake -S . -B build without CC" -- env -u CC cmake -S "$SRC" -B "$WORK/cfg" -DGATECRASH_AFL=OFF
  expect_grep "The C compiler identification is Clang" "the plain configure picked clang"
fi
finish
