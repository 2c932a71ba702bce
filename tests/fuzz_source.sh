#!/usr/bin/env bash
# fuzz_source (fuzz/fuzz_source.c) on the bundled source targets' current releases, from
# the seed corpus corpus-source/ (gen_source_seeds.c), bounded: it runs, the seeds and what
# the program mutator makes of them are all blocked or refused (no escape reported), its
# dictionary holds the package's blocklists and the adapter's roots, and on the planted leak
# fixture a seed that calls the leaked os.system is a finding.  On the historical simpleeval
# 1.0.4, the harvest of what evaluations return and the Python-side feedback rediscover the
# published escape class from the seeds alone (no escape word in any static source).
source "$(dirname "$0")/lib.sh" "$@"
S=$SRC/corpus-source && mkdir -p "$WORK/corpus"
nseeds=$(find "$S" -type f | wc -l)  # the README too: libFuzzer reads every file
# the replay build (every build has it) over the seeds, and on the planted leak fixture
for name in restrictedpython simpleeval; do
  expect_exit 0 "$name: replay build over the seeds" -- "$BIN/fuzz_source-test" --target="$SRC/targets/$name" \
    --venv="$BIN/venvs/$name" "$S"
  expect_count "$nseeds" "^gatecrash: input .*: ok$" "$name: every seed runs"
done
printf '\x00\x03run\x01\x04true\x0a\x01\x0e\x06result' >"$WORK/leak_seed"          # result = run('true')
expect_exit 1 "leak fixture: the replay build finds the call" -- "$BIN/fuzz_source-test" \
  --target="$SRC/tests/fixtures/source/leak" "$WORK/leak_seed"
expect_grep "^gatecrash: ESCAPE reach spawn os.system via .+ \(called inside the evaluation" "leak fixture: the escape"
expect_fgrep "result = run('true')" "leak fixture: the program printed"
expect_grep "^DEDUP_TOKEN: source:reach:os.system" "leak fixture: dedup token"
if grep -qaP 'gi_frame|f_back|f_builtins|system|\x02os' "$S"/*; then fail "a seed holds an escape word"; else ok; fi

# 3.12+: a place of the sandbox's code hit in 1,000 inputs sends no more line events
# (source_feedback.c, "saturated"); 3.11's trace function has none to disable
mkdir -p "$WORK/seeds" && cp "$S"/* "$WORK/seeds/" && rm -f "$WORK/seeds/README"
expect_exit 0 "simpleeval: the eight seeds 130 times over" -- "$BIN/fuzz_source-test" \
  --target="$SRC/targets/simpleeval" --venv="$BIN/venvs/simpleeval" -runs=130 "$WORK/seeds"
if [[ $PYVER != 3.11 ]]; then
  expect_grep "^gatecrash: fuzz_source on simpleeval: 1040 programs, 0 escapes, [0-9]+ imports undone, [1-9][0-9]* sandbox places saturated$" \
    "simpleeval: the evaluator's hot places saturated"
else
  expect_grep "^gatecrash: fuzz_source on simpleeval: 1040 programs, 0 escapes, [0-9]+ imports undone, 0 sandbox places saturated$" \
    "simpleeval: no events to disable on 3.11"
fi

# the engine (libFuzzer), bounded
need fuzz_source || { finish; exit; }
for name in restrictedpython simpleeval; do
  rm -rf "$WORK/corpus" && mkdir -p "$WORK/corpus"
  expect_exit 0 "$name: bounded fuzzing" -- "$BIN/fuzz_source" --target="$SRC/targets/$name" \
    --venv="$BIN/venvs/$name" -runs=1500 -seed=1 -reload=0 -error_exitcode=77 "$WORK/corpus" "$S"
  expect_no_grep "ESCAPE" "$name: no escape on the current release"
  expect_grep "^gatecrash: fuzz_source on $name: [0-9]+ programs, 0 escapes" "$name: the summary"
  expect_grep "Done 1500 runs" "$name: libFuzzer ran every input"
  # the program mutator's outputs all have a statement (the engine's byte edits: about half)
  expect_grep "^gatecrash: fuzz_source on $name: (1[0-9]{3}) programs" "$name: the program mutator's inputs run"
done
# implicit roots: an evaluator whose roots() names only its context, and whose eval adds the
# real builtins; the first edits are one-token programs of the builtins by name and
# __builtins__, so the escape is among the first inputs tried (the seeds, then those)
rm -rf "$WORK/corpus" && mkdir -p "$WORK/corpus"
expect_exit 77 "builtins-eval: an implicit root at once" -- "$BIN/fuzz_source" --print-dict \
  --target="$SRC/tests/fixtures/source/builtins-eval" -runs=1000 -seed=1 -error_exitcode=77 \
  -artifact_prefix="$WORK/" "$WORK/corpus" "$S"
expect_grep "^gatecrash: root \(implicit\): open$" "builtins-eval: open is an implicit root"
expect_grep "^gatecrash: ESCAPE reach write builtins.open via " "builtins-eval: the escape"
expect_grep "^gatecrash: fuzz_source on builtins-eval: [0-9]{1,2} programs, 1 escapes" "builtins-eval: within 99 programs"
# the mutator's dictionary: the sandbox package's own blocklists (RestrictedPython's
# INSPECT_ATTRIBUTES, simpleeval's DISALLOW_METHODS), harvested at start
expect_exit 0 "restrictedpython: dictionary" -- "$BIN/fuzz_source" --target="$SRC/targets/restrictedpython" \
  --venv="$BIN/venvs/restrictedpython" --print-dict -runs=0 "$S"
expect_grep "^gatecrash: dictionary: gi_frame$" "restrictedpython: a blocklisted name harvested"
expect_exit 0 "simpleeval: dictionary" -- "$BIN/fuzz_source" --target="$SRC/targets/simpleeval" \
  --venv="$BIN/venvs/simpleeval" --print-dict -runs=0 "$S"
expect_grep "^gatecrash: dictionary: format_map$" "simpleeval: a blocklisted name harvested"
expect_grep "^gatecrash: root: randint$" "simpleeval: the adapter's roots() are roots"
# nothing of the published escapes is planted: not in the seeds, not in the static dictionary
expect_exit 0 "simpleeval-1.0.4: dictionary" -- "$BIN/fuzz_source" --target="$SRC/targets/simpleeval-1.0.4" \
  --venv="$BIN/venvs/simpleeval-1.0.4" --print-dict -runs=0 "$S"
expect_grep "^gatecrash: root: path$" "simpleeval-1.0.4: the host's module name is a root"
expect_no_grep "^gatecrash: (dictionary|root): (os|system)$" "simpleeval-1.0.4: os, system not planted"
# RestrictedPython 6.0 installs on CPython < 3.12 only (its requirements.txt)
if target_installed restrictedpython-6.0; then
  expect_exit 0 "restrictedpython-6.0: dictionary" -- "$BIN/fuzz_source" --target="$SRC/targets/restrictedpython-6.0" \
    --venv="$BIN/venvs/restrictedpython-6.0" --print-dict -runs=0 "$S"
  expect_no_grep "^gatecrash: (dictionary|root): (gi_frame|f_back|f_builtins)$" "restrictedpython-6.0: frame words not planted"
  # the Python-side features: the seeds alone give ~200 on restrictedpython-6.0 (the sandbox's
  # lines, the kinds of value returned), where libFuzzer's own edges give 16
  rm -rf "$WORK/corpus" && mkdir -p "$WORK/corpus"
  expect_exit 0 "restrictedpython-6.0: the seeds' features" -- "$BIN/fuzz_source" --target="$SRC/targets/restrictedpython-6.0" \
    --venv="$BIN/venvs/restrictedpython-6.0" -runs=0 "$WORK/corpus" "$S"
  expect_grep "INITED cov: [0-9]+ ft: ([2-9][0-9]{2}|[0-9]{4,}) " "restrictedpython-6.0: 200 or more features"
fi
# the sandbox's line features on every version (3.12+: sys.monitoring events set on the
# sandbox's code objects, harness/source/source_feedback.c; 3.11: a trace function): the
# seeds give 261 on restrictedpython on 3.11, 3.12 and 3.13, 18 without the Python-side ones
if target_installed restrictedpython; then
  rm -rf "$WORK/corpus" && mkdir -p "$WORK/corpus"
  expect_exit 0 "restrictedpython: the seeds' features" -- "$BIN/fuzz_source" --target="$SRC/targets/restrictedpython" \
    --venv="$BIN/venvs/restrictedpython" -runs=0 "$WORK/corpus" "$S"
  expect_grep "INITED cov: [0-9]+ ft: ([2-9][0-9]{2}|[0-9]{4,}) " "restrictedpython: 200 or more features"
fi
# rediscover TARGET RUNS PATTERN SEED...: fuzz_source on TARGET from the seeds alone, bounded by
# RUNS, one seed after another until one ends with a finding (exit 77) whose output matches
# PATTERN (an escape of another class does not count); 0 then, 1 when every seed missed.
# The last run's output is $WORK/out.  One process with a fixed seed still does not repeat
# exactly (addresses differ from run to run, and with them the order of sets of objects, and
# so the features; the sanitizer build explores differently again), hence several seeds; a
# build that cannot rediscover the class misses with all of them.  -detect_leaks=0: in the
# sanitizer build libFuzzer's own leak check (an input run again when it mallocs more than it
# frees, as CPython always does) can end the search with exit 77 and no escape.
rediscover() {
  local target=$1 runs=$2 pattern=$3 seed rc
  shift 3
  for seed in "$@"; do
    rm -rf "$WORK/corpus" && mkdir -p "$WORK/corpus"
    "$BIN/fuzz_source" --target="$SRC/targets/$target" --venv="$BIN/venvs/$target" -seed="$seed" -runs="$runs" \
      -detect_leaks=0 -error_exitcode=77 -artifact_prefix="$WORK/" "$WORK/corpus" "$S" >"$WORK/out" 2>&1
    rc=$?
    echo "$target, seed $seed: exit $rc"
    [[ $rc == 77 ]] && grep -Eq "$pattern" "$WORK/out" && return 0
  done
  return 1
}
# the format-string class (GHSA-xjw2-6jm9-rf67) on RestrictedPython 6.1 with utility_builtins,
# in the deterministic first stage: each root's kind is known at start (learn_roots), so a
# technique's first step on 'string' is a word of a module, and each technique once on each
# root reaches Formatter's field walk through an underscore name the dialect forbids in code
# (a function's __globals__, a module's __builtins__ or __dict__: which one a seed finds first
# differs between builds) within ~2,500 programs (seeds 1, 3, 4, 5; none of 2 in 150 s
# without the stage); on the builds of 2026-12-07 the first seed to find it took 3,689 programs
# (main) and 4,542 (with split-string's and node-field's draws of refused names), so 6,000.
if target_installed restrictedpython-6.1-utility; then
  formatter="^gatecrash: ESCAPE reach write builtins[.]open via .*string[.]Formatter[(][)][.](vformat|get_field)[(]'[{]?0[.]__[a-z]+__"
  rediscover restrictedpython-6.1-utility 6000 "$formatter" 1 3 4 5 && ok ||
    fail "restrictedpython-6.1-utility: no Formatter field walk through an underscore name with seeds 1, 3, 4 and 5"
fi
# the AttributeError.obj class (GHSA-5rfv-66g4-jr8h) on RestrictedPython 7.2 with
# utility_builtins, in the first stage: 'string' is a view that refuses Formatter, its
# lookup-readback ('string.gatecrash', AttributeError.obj) was learnt with the roots to be the
# string module, so the path resolver is written on the readback (readback_root in
# program_mutator.c): within ~2,500 programs on one of seeds 1-10 (which seeds differs between
# builds: 1, 3, 4, 5 on the default one; after the first stage learnt the node forms, the
# sanitizer build's seeds 1-7 gave none in 4,000 and seed 8 did); none of 5 in 120 s before.
if target_installed restrictedpython-7.2-utility; then
  readback="^gatecrash: ESCAPE reach write builtins[.]open via try: .*string[.]gatecrash .*held = e[.]obj .*held[.]Formatter[(][)][.](vformat|get_field)[(]'[{]?0[.]__[a-z]+__"
  rediscover restrictedpython-7.2-utility 4000 "$readback" 1 3 4 5 2 6 7 8 9 10 && ok ||
    fail "restrictedpython-7.2-utility: no Formatter on the string module read back from AttributeError.obj with seeds 1-10"
fi
# GHSA-44vg-5wv2-h2hg on simpleeval 1.0.4: 'path' is a root, the harvest of what 'path'
# returned gives os (or genericpath, ...), of what that returned its primitives; 28,318
# programs with -seed=2 (path.os.spawnvp).  None in 150,000 runs with --no-harvest or
# --no-feedback.  Once in a loaded full suite seed 2 missed within the budget, and once on 3.13
# its first escape was another (an engine run ends at its first): the next seed is tried then.
rediscover simpleeval-1.0.4 150000 "^gatecrash: ESCAPE .* via path([.][a-z][a-z0-9_]*)+ \(" 2 3 5 && ok ||
  fail "simpleeval-1.0.4: the advisory's class not rediscovered from the seeds with seeds 2, 3 and 5"
expect_grep "^gatecrash: ESCAPE reach (spawn|write) os[.][a-z_]+ via .+ \(in the value evaluate gave back" "simpleeval-1.0.4: the escape"
expect_grep "^gatecrash: ESCAPE .* via path([.][a-z][a-z0-9_]*)+ \(" "simpleeval-1.0.4: the advisory's class, path.<names>.<primitive>"
finish
