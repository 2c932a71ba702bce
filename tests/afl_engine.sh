#!/usr/bin/env bash
# The AFL++ engine: `gatecrash fuzz --engine afl` (afl-fuzz driving fuzz_gate_afl: persistent
# mode, deferred fork server, Python-side features in AFL++'s map) finds escapes on
# station-1.5.0 in a bounded run (-V 120 at most; AFL_BENCH_UNTIL_CRASH ends it at the first
# crash).  Its crash inputs mean the same to both engines' binaries (same DEDUP_TOKEN), and
# triage of AFL++'s crashes and of the same bytes saved as libFuzzer crashes gives the same
# cases, byte for byte.  Before them, --jobs 2 with libFuzzer: fork mode, and the corpus
# folder is merged and pruned at the end (-merge=1).  Skipped without the binaries (tests/lib.sh, need).
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/targets/station-1.5.0
AFL=$BIN/fuzz_gate_afl
need fuzz_gate || { finish; exit; }
# libFuzzer with --jobs 2 (fork mode): the corpus folder given is merged and pruned into
mkdir -p "$WORK/corpus"
find "$SRC/corpus" -maxdepth 1 -type f -exec cp -t "$WORK/corpus/" -- {} +
expect_exit 1 "libFuzzer --jobs 2" -- "$GC" fuzz "$T" --jobs 2 --time 10 --seed 1 --corpus "$WORK/corpus" --out "$WORK/lf-run"
expect_grep "with 2 job\(s\) of libFuzzer" "fork mode with 2 jobs"
expect_grep "^corpus: [0-9]+ input\(s\) after merging into $WORK/corpus" "the corpus folder was merged"
n=$(sed -n 's/^corpus: \([0-9]*\) input.*/\1/p' "$WORK/out")
have=$(ls "$WORK/corpus" | wc -l)
[[ -n $n && $n -gt 0 && $have -eq $n ]] && ok || fail "corpus folder holds $have inputs, the merge reported [$n]"

# AFL++ (fuzz_gate_afl is built where afl-clang-fast is; afl-fuzz runs it)
need fuzz_gate_afl afl-fuzz || { finish; exit; }

export AFL_BENCH_UNTIL_CRASH=1
# --no-sweep-seed: the engine on its own, as the comparison below needs: it replays the raw
# bytes in both binaries, and with the sweep's frontier as seeds AFL++'s first crash under the
# sanitizers was one whose raw bytes neither replays alone (see the hybrid below)
expect_exit 1 "AFL++ finds an escape within 120 s" -- \
  "$GC" fuzz "$T" --engine afl --no-sweep-seed --time 120 --seed 1 --out "$WORK/afl"
expect_grep "^(spawn|write)[a-z+]* +[0-9]+ +[0-9]+ (yes|no) " "the table lists the escape's hole"
grep -q "Loading custom mutator library from '.*libgatecrash_afl_mutator.so'" "$WORK"/afl/afl-main.log && ok ||
  fail "afl-fuzz did not load the chain-aware mutator"
unset AFL_BENCH_UNTIL_CRASH
crashes=$(ls "$WORK"/afl/afl/*/crashes/id:* 2>/dev/null)
[[ -n $crashes ]] && ok || fail "no crash input saved by afl-fuzz"

# the same input, both engines' binaries: the same signature
mkdir -p "$WORK/lf" "$WORK/scratch"
for c in $crashes; do
  { (cd "$WORK/scratch" && "$AFL" --target="$T" "$c") >"$WORK/a.txt" 2>&1; } 2>/dev/null
  { (cd "$WORK/scratch" && "$FUZZ" --target="$T" "$c") >"$WORK/l.txt" 2>&1; } 2>/dev/null
  a=$(grep -m1 '^DEDUP_TOKEN:' "$WORK/a.txt"); l=$(grep -m1 '^DEDUP_TOKEN:' "$WORK/l.txt")
  if [[ -n $a && $a == "$l" ]]; then ok; else fail "$(basename "$c"): AFL++ [$a] vs libFuzzer [$l]"; fi
  cp "$c" "$WORK/lf/crash-$(sha1sum <"$c" | cut -c1-40)"
done

# triage: AFL++'s crash folders and the same bytes as libFuzzer crashes give the same cases
expect_exit 0 "triage of AFL++'s crashes" -- "$GC" triage "$T" --found-by AFL++ --out "$WORK/esc-afl" $crashes
expect_exit 0 "triage of the same inputs as libFuzzer crashes" -- "$GC" triage "$T" --out "$WORK/esc-lf" "$WORK/lf"
(cd "$WORK/esc-afl" && ls *.chain) >"$WORK/a.txt"
(cd "$WORK/esc-lf" && ls *.chain) >"$WORK/l.txt"
if [[ -s $WORK/a.txt ]] && cmp -s "$WORK/a.txt" "$WORK/l.txt"; then ok; else fail "different cases: $(paste -sd' ' "$WORK/a.txt") vs $(paste -sd' ' "$WORK/l.txt")"; fi
for f in $(cat "$WORK/a.txt"); do # the same case; only the provenance line names the engine
  if diff <(grep -v '^# found-by:' "$WORK/esc-afl/$f") <(grep -v '^# found-by:' "$WORK/esc-lf/$f") >/dev/null; then ok
  else fail "$f differs between the engines' triage"; fi
done

# The hybrid under AFL++: the sweep's escapes first, its frontier among afl-fuzz's seeds (queue
# entries orig:sweep-*), the harvested words handed to the mutator in afl-fuzz (OUT/afl-words),
# and every escape afl-fuzz finds replays in a fresh process from the resolved chain its
# fuzzing process recorded (the raw bytes may not: an exploration form such as [#K] over a set
# names another element where addresses differ, as between processes and under ASan).  The
# sweep stops at depth 3: at its default depth 8 its 826 signatures leave afl-fuzz's first new
# one to a stateful find (__import__.__closure__[0].cell_contents().modules['gc'].get_objects()
# [@system], in the heap of its own process), which the campaign names as such, as it should
export AFL_BENCH_UNTIL_CRASH=1
expect_exit 1 "the hybrid under AFL++" -- "$GC" fuzz "$T" --engine afl --time 120 --seed 1 --seed-sweep-depth 3 \
  --out "$WORK/afl-hy"
unset AFL_BENCH_UNTIL_CRASH
expect_grep '^\[sweep\] [1-9][0-9]* escape\(s\) found by the sweep' "hybrid: the sweep's escapes reported first"
expect_grep 'distinct escape\(s\) on station-1.5.0 \(with [1-9][0-9]* found by the sweep' "hybrid: and counted"
expect_no_grep 'did not reproduce' "hybrid: every crash input reproduced in the campaign"
n=$(ls "$WORK/afl-hy/afl/main/queue" | grep -c 'orig:sweep-')
[[ $n -ge 100 ]] && ok || fail "hybrid: $n of afl-fuzz's seeds are the sweep's frontier, want 100 or more"
grep -q '^g _real_os$' "$WORK/afl-hy/afl-words" && ok || fail "hybrid: the gate's own words not in OUT/afl-words"
hy=$(ls "$WORK"/afl-hy/afl/*/crashes/id:* 2>/dev/null)
[[ -n $hy ]] && ok || fail "hybrid: afl-fuzz saved no crash input"
for c in $hy; do
  r=$(dirname "$c")/resolved/$(sha1sum <"$c" | cut -c1-40)
  expect_exit 1 "hybrid: $(basename "$c" | cut -c1-9) replays from its resolved chain" -- "$GC" replay -q "$T" "$r"
done
finish
