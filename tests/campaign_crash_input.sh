#!/usr/bin/env bash
# A crash input that crashes CPython itself (time.pthread_getcpuclockid(1), through the
# station proxy's real time module, dereferences thread id 1 as a pthread_t) must not take
# the campaign down: the campaign replays crash inputs in its own process, and before
# harness/campaign/campaign.c's stops_a_process() this seed made `gatecrash fuzz` die of SIGSEGV
# (exit 139) as soon as libFuzzer wrote it.  It runs in a fresh process instead, where it
# crashes the target: a crash finding (issue 50: the sandbox let an input crash its host), in
# the table, and the campaign ends with its table.  Replayed on its own, the same chain ends
# `gatecrash replay` with its CRASH line and exit 1, a finding (harness/runtime/timelimit.h,
# gc_limits_catch_crashes), not a bare SIGSEGV (139); a sanitizer build keeps the sanitizer's
# report.
source "$(dirname "$0")/lib.sh" "$@"
printf 'subprocess.time.pthread_getcpuclockid(1)\n' >"$WORK/segv.chain"
if grep -q '^GATECRASH_SANITIZE:BOOL=ON' "$BIN/CMakeCache.txt"; then
  "$GC" replay "$SRC/targets/station-1.5.0" "$WORK/segv.chain" >"$WORK/out" 2>&1
  [[ $? != 0 ]] && ok || fail "replay of the crashing chain on a sanitizer build: exit 0"
else
  expect_exit 1 "replay of the chain that crashes the interpreter" -- "$GC" replay "$SRC/targets/station-1.5.0" "$WORK/segv.chain"
  expect_grep "segv.chain: CRASH SIGSEGV( at .*)? \(the input crashed the target" "  ... its CRASH line"
fi
expect_no_grep "ESCAPE" "  ... and no escape"
need fuzz_gate || { finish; exit; }
mkdir -p "$WORK/seeds"
printf 'subprocess.time.pthread_getcpuclockid(1)\n' >"$WORK/seeds/segv"
expect_exit 1 "a campaign whose seed crashes the interpreter ends with its escapes" -- \
  "$GC" fuzz "$SRC/targets/station-1.5.0" --time 8 --seed 1 --corpus "$WORK/seeds" --out "$WORK/o"
if grep -q '^GATECRASH_SANITIZE:BOOL=ON' "$BIN/CMakeCache.txt"; then # the sanitizer's report, no CRASH line
  expect_grep "^did not reproduce: crash-[0-9a-f]+: stops a fresh gatecrash replay too" "the crash input named as what it is"
else
  expect_grep "^CRASH +SIGSEGV .*subprocess\.time\.pthread_getcpuclockid\(1\)" "the crash input is a crash finding in the table"
fi
expect_grep "distinct escape\(s\) on station-1\.5\.0" "the table is printed"
finish
