#!/usr/bin/env bash
# A fuzzing process does not wait on the same block again (harness/chain/hangs.h): after the slice
# `nap()` (a call that sleeps until the time limit's signal) has run past the limit twice and
# a third run confirmed it, inputs that reach that step end there without running it, while
# what comes before it in an input still runs (an escape there is still found) and other
# steps still run.  fuzz_gate-test runs the inputs in name order in one process.  With
# --known-hangs=FILE the confirmed hang is written to FILE, and a second process given the same
# file (a campaign's next fork-mode job) skips it from its first input on.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/hostile/resources
RUN=$BIN/fuzz_gate-test
I="__builtins__['__import__']"
mkdir -p "$WORK/in" "$WORK/scratch"
n=0
for first in spin recurse hoard forged looper stuck fake fakes sys spin.__name__; do # 10 ways to reach nap()
  printf '%s\nnap()\n' "$first" >"$WORK/in/a$((n++))"
done
printf "%s('os').system\nnap()\n" "$I" >"$WORK/in/b-escape-first" # escapes before the block
printf 'nap\n' >"$WORK/in/c-not-called"                             # the same root, not the slice
printf 'nap()\n' >"$WORK/in/d-alone"
expect_exit 1 "the runner over blocking inputs (one escape: exit 1)" -- \
  env -C "$WORK/scratch" "$RUN" --target="$T" --known-hangs="$WORK/hangs" "$WORK/in"
expect_fgrep "input $WORK/in/b-escape-first: finding" "an escape before a known hang is still found"
expect_grep "ESCAPE reach spawn os.system" "  ... as os.system"
expect_fgrep "input $WORK/in/c-not-called: ok" "a step that is not the hang's slice runs"
expect_fgrep "input $WORK/in/d-alone: rejected" "the hang alone is rejected, as a timeout is"
stops=$(sed -n 's/.*inputs stopped by the time limit \([0-9]*\),.*/\1/p' "$WORK/out")
skipped=$(sed -n 's/.*known hangs not run again \([0-9]*\).*/\1/p' "$WORK/out")
echo "11 inputs that reach nap(): ${stops:-?} stopped by the time limit, ${skipped:-?} not run again"
# 2 overruns and a confirming run, then every later one skipped: 9 of 11; a confirmation the
# machine spoils (the thread preempted) is tried again at the 4th overrun
[[ -n $skipped ]] && ((skipped >= 5)) && ok || fail "known hangs not run again: ${skipped:-none}, want at least 5 of 11"
[[ -n $stops ]] && ((stops <= 7)) && ok || fail "runs stopped by the time limit: ${stops:-?}, want at most 7 (11 inputs and the confirming runs)"

# the next process, given the file: nothing waits on the block, every reach of it is skipped
[[ $(grep -cxE '[0-9a-f]{16}' "$WORK/hangs" 2>/dev/null) == 1 ]] && ok ||
  fail "the confirmed hang is one key in the shared file: $(head -c 200 "$WORK/hangs" 2>&1)"
rm "$WORK/in/b-escape-first"
expect_exit 0 "a second process sharing the file, over the blocking inputs" -- \
  env -C "$WORK/scratch" "$RUN" --target="$T" --known-hangs="$WORK/hangs" "$WORK/in"
stops=$(sed -n 's/.*inputs stopped by the time limit \([0-9]*\),.*/\1/p' "$WORK/out")
skipped=$(sed -n 's/.*known hangs not run again \([0-9]*\).*/\1/p' "$WORK/out")
echo "the second process: ${stops:-?} stopped by the time limit, ${skipped:-?} not run again"
[[ $stops == 0 && $skipped == 11 ]] && ok ||
  fail "a hang an earlier process confirmed: ${stops:-?} stopped, ${skipped:-?} skipped; want 0 and all 11"

# a loop on a busy core: the runner shares CPU 0 with a busy loop (a campaign with a job per
# core), so other tasks take its processor during the confirming run; it still spends a
# quarter of that run looping, and spin() is confirmed (before: never, 11 of 11 waited)
rm -rf "$WORK/in" && mkdir -p "$WORK/in"
n=0
for first in spin recurse hoard forged looper stuck fake fakes sys spin.__name__ nap; do
  printf '%s\nspin()\n' "$first" >"$WORK/in/a$((n++))"
done
taskset -c 0 bash -c 'while :; do :; done' &
busy=$!
expect_exit 0 "the runner over inputs that reach spin(), on a busy core" -- \
  env -C "$WORK/scratch" taskset -c 0 "$RUN" --target="$T" "$WORK/in"
kill "$busy"
wait "$busy" 2>/dev/null
skipped=$(sed -n 's/.*known hangs not run again \([0-9]*\).*/\1/p' "$WORK/out")
echo "11 inputs that reach spin() on a busy core: ${skipped:-?} not run again"
[[ -n $skipped ]] && ((skipped >= 5)) && ok || fail "a loop on a busy core is confirmed: ${skipped:-?} of 11 not run again, want at least 5"

# a campaign hands its jobs one file (OUT/known-hangs), emptied when it starts: the seeds that
# reach nap() in the first job confirm it there, and the key is in the file at the end
need fuzz_gate || { finish; exit; }
B=$SRC/tests/fixtures/hostile/blocking
mkdir -p "$WORK/seeds" "$WORK/camp"
for k in 1 2 3 4; do printf 'nap()\n' >"$WORK/seeds/nap$k"; printf 'tools\nnap()\n' >"$WORK/seeds/tn$k"; done
echo ffffffffffffffff >"$WORK/camp/known-hangs" # a key an earlier run left
timeout 120 "$GC" fuzz "$B" --time 10 --no-sweep-seed --corpus "$WORK/seeds" --out "$WORK/camp" >"$WORK/out" 2>&1
rc=$? # 5 too: its seeds all hang, and over a tenth of the inputs cut by the limit is inconclusive
[[ $rc == 0 || $rc == 1 || $rc == 5 ]] && ok || fail "a 10 s campaign over inputs that reach nap(): exit $rc"
grep -qxE '[0-9a-f]{16}' "$WORK/camp/known-hangs" 2>/dev/null && ok ||
  fail "the campaign's jobs wrote their confirmed hang to OUT/known-hangs"
grep -qx ffffffffffffffff "$WORK/camp/known-hangs" 2>/dev/null && fail "an earlier run's key survived the start" || ok
finish
