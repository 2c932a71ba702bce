#!/usr/bin/env bash
# Source targets through the same campaign, triage and replay as namespace gates:
# `gatecrash fuzz` on the historical simpleeval 1.0.4 from a seed that is the advisory's
# program (tests/fixtures/source/advisory/ghsa-44vg-5wv2-h2hg.py, encoded: only here, never
# in corpus/ or dict/) ends with that escape in its table and exit 1, and on the current
# release a bounded run ends with 0 escapes and exit 0; triage minimizes a padded crash input
# to the advisory's program and saves it as a source file evaluate runs unchanged, which
# replay (a folder, --json) and the .py reproducer in plain Python from the venv replay as
# the escape.
source "$(dirname "$0")/lib.sh" "$@"
target_installed simpleeval-1.0.4 && target_installed simpleeval || { finish; exit; }
H=$SRC/targets/simpleeval-1.0.4
HV=(--venv "$BIN/venvs/simpleeval-1.0.4")
# program.h's bytes: NAME 0, ATTR 8, EXPR 13, STR 1, INT 2; a string is its length byte, then its bytes
mkdir -p "$WORK/seeds" "$WORK/crashes"
printf '\x00\x04path\x08\x02os\x08\x06system\x0d' >"$WORK/seeds/advisory"     # path.os.system
# padded: two statements before it ('hello', 5) and a detour through os.path.os
printf '\x01\x05hello\x0d\x02\x05\x0d\x00\x04path\x08\x02os\x08\x04path\x08\x02os\x08\x06system\x0d' \
  >"$WORK/crashes/crash-padded"

# 1. triage: confirmed, minimized to the advisory's program, saved as source
E=$WORK/esc
expect_exit 0 "triage a padded crash input" -- "$GC" triage "$H" "${HV[@]}" --out "$E" --standalone "$WORK/crashes"
expect_grep "^new +crash-padded: source:reach:os\.system  path\.os\.system$" "triage: new case, minimized"
case=$E/source-reach-os.system.py
[[ $(grep -v '^#' "$case" 2>/dev/null) == "path.os.system" ]] && ok || fail "triage: the case's program is not exactly path.os.system"
grep -q '^# signature: source:reach:os.system$' "$case" && ok || fail "triage: no signature header"
grep -q '^# found-by: libFuzzer, crash input crash-padded; minimized from 3 to 1 statements' "$case" && ok ||
  fail "triage: no minimization header"
expect_exit 0 "triage again" -- "$GC" triage "$H" "${HV[@]}" --out "$E" "$WORK/crashes/crash-padded"
expect_grep "^known +crash-padded: source:reach:os\.system" "triage: de-duplicated by signature"

# the minimizer drops arguments, lowers the call's count and shortens strings: on
# fixtures/source/callonly run must be called with a string literal, so the padded
# x = 'hello'; result = run('truetrue', 7, None) becomes one call with an empty string
printf '\x01\x05hello\x0e\x01x\x00\x03run\x01\x08truetrue\x02\x07\x03\x0a\x03\x0e\x06result' >"$WORK/crash-call"
C=$SRC/tests/fixtures/source/callonly
expect_exit 0 "triage on callonly" -- "$GC" triage "$C" --out "$WORK/esc-call" "$WORK/crash-call"
expect_grep "^new +crash-call: source:reach:os\.system  t = run\(''\)$" "triage: arguments dropped, string shortened"
[[ $(grep -v '^#' "$WORK/esc-call/source-reach-os.system.py" 2>/dev/null) == "t = run('')" ]] && ok ||
  fail "triage on callonly: the case's program is not t = run('')"
# a sandbox that reads the comments: the header's "runs" makes it refuse the case, said so
mkdir -p "$WORK/callonly-text" && cp "$C/target.json" "$WORK/callonly-text/"
sed 's/\\brun\\b(/run(/' "$C/adapter.py" >"$WORK/callonly-text/adapter.py"
expect_exit 0 "triage on a sandbox that reads comments" -- "$GC" triage "$WORK/callonly-text" --out "$WORK/esc-text" \
  "$WORK/crash-call"
expect_grep "^flaky +crash-call: .* \(with its '#' header it does not escape: refused by the sandbox: Refused\)$" \
  "triage: the header's refusal named"
[[ ! -e $WORK/esc-text/source-reach-os.system.py ]] && ok || fail "triage saved a case that does not escape"

# 2. replay: the case folder (its .py cases, not the reproducer), --json
expect_exit 0 "replay --expect escape the case folder" -- "$GC" replay --expect escape "$H" "${HV[@]}" "$E"
expect_grep "source-reach-os\.system\.py: gatecrash: ESCAPE reach spawn os\.system" "replay: the case escapes"
expect_grep "replayed 1: 1 escaped" "replay: one case (the reproducer is no case)"
expect_exit 1 "replay --json" -- "$GC" replay -q --json "$H" "${HV[@]}" "$case"
grep '^{"kind"' "$WORK/out" >"$WORK/json"
"$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["signature"]=="source:reach:os.system" and j["input"].endswith("\npath.os.system\n") and j["primitive"]=="os.system" and j["hole"]=="module posixpath .<module>", j' \
  "$WORK/json" && ok || fail "replay --json: the escape's object and its hole"

# 3. the reproducers, in plain Python from the venv: exit 1, the escape
VPY=$BIN/venvs/simpleeval-1.0.4/bin/python
expect_exit 1 "standalone reproducer" -- "$VPY" "$E/source-reach-os.system.repro.py"
expect_grep "^ESCAPE reproduced: reach spawn os\.system via result$" "standalone reproducer: the escape"
expect_exit 1 "escapes/reproduce.py on the case" -- "$VPY" "$SRC/escapes/reproduce.py" "$case"
# and blocked when the program reaches no primitive
mkdir -p "$WORK/esc-blocked" && cp "$E/target.json" "$WORK/esc-blocked/"
sed 's/^path\.os\.system$/path.os.getcwd/' "$case" >"$WORK/esc-blocked/getcwd.py"
expect_exit 0 "escapes/reproduce.py on a program that does not escape" -- "$VPY" "$SRC/escapes/reproduce.py" \
  "$WORK/esc-blocked/getcwd.py"
expect_grep "^blocked: the escape did not reproduce$" "reproduce.py: blocked"
need fuzz_source || { finish; exit; } # 4 and 5 run the engine
# 4. fuzz: the campaign runs fuzz_source, replays its crash input as a program, the table
# (--corpus is the campaign's own: the merge prunes an escaping seed from it, so each run gets a copy;
# --no-sweep-seed: the engine alone, the sweep would find it first: tests/source_hybrid.sh)
cp -R "$WORK/seeds" "$WORK/corpus"
expect_exit 1 "fuzz simpleeval-1.0.4 from the advisory's program" -- "$GC" fuzz "$H" "${HV[@]}" --runs 200 --seed 1 --no-sweep-seed --by root \
  --corpus "$WORK/corpus" --out "$WORK/campaign"
expect_grep "^gatecrash: fuzzing simpleeval-1.0.4 .* of libFuzzer" "fuzz: the engine"
expect_grep "escapes 1 +distinct 1 +holes 1 +\(done\)" "fuzz: the progress line"
expect_grep "^1 escape input\(s\), 1 distinct escape\(s\) on simpleeval-1.0.4$" "fuzz: the summary"
expect_grep "^spawn +1 +1 +yes +returned +module posixpath \.<module>$" "fuzz: the table by hole, as for gates, its row confirmed (the value handed back)"
expect_grep "^ +via path\.os\.system$" "fuzz: the hole's program"
ls "$WORK"/campaign/crashes/crash-* >/dev/null 2>&1 && ok || fail "fuzz: no crash input in OUT/crashes"
[[ -f $WORK/campaign/target/target.json && -f $WORK/campaign/fuzz.log ]] && ok || fail "fuzz: OUT/ layout"
# the inline form, the same
cp -R "$WORK/seeds" "$WORK/corpus-inline"
expect_exit 1 "fuzz --adapter --requires" -- "$GC" fuzz --adapter "$H/adapter.py" \
  --requires '{"subprocess": false, "filesystem_writes": []}' "${HV[@]}" --runs 200 --seed 1 \
  --corpus "$WORK/corpus-inline" --out "$WORK/out-inline"
expect_grep "^ +via (result = )?path\.os\." "fuzz inline: the escape (the sweep's program, or the engine's)"
# the current release: nothing escapes
expect_exit 0 "fuzz simpleeval (current release), bounded" -- "$GC" fuzz "$SRC/targets/simpleeval" \
  --venv "$BIN/venvs/simpleeval" --runs 2000 --seed 1 --out "$WORK/out-current"
expect_grep "^0 escape input\(s\), 0 distinct escape\(s\) on simpleeval$" "current release: 0 escapes"
expect_grep "execs 2000 " "current release: every run"

# 5. gate: its fuzzing half is the source campaign (fuzz_source), no saved case, the
# advisory's program as the campaign's one seed: the gate fails on what fuzzing found
mkdir -p "$WORK/gate-esc" && cp -R "$WORK/seeds" "$WORK/corpus-gate"
expect_exit 1 "gate simpleeval-1.0.4, fuzzing" -- "$GC" gate "$H" "${HV[@]}" --escapes "$WORK/gate-esc" \
  --runs 200 --seed 1 --no-sweep-seed --corpus "$WORK/corpus-gate" --out "$WORK/gate-out" --report "$WORK/gate-rep"
expect_grep "FAIL .*1 escape\(s\) found by fuzzing" "gate: the fuzzing half's escape"
finish
