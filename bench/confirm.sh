#!/usr/bin/env bash
# The differential both ways (docs/TRIAGE.md "Confirmation in a plain interpreter"): for each
# TARGET_DIR:CASE_DIR pair, every case is replayed by the harness (`gatecrash replay`, which
# runs each escape again in a fresh plain interpreter; its text lines name each file in both
# modes, where a source target's --json has no file names) and counted:
#   confirmed    the harness says escape and the plain interpreter reproduces it
#   unconfirmed  the harness says escape and the plain interpreter does not (or could not run)
#   agree-block  the harness says blocked and the plain interpreter's reproducer
#                (escapes/reproduce.py CASE GATE, PYTHONHASHSEED=1) exits 0 too
#   MISS         the harness says blocked and the plain interpreter escapes (exit 1)
# A miss needs the case's '#' header (what to look for), so the blocked direction is checked
# for saved cases only; a folder of raw crash inputs (RAW=1: replay --raw) is counted in the
# escape direction only.  Chain targets (the gate module is the reproducer's second argument).
# Usage: bench/confirm.sh [BUILD_DIR=build] [TARGET_DIR:CASE_DIR ...]
# Default pairs: every escapes/X on targets/X, and escapes/station-1.5.0 on
# targets/station-advisory-fix (the fix's blocked cases are the ones a miss would show in).
# Writes one line per case and the totals to stdout; exit 1 on any MISS or unconfirmed escape.
# SWEEP=SECONDS: instead, `sweep --confirm --time SECONDS` of every bundled target and
# fixture (targets/*, tests/fixtures/source/*, tests/fixtures/unportable; a source target
# with its venv from BUILD_DIR/venvs), one line each with its holes confirmed or not.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$(realpath "${1:-build}"); shift || true
py=$(sed -n 's/^GATECRASH_PYTHON:[A-Z]*=//p' "$build/CMakeCache.txt")
pairs=("$@")
if ((${#pairs[@]} == 0)); then
  for d in escapes/*/; do d=${d%/}; [[ -d targets/${d#escapes/} ]] && pairs+=("targets/${d#escapes/}:$d"); done
  pairs+=("targets/station-advisory-fix:escapes/station-1.5.0")
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [[ -n ${SWEEP:-} ]]; then
  all=0 all_c=0
  for t in targets/* tests/fixtures/source/* tests/fixtures/unportable; do
    [[ -f $t/target.json ]] || continue
    n=$(basename "$t"); v=(); [[ -d $build/venvs/$n ]] && v=(--venv "$build/venvs/$n")
    timeout 300 nice "$build/gatecrash" sweep "$t" "${v[@]}" -q --time "$SWEEP" --confirm >"$tmp/sweep" 2>&1
    h=$(grep -cE '^  .* (confirmed in a plain|NOT confirmed|unconfirmed:)' "$tmp/sweep")
    c=$(grep -c 'confirmed in a plain' "$tmp/sweep")
    printf '%-45s holes %3d, confirmed %3d (held %d, returned %d, exception-only %d)\n' "$t" "$h" "$c" \
      "$(grep -c '(held by' "$tmp/sweep")" "$(grep -c '(handed back' "$tmp/sweep")" "$(grep -c '(only inside' "$tmp/sweep")"
    grep -E '^  .* (NOT confirmed|unconfirmed:)' "$tmp/sweep" | sed "s|^|    $t:|"
    all=$((all + h)) all_c=$((all_c + c))
  done
  printf 'total: %d holes, %d confirmed in a plain interpreter\n' $all $all_c
  ((all == all_c))
  exit
fi
total_c=0 total_u=0 total_b=0 total_m=0 total_i=0
for pair in "${pairs[@]}"; do
  target=$(realpath "${pair%%:*}"); cases=$(realpath "${pair#*:}")
  gate=$target/$(jq -r .sandbox "$target/target.json")
  # the files by name: a folder given to a source target is read for *.py only
  files=()
  for f in "$cases"/*.chain "$cases"/*.py "$cases"/crash-*; do [[ -e $f ]] && files+=("$f"); done
  ((${#files[@]})) || continue
  nice "$build/gatecrash" replay -q ${RAW:+--raw} "$target" "${files[@]}" >"$tmp/out" 2>"$tmp/err"
  c=0 u=0 b=0 m=0 i=0
  for f in "${files[@]}"; do
    if grep -qF "$f: gatecrash: ESCAPE" "$tmp/out"; then
      if grep -qF "$f: confirmed in a plain interpreter" "$tmp/out"; then c=$((c + 1)); else
        u=$((u + 1)); echo "unconfirmed  ${pair}: $(basename "$f"): $(grep -F "$f: " "$tmp/out" | sed -n 2p | sed "s|^$f: ||")"
      fi
    elif grep -qE "^$f: (blocked|inconclusive)" "$tmp/out"; then
      if [[ -n ${RAW:-} ]]; then i=$((i + 1)); continue; fi
      timeout -s KILL 60 env -u PYTHONUNBUFFERED -u PYTHONIOENCODING PYTHONHASHSEED=1 "$py" -s "$root/escapes/reproduce.py" "$f" "$gate" >"$tmp/plain" 2>&1
      rc=$?
      if ((rc == 1)); then m=$((m + 1)); echo "MISS         ${pair}: $(basename "$f"): $(tail -1 "$tmp/plain")"
      elif ((rc == 0)); then b=$((b + 1))
      else i=$((i + 1)); echo "not run      ${pair}: $(basename "$f"): exit $rc: $(tail -1 "$tmp/plain")"; fi
    else
      i=$((i + 1)); echo "unreadable   ${pair}: $(basename "$f")"
    fi
  done
  printf '%-75s confirmed %d, unconfirmed %d, both blocked %d, misses %d, other %d\n' "$pair" $c $u $b $m $i
  total_c=$((total_c + c)) total_u=$((total_u + u)) total_b=$((total_b + b)) total_m=$((total_m + m)) total_i=$((total_i + i))
done
esc=$((total_c + total_u))
printf 'total: %d escapes, %d confirmed (%s%%), %d unconfirmed; %d blocked by both, %d misses; %d other\n' \
  $esc $total_c "$( ((esc)) && echo $((100 * total_c / esc)) || echo -)" $total_u $total_b $total_m $total_i
((total_m == 0 && total_u == 0))
