#!/usr/bin/env bash
# The sweep and the release gate on source targets (harness/source/source_sweep.c,
# triage/source_holes.c, triage/gate.c): programs over the roots, run through evaluate.
#   - simpleeval 1.0.4 with a module passed in (GHSA-44vg-5wv2-h2hg): the sweep finds the
#     published class, `path.os.system`, exit 1, one hole: the module's attribute os;
#   - every current release: nothing at the default depth, exit 0;
#   - the same sweep twice: the same report, byte for byte (the historical RestrictedPython
#     releases' too, with their classes found);
#   - bounded, --json: simpleeval 1.0.4 at depth 1 finds nothing (path.os is a module, one
#     edge short), at depth 2 every escape is path.os.<primitive> through the one hole, the
#     object's keys and counts as documented; the leak fixture (exec dialect) at depth 1
#     finds its root run (namespace run) and the generator frame's globals and builtins
#     (frame . f_globals); each JSON the same twice, byte for byte;
#   - gate: a saved escaping program fails the gate and is named with its hole; the same
#     program against the release with the fix is blocked and the gate passes.
source "$(dirname "$0")/lib.sh" "$@"
adv=$SRC/tests/fixtures/source/advisory
sweep() { "$GC" sweep --venv "$BIN/venvs/$1" "$SRC/targets/$1" "${@:2}"; }

if target_installed simpleeval-1.0.4; then
  expect_exit 1 "sweep simpleeval-1.0.4: an escape" -- sweep simpleeval-1.0.4 --by signature
  expect_grep '^  source:reach:os\.system +path\.os\.system$' "simpleeval-1.0.4: the advisory's program"
  expect_grep '^  source:reach:os\.remove +path\.os\.remove$' "simpleeval-1.0.4: a write primitive too"
  expect_exit 1 "sweep simpleeval-1.0.4 by hole" -- sweep simpleeval-1.0.4 --by root
  expect_grep '^spawn\+write +[0-9]+ +[0-9]+ yes +module posixpath \.<module>$' "simpleeval-1.0.4: its hole"
  expect_grep '^1 hole\(s\), [1-9][0-9]* escape signature' "simpleeval-1.0.4: one hole"
  expect_exit 1 "sweep simpleeval-1.0.4 --json" -- sweep simpleeval-1.0.4 --by root --json
  expect_fgrep '"hole":"module posixpath .<module>"' "simpleeval-1.0.4: the JSON names the hole"
  # deterministic: the same target and bounds, the same report
  sweep simpleeval-1.0.4 --by signature >"$WORK/s1" 2>/dev/null
  sweep simpleeval-1.0.4 --by signature >"$WORK/s2" 2>/dev/null
  if cmp -s "$WORK/s1" "$WORK/s2" && [[ -s $WORK/s1 ]]; then ok; else fail "sweep output differs between runs"; fi
  # bounded, --json: nothing one edge short of the primitives, then exactly the class
  expect_exit 0 "sweep simpleeval-1.0.4 --depth 1 --json: nothing" -- sweep simpleeval-1.0.4 --depth 1 --json
  expect_grep '^\{"target":"simpleeval-1.0.4","policy":"[^"]+","depth":1,"max_nodes":[0-9]+,"nodes":[0-9]+,"edges":[0-9]+,"cut":\{"depth":[0-9]+,"max_nodes":0,"items":0,"time":false,"time_limit":0,"levels_complete":1\},"escapes":\[\],"closed":\[\],"holes":\[\]\}$' \
    "simpleeval-1.0.4 at depth 1: no hole, no escape"
  sweep simpleeval-1.0.4 --depth 2 --by root --json >"$WORK/j1" 2>/dev/null
  expect_exit 0 "simpleeval-1.0.4 --depth 2 --json: the class, through one hole" -- "$PY" - "$WORK/j1" <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
assert list(j) == ["target", "policy", "depth", "max_nodes", "nodes", "edges", "cut", "escapes", "closed",
                   "holes"], list(j)
assert j["target"] == "simpleeval-1.0.4" and j["depth"] == 2 and not j["cut"]["time"] and j["closed"] == [], j
hole = "module posixpath .<module>"
assert [r["hole"] for r in j["holes"]] == [hole], j["holes"]
row, esc = j["holes"][0], j["escapes"]
assert row["closable"] and row["capabilities"] == "spawn+write", row
by = {e["primitive"]: e for e in esc}
assert by["os.system"]["input"] == "path.os.system" and by["os.system"]["capability"] == "spawn", by.get("os.system")
assert by["os.remove"]["input"] == "path.os.remove" and by["os.remove"]["capability"] == "write", by.get("os.remove")
for e in esc:
    assert e["hole"] == hole and e["kind"] == "reach" and e["signature"] == "source:reach:" + e["primitive"], e
    assert re.fullmatch(r"path\.os\.[a-z_0-9]+", e["input"]) and e["input"] == "path." + e["primitive"], e
assert row["signatures"] == len(esc) == len(by) == row["primitives"], (row, len(esc))
assert row["primitive_names"].split(", ") == [e["primitive"] for e in esc], row["primitive_names"]
PY
  sweep simpleeval-1.0.4 --depth 2 --by root --json >"$WORK/j2" 2>/dev/null
  if cmp -s "$WORK/j1" "$WORK/j2" && [[ -s $WORK/j1 ]]; then ok; else fail "sweep --depth 2 --json differs between runs"; fi
fi

for t in restrictedpython restrictedpython-utility simpleeval simpleeval-module; do
  target_installed "$t" || continue
  expect_exit 0 "sweep $t: no escape" -- sweep "$t"
  expect_grep '^0 hole\(s\), 0 escape signature\(s\); [1-9][0-9]* nodes' "sweep $t: programs run, none escaped"
done
if target_installed restrictedpython-utility; then
  sweep restrictedpython-utility >"$WORK/r1" 2>/dev/null
  sweep restrictedpython-utility >"$WORK/r2" 2>/dev/null
  if cmp -s "$WORK/r1" "$WORK/r2" && [[ -s $WORK/r1 ]]; then ok; else fail "restrictedpython sweep differs between runs"; fi
fi

# the historical releases: their published classes found, each sweep the same twice, byte for
# byte (restrictedpython-6.0's frame walk at depth 4; 6.1-utility's Formatter field walks at
# depth 2)
for td in restrictedpython-6.0:4 restrictedpython-6.1-utility:2; do
  t=${td%%:*} d=${td##*:}
  target_installed "$t" || continue
  rc=0
  sweep "$t" --depth "$d" >"$WORK/h1" 2>/dev/null || rc=$?
  sweep "$t" --depth "$d" >"$WORK/h2" 2>/dev/null
  [[ $rc -eq 1 ]] && grep -qE '^[1-9][0-9]* (hole\(s\)|weakness\(es\))' "$WORK/h1" && ok || fail "sweep $t --depth $d: exit $rc, no hole"
  if cmp -s "$WORK/h1" "$WORK/h2" && [[ -s $WORK/h1 ]]; then ok; else fail "sweep $t differs between runs"; fi
done

# the leak fixture (exec dialect, no venv) at depth 1: its root, the generator's frame, and
# the implicit roots (it runs programs with the real builtins): open, __builtins__, and the
# class walk from the real builtin object (object.__subclasses__() holds subprocess.Popen);
# and the host walks from the implicit roots, read back through a format field's error:
# id.__self__ (the builtins module) and __loader__'s functions' globals
leak=$SRC/tests/fixtures/source/leak
"$GC" sweep "$leak" --depth 1 --by root --json >"$WORK/l1" 2>/dev/null
expect_exit 0 "leak --depth 1 --json: namespace run, the frame's globals, the builtins" -- "$PY" - "$WORK/l1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert [r["hole"] for r in j["holes"]] == ["frame . f_globals", "namespace run", "type . __subclasses__()",
                                           "(not named)", "builtin_function_or_method . __self__",
                                           "function . __globals__", "namespace open"], j["holes"]
pairs = sorted((e["primitive"], e["hole"]) for e in j["escapes"])
assert pairs == [("builtins.open", ""), ("builtins.open", "builtin_function_or_method . __self__"),
                 ("builtins.open", "frame . f_globals"), ("builtins.open", "function . __globals__"),
                 ("builtins.open", "namespace open"), ("os.system", "frame . f_globals"),
                 ("os.system", "namespace run"), ("subprocess.Popen", "type . __subclasses__()")], pairs
root = [e for e in j["escapes"] if e["hole"] == "namespace run"][0]
assert root["input"] == "result = run" and root["capability"] == "spawn", root
implicit = [e["input"] for e in j["escapes"] if e["hole"] in ("namespace open", "")]
assert sorted(implicit) == ["result = __builtins__", "result = open"], implicit
walk = [e for e in j["escapes"] if e["hole"] == "type . __subclasses__()"][0]
assert walk["input"] == "result = object.__subclasses__()", walk
frame = [e for e in j["escapes"] if e["primitive"] == "builtins.open" and e["hole"] == "frame . f_globals"][0]
assert "g.gi_frame.f_builtins for x in [1]" in frame["input"] and frame["input"].endswith("result = f()"), frame
PY
"$GC" sweep "$leak" --depth 1 --by root --json >"$WORK/l2" 2>/dev/null
if cmp -s "$WORK/l1" "$WORK/l2" && [[ -s $WORK/l1 ]]; then ok; else fail "leak sweep --json differs between runs"; fi

# gate: the saved case is a program; fuzzing off (--time 0): only its replay and the sweep
mkdir -p "$WORK/cases"
cp "$adv/ghsa-44vg-5wv2-h2hg.py" "$WORK/cases/"
gate() {
  "$GC" gate --venv "$BIN/venvs/$1" "$SRC/targets/$1" --escapes "$WORK/cases" --time 0 --report "$WORK/rep-$1" \
    --out "$WORK/out-$1" "${@:2}"
}
if target_installed simpleeval-1.0.4; then
  expect_exit 1 "gate simpleeval-1.0.4: the saved case escapes" -- gate simpleeval-1.0.4
  expect_grep '^ESCAPES   ghsa-44vg-5wv2-h2hg\.py: source:reach:os\.system via path\.os\.system$' "gate: the case"
  expect_grep '^gate simpleeval-1.0.4: FAIL — 1 of 1 saved case' "gate: FAIL"
  cp "$WORK/rep-simpleeval-1.0.4/report.md" "$WORK/out"
  expect_fgrep '| ghsa-44vg-5wv2-h2hg.py | reach | spawn | `os.system` | `module posixpath .<module>` | `path.os.system` |' \
    "gate: report.md names the case and its hole"
  "$PY" -I -c 'import json, sys; r = json.load(open(sys.argv[1])); h = r["holes"][0]; assert (h["hole"], h["holes"], h["roots"]) == ("handed out directly", "module posixpath .<module>", "path"), r["holes"]' \
    "$WORK/rep-simpleeval-1.0.4/report.json" && ok || fail "gate: report.json's weakness row, its hole and root"
  expect_exit 0 "gate: SARIF, one result for the one hole" -- "$PY" "$SRC/tests/check_sarif.py" \
    "$WORK/rep-simpleeval-1.0.4/report.sarif" 1
fi
if target_installed simpleeval-module; then
  expect_exit 0 "gate simpleeval-module: the case is blocked, the sweep finds nothing" -- gate simpleeval-module --sweep-depth 3
  expect_grep '^blocked   ghsa-44vg-5wv2-h2hg\.py$' "gate simpleeval-module: blocked"
  expect_grep '^gate simpleeval-module: PASS — 0 of 1 saved case\(s\) still escape, 0 escape\(s\) found by fuzzing, 0 by the sweep' "gate: PASS"
fi
# a target in the exec dialect (tests/fixtures/source/leak: real builtins, os.system as
# 'run'), cases given by a relative path: each named by its hole; the second through the
# statement before its final expression, the third's d.get('k') an edge out of d as d['k'] is
mkdir -p "$WORK/leakcases"
printf 'result = run\n' >"$WORK/leakcases/root.py"
printf 's = run.__self__\nresult = s.execv\n' >"$WORK/leakcases/head.py"
printf 'd = {"k": run.__self__}\nresult = d.get("k").execv\n' >"$WORK/leakcases/bound.py"
expect_exit 1 "gate leak: the cases escape" -- env -C "$WORK" "$(realpath "$GC")" gate "$leak" --escapes leakcases \
  --time 0 --report rep-leak --out out-leak
expect_grep '^ESCAPES   head\.py: source:reach:os\.execv via s = run\.__self__; result = s\.execv$' "gate leak: head.py"
cp "$WORK/rep-leak/report.md" "$WORK/out" 2>/dev/null
expect_fgrep '| head.py | reach | spawn | `os.execv` | `module posix .<primitive>` |' "gate leak: head.py's hole"
expect_fgrep '| root.py | reach | spawn | `os.system` | `namespace run` |' "gate leak: root.py's hole"
expect_fgrep '| bound.py | reach | spawn | `os.execv` | `dict []<module>` |' "gate leak: a bound method's call is an edge out of d"
finish
