#!/usr/bin/env bash
# The language's forms of an attribute step in the source sweep (sweep_forms.h): where a
# sandbox refuses `X._name` and its dunder-call form, the sweep writes the attribute as
# getattr of the name made from two halves (past a check of string constants for dunder
# names: the split-constant fixture) and as a class pattern of match (past a check of
# attribute nodes: the match-class fixture, which has no getattr).  Each sweep finds the
# globals of the host's function and the module of a builtin, in programs the sandbox runs,
# and they replay as escapes.
# Import roots (source_sweep.c, "import roots"): a module of the host's sys.modules imported by
# a program, at the top level or nested in `if 1:` — past an import check of the top level only
# (nested-import) and an import guard asked only for modules not loaded yet (loaded-import).
source "$(dirname "$0")/lib.sh" "$@"
F=$SRC/tests/fixtures/lang
expect_exit 1 "sweep: getattr of a name made from parts" -- "$GC" sweep "$F/split-constant" --by root --depth 2 -q
expect_grep "^write +1 +1 yes +gate function \. __globals__$" "split-constant: the function's globals"
expect_fgrep "via result = getattr(summary, ('__buil' + 'tins__'))" "split-constant: getattr, the name in two halves"
expect_fgrep "via result = getattr(chr, ('__se' + 'lf__')).open" "split-constant: a builtin's module"
expect_program 1 "$F/split-constant" "result = getattr(summary, ('__buil' + 'tins__'))"
expect_grep "gatecrash: ESCAPE reach write builtins.open" "split-constant: the program replays as an escape"
expect_program 0 "$F/split-constant" "result = getattr(summary, '__builtins__')"
expect_grep "refused by the sandbox: Refused" "split-constant: the name whole is refused"
expect_exit 1 "sweep: the attribute read by a class pattern" -- "$GC" sweep "$F/match-class" --by root --depth 2 -q
expect_grep "^write +1 +1 yes +gate function \. __globals__$" "match-class: the function's globals"
expect_fgrep "case object(__builtins__=v):" "match-class: a class pattern names the attribute"
printf 'match summary:\n    case object(__builtins__=v):\n        result = v\n' >"$WORK/match.py"
expect_exit 1 "match-class: the program replays" -- "$GC" replay "$F/match-class" "$WORK/match.py"
expect_grep "gatecrash: ESCAPE reach write builtins.open" "match-class: the program replays as an escape"
expect_program 0 "$F/match-class" "result = summary.__builtins__"
expect_grep "refused by the sandbox: Refused" "match-class: the attribute node is refused"
# import roots: the import nested where the check does not look, the module's primitive one step on
expect_exit 1 "sweep: an import nested in a block" -- "$GC" sweep "$F/nested-import" --by root --depth 1 -q
expect_grep "^spawn\+write +[0-9]+ +[0-9]+ yes +module os \.<primitive>$" "nested-import: the os module, imported"
printf 'if 1:\n    import os\nresult = os.fork\n' >"$WORK/nested.py"
expect_fgrep "$(cat "$WORK/nested.py")" "nested-import: the import in 'if 1:'"
expect_exit 1 "nested-import: the program replays" -- "$GC" replay "$F/nested-import" "$WORK/nested.py"
expect_grep "gatecrash: ESCAPE reach spawn os.fork" "nested-import: the program replays as an escape"
expect_program 0 "$F/nested-import" "import os
result = os.fork"
expect_grep "refused by the sandbox: Refused" "nested-import: the top-level import is refused"
expect_exit 1 "sweep: the import of a module already loaded" -- "$GC" sweep "$F/loaded-import" --by root --depth 1 -q
expect_grep "^spawn\+write +[0-9]+ +[0-9]+ yes +module os \.<primitive>$" "loaded-import: the os module, imported"
expect_fgrep "via import os" "loaded-import: a top-level import of a loaded module"
expect_program 1 "$F/loaded-import" "import os
result = os.fork"
expect_grep "gatecrash: ESCAPE reach spawn os.fork" "loaded-import: the program replays as an escape"
expect_program 0 "$F/loaded-import" "import gatecrash_not_loaded
result = gatecrash_not_loaded"
expect_grep "refused by the sandbox: Refused" "loaded-import: a module not loaded yet is refused"
finish
