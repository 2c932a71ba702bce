#!/usr/bin/env bash
# With a policy that allows everything: no escape is reported, and nothing takes effect:
# no process is spawned and no file outside scratch changes, by replays aimed at a canary
# folder and by a bounded fuzz run traced with strace.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/targets/station-1.5.0-allow-all
C=$WORK/canary
mkdir -p "$C" && echo keep >"$C/victim"
cat >"$WORK/attack.chain" <<CH
subprocess.os.system('touch $C/spawned-system')
subprocess.getoutput('touch $C/spawned-getoutput')
subprocess.Popen('/usr/bin/touch')
__builtins__['open']('$C/written-open', 'w')
os.sys.modules['os'].remove('$C/victim')
os.sys.modules['os'].mkdir('$C/made-dir')
os.sys.modules['os'].symlink('/etc/passwd', '$C/link')
subprocess.os.open('$C/written-os-open', 577)
os.sys.modules['shutil'].copyfile('/etc/hostname', '$C/copied')
__builtins__['__import__']('sqlite3').connect('$C/db.sqlite')
os.sys.modules['os'].rmdir('')
CH
# writes that resolve outside scratch only through links made inside it
cat >"$WORK/links.chain" <<CH
os.sys.modules['os'].symlink('$C/through-dangling-link', 'dangling')
__builtins__['open']('dangling', 'w')
os.sys.modules['os'].symlink('$C/sub', 'dir')
__builtins__['open']('dir/../through-dotdot', 'w')
os.sys.modules['os'].link('$C/victim', 'hard')
__builtins__['open']('hard', 'w')
CH
mkdir -p "$C/sub"
expect_exit 0 "attack chains under allow-all" -- traced -f -qq -e trace=execve,vfork,fork -o "$WORK/strace.log" \
  "$GC" replay -q "$T" "$WORK/attack.chain"
expect_count 0 "ESCAPE" "no escape when everything is allowed"
expect_grep "refused by the harness" "allowed spawns are refused by the harness"
expect_exit 0 "writes through links made in scratch" -- "$GC" replay -q "$T" "$WORK/links.chain"
expect_count 0 "ESCAPE" "no escape when everything is allowed (links)"
[[ -f $C/victim && $(cat "$C/victim") == keep && $(ls "$C" | tr '\n' ' ') == "sub victim " ]] && ok \
  || fail "something took effect in the canary folder: $(ls "$C")"
execs=$(grep -c 'execve(' "$WORK/strace.log")
[[ $execs -eq 1 ]] && ok || fail "processes were started: $(grep execve "$WORK/strace.log")"
grep -qE '(^| )(v?fork)\(' "$WORK/strace.log" && fail "a fork happened" || ok

# a bounded campaign: zero escapes, and only the engine's own processes
need fuzz_gate || { finish; exit; }
touch "$WORK/marker"
expect_exit 0 "bounded fuzz run under allow-all" -- traced -f -qq -e trace=execve -o "$WORK/strace2.log" \
  "$GC" fuzz "$T" --runs 3000 --time 120 --seed 7 --out "$WORK/fuzzout"
expect_grep "^0 escape input\(s\), 0 distinct" "zero escapes"
others=$(grep 'execve(' "$WORK/strace2.log" | grep -vE 'execve\("[^"]*/(gatecrash|fuzz_gate|sh|llvm-symbolizer[-0-9]*)"' || true)
[[ -z $others ]] && ok || fail "processes other than the engine's: $others"
changed=$(find "$SRC" "$C" -newer "$WORK/marker" -type f 2>/dev/null | grep -v "^$BIN/" || true)
[[ -z $changed ]] && ok || fail "files changed outside scratch: $changed"
finish
