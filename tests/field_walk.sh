#!/usr/bin/env bash
# The field-walk form of an attribute step (source_sweep.c): in a sandbox that refuses every
# `_` name in code but hands out the string module, string.Formatter().get_field resolves a
# format field's `.attr` parts in the host (the class of RestrictedPython's CVE-2023-41039);
# handing out operator instead, operator.attrgetter does the same walk.
# tests/fixtures/source/field-walk is a sandbox of that class (no_underscore dialect).  The
# sweep finds the Formatter (string.Formatter(), two steps from a root), walks `_` names as
# fields of the program's own values, one part longer per step, and walks the host's objects
# behind each root by field parts itself (host walks, up to six parts), prints programs the
# sandbox accepts, and they replay as escapes; the walk is the same twice.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/field-walk
expect_exit 1 "sweep through format fields" -- "$GC" sweep --no-confirm "$T" --by root --depth 3 -q
expect_grep "^write +1 +1 yes +builtin_function_or_method \. __self__$" "a builtin's module"
expect_fgrep "via result = string.Formatter().get_field('0.__self__.open', [print], None)[0]" \
  "the host walk from a root: two field parts"
expect_grep "^write +1 +1 yes +gate function \. __globals__$" "the sandbox's own function"
expect_fgrep "via result = string.Formatter().get_field('0.__class__.__init__.__builtins__', [config], None)[0]" \
  "three field parts"
expect_grep "^write +1 +1 no +cell \. cell_contents$" "a closure's cell (no namespace gate closes it)"
expect_fgrep "via result = string.Formatter().get_field('0._ChainMap.__repr__.__closure__[2].cell_contents.__builtins__', [string], None)[0]" \
  "six field parts, an item among them: the host walk's depth"
expect_grep "^spawn\+write +[0-9]+ +[0-9]+ yes +module string \.<module>$" "the module's own __builtins__, and what its names lead to"
expect_grep "^5 hole\(s\)" "five holes"
expect_same_sweep "$T" 3
expect_program 1 "$T" "result = string.Formatter().get_field('0.__self__', [print], None)[0].open"
expect_grep "gatecrash: ESCAPE reach write builtins.open" "the module's open"
expect_program 1 "$T" "result = string.Formatter().get_field('0.__self__.open', [print], None)[0]"
expect_grep "gatecrash: ESCAPE reach write builtins.open" "the module's open, in the field"
expect_program 1 "$T" "result = string.Formatter().get_field('0.__class__.__init__.__builtins__', [config], None)[0]"
expect_grep "gatecrash: ESCAPE reach write builtins.open" "the function's builtins"
expect_program 0 "$T" "result = print.__self__"
expect_grep "refused by the sandbox: Refused" "the attribute in code is refused"
# the same sandbox handing out operator: the walk goes through operator.attrgetter
A=$SRC/tests/fixtures/source/attrgetter
expect_exit 1 "sweep through attrgetter" -- "$GC" sweep --no-confirm "$A" --by root --depth 3 -q
expect_fgrep "via result = operator.attrgetter('__self__.open')(print)" "attrgetter, two parts"
expect_fgrep "via result = operator.attrgetter('__class__.__init__.__builtins__')(config)" "attrgetter, three parts"
expect_no_grep "get_field" "no Formatter there"
# without a resolver among the nodes no field walk runs: the dunder-call fixture's sweep
# prints no get_field program
"$GC" sweep --no-confirm "$SRC/tests/fixtures/source/dunder-call" --depth 2 -q >"$WORK/out" 2>&1
expect_no_grep "get_field|attrgetter" "no field walk without a resolver"
finish
