#!/usr/bin/env bash
# The published escape of each bundled historical release, replayed as a fixture (never a
# seed: nothing under corpus/ or dict/ holds it): tests/fixtures/source/advisory/<advisory>.py
# escapes on the release before the fix and is refused on the current release's target.
#   GHSA-wqc8-x2pr-7jqh (CVE-2023-37271): RestrictedPython 6.0, a generator's frame walked
#     back to the host's builtins (fixed in 6.1);
#   GHSA-44vg-5wv2-h2hg (CVE-2026-32640): simpleeval 1.0.4, a module passed in names reaches
#     os through non-underscore attributes (fixed in 1.0.5, ModuleWrapper);
#   GHSA-xjw2-6jm9-rf67 (CVE-2023-41039): RestrictedPython 6.1 with utility_builtins, a
#     string.Formatter field walk runs in the host (fixed in 6.2; 9.0 raises
#     NotImplementedError for string.Formatter, which the program does not catch).
source "$(dirname "$0")/lib.sh" "$@"
adv=$SRC/tests/fixtures/source/advisory
check() {  # check ADVISORY HISTORICAL CURRENT PRIMITIVE [HOW THE CURRENT ONE BLOCKS IT]
  target_installed "$2" || return 0
  local blocked=${5:-refused by the sandbox: }
  expect_exit 1 "$1 on $2" -- "$GC" replay -q --venv "$BIN/venvs/$2" "$SRC/targets/$2" "$adv/$1.py"
  expect_grep "$1.py: gatecrash: ESCAPE reach [a-z]+ $4 via .+ \(in the value evaluate gave back" "$1 on $2: the escape class"
  expect_exit 0 "$1 on $3" -- "$GC" replay -q --venv "$BIN/venvs/$3" "$SRC/targets/$3" "$adv/$1.py"
  expect_grep "$1.py: blocked \($blocked" "$1 on $3: blocked"
}
check ghsa-wqc8-x2pr-7jqh restrictedpython-6.0 restrictedpython "builtins\.open"
check ghsa-44vg-5wv2-h2hg simpleeval-1.0.4 simpleeval-module "os\.system"
check ghsa-xjw2-6jm9-rf67 restrictedpython-6.1-utility restrictedpython-utility "builtins\.open" "raised NotImplementedError"
finish
