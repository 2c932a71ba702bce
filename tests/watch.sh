#!/usr/bin/env bash
# The plain run under the kernel's eyes (triage/watch.h): an escape the harness saw below
# Python (kind syscall: a process or a connection made from C; kind landlock: a file written
# from C) has no audit event for the plain interpreter's hook, so its confirmation runs the
# interpreter under gatecrash-watch, which stops and names such calls between the
# reproducer's marks.  First the watch itself, then confirmations through replay.
source "$(dirname "$0")/lib.sh" "$@"
W=$BIN/gatecrash-watch
mkdir -p "$WORK/run" "$WORK/elsewhere"
cd "$WORK/run" || exit 1 # the watch's working folder; $WORK/elsewhere is outside it
# mark B|E: the reproducer's marks (escapes/reproduce.py, Run.in_chain)
cat >marks.py <<'PY'
import os, subprocess, sys
fd = int(os.environ["GATECRASH_WATCH_FD"])
def run(what):
    try:
        if what == "spawn":
            subprocess.run(["/bin/sh", "-c", "touch spawned"])
        elif what.startswith("write:"):
            open(what[6:], "w").close()
        print(what, "ran")
    except OSError as e:
        print(what, "refused:", e.strerror)
for what in sys.argv[1:]:
    if what in ("B", "E"):
        os.write(fd, what.encode())
    elif what.startswith("exit:"):
        sys.exit(int(what[5:]))
    else:
        run(what)
PY
expect_exit 3 "outside the marks: a spawn runs, and the program's exit status is the watch's" -- \
  "$W" --count spawn -- "$PY" -s marks.py spawn exit:3
[[ -e spawned ]] && ok || fail "the spawn outside the marks did not run"
rm -f spawned
expect_exit 1 "inside the marks: a spawn" -- "$W" --count spawn -- "$PY" -s marks.py B spawn E
expect_grep "^spawn refused: Operation not permitted$" "the program's spawn is refused"
expect_grep "^ESCAPE reproduced: syscall spawn (clone|fork|vfork|execve) \(.*\) below Python, via the evaluation$" \
  "and named, last"
[[ ! -e spawned ]] && ok || fail "a process was made inside the marks"
expect_exit 0 "inside the marks: a write in the working folder, one outside that no capability counts" -- \
  "$W" --count spawn -- "$PY" -s marks.py B write:here write:../elsewhere/there E
expect_grep "^write:here ran$" "the working folder is written"
expect_grep "^write:../elsewhere/there refused: Permission denied$" "outside it: refused, though not counted"
[[ -e here && ! -e ../elsewhere/there ]] && ok || fail "the write outside the working folder happened"
expect_exit 1 "a counted write outside" -- "$W" --count write -- "$PY" -s marks.py B write:"$WORK/elsewhere/there" E
expect_grep "^ESCAPE reproduced: landlock write openat \($WORK/elsewhere/there\) below Python" "named with its path"
expect_exit 0 "a write the policy allows (--allow-write) is refused, not counted" -- \
  "$W" --count write --allow-write "$WORK/else*" -- "$PY" -s marks.py B write:"$WORK/elsewhere/there" E
expect_no_grep "ESCAPE" "nothing named"
expect_exit 124 "a program that does not finish" -- "$W" --seconds 1 -- "$PY" -c 'import time; time.sleep(30)'
expect_grep "did not finish within 1 s" "says so"
expect_exit 2 "no program" -- "$W" --count spawn
expect_grep "^gatecrash-watch: usage:" "one usage line"
# Through replay: each fixture's hole made below Python, confirmed, and nothing made.
cd "$WORK" || exit 1
printf 'diagnostics.run()\n' >run.chain
expect_exit 1 "a process made from C (backstop)" -- env GATECRASH_TEST_MARKER="$WORK/marker" "$GC" replay -q \
  "$SRC/tests/fixtures/backstop" run.chain
expect_grep "ESCAPE syscall spawn" "the harness's escape"
expect_grep "run.chain: confirmed in a plain interpreter \(held by the program\)$" "confirmed under the watch"
[[ ! -e $WORK/marker ]] && ok || fail "the plain run's process touched the marker"
# the reproducer alone (a user's run, no watch around it): it refuses such a case, which it
# could neither see nor stop
mkdir -p alone
jq --arg s "$SRC/tests/fixtures/backstop/leaky_gate.py" '.sandbox = $s' "$SRC/tests/fixtures/backstop/target.json" >alone/target.json
printf '# kind: syscall\n# capability: spawn\n# primitive: vfork\ndiagnostics.run()\n' >alone/run.chain
expect_exit 2 "the reproducer without the watch" -- env GATECRASH_TEST_MARKER="$WORK/marker" "$PY" -s \
  "$SRC/escapes/reproduce.py" alone/run.chain
expect_grep "^error: a syscall escape is made below Python" "says why, in one line"
[[ ! -e $WORK/marker ]] && ok || fail "the reproducer alone made the process"
expect_exit 1 "the reproducer under the watch" -- env GATECRASH_TEST_MARKER="$WORK/marker" "$W" --count spawn -- \
  "$PY" -s "$SRC/escapes/reproduce.py" alone/run.chain
expect_grep "^ESCAPE reproduced: syscall spawn" "the watch names it"
[[ ! -e $WORK/marker ]] && ok || fail "the reproducer under the watch made the process"
printf 'save()\n' >save.chain
expect_exit 1 "a file written from C (confine)" -- env GATECRASH_TEST_VICTIM="$WORK/victim" "$GC" replay -q \
  "$SRC/tests/fixtures/confine" save.chain
expect_grep "ESCAPE landlock write" "the harness's escape"
expect_grep "save.chain: confirmed in a plain interpreter \(held by the program\)$" "confirmed under the watch"
compgen -G "$WORK/*victim*" >/dev/null && fail "the plain run wrote the victim" || ok
printf 'noop()\n' >noop.chain
expect_exit 1 "a connection made from C (fortress)" -- "$GC" replay -q "$SRC/tests/fixtures/fortress" noop.chain
expect_grep "noop.chain: confirmed in a plain interpreter \(held by the program\)$" "confirmed under the watch"
finish
