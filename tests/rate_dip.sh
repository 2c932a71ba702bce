#!/usr/bin/env bash
# A campaign whose engine process is stopped for 6 s (SIGSTOP, as a machine busy with other
# work would starve it) names the dip when it ends: the seconds, the rate against the run's
# median, and the cause the record shows (the process had almost no CPU in them); the line
# is in OUT/job-stats.log too.  (fuzz/ratewatch.c; the
# analysis on made-up seconds is test_ratewatch.)
source "$(dirname "$0")/lib.sh" "$@"
need fuzz_gate || { finish; exit; }
T=$SRC/targets/station-1.5.0
# one process for the whole run (--runs: record mode), 22 s, no opening sweep
run() { "$GC" fuzz "$T" --runs 1000000000 --time 22 --seed 1 --no-sweep-seed --out "$1"; }
run "$WORK/fz" >"$WORK/fuzz.txt" 2>"$WORK/fuzz.err" &
camp=$!
pid=
for _ in $(seq 100); do
  pid=$(pgrep -f "fuzz_gate .*$WORK/fz/" | head -1) && [[ -n $pid ]] && break
  sleep 0.1
done
sleep 8
[[ -n $pid ]] && kill -STOP "$pid" && sleep 6 && kill -CONT "$pid"
wait "$camp"
cp "$WORK/fuzz.err" "$WORK/out"
expect_grep "^gatecrash: rate dip: seconds [0-9]+-[0-9]+ of the run at [0-9]+ inputs/s, under half its median [0-9]+/s: the process had [0-9]+% of a CPU in it \([0-9]+% in the rest of the run\)" \
  "the stopped seconds are a dip, explained"
expect_grep "^\[ *[0-9]+s\] execs .*\(done\)" "the campaign ran to its end"
cp "$WORK/fz/job-stats.log" "$WORK/out"
expect_grep "^gatecrash: rate dip: seconds" "the dip line is in OUT/job-stats.log"
finish
