#!/usr/bin/env bash
# Prints the Markdown table of the saved cases of station-1.5.0 and whether the advisory's
# proposed fix blocks them (docs/HOLES.md, "Saved escapes"): one row per hole (docs/HOLES.md), sorted
# by capability then hole, or with --by signature one row per case.
# Usage: ci/escape-table.sh [BUILD_DIR] [--by hole|signature]
set -euo pipefail
cd "$(dirname "$0")/.."
GC=${1:-build}/gatecrash
by=hole
[[ ${2:-} == --by ]] && by=${3:-hole}
# field NAME: the string value of "NAME" in the one-line JSON on stdin (cJSON escapes only
# quotes and backslashes in these names and chains)
field() { sed -n "s/.*\"$1\":\"\\(\\([^\"\\\\]\\|\\\\.\\)*\\)\".*/\\1/p" | sed 's/\\"/"/g; s/\\\\/\\/g'; }
rows=()
for c in escapes/station-1.5.0/*.chain; do
  chain=$(grep -v '^#' "$c" | paste -sd ';' | sed 's/;/; /g')
  sig=$(sed -n 's/^# signature: //p' "$c")
  if "$GC" replay -q targets/station-advisory-fix "$c" >/dev/null 2>&1; then fix=yes; else fix="**no**"; fi
  json=$("$GC" replay -q --json targets/station-1.5.0 "$c" 2>/dev/null | grep '^{"kind"' || true)
  hole=$(field hole <<<"$json")
  cap=$(field capability <<<"$json")
  if [[ $by == signature ]]; then
    rows+=("| \`$(basename "$c" .chain)\` | \`$chain\` | \`$sig\` | \`$hole\` | $fix |")
  else
    rows+=("$([[ $cap == spawn ]] && echo 0 || echo 1)	$hole	$cap	$chain	$fix")
  fi
done
if [[ $by == signature ]]; then
  echo "| case | chain | signature | hole | blocked by the advisory's fix? |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  exit 0
fi
echo "| hole | capability | cases | shortest chain | blocked by the advisory's fix? |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}" | awk -F'\t' '
  { if (!($2 in n)) { order[++k] = $2; rank[$2] = $1; chain[$2] = $4 }
    n[$2]++; if ($1 < rank[$2]) rank[$2] = $1
    if (index(caps[$2], $3) == 0) caps[$2] = caps[$2] (caps[$2] == "" ? "" : "+") $3
    if (length($4) < length(chain[$2])) chain[$2] = $4
    if ($5 == "yes") blocked[$2]++ }
  END { for (i = 1; i <= k; i++) { h = order[i]
          b = blocked[h] + 0; v = b == n[h] ? "yes" : b == 0 ? "**no**" : "partly (" b " of " n[h] ")"
          printf "%s\t%s\t| `%s` | %s | %d | `%s` | %s |\n", rank[h], h, h, caps[h], n[h], chain[h], v } }' |
  sort -t$'\t' -k1,1n -k2,2 | cut -f3-
