#!/usr/bin/env bash
# The bundled source targets (targets/restrictedpython, targets/simpleeval, their adapter
# variants -utility and -module, smolagents, whose executor runs each program in a worker
# thread, and the historical releases restrictedpython-6.0, restrictedpython-6.1-utility,
# restrictedpython-7.2-utility, simpleeval-1.0.4 and smolagents-1.20.0, asteval with numpy, whose RuntimeWarnings are
# among its known-safe programs, and mcp-use's code mode, each program on an asyncio event loop
# (tests/fixtures/source/safe/mcp: await, tasks, a wait_for timeout of its own); venvs made by the source_venvs set-up, ci/target-venv.sh): every
# known-safe program of tests/fixtures/source/safe/<project> is blocked or refused, none an
# escape (0 false positives), and the sandbox package comes from the venv, not from the
# interpreter's own path.
source "$(dirname "$0")/lib.sh" "$@"
for name in restrictedpython restrictedpython-utility restrictedpython-6.0 restrictedpython-6.1-utility \
            restrictedpython-7.2-utility simpleeval simpleeval-module simpleeval-1.0.4 smolagents smolagents-1.20.0 asteval mcp-use; do
  target_installed "$name" || continue
  progs=("$SRC/tests/fixtures/source/safe/${name%%-*}"/*.py)
  # every safe program is blocked, none inconclusive: restrictedpython's warning.py imports
  # linecache inside the evaluation (its functools.wraps sets functions' __module__, CPython's
  # object.__setattr__ event), which the sandbox's code may do as in a plain host
  expect_exit 0 "$name: safe programs" -- "$GC" replay -q --venv "$BIN/venvs/$name" "$SRC/targets/$name" "${progs[@]}"
  expect_count "${#progs[@]}" "\.py: blocked \(" "$name: every program blocked"
  expect_no_grep "ESCAPE" "$name: no false positive"
  expect_grep "replayed ${#progs[@]}: 0 escaped, ${#progs[@]} blocked, 0 unreadable, 0 inconclusive" "$name: tally"
  if [[ $name == mcp-use ]]; then  # its executor hands back an error as text, and no result
    expect_grep "import_os.py: blocked \(returned NoneType\)" "$name: the executor's error is seen"
  elif grep -q '"refusals": \[\]' "$SRC/targets/$name/target.json"; then  # asteval: its refusals are exceptions
    expect_grep "blocked \(raised (NotImplementedError|AttributeError)\)" "$name: the sandbox's rejection is seen"
  else
    expect_grep "refused by the sandbox: " "$name: the sandbox's own refusal is seen"
  fi
  expect_grep "blocked \(returned (int|str|list)\)" "$name: programs run"
  # without its venv the adapter's import of the sandbox package fails: exit 3, one line
  mkdir -p "$WORK/novenv-$name"
  printf 'home = /usr/bin\nversion = %s\n' "$PYVER" >"$WORK/novenv-$name/pyvenv.cfg"
  mkdir -p "$WORK/novenv-$name/lib/python$PYVER/site-packages"
  expect_exit 3 "$name: empty venv" -- "$GC" replay -q --venv "$WORK/novenv-$name" "$SRC/targets/$name" "${progs[0]}"
  expect_grep "error: importing .*targets/[a-z0-9.-]*/adapter.py raised ModuleNotFoundError" "$name: empty venv"
done
finish
