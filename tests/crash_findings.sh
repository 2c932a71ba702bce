#!/usr/bin/env bash
# A crashing target is a finding, never the end of the run (docs/RELIABILITY.md,
# "Crashing targets").  tests/fixtures/crashing: a gate whose second install dereferences
# NULL from C, one whose import aborts, a gate handing out tools.boom() (SIGSEGV from C) and
# tools.bang() (a failed C assertion in crash_ext, a C extension built here) beside a real
# escape (subprocess.os).  The source adapter's case is crash_findings_source.sh.
#  - at import or install: one line naming the signal and where, exit 3;
#  - an input: replay says CRASH with the signal and where, exit 1 (--json: its object);
#  - a campaign, its sweep included, goes on: the crash is a finding of its own in the table,
#    its input saved and replayable, and the real escape is found too.
# On b7a2e9e: replay of the second install died of SIGSEGV (139) with no line, the import
# abort was 134, replay of tools.boom() was 139, and `gatecrash fuzz` died with the target:
# 139 in the sweep (gate).
source "$(dirname "$0")/lib.sh" "$@"
F=$SRC/tests/fixtures/crashing
if grep -q '^GATECRASH_SANITIZE:BOOL=ON' "$BIN/CMakeCache.txt"; then
  skip "a sanitizer build reports crashes with its own handlers (timelimit.h)"
fi
printf 'value\n' >"$WORK/value.chain"
printf 'tools.boom()\n' >"$WORK/boom.chain"
printf 'tools.bang()\n' >"$WORK/bang.chain"
printf 'subprocess.os.system\n' >"$WORK/escape.chain"
R=(replay -q)
one_line() { # exactly one error line, no traceback
  if [[ $(grep -c '^gatecrash: error: ' "$WORK/out") -eq 1 ]] && ! grep -q 'Traceback\|Fatal Python' "$WORK/out"; then ok
  else fail "$1: not one error line"; sed 's/^/    /' "$WORK/out" | head -5 >&2; fi
}
# 1. import and install
expect_exit 3 "a gate whose second install segfaults" -- "$GC" "${R[@]}" --sandbox "$F/second_install.py" --requires '{}' "$WORK/value.chain"
expect_fgrep "gatecrash: error: the target crashed (SIGSEGV) while installing it, at second_install.py:12 in install_restrictions" "  ... named, with where"
one_line "second install"
expect_exit 3 "a gate whose import aborts" -- "$GC" "${R[@]}" --sandbox "$F/aborts_on_import.py" --requires '{}' "$WORK/value.chain"
expect_fgrep "gatecrash: error: the target crashed (SIGABRT) while importing it, at aborts_on_import.py:4 in <module>" "  ... named, with where"
one_line "import abort"
# 2. inputs: the gate's folder, with crash_ext built into it
T=$WORK/t
mkdir -p "$T"
cp "$F/boom.py" "$F/target.json" "$T/"
CC=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BIN/CMakeCache.txt")
EXT=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
INC=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
"${CC:-cc}" -shared -fPIC -I"$INC" -o "$T/crash_ext$EXT" "$F/crash_ext.c" && ok || fail "crash_ext did not build"
expect_exit 1 "replay of an input that segfaults the target" -- "$GC" "${R[@]}" "$T" "$WORK/boom.chain"
expect_fgrep "boom.chain: CRASH SIGSEGV at boom.py:19 in boom (the input crashed the target" "  ... says CRASH, the signal and where"
expect_exit 1 "replay of an input that aborts the target (a C assertion)" -- "$GC" "${R[@]}" "$T" "$WORK/bang.chain"
expect_fgrep "bang.chain: CRASH SIGABRT at boom.py:25 in bang" "  ... says CRASH SIGABRT"
expect_exit 1 "replay --json of an escape, then a crash" -- "$GC" "${R[@]}" --json "$T" "$WORK/escape.chain" "$WORK/boom.chain"
expect_grep '^\{"crash":"SIGSEGV","where":"boom.py:19 in boom","escaped":false\}$' "  ... the crash's JSON object"
expect_grep '^\{"kind":"reach".*"primitive":"os.system"' "  ... the escape's line, printed before the crash"
# triage: a crash case, minimized in fresh processes (a crash ends the process that runs it),
# named by where, replayable, de-duplicated
printf 'tools.boom().x.y\n' >"$WORK/long.chain"
expect_exit 0 "triage of crash inputs" -- "$GC" triage "$T" --out "$WORK/cases" "$WORK/long.chain" "$WORK/boom.chain" "$WORK/bang.chain"
expect_grep "^crash +long.chain: crash:SIGSEGV:boom.py:19 in boom  crash-SIGSEGV-boom.py-via-19_in_boom.chain" "  ... a crash case"
expect_grep "^known +boom.chain: crash:SIGSEGV:boom.py:19 in boom" "  ... de-duplicated by where"
expect_grep "^crash +bang.chain: crash:SIGABRT:boom.py:25 in bang" "  ... the abort's own case"
[[ $(grep -v '^#' "$WORK/cases/crash-SIGSEGV-boom.py-via-19_in_boom.chain") == "tools.boom()" ]] && ok ||
  fail "the crash case is not minimized to tools.boom()"
expect_exit 1 "replay of the saved crash case" -- "$GC" "${R[@]}" "$T" "$WORK/cases/crash-SIGSEGV-boom.py-via-19_in_boom.chain"
expect_fgrep "CRASH SIGSEGV at boom.py:19 in boom" "  ... says CRASH"
# 3. a campaign: the sweep calls boom() and bang() (crashes), the engine runs the seed
#    tools.boom() (a crash), and the escape is found.  Bounded by runs, one job: one seeded
#    engine process that runs its seeds first, so what it meets does not depend on timing
need fuzz_gate || { finish; exit; }
cp -r "$F/seeds" "$WORK/" # --corpus gets the merged corpus back
expect_exit 1 "a campaign on a gate that inputs crash" -- "$GC" fuzz "$T" --runs 200 --jobs 1 --seed 1 --corpus "$WORK/seeds" --out "$WORK/o"
expect_grep "^\[crash\] crash-sweep-node-[0-9]+: the input crashed the target \(SIGSEGV at boom.py:19 in boom\)" "  ... the sweep's crash is a finding, the campaign goes on"
expect_grep "^CRASH +SIGSEGV +boom.py:19 in boom " "  ... the table lists the SIGSEGV crash"
expect_grep "^CRASH +SIGABRT +boom.py:25 in bang " "  ... and the SIGABRT one"
expect_grep "new hole types.SimpleNamespace subprocess .<module> " "  ... and the real escape is found too"
expect_grep "distinct escape\(s\) on crashing-boom" "  ... and the escapes' table is printed"
saved=0
for c in "$WORK"/o/crashes/crash-*; do
  [[ $c == *crash-sweep-* ]] && continue
  "$GC" "${R[@]}" --raw "$T" "$c" >"$WORK/out" 2>&1
  [[ $? -eq 1 ]] && grep -q ": CRASH SIGSEGV at boom.py:19 in boom" "$WORK/out" && saved=1
done
((saved)) && ok || fail "no saved crash input replays as CRASH SIGSEGV at boom.py:19 in boom"
# 5. gatecrash's own crash (a fatal signal outside the target's import, install and inputs:
#    here sent to a campaign's process while its engine runs) is no finding: one line, exit 4
mkdir -p "$WORK/inert"
cp "$F/inert.py" "$WORK/inert/"
printf '{"name": "inert", "sandbox": "inert.py", "requires": {}}\n' >"$WORK/inert/target.json"
"$GC" fuzz "$WORK/inert" --time 6 --no-sweep-seed --out "$WORK/i" >"$WORK/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'starting to fuzz\|INITED' "$WORK/i/fuzz.log" 2>/dev/null && break; sleep 0.1; done
kill -SEGV $pid
wait $pid
rc=$?
[[ $rc -eq 4 ]] && ok || fail "gatecrash's own crash: exit $rc, want 4"
expect_fgrep "gatecrash: error: gatecrash itself crashed (SIGSEGV outside the target's code: a harness bug)" "  ... one line that says so"
expect_no_grep "CRASH" "  ... and no crash finding"
sleep 6 # its engine ends at its own time limit
finish
