#!/usr/bin/env bash
# The layers (README "Layout"): base (harness/base/) <- harness (harness/) <- triage (triage/)
# <- cli (cli/).  The build refuses an include of a header from a layer above (each library's
# include path holds only its own folder and what it links); this test checks what the build
# cannot: no module (a .c and its .h, one node) reaches itself through its includes — tsort
# finds the loop — and no include names a layer above by a relative path.
source "$(dirname "$0")/lib.sh" "$@"
layer_of() { case $1 in harness/base/*) echo 0 ;; harness/*) echo 1 ;; triage/*) echo 2 ;; cli/*) echo 3 ;; esac; }
: >"$WORK/edges"
cd "$SRC" || exit 2
for f in harness/*.[ch] harness/base/*.[ch] triage/*.[ch] cli/*.c; do
  mine=$(basename "$f"); mine=${mine%.[ch]}
  while read -r inc; do
    dep=$(basename "$inc" .h)
    [[ $dep != "$mine" ]] && echo "$mine $dep" >>"$WORK/edges"
    if [[ $inc == */* ]]; then
      to=$(layer_of "$(realpath -m --relative-to=. "$(dirname "$f")/$inc")")
      [[ -n $to && $to -gt $(layer_of "$f") ]] && fail "$f includes $inc, a layer above it"
    fi
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
if tsort "$WORK/edges" >/dev/null 2>"$WORK/out"; then ok; else fail "the include graph has a loop"; sed 's/^/    /' "$WORK/out" | head -12 >&2; fi
[[ -s $WORK/edges ]] && ok || fail "no include edges read"
finish
