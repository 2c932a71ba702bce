#!/usr/bin/env bash
# The spawner starts nothing unconfined (harness/runtime/spawn.h,
# tests/fixtures/fortress/spawner).  The gatecrash command forks its spawner before Landlock
# and the backstop; two routes went through it:
#  1. the confirmation and triage probes are plain interpreters that import the target:
#     the gate, imported by the reproducer, calls libc's system() and fopen() through ctypes
#     (no audit event).  Now the probe runs under Landlock (writes only where the command
#     may write, execute only gatecrash's binaries and tools): no file is made, /bin/sh does
#     not start, and the escape is still confirmed.
#  2. target code in the command finds the spawner's socket and sends it a request: a
#     program outside the exec list (/bin/sh) is refused; an allowed one (env) cannot exec
#     anything outside it (touch), nor write outside the grants.
# On 6d4deba both victims of route 1 and both of route 2 are made.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/fortress/spawner
VICTIMS=$WORK/victims # outside every folder a run is granted
export GATECRASH_TEST_VICTIM=$VICTIMS/victim
mkdir -p "$VICTIMS"
nothing_landed() {
  [[ -z $(ls -A "$VICTIMS") ]] && ok || { fail "$1: made outside the grants: $(ls "$VICTIMS")"; rm -rf "${VICTIMS:?}"/*; }
}
# control: the fixture really does it in a plain interpreter of its reproducer
printf 'pick()\n' >"$WORK/pick.chain"
(cd "$T" && "$PY" -c 'import sys; PRIMITIVES = {}; sys.path.insert(0, "."); import spawner_gate') >/dev/null 2>&1
[[ -e $GATECRASH_TEST_VICTIM.system && -e $GATECRASH_TEST_VICTIM.fopen ]] && ok || fail "control: the gate made no file"
rm -rf "${VICTIMS:?}"/*

# route 1: replay confirms the escape in a fresh probe
expect_exit 1 "replay of an escape (the confirmation probe imports the gate)" -- "$GC" replay -q "$T" "$WORK/pick.chain"
expect_grep "pick.chain: confirmed in a plain interpreter" "the probe still runs and confirms"
nothing_landed "the confirmation probe"
# and triage's portability check (two probes, two hash seeds)
H=0123456789abcdef0123456789abcdef01234567
mkdir -p "$WORK/crashes/resolved" && cp "$WORK/pick.chain" "$WORK/crashes/crash-$H"
cp "$WORK/pick.chain" "$WORK/crashes/resolved/$H" # the chain as the fuzzing process ran it
expect_exit 0 "triage of the escape" -- "$GC" triage "$T" --out "$WORK/triage" "$WORK/crashes"
expect_grep "1 new" "triage saved it"
nothing_landed "triage's probes"

# route 2: a request on the spawner's socket from a chain step in the command
V=$GATECRASH_TEST_VICTIM
cat >"$WORK/sh.chain" <<PROGRAM
knock("/bin/sh", "-c", "touch $V.sh")
PROGRAM
cat >"$WORK/env.chain" <<PROGRAM
knock("env", "touch", "$V.env")
PROGRAM
cat >"$WORK/py.chain" <<PROGRAM
knock("env", "$PY", "-c", "open('$V.py', 'w')")
PROGRAM
for p in sh env py; do # knock returns once the spawner waited for what it started
  "$GC" replay -q "$T" "$WORK/$p.chain" >"$WORK/out" 2>&1
  rc=$?
  [[ $rc -le 1 ]] && ok || { fail "replay of $p.chain: exit $rc"; sed 's/^/    /' "$WORK/out" | head -20 >&2; }
  nothing_landed "a request on the spawner's socket ($p)"
  [[ $p != sh ]] || expect_grep "spawner: refused to run /bin/sh: not one of gatecrash's binaries or tools" "the spawner says it refused"
done
finish
