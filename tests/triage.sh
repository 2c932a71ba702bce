#!/usr/bin/env bash
# Triage: noisy crash inputs minimize to the shortest known chain; cases are saved once,
# replay in a fresh process, and the runner replays them with plain CPython alone; a second run
# writes nothing; two runs at once lose nothing; garbage and non-reproducible inputs are
# reported, never saved.
source "$(dirname "$0")/lib.sh" "$@"
FX=$(crash_fixtures)
for t in station-1.5.0 station-advisory-fix; do
  expect_exit 0 "triage $t" -- "$GC" triage "$SRC/targets/$t" --out "$WORK/esc/$t" "$FX/$t"
  cp "$WORK/out" "$WORK/triage-$t.log"
  while read -r input chain; do
    [[ $input == "#"* || -z $input || ${input%%/*} != "$t" ]] && continue
    line=$(grep -E "^(new|known) +${input#*/}: " "$WORK/triage-$t.log")
    got=${line##*  }
    [[ $got == "$chain" ]] && ok || fail "$input minimized to [$got], want [$chain]"
  done <"$FX/expected.txt"
done

cp "$WORK/triage-station-1.5.0.log" "$WORK/out"
expect_grep "triage of 6 input\(s\) into .*: 5 new, 1 known, 0 not reproducible \(flaky\), 0 rejected" "station summary"

# saved cases: header, strict replay in a fresh process, the runner with plain CPython alone;
# the standalone reproducer only on request (--standalone)
case=$WORK/esc/station-1.5.0/reach-spawn-os.system-via-modattr.chain
[[ -f $case && ! -e ${case%.chain}.py && -f $WORK/esc/station-1.5.0/target.json ]] && ok ||
  fail "case files for os.system via modattr: the .chain and the folder's target.json, no .py"
for key in target policy kind capability primitive signature python date found-by; do
  grep -q "^# $key: " "$case" && ok || fail "case header lacks $key"
done
grep -q '^# signature: reach:spawn:os.system:modattr$' "$case" && ok || fail "signature header"
expect_exit 0 "saved cases still escape (fresh process)" -- "$GC" replay -q --expect escape "$SRC/targets/station-1.5.0" "$WORK/esc/station-1.5.0"
for c in "$WORK"/esc/station-1.5.0/*.chain; do
  expect_exit 1 "runner on $(basename "$c")" -- "$PY" -I "$SRC/escapes/reproduce.py" "$c"
  expect_grep "^ESCAPE reproduced: " "runner message $(basename "$c")"
done
expect_exit 0 "standalone: triage --standalone" -- "$GC" triage "$SRC/targets/station-1.5.0" --standalone --out "$WORK/alone" "$case"
py=$WORK/alone/$(basename "${case%.chain}").py
expect_exit 1 "standalone reproducer, python alone" -- "$PY" -I "$py" "$SRC/targets/station-1.5.0/module_sandbox.py"
expect_grep "^ESCAPE reproduced: reach spawn os.system via subprocess.os.system" "standalone message"
expect_exit 0 "a standalone reproducer against the fixed gate says blocked" -- "$PY" -I "$py" "$SRC/targets/station-advisory-fix/module_sandbox.py"
expect_grep "^blocked" "blocked message"
expect_exit 2 "a standalone reproducer without its argument" -- "$PY" -I "$py"
# '_' as a call's argument: the case keeps the statement it reads, and the runner passes
# that statement's value (getattr(None, 'system') would be no escape)
mkdir -p "$WORK/prev-in"
printf "os.path\nsubprocess.os\n__builtins__['getattr'](_, 'system')\n" >"$WORK/prev-in/crash-prev"
expect_exit 0 "triage of a chain with a '_' argument" -- "$GC" triage "$SRC/targets/station-1.5.0" --standalone --out "$WORK/prev" "$WORK/prev-in"
expect_grep "^new +crash-prev: reach:spawn:os.system:modattr\+builtins\+call  subprocess.os; __builtins__\['getattr'\]\(_, 'system'\)$" "the '_' case"
c=$WORK/prev/reach-spawn-os.system-via-modattr+builtins+call.chain
expect_exit 1 "runner on the '_' case" -- "$PY" -I "$SRC/escapes/reproduce.py" "$c"
expect_grep "^ESCAPE reproduced: reach spawn os.system via subprocess.os; __builtins__\['getattr'\]\(_, 'system'\)" "runner message, '_' case"
expect_exit 1 "standalone reproducer of the '_' case" -- "$PY" -I "${c%.chain}.py" "$SRC/targets/station-1.5.0/module_sandbox.py"

# a call that raises yields its exception, and chains walk its traceback: the harness calls the
# handler from C (the traceback starts at the handler's frame, its tb_next is the gate's) and
# refuses open(fd) (Blocked, raised inside the gate's frame); the runner must agree on both, as
# its plain-CPython run is a condition of saving the case
mkdir -p "$WORK/tb"
printf "open('/x', 'w').__traceback__.tb_next.tb_frame.f_globals['_real_builtins'].open\n" >"$WORK/tb/crash-raise"
printf "open(2).__traceback__.tb_next.tb_frame.f_locals['_real_open']\n" >"$WORK/tb/crash-fd"
for i in raise fd; do
  expect_exit 0 "triage of a traceback walk ($i)" -- "$GC" triage "$SRC/targets/station-1.5.0" --standalone \
    --out "$WORK/esc-tb-$i" "$WORK/tb/crash-$i"
  expect_grep "^new +crash-$i: reach:write:builtins.open:.*exception  open\(.*\)\.__traceback__\.tb_next\.tb_frame\." \
    "triage saves the traceback walk ($i)"
  expect_exit 0 "the saved case escapes in a fresh process ($i)" -- "$GC" replay -q --expect escape \
    "$SRC/targets/station-1.5.0" "$WORK/esc-tb-$i"
  py=$(ls "$WORK/esc-tb-$i"/*.py 2>/dev/null | head -1)
  expect_exit 1 "its standalone reproducer, python alone ($i)" -- "$PY" -I "${py:-/dev/null}" \
    "$SRC/targets/station-1.5.0/module_sandbox.py"
done

# the harness imports none of its primitive table's modules for the host (docs/ORACLES.md,
# the primitive table): lookup-hard's gate imports neither subprocess nor selectors, so a
# class walk to selectors.BaseSelector finds nothing, as in the host (it escaped when the
# harness imported subprocess, and so selectors, before the gate loaded)
mkdir -p "$WORK/mods"
printf "_.__class__.__base__.__subclasses__()[@BaseSelector].unregister.__builtins__['open']\n" >"$WORK/mods/crash-sel"
expect_exit 0 "a class walk to a class of a module only the harness would import: no escape" -- \
  "$GC" replay "$SRC/targets/lookup-hard" "$WORK/mods/crash-sel"
expect_no_grep "ESCAPE" "the walk to selectors.BaseSelector: nothing there"

# an [N] into a list ordered by what the process imported (object.__subclasses__()) picks
# another class in plain CPython: triage saves the pick by name ([@Popen]), which the runner
# finds there too.  The gate hands out the list and Popen's index in this harness's process.
mkdir -p "$WORK/pos/gate" "$WORK/pos/in"
cat >"$WORK/pos/gate/pos_gate.py" <<'PY'
import subprocess


def install_restrictions(ns, requires, module_id):
    ns["classes"] = object.__subclasses__()
    ns["at"] = ns["classes"].index(subprocess.Popen)
PY
printf '{"name": "positional", "sandbox": "pos_gate.py", "requires": {"subprocess": false}}\n' \
  >"$WORK/pos/gate/target.json"
"$GC" explain "$WORK/pos/gate" <(printf 'at\n') >"$WORK/out" 2>&1
at=$(sed -n 's/^ *-> int  *\([0-9][0-9]*\).*/\1/p' "$WORK/out" | head -1)
printf 'classes[%s]\n' "${at:-0}" >"$WORK/pos/in/crash-pos"
expect_exit 0 "triage of classes[$at] (Popen in this process)" -- "$GC" triage "$WORK/pos/gate" --standalone \
  --out "$WORK/esc-pos" "$WORK/pos/in"
expect_grep "^new +crash-pos: reach:spawn:subprocess.Popen:.*  classes\[@Popen\]$" "triage saves the pick by name"
expect_exit 0 "the named case escapes in a fresh process" -- "$GC" replay -q --expect escape "$WORK/pos/gate" "$WORK/esc-pos"
py=$(ls "$WORK/esc-pos"/*.py 2>/dev/null | head -1)
expect_exit 1 "its standalone reproducer, python alone" -- "$PY" -I "${py:-/dev/null}" "$WORK/pos/gate/pos_gate.py"

# a second run writes nothing
snap() { (cd "$WORK/esc" && find . -type f -printf '%p %s %T@\n' | sort); }
before=$(snap)
expect_exit 0 "second triage" -- "$GC" triage "$SRC/targets/station-1.5.0" --out "$WORK/esc/station-1.5.0" "$FX/station-1.5.0"
expect_grep ": 0 new, 6 known" "second run: everything known"
[[ $(snap) == "$before" ]] && ok || fail "the second triage changed the case folder"

# two processes at once on overlapping crash folders: every case once, no debris
mkdir -p "$WORK/a" "$WORK/b"
cp -R "$FX"/station-1.5.0/* "$WORK/a/"; cp "$FX"/station-1.5.0/crash-* "$WORK/b/"
cp "$FX"/station-1.5.0/constructed-noisy-sys-modules "$WORK/b/"
[[ -d $FX/station-1.5.0/resolved ]] && cp -R "$FX/station-1.5.0/resolved" "$WORK/b/"
"$GC" triage "$SRC/targets/station-1.5.0" --out "$WORK/conc" "$WORK/a" >"$WORK/ta.log" 2>&1 &
"$GC" triage "$SRC/targets/station-1.5.0" --out "$WORK/conc" "$WORK/b" >"$WORK/tb.log" 2>&1
wait
n=$(ls "$WORK/conc"/*.chain | wc -l)
[[ $n -eq 5 ]] && ok || fail "concurrent triage saved $n cases, want 5"
[[ -z $(ls -A "$WORK/conc" | grep -vE '(\.chain|^target\.json)$') ]] && ok || fail "debris left: $(ls -A "$WORK/conc")"
new=$(cat "$WORK/ta.log" "$WORK/tb.log" | grep -c '^new ')
[[ $new -eq 5 ]] && ok || fail "the two runs reported $new new cases, want 5 (each once)"
expect_exit 0 "concurrently saved cases replay" -- "$GC" replay -q --expect escape "$SRC/targets/station-1.5.0" "$WORK/conc"

# each input's fresh-process run starts while the one before is minimized (gc_confirm_ahead):
# the verdicts stay each input's own, in order, with one that does not escape and garbage
# between escapes
mkdir -p "$WORK/mix"
printf 'subprocess.os.system\n' >"$WORK/mix/a-escape"
printf 'os.path\n' >"$WORK/mix/b-blocked"
printf 'subprocess.os.popen\n' >"$WORK/mix/c-escape"
printf '\xff\xfe\x00\x01' >"$WORK/mix/d-garbage"
printf 'os.path.sep\n' >"$WORK/mix/e-blocked"
printf 'subprocess.os.system\n' >"$WORK/mix/f-escape"
expect_exit 0 "triage of a mixed folder" -- "$GC" triage "$SRC/targets/station-1.5.0" --out "$WORK/esc-mix" "$WORK/mix"
got=$(grep -oE '^[a-z]+ +[a-f]-[a-z]+' "$WORK/out" | tr -s ' ' | paste -sd, -)
want="new a-escape,flaky b-blocked,new c-escape,rejected d-garbage,flaky e-blocked,known f-escape"
[[ $got == "$want" ]] && ok || fail "mixed folder: verdicts [$got], want [$want]"

# garbage is rejected, a crash that does not reproduce is flaky; neither is saved
mkdir -p "$WORK/bad"
printf '\xff\xfe\x00\x01' >"$WORK/bad/garbage"
printf 'os.path\n' >"$WORK/bad/not-an-escape"
expect_exit 0 "triage of garbage" -- "$GC" triage "$SRC/targets/station-1.5.0" --out "$WORK/esc-bad" "$WORK/bad"
expect_grep "^rejected +garbage" "garbage rejected"
expect_grep "^flaky +not-an-escape: does not escape in a fresh process" "non-reproducing input reported"
expect_grep "0 new, 0 known, 1 not reproducible \(flaky\), 1 rejected" "summary of the bad inputs"
[[ -z $(ls -A "$WORK/esc-bad") ]] && ok || fail "something was saved from bad inputs"
finish
