#!/usr/bin/env bash
# The case a person would write: triage's minimizer (source_triage.c, pass_inline) writes an
# alias `a = b` as b where a is used and drops the assignment, so a stored callable passed on
# through two names (`result = shell` / `f = result` / `list(filter(f, [result]))`, the
# fuzzer's own steps) is saved as the one statement `list(filter(shell, [shell]))`, printed in
# the target's dialect, and escapes/reproduce.py replays it as an escape.  The input is the
# program's encoding (program.h: NAME, ASSIGN, LIST, CALL and EXPR opcodes).
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/lang/stored-callable
printf '\x00\x05shell\x0e\x06result\x00\x06result\x0e\x01f\x00\x04list\x00\x06filter\x00\x01f\x00\x06result\x06\x01\x0a\x02\x0a\x01\x0d' \
  >"$WORK/alias.bin"
expect_exit 0 "triage of a program with two aliases" -- "$GC" triage "$T" --out "$WORK/cases" "$WORK/alias.bin"
expect_grep "^new +alias.bin: source:reach:os.system  list\(filter\(shell, \[shell\]\)\)$" "saved as one statement"
case=$(ls "$WORK/cases"/*.py 2>/dev/null | head -1)
if [[ -n $case ]] && [[ $(grep -v '^#' "$case") == "list(filter(shell, [shell]))" ]]; then ok; else
  fail "the case's program is the one statement: $(grep -v '^#' "$case" 2>/dev/null | tr '\n' '|')"
fi
grep -q "minimized from 3 to 1 statements" "$case" && ok || fail "the case's header says 3 to 1 statements"
expect_exit 1 "the case replays in a plain interpreter" -- "$PY" "$SRC/escapes/reproduce.py" "$case"
expect_grep "^ESCAPE reproduced: reach spawn os.system" "reproduce.py: the escape"
# pass_fold
printf '\x12\x01f\x00\x07summary\x08\x01e\x0f\x13\x00\x01f\x08\x04body\x02\x00\x09\x08\x05value\x08\x04attr\x01\x04%%s%%s\x01\x02__\x01\x09globals__\x07\x02\x26\x05\x37\x00\x01f\x0a\x00\x0e\x06result' \
  >"$WORK/tamper.bin"
expect_exit 0 "triage of a node field set to a string made from parts" -- "$GC" triage "$SRC/tests/fixtures/lang/node-tamper" \
  --out "$WORK/tamper" "$WORK/tamper.bin"
expect_fgrep "f.body[0].value.attr = '__globals__' \n result = f()" "the parts folded into the constant"
printf '\x00\x07getattr\x00\x07summary\x00\x03chr\x02\x5f\x0a\x01\x02\x02\x26\x02\x01\x0abuiltins__\x26\x00\x0a\x02\x0e\x06result' \
  >"$WORK/split.bin"
expect_exit 0 "triage of getattr of a name made from parts" -- "$GC" triage "$SRC/tests/fixtures/lang/split-constant" \
  --out "$WORK/split" "$WORK/split.bin"
expect_fgrep "result = getattr(summary, ('__' + 'builtins__'))" "split where the check of constants needs it, chr(95) * 2 folded"
finish
