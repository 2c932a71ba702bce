#!/usr/bin/env bash
# Source targets (source.h): every bad adapter, venv or program gets one clear line and a
# documented exit code (README, "Exit codes"), never a traceback or a hang: in replay, fuzz
# and triage.
source "$(dirname "$0")/lib.sh" "$@"
REQ='{"subprocess": false, "filesystem_writes": []}'
printf 'result = 1\n' >"$WORK/ok.py"
printf 'result = 1\xff\xfe\n' >"$WORK/nonutf8.py"
printf 'raise ValueError("boom at import")\n' >"$WORK/raising.py"
printf 'def other(source):\n    return 1\n' >"$WORK/noentry.py"
printf 'evaluate = 3\n' >"$WORK/notcallable.py"
printf 'def evaluate(source):\n    return 1\ndef roots():\n    return 42\n' >"$WORK/badroots.py"
printf 'while True:\n    pass\n' >"$WORK/hangimport.py"
printf 'def evaluate(source):\n    while True:\n        pass\n' >"$WORK/hangeval.py"
# garbage back: a list holding itself, nesting past any depth, an exception whose every
# attribute raises, an object whose __eq__ and __hash__ raise
cat >"$WORK/garbage.py" <<'PY'
class Hostile(Exception):
    def __getattribute__(self, name):
        raise RuntimeError("no")
    def __eq__(self, other):
        raise RuntimeError("no")
    __hash__ = None
def evaluate(source):
    loop = []
    loop.append(loop)
    deep = []
    for _ in range(100000):
        deep = [deep]
    if "raise" in source:
        raise Hostile(loop)
    return [loop, deep, Hostile(), {Hostile.__name__: Hostile()}]
PY
mkdir -p "$WORK/refusal" && cp "$WORK/badroots.py" "$WORK/refusal/adapter.py"
printf '{"kind": "source", "adapter": "adapter.py", "refusals": ["NoSuchError"], "requires": %s}\n' "$REQ" \
  >"$WORK/refusal/target.json"
mkdir -p "$WORK/nofile" && printf '{"kind": "source", "adapter": "gone.py", "requires": %s}\n' "$REQ" \
  >"$WORK/nofile/target.json"
mkdir -p "$WORK/venv399/lib/python3.99/site-packages" && printf 'home = /usr/bin\nversion = 3.99.0\n' \
  >"$WORK/venv399/pyvenv.cfg"
mkdir -p "$WORK/notavenv"

one_line_error() { # exactly one gatecrash error line, no traceback
  if [[ $(grep -c '^gatecrash: error: ' "$WORK/out") -eq 1 ]] && ! grep -q Traceback "$WORK/out"; then ok
  else fail "$1: not a one-line error"; sed 's/^/    /' "$WORK/out" >&2; fi
}
R=(replay -q)
A() { "$GC" "${R[@]}" --adapter "$1" --requires "$REQ" "${@:2}"; }
expect_exit 3 "adapter missing" -- A "$WORK/missing.py" "$WORK/ok.py"
expect_grep "error: adapter .*missing.py not found" "adapter missing"; one_line_error "adapter missing"
expect_exit 3 "adapter missing (target.json)" -- "$GC" "${R[@]}" "$WORK/nofile" "$WORK/ok.py"
expect_grep "error: adapter .*gone.py not found" "adapter missing (target.json)"
expect_exit 3 "adapter raises on import" -- A "$WORK/raising.py" "$WORK/ok.py"
expect_grep "error: importing .*raising.py raised ValueError: boom at import" "raising"; one_line_error "raising"
expect_exit 3 "adapter lacks the entry" -- A "$WORK/noentry.py" "$WORK/ok.py"
expect_grep "error: adapter .*noentry.py has no callable entry 'evaluate'" "no entry"; one_line_error "no entry"
expect_exit 3 "entry not callable" -- A "$WORK/notcallable.py" "$WORK/ok.py"
expect_grep "has no callable entry 'evaluate'" "entry not callable"
expect_exit 3 "roots() returns garbage" -- A "$WORK/badroots.py" "$WORK/ok.py"
expect_grep "error: adapter .*roots\(\) failed: it returned no list of names" "bad roots"; one_line_error "bad roots"
expect_exit 3 "unknown refusal exception" -- "$GC" "${R[@]}" "$WORK/refusal" "$WORK/ok.py"
expect_grep "error: refusal 'NoSuchError' is no exception class" "unknown refusal"
GATECRASH_IMPORT_TIMEOUT=1 expect_exit 3 "adapter hangs on import" -- A "$WORK/hangimport.py" "$WORK/ok.py"
expect_grep "error: .*hangimport.py did not finish importing" "hang on import"; one_line_error "hang on import"
# evaluate hangs: the per-input time limit stops it, a LIMIT finding, never an escape
expect_exit 5 "evaluate hangs (inconclusive)" -- A "$WORK/hangeval.py" "$WORK/ok.py"
expect_grep "ok.py: LIMIT timeout \(not an escape\)" "evaluate hangs"
# garbage back: searched within its bounds, no escape, no crash, no traceback
printf 'raise\n' >"$WORK/raise.py"
expect_exit 0 "evaluate returns garbage" -- A "$WORK/garbage.py" "$WORK/ok.py" "$WORK/raise.py"
expect_grep "ok.py: blocked \(returned list\)" "garbage returned"
expect_grep "raise.py: blocked \(raised Hostile\)" "garbage raised"
expect_no_grep "Traceback" "garbage"
# the program itself
printf 'def evaluate(source):\n    return None\n' >"$WORK/good.py"
expect_exit 2 "program not UTF-8" -- A "$WORK/good.py" "$WORK/nonutf8.py"
expect_grep "error: .*nonutf8.py: the program is not UTF-8 text" "program not UTF-8"
# venvs
expect_exit 2 "venv of another Python" -- A "$WORK/good.py" --venv "$WORK/venv399" "$WORK/ok.py"
expect_grep "error: venv .*venv399 is for Python 3.99, but this gatecrash embeds CPython $PYVER" "venv version"
one_line_error "venv version"
# a relative --venv is relative to where the command started (the process then moves into
# its scratch folder)
expect_exit 2 "relative venv" -- bash -c 'cd "$1" && shift && "$@"' _ "$WORK" "$GC" "${R[@]}" --adapter "$WORK/good.py" \
  --requires "$REQ" --venv venv399 "$WORK/ok.py"
expect_grep "error: venv $WORK/venv399 is for Python 3.99" "relative venv"
expect_exit 2 "venv missing" -- A "$WORK/good.py" --venv "$WORK/novenv" "$WORK/ok.py"
expect_grep "error: venv .*novenv not found" "venv missing"; one_line_error "venv missing"
expect_exit 2 "not a venv" -- A "$WORK/good.py" --venv "$WORK/notavenv" "$WORK/ok.py"
expect_grep "error: .*notavenv is not a virtual environment" "not a venv"
expect_exit 2 "--venv on a gate target" -- "$GC" "${R[@]}" --venv "$WORK/venv399" "$SRC/targets/station-1.5.0" "$WORK/ok.py"
expect_grep "error: --venv is for source targets" "--venv on a gate"
# fuzz and triage take source targets: the same bad adapters and venvs, the same one line
# and exit code, before any engine starts or any case is written
F=(fuzz --runs 2 --seed 1 --out "$WORK/fuzz-out")
printf '\x00\x01x\x0d' >"$WORK/crash-x"   # a crash input: the program x
Tr=(triage --out "$WORK/cases")
cmds=()
need fuzz_source && cmds+=(F) # fuzz's own checks come after the engine binary's
cmds+=(Tr)
for cmd in "${cmds[@]}"; do
  declare -n C=$cmd
  last=$([[ $cmd == F ]] && echo || echo "$WORK/crash-x")
  B() { "$GC" "${C[@]}" --adapter "$1" --requires "$REQ" "${@:2}" $last; }
  expect_exit 3 "${C[0]}: adapter missing" -- B "$WORK/missing.py"
  expect_grep "error: adapter .*missing.py not found" "${C[0]}: adapter missing"; one_line_error "${C[0]}: adapter missing"
  expect_exit 3 "${C[0]}: adapter raises on import" -- B "$WORK/raising.py"
  expect_grep "error: importing .*raising.py raised ValueError: boom at import" "${C[0]}: raising"
  one_line_error "${C[0]}: raising"
  expect_exit 3 "${C[0]}: adapter lacks the entry" -- B "$WORK/noentry.py"
  expect_grep "has no callable entry 'evaluate'" "${C[0]}: no entry"; one_line_error "${C[0]}: no entry"
  expect_exit 3 "${C[0]}: roots() returns garbage" -- B "$WORK/badroots.py"
  expect_grep "roots\(\) failed: it returned no list of names" "${C[0]}: bad roots"
  GATECRASH_IMPORT_TIMEOUT=1 expect_exit 3 "${C[0]}: adapter hangs on import" -- B "$WORK/hangimport.py"
  expect_grep "hangimport.py did not finish importing" "${C[0]}: hang on import"; one_line_error "${C[0]}: hang on import"
  expect_exit 2 "${C[0]}: venv of another Python" -- B "$WORK/good.py" --venv "$WORK/venv399"
  expect_grep "error: venv .*venv399 is for Python 3.99, but this gatecrash embeds CPython $PYVER" "${C[0]}: venv version"
  one_line_error "${C[0]}: venv version"
  # garbage back, a hanging evaluate: no escape, no traceback; triage goes on (exit 0), fuzz
  # stops before its engine with the probe's line (probe.h): no program can give a value back
  want=$([[ $cmd == F ]] && echo 3 || echo 0)
  expect_exit "$want" "${C[0]}: evaluate returns garbage" -- B "$WORK/garbage.py"
  expect_no_grep "Traceback|ESCAPE" "${C[0]}: garbage"
  [[ $cmd == F ]] && expect_grep "error: .*garbage.py: no program gives its value back, so fuzzing would find nothing: evaluate\('result = 1'\) gave list, not 1" "fuzz: garbage named"
  expect_exit "$want" "${C[0]}: evaluate hangs" -- B "$WORK/hangeval.py"
  expect_no_grep "Traceback|ESCAPE" "${C[0]}: evaluate hangs"
  [[ $cmd == F ]] && expect_grep "error: .*hangeval.py: .*evaluate\('result = 1'\) was stopped by the per-input time limit" "fuzz: hang named"
done
[[ ! -e $WORK/cases/target.json ]] && ok || fail "triage wrote into its case folder without a case"
expect_grep "^inconclusive crash-x: is inconclusive in a fresh process" "triage: a hanging evaluate is no escape"
expect_exit 2 "fuzz --engine afl on a source target" -- "$GC" fuzz --engine afl --out "$WORK/fuzz-out" \
  "$SRC/tests/fixtures/source/leak"
expect_grep "error: --engine afl does not take a source target" "afl on a source target"; one_line_error "afl"
# explain takes a source target (its program, what evaluate gave back, the verdict); what
# source mode cannot do is one line from its table (mode.h), exit 2
printf 'result = run\n' >"$WORK/leaks.py"
expect_exit 1 "explain on a source target" -- "$GC" explain "$SRC/tests/fixtures/source/leak" "$WORK/leaks.py"
expect_grep "^verdict: ESCAPE — reach spawn primitive os\.system reached" "explain: the verdict"
expect_grep "^  result = run$" "explain: the program"
# (advise, sweep --save and --close take a source target: tests/source_close_advise.sh)
finish
