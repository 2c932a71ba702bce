#!/usr/bin/env bash
# The release gate and explain: the gate fails on station-1.5.0 (saved cases still escape)
# with a valid SARIF 2.1.0 log, passes under an allow-everything policy; explain walks a
# case step by step.
source "$(dirname "$0")/lib.sh" "$@"
expect_exit 1 "explain a detour" -- "$GC" explain "$SRC/targets/station-1.5.0" "$SRC/tests/fixtures/crashes/station-1.5.0/constructed-detour-12-trailers"
expect_grep "\[gate proxy module subprocess\]" "the proxy is named"
expect_grep "SandboxViolation .*\[exception" "the refusal's exception is the value"
expect_grep "\[frame of _stub " "the gate's frame"
expect_grep "\[the gate module's own namespace" "the gate's globals"
expect_grep "\[REAL module os\]" "the real os"
expect_grep "\[FORBIDDEN primitive os.system" "the forbidden primitive"
expect_grep "^verdict: ESCAPE" "verdict"
printf 'os.path.join\n' >"$WORK/benign.chain"
expect_exit 0 "explain a blocked chain" -- "$GC" explain "$SRC/targets/station-1.5.0" "$WORK/benign.chain"
expect_grep "^verdict: blocked" "blocked verdict"

need fuzz_gate || { finish; exit; } # the gate runs its fuzzing half
expect_exit 1 "gate on station-1.5.0" -- "$GC" gate "$SRC/targets/station-1.5.0" --escapes "$SRC/escapes/station-1.5.0" \
  --time 30 --runs 500 --seed 3 --report "$WORK/rep" --out "$WORK/camp"
expect_grep "^ESCAPES +reach-" "saved cases reported as still escaping"
expect_grep "^gate station-1.5.0: FAIL" "FAIL verdict"
for f in report.md report.json report.sarif; do [[ -s $WORK/rep/$f ]] && ok || fail "missing $f"; done
ncases=$(ls "$SRC"/escapes/station-1.5.0/*.chain | wc -l)
nblocked=$(blocked_here | grep -c '^escapes/station-1.5.0/') # blocked on this CPython (fixtures/version-specific.txt)
nholes=$("$PY" -c "import json,sys; print(len(json.load(open(sys.argv[1]))['holes']))" "$WORK/rep/report.json")
# one SARIF result per hole (docs/HOLES.md), each escape of the report in one of them
expect_exit 0 "SARIF 2.1.0 structure" -- "$PY" "$SRC/tests/check_sarif.py" "$WORK/rep/report.sarif" "$nholes"
expect_exit 0 "JSON report" -- "$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['verdict']=='fail' and len(r['cases'])==$ncases and sum(c['blocked'] for c in r['cases'])==$nblocked; h={x['hole'] for x in r['holes']}; assert 3<=len(h)<len(r['escapes']) and all(e['hole'] in h for e in r['escapes']), h" "$WORK/rep/report.json"
expect_exit 0 "SARIF: one result per hole" -- "$PY" -c "import json,sys; s=json.load(open(sys.argv[1])); r=s['runs'][0]['results']; assert len(r)==$nholes and len({x['partialFingerprints']['gatecrashHole/v1'] for x in r})==len(r)" "$WORK/rep/report.sarif"
grep -q "FAIL" "$WORK/rep/report.md" && ok || fail "Markdown verdict"
grep -q "^## Holes ([0-9]*)" "$WORK/rep/report.md" && ok || fail "Markdown: the holes section"

expect_exit 0 "gate on the allow-everything policy" -- "$GC" gate "$SRC/targets/station-1.5.0-allow-all" \
  --time 30 --runs 1500 --seed 3 --report "$WORK/rep2" --out "$WORK/camp2"
expect_grep "^gate station-1.5.0-allow-all: PASS" "PASS verdict"
expect_exit 0 "SARIF of a clean run" -- "$PY" "$SRC/tests/check_sarif.py" "$WORK/rep2/report.sarif" 0
finish
