#!/usr/bin/env bash
# Prints the Markdown table of the saved cases of station-1.5.0 and whether the advisory's
# proposed fix blocks each one (README "Saved escapes").  Usage: ci/escape-table.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
GC=${1:-build}/gatecrash
echo "| case | chain | signature | blocked by the advisory's fix? |"
echo "|---|---|---|---|"
for c in escapes/station-1.5.0/*.chain; do
  chain=$(grep -v '^#' "$c" | paste -sd ';' | sed 's/;/; /g')
  sig=$(sed -n 's/^# signature: //p' "$c")
  if "$GC" replay -q targets/station-advisory-fix "$c" >/dev/null 2>&1; then fix=yes; else fix="**no**"; fi
  echo "| \`$(basename "$c" .chain)\` | \`$chain\` | \`$sig\` | $fix |"
done
