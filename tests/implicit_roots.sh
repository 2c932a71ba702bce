#!/usr/bin/env bash
# Implicit roots (source_sweep.c): what every evaluation has in scope unless the sandbox
# removes it (the builtins by name, __builtins__) is a root of the sweep whatever roots()
# says.  tests/fixtures/source/builtins-eval (fuzz_source.sh's too) evaluates with eval() and
# a globals dict that has no __builtins__ (so Python puts the real ones in), and its roots()
# names only the host's context: the one-token program `open` is the real builtins.open.  The sweep
# finds it, and a campaign's first new hole is it, found by its opening sweep (within its first
# second on an idle machine: docs/SOURCE.md).
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/builtins-eval
expect_exit 1 "sweep from the implicit roots" -- "$GC" sweep --no-confirm "$T" --by root
expect_grep "^write +1 +1 yes +namespace open$" "sweep: the hole"
expect_grep "^ +via open$" "sweep: the one-token program"
expect_exit 1 "campaign" -- "$GC" fuzz "$T" --time 2 --seed 1 --out "$WORK/camp"
# (found by the opening sweep, before the engine's first line: an order, not a time; under
# the sanitizers the campaign's start-up alone can pass a second)
expect_grep "^\[ *[0-9]+s\] new hole namespace open \(write\): open \(found by the sweep\)$" "campaign: the hole, by the sweep"
expect_before_engine "new hole namespace open" "$WORK/out" "campaign: the hole before the engine starts"
finish
