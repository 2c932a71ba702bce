#!/usr/bin/env bash
# Holes (docs/HOLES.md): the sweep and fuzzing name the same holes; one row per hole, each
# with a chain; advise's cut, verified by sweep --close, and no hole of it can be dropped;
# station-hardened leaves only holes a namespace gate cannot close.
source "$(dirname "$0")/lib.sh" "$@"

for t in station-1.5.0 station-advisory-fix; do
  T=$SRC/targets/$t
  # the sweep by hole: a handful of rows, each with a chain, sorted by capability then hole
  "$GC" sweep "$T" --depth 4 -q --json >"$WORK/sw-$t.json" 2>/dev/null
  expect_exit 0 "$t: sweep --json by hole" -- $PY - "$WORK/sw-$t.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
rows = j["holes"]
assert 5 <= len(rows) <= 14, f"{len(rows)} holes"
assert all(r["chain"] and r["primitives"] >= 1 and r["signatures"] >= 1 for r in rows), rows
rank = {"spawn": 0, "write": 1, "network": 2}
keys = [(rank[r["capabilities"].split("+")[0]], r["hole"]) for r in rows]
assert keys == sorted(keys), keys
assert {e["hole"] for e in j["escapes"]} == {r["hole"] for r in rows}
PY
  # the flat list stays: more signatures than holes
  "$GC" sweep --no-confirm "$T" --depth 4 --by signature -q >"$WORK/out" 2>/dev/null
  expect_grep "^[0-9]+ escape signature\(s\)" "$t: sweep --by signature"

  # advise's cut, and its proof
  "$GC" advise "$T" --depth 4 --json >"$WORK/adv-$t.json" 2>/dev/null
  expect_exit 0 "$t: advise verifies" -- $PY -c "import json,sys; a=json.load(open(sys.argv[1])); assert a['verified'] and len(a['cut'])>=5 and all(not r['closable'] for r in a['not_closable']), a" "$WORK/adv-$t.json"
  mapfile -t cut < <($PY -c "import json,sys; [print(r['hole']) for r in json.load(open(sys.argv[1]))['cut']]" "$WORK/adv-$t.json")
  args=()
  for h in "${cut[@]}"; do args+=(--close "$h"); done
  "$GC" sweep "$T" --depth 4 -q --json "${args[@]}" >"$WORK/closed.json" 2>"$WORK/closed.err"
  expect_exit 0 "$t: sweep --close with the cut leaves only what cannot be closed" -- $PY -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['holes'] and not [r for r in j['holes'] if r['closable']], j['holes']" "$WORK/closed.json"
  # every hole of the cut is needed: without it a closable hole is open again
  for drop in "${cut[@]}"; do
    args=()
    for h in "${cut[@]}"; do [[ $h == "$drop" ]] || args+=(--close "$h"); done
    "$GC" sweep "$T" --depth 4 -q --json "${args[@]}" >"$WORK/drop.json" 2>/dev/null
    $PY -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if [r for r in j['holes'] if r['closable']] else 1)" "$WORK/drop.json" \
      && ok || fail "$t: the cut without '$drop' still leaves nothing closable (it is not needed)"
  done
done

# the same holes from fuzzing: the saved cases (found by fuzzing) and a bounded fuzz run (at
# the end: it needs the engine) name only holes the sweep names, and most of them
for t in station-1.5.0 station-advisory-fix; do
  "$GC" replay -q --json --expect escape "$SRC/targets/$t" "$SRC/escapes/$t" 2>/dev/null | grep '^{"kind"' >"$WORK/cases.json"
  expect_exit 0 "$t: holes of the saved cases are the sweep's" -- $PY - "$WORK/sw-$t.json" "$WORK/cases.json" <<'PY'
import json, sys
sweep = {r["hole"] for r in json.load(open(sys.argv[1]))["holes"]}
cases = {json.loads(l)["hole"] for l in open(sys.argv[2])}
assert cases and cases <= sweep, ("not in the sweep:", cases - sweep)
assert len(cases) >= 3, cases
PY
done
T=$SRC/targets/station-1.5.0
# the harness's handler frame (a call's traceback's first frame) holds only the call's own
# callee and arguments: no hole; the route's hole is the stub's globals
printf "os.fork().__traceback__.tb_frame.f_locals['f'].__builtins__['open']\n" >"$WORK/handler-frame.chain"
"$GC" replay "$T" --json --raw "$WORK/handler-frame.chain" >"$WORK/out" 2>/dev/null
expect_grep '"hole":"gate function \. __globals__"' "the handler frame's f_locals is no hole"

# station-hardened: at depth 5 only what no namespace gate can close, and advise says so
H=$SRC/targets/station-hardened
"$GC" sweep "$H" --depth 5 -q --json >"$WORK/hard.json" 2>/dev/null
expect_exit 0 "station-hardened: sweep at depth 5 finds only holes that cannot be closed" -- $PY -c "import json,sys; j=json.load(open(sys.argv[1])); assert not [r for r in j['holes'] if r['closable']], j['holes']" "$WORK/hard.json"
expect_exit 0 "station-hardened: advise verifies" -- "$GC" advise "$H" --depth 5
expect_grep "nothing left to close" "advise says so in plain words"
expect_grep "^verified: " "advise's proof"

# --close with a name no edge carries says so
expect_exit 1 "sweep --close of no hole" -- "$GC" sweep --no-confirm "$T" --depth 2 -q --close "no such hole"
expect_fgrep "--close 'no such hole': no edge of this sweep is that hole" "unknown hole named"

# a bounded fuzz run's table by hole: every hole of a sweep as deep as the campaign's opening
# sweep goes (8: it has the gate frames' holes of depth 7 in the table before the engine
# runs, T is station-1.5.0), named alike.  The engine may add a hole the sweep names
# otherwise: the sweep expands each object once, by its first path, and an engine chain can
# reach the same object by another (__builtins__['quit'].__call__.__globals__, under ASan);
# such a row must be the engine's (OUT/finds.tsv), never one the sweep is said to have found.
# --time 150 gives the opening sweep a 15 s budget (a tenth): the default's 6 s did not
# reach depth 7 under ASan on a loaded CI machine; --runs ends the run long before.
need fuzz_gate || { finish; exit; }
"$GC" sweep "$T" --depth 8 -q --json >"$WORK/sw8.json" 2>/dev/null
mkdir -p "$WORK/fz/corpus" && find "$SRC/corpus" -maxdepth 1 -type f -exec cp -t "$WORK/fz/corpus/" -- {} +
"$GC" fuzz "$T" --runs 30000 --time 150 --seed 1 --out "$WORK/fz/out" --corpus "$WORK/fz/corpus" >"$WORK/fuzz.txt" 2>"$WORK/fuzz.err"
expect_exit 0 "holes of a bounded fuzz run are the sweep's" -- $PY - "$WORK/sw8.json" "$WORK/fuzz.txt" "$WORK/fz/out/finds.tsv" <<'PY'
import json, re, sys
sweep = {r["hole"] for r in json.load(open(sys.argv[1]))["holes"]}
rows = [l for l in open(sys.argv[2]) if re.match(r"^(spawn|write|network)\S* +\d+ +\d+ (yes|no) ", l)]
# after CLOSABLE, the CONFIRMED column's grade (docs/TRIAGE.md), then the hole
grade = r"(?:held|returned|exception|yes|NO|unknown|-)"
holes = {re.split(r" +(?:yes|no) +(?:" + grade + " +)?", l.rstrip("\n"), maxsplit=1)[1] for l in rows}
finds = [l.rstrip("\n").split("\t") for l in open(sys.argv[3])]
by_sweep = {f[2] for f in finds if f[1] == "sweep"}
assert sweep <= holes, ("the sweep's, not in the table:", sweep - holes)
assert by_sweep == sweep, ("found by the opening sweep, not the sweep's:", by_sweep ^ sweep)
assert all(f[1] == "engine" for f in finds if f[2] not in sweep), "a hole not the sweep's said found by it"
assert len(holes) >= 3, holes
PY
cp "$WORK/fuzz.txt" "$WORK/out"
expect_grep "^[0-9]+ hole\(s\) \(docs/HOLES.md\), shortest chain of each minimized" "fuzz table by hole"
expect_grep "^ +via " "each row has its chain"
finish
