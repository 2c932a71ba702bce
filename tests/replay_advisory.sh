#!/usr/bin/env bash
# The advisory's four chains: escapes on station-1.5.0, blocked by the advisory's fix.
source "$(dirname "$0")/lib.sh" "$@"
ADV=$SRC/tests/fixtures/advisory

expect_exit 1 "advisory chains on station-1.5.0" -- "$GC" replay "$SRC/targets/station-1.5.0" "$ADV"
expect_count 4 "ESCAPE reach" "four ESCAPE lines"
expect_grep "ESCAPE reach spawn os.system via subprocess.os.system$" "subprocess.os.system"
expect_grep "ESCAPE reach write os.remove via os.sys.modules\['os'\].remove$" "os.remove via sys.modules"
expect_grep "ESCAPE reach spawn subprocess.run via os.sys.modules\['subprocess'\].run$" "subprocess.run"
expect_grep "the gate's own log" "the gate's log is shown once at start-up"
expect_count 1 "subprocess gate CLOSED" "the gate's log is shown once, not per input"

expect_exit 0 "advisory chains on station-advisory-fix" -- "$GC" replay -q "$SRC/targets/station-advisory-fix" "$ADV"
expect_count 0 "ESCAPE" "no escape through the fixed proxies"
expect_count 4 ": blocked" "four blocked verdicts"

expect_exit 0 "--expect escape where they escape" -- "$GC" replay -q --expect escape "$SRC/targets/station-1.5.0" "$ADV"
expect_exit 1 "--expect escape where they are blocked" -- "$GC" replay -q --expect escape "$SRC/targets/station-advisory-fix" "$ADV"

# the same target given as --sandbox/--requires, the host's own way
expect_exit 1 "--sandbox/--requires" -- "$GC" replay -q --sandbox "$SRC/targets/station-1.5.0/module_sandbox.py" \
  --requires '{"subprocess": false, "filesystem_writes": []}' "$ADV/1-subprocess-os-system.chain"
# install entry "gates": the advisory's reproduction calls the two gates directly
mkdir -p "$WORK/gates"
cat >"$WORK/gates/target.json" <<JSON
{"sandbox": "$SRC/targets/station-1.5.0/module_sandbox.py", "install": "gates",
 "requires": {"subprocess": false, "filesystem_writes": []}}
JSON
expect_exit 1 "install entry 'gates'" -- "$GC" replay -q "$WORK/gates" "$ADV"
expect_count 4 "ESCAPE reach" "the four escapes through the gates entry"
# --json: one object per escape with target and policy
expect_exit 1 "--json" -- "$GC" replay -q --json "$SRC/targets/station-1.5.0" "$ADV/1-subprocess-os-system.chain"
expect_grep '^\{"kind":"reach","capability":"spawn","primitive":"os.system","signature":"reach:spawn:os.system:modattr","detail":"","hole":"proxy subprocess .<module>","input":"subprocess.os.system","size":2,"target":"station-1.5.0","policy":"subprocess=false' "JSON escape object"
finish
