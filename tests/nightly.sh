#!/usr/bin/env bash
# ci/nightly.sh on audit-gate, bounded (--runs, fixed seed, one job; --time is only a cap):
# with a clean escapes folder it exits 1 and writes report.md/.json/.sarif/.html, campaign.png
# and the merged corpus; the same night again with the escapes it saved in place finds only
# known escapes and exits 0.  audit-gate, not station-1.5.0: its sweep alone has escapes
# (68 inputs to triage, against station's 829, whose triage and replays took 470 s of this
# test in the sanitizer build); the pipeline is the same for any target.  The repository's
# corpus/ and escapes/ are never written (everything goes to a temporary folder).
source "$(dirname "$0")/lib.sh" "$@"
snap() { (cd "$SRC" && find corpus escapes -type f -printf '%p %s %T@\n' | sort | md5sum); }
before=$(snap)
# the command line: bad arguments, one line and exit 2, before anything runs
expect_exit 2 "--time 0 without --crashes" -- bash "$SRC/ci/nightly.sh" --no-build --time 0 "$SRC/targets/audit-gate"
expect_exit 2 "bad engine" -- env ENGINE=honggfuzz bash "$SRC/ci/nightly.sh" --no-build "$SRC/targets/audit-gate"
expect_grep "^nightly: error: ENGINE must be" "one-line error"
expect_exit 2 "no target" -- bash "$SRC/ci/nightly.sh" --no-build
expect_exit 2 "a sweep depth that is no number" -- bash "$SRC/ci/nightly.sh" --no-build --sweep-depth x "$SRC/targets/audit-gate"
expect_grep "^nightly: error: not a number: x" "one line naming it"
need fuzz_gate || { finish; exit; }
nightly() { # nightly REPORT CORPUS
  env BUILD_DIR="$BIN" bash "$SRC/ci/nightly.sh" --no-build --time 120 --runs 10000 --seed 1 --jobs 1 \
    --engine libfuzzer --escapes "$WORK/esc" --report "$WORK/$1" --corpus "$WORK/$2" "$SRC/targets/audit-gate"
}
expect_exit 1 "first night, clean escapes folder: new escapes" -- nightly report1 corpus1
expect_grep "NEW escape signature" "first night says what is new"
expect_grep '^\[sweep\] [1-9][0-9]* escape\(s\) found by the sweep' "first night: the campaign starts with the sweep"
grep -q ' crash-sweep-[0-9]*: reach:' "$WORK/report1/triage.log" && ok || fail "first night: the sweep's escapes not triaged"
for f in report.md report.json report.sarif report.html campaign.png triage.log new-escapes.txt; do
  [[ -s $WORK/report1/$f ]] && ok || fail "first night did not write $f"
done
[[ $(head -c 8 "$WORK/report1/campaign.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] && ok || fail "campaign.png is not a PNG"
n_new=$(wc -l <"$WORK/report1/new-escapes.txt")
n_cases=$(ls "$WORK/esc"/*.chain 2>/dev/null | wc -l)
[[ $n_new -gt 0 && $n_new -eq $n_cases ]] && ok || fail "$n_new new signature(s) listed, $n_cases case(s) saved"
grep -q '^## Nightly campaign' "$WORK/report1/report.md" && ok || fail "report.md lacks the nightly section"
"$PY" -I "$SRC/tests/check_sarif.py" "$WORK/report1/report.sarif" >"$WORK/out" 2>&1 && ok ||
  { fail "report.sarif does not check"; cat "$WORK/out" >&2; }
[[ $(ls "$WORK/corpus1" | wc -l) -gt $(find "$SRC/corpus" -maxdepth 1 -type f | wc -l) ]] && ok || fail "the merged corpus is not bigger than the seeds"

grep -q '<svg id="progress"' "$WORK/report1/report.html" && ok || fail "report.html lacks the campaign's chart"
grep -q 'No previous report' "$WORK/report1/report.html" && ok || fail "report.html of a first night compares with something"

# again, the same night (same seeds, seed and budget: a bounded one-job campaign is
# deterministic) with the saved escapes in place: everything it finds is known, exit 0;
# its report folder holds the first night's report.json, so report.html shows no change
mkdir -p "$WORK/report2" && cp "$WORK/report1/report.json" "$WORK/report2/"
expect_exit 0 "second night, escapes in place: nothing new" -- nightly report2 corpus2
expect_grep "nothing new" "second night says nothing new"
grep -qE "0 new, [1-9][0-9]* known" "$WORK/report2/triage.log" && ok || fail "second night: the escapes are not all known"
[[ -f $WORK/report2/report.md && ! -s $WORK/report2/new-escapes.txt ]] && ok || fail "second night: report or new list"
[[ $(ls "$WORK/esc"/*.chain | wc -l) -eq $n_cases ]] && ok || fail "second night saved more cases"
[[ -s $WORK/report2/previous-report.json ]] && ok || fail "second night did not keep the previous report.json"
grep -qE '<p id="changes">0 new, 0 fixed, [1-9][0-9]* still open' "$WORK/report2/report.html" && ok ||
  fail "second night's report.html: not every hole still open ($(grep -o '<p id="changes">[^<]*' "$WORK/report2/report.html"))"

# triage only: crash inputs from elsewhere (ClusterFuzz testcases), nothing fuzzed
crashes=$WORK/report1/campaign/run/crashes
[[ -n $(ls -A "$crashes") ]] && ok || fail "first night kept no crash inputs"
expect_exit 0 "--time 0 --crashes: triage and report only" -- env BUILD_DIR="$BIN" bash "$SRC/ci/nightly.sh" \
  --no-build --time 0 --crashes "$crashes" --escapes "$WORK/esc" --report "$WORK/report3" "$SRC/targets/audit-gate"
[[ $(snap) == "$before" ]] && ok || fail "the repository's corpus/ or escapes/ changed"
finish
