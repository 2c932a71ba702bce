#!/usr/bin/env bash
# State across steps (target.json "steps", adapter.h): an agent's executor keeps its state
# between code actions, so a step target runs an input's parts between "# gatecrash: step"
# lines in turn against one session().  tests/fixtures/source/steps checks each step alone:
# its escape needs a value carried from one step to the next.  Replayed, triaged from a raw
# crash input (minimized, the marker kept), reproduced in plain CPython; the same program in
# one step is refused; a bad "steps" or a missing session() is one line.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/steps
printf 'g = getattr\n# gatecrash: step\nresult = g(tool, "_run")\n' >"$WORK/two.py"
grep -v '^#' "$WORK/two.py" >"$WORK/one.py"
expect_exit 1 "two steps" -- "$GC" replay -q "$T" "$WORK/two.py"
expect_grep "two.py: gatecrash: ESCAPE reach spawn os.system via .* \(in the value evaluate gave back, at result\[1\]\)" \
  "two steps: the second step's value"
expect_exit 0 "the same in one step" -- "$GC" replay -q "$T" "$WORK/one.py"
expect_grep "one.py: blocked \(refused by the sandbox: Refused\)" "one step: refused"
# a top-level try/except is one statement: no step marker before its except clause (the
# encoding of: try: [].pop() / except Exception as e: / result = e); split, it would not compile
printf '\x10\x06\x00\x08\x03pop\x0a\x00\x0d\x11\x01e\x00\x01e\x0e\x06result' >"$WORK/crash-try"
expect_exit 0 "a try/except in a steps dialect" -- "$GC" replay -q --raw "$T" "$WORK/crash-try"
expect_no_grep "SyntaxError" "the except clause stays with its try"
# a crash input (the program encoding of: g = getattr; result = g(tool, '_run')), triaged
printf '\x00\x07getattr\x0e\x01g\x00\x01g\x00\x04tool\x01\x04_run\x0a\x02\x0e\x06result' >"$WORK/crash-steps"
expect_exit 0 "triage of a two-step crash input" -- "$GC" triage "$T" --out "$WORK/cases" "$WORK/crash-steps"
case=$WORK/cases/source-reach-os.system.py
[[ $(sed -n '/^# found-by:/,$p' "$case" 2>/dev/null | tail -n +2) == \
   $'g = getattr\n# gatecrash: step\nresult = g(tool, \'_run\')' ]] && ok ||
  fail "triage: the case is not the two steps with their marker: $(cat "$case" 2>&1)"
expect_exit 1 "escapes/reproduce.py on the case, in plain CPython" -- "$PY" "$SRC/escapes/reproduce.py" "$case"
expect_grep "^ESCAPE reproduced: reach spawn os.system via result\[1\]$" "reproduce.py: through session()"
expect_exit 0 "check through session()" -- "$GC" check "$T"
expect_grep "^probes: 5 of 5 programs gave their value" "check: the probes run as one step"
# bad "steps", no session()
for bad in 0 17 '"two"' 1.5; do
  mkdir -p "$WORK/bad" && cp "$T/adapter.py" "$WORK/bad/"
  sed "s/\"steps\": 2/\"steps\": $bad/" "$T/target.json" >"$WORK/bad/target.json"
  expect_exit 2 "steps $bad" -- "$GC" replay "$WORK/bad" "$WORK/one.py"
  expect_grep "error: target.json: \"steps\" must be a whole number from 1 to 16" "steps $bad: named"
done
mkdir -p "$WORK/nosession" && cp "$T/target.json" "$WORK/nosession/"
sed 's/^def session():/def not_session():/' "$T/adapter.py" >"$WORK/nosession/adapter.py"
expect_exit 3 "steps without session()" -- "$GC" replay "$WORK/nosession" "$WORK/one.py"
expect_grep "error: adapter .*: target.json has \"steps\", but the adapter has no callable session\(\)" "no session: named"
finish
