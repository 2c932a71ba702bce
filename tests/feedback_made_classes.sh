#!/usr/bin/env bash
# The classes signal names the classes a fresh process has, not the ones an input makes:
# IntFlag('K10', 'a') .. IntFlag('K29', 'a') make twenty classes named by the input's own
# string, and twenty inputs that differ only in that string must not be twenty features
# (before harness/chain/feedback.c's baseline of classes, each was one, and on constants-only the
# harvested calls grew libFuzzer's corpus without end: 7,749 features from a 120 s run's
# corpus, 1,017 with the baseline).
source "$(dirname "$0")/lib.sh" "$@"
need fuzz_gate || { finish; exit; }
T=$SRC/targets/constants-only
mkdir -p "$WORK/scratch" "$WORK/made"
for i in $(seq 10 29); do
  printf "os.O_RDONLY.__class__.__subclasses__()[@IntFlag]('K%s', 'a')\n" "$i" >"$WORK/made/k$i"
done
corp=$( (cd "$WORK/scratch" && "$FUZZ" --target="$T" -runs=0 "$WORK/made") 2>&1 |
  sed -n 's/.*INITED.* corp: \([0-9]*\).*/\1/p')
echo "20 inputs making classes of different names: ${corp:-?} kept"
[[ -n $corp ]] && ((corp <= 2)) && ok || fail "inputs that differ only in a made class's name: ${corp:-?} kept, want at most 2"
finish
