#!/usr/bin/env bash
# The differential over campaigns (docs/TRIAGE.md "Confirmation in a plain interpreter"): for
# each target, a campaign of SECONDS (`gatecrash fuzz T --time SECONDS --seed 1 --no-confirm`),
# then every crash input it saved replayed in a fresh `gatecrash replay` (its resolved chain,
# what the fuzzing process ran, where one was recorded; else the raw bytes, --raw), each
# escape run again in a fresh plain interpreter, and the target's saved cases
# (escapes/NAME, when it has them) both ways with bench/confirm.sh.  One row per target:
#   inputs       crash inputs the campaign saved
#   escapes      of them, escapes in the fresh replay (all of a target's inputs in one
#                process; an escape that is not confirmed is replayed once more alone, and
#                one that does not escape alone rested on an earlier input of that replay,
#                such as a class list that input grew: fresh-blocked, one line each)
#   confirmed    of those, reproduced by the plain interpreter
#   unconfirmed  not reproduced there, or it could not run (one line each, with why)
#   fresh-blocked  crash inputs that did not escape in the fresh replay (state of the fuzzing
#                process, or one that ends the replay's process: a crash finding; not an
#                escape reported, so neither confirmed nor not)
#   corpus       a chain target's corpus (the inputs the engine kept) the other way: each input
#                the fresh replay calls blocked is run by the plain reproducer with
#                '# primitive: *' (every primitive the policy forbids watched, and every
#                spawn and write): blocked by both / misses / index-dependent (the plain
#                escape passes a [#K], the K-th element of a list such as
#                object.__subclasses__() that the two processes fill differently: not the
#                same program there; one line each) / not run (the reproducer could not read
#                it); on an effect-mode target, spawns and writes only.
#                CORPUS_MAX=N: N inputs of it, spread evenly.  A source target's corpus is raw bytes only the harness
#                decodes: '-'.
#   saved        the saved cases: confirmed / blocked by both / misses (bench/confirm.sh)
# Usage: bench/confirm-campaign.sh [BUILD_DIR=build] [SECONDS=60] [TARGET_DIR ...]
# Default targets: every folder with a target.json under targets/ and tests/fixtures/; a
# source target with its venv from BUILD_DIR/venvs.  OUT (default /tmp/confirm-campaign)
# keeps each campaign's folder; REUSE=1 skips the campaigns and measures what OUT holds.
# Campaigns run one at a time, niced.  Exit 1 on any unconfirmed escape or miss.
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}"); shift || true
secs=${1:-60}; shift || true
out=${OUT:-/tmp/confirm-campaign}
targets=("$@")
((${#targets[@]})) || mapfile -t targets < <(find targets tests/fixtures -name target.json -printf '%h\n' | sort)
mkdir -p "$out"
py=$(sed -n 's/^GATECRASH_PYTHON:[A-Z]*=//p' "$build/CMakeCache.txt")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# corpus T DIR: "blocked-by-both / misses / not-run" of DIR's inputs that replay calls blocked
corpus() {
  local t=$1 dir=$2 b=0 m=0 x=0 i=0 f kind=reach
  [[ $(jq -r '.kind // "chain"' "$t/target.json") == chain ]] || { echo -; return; }
  [[ $(jq -r '.mode // "reach"' "$t/target.json") == effect ]] && kind=effect # reaching is no escape there
  local files=("$dir"/*)
  [[ -e ${files[0]} ]] || { echo "0 / 0 / 0 / 0"; return; }
  # CORPUS_MAX=N: N inputs spread evenly over the corpus (its names are hashes)
  if [[ -n ${CORPUS_MAX:-} ]] && ((${#files[@]} > CORPUS_MAX)); then
    local every=$(((${#files[@]} + CORPUS_MAX - 1) / CORPUS_MAX)) k picked=()
    for ((k = 0; k < ${#files[@]}; k += every)); do picked+=("${files[k]}"); done
    files=("${picked[@]}")
  fi
  nice "$build/gatecrash" replay -q --raw --no-confirm "$t" "${files[@]}" >"$tmp/corpus" 2>/dev/null
  mkdir -p "$tmp/case"
  jq --arg s "$(realpath "$t")/$(jq -r .sandbox "$t/target.json")" '.sandbox = $s' "$t/target.json" >"$tmp/case/target.json"
  for f in "${files[@]}"; do
    grep -qF "$f: blocked" "$tmp/corpus" || continue
    { printf '# kind: %s\n# capability: any\n# primitive: *\n' $kind; cat "$f"; echo; } >"$tmp/case/c.chain"
    timeout -s KILL 60 env -u PYTHONUNBUFFERED -u PYTHONIOENCODING PYTHONHASHSEED=1 nice "$py" -s \
      escapes/reproduce.py "$tmp/case/c.chain" >"$tmp/plain" 2>&1
    case $? in
      0) b=$((b + 1)) ;;
      1) if grep -m1 'ESCAPE reproduced' "$tmp/plain" | grep -qF ' via ' && grep -m1 'ESCAPE reproduced' "$tmp/plain" | sed 's/.* via //' | grep -qF '[#'; then
           x=$((x + 1)); echo "    index-dependent $t: corpus/$(basename "$f"): $(grep -m1 'ESCAPE reproduced' "$tmp/plain")" >&2
         else m=$((m + 1)); echo "    MISS $t: corpus/$(basename "$f"): $(grep -m1 'ESCAPE reproduced' "$tmp/plain")" >&2; fi ;;
      *) i=$((i + 1)) ;;
    esac
  done
  echo "$b / $m / $x / $i"
}
printf '| target | s | inputs | escapes | confirmed | unconfirmed | fresh-blocked | corpus: both blocked / misses / index-dependent / not run | saved: confirmed / both blocked / misses |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
all_e=0 all_c=0 all_m=0
for t in "${targets[@]}"; do
  t=${t%/}; n=$(echo "$t" | sed 's|^targets/||; s|^tests/fixtures/|fixture-|; s|/|-|g')
  v=(); [[ -d $build/venvs/$(basename "$t") ]] && v=(--venv "$build/venvs/$(basename "$t")")
  rc=0
  if [[ -z ${REUSE:-} ]]; then
    rm -rf "${out:?}/$n"
    timeout $((secs + 600)) nice "$build/gatecrash" fuzz "$t" "${v[@]}" --time "$secs" --seed 1 --no-confirm \
      --out "$out/$n" >"$out/$n.log" 2>&1
    rc=$?
  fi
  if ((rc != 0 && rc != 1 && rc != 5)); then # 5: inconclusive, its crash inputs still measured
    printf '| %s | %s | campaign exit %d: %s ||||||||\n' "$t" "$secs" $rc "$(grep -m1 'error' "$out/$n.log" | cut -c1-120)"
    continue
  fi
  resolved=() raw=()
  for f in "$out/$n"/crashes/crash-*; do
    [[ -f $f ]] || continue
    r=$out/$n/crashes/resolved/$(sha1sum "$f" | cut -c1-40)
    if [[ -f $r ]]; then resolved+=("$r"); else raw+=("$f"); fi
  done
  : >"$tmp/out"
  ((${#resolved[@]})) && nice "$build/gatecrash" replay -q "$t" "${v[@]}" "${resolved[@]}" >>"$tmp/out" 2>/dev/null
  ((${#raw[@]})) && nice "$build/gatecrash" replay -q --raw "$t" "${v[@]}" "${raw[@]}" >>"$tmp/out" 2>/dev/null
  # an input that stops the replay's process (a crash finding, a hang) leaves the rest unseen:
  # each input without a verdict line is replayed again on its own
  for f in "${resolved[@]}" "${raw[@]}"; do
    grep -qF "$f: " "$tmp/out" && continue
    r=(); [[ $f == */resolved/* ]] || r=(--raw)
    nice "$build/gatecrash" replay -q "${r[@]}" "$t" "${v[@]}" "$f" >>"$tmp/out" 2>/dev/null
  done
  inputs=$((${#resolved[@]} + ${#raw[@]}))
  e=$(grep -c ': gatecrash: ESCAPE' "$tmp/out")
  c=$(grep -c ': confirmed in a plain interpreter' "$tmp/out")
  # an escape not confirmed: does it escape alone, or only after the batch's earlier inputs?
  : >"$tmp/why"
  while IFS= read -r line; do
    f=${line%%: *}
    r=(); [[ $f == */resolved/* ]] || r=(--raw)
    if nice "$build/gatecrash" replay -q --no-confirm "${r[@]}" "$t" "${v[@]}" "$f" 2>/dev/null | grep -qF ': gatecrash: ESCAPE'; then
      echo "    unconfirmed $t: ${line#"$out/$n/crashes/"}" >>"$tmp/why"
    else
      e=$((e - 1))
      echo "    fresh-blocked $t: ${f#"$out/$n/crashes/"}: escapes only after earlier inputs of the batch replay" >>"$tmp/why"
    fi
  done < <(grep -E ': (NOT confirmed|unconfirmed): ' "$tmp/out")
  cm=$(corpus "$t" "$out/$n/corpus")
  all_m=$((all_m + $(echo "$cm" | awk '{print ($3 == "" ? 0 : $3)}')))
  saved=-
  if [[ -d escapes/$(basename "$t") && $t == targets/* ]]; then
    s=$(bash bench/confirm.sh "$build" "$t:escapes/$(basename "$t")" | tail -1)
    saved=$(echo "$s" | sed -E 's/.* ([0-9]+) confirmed .* ([0-9]+) blocked by both, ([0-9]+) misses.*/\1 \/ \2 \/ \3/')
    all_m=$((all_m + $(echo "$saved" | awk '{print $5}')))
  fi
  printf '| %s | %s | %d | %d | %d | %d | %d | %s | %s |\n' "$t" "$secs" $inputs "$e" "$c" $((e - c)) $((inputs - e)) \
    "$cm" "$saved"
  cat "$tmp/why" >&2
  all_e=$((all_e + e)) all_c=$((all_c + c))
done
printf '\ntotal: %d escapes, %d confirmed in a plain interpreter, %d unconfirmed; %d misses (corpora and saved cases)\n' \
  $all_e $all_c $((all_e - all_c)) $all_m
((all_e == all_c && all_m == 0))
