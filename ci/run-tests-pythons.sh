#!/usr/bin/env bash
# The other-interpreters stage of CI (.ci/run, after ci/run-tests.sh, which runs the whole
# suite on the default CPython): for every other supported CPython minor version (3.11,
# 3.12, 3.13) this machine has (ci/find-python.sh: the distribution's, else the newest
# pyenv build) — a build in build-py3.X and a subset of the suite that covers replay
# of the advisory chains and saved cases, a bounded fuzz run that finds escapes, state
# repair (hostile_state, state_repair), the backstop, triage and the sweep, gate line feedback, the
# time limit's confirmed hangs (known_hangs), the detail probe (harvest) and the
# version line, and source mode (program_language, program_mutator, source_oracles,
# source_targets, source_advisories, fuzz_source, the field walks and readbacks, passages,
# the feedback inside walks,
# threads, the coroutine and async-generator roots, calls with own values in the sweep,
# class walks by name, per-input isolation, a source campaign that an input crashes).  A version the
# machine lacks is skipped with one line.  Any failing test
# fails the stage.  VERSIONS="3.12 3.13" overrides the list; TESTS (a ctest -R pattern)
# the subset.
set -euo pipefail
cd "$(dirname "$0")/.."
default=$(/usr/bin/python3 -I -c 'import sys; print("%d.%d" % sys.version_info[:2])')
subset=${TESTS:-'^(chain_language|evaluator_and_oracles|replay_advisory|escapes_replay|fuzz_finds_escapes|hostile_state|state_repair|backstop|triage|sweep|gate_feedback|feedback_made_classes|known_hangs|harvest|cli_usage|program_language|program_mutator|source_oracles|source_targets|source_advisories|fuzz_source|dunder_call|field_walk|lookup_readback|passage|walk_feedback|threads_source|coroutine_root|asyncgen_root|own_values_sweep|class_by_name|isolation|crash_findings_source)$'}

rc=0
for v in ${VERSIONS:-3.11 3.12 3.13}; do
  [[ $v == "$default" ]] && continue
  if ! py=$(bash ci/find-python.sh "$v"); then
    echo "run-tests-pythons: skip CPython $v: not on this machine (no /usr/bin/python$v, no pyenv $v.x)"
    continue
  fi
  echo "run-tests-pythons: CPython $v: $py, build-py$v"
  PYTHON=$py BUILD_DIR=build-py$v bash ci/build.sh
  ctest --test-dir "build-py$v" --output-on-failure -j 2 -R "$subset" || rc=1
done
exit $rc
