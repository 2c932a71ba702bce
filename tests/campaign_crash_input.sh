#!/usr/bin/env bash
# A crash input that crashes CPython itself must not take the campaign down.  A chain can no
# longer do that by itself (time.pthread_getcpuclockid(1), which dereferences thread id 1 as a
# pthread_t, is refused: tests/harness_crash.sh), so gate code does it here: crash(1) of the
# gate below, beside an open door (os) so that the campaign has escapes to report.  The
# campaign replays crash inputs in its own process, and before
# harness/campaign/campaign.c's stops_a_process() this seed made `gatecrash fuzz` die of SIGSEGV
# (exit 139) as soon as libFuzzer wrote it.  It runs in a fresh process instead, where it
# crashes the target: a crash finding (the sandbox let an input crash its host), in
# the table, and the campaign ends with its table.  Replayed on its own, the same chain ends
# `gatecrash replay` with its CRASH line and exit 1, a finding (harness/runtime/timelimit.h,
# gc_limits_catch_crashes), not a bare SIGSEGV (139); a sanitizer build keeps the sanitizer's
# report.
source "$(dirname "$0")/lib.sh" "$@"
T=$WORK/gate
mkdir -p "$T"
cat >"$T/crasher_gate.py" <<'PY'
import os as _os
import time as _time


def crash(n):  # glibc reads the thread's id through pthread_t n, a pointer: SIGSEGV
    return _time.pthread_getcpuclockid(n)  # (an argument: the campaign's sweep calls it without)


def install_restrictions(ns, requires, module_id):
    ns["crash"] = crash
    ns["os"] = _os
PY
printf '{"name": "crasher", "sandbox": "crasher_gate.py", "requires": {"subprocess": false}, "install": "install_restrictions"}\n' >"$T/target.json"
printf 'crash(1)\n' >"$WORK/segv.chain"
if grep -q '^GATECRASH_SANITIZE:BOOL=ON' "$BIN/CMakeCache.txt"; then
  "$GC" replay "$T" "$WORK/segv.chain" >"$WORK/out" 2>&1
  [[ $? != 0 ]] && ok || fail "replay of the crashing chain on a sanitizer build: exit 0"
else
  expect_exit 1 "replay of the chain that crashes the interpreter" -- "$GC" replay "$T" "$WORK/segv.chain"
  expect_grep "segv.chain: CRASH SIGSEGV( at .*)? \(the input crashed the target" "  ... its CRASH line"
fi
expect_no_grep "ESCAPE" "  ... and no escape"
need fuzz_gate || { finish; exit; }
mkdir -p "$WORK/seeds"
printf 'crash(1)\n' >"$WORK/seeds/segv"
printf 'os.system\n' >"$WORK/seeds/escape"
expect_exit 1 "a campaign whose seed crashes the interpreter ends with its escapes" -- \
  "$GC" fuzz "$T" --time 8 --seed 1 --corpus "$WORK/seeds" --out "$WORK/o"
if grep -q '^GATECRASH_SANITIZE:BOOL=ON' "$BIN/CMakeCache.txt"; then # the sanitizer's report, no CRASH line
  expect_grep "^did not reproduce: crash-[0-9a-f]+: stops a fresh gatecrash replay too" "the crash input named as what it is"
else
  expect_grep "^CRASH +SIGSEGV .*crash\(1\)" "the crash input is a crash finding in the table"
fi
expect_grep "distinct escape\(s\) on crasher" "the table is printed"
finish
