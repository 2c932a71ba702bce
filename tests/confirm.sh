#!/usr/bin/env bash
# Differential confirmation (docs/TRIAGE.md "Confirmation in a plain interpreter"): every
# escape replay reports runs again in a fresh plain interpreter of the target (the
# standalone reproducer: no harness, an audit hook that refuses spawns and writes), under a
# hash seed other than the harness's, and replay says whether it was confirmed there.
# Agreeing: a bundled station-1.5.0 case, a source advisory on its release's venv, and
# tools.holder.pick() of tests/fixtures/unportable.  Disagreeing: tools.pick() there
# reaches os.execve under the harness's hash seed (0) only; in the plain interpreter it
# returns a harmless function, so it is NOT confirmed, and --json says "confirmed":false.
source "$(dirname "$0")/lib.sh" "$@"
U=$SRC/tests/fixtures/unportable
printf 'tools.pick()\n' >"$WORK/pick.chain"
printf 'tools.holder.pick()\n' >"$WORK/holder.chain"
expect_exit 1 "replay of a bundled case" -- "$GC" replay -q "$SRC/targets/station-1.5.0" \
  "$SRC/escapes/station-1.5.0/reach-spawn-os.execv-via-modattr.chain"
expect_grep "reach-spawn-os.execv-via-modattr.chain: confirmed in a plain interpreter \(held by the program\)$" \
  "the bundled case is confirmed, its primitive held by the chain"
expect_exit 1 "replay of tools.pick() and tools.holder.pick()" -- "$GC" replay -q --json "$U" "$WORK/pick.chain" "$WORK/holder.chain"
expect_grep "pick.chain: NOT confirmed: blocked: the escape did not reproduce$" "tools.pick() rests on the harness's hash seed"
expect_grep "holder.chain: confirmed in a plain interpreter \(held by the program\)$" "tools.holder.pick() holds in any process"
expect_grep '^\{"input":"tools.pick\(\)","confirmed":false,' "--json: not confirmed, its own line"
expect_grep '^\{"input":"tools.holder.pick\(\)","confirmed":true,.*"reached":"held","file":"[^"]*"\}$' "--json: confirmed, held"
expect_count 2 "ESCAPE reach spawn os.execve" "both still escape in the harness (exit 1 unchanged)"
# What the harness ran, rebuilt: a campaign's escape whose first statements fail (a missing
# root, a walk of None) and whose last one starts from '_' = None, as the evaluator gives it
# after a failed statement (its resolved chain, as fuzz_gate recorded it); and a chain through
# sys.__stderr__.buffer.raw, which the harness's buffered streams have, checked with
# PYTHONUNBUFFERED=1 in the caller's environment (the plain interpreter runs without it).
C=$SRC/tests/fixtures/confirm
expect_exit 1 "replay of a chain with failed statements" -- "$GC" replay -q "$SRC/targets/station-1.5.0" "$C/failed-steps.chain"
expect_grep "failed-steps.chain: confirmed in a plain interpreter \(held by the program\)$" \
  "failed statements end with '_' None in the plain interpreter too"
expect_exit 1 "replay of the stderr buffer's raw file" -- env PYTHONUNBUFFERED=1 "$GC" replay -q \
  "$SRC/targets/station-1.5.0" "$C/stderr-buffer-raw.chain"
expect_grep "stderr-buffer-raw.chain: confirmed in a plain interpreter \(held by the program\)$" \
  "the plain interpreter's stderr is buffered as a host's is by default"
# What ran is confirmed, not only the escape's chain: probe() of hostile/state hands out
# socket.create_connection once set_mask() changed the signal mask, in the same input.  The
# escape's chain is 'probe()' (it passes no '_' on); alone, the plain run was NOT confirmed.
expect_exit 1 "replay of an escape resting on an earlier statement's effect" -- "$GC" replay -q \
  "$SRC/tests/fixtures/hostile/state" "$C/state-effect.chain"
expect_grep "state-effect.chain: gatecrash: ESCAPE reach network socket.create_connection via probe\(\)$" "the escape's chain"
expect_grep "state-effect.chain: confirmed in a plain interpreter \(held by the program\)$" "confirmed with the statement before it"
# A chain through a gate object whose __getattr__ loops (hostile/blocking's looper): the
# plain run checks each value against the primitive without running its code, as the harness
# does.  Before, it read the value's __code__ with getattr, and looped until the 60 s were out.
expect_exit 1 "replay of a chain through an object whose __getattr__ loops" -- "$GC" replay -q \
  "$SRC/tests/fixtures/hostile/blocking" "$C/getattr-loop.chain"
expect_grep "getattr-loop.chain: confirmed in a plain interpreter \(held by the program\)$" "confirmed, not 'did not finish'"
# The plain interpreter imports no module the host would not have before the gate (the
# primitives are read as their modules are imported): a gate that imports subprocess makes
# Popen the newest subclass of object there as under the harness.  Before, the reproducer
# imported subprocess first, and the list's last class was another: NOT confirmed
expect_exit 1 "replay of a pick of object's newest subclass" -- "$GC" replay -q "$C/newest-class" "$C/newest-class.chain"
expect_grep "newest-class.chain: confirmed in a plain interpreter \(held by the program\)$" \
  "the plain interpreter's newest class is the host's"
# A program that leaves the interpreter something to wait for at its exit (a second
# threading._MainThread): the plain run's verdict is out, and its process ends there.
expect_exit 1 "replay of a chain that leaves a main thread behind" -- "$GC" replay -q "$SRC/targets/station-1.5.0" "$C/main-thread.chain"
expect_grep "main-thread.chain: confirmed in a plain interpreter \(held by the program\)$" \
  "confirmed, not 'did not finish within 60 s'"
# A walk through the harness's own time-limit class (gatecrash.Timeout, a BaseException
# subclass every harness process has): the plain interpreter has the class too, as Blocked.
expect_exit 1 "replay of a walk through gatecrash.Timeout" -- "$GC" replay -q "$SRC/targets/station-advisory-fix" "$C/harness-timeout.chain"
expect_grep "harness-timeout.chain: confirmed in a plain interpreter \(held by the program\)$" "confirmed"
# A program that runs in a worker thread (one per program; a pool's, started when the adapter
# is imported) and keeps a primitive in its namespace: the plain runner watches that thread too.
for t in threaded pool; do
  expect_exit 1 "replay on $t of a primitive held in a worker thread" -- "$GC" replay -q "$SRC/tests/fixtures/source/$t" "$C/thread-held.py"
  expect_grep "thread-held.py: confirmed in a plain interpreter \(held by the program\)$" "$t: confirmed"
done
# A module the sandbox imports while evaluate runs sets a class's attribute (3.11's shutil,
# imported by multiprocessing's Pipe and Queue: a namedtuple's field docs), which the harness
# gives the sandbox's code in its window: the plain interpreter gives it too.  Before, its
# hook refused it, evaluate raised, and the program's escape was NOT confirmed.
printf 'result = session.shell\n' >"$WORK/shell.py"
expect_exit 1 "replay on facilities/pipe of the session's shell" -- "$GC" replay -q "$SRC/tests/fixtures/source/facilities/pipe" "$WORK/shell.py"
expect_grep "shell.py: confirmed in a plain interpreter \(handed back to the host as the value\)$" "pipe: confirmed"
printf 'result = run\n' >"$WORK/run.py"
expect_exit 1 "replay on semaphore of its os.system" -- "$GC" replay -q "$SRC/tests/fixtures/source/semaphore" "$WORK/run.py"
expect_grep "run.py: confirmed in a plain interpreter \(handed back to the host as the value\)$" "semaphore: confirmed"
# The other way over inputs with no known escape (bench/confirm-campaign.sh, a corpus):
# '# primitive: *' watches every primitive the policy forbids, so a plain run that escapes
# (a miss, where the harness said blocked) names what it reached; one that does not, exit 0.
mkdir -p "$WORK/any"
jq --arg s "$SRC/targets/station-1.5.0/module_sandbox.py" '.sandbox = $s' "$SRC/targets/station-1.5.0/target.json" >"$WORK/any/target.json"
printf '# kind: reach\n# capability: any\n# primitive: *\nnope\n_.__str__()().__traceback__.tb_frame.f_globals[\x27os\x27].chmod\n' >"$WORK/any/escapes.chain"
printf '# kind: reach\n# capability: any\n# primitive: *\nsubprocess.run\n' >"$WORK/any/blocked.chain"
expect_exit 1 "any primitive: a chain that reaches one" -- env PYTHONHASHSEED=1 "$PY" -s "$SRC/escapes/reproduce.py" "$WORK/any/escapes.chain"
expect_grep "^ESCAPE reproduced: reach write os.chmod via nope; _.__str__" "it names the primitive it reached"
expect_exit 0 "any primitive: a chain that reaches none" -- env PYTHONHASHSEED=1 "$PY" -s "$SRC/escapes/reproduce.py" "$WORK/any/blocked.chain"
# A module the program imports runs its code through importlib's exec: its namespace is not
# the program's (as harness/source/program_ns.c has it).  Before, the plain run searched it and
# found builtins.open there (a module's own name for it): a miss the harness did not have.
mkdir -p "$WORK/imports"
jq --arg a "$SRC/tests/fixtures/source/semaphore/adapter.py" '.adapter = $a' \
  "$SRC/tests/fixtures/source/semaphore/target.json" >"$WORK/imports/target.json"
printf '# kind: reach\n# capability: any\n# primitive: *\nimport tempfile\n' >"$WORK/imports/tempfile.py"
expect_exit 0 "any primitive: a program that imports a module holding one" -- \
  env PYTHONHASHSEED=1 "$PY" -s "$SRC/escapes/reproduce.py" "$WORK/imports/tempfile.py"
expect_exit 0 "the same program in the harness: blocked" -- "$GC" replay -q "$SRC/tests/fixtures/source/semaphore" "$WORK/imports/tempfile.py"
# --no-confirm: no second run, and --json says it was not asked
expect_exit 1 "replay --no-confirm" -- "$GC" replay -q --no-confirm --json "$U" "$WORK/pick.chain"
expect_no_grep "confirmed in|NOT confirmed" "no confirmation line"
expect_grep '"confirmed":null' "--json: null when not run"
# a source target: the program runs through the adapter with the venv's interpreter
V=$BIN/venvs/simpleeval-1.0.4
if [[ -x $V/bin/python ]]; then
  expect_exit 1 "an advisory on its release" -- "$GC" replay -q --venv "$V" "$SRC/targets/simpleeval-1.0.4" \
    "$SRC/tests/fixtures/source/advisory/ghsa-44vg-5wv2-h2hg.py"
  expect_grep "ghsa-44vg-5wv2-h2hg.py: confirmed in a plain interpreter \(handed back to the host as the value\)$" \
    "the source advisory is confirmed: its program returns os.system"
fi
# where the primitive was: asyncgen-frame's sandbox without Exception in its
# builtins.  The program walks an async generator's frames to the host's builtins, then
# `except Exception` raises NameError: the builtins are only that error's __context__'s value.
# On asyncgen-frame itself (Exception there) the same program returns them.
printf 'async def g():\n    yield a.ag_frame.f_back.f_back.f_builtins\na = g()\ntry:\n    a.asend(None).send(None)\nexcept Exception as e:\n    result = e.value\n' >"$WORK/agen.py"
expect_exit 1 "the frame walk without Exception" -- "$GC" replay -q --json "$SRC/tests/fixtures/source/asyncgen-noexc" "$WORK/agen.py"
expect_grep "agen.py: confirmed in a plain interpreter \(only inside an exception the host receives, at result\.__context__" \
  "graded: only in the NameError's __context__"
expect_fgrep '"reached":"exception"' "--json: reached in an exception"
expect_exit 1 "the frame walk with Exception" -- "$GC" replay -q "$SRC/tests/fixtures/source/asyncgen-frame" "$WORK/agen.py"
expect_grep "agen.py: confirmed in a plain interpreter \(handed back to the host as the value\)$" "graded: returned"
# sweep --confirm: each hole's shortest input once more.  On unportable, the depth-2 sweep's
# one hole is tools.armed(), which returns os.system only after tools.arm() ran in the same
# process (the sweep called it): NOT confirmed.  On station-1.5.0 every hole is confirmed.
expect_exit 1 "sweep --confirm of unportable" -- "$GC" sweep "$U" --depth 2 -q --confirm
expect_grep "^  gate function \(\)<primitive> +NOT confirmed: blocked" "tools.armed() needs an earlier input's state"
expect_exit 1 "sweep --confirm of station-1.5.0" -- "$GC" sweep "$SRC/targets/station-1.5.0" --depth 2 -q --confirm
expect_grep "^  proxy subprocess \.<module> +confirmed in a plain interpreter \(held by the program\)$" "a station hole confirmed"
expect_no_grep "NOT confirmed|unconfirmed" "every station hole confirmed"
# the campaign's table (fuzz): a CONFIRMED column, each hole graded by where the plain
# interpreter found its primitive (held first), tools.armed()'s row NOT confirmed, last, with why
need fuzz_gate || { finish; exit; }
expect_exit 1 "fuzz of unportable" -- "$GC" fuzz "$U" --runs 300 --seed 1 --out "$WORK/fz"
expect_grep "^CAP +PRIMS +SIGS +CLOSABLE +CONFIRMED +HOLE / shortest chain$" "the table's CONFIRMED column"
expect_grep "^spawn +[0-9]+ +[0-9]+ +yes +held +gate function \. __globals__$" "a hole whose primitive the chain holds"
expect_grep "^spawn +1 +1 +yes +NO +gate function \(\)<primitive>$" "tools.armed(): NOT confirmed, in its row"
expect_grep "^ +NOT confirmed: blocked: the escape did not reproduce$" "and why, under it"
last=$(grep -nE '^spawn +[0-9]+ +[0-9]+ +(yes|no) +' "$WORK/out" | tail -1)
[[ $last == *" NO "*"gate function ()<primitive>" ]] && ok || fail "the row not confirmed is graded last: $last"
expect_exit 1 "fuzz --no-confirm" -- "$GC" fuzz "$U" --runs 300 --seed 1 --no-confirm --out "$WORK/fz2"
expect_grep "^CAP +PRIMS +SIGS +CLOSABLE +HOLE / shortest chain$" "--no-confirm: the table without the column"
expect_no_grep "CONFIRMED|NOT confirmed" "--no-confirm: nothing run again"
finish
