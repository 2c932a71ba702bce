#!/usr/bin/env bash
# The exception root of the source sweep (source_sweep.c): in a statement dialect the sweep
# also starts from what an ordinary failing call raises, caught (`try: [].pop()` / `except
# Exception as e:`), and walks the exception's attributes like any value.  In
# tests/fixtures/source/exception-frame, a deny-list sandbox that forgets __traceback__ and
# refuses gi_frame (so the generator root leads nowhere), the traceback's frames are one
# other way out: tb_frame.f_back is the host's frame that ran the program.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/exception-frame
expect_exit 1 "sweep from the caught exception" -- "$GC" sweep --no-confirm "$T" --by root --depth 4 -q
expect_grep "^write +1 +1 yes +gate frame \. f_globals$" "the host's frame"
expect_fgrep "    result = e.__traceback__.tb_frame.f_back.f_builtins" "four steps from the exception"
# and the error readback: the sandbox lets str.format run, so a field's failed lookup
# (AttributeError.obj) gives back len.__self__.open (the host walk), which the deny-list
# refuses in code
expect_fgrep "    '{0.__self__.open._gatecrash}'.format(len)" "the readback's format field"
expect_grep "^2 hole\(s\)" "those two holes"
expect_same_sweep "$T" 4
printf 'try:\n    [].pop()\nexcept Exception as e:\n    result = e.__traceback__.tb_frame.f_back.f_builtins\n' >"$WORK/exc.py"
expect_exit 1 "the printed program replays" -- "$GC" replay "$T" "$WORK/exc.py"
expect_grep "ESCAPE reach write builtins.open" "the host's builtins"
printf "try:\n    '{0.__self__._gatecrash}'.format(len)\nexcept Exception as e:\n    result = e.obj.open\n" >"$WORK/rb.py"
expect_exit 1 "the readback program replays" -- "$GC" replay "$T" "$WORK/rb.py"
expect_grep "ESCAPE reach write builtins.open" "the builtins module's open"
expect_program 0 "$T" "result = (x for x in [1]).gi_frame"
expect_grep "refused by the sandbox: Refused" "the generator root is refused there"
finish
