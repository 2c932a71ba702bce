#!/usr/bin/env bash
# A crashing source target is a finding, never the end of the run (docs/RELIABILITY.md,
# "Crashing targets"; the gate cases are crash_findings.sh): tests/fixtures/crashing/source
# hands its programs boom() (SIGSEGV from C) beside the real os.system.  A campaign, its
# opening sweep included, lists the crash with its program and finds the escape; the saved
# input replays as CRASH and triage makes a crash case of it.  In the 3.12/3.13 subset too:
# on CPython 3.13.0 the opening sweep's own read of a frame-locals proxy whose generator was
# gone killed the sweep's process (exit 4, "gatecrash itself crashed"; pycompat.h,
# gc_mapping_keys).  tests/fixtures/crashing/hostread hands out a ctypes pointer at address 1,
# whose C getter `contents` the sweep's walk reads in the host, outside any input: the
# campaign says so in one line, skips that node and goes on (before: exit 4, the whole
# campaign ended, "gatecrash itself crashed").
source "$(dirname "$0")/lib.sh" "$@"
F=$SRC/tests/fixtures/crashing
if grep -q '^GATECRASH_SANITIZE:BOOL=ON' "$BIN/CMakeCache.txt"; then
  skip "a sanitizer build reports crashes with its own handlers (timelimit.h)"
fi
R=(replay -q)
cp -r "$F/seeds-source" "$WORK/" # --corpus gets the merged corpus back
cp -r "$F/seeds-source" "$WORK/seeds-hostread"
# the live replay of a crash input runs it in a fresh process
expect_exit 1 "a campaign on a source target that an input crashes" -- "$GC" fuzz "$F/source" --runs 200 --jobs 1 --seed 1 --corpus "$WORK/seeds-source" --out "$WORK/s"
expect_grep "^CRASH +SIGSEGV +adapter.py:10 in boom +[0-9]+  result = boom\(\)" "  ... the crash finding, its program"
expect_grep "distinct escape\(s\) on crashing-source" "  ... the campaign's table is printed"
expect_grep "new hole namespace run \(spawn\)" "  ... and the real escape is found"
c=$WORK/s/crashes/$(sed -n 's/^CRASH .*  (\(crash-[0-9a-f]*\))$/\1/p' "$WORK/out" | head -1)
expect_exit 1 "replay of the saved source crash input" -- "$GC" "${R[@]}" --raw "$F/source" "$c"
expect_fgrep "CRASH SIGSEGV at adapter.py:10 in boom" "  ... says CRASH"
expect_exit 0 "triage of the source crash input" -- "$GC" triage "$F/source" --out "$WORK/scases" "$c"
expect_grep "^crash +crash-[0-9a-f]+: crash:SIGSEGV:adapter.py:10 in boom  crash-SIGSEGV-adapter.py-via-10_in_boom.py" "  ... a source crash case"
expect_exit 1 "replay of the source crash case" -- "$GC" "${R[@]}" "$F/source" "$WORK/scases/crash-SIGSEGV-adapter.py-via-10_in_boom.py"
# the sweep's own read of a value in the host crashes: no finding, the node skipped, the run goes on
expect_exit 1 "a campaign whose sweep's host read crashes" -- "$GC" fuzz "$F/hostread" --runs 200 --jobs 1 --seed 1 --corpus "$WORK/seeds-hostread" --out "$WORK/h"
expect_fgrep "[sweep] reading node 0's values in the host crashed the sweep's process (SIGSEGV, outside any input: no finding); the sweep goes on without that node" "  ... one line says so"
expect_grep "new hole namespace run \(spawn\)" "  ... and the real escape is found"
expect_no_grep "itself crashed" "  ... never the harness's own crash"
finish
