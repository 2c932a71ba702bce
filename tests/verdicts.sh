#!/usr/bin/env bash
# Three verdicts, never a false all-clear (docs/ORACLES.md, "Three verdicts").  A program the
# harness did not see run as its host runs it is inconclusive, in its own word, in every
# output: the sandbox in tests/fixtures/source/harness-refused adds an audit hook (sys.addaudithook,
# which the harness refuses) for programs with a loop, so its saved case `for ...: result =
# open` is neither an escape nor blocked.  replay --expect blocked, explain and gate exit 5
# on it, and the gate's reports say INCONCLUSIVE; an adapter that calls sys.addaudithook in
# every evaluate (refused on every program) stops gate with exit 3, never a PASS.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/harness-refused
C=$T/cases

expect_exit 5 "replay --expect blocked: inconclusive is no pass" -- "$GC" replay -q --expect blocked "$T" "$C"
expect_grep "loop-open.py: inconclusive \(raised Blocked; refused by the harness: sys.addaudithook\)$" "replay: its own word"
expect_grep "replayed 1: 0 escaped, 0 blocked, 0 unreadable, 1 inconclusive" "replay: the tally"
expect_exit 5 "replay --expect escape: inconclusive is not an escape either" -- "$GC" replay -q --expect escape "$T" "$C"
expect_exit 5 "replay --json" -- "$GC" replay -q --json "$T" "$C"
expect_grep '^\{"escaped":false,"steps":1,"verdict":"inconclusive","cause":"refused by the harness: sys.addaudithook","file":"[^"]*loop-open.py"\}$' \
  "replay --json: the verdict object"
# the same program without the loop runs as the host runs it: an escape
printf 'result = open\n' >"$WORK/open.py"
expect_exit 1 "without the loop it escapes" -- "$GC" replay -q "$T" "$WORK/open.py"
expect_exit 5 "explain" -- "$GC" explain "$T" "$C/loop-open.py"
expect_grep "^verdict: inconclusive — refused by the harness: sys.addaudithook" "explain: its own word"

expect_exit 5 "gate: inconclusive, not PASS" -- "$GC" gate "$T" --escapes "$C" --time 0 --report "$WORK/rep" --out "$WORK/camp"
expect_grep "^inconclusive loop-open.py: refused by the harness: sys.addaudithook$" "gate: the case's line"
expect_grep "^gate harness-refused: INCONCLUSIVE — 0 of 1 saved case\(s\) still escape, .* 1 saved case\(s\) inconclusive" \
  "gate: the verdict line"
expect_no_grep "PASS" "gate: no PASS anywhere"
"$PY" -I - "$WORK/rep" <<'PYEOF' >"$WORK/out" 2>&1 && ok || fail "gate's reports: $(cat "$WORK/out")"
import json, sys
d = sys.argv[1]
j = json.load(open(d + "/report.json"))
assert j["verdict"] == "inconclusive", j["verdict"]
c = j["cases"][0]
assert (c["verdict"], c["blocked"], c["cause"]) == ("inconclusive", False, "refused by the harness: sys.addaudithook"), c
s = json.load(open(d + "/report.sarif"))
inv = s["runs"][0]["invocations"][0]
assert inv["executionSuccessful"] is False, inv
assert "loop-open.py is inconclusive" in inv["toolExecutionNotifications"][0]["message"]["text"], inv
md = open(d + "/report.md").read()
assert "— INCONCLUSIVE" in md and "**inconclusive**: refused by the harness" in md, md
html = open(d + "/report.html").read()
assert 'class="verdict INCONCLUSIVE"' in html and "inconclusive: refused by the harness: sys.addaudithook" in html
PYEOF

# the CI scripts pass it on: the release gate exits 5, and a night that finds nothing new
# exits 5 when a saved case is inconclusive, its report written all the same
mkdir -p "$WORK/esc" "$WORK/crashes"
cp "$C/loop-open.py" "$WORK/esc/"
printf '\x00\x01x\x0d' >"$WORK/crashes/crash-x" # a crash input: the program x, no escape
expect_exit 5 "ci/release-gate.sh" -- env BUILD_DIR="$BIN" TIME=0 ESCAPES="$WORK/esc" REPORT="$WORK/rg" \
  bash "$SRC/ci/release-gate.sh" --no-build "$T"
expect_grep "^gate harness-refused: INCONCLUSIVE" "release gate: INCONCLUSIVE"
expect_exit 5 "ci/nightly.sh" -- env BUILD_DIR="$BIN" bash "$SRC/ci/nightly.sh" --no-build --time 0 \
  --crashes "$WORK/crashes" --escapes "$WORK/esc" --report "$WORK/night" "$T"
expect_grep "^nightly: harness-refused: nothing new, but 1 saved case\(s\) inconclusive" "nightly: says so"
grep -q "INCONCLUSIVE" "$WORK/night/report.md" && ok || fail "nightly: report.md does not say INCONCLUSIVE"

# a campaign counts its engine's inputs by verdict and ends with the share inconclusive and
# its top causes, plainly when it is large: here the alarm is armed for every program longer
# than the probes (so the adapter passes them), which is most of what the fuzzer writes; with
# nothing escaped it is no all-clear: exit 5, and its last line says why (before: exit 0)
mkdir -p "$WORK/long"
cp "$T/target.json" "$WORK/long/"
sed 's/if "while" in source or "for" in source:/if len(source) > 16:/' "$T/adapter.py" >"$WORK/long/adapter.py"
"$GC" fuzz "$WORK/long" --runs 300 --seed 1 --no-sweep-seed --out "$WORK/long-out" >"$WORK/out" 2>&1
rc=$?
((rc == 5)) && ok || fail "a campaign where most inputs are inconclusive: exit $rc, want 5"
expect_grep "^verdicts: [0-9]+ input\(s\) run by the engine, [0-9]+ escape or blocked, [0-9]+ inconclusive \([0-9.]+%\); top causes: refused by the harness: sys.addaudithook [0-9]+$" \
  "fuzz: the share and its top cause"
expect_grep "^verdicts: WARNING: [0-9.]+% of the inputs were inconclusive" "fuzz: said plainly when large"
[[ $(tail -2 "$WORK/out" | head -1) == "verdicts: WARNING: "* ]] && ok || fail "fuzz: the warning is not the line before the last"
[[ $(tail -1 "$WORK/out") == "INCONCLUSIVE: nothing escaped, but over 10% of the engine's inputs were inconclusive: "* ]] && ok ||
  fail "fuzz: the last line is not INCONCLUSIVE"

# an adapter refused by the harness on every program: gate stops before it replays anything
mkdir -p "$WORK/evalhook" "$WORK/evalhook-cases"
cat >"$WORK/evalhook/adapter.py" <<'PYEOF'
import sys
def evaluate(source):
    sys.addaudithook(lambda event, args: None)
    scope = {"__builtins__": {"open": open}}
    exec(compile(source, "<program>", "exec"), scope)
    return scope.get("result")
PYEOF
echo '{"kind": "source", "adapter": "adapter.py", "refusals": [], "requires": {"subprocess": false, "filesystem_writes": []}}' \
  >"$WORK/evalhook/target.json"
printf 'result = open\n' >"$WORK/evalhook-cases/open.py"
expect_exit 5 "evalhook: replay --expect blocked" -- "$GC" replay -q --expect blocked "$WORK/evalhook" "$WORK/evalhook-cases"
expect_grep "open.py: inconclusive \(.*refused by the harness: sys.addaudithook\)" "evalhook: replay's word"
expect_exit 3 "evalhook: gate stops" -- "$GC" gate "$WORK/evalhook" --escapes "$WORK/evalhook-cases" --time 0 \
  --report "$WORK/rep2" --out "$WORK/camp2"
expect_grep "error: .*refused by the harness \(sys.addaudithook\).*\(gatecrash check says more\)$" "evalhook: gate's line"
expect_no_grep "PASS" "evalhook: no PASS"
finish
