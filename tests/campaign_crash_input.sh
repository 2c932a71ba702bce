#!/usr/bin/env bash
# A crash input that crashes CPython itself (time.pthread_getcpuclockid(1), through the
# station proxy's real time module, dereferences thread id 1 as a pthread_t) must not take
# the campaign down: the campaign replays crash inputs in its own process, and before
# harness/campaign.c's stops_a_process() this seed made `gatecrash fuzz` die of SIGSEGV
# (exit 139) as soon as libFuzzer wrote it.  It is named, not replayed, and the campaign ends
# with its table.
source "$(dirname "$0")/lib.sh" "$@"
mkdir -p "$WORK/seeds"
printf 'subprocess.time.pthread_getcpuclockid(1)\n' >"$WORK/seeds/segv"
expect_exit 1 "a campaign whose seed crashes the interpreter ends with its escapes" -- \
  "$GC" fuzz "$SRC/targets/station-1.5.0" --time 8 --seed 1 --corpus "$WORK/seeds" --out "$WORK/o"
expect_grep "^did not reproduce: crash-[0-9a-f]+: stops a fresh gatecrash replay too \(it crashes or hangs the interpreter" \
  "the crash input named as what it is"
expect_grep "distinct escape\(s\) on station-1\.5\.0" "the table is printed"
finish
