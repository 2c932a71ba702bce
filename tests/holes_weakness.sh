#!/usr/bin/env bash
# Holes grouped by the weakness behind them (triage/weakness.c, docs/HOLES.md): on a source
# target a row names the technique the escaping programs use and the check it passes, with
# the roots it was seen from and the holes it covers listed under it; `--by root` keeps one
# row per hole; the release gate's report.md has the same rows.  tests/fixtures/source/many-modules hands out re, json, heapq, bisect and
# string to a sandbox that refuses `_` names in code: every module's globals are reached
# through a format field's walk (string.Formatter().get_field), one hole per module.
source "$(dirname "$0")/lib.sh" "$@"
M=$SRC/tests/fixtures/source/many-modules
rows() { grep -cE '^(spawn|write|network|read)[a-z+]* +[0-9]+ +[0-9]+ ' "$WORK/out"; }

# the sweep: by default one row, the format walk, every module among its roots
expect_exit 1 "sweep by weakness (the default)" -- "$GC" sweep --no-confirm "$M" --depth 3 -q
by_weak=$(rows)
expect_grep '^spawn\+write +[0-9]+ +[0-9]+ +no +format walk$' "one row naming the format walk"
expect_grep '^ +passes: the walk is a format field' "the check it passes"
expect_grep '^ +roots: .*\bre\b' "re among its roots"
for m in re json heapq bisect string; do
  expect_grep "^ +roots: (.*, )?$m(, .*)? \([0-9]+\)$" "root $m listed"
  expect_grep "^ +holes: (.*, )?module $m \.<module>(, .*)? \([0-9]+\)$" "hole of $m listed"
done
expect_grep '^1 weakness\(es\), [1-9][0-9]* escape signature' "the summary counts weaknesses"
# --by root: today's rows, one per module's hole
expect_exit 1 "sweep --by root" -- "$GC" sweep --no-confirm "$M" --depth 3 -q --by root
by_root=$(rows)
for m in re json heapq bisect string; do
  expect_grep "^[a-z+]+ +[0-9]+ +[0-9]+ +yes +module $m \.<module>$" "--by root: the row of $m"
done
expect_no_grep '^ +roots: ' "--by root: no roots lines"
[[ $by_weak -eq 1 && $by_root -ge 5 ]] && ok || fail "rows: $by_weak by weakness, $by_root by root (want 1, >= 5)"
# JSON: the row's roots and holes
"$GC" sweep "$M" --depth 3 -q --json >"$WORK/w.json" 2>/dev/null
expect_exit 0 "sweep --json by weakness" -- "$PY" - "$WORK/w.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))["holes"]
assert [r["hole"] for r in h] == ["format walk"], h
roots, holes = h[0]["roots"].split(", "), h[0]["holes"].split(", ")
assert {"re", "json", "heapq", "bisect", "string"} <= set(roots), roots
assert {"module %s .<module>" % m for m in ("re", "json", "heapq", "bisect", "string")} <= set(holes), holes
assert h[0]["passes"].startswith("the walk is a format field"), h[0]
PY

expect_exit 2 "--by takes hole, root or signature" -- "$GC" sweep "$M" --by nothing
# the release gate's report.md groups the same way, its check, roots and holes in the row
expect_exit 1 "gate: the sweep's escapes fail it" -- "$GC" gate "$M" --time 0 --sweep-depth 3 --report "$WORK/rep"
cp "$WORK/rep/report.md" "$WORK/out"
expect_grep '^## Weaknesses \(1\)$' "report.md: one weakness"
expect_grep '^\| `format walk` \| the walk is a format field.* \| (.*, )?json(, .*)? \| `[^`]*module json \.<module>' \
  "report.md: the format walk's row, its roots and holes"
need fuzz_source || { finish; exit; }
# the campaign's table (its sweep's finds, the engine bounded): the same grouping, --by root today's
# (--time 300 with --runs: the opening sweep's budget is a share of --time, and depth 3 must fit
# in it on a loaded sanitizer build; --runs still ends the run)
expect_exit 1 "fuzz: the table by weakness" -- "$GC" fuzz "$M" --runs 20 --time 300 --seed 1 --seed-sweep-depth 3 --no-confirm --out "$WORK/f1"
expect_grep '^1 weakness\(es\) \(docs/HOLES.md\)' "fuzz: one weakness"
expect_grep '^spawn\+write +[0-9]+ +[0-9]+ +no +format walk$' "fuzz: the format walk's row"
expect_grep "^ +roots: (.*, )?json(, .*)? \([0-9]+\)$" "fuzz: its roots"
expect_exit 1 "fuzz --by root" -- "$GC" fuzz "$M" --runs 20 --time 300 --seed 1 --seed-sweep-depth 3 --by root --no-confirm --out "$WORK/f2"
expect_grep "^spawn\+write +[0-9]+ +[0-9]+ +yes +module json \.<module>$" "fuzz --by root: a row per hole"
finish
