#!/usr/bin/env bash
# Confinement from the first line of import, and the network stopped by the kernel
# (docs/RELIABILITY.md; tests/fixtures/fortress).  A hostile gate module (the same file is a source
# target's adapter) that, at import, writes through SQLite's ATTACH, spawns through libc's
# system(), or connects (Python's _socket, libc through ctypes) to a listener on 127.0.0.1:
# every command and engine binary stops with one line "at import: ... attempted ...", exit 3,
# and no file is made, no process run, no connection made.  Then the network from C in a
# chain step (the gate's own function calls libc socket/connect/send; a datagram socket; a
# thread the gate started at import): an escape with the network capability, and the
# listener gets nothing.  On b7a2e9e the file lands, replay says blocked and the listener
# is connected.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/fortress
VICTIMS=$WORK/victims # outside every folder a run is granted
export GATECRASH_TEST_VICTIM=$VICTIMS/victim
mkdir -p "$VICTIMS" "$WORK/scratch" "$WORK/corpus" "$WORK/cases"
echo 'noop()' >"$WORK/noop.chain"
echo 'result = 1' >"$WORK/one.py"

# The listener: its port in $GATECRASH_TEST_PORT; listener_says prints "connected" or "no
# connection" once the commands before it are done (the kernel completes a connection
# before accept, so no timing decides).
listen() {
  rm -f "$WORK/done" "$WORK/said" "$WORK/port"
  "$PY" -I "$T/listener.py" "$WORK/done" "$WORK/said" >"$WORK/port" &
  LISTENER=$!
  while [[ ! -s $WORK/port ]] && kill -0 "$LISTENER" 2>/dev/null; do sleep 0.05; done
  export GATECRASH_TEST_PORT=$(cat "$WORK/port")
}
listener_says() { touch "$WORK/done"; wait "$LISTENER"; said=$(cat "$WORK/said"); } # into $said
nothing_landed() { # WHAT: no victim, no connection
  [[ -z $(ls -A "$VICTIMS") ]] && ok || { fail "$1: a file was made outside scratch: $(ls "$VICTIMS")"; rm -rf "${VICTIMS:?}"/*; }
  listener_says
  [[ $said == "no connection" ]] && ok || fail "$1: the listener says: $said"
  listen
}
listen

# control: the fixture really does it when nothing stops it
for what in write connect; do
  GATECRASH_TEST_AT_IMPORT=$what "$PY" -I "$T/hostile.py" >/dev/null 2>&1
done
[[ -e $GATECRASH_TEST_VICTIM ]] && ok || fail "control: the fixture wrote nothing unconfined"
listener_says
[[ $said == connected ]] && ok || fail "control: the fixture made no connection unconfined"
rm -rf "${VICTIMS:?}"/*
listen

# at_import WHAT PATTERN: every command and engine stops at import with the one line
at_import() {
  local what=$1 pattern=$2 cmd
  export GATECRASH_TEST_AT_IMPORT=$what
  local cmds=(
    "replay|$GC replay $T $WORK/noop.chain"
    "sweep|$GC sweep $T --depth 1"
    "explain|$GC explain $T $WORK/noop.chain"
    "triage|$GC triage $T --out $WORK/cases $WORK/noop.chain"
    "gate|$GC gate $T --time 0"
    "source replay|$GC replay $T/source $WORK/one.py"
    "check|$GC check $T/source"
  )
  [[ -x $BIN/fuzz_gate-test ]] && cmds+=("fuzz_gate-test|$BIN/fuzz_gate-test --target=$T $WORK/noop.chain")
  [[ -x $BIN/fuzz_source-test ]] && cmds+=("fuzz_source-test|$BIN/fuzz_source-test --target=$T/source $WORK/one.py")
  if [[ -x $FUZZ ]]; then
    cmds+=("fuzz_gate|$FUZZ --target=$T -runs=1 $WORK/noop.chain"
      "fuzz_gate -fork|$FUZZ --target=$T -fork=1 -runs=1 $WORK/corpus"
      "fuzz_gate -merge|$FUZZ --target=$T -merge=1 $WORK/corpus $WORK/scratch"
      "fuzz_source|$BIN/fuzz_source --target=$T/source -runs=1 $WORK/one.py"
      "fuzz|$GC fuzz $T --time 1 --out $WORK/fuzz-out")
  fi
  [[ -x $BIN/fuzz_gate_afl ]] && cmds+=("fuzz_gate_afl|$BIN/fuzz_gate_afl --target=$T $WORK/noop.chain")
  for cmd in "${cmds[@]}"; do
    (cd "$WORK/scratch" && ${cmd#*|}) >"$WORK/out" 2>&1 </dev/null
    local rc=$?
    [[ $rc -eq 3 ]] && ok || { fail "$what at import, ${cmd%%|*}: exit $rc, want 3"; sed 's/^/    /' "$WORK/out" | tail -5 >&2; }
    expect_grep "^gatecrash: error: at import: .*hostile\.py attempted $pattern" "$what at import, ${cmd%%|*}: the line"
    nothing_landed "$what at import, ${cmd%%|*}"
  done
  unset GATECRASH_TEST_AT_IMPORT
}
at_import write "write to $VICTIMS/victim \(openat\)"
at_import spawn "spawn \((clone|vfork|fork|execve)"
at_import connect "network \(socket\.connect \('127\.0\.0\.1', [0-9]+\)\)"
at_import cconnect "network \(connect: connect on an AF_INET socket"

# the network from C, in a chain step: an escape with the network capability (in scratch:
# the engines write their crash inputs' resolved chains where they run)
cd "$WORK/scratch" || exit 1
expect_exit 1 "replay: noop() connects from C" -- "$GC" replay "$T" "$WORK/noop.chain"
expect_fgrep "ESCAPE syscall network connect via noop()" "replay: the connect is the escape"
nothing_landed "noop() replayed"
echo 'udp()' >"$WORK/udp.chain"
expect_exit 1 "replay: udp() makes a datagram socket from C" -- "$GC" replay "$T" "$WORK/udp.chain"
expect_fgrep "ESCAPE syscall network socket via udp()" "replay: the datagram socket is the escape"
echo 'ping()' >"$WORK/ping.chain"
expect_exit 1 "replay: the gate's own thread connects during ping()" -- \
  env GATECRASH_TEST_THREAD=1 "$GC" replay "$T" "$WORK/ping.chain"
expect_fgrep "ESCAPE syscall network connect via ping()" "replay: the thread's connect is the escape"
nothing_landed "ping() replayed"
# a Unix socket (a local daemon's: a session bus starts processes) from C in a chain step:
# refused, not an escape (no capability names it), no connection
"$PY" -I "$T/listener.py" "$WORK/unix-done" "$WORK/unix-said" "$WORK/unix.sock" >/dev/null &
UNIX_LISTENER=$!
while [[ ! -S $WORK/unix.sock ]] && kill -0 "$UNIX_LISTENER" 2>/dev/null; do sleep 0.05; done
echo 'unix()' >"$WORK/unix.chain"
expect_exit 0 "replay: unix() connecting to a Unix socket is blocked" -- \
  env GATECRASH_TEST_UNIX="$WORK/unix.sock" "$GC" replay "$T" "$WORK/unix.chain"
touch "$WORK/unix-done"
wait "$UNIX_LISTENER"
[[ $(cat "$WORK/unix-said") == "no connection" ]] && ok || fail "unix(): the Unix listener says: $(cat "$WORK/unix-said")"
# a policy that allows the network: still no connection, a refusal, no escape
expect_exit 0 "replay under network allowed: blocked" -- \
  "$GC" replay --sandbox "$T/hostile.py" --requires '{"subprocess": false}' "$WORK/noop.chain"
expect_grep "noop.chain: blocked" "network allowed: blocked"
nothing_landed "noop() under network allowed"
if [[ -x $BIN/fuzz_gate-test ]]; then
  expect_exit 1 "fuzz_gate-test: noop() is a finding" -- "$BIN/fuzz_gate-test" --target="$T" "$WORK/noop.chain"
  expect_grep "^DEDUP_TOKEN: syscall:network:connect" "fuzz_gate-test: the network escape's signature"
  nothing_landed "fuzz_gate-test noop()"
fi
touch "$WORK/done"
wait
finish
