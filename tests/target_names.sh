#!/usr/bin/env bash
# Names never become paths (docs/RELIABILITY.md, "Names"): target.json's "name" names the
# campaign's folder (out/NAME) and triage's (escapes/NAME), so one with "..", an absolute
# path, control characters or 5000 bytes is refused by every command (one line, exit 2)
# before anything is written; a name made from a folder's name is made safe; a case file's
# name made from a long signature stays a file name.  Before target.c's name rule, `gatecrash
# fuzz` of tests/fixtures/names/dotdot wrote its whole campaign folder into ../../climbed.
source "$(dirname "$0")/lib.sh" "$@"
N=$SRC/tests/fixtures/names
one_line() { # exactly one error line, saying why
  if [[ $(grep -c '^gatecrash: error: target.json: "name" must be a safe file name' "$WORK/out") -eq 1 ]] &&
    [[ $(wc -l <"$WORK/out") -eq 1 ]]; then ok
  else fail "$1: not one error line naming the rule"; sed 's/^/    /' "$WORK/out" | head -5 >&2; fi
}
mkdir -p "$WORK/run/a/b"
printf 'subprocess\n' >"$WORK/x.chain"
for t in dotdot absolute control long; do
  (cd "$WORK/run/a/b" && "$GC" fuzz "$N/$t" --time 3 --runs 10 >"$WORK/out" 2>&1)
  rc=$?
  [[ $rc -eq 2 ]] && ok || { fail "fuzz of the $t name: exit $rc, want 2"; sed 's/^/    /' "$WORK/out" | head -5 >&2; }
  one_line "fuzz, $t"
  (cd "$WORK/run/a/b" && "$GC" triage "$N/$t" "$WORK/x.chain" >"$WORK/out" 2>&1)
  rc=$?
  [[ $rc -eq 2 ]] && ok || fail "triage of the $t name: exit $rc, want 2"
  one_line "triage, $t"
  expect_exit 2 "replay of the $t name" -- "$GC" replay "$N/$t" "$WORK/x.chain"
done
# nothing was written anywhere: not beside the run folder, not in /tmp, not in out/
[[ ! -e $WORK/run/a/climbed && ! -e $WORK/run/climbed && ! -e /tmp/gatecrash-absolute-name ]] && ok ||
  fail "a campaign folder was written outside out/"
[[ -z $(ls -A "$WORK/run/a/b/out" 2>/dev/null) ]] && ok || fail "something was written into out/"
# a folder's own name (no "name" key) is made safe: out/<safe>
mkdir -p "$WORK/run/bad"$'\n'"dir"
cp "$SRC/targets/station-1.5.0/module_sandbox.py" "$WORK/run/bad"$'\n'"dir/"
printf '{"sandbox": "module_sandbox.py", "requires": {"subprocess": false}}\n' >"$WORK/run/bad"$'\n'"dir/target.json"
need fuzz_gate || { finish; exit; }
(cd "$WORK/run/a/b" && "$GC" fuzz "$WORK/run/bad"$'\n'"dir" --runs 20 --jobs 1 --seed 1 >"$WORK/out" 2>&1)
[[ -d $WORK/run/a/b/out/bad_dir/crashes ]] && ok || { fail "the folder's name was not made safe (out/bad_dir)"; ls "$WORK/run/a/b/out" >&2; }
finish
