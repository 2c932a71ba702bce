#!/usr/bin/env bash
# `gatecrash check` (probe.h) on adapters a newcomer might write, each a variant of one tiny
# exec-based sandbox made here: a good one is usable (exit 0), and so is one that gives back
# None but runs the program in a namespace the harness finds; one whose value never comes
# back, one that refuses everything, one that calls a harness-refused function (its own audit
# hook, a profile function, a chdir) on every program, one that forks: exit 3 with
# one line naming the fault, and `sweep` and `fuzz` stop with that line before they run a
# program.  Problems that do not stop fuzzing (state it leaves, a thread it starts and leaves
# running, roots that name nothing, no "refusals", an import-time audit hook refusing the line
# feedback's hooks) are one line each, exit 0; a thread it leaves blocked in C, which no
# SystemExit reaches, is one error line and exit 4.  Nothing outside scratch is written.
source "$(dirname "$0")/lib.sh" "$@"
base='import io, os, sys, threading, time
class Refused(Exception):
    pass
def run(source):
    scope = {"__builtins__": {"len": len}}
    exec(compile(source, "<program>", "exec"), scope)
    return scope.get("result")
def roots():
    return ["len"]'
# adapter NAME REFUSALS-JSON DIALECT-JSON: a target folder $WORK/NAME, the variant on stdin
adapter() {
  mkdir -p "$WORK/$1"
  printf '{"kind": "source", "adapter": "adapter.py", "refusals": %s, "dialect": %s, %s}\n' "$2" "$3" \
    '"requires": {"subprocess": false, "filesystem_writes": []}' >"$WORK/$1/target.json"
  { echo "$base"; cat; } >"$WORK/$1/adapter.py"
}
echo 'def evaluate(s): return run(s)' | adapter good '["Refused"]' '[]'
echo 'def evaluate(s): compile(s, "<program>", "exec")' | adapter none '["Refused"]' '[]'
echo 'def evaluate(s): run(s)' | adapter nsonly '["Refused"]' '[]'
echo 'def evaluate(s): return eval(s, {"__builtins__": {}}) and None' | adapter exprnone '["Refused"]' '["expression"]'
echo 'def evaluate(s): raise Refused("no")' | adapter refuseall '["Refused"]' '[]'
printf 'def evaluate(s):\n    sys.addaudithook(lambda e, a: None)\n    return run(s)\n' | adapter evalhook '["Refused"]' '[]'
printf 'def evaluate(s):\n    sys.setprofile(None)\n    return run(s)\n' | adapter evalprofile '["Refused"]' '[]'
printf 'def evaluate(s):\n    os.chdir(%s)\n    return run(s)\n' "'$WORK/elsewhere'" | adapter evalchdir '["Refused"]' '[]'
printf 'def evaluate(s):\n    if os.fork() == 0:\n        os._exit(0)\n    return run(s)\n' | adapter fork '["Refused"]' '[]'
printf 'def h(e, a):\n    if e in ("sys.setprofile", "sys.settrace", "sys.monitoring.register_callback"):\n        raise RuntimeError("no")\nsys.addaudithook(h)\ndef evaluate(s): return run(s)\n' |
  adapter importhook '["Refused"]' '[]'
printf 'def h(e, a):\n    if e == "sys.setprofile":\n        raise RuntimeError("no")\nsys.addaudithook(h)\ndef evaluate(s): return run(s)\n' |
  adapter importprofile '["Refused"]' '[]'
printf 'os.chdir(%s)\ndef evaluate(s): return run(s)\n' "'$WORK/elsewhere'" | adapter importchdir '["Refused"]' '[]'
printf 'def evaluate(s):\n    sys.stdout = io.StringIO()\n    return run(s)\n' | adapter stdout '["Refused"]' '[]'
printf 'def spin():\n    n = 0\n    while True:\n        n += 1\ndef evaluate(s):\n    threading.Thread(target=spin, daemon=True).start()\n    return run(s)\n' |
  adapter threadloop '["Refused"]' '[]'
printf 'def evaluate(s):\n    lock = threading.Lock()\n    lock.acquire()\n    threading.Thread(target=lock.acquire, daemon=True).start()\n    return run(s)\n' |
  adapter threadstuck '["Refused"]' '[]'
printf 'def evaluate(s):\n    threading.Thread(target=threading.Event().wait, daemon=True).start()\n    return run(s)\n' |
  adapter threadwait '["Refused"]' '[]'
printf 'def roots(): return ["len", "missing"]\ndef evaluate(s): return run(s)\n' | adapter badroots '["Refused"]' '[]'
echo 'def evaluate(s): return run(s)' | adapter norefusals '[]' '[]'
echo 'def evaluate(s): return run(s)' | adapter notexc '["len"]' '[]'
mkdir -p "$WORK/elsewhere"

expect_exit 0 "a good adapter" -- "$GC" check "$WORK/good"
expect_grep "^check: the adapter is usable$" "good: usable"
expect_grep "^probes: 5 of 5 programs gave their value; 0 problems$" "good: every probe"
expect_grep "^time: [0-9]+ us an evaluation" "good: time per evaluation"
expect_grep "^roots: 1 named, 1 the dialect can write, 1 of those give a value$" "good: roots"

# named CODE WHAT TARGET PATTERN: check exits CODE with a line matching PATTERN
named() { expect_exit "$1" "$2" -- "$GC" check "$3"; expect_grep "$4" "$2: named"; }
# fatal <name> <pattern> <what>: check, sweep and fuzz all stop with exit 3 and the line
fatal() {
  expect_exit 3 "$1: check" -- "$GC" check "$WORK/$1"
  expect_grep "^check: fuzz and sweep would stop here: .*$2" "$1: check's line"
  expect_exit 3 "$1: sweep" -- "$GC" sweep "$WORK/$1"
  expect_grep "error: .*$2.*\(gatecrash check says more\)$" "$1: sweep's line"
  expect_no_grep "nodes|^\[sweep\]|^ESCAPE" "$1: sweep ran nothing"
  expect_exit 3 "$1: fuzz" -- "$GC" fuzz "$WORK/$1" --time 5 --out "$WORK/out-$1"
  expect_grep "error: .*$2" "$1: fuzz's line"
  expect_no_grep "#[0-9]+|^\[sweep\]" "$1: no engine, no sweep"
}
# evaluate gives back None, but the program ran in a namespace the harness finds (its exec):
# its `result` binding is the value (docs/SOURCE.md, "What the program holds")
expect_exit 0 "nsonly: the value from the program's namespace" -- "$GC" check "$WORK/nsonly"
expect_grep "^probes: 5 of 5 programs gave their value; 0 problems$" "nsonly: every probe"
fatal none "evaluate\('result = 1'\) gave None, not 1: a statement-dialect adapter returns the program's .result. binding"
fatal exprnone "evaluate\('1'\) gave None, not 1: an expression-dialect adapter returns the expression's value"
fatal refuseall "no program gives its value back.*refused by the sandbox: Refused"
fatal evalhook "refused by the harness \(sys.addaudithook\)"
fatal evalprofile "refused by the harness \(sys.setprofile\)"
fatal evalchdir "refused by the harness \(os.chdir\)"
fatal fork "is an escape \(reach spawn os.fork"
# the C-call guard is in the primitives' own entry points (harness/runtime/callguard.h): no
# hook refuses it.  A hook refusing the line feedback's hooks costs feedback only: one line
named 0 "a hook refusing every hook" "$WORK/importhook" \
  "^problem: the line trace cannot be installed: an audit hook refuses (sys.monitoring.register_callback and )?sys.settrace"
expect_grep "^check: usable, with the problems above$" "a hook refusing every hook: usable"
named 0 "a hook refusing sys.setprofile" "$WORK/importprofile" "^check: the adapter is usable$"
expect_grep "^probes: 5 of 5 programs gave their value; 0 problems$" "a hook refusing sys.setprofile: no problem"

named 0 "chdir at import" "$WORK/importchdir" \
  "^problem: evaluate\('result = 1'\) left state the harness repairs after every input \(.*working"
named 0 "sys.stdout replaced" "$WORK/stdout" "^problem: .*left state the harness repairs after every input \(sys"
named 0 "a thread left running" "$WORK/threadloop" \
  "^problem: evaluate\('result = 1'\) left state the harness repairs after every input \(threads stopped\)"
expect_grep "^probes: 5 of 5 programs gave their value" "a thread left running: every probe ran"
named 4 "a thread left blocked in C" "$WORK/threadstuck" \
  "^gatecrash: error: .*a thread started during the input \(Thread-[0-9]+ \(acquire\) in threading.py:[0-9]+ run\) could not be stopped"
expect_count 1 "^gatecrash: error:" "a thread left blocked in C: one error line"
# a thread left in a Condition's wait (an Event's) is woken into its SystemExit: stopped
named 0 "a thread left waiting on an Event" "$WORK/threadwait" \
  "^problem: evaluate\('result = 1'\) left state the harness repairs after every input \(threads stopped\)"
named 0 "a root that names nothing" "$WORK/badroots" \
  "^problem: 1 of 2 roots give no value when a program names them alone \(missing\)"
named 0 "no refusals" "$WORK/norefusals" "^problem: target.json names no \"refusals\""
named 3 "a refusal that is no exception" "$WORK/notexc" "error: .*len.* (is not|no) exception"
named 2 "check on a gate" "$SRC/targets/station-1.5.0" "check probes a source target's adapter"
# nothing outside scratch: the adapters that move elsewhere wrote nothing there
[[ -z $(ls -A "$WORK/elsewhere") ]] && ok || fail "something was written outside scratch: $(ls -A "$WORK/elsewhere")"
finish
