#!/usr/bin/env bash
# A campaign's libFuzzer jobs (fork mode) record each escape and go on (fuzz_gate's and
# fuzz_source's --escapes=record, fuzz/findings.h): an escape used to be a crash that ended
# its job, and each new one cost a process's start-up (fuzz_source's, even a known one).  At --time the campaign tells its running jobs to stop (libFuzzer's
# -stop_file, OUT/tmp/.../STOP): the fork-mode parent looks at the clock only when a job ends,
# and its last job ran on for up to its whole slice (a job runs as many seconds as its number).
source "$(dirname "$0")/lib.sh" "$@"
need fuzz_gate || { finish; exit; }
expect_exit 1 "a 12 s campaign on station-1.5.0 finds escapes" -- \
  "$GC" fuzz "$SRC/targets/station-1.5.0" --time 12 --seed 1 --no-sweep-seed --out "$WORK/o"
expect_grep "^[0-9]+ escape input\(s\), [1-9][0-9]* distinct escape\(s\) on station-1\.5\.0" "  ... and prints them"
status=$(grep -a 'oom/timeout/crash:' "$WORK/o/fuzz.log" | tail -1)
[[ $status =~ oom/timeout/crash:\ [0-9]+/[0-9]+/0\  ]] && ok ||
  fail "no job ended on an escape: the engine's last status line says crashes: $status"
grep -q "^gatecrash: the campaign's time is up: its jobs are told to stop (.*/STOP)$" "$WORK/o/fuzz.log" && ok ||
  fail "at --time the campaign told its jobs to stop (OUT/fuzz.log)"
# a source target's jobs alike
need fuzz_source || { finish; exit; }
mkdir -p "$WORK/seeds" # the advisory's program (path.os.system), so that the first job escapes at once
printf '\x00\x04path\x08\x02os\x08\x06system\x0d' >"$WORK/seeds/advisory"
expect_exit 1 "a 12 s campaign on simpleeval-1.0.4 finds escapes" -- \
  "$GC" fuzz "$SRC/targets/simpleeval-1.0.4" --venv "$BIN/venvs/simpleeval-1.0.4" --time 12 --seed 1 \
  --no-sweep-seed --corpus "$WORK/seeds" --out "$WORK/s"
expect_grep "^[0-9]+ escape input\(s\), [1-9][0-9]* distinct escape\(s\) on simpleeval-1\.0\.4" "  ... and prints them"
status=$(grep -a 'oom/timeout/crash:' "$WORK/s/fuzz.log" | tail -1)
[[ $status =~ oom/timeout/crash:\ [0-9]+/[0-9]+/0\  ]] && ok ||
  fail "no source job ended on an escape: the engine's last status line says crashes: $status"
finish
