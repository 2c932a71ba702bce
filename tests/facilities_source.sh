#!/usr/bin/env bash
# Source mode runs a sandbox as its host runs it (docs/ORACLES.md, "Facilities"): the
# sandbox's own code is given what a plain host process offers, and an input leaves none of
# it behind.  One fixture sandbox per facility (tests/fixtures/source/facilities/), each with
# one known escape (a helper that keeps os.system) and a sloppy path that leaves its facility
# set, and each checking first for what an earlier input left (then it gives back os.system:
# never in a fresh process):
#   alarm: a per-program SIGALRM timeout (signal.signal + signal.alarm), left armed by a
#     refused program; its own timeout fires on a loop, before the harness's;
#   atexit: an atexit function registered per execution, never unregistered;
#   asyncio: every program run inside asyncio.run; a refused one leaves asyncgen hooks set;
#   pipe: the program's output through a multiprocessing.Pipe and a feeder thread; a refused
#     one leaves a raw os.pipe open.
# For each: the sweep finds the known escape (exit 1), its safe programs are all blocked in
# one process (exit 0) with the facility put back after the sloppy one, and the escape
# replays.  What no host survives stays refused by name (os._exit); sys.exit runs.  A
# multiprocessing.Queue's semaphore (a file in /dev/shm) is offered in a /dev/shm of the run's
# own; where the kernel gives none it is named and inconclusive, never the sandbox's refusal.
# A write the sandbox's own C code makes outside the run's folders is a write escape, and the
# file is not written.  And the
# hard limit needs nothing the input can take: a sandbox that blocks every signal and loops
# still ends in one line and exit 4 (before: it hung, deaf even to SIGTERM).
source "$(dirname "$0")/lib.sh" "$@"
F=$SRC/tests/fixtures/source/facilities
P=$WORK/programs
mkdir -p "$P"
printf 'result = 1 + 1\n' >"$P/safe-sum.py"
printf 'result = sorted("cab")\n' >"$P/safe-sorted.py"
printf 'result = "forbidden"\n' >"$P/sloppy.py"
R() { "$GC" replay -q "$@"; }

# name root attribute safe-call facility-note
check_fixture() {
  local name=$1 root=$2 attr=$3 call=$4 fac=$5 T=$F/$1
  printf 'result = %s\n' "$call" >"$P/$name-safe.py"
  printf 'result = %s.%s\n' "$root" "$attr" >"$P/$name-value.py"
  printf '%s.%s("true")\nresult = 1\n' "$root" "$attr" >"$P/$name-called.py"
  expect_exit 1 "$name: the sweep finds the known escape" -- "$GC" sweep "$T" --by root --depth 3 -q
  expect_grep "via result = $root\.$attr$" "$name: the hole, its shortest chain"
  expect_grep "^1 hole\(s\), 1 escape signature" "$name: that hole alone"
  expect_exit 0 "$name: safe programs, one process, the facility left set between them" -- \
    R "$T" "$P/safe-sum.py" "$P/sloppy.py" "$P/$name-safe.py" "$P/sloppy.py" "$P/safe-sorted.py"
  expect_no_grep "ESCAPE|refused by the harness" "$name: the sandbox runs as deployed"
  expect_grep "sloppy.py: blocked \(refused by the sandbox: Refused\)$" "$name: the sloppy path is the sandbox's refusal"
  expect_grep "sloppy.py: note: interpreter state changed by the program and repaired: .*$fac" \
    "$name: $fac put back after the input that left it"
  expect_count 2 "safe-(sum|sorted).py: blocked \(returned " "$name: safe programs evaluated"
  expect_exit 1 "$name: the known escape, given back and called" -- R "$T" "$P/$name-value.py" "$P/$name-called.py"
  expect_grep "$name-value.py: gatecrash: ESCAPE reach spawn os.system .*in the value evaluate gave back" "$name: given back"
  expect_grep "$name-called.py: gatecrash: ESCAPE reach spawn os.system .*C-call guard" "$name: called"
}
check_fixture alarm tools shell 'tools.upper("x")' "alarms and itimers, signal handlers"
check_fixture atexit helpers system 'helpers.title("ab")' "atexit functions"
check_fixture asyncio ctx spawn 'ctx.lower("AB")' "asynchronous generator hooks"
check_fixture pipe session shell 'session.strip(" a ")' "descriptors"
# the same in a campaign, whose opening sweep runs in a process the campaign forks: the
# backstop's supervisor (the parent's thread) marks the parent's dirty bits for the child's
# calls, so the child checks every facility after every input (before: the alarm fixture's
# sweep blamed 114 programs, each run after a refused one had left its SIGALRM handler).
# pipe: the harness's own descriptors are not the sandbox's to see, as in its host: no pipe
# is opened after the adapter's import (the copies of 0-2 are made before it, the sweep's
# channels are sockets).  Before, the fixture counted them as pipes an input left: its sweep
# saw 0 nodes and the campaign exited 0, the escape missed
for name in alarm atexit asyncio pipe; do
  expect_exit 1 "$name: a bounded campaign finds the known escape" -- \
    "$GC" fuzz "$F/$name" --runs 100 --seed 1 --no-confirm --out "$WORK/fz-$name"
  expect_grep "^1 escape input\(s\), 1 distinct escape\(s\) on $name " "$name: that escape alone"
done
printf 'print("a", 1)\nprint(len("ab"))\n' >"$P/print.py"
expect_exit 0 "pipe: output through the pipe" -- R "$F/pipe" "$P/print.py"
expect_grep "print.py: blocked \(returned list\)$" "pipe: the lines read back"
# gatecrash's own output a pipe (a shell's |): the same verdicts
expect_exit 0 "pipe: replay's output a pipe" -- bash -o pipefail -c '"$0" replay -q "$1" "$2" | cat' "$GC" "$F/pipe" "$P/safe-sum.py"
expect_grep "safe-sum.py: blocked \(returned int\)$" "pipe: a safe program, blocked"

# a campaign and a sweep that saw nothing run as the host runs it are no all-clear (exit 5):
# a sandbox refused by the harness on every program but the probe's (the engine's inputs all
# inconclusive, its sweep reached no node).  Before: exit 0
mkdir -p "$WORK/hooked"
cat >"$WORK/hooked/adapter.py" <<'PY'
import sys
def evaluate(source):
    if source.strip() != "result = 1":
        sys.addaudithook(lambda *a: None)
    ns = {}
    exec(compile(source, "<program>", "exec"), {"__builtins__": {"len": len}}, ns)
    return ns.get("result")
PY
printf '{"kind": "source", "adapter": "adapter.py", "refusals": [], "requires": {"subprocess": false}}\n' \
  >"$WORK/hooked/target.json"
expect_exit 5 "a campaign whose inputs were all inconclusive" -- \
  "$GC" fuzz "$WORK/hooked" --runs 50 --seed 1 --no-confirm --out "$WORK/fz-hooked"
expect_grep "^\[sweep\] WARNING: the sweep reached no node" "  ... its sweep reached no node"
expect_grep "^INCONCLUSIVE: nothing escaped, but over 10% of the engine's inputs were inconclusive" "  ... inconclusive, said why"
expect_exit 5 "a sweep that reached no node" -- "$GC" sweep "$WORK/hooked" --depth 2 -q
expect_grep "^INCONCLUSIVE: nothing escaped, but the sweep reached no node" "  ... inconclusive, said why"
# an escape the engine saw that does not escape when its input runs alone (it needs what an
# earlier input left) is no all-clear either; a crash input older than the campaign (a
# sandbox fixed since) is only named.  Before: exit 0
A=$SRC/tests/fixtures/source/armed
expect_exit 5 "a campaign whose engine's escape needs an earlier input" -- \
  "$GC" fuzz "$A" --runs 20000 --seed 1 --no-confirm --no-sweep-seed --out "$WORK/fz-armed"
expect_grep "^INCONCLUSIVE: nothing escaped, but an input the engine saw escape did not escape when run alone" \
  "  ... inconclusive, said why"
mkdir -p "$WORK/fz-armed2/crashes" && cp -p "$WORK"/fz-armed/crashes/crash-* "$WORK/fz-armed2/crashes/"
expect_exit 0 "a folder holding those crash inputs, older than the campaign" -- \
  "$GC" fuzz "$A" --runs 1 --seed 1 --no-confirm --no-sweep-seed --out "$WORK/fz-armed2"
expect_grep "did not reproduce: crash-" "  ... named"
# the gate's own sweep too (--sweep-depth): no pass, in every report.  Before: PASS, exit 0
expect_exit 5 "a gate whose sweep reached no node" -- \
  "$GC" gate "$WORK/hooked" --time 0 --sweep-depth 2 --report "$WORK/gate-hooked"
expect_grep "^gate hooked: not a pass: the sweep reached no node" "  ... inconclusive, said why"
grep -qE '^- sweep to depth 2: 0 escape signature\(s\), 0 node\(s\) reached \(\*\*none: no pass\*\*\)' \
  "$WORK/gate-hooked/report.md" && ok || fail "  ... report.md: $(grep sweep "$WORK/gate-hooked/report.md")"
[[ $(jq -c .sweep.nodes "$WORK/gate-hooked/report.json") == 0 ]] && ok || fail "  ... report.json: no 0 nodes"
[[ $(jq '.runs[0].invocations[0].executionSuccessful' "$WORK/gate-hooked/report.sarif") == false ]] && ok ||
  fail "  ... SARIF: the invocation successful"

# descriptors the process held, closed by a program: put back after it, and the oracles
# (the backstop's listener, Landlock) hold for the next inputs; closing the backstop's
# listener too ends in one line, exit 4 (the kernel then fails every spawn: no hang)
L=$SRC/tests/fixtures/source/leak
cat >"$P/close-most.py" <<'PY'
import os
for name in os.listdir("/proc/self/fd"):
    try:
        if int(name) > 2 and "seccomp" not in os.readlink("/proc/self/fd/" + name):
            os.close(int(name))
    except OSError:
        pass
result = 1
PY
sed 's/ and "seccomp" not in .*:$/:/' "$P/close-most.py" >"$P/close-all.py"
printf 'run("true")\nresult = 1\n' >"$P/called.py"
printf 'open("%s", "w").write("x")\nresult = 1\n' "$WORK/outside.txt" >"$P/outside.py"
expect_exit 1 "a program closing the process's descriptors" -- R --mode effect "$L" "$P/close-most.py" "$P/outside.py" "$P/called.py"
expect_grep "close-most.py: note: interpreter state changed by the program and repaired: descriptors$" "descriptors put back"
expect_grep "outside.py: .*ESCAPE effect write open " "then: a write still judged"
expect_grep "called.py: .*ESCAPE effect spawn os.system" "then: a spawn still judged"
[[ ! -e $WORK/outside.txt ]] && ok || fail "a write outside scratch reached the disk after the descriptors were closed"
# (a sanitizer build's exit is LeakSanitizer's: its tracer cannot stop the world once every
# descriptor is gone, and it ends the process with its own code; the line below still holds)
want=4
grep -q '^GATECRASH_SANITIZE:BOOL=ON' "$BIN/CMakeCache.txt" && want=23
expect_exit $want "a program closing the backstop's listener too" -- R "$L" "$P/close-all.py" "$P/safe-sum.py"
expect_grep "^gatecrash: error: .*close-all.py: interpreter state could not be restored after the input: a descriptor the process held could not be put back$" \
  "one line"

# the sandbox's own SIGALRM timeout (1 s) fires on a loop, before the harness's (2 s), and
# the next input is clean
printf 'while True:\n    pass\n' >"$P/loop.py"
expect_exit 0 "alarm: a loop" -- R "$F/alarm" "$P/loop.py" "$P/safe-sum.py"
expect_grep "loop.py: blocked \(refused by the sandbox: ExecutionTimeout\)$" "alarm: the sandbox's own timeout fired"
expect_no_grep "LIMIT" "alarm: not the harness's"
expect_grep "safe-sum.py: blocked \(returned int\)$" "alarm: the next input is clean"

# what no host process survives stays refused, by name; sys.exit raises SystemExit
printf 'import os\nos._exit(3)\n' >"$P/os-exit.py"
printf 'import sys\nsys.exit(3)\n' >"$P/sys-exit.py"
expect_exit 5 "os._exit and sys.exit" -- R "$SRC/tests/fixtures/source/leak" "$P/os-exit.py" "$P/sys-exit.py" "$P/safe-sum.py"
expect_grep "os-exit.py: inconclusive \(raised Blocked; refused by the harness: os._exit\)$" "os._exit: refused, named, inconclusive"
expect_grep "sys-exit.py: blocked \(raised SystemExit\)$" "sys.exit: runs"
expect_grep "safe-sum.py: blocked \(returned int\)$" "the process goes on"

# a POSIX named semaphore (tests/fixtures/source/semaphore, a Queue per input): offered in the
# run's own /dev/shm, nothing written in the machine's; without one (GATECRASH_NO_PRIVATE_SHM=1,
# as where the kernel gives no user namespace) named and inconclusive.  Before, the kernel's
# refusal raised PermissionError in the sandbox's code: "blocked", exit 0, a false all-clear
printf 'result = run\n' >"$P/run.py"
before=$(ls /dev/shm | wc -l)
expect_exit 1 "a Queue per input" -- R "$SRC/tests/fixtures/source/semaphore" "$P/safe-sum.py" "$P/run.py"
expect_grep "^gatecrash: confined: .* /dev/shm \(the run's own\)" "  ... the run's own /dev/shm"
expect_grep "safe-sum.py: blocked \(returned int\)$" "  ... a safe program runs through the queue"
expect_grep "run.py: gatecrash: ESCAPE reach spawn os.system via result = run" "  ... the escape through it is found"
[[ $(ls /dev/shm | wc -l) -eq $before ]] && ok || fail "the machine's /dev/shm changed"
# a thread the input left waiting in a Condition (its own queue.Queue's get; the Queue's
# feeder, once its put failed to pickle a traceback that holds the queue, and evaluate's get
# was cut by the time limit) is stopped as any thread the input left, and the next input is
# clean.  Before: waiting in C, deaf to SystemExit, it was never stopped (exit 4; a campaign
# on this fixture ended so in its sweep)
printf 'import queue, threading\nq = queue.Queue()\nthreading.Thread(target=q.get, daemon=True).start()\nresult = 1\n' \
  >"$P/queue-wait.py"
printf 'try:\n    1/0\nexcept Exception as e:\n    result = e.__traceback__\n' >"$P/traceback.py"
expect_exit 5 "threads left waiting in a Condition" -- \
  R "$SRC/tests/fixtures/source/semaphore" "$P/queue-wait.py" "$P/safe-sum.py" "$P/traceback.py" "$P/safe-sorted.py"
expect_grep "queue-wait.py: inconclusive \(returned int; a thread it started was still running after it, and was stopped\)$" \
  "  ... a queue's get: stopped"
expect_grep "traceback.py: inconclusive \(raised Timeout; stopped by the per-input time limit; a thread it started was still running after it, and was stopped\)$" \
  "  ... a Queue's feeder: stopped"
expect_count 2 "safe-(sum|sorted).py: blocked \(returned " "  ... the next inputs are clean"
GATECRASH_NO_PRIVATE_SHM=1 expect_exit 5 "a Queue per input, no private /dev/shm" -- \
  R "$SRC/tests/fixtures/source/semaphore" "$P/safe-sum.py" "$P/run.py"
expect_count 2 "\.py: inconclusive \(raised PermissionError; refused by the harness: a POSIX named semaphore in /dev/shm \(multiprocessing's locks and queues\), not offered\)$" \
  "  ... the semaphore: named, inconclusive, never blocked"
# a write from the sandbox's own C code (ctypes fopen, no audit event) outside the run's folders
printf 'out = "%s"\nresult = 1\n' "$WORK/c-outside.txt" >"$P/c-write.py"
expect_exit 1 "a write from C in the sandbox's code" -- R "$SRC/tests/fixtures/source/cwrite" "$P/c-write.py" "$P/safe-sum.py"
expect_grep "c-write.py: gatecrash: ESCAPE landlock write openat .*\(write to $WORK/c-outside.txt refused by Landlock\)$" \
  "judged as a write escape"
expect_grep "safe-sum.py: blocked \(returned int\)$" "the next input is clean"
[[ ! -e $WORK/c-outside.txt ]] && ok || fail "the sandbox's C write reached the disk"
# the same write from the program's finalizer, run when the host drops the value after evaluate
printf 'class K:\n    def __del__(self):\n        fopen(b"%s", b"w")\nresult = K()\n' "$WORK/del-outside.txt" >"$P/del-write.py"
expect_exit 1 "a write from C in a finalizer the host runs" -- R "$SRC/tests/fixtures/source/cwrite" "$P/del-write.py"
expect_grep "del-write.py: gatecrash: ESCAPE landlock write openat .*\(write to $WORK/del-outside.txt refused by Landlock\)$" \
  "  ... judged as a write escape"
[[ ! -e $WORK/del-outside.txt ]] && ok || fail "the finalizer's C write reached the disk"

# the hard limit: a sandbox that blocks every signal (the time limit's too) and loops ends
# after the limit and 3 s more, in one line, exit 4: the watchdog itself ends it
mkdir -p "$WORK/deaf"
cat >"$WORK/deaf/adapter.py" <<'PY'
import signal
def evaluate(source):
    signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    while True:
        pass
PY
printf '{"kind": "source", "adapter": "adapter.py", "refusals": [], "requires": {"subprocess": false}}\n' \
  >"$WORK/deaf/target.json"
expect_exit 4 "a sandbox deaf to every signal" -- R "$WORK/deaf" "$P/safe-sum.py"
expect_grep "^gatecrash: error: .* ran 3 s past its time limit and Python could not interrupt it" \
  "the hard limit's one line"
expect_count 1 "^gatecrash: error: " "one line"
finish
