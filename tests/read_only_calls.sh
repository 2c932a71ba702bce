#!/usr/bin/env bash
# A call of a write primitive whose arguments cannot write is no write escape, in source mode
# as in chain mode, reach and effect mode alike; a call that writes still is, with its path,
# and so is the primitive itself given back (reach mode).  docs/ORACLES.md, "Calls of write
# primitives".
#   - tests/fixtures/source/safe/leak on the leak adapter: warnings whose display reads a
#     source file through linecache (Python-level, from code compiled with a real file name,
#     the compiler's own), reads through every open of the table, read-only maps, formatting,
#     raising and catching: 0 escapes;
#   - writes on the same adapter (open 'w' 'a' 'x' 'r+', io.FileIO 'w', pathlib, os.open with
#     a write flag): effect escapes naming the path, and nothing is written; `result = open`
#     stays a reach escape in reach mode;
#   - a glob that grants the path: that write is no escape, another path still is;
#   - chains on tests/fixtures/reader, a gate whose own functions read, warn and write, and
#     which hands out the real builtins: the reads and the warning are no escape, the write
#     is; __builtins__['open'] is a reach escape on sight in reach mode, and in effect mode
#     reading through it is none and writing through it is one.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/leak
safe=("$SRC"/tests/fixtures/source/safe/leak/*.py)
for mode in reach effect; do
  expect_exit 0 "$mode: known-safe programs" -- "$GC" replay -q --mode $mode "$T" "${safe[@]}"
  expect_no_grep "ESCAPE" "$mode: no false positive"
  expect_grep "replayed ${#safe[@]}: 0 escaped, ${#safe[@]} blocked, 0 unreadable" "$mode: tally"
  # each warning's assert checks that linecache did read the file
  for p in warn_linecache warn_compiled warn_c_level; do
    expect_fgrep "$p.py: blocked (returned int)" "$mode: $p: shown, its source line read"
  done
  expect_fgrep "read_file.py: blocked (returned list)" "$mode: the reads ran"
  expect_fgrep "mmap_read.py: blocked (returned bytes)" "$mode: the read-only maps ran"
done

# writes: still escapes, the path in the detail, whatever the mode; nothing written
C=$WORK/canary && mkdir -p "$C" && echo keep >"$C/victim"
P=$WORK/programs && mkdir -p "$P"
w=0
write_case() { # write_case PATH-IN-DETAIL PROGRAM
  w=$((w + 1))
  printf '%s\n' "$2" >"$P/write$w.py"
  wdetail[w]=$1
}
write_case "$C/new-w" "open('$C/new-w', 'w')"
write_case "$C/victim" "open('$C/victim', 'a')"
write_case "$C/new-x" "open('$C/new-x', 'xb')"
write_case "$C/victim" "open('$C/victim', 'r+')"
write_case "$C/new-fileio" "__import__('io').FileIO('$C/new-fileio', 'w')"
write_case "$C/new-pathlib" "__import__('pathlib').Path('$C/new-pathlib').write_text('x')"
write_case "$C/new-os-open" "import os; os.open('$C/new-os-open', os.O_WRONLY | os.O_CREAT)"
write_case "$C/victim" "import os; os.open('$C/victim', os.O_RDWR)"
write_case "$C/victim" "import os; os.open('$C/victim', os.O_RDONLY | os.O_TRUNC)"
write_case "$C/victim" "import os; os.open('$C/victim', os.O_RDONLY | os.O_APPEND)"
printf 'result = open\n' >"$P/value.py"
for mode in reach effect; do
  for i in $(seq 1 $w); do
    expect_exit 1 "$mode: write $i ($(cat "$P/write$i.py"))" -- "$GC" replay -q --mode $mode "$T" "$P/write$i.py"
    expect_fgrep "write$i.py: gatecrash: ESCAPE effect write open via " "$mode: write $i: an escape"
    expect_fgrep " (${wdetail[i]})" "$mode: write $i: its path"
  done
done
[[ $(ls "$C") == victim && $(cat "$C/victim") == keep ]] && ok || fail "a write took effect: $(ls "$C")"
expect_exit 1 "reach: the primitive given back" -- "$GC" replay -q "$T" "$P/value.py"
expect_fgrep "value.py: gatecrash: ESCAPE reach write builtins.open via result = open (in the value evaluate gave back, at result)" \
  "reach: the primitive given back is the escape"
expect_exit 0 "effect: the primitive given back is no effect" -- "$GC" replay -q --mode effect "$T" "$P/value.py"

# the policy's globs decide a write, as for a gate: the granted one is no escape
printf "open('granted-1', 'w').write('x')\nresult = open('granted-1').read()\n" >"$P/granted.py"
G=(replay -q --adapter "$T/adapter.py" --requires '{"subprocess": false, "filesystem_writes": ["*/granted-*"]}')
for mode in reach effect; do
  expect_exit 0 "$mode: a write the globs grant" -- "$GC" "${G[@]}" --mode $mode "$P/granted.py"
  expect_fgrep "granted.py: blocked (returned str)" "$mode: the granted write ran"
  expect_exit 1 "$mode: a write they do not" -- "$GC" "${G[@]}" --mode $mode "$P/write1.py"
  expect_fgrep "write1.py: gatecrash: ESCAPE effect write open via " "$mode: the other write is an escape"
done
# os.open's audit event has no dir_fd: a relative path it writes may be in any folder (here
# one outside scratch, opened for reading), so it is no granted path; with Landlock off too
O=$WORK/outside && mkdir -p "$O"
printf "import os\nd = os.open('%s', os.O_RDONLY)\nos.open('granted-2', os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=d)\n" "$O" >"$P/dirfd.py"
for confine in yes no; do
  for mode in reach effect; do
    if [[ $confine == yes ]]; then envs=(env -u GATECRASH_NO_CONFINE); else envs=(env GATECRASH_NO_CONFINE=1); fi
    expect_exit 1 "$mode, Landlock $confine: os.open relative to a dir_fd" -- "${envs[@]}" "$GC" "${G[@]}" --mode $mode "$P/dirfd.py"
    expect_fgrep "dirfd.py: gatecrash: ESCAPE effect write open via " "$mode, Landlock $confine: an escape"
    expect_fgrep " ('granted-2')" "$mode, Landlock $confine: named by its argument, the folder unknown"
  done
done
[[ -z $(ls "$O") ]] && ok || fail "os.open with a dir_fd wrote outside scratch: $(ls "$O")"

# chain mode on a gate: the same verdicts
R=$SRC/tests/fixtures/reader
F=$R/reading_gate.py
printf "peek('%s')\n" "$F" >"$WORK/peek.chain"
printf "lines('%s')\n" "$F" >"$WORK/lines.chain"
printf "warn('gatecrash chain warning')\n" >"$WORK/warn.chain"
printf "save('%s/saved')\n" "$C" >"$WORK/save.chain"
printf "__builtins__['open']('%s')\n" "$F" >"$WORK/open_r.chain"
printf "__builtins__['open']('%s', 'rb')\n" "$F" >"$WORK/open_rb.chain"
printf "__builtins__['open']('%s/opened', 'w')\n" "$C" >"$WORK/open_w.chain"
for mode in reach effect; do
  expect_exit 0 "chains, $mode: the gate's reads and warning" -- "$GC" replay -q --mode $mode "$R" \
    "$WORK/peek.chain" "$WORK/lines.chain" "$WORK/warn.chain"
  expect_grep "replayed 3: 0 escaped, 3 blocked, 0 unreadable" "chains, $mode: no escape"
  expect_exit 1 "chains, $mode: the gate's write" -- "$GC" replay -q --mode $mode "$R" "$WORK/save.chain"
  expect_fgrep "save.chain: gatecrash: ESCAPE effect write open via save('$C/saved') ($C/saved)" "chains, $mode: the write"
done
expect_exit 1 "chains, reach: open reached" -- "$GC" replay -q "$R" "$WORK/open_r.chain" "$WORK/open_rb.chain" "$WORK/open_w.chain"
expect_count 3 "\.chain: gatecrash: ESCAPE reach write builtins\.open via __builtins__\['open'\]$" "chains, reach: open itself, on sight"
expect_exit 0 "chains, effect: reading through open" -- "$GC" replay -q --mode effect "$R" "$WORK/open_r.chain" "$WORK/open_rb.chain"
expect_exit 1 "chains, effect: writing through open" -- "$GC" replay -q --mode effect "$R" "$WORK/open_w.chain"
expect_fgrep "open_w.chain: gatecrash: ESCAPE effect write open via __builtins__['open']('$C/opened', 'w') ($C/opened)" \
  "chains, effect: the write through open"
[[ $(ls "$C") == victim ]] && ok || fail "a chain's write took effect: $(ls "$C")"
finish
