#!/usr/bin/env bash
# Source mode's oracles (source.h) on a planted test-only adapter that leaks os.system
# (tests/fixtures/source/leak): the value evaluate gives back is searched (containers,
# exception attributes), every C call inside the evaluation is checked before it runs, the
# sandbox's own refusal is no escape, and nothing is ever spawned.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/leak
P=$WORK/programs && mkdir -p "$P"
printf 'result = [1, {"x": (2, run)}]\n' >"$P/returned.py"
printf 'try:\n    {}["k"]\nexcept KeyError as e:\n    result = KeyError(run)\n' >"$P/in_exception.py"
printf 'raise StopIteration(run)\n' >"$P/raised.py"
printf 'result = run("touch %s/spawned")\n' "$WORK" >"$P/called.py"
printf 'f = run\nresult = [f][0]("touch %s/spawned")\n' "$WORK" >"$P/called_alias.py"
# an unaudited primitive, imported and called inside the sandbox's interpreter
printf 'import _posixsubprocess\nresult = _posixsubprocess.fork_exec(1, 2, 3)\n' >"$P/fork_exec.py"
printf 'result = 1 + 1\n' >"$P/safe.py"
printf 'result = [run.__name__, "forbidden"]\n' >"$P/refused.py"
R=(replay -q "$T")
expect_exit 1 "returned value" -- "$GC" "${R[@]}" "$P/returned.py"
expect_grep "returned\.py: gatecrash: ESCAPE reach spawn os\.system via .+ \(in the value evaluate gave back, at result\[1\]\{value 0\}\[1\]\)$" "returned value"
expect_exit 1 "exception value" -- "$GC" "${R[@]}" "$P/in_exception.py" "$P/raised.py"
expect_grep "in_exception\.py: gatecrash: ESCAPE reach spawn os\.system via .+ \(in the value evaluate gave back, at result\.args\[0\]\)$" "exception returned"
expect_grep "raised\.py: gatecrash: ESCAPE reach spawn os\.system via .+ \(in the value evaluate gave back, at result\.args\[0\]\)$" "exception raised"
expect_exit 1 "C call" -- "$GC" "${R[@]}" "$P/called.py" "$P/called_alias.py"
expect_grep "called\.py: gatecrash: ESCAPE reach spawn os\.system via .+ \(called inside the evaluation \(C-call guard\)\)$" "C call"
expect_grep "called_alias\.py: gatecrash: ESCAPE reach spawn os\.system via .+ \(called inside the evaluation \(C-call guard\)\)$" "C call, aliased"
[[ ! -e $WORK/spawned ]] && ok || fail "the C call ran: $WORK/spawned exists"
expect_exit 1 "unaudited C call" -- "$GC" "${R[@]}" "$P/fork_exec.py"
expect_grep "fork_exec\.py: gatecrash: ESCAPE reach spawn _posixsubprocess\.fork_exec via .+ \(called inside the evaluation \(C-call guard\)\)$" "fork_exec"
expect_exit 1 "unaudited C call, effect mode" -- "$GC" "${R[@]}" --mode effect "$P/fork_exec.py"
expect_grep "fork_exec\.py: gatecrash: ESCAPE reach spawn _posixsubprocess\.fork_exec via .+ \(called; CPython raises no audit event for it\)$" "fork_exec, effect mode"
expect_exit 0 "safe and refused programs" -- "$GC" "${R[@]}" "$P/safe.py" "$P/refused.py"
expect_fgrep "safe.py: blocked (returned int)" "safe"
expect_fgrep "refused.py: blocked (refused by the sandbox: Refused)" "the sandbox's refusal is no escape"
# effect mode: the audit event of the call is the escape; still nothing spawned
expect_exit 1 "effect mode" -- "$GC" "${R[@]}" --mode effect "$P/called.py"
expect_fgrep "called.py: gatecrash: ESCAPE effect spawn os.system" "effect mode"
[[ ! -e $WORK/spawned ]] && ok || fail "effect mode: $WORK/spawned exists"
expect_exit 0 "effect mode: a returned primitive is no effect" -- "$GC" "${R[@]}" --mode effect "$P/returned.py"
# the C-call guard is in the primitives' own entry points (harness/runtime/callguard.h), so
# a primitive C code calls is stopped too (map, sorted's key: no Python-level call of it),
# and an audit hook refusing every hook the harness could set changes nothing
printf 'import _posixsubprocess\nresult = list(map(_posixsubprocess.fork_exec, [1]))\n' >"$P/from_c.py"
printf 'result = sorted(["touch %s/spawned"], key=run)\n' "$WORK" >"$P/from_c_key.py"
expect_exit 1 "a primitive called by C code" -- "$GC" "${R[@]}" "$P/from_c.py" "$P/from_c_key.py"
expect_grep "from_c\.py: gatecrash: ESCAPE reach spawn _posixsubprocess\.fork_exec via .+ \(called inside the evaluation \(C-call guard\)\)$" "called by map"
expect_grep "from_c_key\.py: gatecrash: ESCAPE reach spawn os\.system via .+ \(called inside the evaluation \(C-call guard\)\)$" "called by sorted"
printf 'import os, sys\ndef h(e, a):\n    if e in ("sys.setprofile", "sys.settrace", "sys.monitoring.register_callback"):\n        raise RuntimeError("no")\nsys.addaudithook(h)\ndef evaluate(s):\n    ns = {"run": os.system}\n    exec(compile(s, "<program>", "exec"), ns)\n    return ns.get("result")\n' >"$WORK/hooked.py"
expect_exit 1 "an adapter refusing the hooks" -- "$GC" replay -q --adapter "$WORK/hooked.py" --requires '{"subprocess": false}' "$P/called.py"
expect_grep "called\.py: gatecrash: ESCAPE reach spawn os\.system via .+ \(called inside the evaluation \(C-call guard\)\)$" "guarded under a hook refusing every hook"
# what the sandbox sees is unchanged: a guarded function's hash mixes in its entry point, and
# the sets filed under the old one are filled again (shutil's `os.open in os.supports_dir_fd`)
printf 'import os\nassert os.open in os.supports_dir_fd and os.stat in os.supports_fd and os.stat in os.supports_follow_symlinks\nresult = 1\n' >"$P/supports.py"
expect_exit 0 "os.supports_* still hold the guarded functions" -- "$GC" "${R[@]}" "$P/supports.py"
expect_fgrep "supports.py: blocked (returned int)" "os.open in os.supports_dir_fd"
# a program cannot switch gatecrash's sys.monitoring tool off (the line feedback's, 3.12+),
# and the guard still stops the call after the attempt
printf 'import sys\nfor i in range(6):\n    try:\n        sys.monitoring.set_events(i, 0)\n    except BaseException:\n        pass\n    try:\n        sys.monitoring.free_tool_id(i)\n    except BaseException:\n        pass\nresult = run("touch %s/spawned")\n' "$WORK" >"$P/tool_off.py"
expect_exit 1 "the tool cannot be switched off" -- "$GC" "${R[@]}" "$P/tool_off.py" "$P/called.py"
expect_grep "tool_off\.py: gatecrash: ESCAPE reach spawn os\.system via .+ \(called inside the evaluation \(C-call guard\)\)$" "after an attempt to switch the tool off"
expect_grep "called\.py: gatecrash: ESCAPE reach spawn os\.system via .+ \(called inside the evaluation \(C-call guard\)\)$" "the next input is guarded"
[[ ! -e $WORK/spawned ]] && ok || fail "the tool was switched off: $WORK/spawned exists"
# the hole of an escape stopped mid-program (triage/source_holes.c): the final statement
# walks to nothing, so the walk of the statement before it names the hole, as the table
# and the cases group by it (before: no hole, grouped by signature)
printf 'run("true")\nresult = 1\n' >"$P/mid_program.py"
expect_exit 1 "an escape mid-program" -- "$GC" replay -q --json "$T" "$P/mid_program.py"
grep '^{' "$WORK/out" | "$PY" -c 'import json,sys; j=json.loads(sys.stdin.readline()); assert j["hole"]=="namespace run" and j["signature"]=="source:reach:os.system", j' &&
  ok || fail "an escape mid-program: its hole is named from the statement that reached it: $(grep '^{' "$WORK/out")"
# the inline form gives the same verdicts
expect_exit 1 "inline form" -- "$GC" replay -q --adapter "$T/adapter.py" --requires '{"subprocess": false}' "$P/called.py"
expect_grep "ESCAPE reach spawn os\.system via .+ \(called inside" "inline form"
# a primitive's code object, bare, is no reach: a plain interpreter cannot call it (before:
# ESCAPE reach spawn os.popen, which confirmation then found not confirmed); a function made
# from it is the primitive
printf 'import os\nresult = os.popen.__code__\n' >"$P/code.py"
printf 'import os\nresult = type(lambda: 0)(os.popen.__code__, vars(os))\n' >"$P/from_code.py"
expect_exit 1 "a primitive's code object, and a function made from it" -- "$GC" replay -q --no-confirm "$T" "$P/code.py" "$P/from_code.py"
expect_grep "/code\.py: blocked \(returned code\)$" "  ... the code object alone: blocked"
expect_grep "from_code\.py: gatecrash: ESCAPE reach spawn os\.popen via " "  ... the function made from it: the primitive"
finish
