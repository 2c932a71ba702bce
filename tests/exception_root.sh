#!/usr/bin/env bash
# The exception root of the source sweep (source_sweep.c): in a statement dialect the sweep
# also starts from what an ordinary failing call raises, caught (`try: [].pop()` / `except
# Exception as e:`), and walks the exception's attributes like any value.  In
# tests/fixtures/source/exception-frame, a deny-list sandbox that forgets __traceback__ and
# refuses gi_frame (so the generator root leads nowhere), the traceback's frames are the only
# way out: tb_frame.f_back is the host's frame that ran the program.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/exception-frame
expect_exit 1 "sweep from the caught exception" -- "$GC" sweep "$T" --depth 4 -q
expect_grep "^write +1 +1 yes +gate frame \. f_globals$" "the host's frame"
expect_fgrep "    result = e.__traceback__.tb_frame.f_back.f_builtins" "four steps from the exception"
expect_grep "^1 hole\(s\)" "that hole only"
expect_same_sweep "$T" 4
printf 'try:\n    [].pop()\nexcept Exception as e:\n    result = e.__traceback__.tb_frame.f_back.f_builtins\n' >"$WORK/exc.py"
expect_exit 1 "the printed program replays" -- "$GC" replay "$T" "$WORK/exc.py"
expect_grep "ESCAPE reach write builtins.open" "the host's builtins"
expect_program 0 "$T" "result = (x for x in [1]).gi_frame"
expect_grep "refused by the sandbox: Refused" "the generator root is refused there"
finish
