#!/usr/bin/env bash
# The replay build of each fuzz target (<target>-test, fuzz/fuzz_runner.c), run over the
# seed corpus, the advisory fixtures and the saved escapes.  Usage: SRC BIN fuzz_gate|fuzz_decoder|fuzz_program
#   every run: one "gatecrash: input PATH: VERDICT" line per input file given (none skipped,
#     none twice), the summary line, and no harness error;
#   fuzz_gate: corpus/ on station-1.5.0 has no escape (exit 0); the advisory chains escape on
#     station-1.5.0 (4 findings, exit 1) and not on station-advisory-fix (exit 0); every saved
#     case escapes/T/*.chain is a finding again on targets/T, and the DEDUP_TOKEN printed for it
#     is the case's "# signature:" line (the replay's 2 s time limit: a case's first step may
#     import);
#   fuzz_decoder, fuzz_program: every one of those files decodes and round-trips: no finding, exit 0.
# Inputs are copies in $WORK (fuzz_gate, as under libFuzzer, may write in the first folder it is
# given: its corpus).
source "$(dirname "$0")/lib.sh" "$@"
name=$3
RUN=$BIN/$name-test
mkdir -p "$WORK/scratch" "$WORK/in/corpus" "$WORK/in/advisory"
find "$SRC/corpus" -maxdepth 1 -type f -exec cp -t "$WORK/in/corpus/" -- {} +
cp "$SRC"/tests/fixtures/advisory/*.chain "$WORK/in/advisory/"
for d in "$SRC"/escapes/*/; do
  mkdir -p "$WORK/in/escapes/$(basename "$d")"
  cp "$d"*.chain "$WORK/in/escapes/$(basename "$d")/"
done
cd "$WORK/scratch" || exit 1 # the scratch folder of every run

# run CODE WHAT [OPTIONS] FILE|DIR...: the runner, then the checks every
# run must pass (one line per input file, the summary, no error)
run() {
  local code=$1 what=$2; shift 2
  local n=0 a
  for a in "$@"; do
    if [[ -d $a ]]; then n=$((n + $(find "$a" -maxdepth 1 -type f | wc -l))); elif [[ $a != -* ]]; then n=$((n + 1)); fi
  done
  expect_exit "$code" "$what" -- "$RUN" "$@"
  expect_count "$n" "^gatecrash: input .*: (ok|rejected|finding)$" "$what: one line per input"
  local uniq
  uniq=$(sed -n 's/^gatecrash: input \(.*\): [a-z]*$/\1/p' "$WORK/out" | sort -u | wc -l)
  [[ $uniq -eq $n ]] && ok || fail "$what: $uniq distinct inputs reported, $n given"
  expect_grep "^gatecrash: $n inputs: " "$what: the summary"
  expect_no_grep "^gatecrash: error:" "$what: no harness error"
}

# every finding's DEDUP_TOKEN is the signature its case file was saved with
same_signatures() {
  local bad
  bad=$(awk '/^DEDUP_TOKEN: /{tok=$2} /^gatecrash: input .*: finding$/{
           path=$3; sub(/:$/, "", path); sig=""
           while ((getline l < path) > 0) if (l ~ /^# signature: /) { sig=substr(l, 14); break }
           close(path); if (sig == "" || sig != tok) print path " [" tok "] saved as [" sig "]"; tok="" }' "$WORK/out")
  [[ -z $bad ]] && ok || fail "$1: $bad"
}

if [[ $name == fuzz_gate ]]; then
  ST=--target=$SRC/targets/station-1.5.0
  run 0 "corpus/ on station-1.5.0" "$ST" --quiet "$WORK/in/corpus"
  expect_count 0 ": finding$" "no seed is an escape"
  run 1 "advisory chains on station-1.5.0" "$ST" --quiet "$WORK/in/advisory"
  expect_count 4 ": finding$" "the four advisory chains escape"
  expect_count 4 "^DEDUP_TOKEN: reach:" "their dedup tokens"
  run 0 "advisory chains on station-advisory-fix" --target="$SRC/targets/station-advisory-fix" --quiet "$WORK/in/advisory"
  for d in "$WORK"/in/escapes/*/; do
    t=$(basename "$d")
    n=$(ls "$d" | wc -l)
    nb=$(blocked_here | grep -c "^escapes/$t/") # blocked on this CPython (fixtures/version-specific.txt)
    run 1 "escapes/$t" --target="$SRC/targets/$t" --quiet --input-timeout=2 "$d"
    expect_count "$((n - nb))" ": finding$" "escapes/$t: every saved case is an escape again (but $nb blocked on $PYVER)"
    same_signatures "escapes/$t"
  done
  # -runs=N (libFuzzer's flag for files given): each file read once and run N times, one line
  run 1 "advisory chains, 3 runs each" "$ST" --quiet -runs=3 "$WORK/in/advisory"
  expect_count 4 ": finding$" "-runs=3: the four advisory chains escape, a line each"
  expect_count 12 "^DEDUP_TOKEN: reach:" "-runs=3: each ran three times"
else
  run 0 "$name over corpus, fixtures and escapes" "$WORK/in/corpus" "$WORK/in/advisory" "$WORK"/in/escapes/*/
  expect_count 0 ": finding$" "every input decodes and round-trips"
fi
# a file that cannot be read: one error line, exit 2
run_missing() { expect_exit 2 "an unreadable input" -- "$RUN" "$@" "$WORK/no-such-file"; }
if [[ $name == fuzz_gate ]]; then run_missing "$ST" --quiet; else run_missing; fi
expect_grep "^gatecrash: error: cannot read $WORK/no-such-file: " "the unreadable input's error line"
expect_exit 2 "no input" -- "$RUN"
expect_grep "^gatecrash: error: no input given" "the usage line"
expect_exit 2 "-runs=0" -- "$RUN" -runs=0 "$WORK/in/advisory"
expect_grep "^gatecrash: error: -runs= takes a number of 1 or more" "-runs=0: its error line"
finish
