#!/usr/bin/env bash
# One escape object and one sweep report for both modes (verdict.h): the escape JSON of
# `sweep --json`, `replay --json` and gate's report.json has the same keys on a gate target
# (station-1.5.0) and on a source target (simpleeval 1.0.4 with a module handed out), the
# input under "input"; report.json's escapes add only "source" (where each came from); the
# sweep's JSON has one schema in both modes, by hole (the default) and by signature, the
# former adding only "closed" and "holes"; and the escape line is the same shape in both
# modes; replay's lines add only "file", the file each is about.
source "$(dirname "$0")/lib.sh" "$@"
ST=$SRC/targets/station-1.5.0
SE=simpleeval-1.0.4
target_installed $SE || { finish; exit; }
src=(--venv "$BIN/venvs/$SE" "$SRC/targets/$SE")
case_py=$SRC/tests/fixtures/source/advisory/ghsa-44vg-5wv2-h2hg.py
case_chain=$SRC/escapes/station-1.5.0/reach-spawn-os.execv-via-modattr.chain

"$GC" sweep "$ST" --depth 2 -q --json >"$WORK/sweep-gate.json" 2>/dev/null
"$GC" sweep "${src[@]}" --depth 2 -q --json >"$WORK/sweep-source.json" 2>/dev/null
"$GC" replay --json "$ST" "$case_chain" 2>/dev/null | grep '^{' >"$WORK/replay-gate.json"
"$GC" replay --json "${src[@]}" "$case_py" 2>/dev/null | grep '^{' >"$WORK/replay-source.json"
mkdir -p "$WORK/cases-gate" "$WORK/cases-source"
cp "$case_chain" "$WORK/cases-gate/"
cp "$case_py" "$WORK/cases-source/"
"$GC" gate "$ST" --escapes "$WORK/cases-gate" --time 0 --report "$WORK/rep-gate" --out "$WORK/out-gate" \
  >/dev/null 2>&1
"$GC" gate "${src[@]}" --escapes "$WORK/cases-source" --time 0 --report "$WORK/rep-source" \
  --out "$WORK/out-source" >/dev/null 2>&1
"$GC" sweep "$ST" --depth 2 -q --json --by signature >"$WORK/bysig-gate.json" 2>/dev/null
"$GC" sweep "${src[@]}" --depth 2 -q --json --by signature >"$WORK/bysig-source.json" 2>/dev/null

"$PY" -I - "$WORK" "$case_chain" "$case_py" >"$WORK/out" 2>&1 <<'PY'
import json, sys
w = sys.argv[1]
ESCAPE = {"kind", "capability", "primitive", "signature", "detail", "hole", "input", "size", "target", "policy"}
bad = []
def need(what, got, want):
    if set(got) != want:
        bad.append(f"{what}: keys {sorted(got)}, want {sorted(want)}")
def load(name):
    try:
        return json.load(open(f"{w}/{name}"))
    except Exception as e:
        bad.append(f"{name}: {e}")
        return None
sweeps = {}
for mode in ("gate", "source"):
    for by in ("sweep", "bysig"):
        s = load(f"{by}-{mode}.json")
        if not s:
            continue
        sweeps[by, mode] = set(s)
        if not s["escapes"]:
            bad.append(f"{by} {mode}: no escape to compare")
        for e in s["escapes"]:
            need(f"{by} --json ({mode}) escape", e, ESCAPE)
    lines = [json.loads(l) for l in open(f"{w}/replay-{mode}.json")]
    confirms = [l for l in lines if "kind" not in l]  # replay's confirmation line, after each escape's
    lines = [l for l in lines if "kind" in l]
    case = sys.argv[2] if mode == "gate" else sys.argv[3]
    for c in confirms:
        if set(c) - {"reached"} != {"file", "input", "confirmed", "confirmation"}:
            bad.append(f"replay --json ({mode}): a confirmation line with keys {sorted(c)}")
    if len(lines) != 1:
        bad.append(f"replay --json ({mode}): {len(lines)} escape lines, want 1")
    for e in lines + confirms:  # replay's lines add only the file they are about
        if e.get("file") != case:
            bad.append(f"replay --json ({mode}): file {e.get('file')!r}, want {case!r}")
    for e in lines:
        need(f"replay --json ({mode}) escape", {k: v for k, v in e.items() if k != "file"}, ESCAPE)
    r = load(f"rep-{mode}/report.json")
    if r:
        if not r["escapes"]:
            bad.append(f"report.json ({mode}): no escape")
        for e in r["escapes"]:
            need(f"report.json ({mode}) escape", e, ESCAPE | {"source"})
base = sweeps.get(("bysig", "gate"), set())
for (by, mode), keys in sweeps.items():
    want = base | ({"closed", "holes"} if by == "sweep" else set())
    if keys != want:
        bad.append(f"{by} --json ({mode}): keys {sorted(keys)}, want {sorted(want)}")
print("\n".join(bad) or "one schema")
sys.exit(1 if bad else 0)
PY
[[ $? -eq 0 ]] && ok || { fail "the escape and sweep JSON differ between outputs or modes"; sed 's/^/    /' "$WORK/out" >&2; }

# the one escape line: "gatecrash: ESCAPE kind capability primitive via INPUT[ (detail)]"
"$GC" replay "$ST" "$case_chain" >"$WORK/out" 2>/dev/null
expect_grep "^.*\.chain: gatecrash: ESCAPE reach spawn os\.execv via [^ ].*$" "gate: the escape line"
"$GC" replay "${src[@]}" "$case_py" >"$WORK/out" 2>/dev/null
expect_grep "^.*\.py: gatecrash: ESCAPE reach spawn os\.system via path\.os\.system \(in the value evaluate gave back" \
  "source: the escape line, its program after via"
finish
