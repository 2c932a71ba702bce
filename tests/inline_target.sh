#!/usr/bin/env bash
# The target inline (--sandbox PATH --requires JSON, the README's own form) with spaces and
# quotes in the JSON and a space in the sandbox's path: libFuzzer's fork and merge modes
# re-run fuzz_gate through a shell command line, so the campaign hands its engines a
# generated target folder instead.  Each bounded run must have RUN (execs counted, the
# corpus merged) and found station-hardened's escape (one hole: few inputs to triage), for fuzz with --jobs 1 and 2, gate,
# AFL++ (when fuzz_gate_afl is built) and ci/nightly.sh.  A campaign folder with a space
# is refused with one line.
source "$(dirname "$0")/lib.sh" "$@"
mkdir -p "$WORK/my gate"
cp "$SRC/targets/station-hardened/module_sandbox.py" "$WORK/my gate/"
ST="$WORK/my gate/module_sandbox.py"
# a glob no write matches, with a quote, a double quote, spaces and a $: still no writes allowed
REQ='{"subprocess": false, "filesystem_writes": ["/nonexistent/it'\''s a $HOME \"dir\"/*"]}'
T=(--sandbox "$ST" --requires "$REQ")
ran() { # ran WHAT: the engine counted inputs, found escapes, and the merge ran
  expect_grep "execs [1-9][0-9]* .*\(done\)" "$1: the fuzzer ran"
  expect_grep "^(spawn|write)[a-z+]* +[0-9]+ +[0-9]+ (yes|no) " "$1: the table lists an escape's hole"
  expect_grep "^[1-9][0-9]* escape input\(s\), [1-9][0-9]* distinct escape\(s\) on module_sandbox" "$1: escapes counted"
  expect_no_grep "did not run|requires is not valid JSON|merge failed" "$1: no engine error"
}
# refused before any engine starts
expect_exit 2 "ci/nightly.sh, --sandbox without --requires" -- bash "$SRC/ci/nightly.sh" --no-build --sandbox "$ST"
expect_exit 2 "ci/release-gate.sh, --sandbox without --requires" -- bash "$SRC/ci/release-gate.sh" --no-build --sandbox "$ST"
expect_exit 2 "a campaign folder with a space" -- "$GC" fuzz "${T[@]}" --runs 10 --out "$WORK/run folder"
expect_grep "^gatecrash: error: path '.*run folder' has a space or shell character" "one line naming the path"

need fuzz_gate || { finish; exit; }
for jobs in 1 2; do
  expect_exit 1 "fuzz, inline target, --jobs $jobs" -- "$GC" fuzz "${T[@]}" --jobs $jobs --runs 3000 --seed 1 --time 300 --out "$WORK/fuzz$jobs"
  ran "fuzz --jobs $jobs"
  expect_grep "^corpus: [1-9][0-9]* input\(s\) after merging" "fuzz --jobs $jobs: the corpus merged"
done
grep -qF "it's a \$HOME \\\"dir\\\"" "$WORK/fuzz2/target/target.json" && ok || fail "the generated target.json lost the requires block"
# its crash inputs replayed in a fresh process: one escape is enough (under load a fork-mode
# job's input cut by its time limit, or one resting on the job's earlier inputs, may not)
crashes=("$WORK"/fuzz2/crashes/crash-*)
[[ -e ${crashes[0]} ]] && expect_exit 1 "a crash input of the inline run replays" -- "$GC" replay -q --raw "${T[@]}" "${crashes[@]}"

mkdir -p "$WORK/no-escapes"
expect_exit 1 "gate, inline target: fuzzing finds escapes" -- "$GC" gate "${T[@]}" --escapes "$WORK/no-escapes" \
  --jobs 2 --runs 3000 --seed 1 --time 300 --report "$WORK/gate-report" --out "$WORK/gate"
ran "gate"
expect_grep "gate module_sandbox: FAIL .* [1-9][0-9]* escape\(s\) found by fuzzing" "gate: the escapes fail it"

if need fuzz_gate_afl afl-fuzz; then
  expect_exit 1 "AFL++, inline target" -- env AFL_BENCH_UNTIL_CRASH=1 "$GC" fuzz "${T[@]}" --engine afl --runs 20000 \
    --seed 1 --time 120 --out "$WORK/afl"
  expect_grep "^(spawn|write)[a-z+]* +[0-9]+ +[0-9]+ (yes|no) " "AFL++: the table lists an escape's hole"
  expect_grep "^corpus: [1-9][0-9]* input\(s\) after merging" "AFL++: the corpus merged"
  expect_no_grep "did not run|merge failed" "AFL++: no engine error"
fi

expect_exit 1 "ci/nightly.sh, inline target" -- env BUILD_DIR="$BIN" bash "$SRC/ci/nightly.sh" --no-build --time 300 --sweep-depth 3 \
  --runs 3000 --seed 1 --jobs 1 "${T[@]}" --escapes "$WORK/esc" --report "$WORK/nightly" --corpus "$WORK/ncorpus"
expect_grep "NEW escape signature" "nightly: new escapes"
[[ -n $(ls "$WORK"/esc/*.chain 2>/dev/null) ]] && ok || fail "nightly saved no case"
grep -qE "^(spawn|write)[a-z+]* +[0-9]+ +[0-9]+ (yes|no) " "$WORK/nightly/campaign/fuzz.txt" && ok || fail "nightly: the campaign's table lists no escape"
finish
