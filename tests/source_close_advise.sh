#!/usr/bin/env bash
# sweep --save, sweep --close and advise on source targets: the one walker (harness/runtime/
# walk.h) closes a source target's holes as it does a gate's, and a source sweep's escapes
# are saved as cases.
#   - --save: each escape of simpleeval 1.0.4 at depth 2 (path.os.<primitive>) written as
#     <slug>.py, the program as evaluate runs it under a '#' header naming its hole; replay
#     takes the file (exit 1, the escape); a second --save into the folder knows them all;
#   - --close with the one hole: no escape (exit 0), the closed line, and what closing it
#     means for the sandbox (its advice, the attributes its edges were: os); a name no edge
#     carries is warned about;
#   - the leak fixture with `namespace run` closed: that row is gone, the others stay;
#   - advise: simpleeval 1.0.4's cut is that hole, verified (exit 0); the leak fixture's cut
#     leaves only what no namespace gate closes (and the implicit root the rule names
#     none), verified, each kept hole with the weakness its program shows.
source "$(dirname "$0")/lib.sh" "$@"
sweep() { "$GC" sweep --venv "$BIN/venvs/$1" "$SRC/targets/$1" "${@:2}"; }
leak=$SRC/tests/fixtures/source/leak
hole='module posixpath .<module>'

if target_installed simpleeval-1.0.4; then
  expect_exit 1 "sweep --save on a source target" -- sweep simpleeval-1.0.4 --depth 2 --no-confirm --save "$WORK/saved"
  expect_grep "^saved to $WORK/saved: [1-9][0-9]* new, 0 known, 0 not reproducible$" "--save: the cases, all new"
  n=$(ls "$WORK/saved"/*.py 2>/dev/null | grep -vc '\.repro\.py$')
  [[ $n -ge 40 ]] && ok || fail "--save: $n program cases, want one per escape (>= 40)"
  case=$WORK/saved/source-reach-os.system.py
  if [[ -s $case ]] && grep -qx '# signature: source:reach:os.system' "$case" &&
     grep -qxF "# hole: $hole" "$case" && grep -qx 'path.os.system' "$case"; then ok
  else fail "--save: os.system's case: its header and program"; sed 's/^/    /' "$case" >&2; fi
  expect_exit 1 "replay of a saved case" -- "$GC" replay --venv "$BIN/venvs/simpleeval-1.0.4" \
    "$SRC/targets/simpleeval-1.0.4" "$case"
  expect_grep 'ESCAPE reach spawn os\.system via path\.os\.system' "replay: the case escapes"
  expect_exit 1 "sweep --save again" -- sweep simpleeval-1.0.4 --depth 2 --no-confirm --save "$WORK/saved"
  expect_grep "^saved to $WORK/saved: 0 new, [1-9][0-9]* known, 0 not reproducible$" "--save again: all known"

  expect_exit 0 "sweep --close on a source target" -- sweep simpleeval-1.0.4 --depth 2 --close "$hole"
  expect_fgrep "closed: $hole" "--close: the closed line"
  expect_grep '^0 hole\(s\), 0 escape signature\(s\)' "--close: no escape left"
  expect_fgrep "  - $hole: do not copy module-valued attributes onto the proxy" "--close: what closing it means"
  expect_grep '; its edges: .*\bos\b' "--close: the attributes its edges were"
  expect_exit 1 "sweep --close with no such hole" -- sweep simpleeval-1.0.4 --depth 2 --close "no such hole"
  expect_fgrep "warning: --close 'no such hole': no edge of this sweep is that hole" "--close: an unknown hole"
  expect_exit 0 "advise on a source target" -- "$GC" advise --venv "$BIN/venvs/simpleeval-1.0.4" \
    "$SRC/targets/simpleeval-1.0.4" --depth 2 --verify
  expect_fgrep "advise for simpleeval-1.0.4 at depth 2: close 1 hole(s):" "advise: one hole"
  expect_fgrep " 1. $hole  (spawn+write;" "advise: that hole"
  expect_grep '^    weakness: handed out directly; the check it passes: ' "advise: its weakness"
  expect_grep '^verified: with the 1 hole\(s\) above closed, the sweep at depth 2 reaches no forbidden primitive\.$' \
    "advise: verified"
  expect_fgrep "closed: $hole" "advise --verify: the sweep with the cut closed"
fi

expect_exit 1 "leak --close 'namespace run'" -- "$GC" sweep "$leak" --depth 1 --by root --no-confirm --close "namespace run"
expect_no_grep '^[a-z+]+ +[0-9]+ +[0-9]+ +(yes|no) +namespace run$' "--close: the closed hole's row is gone"
expect_fgrep 'closed: namespace run' "--close: the closed line"
expect_grep ' namespace open$' "--close: the other roots' holes stay"
expect_grep ' frame \. f_globals$' "--close: the frame's hole stays"
expect_exit 0 "advise on the leak fixture" -- "$GC" advise "$leak" --depth 1
expect_grep '^ [0-9]\. namespace run  \(spawn;' "advise: the root run is cut"
expect_grep '^  - type \. __subclasses__\(\)' "advise: the class walk is left, not closable"
expect_grep '^  - \(not named\)' "advise: the implicit root, named by no hole, is left"
expect_grep '^verified: with the [0-9] hole\(s\) above closed' "advise on leak: verified"
finish
