#!/usr/bin/env bash
# The layers (README "Layout"), lowest first:
#   base <- runtime <- chain, source (siblings) <- campaign <- triage <- fuzz, cli (siblings)
# (harness/base, harness/runtime, harness/chain, harness/source, harness/campaign, triage/,
# fuzz/, cli/).  The build refuses most upward includes (each layer's library has only its
# own folder and those it links on its include path); this test checks the whole rule from
# the sources: every #include "x.h" names exactly one header of the tree, and that header's
# folder is the including file's own or one it may use (a sibling is not one); no module (a
# .c and its .h, one node) reaches itself through its includes (tsort finds the loop); and
# every source file is in one of the folders.  The engine glue (driver.c, fuzz_runner.c,
# engine.c, fuzz_target.h) may use only the target interface, runtime and base.
source "$(dirname "$0")/lib.sh" "$@"
cd "$SRC" || exit 2
folders="harness/base harness/runtime harness/chain harness/source harness/campaign triage fuzz cli"
# uses FOLDER: the folders its files may include from (its own first)
uses() {
  case $1 in
    harness/base) echo "harness/base" ;;
    harness/runtime) echo "harness/runtime harness/base" ;;
    harness/chain) echo "harness/chain harness/runtime harness/base" ;;
    harness/source) echo "harness/source harness/runtime harness/base" ;;
    harness/campaign) echo "harness/campaign harness/chain harness/source harness/runtime harness/base" ;;
    triage) echo "triage harness/campaign harness/chain harness/source harness/runtime harness/base" ;;
    fuzz|cli) echo "$1 triage harness/campaign harness/chain harness/source harness/runtime harness/base" ;;
    glue) echo "fuzz harness/runtime harness/base" ;;
  esac
}
# the engine glue serves every target, of either mode: it knows the target interface only
glue="fuzz/driver.c fuzz/fuzz_runner.c fuzz/engine.c fuzz/fuzz_target.h"
generated="runner_py.h" # written into the build folder (CMakeLists.txt)
: >"$WORK/edges"
checked=0
while read -r f; do
  dir=$(dirname "$f")
  [[ " $folders " == *" $dir "* ]] || { fail "$f is in no layer's folder ($folders)"; continue; }
  layer=$dir
  [[ " $glue " == *" $f "* ]] && layer=glue
  allowed=" $(uses "$layer") "
  mine=$(basename "$f"); mine=${mine%.[ch]}
  while read -r inc; do
    [[ " $generated " == *" $inc "* ]] && continue
    mapfile -t hits < <(for d in $folders; do [[ -f $d/$(basename "$inc") ]] && echo "$d"; done)
    if ((${#hits[@]} != 1)); then
      fail "$f includes \"$inc\": ${#hits[@]} headers of that name in the tree (${hits[*]:-none})"
      continue
    fi
    [[ $allowed == *" ${hits[0]} "* ]] || fail "$f ($layer) includes ${hits[0]}/$(basename "$inc"), a layer it may not use"
    dep=$(basename "$inc" .h)
    [[ $dep != "$mine" ]] && echo "$mine $dep" >>"$WORK/edges"
    checked=$((checked + 1))
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find harness triage fuzz cli -name '*.[ch]' | sort)
((checked > 100)) && ok || fail "only $checked includes read"
if tsort "$WORK/edges" >/dev/null 2>"$WORK/out"; then ok; else fail "the include graph has a loop"; sed 's/^/    /' "$WORK/out" | head -12 >&2; fi
finish
