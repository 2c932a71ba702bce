# lib.sh — shared helpers for the command-level tests.  Usage: source lib.sh SRC BIN
set -uo pipefail
SRC=$1
BIN=$2
GC=$BIN/gatecrash
FUZZ=$BIN/fuzz_gate
# The CPython this build embeds (CMakeLists.txt: GATECRASH_PYTHON): reproducers and the
# tests' own JSON checks run with it; PYVER is its X.Y.
PY=$(sed -n 's/^GATECRASH_PYTHON:FILEPATH=//p' "$BIN/CMakeCache.txt" 2>/dev/null)
PY=${PY:-/usr/bin/python3}
PYVER=$("$PY" -I -c 'import sys; print("%d.%d" % sys.version_info[:2])')
# Sanitizer build: leaks are checked at every command's exit (tests/lsan.supp), and a leak
# exits 23, no exit code of ours, so every expect_exit catches one.  A process the backstop
# arms cannot start llvm-symbolizer (it stops the fork), so no symbolizer is tried: reports
# show module+offset (docs/CI.md, "The test job", says how to read them).
export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}symbolize=0:exitcode=23
# traced ARGS...: strace ARGS... without LeakSanitizer's check at exit (sanitizer build),
# which cannot run in a traced process: its tracer must ptrace every thread, and a thread
# has one tracer.  The only commands of the suite not leak-checked.
traced() { ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace "$@"; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gatecrash-test.XXXXXX")
trap '[[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"' EXIT
fails=0
passes=0
skips=0
ok() { passes=$((passes + 1)); }
fail() { fails=$((fails + 1)); echo "FAIL: $*" >&2; }
# expect_exit CODE DESCRIPTION -- command...   (stdout+stderr kept in $WORK/out)
expect_exit() {
  local want=$1 what=$2; shift 3
  "$@" >"$WORK/out" 2>&1
  local got=$?
  if [[ $got -eq $want ]]; then ok; else fail "$what: exit $got, want $want"; sed 's/^/    /' "$WORK/out" | head -20 >&2; fi
}
# expect_grep PATTERN DESCRIPTION  (in $WORK/out)
expect_grep() {
  if grep -qE -- "$1" "$WORK/out"; then ok; else fail "$2: no line matches /$1/"; sed 's/^/    /' "$WORK/out" | head -20 >&2; fi
}
expect_fgrep() { # a fixed string, not a pattern (chains hold [ ] . ( ))
  if grep -qF -- "$1" "$WORK/out"; then ok; else fail "$2: no line contains [$1]"; sed 's/^/    /' "$WORK/out" | head -20 >&2; fi
}
# expect_before_engine PATTERN FILE WHAT: the first line of FILE matching PATTERN comes
# before a campaign's first engine progress line ("[ Ns] execs ...")
expect_before_engine() {
  local a b
  a=$(grep -n -m1 -E -- "$1" "$2" | cut -d: -f1)
  b=$(grep -n -m1 -E '^\[ *[0-9]*s\] execs' "$2" | cut -d: -f1)
  if [[ -n $a && -n $b && $a -lt $b ]]; then ok; else fail "$3 (line $a, the engine's first at $b)"; fi
}
expect_no_grep() {
  if grep -qE -- "$1" "$WORK/out"; then fail "$2: a line matches /$1/"; grep -E -- "$1" "$WORK/out" | head -5 >&2; else ok; fi
}
expect_count() { # expect_count N PATTERN DESCRIPTION
  local n
  n=$(grep -cE -- "$2" "$WORK/out")
  if [[ $n -eq $1 ]]; then ok; else fail "$3: $n lines match /$2/, want $1"; fi
}
# expect_same_sweep TARGET DEPTH: two sweeps print the same report (stdout), not empty
expect_same_sweep() {
  "$GC" sweep --no-confirm "$1" --depth "$2" -q >"$WORK/sweep1" 2>/dev/null
  "$GC" sweep --no-confirm "$1" --depth "$2" -q >"$WORK/sweep2" 2>/dev/null
  if [[ -s $WORK/sweep1 ]] && cmp -s "$WORK/sweep1" "$WORK/sweep2"; then ok; else
    fail "two sweeps of $1 differ"; diff "$WORK/sweep1" "$WORK/sweep2" | head >&2
  fi
}
# expect_readback CODE TARGET FIELD X [OPTION...]: the error-readback program of FIELD on X
# (`try: 'FIELD'.format(X)` / `except Exception as e:` / `result = e.obj`) replayed on TARGET
# (with replay's OPTIONs) exits CODE (its output in $WORK/out)
expect_readback() {
  local code=$1 target=$2 field=$3 x=$4
  shift 4
  printf "try:\n    '%s'.format(%s)\nexcept Exception as e:\n    result = e.obj\n" "$field" "$x" >"$WORK/readback.py"
  expect_exit "$code" "readback of $field on $x" -- "$GC" replay "$target" "$@" "$WORK/readback.py"
}
# expect_program CODE TARGET PROGRAM: the one-line PROGRAM replayed on TARGET exits CODE
# (its output in $WORK/out)
expect_program() {
  printf '%s\n' "$3" >"$WORK/program.py"
  expect_exit "$1" "replay of [$3]" -- "$GC" replay "$2" "$WORK/program.py"
}
# The end of every test: its counts, then its status: 1 when an assertion failed, else 77
# when a part of it was skipped (skip_part), else 0.  77 is ctest's SKIP_RETURN_CODE for the
# shell tests (tests/CMakeLists.txt): a test that could not run all of its checks shows as
# skipped, with its SKIP lines saying why, never as passed.
finish() {
  local note=""
  ((skips == 0)) || note=", $skips part(s) skipped"
  echo "$passes passed, $fails failed$note"
  ((fails == 0)) || return 1
  ((skips == 0)) || return 77
}
# skip WHY: the test cannot run here (a precondition is missing): one line saying why, and
# the test ends now as skipped (or failed, when an assertion before it failed).
skip() {
  skips=$((skips + 1))
  echo "SKIP: $*"
  finish
  exit
}
# skip_part WHY: a part of the test cannot run here: one line saying why; the rest runs,
# and finish ends the test as skipped unless an assertion failed.
skip_part() {
  skips=$((skips + 1))
  echo "SKIP: $*"
}
# need NAME...: 0 when every NAME is here.  A NAME is a binary of this build ($BIN/NAME) or a
# command on PATH (afl-fuzz, clang).  One this build cannot have (fuzz_gate, fuzz_source,
# fuzz_decoder, fuzz_program in a GATECRASH_ENGINE=none build; fuzz_gate_afl where
# afl-clang-fast was not found or GATECRASH_AFL=OFF) or a command not installed: skip_part
# naming it, and 1.  A binary this build makes but that is missing is a failure (a stale or
# broken build is not a missing precondition), and 1.
#     need fuzz_gate || { finish; exit; }    # the rest of the test needs it
#     if need fuzz_gate_afl afl-fuzz; then ...; fi
need() {
  local n why=() broken=() engine afl afl_on
  engine=$(sed -n 's/^GATECRASH_ENGINE:STRING=//p' "$BIN/CMakeCache.txt" 2>/dev/null)
  afl=$(sed -n 's/^AFL_CLANG_FAST:FILEPATH=//p' "$BIN/CMakeCache.txt" 2>/dev/null)
  afl_on=$(sed -n 's/^GATECRASH_AFL:BOOL=//p' "$BIN/CMakeCache.txt" 2>/dev/null)
  for n in "$@"; do
    if [[ $n != fuzz_* ]]; then
      command -v "$n" >/dev/null || why+=("$n is not installed")
    elif [[ -x $BIN/$n ]]; then
      :
    elif [[ $engine == none ]]; then
      why+=("$BIN/$n is not built (this build is GATECRASH_ENGINE=none; GATECRASH_ENGINE=libfuzzer builds it)")
    elif [[ $n == fuzz_gate_afl && ( -z $afl || $afl == *-NOTFOUND || $afl_on == OFF ) ]]; then
      why+=("$BIN/$n is not built (afl-clang-fast not found when $BIN was configured, or GATECRASH_AFL=OFF)")
    else
      broken+=("$n")
    fi
  done
  ((${#broken[@]} == 0)) || fail "this build makes ${broken[*]} but $BIN lacks it (cmake --build $BIN)"
  if ((${#why[@]})); then
    local text=${why[0]}
    for n in "${why[@]:1}"; do text+="; $n"; done
    skip_part "$text: the checks that need it did not run"
  fi
  ((${#why[@]} == 0 && ${#broken[@]} == 0))
}

# fuzz_one_process TOKEN WHAT: fuzz_gate on $T, one bounded process in the working folder,
# seeds in $WORK/seeds, must stop on an escape whose DEDUP_TOKEN starts with TOKEN and save
# its crash input in $WORK/crashes (its path in $crash)
# (FUZZ_ONE_ARGS: more libFuzzer flags, an array)
FUZZ_ONE_ARGS=()
fuzz_one_process() {
  expect_exit 77 "libFuzzer, one process" -- "$FUZZ" --target="$T" -runs=20000 -seed=1 -error_exitcode=77 \
    "${FUZZ_ONE_ARGS[@]}" \
    -dict="$WORK/dict" -artifact_prefix="$WORK/crashes/" "$WORK/corpus" "$WORK/seeds"
  expect_grep "^DEDUP_TOKEN: $1" "libFuzzer: $2"
  crash=$(ls "$WORK"/crashes/crash-* 2>/dev/null | head -1)
  [[ -n $crash ]] && ok || fail "libFuzzer saved no crash input"
}

# crash_fixtures: the folder of tests/fixtures/crashes as this build's CPython needs it.  The
# raw crash inputs were found on CPython 3.11, and their .#K indices name attributes in
# 3.11's dir() orders; on another version, a copy where each target's folder also holds the
# chains the 3.11 fuzzing process resolved (fixtures/crashes/resolved), as fuzz_gate records
# them beside every crash input: triage then runs those, as it does a campaign's crashes.
crash_fixtures() {
  local fx=$SRC/tests/fixtures/crashes t
  if [[ $PYVER == 3.11 ]]; then echo "$fx"; return; fi
  if [[ ! -d $WORK/crash-fixtures ]]; then
    cp -R "$fx" "$WORK/crash-fixtures"
    for t in "$fx"/resolved/*/; do t=$(basename "$t"); cp -R "$fx/resolved/$t" "$WORK/crash-fixtures/$t/resolved"; done
  fi
  echo "$WORK/crash-fixtures"
}

# blocked_here: the saved cases (paths below $SRC) that fixtures/version-specific.txt says
# this build's CPython blocks, one a line.
blocked_here() {
  local vers path why
  while read -r vers path why; do
    [[ $vers == "#"* || -z $vers ]] && continue
    [[ ,$vers, == *,$PYVER,* ]] && echo "$path"
  done <"$SRC/tests/fixtures/version-specific.txt"
}

# test_venv: VENV=$BIN/test-venv, a venv of $PY with the pinned Python test tools
# (pytest, from PyPI), made once under a lock; when it is there nothing is fetched.
PYTEST_PIN=8.3.4
VENV=$BIN/test-venv
test_venv() {
  (
    flock 9
    "$VENV/bin/python" -c 'import sys, pytest; sys.exit(pytest.__version__ != sys.argv[1])' "$PYTEST_PIN" 2>/dev/null && exit 0
    rm -rf "$VENV"
    "$PY" -m venv "$VENV" && "$VENV/bin/pip" install -q --disable-pip-version-check "pytest==$PYTEST_PIN"
  ) 9>"$BIN/test-venv.lock" >"$WORK/venv.log" 2>&1 && ok ||
    { fail "cannot make the test venv ($VENV, pytest==$PYTEST_PIN; python3-venv: bash ci/install-deps.sh)"; sed 's/^/    /' "$WORK/venv.log" | tail -5 >&2; return 1; }
}

# target_installed NAME: whether the sandbox package pinned in targets/NAME/requirements.txt
# is in its venv ($BIN/venvs/NAME).  A pin with an environment marker that leaves it out on
# this CPython (a historical release older than the version) is a skipped part (skip_part:
# one SKIP line, and the test ends as skipped); any other missing pin is a failure.
target_installed() {
  local line pkg
  line=$(grep -v '^#' "$SRC/targets/$1/requirements.txt" | head -1)
  pkg=${line%%==*}
  "$BIN/venvs/$1/bin/python" -I -c 'import sys, importlib.metadata as m; m.version(sys.argv[1])' "$pkg" 2>/dev/null && return 0
  if [[ $line == *";"* ]]; then
    skip_part "targets/$1: $pkg is not for CPython $PYVER (requirements.txt: ${line#*;}): its checks not run"
  else
    fail "targets/$1: $pkg is not installed in $BIN/venvs/$1"
  fi
  return 1
}
