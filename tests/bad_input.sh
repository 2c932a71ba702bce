#!/usr/bin/env bash
# Every bad input: one clear line, a documented exit code, never a traceback.
source "$(dirname "$0")/lib.sh" "$@"
ST=$SRC/targets/station-1.5.0/module_sandbox.py
printf 'os.path\n' >"$WORK/ok.chain"
printf 'raise ValueError("boom at import")\n' >"$WORK/raising.py"
printf 'def unrelated():\n    pass\n' >"$WORK/noentry.py"
printf 'import sys\nsys.exit(7)\n' >"$WORK/exits.py"
printf 'os.path\xff\xfe\n' >"$WORK/nonutf8.chain"
printf 'os.path[\n' >"$WORK/garbage.chain"
head -c 20000 /dev/urandom >"$WORK/random.chain"
printf '' >"$WORK/empty.chain"
mkdir -p "$WORK/trunc" && printf '{"sandbox": "%s", "requires": {"subpro' "$ST" >"$WORK/trunc/target.json"

one_line_error() { # the output is exactly one gatecrash error line (plus the replay summary)
  if [[ $(grep -c '^gatecrash: error: ' "$WORK/out") -ge 1 ]] && ! grep -q Traceback "$WORK/out"; then ok
  else fail "$1: not a one-line error"; sed 's/^/    /' "$WORK/out" >&2; fi
}
R=(replay -q)
expect_exit 3 "missing sandbox file" -- "$GC" "${R[@]}" --sandbox "$WORK/missing.py" --requires '{"subprocess": false}' "$WORK/ok.chain"
expect_grep "sandbox module .*missing.py not found" "missing module named"; one_line_error "missing module"
expect_exit 3 "module raising on import" -- "$GC" "${R[@]}" --sandbox "$WORK/raising.py" --requires '{}' "$WORK/ok.chain"
expect_grep "raised ValueError: boom at import" "the exception, on one line"; one_line_error "raising module"
expect_exit 3 "module calling sys.exit on import" -- "$GC" "${R[@]}" --sandbox "$WORK/exits.py" --requires '{}' "$WORK/ok.chain"
expect_grep "raised SystemExit: 7" "SystemExit is caught"
expect_exit 3 "missing install entry" -- "$GC" "${R[@]}" --sandbox "$WORK/noentry.py" --requires '{}' "$WORK/ok.chain"
expect_grep "no callable install entry 'install_restrictions'" "entry named"; one_line_error "missing entry"
expect_exit 2 "requires: wrong type" -- "$GC" "${R[@]}" --sandbox "$ST" --requires '{"subprocess": "no"}' "$WORK/ok.chain"
expect_grep "requires.subprocess must be true or false" "type error named"; one_line_error "wrong type"
expect_exit 2 "requires: globs not strings" -- "$GC" "${R[@]}" --sandbox "$ST" --requires '{"filesystem_writes": [1]}' "$WORK/ok.chain"
expect_exit 2 "requires: unknown key" -- "$GC" "${R[@]}" --sandbox "$ST" --requires '{"subprocess": false, "gpu": true}' "$WORK/ok.chain"
expect_grep "unknown key 'gpu'" "unknown key named"; one_line_error "unknown key"
expect_exit 2 "requires: not JSON" -- "$GC" "${R[@]}" --sandbox "$ST" --requires '{"subprocess": fal' "$WORK/ok.chain"
expect_exit 2 "requires: not an object" -- "$GC" "${R[@]}" --sandbox "$ST" --requires '[]' "$WORK/ok.chain"
expect_exit 2 "requires from a missing @FILE" -- "$GC" "${R[@]}" --sandbox "$ST" --requires "@$WORK/nope.json" "$WORK/ok.chain"
expect_exit 2 "truncated target.json" -- "$GC" "${R[@]}" "$WORK/trunc" "$WORK/ok.chain"
expect_grep "target.json is not a valid JSON object" "truncated target.json named"; one_line_error "truncated target.json"
expect_exit 2 "non-UTF-8 chain file" -- "$GC" "${R[@]}" "$SRC/targets/station-1.5.0" "$WORK/nonutf8.chain"
expect_grep "nonutf8.chain:1:8: not valid UTF-8" "position of the bad byte"
expect_exit 2 "garbage chain file" -- "$GC" "${R[@]}" "$SRC/targets/station-1.5.0" "$WORK/garbage.chain"
expect_grep "garbage.chain:1:9: expected a string" "position of the syntax error"
expect_exit 2 "random bytes as a chain file" -- "$GC" "${R[@]}" "$SRC/targets/station-1.5.0" "$WORK/random.chain"
expect_exit 2 "empty chain file" -- "$GC" "${R[@]}" "$SRC/targets/station-1.5.0" "$WORK/empty.chain"
expect_exit 2 "unreadable corpus/chain path" -- "$GC" "${R[@]}" "$SRC/targets/station-1.5.0" "$WORK/nowhere"
expect_exit 0 "random bytes decoded as fuzz input (--raw) do not crash" -- "$GC" "${R[@]}" --raw "$SRC/targets/station-1.5.0" "$WORK/random.chain"
expect_exit 2 "unknown command" -- "$GC" frobnicate
expect_exit 2 "fuzz with an unreadable corpus" -- "$GC" fuzz "$SRC/targets/station-1.5.0" --corpus "$WORK/nowhere" --time 1 --out "$WORK/o"
need fuzz_gate || { finish; exit; }
expect_exit 2 "fuzz_gate with a malformed requires" -- "$FUZZ" --sandbox="$ST" --requires='{"subprocess": 1}' -runs=1
expect_exit 3 "fuzz_gate with a missing module" -- "$FUZZ" --sandbox="$WORK/missing.py" --requires='{}' -runs=1
finish
