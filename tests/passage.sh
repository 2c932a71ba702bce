#!/usr/bin/env bash
# The source sweep's passages (source_sweep.c, passage/expand_passage): a format field's
# readback that the sandbox refuses to give back (a module's namespace, a module) still
# tells where the walk can go, and the sweep walks on from the host object behind it, by
# field parts alone (`[key]` and `.name`, '_' ones too), as the gate sweep walks real
# objects.  tests/fixtures/source/passage refuses every module and module namespace a
# program holds (as smolagents' executor checks what it evaluates) and hands out 'helper', a
# function of a module that holds os: each step to a primitive is refused when given back,
# and only the walk on through them reaches `[open]` or `[os].system`.  Without passages the
# depth-3 sweep finds nothing (checked on the build before them: 0 holes, 1,333 nodes).
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/passage
expect_readback 0 "$T" "{0.__globals__._gatecrash}" helper
expect_grep "refused by the sandbox: Refused" "refused by the sandbox"
# the host walk from 'helper' (a root, depth 0) passes through the same objects by lookups
# that run no code, and writes only the escapes' programs: the hole at depth 1 (0 holes
# there on the build before host walks, where each part was a program)
expect_exit 1 "the host walk: the hole at depth 1" -- "$GC" sweep --no-confirm "$T" --by root --depth 1 -q
expect_grep "^spawn\+write +[0-9]+ +[0-9]+ yes +gate function \. __globals__$" "the hole at depth 1"
expect_grep "^1 hole\(s\)" "that one hole"
expect_exit 1 "sweep through the passages" -- "$GC" sweep --no-confirm "$T" --by root --depth 3 -q
expect_grep "^spawn\+write +[0-9]+ +[0-9]+ yes +gate function \. __globals__$" "one hole: a function's globals"
expect_fgrep "    '{0.__builtins__[open]._gatecrash}'.format(helper)" "an item of the builtins namespace, read back"
expect_exit 1 "the signatures" -- "$GC" sweep --no-confirm "$T" --depth 3 --by signature -q
expect_fgrep "'{0.__globals__[os].system._gatecrash}'.format(helper)" "through the os module, refused when given back"
expect_same_sweep "$T" 3
expect_readback 1 "$T" "{0.__globals__[os].system._gatecrash}" helper
expect_grep "ESCAPE reach spawn os.system" "os.system"
# what the passages found on the current smolagents release (1.26.0, targets/smolagents): a
# function's __builtins__ is a namespace the executor refuses to give back, its item 'open'
# read back is the real builtins.open, which its list of dangerous functions does not name
if target_installed smolagents; then
  expect_readback 1 "$SRC/targets/smolagents" "{0.__builtins__[open]._gatecrash}" abs --venv "$BIN/venvs/smolagents"
  expect_grep "ESCAPE reach write builtins.open" "smolagents 1.26.0: builtins.open"
  expect_readback 0 "$SRC/targets/smolagents" "{0.__builtins__._gatecrash}" abs --venv "$BIN/venvs/smolagents"
  expect_grep "refused by the sandbox: InterpreterError" "smolagents 1.26.0: refused by the sandbox"
fi
finish
