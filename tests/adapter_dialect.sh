#!/usr/bin/env bash
# The adapter's problems reach every command (docs/SOURCE.md, "Checking an adapter").  The
# fixture tests/fixtures/source/expr-noroots is written as a newcomer writes an evaluator:
# expressions only (`result = 1` raises SyntaxError, `1` gives 1), no roots(), no "dialect".
# fuzz, sweep and gate (folder or inline --adapter) print each problem check names, use the
# expression dialect the probes show and say so in one line, and find the name the sandbox
# hands out (`tools`, from its answer to dir()) and say which: the sweep reaches the escape
# through `tools`, which it never saw before (1 node, no program giving a value).  Without
# roots() and with no answer to dir(), the bundled asteval's own name lists (FROM_NUMPY, ...)
# give its names.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/expr-noroots
REQ='{"subprocess": false, "filesystem_writes": []}'
lines() { # the adapter's lines, before anything runs ($1: what)
  expect_grep "^gatecrash: adapter problem: evaluate\('result = 1'\) raised SyntaxError$" "$1: the probe's problem"
  expect_grep "^gatecrash: adapter: statements give no value but expressions do \(evaluate\('1'\) gave 1\): running .* in the expression dialect" \
    "$1: the dialect, in one line"
  expect_grep "^gatecrash: adapter: no roots\(\): starting from the 1 name\(s\) the sandbox hands out, found by dir\(\): tools$" \
    "$1: the names found, and how"
}

expect_exit 0 "check" -- "$GC" check "$T"
expect_grep "^problem: no statement program gives its value back, but expressions do" "check: the dialect"
expect_grep "^roots: no roots\(\); 1 name\(s\) the sandbox hands out, found by dir\(\)$" "check: the roots found"

expect_exit 1 "sweep: escapes through what the sandbox hands out" -- "$GC" sweep --no-confirm "$T" --depth 3
lines sweep
expect_grep "via tools\." "sweep: an escape that starts from tools"
expect_grep "[0-9]{3,} nodes" "sweep: it walked (not 1 node)"

expect_exit 1 "gate, inline --adapter: FAIL on the sweep's escapes" -- \
  "$GC" gate --adapter "$T/adapter.py" --requires "$REQ" --time 0 --sweep-depth 3 --report "$WORK/rep" --out "$WORK/camp"
lines "gate --adapter"
expect_grep "^gate adapter: FAIL — 0 of 0 saved case\(s\) still escape, 0 escape\(s\) found by fuzzing, [1-9][0-9]* by the sweep" \
  "gate: the sweep's escapes fail it"

if need fuzz_source; then
  "$GC" fuzz --adapter "$T/adapter.py" --requires "$REQ" --runs 300 --seed 1 --no-sweep-seed --out "$WORK/fz" >"$WORK/out" 2>&1
  rc=$?
  ((rc <= 1)) && ok || fail "fuzz --adapter: exit $rc"
  lines "fuzz --adapter"
  expect_grep "^verdicts: [0-9]+ input" "fuzz: the engine ran (its verdict counts)"
  grep -q '"expression"' "$WORK/fz/target/target.json" && ok || fail "fuzz: OUT/target/target.json has no expression dialect"
  # a campaign's sweep saves its escapes as program encodings, printed in the dialect it
  # probed: replay, explain and triage on the target folder probe it too, so each replays as
  # the program the sweep ran (before: statements, `result = …`, and SyntaxError: blocked)
  expect_exit 1 "fuzz on the folder: the sweep's escapes" -- "$GC" fuzz "$T" --runs 50 --seed 1 --no-confirm --out "$WORK/fzd"
  expect_exit 0 "the sweep's crash inputs replay as its escapes" -- \
    "$GC" replay -q --raw --expect escape "$T" "$WORK/fzd/crashes"/crash-sweep-*
  expect_no_grep "SyntaxError" "  ... none of them a statement"
  expect_exit 1 "explain --raw: a sweep's crash input escapes" -- "$GC" explain --raw "$T" "$WORK/fzd/crashes/crash-sweep-0000"
  expect_grep "^verdict: ESCAPE" "  ... said so"
fi

# asteval as its docs show it (Interpreter().eval(src), no roots()): dir() answers with its
# own frame's names (none gives a value alone), so the names come from its package's lists
A=$BIN/venvs/asteval
if [[ -x $A/bin/python ]]; then
  mkdir -p "$WORK/asteval"
  printf 'from asteval import Interpreter\n\ndef evaluate(source):\n    return Interpreter().eval(source, raise_errors=True)\n' \
    >"$WORK/asteval/adapter.py"
  printf '{"kind": "source", "adapter": "adapter.py", "venv": "%s", "requires": %s}\n' "$A" "$REQ" >"$WORK/asteval/target.json"
  expect_exit 0 "asteval as documented: check" -- "$GC" check "$WORK/asteval"
  expect_grep "^roots: no roots\(\); [0-9]{3} name\(s\) the sandbox hands out, found by the sandbox package's name lists$" \
    "asteval: hundreds of names from its package's lists"
else
  skip_part "no asteval venv at $A (ci/target-venv.sh targets/asteval $A)"
fi
finish
