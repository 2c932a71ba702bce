#!/usr/bin/env bash
# Class walks by name in the source sweep (source_sweep.c, expand_by_name): a list of
# classes (what .__subclasses__() gives) is walked element by element by class name,
# `[c for c in X.__subclasses__() if c.__name__ == 'N'][0]`, where the dialect writes
# `__name__`, not by index.  tests/fixtures/source/class-by-name hands out a plugin base
# class with 201 subclasses, the 151st of which keeps os.system: past the index literal's
# reach (127), and at an index that depends on the order plugins load.  The build before:
# 0 holes at depth 3 (the list cut at 128 elements).
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/source/class-by-name
expect_exit 1 "sweep by class name" -- "$GC" sweep --no-confirm "$T" --by root --depth 3 -q
expect_grep "^spawn +1 +1 no +type \. __subclasses__\(\)$" "the class walk's hole"
expect_fgrep "via result = [c for c in Plugin.__subclasses__() if (c.__name__ == 'Runner')][0].launch" \
  "the plugin named, not numbered"
expect_grep "^1 hole\(s\)" "that one hole"
expect_grep "0 oversized containers cut" "no list cut"
expect_same_sweep "$T" 3
expect_program 1 "$T" "result = [c for c in Plugin.__subclasses__() if (c.__name__ == 'Runner')][0].launch"
expect_grep "ESCAPE reach spawn os.system" "the printed program replays"
# where the sandbox refuses `__name__`, the list is walked by index as before
expect_exit 1 "a sandbox refusing __name__" -- "$GC" sweep --no-confirm "$T/refusing" --by root --depth 3 -q
expect_fgrep "via result = Plugin.__subclasses__()[0].launch" "by index where the name is refused"
expect_no_grep "__name__ ==" "no program by name there"
finish
