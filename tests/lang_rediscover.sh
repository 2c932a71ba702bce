#!/usr/bin/env bash
# The program language's escape classes rediscovered by fuzzing alone, one fixture sandbox a
# class (tests/fixtures/lang/<class>, each written from the class's public description, no
# payload in it): fuzz_source from the generic seeds corpus-source/, bounded by -runs, fixed
# seeds tried one after another until one's first finding is the class (an engine run ends at
# its first finding, and another class does not count).  The dictionary of each holds the
# adapter's roots only (--print-dict): nothing of the escape is planted.  Each program the
# fuzzer found replays as an escape, and confirms in a plain interpreter (escapes/reproduce.py,
# which searches the program's namespaces as the harness does: nested-import's and
# loaded-import's findings are held there).
#   nested-import   an import nested in 'if True:' or a def, past a top-level-only import check
#   loaded-import   an import of a module already in sys.modules, past a finder asked only for new ones
#   match-class     case C(name=v): an attribute named in MatchClass.kwd_attrs, past an attribute-node check
#   split-constant  a dunder name built from parts at run time, past a check of string constants
#   stored-callable a callable checked at the sandbox's call sites, stored and passed as key=
#                   (sorted, list.sort, map, filter) or used as a decorator: called past the call sites
#   host-dunder     a class's __repr__/__eq__/__del__/... run by the host after evaluate returned
#                   (the oracles stay on for the host's handling of the value: source.c host_handles)
#   node-tamper     a field of the program's own syntax tree written at run time, where the
#                   interpreter hands its nodes out (f.body) and runs them after its check
source "$(dirname "$0")/lib.sh" "$@"
S=$SRC/corpus-source F=$SRC/tests/fixtures/lang
need fuzz_source || { finish; exit; }
# class RUNS PATTERN SEED...: 0 when a seed's first finding on fixture CLASS matches PATTERN
class() {
  local name=$1 runs=$2 pattern=$3 seed rc
  shift 3
  for seed in "$@"; do
    rm -rf "$WORK/corpus" && mkdir -p "$WORK/corpus"
    # (no -timeout: the engines' own default, 10 s (fuzz/driver.c), ends a program whose
    # finalizers make more instances, each swallowing the harness's Timeout as unraisable, past
    # the per-input limit: host-dunder's seed 1 writes one; with libFuzzer's 1200 s this test ran
    # past its ctest timeout.  A seed it ends counts as not finding the class)
    "$BIN/fuzz_source" --target="$F/$name" -seed="$seed" -runs="$runs" -detect_leaks=0 -error_exitcode=77 \
      -artifact_prefix="$WORK/$name-" "$WORK/corpus" "$S" >"$WORK/out" 2>&1
    rc=$?
    echo "$name, seed $seed: exit $rc"
    [[ $rc == 77 ]] && grep -Eq "$pattern" "$WORK/out" && return 0
  done
  return 1
}
# the validator's blind spots, per node kind (node_kinds.h): nested-import refuses an import at
# the top level and runs the same import nested in 'if True:' or a def
expect_exit 0 "check: node kinds" -- "$GC" check "$F/nested-import"
expect_grep "^node Import +refused \(refused by the sandbox: Refused\)$" "check: the top-level import refused"
expect_grep "^node Import in If +runs \(returned int\)$" "check: the nested import runs"
expect_grep "^node ImportFrom in If +runs " "check: the nested from-import runs"
expect_grep "^nodes: 27 kinds run, 3 refused, 0 not in this dialect$" "check: the kinds counted"
# the first stage (fuzz_source.c first_stage: each technique on each root's program, roots()'s
# and the implicit ones in turn) writes every form within its first 600 programs
rm -rf "$WORK/corpus" && mkdir -p "$WORK/corpus"
expect_exit 0 "first stage" -- "$BIN/fuzz_source" --target="$F/split-constant" --print-programs -seed=1 -runs=600 \
  "$WORK/corpus" "$S"
# its summary names the ast node kinds the sandbox never accepted (node_kinds.h): this one refuses every import
expect_grep "^gatecrash: node kinds never accepted \(of [0-9]+ run\): (.*, )?Import, ImportFrom(, |$)" \
  "first stage: imports never accepted, said in the summary"
for form in "^ *import |^ *from [a-z_.]+ import " "^ +(import|from) " "key=" "^ *case object\(" "^class K[0-9]\(\):" \
  "^ +def __[a-z]+__\(self" "getattr\([a-z_0-9]+, " "' \+ '|''[.]join|'%s%s' %" "^@" "\] = " "[.]body\[0\][.]value[.]attr = "; do
  expect_grep "$form" "first stage: a program of the form /$form/"
done
while read -r name runs pattern; do
  [[ -z $name || $name == \#* ]] && continue
  expect_exit 0 "$name: dictionary" -- "$BIN/fuzz_source" --target="$F/$name" --print-dict -runs=0 "$S"
  expect_no_grep "^gatecrash: dictionary: (os|posix|system|posix_spawn|io|FileIO|open|__[a-z]+__|gi_frame)$" \
    "$name: nothing of the escape in the dictionary"
  if class "$name" "$runs" "$pattern" 1 2 3 4 5; then
    ok
    art=$(ls "$WORK/$name-"crash-* 2>/dev/null | head -1)
    expect_exit 0 "$name: the finding replays as an escape (--expect escape)" -- "$GC" replay --raw --expect escape "$F/$name" "$art"
    expect_grep "confirmed in a plain interpreter" "$name: confirmed"
  else
    fail "$name: the class not found with seeds 1-5 in $runs programs each"
    grep -m1 '^gatecrash: ESCAPE' "$WORK/out" >&2
  fi
done <<'TABLE'
# class          runs   the escape line's program is of the class
nested-import    20000  ^gatecrash: ESCAPE .* via .*\\n +(from [a-z_.]+ import|import [a-z_.]+)
loaded-import    20000  ^gatecrash: ESCAPE .* via .*(import |__import__|import_module)
match-class      20000  ^gatecrash: ESCAPE .* via .*case [A-Za-z_.]+\(.*=
split-constant   20000  ^gatecrash: ESCAPE .* via .*(getattr\(|format)
stored-callable  20000  ^gatecrash: ESCAPE .* via .*(key=|map\(|filter\(|reduce\(|\\n *@)[a-z]
host-dunder      20000  ^gatecrash: ESCAPE .* \(called after evaluate returned
node-tamper      20000  ^gatecrash: ESCAPE .* via .*[.]body\[0\][.]value[.]attr = 
TABLE
finish
