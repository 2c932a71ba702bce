#!/usr/bin/env bash
# Differential confirmation (docs/TRIAGE.md "Confirmation in a plain interpreter"): every
# escape replay reports runs again in a fresh plain interpreter of the target (the
# standalone reproducer: no harness, an audit hook that refuses spawns and writes), under a
# hash seed other than the harness's, and replay says whether it was confirmed there.
# Agreeing: a bundled station-1.5.0 case, a source advisory on its release's venv, and
# tools.holder.pick() of tests/fixtures/unportable.  Disagreeing: tools.pick() there
# reaches os.execve under the harness's hash seed (0) only; in the plain interpreter it
# returns a harmless function, so it is NOT confirmed, and --json says "confirmed":false.
source "$(dirname "$0")/lib.sh" "$@"
U=$SRC/tests/fixtures/unportable
printf 'tools.pick()\n' >"$WORK/pick.chain"
printf 'tools.holder.pick()\n' >"$WORK/holder.chain"
expect_exit 1 "replay of a bundled case" -- "$GC" replay -q "$SRC/targets/station-1.5.0" \
  "$SRC/escapes/station-1.5.0/reach-spawn-os.execv-via-modattr.chain"
expect_grep "reach-spawn-os.execv-via-modattr.chain: confirmed in a plain interpreter$" "the bundled case is confirmed"
expect_exit 1 "replay of tools.pick() and tools.holder.pick()" -- "$GC" replay -q --json "$U" "$WORK/pick.chain" "$WORK/holder.chain"
expect_grep "pick.chain: NOT confirmed: blocked: the escape did not reproduce$" "tools.pick() rests on the harness's hash seed"
expect_grep "holder.chain: confirmed in a plain interpreter$" "tools.holder.pick() holds in any process"
expect_grep '"input":"tools.pick\(\)".*"confirmed":false' "--json: not confirmed"
expect_grep '"input":"tools.holder.pick\(\)".*"confirmed":true' "--json: confirmed"
expect_count 2 "ESCAPE reach spawn os.execve" "both still escape in the harness (exit 1 unchanged)"
# --no-confirm: no second run, and --json says it was not asked
expect_exit 1 "replay --no-confirm" -- "$GC" replay -q --no-confirm --json "$U" "$WORK/pick.chain"
expect_no_grep "confirmed in|NOT confirmed" "no confirmation line"
expect_grep '"confirmed":null' "--json: null when not run"
# a source target: the program runs through the adapter with the venv's interpreter
V=$BIN/venvs/simpleeval-1.0.4
if [[ -x $V/bin/python ]]; then
  expect_exit 1 "an advisory on its release" -- "$GC" replay -q --venv "$V" "$SRC/targets/simpleeval-1.0.4" \
    "$SRC/tests/fixtures/source/advisory/ghsa-44vg-5wv2-h2hg.py"
  expect_grep "ghsa-44vg-5wv2-h2hg.py: confirmed in a plain interpreter$" "the source advisory is confirmed"
fi
finish
