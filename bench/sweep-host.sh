#!/usr/bin/env bash
# The source sweep's host-side search against the exhaustive walk (`sweep --exhaustive`), per
# bundled source target and per source fixture the tests sweep, at each depth: programs run
# through the sandbox, programs per hole, seconds, and whether both found the same (signature,
# hole) pairs.  Each sweep once, one at a time, bounded by TIME seconds (an exhaustive sweep cut
# by it is marked "cut": its pairs are compared no further than it went).
# Usage: bench/sweep-host.sh [DEPTHS="2 3 4"] [TIME=600] [BUILD_DIR=build] [TARGET_DIR...]
# GC=PATH: the gatecrash binary to run (default BUILD_DIR/gatecrash).
# Writes bench/results/sweep-host.md (the table) and prints it.
set -uo pipefail
cd "$(dirname "$0")/.."
depths=${1:-"2 3 4"} limit=${2:-600} build=${3:-build}
shift $(($# < 3 ? $# : 3))
dirs=("$@")
if ((${#dirs[@]} == 0)); then
  for f in targets/*/target.json tests/fixtures/source/*/target.json; do
    grep -q '"kind": *"source"' "$f" && dirs+=("$(dirname "$f")")
  done
fi
gc=${GC:-$build/gatecrash}
py=$(sed -n 's/^GATECRASH_PYTHON:FILEPATH=//p' "$build/CMakeCache.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=bench/results/sweep-host.md
{
  echo "| target | depth | programs (exhaustive) | programs (host-side) | ratio | programs/hole before | after | s before | s after | signatures | holes | same |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$work/table"
for d in "${dirs[@]}"; do
  name=$(basename "$d")
  venv=()
  [[ -d $build/venvs/$name ]] && venv=(--venv "$build/venvs/$name")
  [[ $d == targets/* && ${#venv[@]} -eq 0 ]] && continue # not installed
  for depth in $depths; do
    for mode in exh host; do
      extra=()
      [[ $mode == exh ]] && extra=(--exhaustive)
      s=$(date +%s.%N)
      "$gc" sweep "${venv[@]}" "$d" --depth "$depth" --json -q --time "$limit" "${extra[@]}" \
        >"$work/$mode.json" 2>/dev/null
      echo "$(date +%s.%N) - $s" | bc >"$work/$mode.s"
    done
    "$py" - "$work" "$name" "$depth" >>"$work/table" <<'PY'
import json, sys
w, name, depth = sys.argv[1:4]
try:
    x, h = (json.load(open(f"{w}/{m}.json")) for m in ("exh", "host"))
except ValueError:
    print(f"| {name} | {depth} | (no report) |||||||||| |"); sys.exit()
sx, sh = (float(open(f"{w}/{m}.s").read()) for m in ("exh", "host"))
pairs = lambda j: sorted((e["signature"], e["hole"]) for e in j["escapes"])
holes = lambda j: sorted(r["hole"] for r in j["holes"])
cut = x["cut"]["time"] or h["cut"]["time"]
same = "cut" if cut else "yes" if pairs(x) == pairs(h) and holes(x) == holes(h) else "**no**"
per = lambda j: f"{j['edges'] / len(j['holes']):,.0f}" if j["holes"] else "–"
print(f"| {name} | {depth} | {x['edges']:,} | {h['edges']:,} | {x['edges'] / max(h['edges'], 1):.1f} | {per(x)} | {per(h)} "
      f"| {sx:.1f} | {sh:.1f} | {len(h['escapes'])} | {len(h['holes'])} | {same} |")
PY
    tail -1 "$work/table"
  done
done
cp "$work/table" "$out"
