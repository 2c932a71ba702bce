#!/usr/bin/env bash
# The sweep: byte-identical output for the same target, policy and bounds; a chain no
# longer than the fuzzer's for every saved case's signature; nothing on an allow-everything
# policy, and no effect; saving through the triage writer; the release gate's --sweep-depth.
source "$(dirname "$0")/lib.sh" "$@"
ST=$SRC/targets/station-1.5.0
"$GC" sweep --no-confirm "$ST" --depth 4 --by signature -q >"$WORK/a.txt" 2>/dev/null
"$GC" sweep --no-confirm "$ST" --depth 4 --by signature -q >"$WORK/b.txt" 2>/dev/null
cmp -s "$WORK/a.txt" "$WORK/b.txt" && ok || fail "two sweeps differ: $(diff "$WORK/a.txt" "$WORK/b.txt" | head -5)"
grep -q "^spawn:" "$WORK/a.txt" && grep -q "^write:" "$WORK/a.txt" && ok || fail "grouped by capability"
grep -qE "^  reach:spawn:os.system:modattr +subprocess.os.system$" "$WORK/a.txt" && ok || fail "the advisory's shortest chain"
grep -qE "^[0-9]+ escape signature\(s\); [0-9]+ nodes, [0-9]+ edges; not expanded: [0-9]+ at the depth bound" "$WORK/a.txt" \
  && ok || fail "counts and bounds in the report"
"$GC" sweep "$ST" --depth 3 --by signature -q --json >"$WORK/a.json" 2>/dev/null
"$GC" sweep "$ST" --depth 3 --by signature -q --json >"$WORK/b.json" 2>/dev/null
cmp -s "$WORK/a.json" "$WORK/b.json" && ok || fail "two JSON sweeps differ"

# every signature the fuzzer saved is found, by a chain that is no longer
for t in station-1.5.0 station-advisory-fix audit-gate; do
  depth=5
  "$GC" sweep "$SRC/targets/$t" --depth $depth --by signature -q --json >"$WORK/sw-$t.json" 2>/dev/null
  "$GC" replay -q --json --expect escape "$SRC/targets/$t" "$SRC/escapes/$t" 2>/dev/null | grep '^{"kind"' >"$WORK/cases-$t.json"
  "$PY" - "$WORK/sw-$t.json" "$WORK/cases-$t.json" >"$WORK/cmp-$t.txt" <<'PY'
import json, sys
sweep = {e["signature"]: e for e in json.load(open(sys.argv[1]))["escapes"]}
bad = 0
for line in open(sys.argv[2]):
    case = json.loads(line)
    s = sweep.get(case["signature"])
    if s is None or s["size"] > case["size"]:
        bad += 1
        print("not matched:", case["signature"], case["input"], "sweep:", s and s["input"])
print("cases", sum(1 for _ in open(sys.argv[2])), "unmatched", bad)
sys.exit(1 if bad else 0)
PY
  [[ $? -eq 0 ]] && ok || fail "$t: $(cat "$WORK/cmp-$t.txt")"
done

# nothing escapes, and nothing happens, when everything is allowed
touch "$WORK/marker"
expect_exit 0 "sweep of the allow-all target" -- traced -f -qq -e trace=execve,fork,vfork -o "$WORK/strace.log" \
  "$GC" sweep --no-confirm "$SRC/targets/station-1.5.0-allow-all" --depth 4 --by signature -q
expect_grep "^0 escape signature" "no escape under allow-all"
[[ $(grep -c 'execve(' "$WORK/strace.log") -eq 1 ]] && ! grep -qE '(^| )v?fork\(' "$WORK/strace.log" && ok \
  || fail "processes were started: $(grep -E 'execve|fork' "$WORK/strace.log" | head -3)"
changed=$(find "$SRC" -newer "$WORK/marker" -type f 2>/dev/null | grep -v "^$BIN/" || true)
[[ -z $changed ]] && ok || fail "files changed: $changed"

# saving goes through the triage writer: confirmed, de-duplicated
expect_exit 1 "sweep --save" -- "$GC" sweep "$ST" --depth 1 --by signature -q --save "$WORK/cases"
expect_grep "^saved to .*: [1-9][0-9]* new, 0 known, 0 not reproducible" "cases saved"
expect_exit 0 "saved sweep cases replay" -- "$GC" replay -q --expect escape "$ST" "$WORK/cases"
expect_exit 1 "sweep --save again" -- "$GC" sweep "$ST" --depth 1 --by signature -q --save "$WORK/cases"
expect_grep "^saved to .*: 0 new, [1-9][0-9]* known" "nothing written twice"

# a quote and a backslash in the target's policy still give valid JSON, the strings intact (a
# name is a safe file name: target_names.sh)
mkdir -p "$WORK/odd"
cat >"$WORK/odd/target.json" <<JSON
{"name": "odd-na.me", "sandbox": "$ST/module_sandbox.py", "install": "install_restrictions", "module_id": "plugin",
 "requires": {"subprocess": false, "filesystem_writes": ["/nowhere/q\\"u\\\\ote/*"]}}
JSON
"$GC" sweep "$WORK/odd" --depth 1 --by signature -q --json >"$WORK/odd-sweep.json" 2>/dev/null
"$GC" replay -q --json "$WORK/odd" "$SRC/tests/fixtures/advisory" 2>/dev/null | grep '^{"kind"' >"$WORK/odd-replay.json"
expect_exit 0 "JSON from a target whose policy has a quote and a backslash" -- "$PY" - "$WORK/odd-sweep.json" "$WORK/odd-replay.json" <<'PY'
import json, sys
name, policy = 'odd-na.me', 'subprocess=false filesystem_writes=[/nowhere/q"u\\ote/*] network=true'
sweep = json.load(open(sys.argv[1]))
objs = [sweep] + sweep["escapes"] + [json.loads(line) for line in open(sys.argv[2])]
assert len(sweep["escapes"]) > 0 and len(objs) > len(sweep["escapes"]) + 1, "no escapes"
for o in objs:
    assert (o["target"], o["policy"]) == (name, policy), (o["target"], o["policy"])
PY

# the release gate requires nothing within the sweep depth (--out: even with --time 0 the gate
# makes its campaign folder, by default out/TARGET/gate-campaign in the working folder)
mkdir -p "$WORK/none"
expect_exit 1 "gate --sweep-depth on station-1.5.0" -- "$GC" gate "$ST" --time 0 --sweep-depth 2 --report "$WORK/rep" --escapes "$WORK/none" \
  --out "$WORK/camp"
expect_grep "FAIL .* [1-9][0-9]* by the sweep" "sweep escapes fail the gate"
expect_exit 0 "gate --sweep-depth on allow-all" -- "$GC" gate "$SRC/targets/station-1.5.0-allow-all" --time 0 --sweep-depth 3 --report "$WORK/rep2" --escapes "$WORK/none" \
  --out "$WORK/camp2"
finish
