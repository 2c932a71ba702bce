#!/usr/bin/env bash
# The lookup readback of the source sweep (source_sweep.c, lookup_readback): in a statement
# dialect each value that is no scalar or container is asked for a name it lacks, and the
# AttributeError caught is read back (`e.obj`).  A value that forwards lookups to what it
# wraps gives that object back.  tests/fixtures/source/lookup-readback hands out a view of
# the string module that refuses its Formatter; the readback gives the module, whose
# Formatter then walks format fields in the host (the class of RestrictedPython's
# CVE-2024-47532).  The readback's statements close their block, so the Formatter's program
# stands before the field walk's own value.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/lookup-readback
expect_program 0 "$T" "result = string.Formatter"
expect_grep "refused by the sandbox: Refused" "the view refuses the Formatter"
expect_exit 1 "sweep through the readback" -- "$GC" sweep --no-confirm "$T" --by root --depth 3 -q
expect_grep "^spawn\+write +[0-9]+ +[0-9]+ yes +ModuleView string \.<module>$" "the view's module, read back"
expect_fgrep "    o4 = e.obj" "the readback's statement"
expect_fgrep "result = o4.Formatter().get_field('0.__self__.open', [len], None)[0]" \
  "the module's Formatter, then a field walk"
expect_grep "^write +1 +1 yes +builtin_function_or_method \. __self__$" "a builtin's module"
# ten holes on 3.11 and 3.12, nine on 3.13 (the frames' among them vary with the version); five on the
# build before host walks
expect_grep "^([6-9]|[1-9][0-9]) hole\(s\)" "more than five holes"
expect_same_sweep "$T" 3
# the Formatter is found at depth 3, after the field walks asked for at depths 1 and 2: their
# values are expanded within that level (walk_nodes), so depth 3 is complete with every hole,
# and a campaign whose budget cannot fit depth 4 still has them all
expect_exit 1 "sweep, its levels shown" -- "$GC" sweep --no-confirm "$T" --depth 3
expect_grep "^\[sweep\] depth 2 complete: 0 escape\(s\) found so far$" "nothing by depth 2"
expect_grep "^\[sweep\] depth 3 complete: [1-9][0-9]+ escape\(s\) found so far$" "all by the end of depth 3"
printf "try:\n    string.gatecrash\nexcept Exception as e:\n    o4 = e.obj\nresult = o4.Formatter().get_field('0.__self__', [len], None)[0].open\n" >"$WORK/rb.py"
expect_exit 1 "the printed program replays" -- "$GC" replay "$T" "$WORK/rb.py"
expect_grep "ESCAPE reach write builtins.open" "the builtins module's open"
# a value that does not forward gives itself back: no node, no hole at depth 2
expect_exit 0 "nothing two steps deep" -- "$GC" sweep --no-confirm "$T" --depth 2 -q
expect_grep "^0 hole\(s\)" "no hole"
finish
