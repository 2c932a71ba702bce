#!/usr/bin/env bash
# Garbage targets: a gate that exits the process, hangs or blocks on import, swallows the
# harness's interruption, allocates without bound, prints megabytes, or exits from its
# install or from code a chain calls.  Each gets one clear line and a documented exit code
# (README "Exit codes"), in the tools and in fuzz_gate, never a silent 0 or a hang.
source "$(dirname "$0")/lib.sh" "$@"
G=$SRC/tests/fixtures/garbage
printf 'thing\n' >"$WORK/thing.chain"
printf 'bye()\n' >"$WORK/bye.chain"
R=(replay -q)
export GATECRASH_IMPORT_TIMEOUT=1 # hangs end after 1 s instead of 120
one_line() { # exactly one error line, no traceback
  if [[ $(grep -c '^gatecrash: error: ' "$WORK/out") -eq 1 ]] && ! grep -q Traceback "$WORK/out"; then ok
  else fail "$1: not one error line"; sed 's/^/    /' "$WORK/out" | head -5 >&2; fi
}
expect_exit 3 "gate calls os._exit(0) on import" -- "$GC" "${R[@]}" --sandbox "$G/exits_on_import.py" --requires '{}' "$WORK/thing.chain"
expect_fgrep "gatecrash: error: the gate ended the process (exit status 0) while importing it" "exit on import named"; one_line "exit on import"
expect_exit 3 "gate calls os._exit(0) in its install" -- "$GC" "${R[@]}" --sandbox "$G/exits_on_install.py" --requires '{}' "$WORK/thing.chain"
expect_fgrep "the gate ended the process (exit status 0) while installing it" "exit on install named"; one_line "exit on install"
expect_exit 3 "gate code a chain calls runs os._exit(0)" -- "$GC" "${R[@]}" --sandbox "$G/exits_in_chain.py" --requires '{}' "$WORK/bye.chain"
expect_fgrep "the gate ended the process (exit status 0) while running a chain" "exit in chain named"; one_line "exit in chain"
expect_exit 3 "gate hangs on import (busy loop)" -- "$GC" "${R[@]}" --sandbox "$G/hangs_on_import.py" --requires '{}' "$WORK/thing.chain"
expect_grep "hangs_on_import.py did not finish importing and installing within 1 s" "import hang named"; one_line "import hang"
expect_exit 3 "gate blocks on import (sleep)" -- "$GC" "${R[@]}" --sandbox "$G/sleeps_on_import.py" --requires '{}' "$WORK/thing.chain"
expect_grep "sleeps_on_import.py did not finish importing" "import sleep named"; one_line "import sleep"
expect_exit 3 "gate swallows every interruption on import" -- "$GC" "${R[@]}" --sandbox "$G/swallows_on_import.py" --requires '{}' "$WORK/thing.chain"
expect_grep "importing the gate ran 3 s past its time limit and Python could not interrupt it" "hard limit named"; one_line "hard limit"
GATECRASH_IMPORT_TIMEOUT=60 expect_exit 3 "gate allocates without bound on import" -- "$GC" "${R[@]}" --sandbox "$G/allocates_on_import.py" --requires '{}' "$WORK/thing.chain"
expect_grep "allocates_on_import.py ran out of memory while importing and installing \(limit 512 MiB\)" "import OOM named"; one_line "import OOM"
# megabytes of output: the start-up log is capped, later installs are silenced
GATECRASH_IMPORT_TIMEOUT=60 expect_exit 0 "gate printing megabytes on import and install" -- "$GC" replay --sandbox "$G/prints_megabytes.py" --requires '{}' "$WORK/thing.chain" "$WORK/thing.chain"
size=$(wc -c <"$WORK/out")
[[ $size -lt 16384 ]] && ok || fail "megabytes of gate output reached the harness's output ($size bytes)"
expect_grep "bytes in all\)" "the log says how much there was"
expect_count 2 "thing.chain: blocked" "both inputs ran"
# corrupt inputs beside good ones (bad_input.sh has the single cases)
printf '\x00\x01garbage[[[(' >"$WORK/corrupt.chain"
expect_exit 2 "a corrupt chain file among good ones" -- "$GC" "${R[@]}" "$SRC/targets/station-1.5.0" "$WORK/thing.chain" "$WORK/corrupt.chain"
expect_grep "corrupt.chain:1:1: " "the corrupt file is named with a position"
mkdir -p "$WORK/empty" "$WORK/binary"
: >"$WORK/empty/target.json"
head -c 3000 /dev/urandom >"$WORK/binary/target.json"
expect_exit 2 "an empty target.json" -- "$GC" "${R[@]}" "$WORK/empty" "$WORK/thing.chain"
one_line "empty target.json"
expect_exit 2 "a binary target.json" -- "$GC" "${R[@]}" "$WORK/binary" "$WORK/thing.chain"
one_line "binary target.json"

need fuzz_gate || { finish; exit; }
# the same gates under the fuzzer: the same exit codes, no hang
mkdir -p "$WORK/scratch"
for g in exits_on_import exits_on_install hangs_on_import swallows_on_import; do
  (cd "$WORK/scratch" && "$FUZZ" --sandbox="$G/$g.py" --requires='{}' -runs=10 "$WORK/thing.chain") >"$WORK/out" 2>&1
  rc=$?
  [[ $rc -eq 3 ]] && ok || { fail "fuzz_gate on $g: exit $rc, want 3"; tail -3 "$WORK/out" >&2; }
  one_line "fuzz_gate on $g"
done
(cd "$WORK/scratch" && "$FUZZ" --sandbox="$G/exits_in_chain.py" --requires='{}' "$WORK/bye.chain") >"$WORK/out" 2>&1
rc=$?
[[ $rc -eq 3 ]] && ok || fail "fuzz_gate on exits_in_chain: exit $rc, want 3"
expect_fgrep "the gate ended the process (exit status 0) while running a chain" "fuzz_gate: exit in chain named"
finish
