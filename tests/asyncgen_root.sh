#!/usr/bin/env bash
# The async-generator root of the source sweep (source_sweep.c): in a statement dialect the
# sweep also starts from the running frame of an async generator the program steps itself
# (`async def g(): yield a.ag_frame...` / `a = g()` / `try: a.asend(None).send(None)` /
# `except Exception as e:` / `result = e.value`: the yielded value read back from the
# StopIteration that ends the step).  In tests/fixtures/source/asyncgen-frame, a deny-list
# sandbox that refuses gi_frame, cr_frame, __traceback__ and str.format (so the generator
# and coroutine roots, the exception root's frames and the field walks lead nowhere) but
# forgets ag_frame, the frame's f_back chain is the one way to the host's frame.  The build
# before the async-generator root (and before the program language had yield): 0 holes.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/asyncgen-frame
expect_exit 1 "sweep from the running async generator" -- "$GC" sweep --no-confirm "$T" --by root --depth 4 -q
expect_grep "^write +1 +1 yes +(gate )?frame \. f_globals$" "the host's frame (the interpreter is exception-frame's module)"
expect_fgrep "    yield a.ag_frame.f_back.f_back.f_builtins" "three steps from the async generator's frame"
expect_fgrep "    a.asend(None).send(None)" "stepped by the program"
expect_fgrep "    result = e.value" "read back from the StopIteration"
expect_grep "^1 hole\(s\)" "that one hole"
expect_same_sweep "$T" 4
printf 'async def g():\n    yield a.ag_frame.f_back.f_back.f_builtins\na = g()\ntry:\n    a.asend(None).send(None)\nexcept Exception as e:\n    result = e.value\n' >"$WORK/agen.py"
expect_exit 1 "the printed program replays" -- "$GC" replay "$T" "$WORK/agen.py"
expect_grep "ESCAPE reach write builtins.open" "the host's builtins"
expect_program 0 "$T" $'async def c():\n    return 1\nresult = c().cr_frame'
expect_grep "refused by the sandbox: Refused" "the coroutine root is refused there"
finish
