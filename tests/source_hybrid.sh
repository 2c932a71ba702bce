#!/usr/bin/env bash
# The source sweep's generator root and the source campaign's first phase:
#   - `sweep` on RestrictedPython 6.0 (GHSA-wqc8-x2pr-7jqh) finds the published class from
#     a generator's running frame (a root no name gives: gi_frame, f_back to the host's
#     frame, its f_builtins), exit 1; the current releases stay at 0 (tests/source_sweep.sh);
#   - `fuzz` on it starts with that sweep: the escape is reported as found by the sweep,
#     exit 1; with --no-sweep-seed it is not;
#   - the sweep's crash input and its frontier seeds are program encodings (they hold NUL
#     bytes) that `replay --raw` runs in a fresh process: the escape again, and a frame.
# RestrictedPython 6.0 does not install on CPython 3.12+: there the test is skipped, with one
# SKIP line saying so; without fuzz_source (an engine-less build) it is skipped after the sweep.
source "$(dirname "$0")/lib.sh" "$@"
target_installed restrictedpython-6.0 || { finish; exit; }
H=$SRC/targets/restrictedpython-6.0
HV=(--venv "$BIN/venvs/restrictedpython-6.0")

expect_exit 1 "sweep restrictedpython-6.0: an escape" -- "$GC" sweep --no-confirm "$H" "${HV[@]}" --by signature
expect_grep '^  source:reach:builtins\.open +def f\(\): ' "sweep 6.0: the published class, builtins.open"
expect_fgrep ' \n     g = (g.gi_frame.f_back.f_back.f_back.f_builtins for x in [1]) \n ' "sweep 6.0: from the generator's frame, the program on its row's one line"

need fuzz_source || { finish; exit; }
# (--time 300 with --runs: the opening sweep's budget is a share of --time; --runs ends the run)
expect_exit 1 "fuzz restrictedpython-6.0 --runs 200" -- "$GC" fuzz "$H" "${HV[@]}" --runs 200 --time 300 --seed 1 --out "$WORK/hy"
expect_grep '^\[ *[0-9]+s\] new hole .* \(write\): def f\(\): \\n .* \(found by the sweep\)$' "fuzz: the sweep's hole at once"
expect_grep '^1 escape input\(s\), 1 distinct escape\(s\) on restrictedpython-6.0 \(with 1 found by the sweep' \
  "fuzz: in the table, found by the sweep"
expect_grep '^\[sweep\] .*; [1-9][0-9]* frontier input\(s\) seeded into ' "fuzz: the frontier seeded"
# OUT/finds.tsv: the five-statement program is one line of five fields
awk -F'\t' 'END { print NR " line(s)"; exit !(NR == 1 && NF == 5) }' "$WORK/hy/finds.tsv" >"$WORK/out"
expect_grep '^1 line\(s\)$' "finds.tsv: one line for the multi-line program's find"
cp "$WORK/hy/finds.tsv" "$WORK/out"
expect_fgrep $'\tdef f():\\n' "finds.tsv: the program's newlines written \\n"

# the crash input and the frontier, replayed as fuzz inputs in a fresh process
expect_exit 1 "replay --raw the sweep's crash input" -- "$GC" replay --raw -q "$H" "${HV[@]}" "$WORK/hy/crashes/crash-sweep-0000"
expect_grep 'crash-sweep-0000: gatecrash: ESCAPE reach write builtins\.open' "replay: the escape again"
seeds=("$WORK"/hy/seeds/sweep-*)
"$GC" replay --raw "$H" "${HV[@]}" "${seeds[@]}" >"$WORK/out" 2>&1
expect_grep "replayed ${#seeds[@]}: 0 escaped, ${#seeds[@]} blocked, 0 unreadable" "frontier: every seed a program, none escapes"
expect_grep 'sweep-[0-9]+: blocked \(returned frame\)' "frontier: the generator's frame among them"

# triage saves it as a source case evaluate runs unchanged, and that case replays as the escape
"$GC" triage "$H" "${HV[@]}" --out "$WORK/esc" "$WORK/hy/crashes/crash-sweep-0000" >"$WORK/out" 2>&1
expect_grep '^new +crash-sweep-0000: source:reach:builtins\.open ' "triage: a new case"
expect_exit 0 "replay --expect escape the saved case" -- "$GC" replay "$H" "${HV[@]}" --expect escape "$WORK/esc"
expect_grep 'source-reach-builtins\.open\.py: gatecrash: ESCAPE reach write builtins\.open' "replay: the case escapes"

expect_exit 0 "fuzz --no-sweep-seed: the engine alone" -- "$GC" fuzz "$H" "${HV[@]}" --runs 200 --seed 1 --no-sweep-seed \
  --out "$WORK/alone"
expect_no_grep 'found by the sweep' "--no-sweep-seed: nothing from the sweep"
finish
