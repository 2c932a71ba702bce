#!/usr/bin/env bash
# Calls with the program's own values in the source sweep (source_sweep.c,
# expand_own_calls): where a root is the builtin vars, type or list, the sweep passes it the
# values its programs reach.  In tests/fixtures/source/own-values, a checker that refuses
# every `_` name and attribute in the code (and frames and str.format) but hands out vars(),
# and a root `tools` that keeps the module os.path in a `_` attribute, vars() reads that
# attribute as data.  The build before: 0 holes at depth 4.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/own-values
expect_exit 1 "sweep with calls of vars() on the program's values" -- "$GC" sweep --no-confirm "$T" --by root --depth 4 -q
expect_grep "^spawn\+write +[0-9]+ +[0-9]+ yes +dict \[\]<module>$" "the module behind the private attribute"
expect_fgrep "via result = vars(vars(tools)['_paths'])" "vars() of the root, then of what it held"
expect_grep "^1 hole\(s\)" "that one hole"
expect_same_sweep "$T" 4
expect_program 1 "$T" "result = vars(tools)['_paths'].os.system"
expect_grep "ESCAPE reach spawn os.system" "the module's os reaches a spawn"
expect_program 0 "$T" "result = tools._paths"
expect_grep "refused by the sandbox: Refused" "the attribute itself is refused"
finish
