#!/usr/bin/env bash
# The feedback inside walks the host runs for the program (harness/source/walk_feedback.c):
# str.format's and format_map's fields, string.Formatter().get_field's getattr chain and
# operator.attrgetter's C walk are
# walks a no_underscore sandbox never sees, resolved in C or in the standard library.  The
# fuzzer sees each object such a walk passed through: its kind is the mutator's focus
# ("reached:" under --print-programs), its names (the '_' ones too) and a module namespace's
# keys are harvested (--print-kinds), and the program runs as it would unobserved (a
# property on the walk runs as often as the program asks).  The inputs are program-IR bytes
# (harness/source/program.h: NAME=0 STR=1 INT=2 NONE=3 LIST=6 ATTR=8 CALL=10 ASSIGN=14
# FIELD=22 FMTMAP=23, each string a length byte and its bytes); each run prints the program.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/walk-feedback
run() { # run NAME: the input $WORK/NAME through fuzz_source-test, its output in $WORK/out
  expect_exit 0 "$1 runs" -- "$BIN/fuzz_source-test" --target="$T" --print-programs --print-kinds "$WORK/$1"
}
printf '\x00\x06config\x16\x1e%s\x0e\x06result' '__class__.__init__.__globals__' >"$WORK/format"
run format
expect_fgrep "result = '{0.__class__.__init__.__globals__}'.format(config)" "the format walk's program"
expect_grep "^gatecrash: program \(returned str\)" "it gives back a string"
expect_grep "^gatecrash: reached: str, function$" "the field's function is the focus beside the string"
expect_grep "^gatecrash: kind function: .*__globals__" "the function's names harvested"
expect_grep "^gatecrash: kind globals of module adapter: .* evaluate roots$" "its module's namespace: the keys"
printf '\x00\x06config\x17\x12%s\x0e\x06result' '__class__.__init__' >"$WORK/format_map"
run format_map
expect_fgrep "result = '{k.__class__.__init__}'.format_map({'k': config})" "format_map's program"
expect_grep "^gatecrash: reached: str, function$" "format_map's field walked"
printf '\x00\x06string\x08\x09Formatter\x0a\x00\x08\x09get_field\x01\x20%s\x00\x06config\x06\x01\x03\x0a\x03\x0e\x01x\x02\x01\x0e\x06result' \
  '0.__class__.__init__.__globals__' >"$WORK/get_field"
run get_field
expect_fgrep "x = string.Formatter().get_field('0.__class__.__init__.__globals__', [config], None)" "get_field's program"
expect_grep "^gatecrash: program \(returned int\)" "it gives back 1, not the walk"
expect_grep "^gatecrash: reached: int, function$" "the getattr chain's function is the focus"
expect_grep "^gatecrash: kind globals of module adapter: " "the chain's end harvested"
# operator.attrgetter walks in C, as a vectorcall: its type's calls are observed
printf '\x00\x08operator\x08\x0aattrgetter\x01\x1e%s\x0a\x01\x00\x06config\x0a\x01\x0e\x01x\x02\x01\x0e\x06result' \
  '__class__.__init__.__globals__' >"$WORK/attrgetter"
run attrgetter
expect_fgrep "x = operator.attrgetter('__class__.__init__.__globals__')(config)" "attrgetter's program"
expect_grep "^gatecrash: program \(returned int\)" "it gives back 1, not the walk"
expect_grep "^gatecrash: reached: int, function$" "attrgetter's function is the focus"
expect_grep "^gatecrash: kind globals of module adapter: " "attrgetter's end harvested"
printf '\x02\x02\x0e\x04runs\x00\x07counter\x16\x07hop.hop\x0e\x06result' >"$WORK/property"
run property
expect_fgrep "result = '{0.hop.hop}'.format(counter)" "the property walk's program"
expect_grep "^gatecrash: program \(returned str\)" "the property ran twice, as asked (not raised RuntimeError)"
# the sandbox's own reading of the syntax tree (ast.walk's getattr) is no walk of the program's
expect_no_grep "^gatecrash: kind (Module|Assign|Attribute):" "no syntax tree node harvested"
finish
