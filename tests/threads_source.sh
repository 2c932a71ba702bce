#!/usr/bin/env bash
# Threads the sandbox starts are part of the evaluation (docs/ORACLES.md, "Threads"): a
# source target whose evaluate runs each program in a concurrent.futures worker with a
# timeout (tests/fixtures/source/threaded, as agent executors do) is evaluated, not refused;
# the returned value, the C-call guard, effect mode (the audit hook, Landlock: process-wide)
# and the time limit hold in the worker; a thread
# still alive when its input ends is stopped and noted (not an escape) and the next input
# starts clean; one that cannot be stopped is one line and exit 4; the idle worker of a pool
# the sandbox keeps for its whole life is kept.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/threaded
P=$WORK/programs
mkdir -p "$P"
printf 'result = 1 + 1\n' >"$P/safe-sum.py"
printf 'result = print\n' >"$P/safe-print.py"
printf 'result = sorted("cab")\n' >"$P/safe-sorted.py"
printf 'result = 1 / 0\n' >"$P/safe-raises.py"
printf 'result = "forbidden"\n' >"$P/safe-refused.py"
printf 'result = run\n' >"$P/value.py"
printf 'run("true")\nresult = 1\n' >"$P/called.py"
printf 'while True:\n    pass\n' >"$P/loop.py"
# the program's own threads: one that outlives its input, then a probe that escapes only
# when a thread of an earlier input is still alive
cat >"$P/linger.py" <<'PY'
import threading
def spin():
    while True:
        pass
threading.Thread(target=spin, name="linger", daemon=True).start()
result = 1
PY
cat >"$P/probe.py" <<'PY'
import threading
result = run if any(t.name == "linger" for t in threading.enumerate()) else 2
PY
# a primitive as a thread's function: no Python frame runs on that thread (3.12+ judge the
# thread's start; on 3.11 the call's own audit event, while the program still runs)
cat >"$P/thread-target.py" <<'PY'
import _thread
_thread.start_new_thread(run, ("true",))
for _ in range(3000000):
    pass
result = 1
PY
# a thread blocked in C (a lock it can never take): no exception reaches it
cat >"$P/stuck.py" <<'PY'
import threading
lock = threading.Lock()
lock.acquire()
threading.Thread(target=lock.acquire, name="stuck").start()
result = 1
PY

R() { "$GC" replay -q "$T" "$@"; }
for f in safe-sum safe-print safe-sorted safe-raises safe-refused; do
  expect_exit 0 "safe program $f" -- R "$P/$f.py"
  expect_no_grep "ESCAPE|refused by the harness|note:" "safe program $f: evaluated in the worker"
done
expect_exit 0 "result = print" -- R "$P/safe-print.py"
expect_grep "safe-print.py: blocked \(returned builtin_function_or_method\)$" "result = print is evaluated"
expect_exit 0 "refusal" -- R "$P/safe-refused.py"
expect_grep "safe-refused.py: blocked \(refused by the sandbox: Refused\)" "the sandbox's refusal from the worker"
expect_exit 1 "a primitive returned from the worker" -- R "$P/value.py"
expect_grep "value.py: .*ESCAPE reach spawn os.system .*in the value evaluate gave back" "value from the worker"
expect_exit 1 "a primitive called in the worker" -- R "$P/called.py"
expect_grep "called.py: .*ESCAPE reach spawn os.system .*C-call guard" "C-call guard in the worker"
expect_exit 1 "a primitive as a thread's function" -- R "$P/thread-target.py"
expect_grep "thread-target.py: .*ESCAPE (reach|effect) spawn os.system" "a thread's function is judged"
# effect mode, process-wide (the audit hook, Landlock): a write and a spawn in the worker are
# effect escapes, and a write outside scratch never reaches the disk
printf 'open("written.txt", "w").write("x")\nresult = 1\n' >"$P/write.py"
printf 'open("%s", "w").write("x")\nresult = 1\n' "$WORK/outside.txt" >"$P/outside.py"
printf 'import os\nos.system("true")\nresult = 1\n' >"$P/spawn.py"
expect_exit 1 "effect mode in the worker" -- "$GC" replay -q --mode effect "$T" "$P/write.py" "$P/outside.py" "$P/spawn.py"
expect_grep "write.py: .*ESCAPE effect write open " "effect: a write in the worker"
expect_grep "outside.py: .*ESCAPE effect write open .*outside.txt" "effect: a write outside scratch in the worker"
expect_grep "spawn.py: .*ESCAPE effect spawn os.system" "effect: a spawn in the worker"
[[ ! -e $WORK/outside.txt ]] && ok || fail "a worker's write outside scratch reached the disk"
# the time limit reaches the worker: LIMIT timeout, the worker ends, the next input is clean
start=$(date +%s)
expect_exit 5 "endless loop in the worker (inconclusive)" -- R "$P/loop.py" "$P/safe-sum.py"
expect_grep "loop.py: LIMIT timeout \(not an escape\)" "endless loop in the worker: timeout"
expect_no_grep "loop.py: note:" "endless loop: the Timeout ended the worker (it was not left to be stopped)"
expect_grep "safe-sum.py: blocked \(returned int\)" "endless loop: the next input runs"
expect_no_grep "safe-sum.py: note:" "endless loop: the next input starts clean"
(( $(date +%s) - start < 10 )) && ok || fail "endless loop in the worker: took $(( $(date +%s) - start )) s"
# a thread alive when its input ends: stopped, a note, not an escape; the next input clean
expect_exit 5 "a thread outlives its input (inconclusive)" -- R "$P/linger.py" "$P/probe.py" "$P/safe-sum.py"
expect_grep "linger.py: inconclusive \(returned int; a thread it started was still running after it, and was stopped\)" \
  "lingering thread: not an escape"
expect_grep "linger.py: note: interpreter state changed by the program and repaired: threads stopped" \
  "lingering thread: stopped and noted"
expect_grep "linger.py: LIMIT thread \(not an escape\)" "lingering thread: a limit line"
expect_no_grep "(probe|safe-sum).py: LIMIT" "lingering thread: the next inputs meet no limit"
expect_grep "probe.py: blocked \(returned int\)$" "lingering thread: gone at the next input"
expect_no_grep "(probe|safe-sum).py: note:" "lingering thread: the next inputs start clean"
"$GC" replay "$T" --json "$P/linger.py" >"$WORK/out" 2>&1
expect_fgrep '{"limit":"thread","escaped":false' "lingering thread: --json names the limit"
# a SystemExit sent to a thread that then ends without raising it (its function is C: a lock
# taken with a timeout): 3.11 leaves the interpreter's pending-exception signal set, and
# every later bytecode takes the slow path (the loop below ran past the 2 s limit, 4x its
# time) unless the harness flushes it.  CPU seconds: the loop alone, the stop alone, both.
cat >"$P/leftover.py" <<'PY'
import _thread, threading
lock = threading.Lock()
lock.acquire()
_thread.start_new_thread(lock.acquire, (True, 0.4))
result = 1
PY
printf 'x = 0\nfor i in range(6000000):\n    x += i\nresult = 1\n' >"$P/loop6m.py"
cpu() { local TIMEFORMAT='%3U %3S' t; t=$({ time R "$@" >"$WORK/out" 2>&1; } 2>&1); awk '{print $1 + $2}' <<<"$t"; }
c_loop=$(cpu "$P/loop6m.py") c_stop=$(cpu "$P/leftover.py") c_both=$(cpu "$P/leftover.py" "$P/loop6m.py")
expect_no_grep "LIMIT timeout" "a loop after a thread stopped in C: within its time"
if awk -v b="$c_both" -v l="$c_loop" -v s="$c_stop" 'BEGIN { exit !(b < s + 2 * l) }'; then ok
else fail "a loop after a thread stopped in C: $c_both CPU s, alone $c_loop (and the stop $c_stop)"; fi
# one that cannot be stopped: one error line, exit 4
expect_exit 4 "a thread blocked in C" -- R "$P/stuck.py" "$P/safe-sum.py"
expect_grep "^gatecrash: error: .*stuck.py: .*a thread started during the input \(stuck in threading.py:[0-9]+ run\) could not be stopped within 1 s" "unstoppable thread: one clear line, the thread named"
expect_count 1 "^gatecrash: error: " "unstoppable thread: one line"
expect_no_grep "Traceback" "unstoppable thread: no traceback"
# a Python audit hook in the process (a library of the sandbox's adds one at import): the
# guard's own sys.setprofile event runs it on the worker thread, whose frame must not install
# the guard again (it recursed until the stack ran out: exit 139 on 3.12 and 3.13)
mkdir -p "$WORK/hooked"
cp "$T/target.json" "$WORK/hooked/"
{ echo 'import sys'; echo 'sys.addaudithook(lambda event, args: None)'; cat "$T/adapter.py"; } >"$WORK/hooked/adapter.py"
expect_exit 0 "worker threads under a Python audit hook" -- "$GC" replay -q "$WORK/hooked" "$P/safe-sum.py" "$P/safe-print.py"
expect_grep "replayed 2: 0 escaped, 2 blocked" "audit hook: the programs run"
# an executor that keeps one pool for its whole life (tests/fixtures/source/pool): its worker,
# idle on the pool's queue after the first program, is the sandbox's state, kept and said
# once (before, every input ended in exit 4: the idle worker could not be stopped); on it the
# value, the C-call guard and the time limit hold as on a fresh worker, and after a timeout
# the next program runs on it.  A pool the program makes and drops is not kept.
K=$SRC/tests/fixtures/source/pool
printf 'from concurrent.futures import ThreadPoolExecutor\np = ThreadPoolExecutor(1)\nresult = p.submit(int).result()\n' >"$P/own-pool.py"
printf 'import threading\nresult = sorted(t.name for t in threading.enumerate() if t.name.startswith("kept"))\n' >"$P/kept-names.py"
expect_exit 1 "a kept pool's worker" -- "$GC" replay "$K" "$P/safe-sum.py" "$P/value.py" "$P/called.py" "$P/loop.py" \
  "$P/safe-sorted.py" "$P/own-pool.py" "$P/safe-sum.py" "$P/kept-names.py"
expect_count 1 "^gatecrash: a worker the sandbox keeps across inputs \(thread [0-9]+ in thread.py:[0-9]+ _worker\) is kept" \
  "kept pool: its worker kept, said once"
expect_no_grep "error|note:|could not be stopped" "kept pool: no input left state, none failed"
expect_grep "value.py: .*ESCAPE reach spawn os.system .*in the value evaluate gave back" "kept pool: the value"
expect_grep "called.py: .*ESCAPE reach spawn os.system .*C-call guard" "kept pool: the C-call guard on the worker"
expect_grep "loop.py: LIMIT timeout \(not an escape\)" "kept pool: the time limit reaches the busy worker"
expect_grep "safe-sorted.py: blocked \(returned list\)" "kept pool: the next program runs after a timeout"
expect_grep "replayed 8: 2 escaped, 5 blocked, 0 unreadable, 1 inconclusive" "kept pool: every program ran"
printf 'import threading\nresult = run if len([t for t in threading.enumerate() if t.name.startswith("kept")]) != 1 else 1\n' >"$P/one-kept.py"
expect_exit 0 "kept pool: one worker, the pool's own, after a program's own pool" -- \
  "$GC" replay -q "$K" "$P/safe-sum.py" "$P/own-pool.py" "$P/one-kept.py"
expect_grep "one-kept.py: blocked \(returned int\)" "kept pool: the program's pool was not kept"
finish
