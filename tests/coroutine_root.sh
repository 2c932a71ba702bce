#!/usr/bin/env bash
# The coroutine root of the source sweep (source_sweep.c): in a statement dialect the sweep
# also starts from the running frame of a coroutine the program steps itself (`async def
# f(): return c.cr_frame...` / `c = f()` / `try: c.send(None)` / `except Exception as e:` /
# `result = e.value`: the value read back from the StopIteration that ends it).  In
# tests/fixtures/source/coroutine-frame, a deny-list sandbox that refuses gi_frame,
# __traceback__ and str.format (so the generator root, the exception root's frames and the
# field walks lead nowhere) but forgets cr_frame, the frame's f_back chain is the one way to
# the host's frame.  The build before the coroutine root: 0 holes at depth 4.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/coroutine-frame
expect_exit 1 "sweep from the running coroutine" -- "$GC" sweep --no-confirm "$T" --by root --depth 4 -q
expect_grep "^write +1 +1 yes +(gate )?frame \. f_globals$" "the host's frame (the interpreter is exception-frame's module)"
expect_fgrep "    return c.cr_frame.f_back.f_back.f_builtins" "three steps from the coroutine's frame"
expect_fgrep "    result = e.value" "read back from the StopIteration"
expect_grep "^1 hole\(s\)" "that one hole"
expect_same_sweep "$T" 4
printf 'async def f():\n    return c.cr_frame.f_back.f_back.f_builtins\nc = f()\ntry:\n    c.send(None)\nexcept Exception as e:\n    result = e.value\n' >"$WORK/cor.py"
expect_exit 1 "the printed program replays" -- "$GC" replay "$T" "$WORK/cor.py"
expect_grep "ESCAPE reach write builtins.open" "the host's builtins"
expect_program 0 "$T" "result = (x for x in [1]).gi_frame"
expect_grep "refused by the sandbox: Refused" "the generator root is refused there"
finish
