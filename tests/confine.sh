#!/usr/bin/env bash
# The write backstop (harness/runtime/confine.c): Landlock confines every process that runs chains
# to its scratch folder and the folders the run writes.  Two C-level writers no Python
# oracle sees: the one-line dbm chain on station-1.5.0 (its import guard hands out the real
# dbm), and a gate whose own save() calls _dbm.open (tests/fixtures/confine).  No
# victim file is ever created, and the write is an escape of kind "landlock", under every
# way inputs run: replay, libFuzzer in one process (paths relative to the working folder and
# through a symlink in it too), fork mode, -minimize_crash, AFL++, the campaign's live
# replay, triage and the sweep.  GATECRASH_NO_CONFINE=1 (a kernel without
# Landlock) makes every check here fail; the first control shows the victim is then made.
source "$(dirname "$0")/lib.sh" "$@"
T=$SRC/tests/fixtures/confine
VICTIMS=$WORK/victims # outside every folder a run is granted
export GATECRASH_TEST_VICTIM=$VICTIMS/victim
mkdir -p "$VICTIMS" "$WORK/seeds" "$WORK/corpus" "$WORK/crashes" "$WORK/scratch"
no_victim() {
  if [[ -z $(ls -A "$VICTIMS") ]]; then ok; else fail "$1: a file was written outside scratch: $(ls "$VICTIMS")"; rm -rf "${VICTIMS:?}"/*; fi
}
writer=dbm
echo "__builtins__['__import__']('dbm').open('$VICTIMS/dbm-victim', 'c')" >"$WORK/dbm.chain"
if ! "$PY" -I -c 'import _dbm' 2>/dev/null; then # no C dbm in this CPython: SQLite's ATTACH writes the same way
  writer=sqlite3
  echo "__builtins__['__import__']('sqlite3').connect(':memory:').execute(\"ATTACH DATABASE '$VICTIMS/dbm-victim' AS v\")" >"$WORK/dbm.chain"
fi
echo 'save()' >"$WORK/save.chain"
echo 'str' >"$WORK/seeds/a"
printf '"save()"\n"save"\n"()"\n' >"$WORK/dict"

# control: without confinement the chain really writes (so the checks below can fail)
if [[ -z ${GATECRASH_NO_CONFINE:-} ]]; then
  GATECRASH_NO_CONFINE=1 "$GC" replay "$T" "$WORK/save.chain" >"$WORK/out" 2>&1
  [[ -n $(ls -A "$VICTIMS") ]] && ok || fail "control: the fixture wrote nothing even unconfined"
  rm -rf "${VICTIMS:?}"/*
fi

expect_exit 1 "replay: the dbm chain on station-1.5.0 is an escape" -- \
  "$GC" replay "$SRC/targets/station-1.5.0" "$WORK/dbm.chain"
expect_fgrep "ESCAPE landlock write openat via __builtins__['__import__']('$writer')" "replay names the kind and the call"
expect_grep "^gatecrash: confined: Landlock ABI [0-9]+, writes only beneath " "the start-up line says what is confined"
no_victim "replay of the dbm chain"

expect_exit 1 "replay: the gate's own _dbm.open is an escape" -- "$GC" replay --json "$T" "$WORK/save.chain"
expect_fgrep "ESCAPE landlock write openat via save()" "replay: the gate's writer"
expect_fgrep "\"signature\":\"landlock:write:openat:" "the JSON escape carries the kind"
no_victim "replay of save()"

# under a policy that allows every write the kernel still refuses it: no escape, no file
expect_exit 0 "replay under allow-all: blocked" -- "$GC" replay "$SRC/targets/station-1.5.0-allow-all" "$WORK/dbm.chain"
expect_fgrep "refused by the harness: a write outside scratch (Landlock)" "allow-all: counted as a refusal"
no_victim "replay under allow-all"

expect_exit 1 "sweep: the write is found" -- "$GC" sweep --no-confirm "$T" --depth 3
expect_fgrep "gate function save ()<landlock>" "sweep names the landlock escape's hole as fuzzing does"
expect_exit 1 "sweep --by signature" -- "$GC" sweep --no-confirm "$T" --depth 3 --by signature
expect_grep "landlock:write:openat" "sweep reports the landlock escape"
no_victim sweep

# --require-confinement: a kernel without Landlock (simulated) is an error, exit 4 (here, and
# in the engines below)
expect_exit 4 "gatecrash --require-confinement without Landlock" -- \
  env GATECRASH_NO_CONFINE=1 "$GC" replay --require-confinement "$T" "$WORK/save.chain"
expect_grep "^gatecrash: error: Landlock is .* --require-confinement" "one error line"
no_victim "--require-confinement (replay)"

need fuzz_gate || { finish; exit; }
cd "$WORK/scratch" || exit 1
fuzz_one_process "landlock:write:openat:" "the confinement's signature"
no_victim "libFuzzer, one process"

# the path as the kernel resolves it: relative to the working folder, through a symlink
ln -s "$VICTIMS" "$WORK/scratch/link"
for rel in ../victims/rel link/via-link; do
  expect_exit 77 "libFuzzer runs save(), victim $rel" -- \
    env GATECRASH_TEST_VICTIM=$rel "$FUZZ" --target="$T" -error_exitcode=77 "$WORK/save.chain"
  expect_grep "^DEDUP_TOKEN: landlock:write:openat:" "victim $rel: the escape"
  no_victim "victim $rel"
done
rm "$WORK/scratch/link"

rm -rf "$WORK/crashes2" && mkdir -p "$WORK/crashes2" "$WORK/corpus2" "$WORK/tmp"
# (-runs counts the jobs' inputs: each job ends at its escape, a dozen inputs in, so a few
# hundred jobs are bounded by the runs, not by the time)
TMPDIR=$WORK/tmp "$FUZZ" --target="$T" -fork=2 -ignore_crashes=1 -runs=1000 -seed=1 -max_total_time=120 \
  -error_exitcode=77 -dict="$WORK/dict" -artifact_prefix="$WORK/crashes2/" "$WORK/corpus2" "$WORK/seeds" >"$WORK/out" 2>&1
rc=$?
[[ $rc -eq 0 || $rc -eq 77 ]] && ok || fail "libFuzzer fork mode: exit $rc"
ls "$WORK"/crashes2/crash-* >/dev/null 2>&1 && ok || fail "fork mode saved no crash input"
no_victim "libFuzzer fork mode"

mkdir -p "$WORK/min" # (its folder is granted: not $WORK, where the victims are)
expect_exit 0 "-minimize_crash: the parent still starts its steps" -- "$FUZZ" --target="$T" -minimize_crash=1 \
  -runs=200 -exact_artifact_path="$WORK/min/min" "$crash"
expect_grep "DEDUP_TOKEN: landlock:write:openat:" "the minimizer keeps the confinement's signature"
no_victim "-minimize_crash"
cd "$WORK" || exit 1

expect_exit 1 "gatecrash fuzz --jobs 2: the campaign replays the crash live" -- \
  "$GC" fuzz "$T" --jobs 2 --time 120 --runs 20000 --seed 1 --corpus "$WORK/seeds" --dict "$WORK/dict" --out "$WORK/lf"
expect_fgrep "gate function save ()<landlock>" "libFuzzer campaign: the table names the hole"
no_victim "gatecrash fuzz --jobs 2"

if need fuzz_gate_afl afl-fuzz; then
  expect_exit 1 "AFL++: the input process is confined" -- \
    env AFL_BENCH_UNTIL_CRASH=1 "$GC" fuzz "$T" --engine afl --time 120 --corpus "$WORK/seeds" --dict "$WORK/dict" \
    --out "$WORK/afl" --by signature
  expect_grep "^landlock +write +openat " "AFL++: the campaign's table (--by signature)"
  no_victim "AFL++"
fi

expect_exit 0 "triage of the crash (fresh-process replay through the spawner)" -- \
  "$GC" triage "$T" --out "$WORK/esc" "$crash"
expect_grep "^new +crash-[0-9a-f]+: landlock:write:openat:" "triage saves a landlock case"
no_victim triage

# --require-confinement in the engines
expect_exit 4 "fuzz_gate --require-confinement without Landlock" -- \
  env GATECRASH_NO_CONFINE=1 "$FUZZ" --target="$T" --require-confinement -runs=10 "$WORK/seeds"
expect_exit 4 "gatecrash fuzz --require-confinement without Landlock" -- \
  env GATECRASH_NO_CONFINE=1 "$GC" fuzz "$T" --require-confinement --runs 10 --corpus "$WORK/seeds" --out "$WORK/rq"
no_victim "--require-confinement"
finish
