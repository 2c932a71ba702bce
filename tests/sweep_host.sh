#!/usr/bin/env bash
# The source sweep's host-side search (source_sweep.c, "the host-side search") against the
# exhaustive walk it replaced (`sweep --exhaustive`): the same escape signatures through the
# same holes, with fewer programs run through the sandbox.
#   - field-walk, lookup-readback, own-values and class-by-name at depth 3 (format-field walks,
#     lookup readbacks, calls with the program's own values, class walks by name), leak at
#     depth 2 (the program's own frames, whose values it makes afresh on each run): the same
#     (signature, hole) pairs, each with the same program, and the same exit code both ways; the
#     host-side search ran fewer programs (the JSON's "edges": programs run);
#   - its summary line counts the edges the host answered, the probes and the confirmations;
#   - a rule a sampled confirmation finds wrong is said and counted (rule-flip);
#   - deterministic: the same report twice, byte for byte.
source "$(dirname "$0")/lib.sh" "$@"
fx=$SRC/tests/fixtures/source
# restrictedpython-7.2-utility at depth 3 (its venv): a value the host finds reaching a
# primitive already kept for its signature and hole (a function's __builtins__ through a field
# walk) is a leaf as the program that escapes is, not a node walked on (the build before walked
# it: one more pair, io.FileIO through `function . __globals__`)
targets=(field-walk:3 lookup-readback:3 own-values:3 class-by-name:3 leak:2)
target_installed restrictedpython-7.2-utility && targets+=(restrictedpython-7.2-utility:3)
for td in "${targets[@]}"; do
  t=${td%%:*} d=${td##*:}
  rc_h=0 rc_x=0 dir=$fx/$t venv=()
  [[ -d $SRC/targets/$t ]] && dir=$SRC/targets/$t venv=(--venv "$BIN/venvs/$t")
  "$GC" sweep "${venv[@]}" "$dir" --depth "$d" --json >"$WORK/h.json" 2>"$WORK/h.err" || rc_h=$?
  "$GC" sweep "${venv[@]}" "$dir" --depth "$d" --json --exhaustive >"$WORK/x.json" 2>/dev/null || rc_x=$?
  [[ $rc_h -eq $rc_x && $rc_h -le 1 ]] && ok || fail "$t --depth $d: exit $rc_h (host-side), $rc_x (exhaustive)"
  expect_exit 0 "$t --depth $d: the same signatures and holes, fewer programs" -- "$PY" - "$WORK/h.json" "$WORK/x.json" <<'PY'
import json, sys
h, x = (json.load(open(p)) for p in sys.argv[1:3])
pairs = lambda j: sorted((e["signature"], e["hole"]) for e in j["escapes"])
assert pairs(h) == pairs(x), (pairs(h), pairs(x))
progs = lambda j: sorted((e["signature"], e["hole"], e["input"]) for e in j["escapes"])
assert progs(h) == progs(x), "the same shortest program for each pair"
assert sorted(r["hole"] for r in h["holes"]) == sorted(r["hole"] for r in x["holes"])
assert h["cut"]["levels_complete"] == x["cut"]["levels_complete"] == h["depth"], (h["cut"], x["cut"])
assert h["edges"] < x["edges"], ("programs run", h["edges"], x["edges"])
PY
  cp "$WORK/h.err" "$WORK/out"
  expect_grep '; [1-9][0-9]* edges answered in the host, [1-9][0-9]* probes, [1-9][0-9]* confirmations, [0-9]+ rule' \
    "$t: the summary counts what the host answered and the programs that taught and checked it"
done
# a rule that holds for some objects of a type only (rule-flip: `key` refused on the odd boxes
# of a list, given on the even ones): a sampled confirmation finds it wrong and says so, and
# that kind of edge runs from then on (the edges it answered before stay answered)
expect_exit 0 "rule-flip: nothing escapes" -- "$GC" sweep "$fx/rule-flip" --depth 3
expect_grep "^\[sweep\] a confirmation found the rule for \(1, 0, 'key', <class 'adapter\.Box'>, <class 'str'>\) wrong: its edges run from now on$" \
  "rule-flip: the wrong rule said"
expect_grep ' 1 rule\(s\) found wrong$' "rule-flip: counted"
expect_same_sweep "$fx/field-walk" 3
expect_same_sweep "$fx/leak" 2
# the option is one of sweep's, refused elsewhere like any unknown one
expect_exit 2 "--exhaustive is sweep's" -- "$GC" advise "$fx/field-walk" --exhaustive
finish
