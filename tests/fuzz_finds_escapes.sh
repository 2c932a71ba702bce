#!/usr/bin/env bash
# Bounded, seeded fuzz runs from the seed corpus (copied: the repository's corpus/ is never
# written): the fuzzer finds escapes on station-1.5.0 and on the advisory's fix, and the
# crash it saves replays to the same escape.  fuzz_gate reuses its namespace across inputs
# (nscache.c) while `gatecrash replay` installs afresh in a new process: the same ESCAPE
# line from both is the proof that cases found with reuse reproduce in a fresh process.
source "$(dirname "$0")/lib.sh" "$@"
need fuzz_gate || { finish; exit; }
for target in station-1.5.0 station-advisory-fix; do
  mkdir -p "$WORK/$target/corpus" "$WORK/$target/crashes" "$WORK/$target/scratch"
  find "$SRC/corpus" -maxdepth 1 -type f -exec cp -t "$WORK/$target/corpus/" -- {} +
  (cd "$WORK/$target/scratch" && "$FUZZ" --target="$SRC/targets/$target" -seed=1 -runs=300000 -max_len=512 \
     -dict="$SRC/dict/gatecrash.dict" -artifact_prefix="$WORK/$target/crashes/" "$WORK/$target/corpus") \
     >"$WORK/out" 2>&1
  rc=$?
  [[ $rc -ne 0 ]] && ok || fail "$target: the fuzzer ended without a crash"
  expect_grep "^gatecrash: ESCAPE reach (spawn|write) " "$target: an ESCAPE line"
  expect_grep "^DEDUP_TOKEN: reach:(spawn|write):" "$target: a DEDUP_TOKEN with the signature"
  line=$(grep -m1 '^gatecrash: ESCAPE' "$WORK/out")
  crash=$(ls "$WORK/$target/crashes"/crash-* 2>/dev/null | head -1)
  if [[ -n $crash ]]; then
    expect_exit 1 "$target: the crash input replays" -- "$GC" replay -q --raw "$SRC/targets/$target" "$crash"
    expect_fgrep "${line#gatecrash: }" "$target: replay gives the same escape"
  else
    fail "$target: no crash file saved"
  fi
done
finish
