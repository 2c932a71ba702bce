#!/usr/bin/env bash
# Effect mode on a gate that enforces with its own audit hook: the gate refuses first,
# and only what it lets through is an escape.  Nothing is ever spawned or written.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/targets/audit-gate
C=$WORK/canary
mkdir -p "$C" && echo keep >"$C/victim"
printf "os.system('touch %s/spawned')\n" "$C" >"$WORK/system.chain"
printf "os.rename('%s/victim', '%s/moved')\n" "$C" "$C" >"$WORK/rename.chain"
printf "os.remove('%s/victim')\n" "$C" >"$WORK/remove.chain"
printf "os.symlink('/etc/passwd', '%s/link')\n" "$C" >"$WORK/symlink.chain"
printf "subprocess._fork_exec()\n" >"$WORK/forkexec.chain"

expect_exit 0 "the gate's hook refuses os.system" -- "$GC" replay -q "$T" "$WORK/system.chain"
expect_grep "blocked" "os.system refused by the gate"
expect_exit 0 "the gate's hook refuses os.remove outside the allowlist" -- "$GC" replay -q "$T" "$WORK/remove.chain"
expect_exit 1 "the gate lets os.rename through: an effect escape" -- "$GC" replay -q "$T" "$WORK/rename.chain"
expect_grep "ESCAPE effect write os.rename via os.rename\(" "effect escape line"
expect_exit 1 "os.symlink is let through too" -- "$GC" replay -q "$T" "$WORK/symlink.chain"
expect_exit 1 "an unaudited spawn primitive is caught before the call" -- "$GC" replay -q "$T" "$WORK/forkexec.chain"
expect_grep "ESCAPE reach spawn _posixsubprocess.fork_exec" "fork_exec"
# and none of it took effect
[[ -f $C/victim && ! -e $C/moved && ! -e $C/spawned && ! -e $C/link ]] && ok || fail "an escape took effect: $(ls "$C")"
# the same gate in reach mode: its real modules are escapes on sight
expect_exit 1 "reach mode on the audit gate" -- "$GC" replay -q --mode reach "$T" "$WORK/system.chain"
expect_grep "ESCAPE reach spawn os.system via os.system" "reach of the real os.system"
finish
