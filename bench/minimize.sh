#!/usr/bin/env bash
# Chain-level minimization (gatecrash triage) against libFuzzer's own -minimize_crash, on
# the same crash inputs.  Reports, per input, the escaping chain each leaves (trailers and
# characters) and whether the chain-level result is ever longer.  A benchmark, not a test:
# it prints a Markdown table (and writes it to bench/results/minimize.md).
# Usage: bench/minimize.sh [BUILD_DIR] [TARGET_NAME:CRASH_DIR ...]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
bash ci/install-deps.sh
BUILD_DIR=$build bash ci/build.sh
sets=("$@")
((${#sets[@]})) || sets=(station-1.5.0:tests/fixtures/crashes/station-1.5.0
                         station-advisory-fix:tests/fixtures/crashes/station-advisory-fix)
root=$PWD
GC=$PWD/$build/gatecrash
FUZZ=$PWD/$build/fuzz_gate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p bench/results
out=bench/results/minimize.md
# the escaping part of a decoded input and its trailer count, as gatecrash prints them
escape_of() { # TARGET FILE [--raw] -> "chain<TAB>trailers"
  "$GC" replay -q --json ${3:-} "targets/$1" "$2" 2>/dev/null |
    sed -n 's/.*"input":"\(.*\)","size":\([0-9]*\),.*/\1\t\2/p' | head -1
}
{
  echo "| target | crash input | input bytes | -minimize_crash: bytes | its escaping chain (trailers) | gatecrash triage: chain (trailers) | triage not longer |"
  echo "|---|---|---|---|---|---|---|"
} >"$out"
worse=0 total=0
for set in "${sets[@]}"; do
  t=${set%%:*} dir=${set#*:}
  for crash in "$dir"/*; do
    [[ -f $crash ]] || continue
    total=$((total + 1))
    name=$(basename "$crash")
    mkdir -p "$work/s"
    (cd "$work/s" && "$FUZZ" --target="$root/targets/$t" --quiet --mutator=bytes -minimize_crash=1 -runs=3000 \
        -exact_artifact_path="$work/min-$name" "$root/$crash") >/dev/null 2>&1 || true
    src=$crash
    [[ -f $work/min-$name ]] && src=$work/min-$name
    IFS=$'\t' read -r lf lt < <(escape_of "$t" "$src" --raw)
    rm -rf "$work/esc"
    "$GC" triage "targets/$t" --out "$work/esc" "$crash" >/dev/null 2>&1
    IFS=$'\t' read -r tri tt < <(escape_of "$t" "$work/esc")
    ok=yes
    if ((tt > lt)) || ((tt == lt && ${#tri} > ${#lf})); then ok=NO; worse=$((worse + 1)); fi
    echo "| $t | \`$name\` | $(wc -c <"$crash") | $(wc -c <"$src") | \`$lf\` ($lt) | \`$tri\` ($tt) | $ok |" >>"$out"
  done
done
echo "" >>"$out"
echo "$total inputs; chain-level result longer than -minimize_crash's on $worse." >>"$out"
cat "$out"
