#!/usr/bin/env bash
# The dunder-call form of an attribute step (source_sweep.c): a sandbox that refuses
# `x.__class__` but not a call of x's own __getattribute__ (the class of smolagents'
# CVE-2025-9959) is walked through `x.__getattribute__('__class__')`, and a class through
# `type.__getattribute__(C, '__bases__')`.  tests/fixtures/source/dunder-call is a sandbox of
# that class; its escapes need two such steps.  The sweep finds both holes, prints programs
# the sandbox accepts, and they replay as escapes; the walk is the same twice.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/dunder-call
expect_exit 1 "sweep through dunder calls" -- "$GC" sweep --no-confirm "$T" --by root --depth 2 -q
expect_grep "^spawn +1 +1 no +type \. __subclasses__\(\)$" "the class walk's hole (HOLES.md's name, as a replayed program's)"
expect_fgrep "via result = type.__getattribute__(type.__getattribute__(type, '__base__'), '__subclasses__')()" \
  "the class walk, one dunder call a step"
expect_grep "^write +1 +1 yes +builtin_function_or_method \. __self__$" "the builtin's module"
expect_fgrep "via result = len.__getattribute__('__self__').open" "an instance's own __getattribute__"
expect_same_sweep "$T" 2
expect_program 1 "$T" "result = len.__getattribute__('__self__').open"
expect_grep "gatecrash: ESCAPE reach write builtins.open" "the module's open"
expect_program 1 "$T" "result = type.__getattribute__(type.__getattribute__(type, '__base__'), '__subclasses__')()"
expect_grep "gatecrash: ESCAPE reach spawn subprocess.Popen" "Popen among the subclasses"
# a program's hole (triage/source_holes.c) reads the dunder-call forms as the attributes they
# take, as the sweep names them: the campaign table and triage group by it
hole_of() { # PROGRAM -> the hole replay --json names
  printf '%s\n' "$1" >"$WORK/hole.py"
  "$GC" replay -q --json "$T" "$WORK/hole.py" 2>/dev/null | grep '^{' | "$PY" -c 'import json,sys; print(json.loads(sys.stdin.readline())["hole"])'
}
[[ $(hole_of "result = type.__getattribute__(type.__getattribute__(type, '__base__'), '__subclasses__')()") == "type . __subclasses__()" ]] &&
  ok || fail "the class walk's hole, from its program: $(hole_of "result = type.__getattribute__(type.__getattribute__(type, '__base__'), '__subclasses__')()")"
[[ $(hole_of "result = len.__getattribute__('__self__').open") == "builtin_function_or_method . __self__" ]] &&
  ok || fail "the builtin's module, from its program: $(hole_of "result = len.__getattribute__('__self__').open")"
expect_program 0 "$T" "result = len.__self__"
expect_grep "refused by the sandbox: Refused" "the plain attribute is refused"
finish
