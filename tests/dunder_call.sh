#!/usr/bin/env bash
# The dunder-call form of an attribute step (source_sweep.c): a sandbox that refuses
# `x.__class__` but not a call of x's own __getattribute__ (the class of smolagents'
# CVE-2025-9959) is walked through `x.__getattribute__('__class__')`, and a class through
# `type.__getattribute__(C, '__bases__')`.  tests/fixtures/source/dunder-call is a sandbox of
# that class; its escapes need two such steps.  The sweep finds both holes, prints programs
# the sandbox accepts, and they replay as escapes; the walk is the same twice.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/dunder-call
expect_exit 1 "sweep through dunder calls" -- "$GC" sweep "$T" --depth 2 -q
"$GC" sweep "$T" --depth 2 -q >"$WORK/sweep1" 2>/dev/null # stdout: the report
expect_grep "^spawn +1 +1 yes +type \(\)<reach>$" "the class walk's hole"
expect_fgrep "via result = type.__getattribute__(type.__getattribute__(type, '__base__'), '__subclasses__')()" \
  "the class walk, one dunder call a step"
expect_grep "^write +1 +1 yes +builtin_function_or_method \. __self__$" "the builtin's module"
expect_fgrep "via result = len.__getattribute__('__self__').open" "an instance's own __getattribute__"
"$GC" sweep "$T" --depth 2 -q >"$WORK/sweep2" 2>/dev/null
if [[ -s $WORK/sweep1 ]] && cmp -s "$WORK/sweep1" "$WORK/sweep2"; then ok; else fail "two sweeps differ"; diff "$WORK/sweep1" "$WORK/sweep2" | head >&2; fi
printf "result = len.__getattribute__('__self__').open\n" >"$WORK/self.py"
printf "result = type.__getattribute__(type.__getattribute__(type, '__base__'), '__subclasses__')()\n" >"$WORK/walk.py"
expect_exit 1 "the printed programs replay" -- "$GC" replay "$T" "$WORK/self.py" "$WORK/walk.py"
expect_grep "self.py: gatecrash: ESCAPE reach write builtins.open" "the module's open"
expect_grep "walk.py: gatecrash: ESCAPE reach spawn subprocess.Popen" "Popen among the subclasses"
printf "result = len.__self__\n" >"$WORK/plain.py"
expect_exit 0 "the plain attribute is refused" -- "$GC" replay "$T" "$WORK/plain.py"
expect_grep "refused by the sandbox: Refused" "refused"
finish
