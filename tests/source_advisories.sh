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
#     NotImplementedError for string.Formatter, which the program does not catch);
#   GHSA-5rfv-66g4-jr8h (CVE-2024-47532): RestrictedPython 7.2 with utility_builtins, an
#     AttributeError's obj gives back the string module behind its restricted view (fixed in
#     7.3: the same host on the current release reads back the view, whose Formatter raises
#     NotImplementedError);
#   CVE-2025-9959: smolagents 1.20.0, dunder methods called unchecked walk to object's
#     subclasses and call subprocess.Popen (fixed in 1.21.0).  Popen is a class, whose call
#     the C-call guard does not see: its own sys.audit event judges it (source.c lets the
#     standard library's sys.audit through), so this fails if that event is refused;
#   mcp-use 1.7.1's code mode (current, not fixed): the route published against it, object's
#     subclasses to a function's __globals__, its __import__, then os.popen, handed back as
#     the body's return value and confirmed in a plain interpreter of the venv.
source "$(dirname "$0")/lib.sh" "$@"
adv=$SRC/tests/fixtures/source/advisory
check() {  # check ADVISORY HISTORICAL CURRENT "CAPABILITY PRIMITIVE" [HOW THE CURRENT ONE BLOCKS IT] [CURRENT'S VENV]
  target_installed "$2" || return 0
  local blocked=${5:-refused by the sandbox: } venv=${6:-$3}
  expect_exit 1 "$1 on $2" -- "$GC" replay -q --venv "$BIN/venvs/$2" "$SRC/targets/$2" "$adv/$1.py"
  expect_grep "$1.py: gatecrash: ESCAPE reach $4 via .+ \(in the value evaluate gave back" "$1 on $2: the escape class"
  expect_exit 0 "$1 on $3 ($venv)" -- "$GC" replay -q --venv "$BIN/venvs/$venv" "$SRC/targets/$3" "$adv/$1.py"
  expect_grep "$1.py: blocked \($blocked" "$1 on $3 ($venv): blocked"
}
check ghsa-wqc8-x2pr-7jqh restrictedpython-6.0 restrictedpython "write builtins\.open"
check ghsa-44vg-5wv2-h2hg simpleeval-1.0.4 simpleeval-module "spawn os\.system"
check ghsa-xjw2-6jm9-rf67 restrictedpython-6.1-utility restrictedpython-utility "write builtins\.open" "raised NotImplementedError"
# the fixed release: the same host on the current release's venv
check ghsa-5rfv-66g4-jr8h restrictedpython-7.2-utility restrictedpython-7.2-utility "write builtins\.open" \
  "raised NotImplementedError" restrictedpython-utility
if target_installed smolagents-1.20.0; then
  expect_exit 1 "cve-2025-9959 on smolagents-1.20.0" -- "$GC" replay -q --venv "$BIN/venvs/smolagents-1.20.0" "$SRC/targets/smolagents-1.20.0" "$adv/cve-2025-9959.py"
  expect_grep "cve-2025-9959.py: gatecrash: ESCAPE effect spawn subprocess\.Popen via " "cve-2025-9959: Popen's own audit event"
fi
if target_installed smolagents; then  # the current release runs it in its worker thread and refuses it
  expect_exit 0 "cve-2025-9959 on smolagents" -- "$GC" replay -q --venv "$BIN/venvs/smolagents" "$SRC/targets/smolagents" "$adv/cve-2025-9959.py"
  expect_grep "cve-2025-9959.py: blocked \(refused by the sandbox: InterpreterError\)" "cve-2025-9959 on smolagents: refused"
fi
if target_installed mcp-use; then
  expect_exit 1 "mcp-use-code-mode on mcp-use" -- "$GC" replay --venv "$BIN/venvs/mcp-use" "$SRC/targets/mcp-use" "$adv/mcp-use-code-mode.py"
  expect_grep "mcp-use-code-mode.py: gatecrash: ESCAPE reach spawn os\.popen via .+ \(in the value evaluate gave back" "mcp-use-code-mode: the escape class"
  expect_grep "mcp-use-code-mode.py: confirmed in a plain interpreter" "mcp-use-code-mode: confirmed"
fi
finish
