#!/usr/bin/env bash
# fuzz_source (harness/fuzz_source.c) on the bundled source targets' current releases, from
# a small seed corpus of programs (program.h's bytes, written below), bounded: it runs, the
# seeds and what the program mutator makes of them are all blocked or refused (no escape
# reported), its dictionary holds the package's blocklists, and on the planted leak fixture
# a seed that calls the leaked os.system is a finding.
source "$(dirname "$0")/lib.sh" "$@"
S=$WORK/seeds && mkdir -p "$S" "$WORK/corpus"
# opcodes: NAME 0 STR 1 INT 2 LIST 6 TUPLE 7 ATTR 8 CALL 10 FMT 11 COMP 12 ASSIGN 14 RETURN 15
#          TRY 16 EXCEPT 17 DEF 18 END 19; a string operand is its length byte, then its bytes
printf '\x01\x03abc\x08\x05upper\x0a\x00\x0e\x06result' >"$S/str_method"            # result = 'abc'.upper()
printf '\x00\x01x\x00\x05range\x02\x03\x0a\x01\x0c\x01x\x0e\x06result' >"$S/comprehension"
printf '\x10\x07\x00\x08\x09__class__\x0e\x01e\x11\x03err\x00\x03err\x0e\x06result' >"$S/try_walk"
printf '\x02\x01\x0b\x09__class__\x0e\x06result' >"$S/format_walk"             # '{0.__class__}'.format(1)
printf '\x12\x01f\x02\x01\x0f\x13\x00\x01f\x0a\x00\x0e\x06result' >"$S/def"       # def f(): return 1
for name in restrictedpython simpleeval; do
  rm -rf "$WORK/corpus" && mkdir -p "$WORK/corpus"
  expect_exit 0 "$name: bounded fuzzing" -- "$BIN/fuzz_source" --target="$SRC/targets/$name" \
    --venv="$BIN/venvs/$name" -runs=1500 -seed=1 -error_exitcode=77 "$WORK/corpus" "$S"
  expect_no_grep "ESCAPE" "$name: no escape on the current release"
  expect_grep "^gatecrash: fuzz_source on $name: [0-9]+ programs, 0 escapes" "$name: the summary"
  expect_grep "Done 1500 runs" "$name: libFuzzer ran every input"
  # the program mutator's outputs all have a statement (the engine's byte edits: about half)
  expect_grep "^gatecrash: fuzz_source on $name: (1[0-9]{3}) programs" "$name: the program mutator's inputs run"
  expect_exit 0 "$name: replay build over the seeds" -- "$BIN/fuzz_source-test" --target="$SRC/targets/$name" \
    --venv="$BIN/venvs/$name" "$S"
  expect_count 5 "^gatecrash: input .*: ok$" "$name: every seed runs"
done
# the mutator's dictionary: the sandbox package's own blocklists (RestrictedPython's
# INSPECT_ATTRIBUTES, simpleeval's DISALLOW_METHODS), harvested at start
expect_exit 0 "restrictedpython: dictionary" -- "$BIN/fuzz_source" --target="$SRC/targets/restrictedpython" \
  --venv="$BIN/venvs/restrictedpython" --print-dict -runs=0 "$S"
expect_grep "^gatecrash: dictionary: gi_frame$" "restrictedpython: a blocklisted name harvested"
expect_exit 0 "simpleeval: dictionary" -- "$BIN/fuzz_source" --target="$SRC/targets/simpleeval" \
  --venv="$BIN/venvs/simpleeval" --print-dict -runs=0 "$S"
expect_grep "^gatecrash: dictionary: format_map$" "simpleeval: a blocklisted name harvested"
printf '\x00\x03run\x01\x04true\x0a\x01\x0e\x06result' >"$WORK/leak_seed"          # result = run('true')
expect_exit 1 "leak fixture: the replay build finds the call" -- "$BIN/fuzz_source-test" \
  --target="$SRC/tests/fixtures/source/leak" "$WORK/leak_seed"
expect_grep "^gatecrash: ESCAPE reach spawn os.system \(called inside the evaluation" "leak fixture: the escape"
expect_fgrep "result = run('true')" "leak fixture: the program printed"
expect_grep "^DEDUP_TOKEN: source:reach:os.system" "leak fixture: dedup token"
finish
