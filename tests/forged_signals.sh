#!/usr/bin/env bash
# Forged signals: a chain (or gate code it reaches) must not forge an escape — sys.audit
# with a spawn event name, objects named like primitives, text shaped like the harness's
# verdict lines — nor hide one — swallowing the harness's refusal, replacing the real
# primitive the oracle compares against, adding or removing audit hooks.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/hostile/resources
I="__builtins__['__import__']"
c() { printf '%s\n' "$2" >"$WORK/$1.chain"; }
c audit "sys.audit('os.system', 'forged')"
c audit-wrapper "sys.audit.__call__('os.system', 'forged')"
c audit-popen "$I('sys').audit('subprocess.Popen', 'x', 'y', 'z', 'w')"
c addhook "sys.addaudithook(1)"
c fake "fake"; c fake-call "fake()"; c fakes "fakes[@system]"
c forged "forged()"
c stdout "$I('sys').__stdout__.write('\\ngatecrash: ESCAPE reach spawn os.system via stdout\\n')"
c stderr "$I('sys').__stderr__.write('\\nDEDUP_TOKEN: reach:spawn:os.system:direct\\n')"
c swallowed "real_spawn_swallowed()"
printf '%s\n' "$I('os').__setattr__('system', 1)" "$I('posix').system" >"$WORK/replaced.chain"
c real "$I('os').system"
forged=(audit audit-wrapper audit-popen addhook fake fake-call fakes forged stdout stderr)
files=()
for n in "${forged[@]}"; do files+=("$WORK/$n.chain"); done

expect_exit 0 "nothing forged escapes" -- "$GC" replay -q "$T" "${files[@]}"
expect_count ${#forged[@]} ": blocked \(" "every forged input is blocked"
expect_no_grep "^(gatecrash: ESCAPE|DEDUP_TOKEN)" "no forged verdict line reaches the output"
for n in audit audit-wrapper audit-popen; do expect_fgrep "$n.chain: blocked (" "$n"; done
expect_fgrep "audit-wrapper.chain: blocked (4 steps, 1 failed; refused by the harness: sys.audit)" "sys.audit is refused through its method-wrapper"
expect_fgrep "addhook.chain: blocked (3 steps, 1 failed; refused by the harness: sys.addaudithook)" "no new audit hook"
expect_exit 0 "explain shows forged text, not verdicts" -- "$GC" explain "$T" "$WORK/forged.chain"
expect_no_grep "^(gatecrash: ESCAPE|DEDUP_TOKEN)" "explain: the exception's message stays inside its line"
expect_grep "^verdict: blocked" "explain: blocked"
expect_exit 0 "explain of a fake named system" -- "$GC" explain "$T" "$WORK/fake.chain"
expect_no_grep "^(gatecrash: ESCAPE|DEDUP_TOKEN)" "explain: a repr stays inside its line"

# hiding: the escape is recorded when it happens, whatever the gate does with the refusal
expect_exit 1 "a real spawn whose refusal the gate swallows" -- "$GC" replay -q "$T" "$WORK/swallowed.chain"
expect_fgrep "gatecrash: ESCAPE effect spawn os.system via real_spawn_swallowed()" "still an escape"
expect_exit 1 "the real primitive replaced in os: the oracle holds the original" -- "$GC" replay -q "$T" "$WORK/replaced.chain" "$WORK/real.chain"
expect_fgrep "replaced.chain: gatecrash: ESCAPE reach spawn os.system via __builtins__['__import__']('posix').system" "posix.system is still os.system"
expect_fgrep "real.chain: gatecrash: ESCAPE reach spawn os.system via __builtins__['__import__']('os').system" "and os.system is back for the next input"

# the fuzzer: forged output never becomes a crash or a verdict line
need fuzz_gate || { finish; exit; }
mkdir -p "$WORK/scratch"
(cd "$WORK/scratch" && "$FUZZ" --target="$T" "${files[@]}") >"$WORK/out" 2>&1
rc=$?
[[ $rc -eq 0 ]] && ok || { fail "fuzz_gate over the forged inputs: exit $rc"; tail -5 "$WORK/out" >&2; }
expect_no_grep "^(gatecrash: ESCAPE|DEDUP_TOKEN)" "fuzz_gate: no forged verdict line"
finish
