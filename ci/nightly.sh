#!/usr/bin/env bash
# The nightly job: build, restore the corpus, fuzz, merge the corpus, triage, report.
#
#   ci/nightly.sh [options] TARGET_DIR
#   ci/nightly.sh [options] --sandbox PATH --requires JSON|@FILE   (the target inline, as gatecrash's)
#
# Options (flag or environment variable).  Defaults are in the repository; paths you give
# are relative to where you start the script:
#   --time S     TIME     seconds of the campaign, its opening sweep included (600)
#   --jobs N     JOBS     parallel jobs (nproc)
#   --engine E   ENGINE   libfuzzer (default) or afl (`gatecrash fuzz --engine afl`)
#   --seed N     SEED     engine seed (0: the engine picks)
#   --sweep-depth N  SWEEP_DEPTH  the opening sweep's deepest level (gatecrash fuzz
#                         --seed-sweep-depth; unset: gatecrash's default; 0: the engine alone)
#   --runs N     RUNS     stop after N inputs (unset: no bound).  With --jobs 1 the campaign
#                         is then deterministic: the same night twice finds the same escapes
#   --corpus D   CORPUS   corpus kept between nights (nightly/<name>/corpus); restored as seeds
#                         together with the repository's corpus/, replaced by the merged corpus
#   --escapes D  ESCAPES  saved cases (escapes/<name>); new escapes are triaged into it
#   --report D   REPORT   report folder (out/<name>/nightly); the campaign works in D/campaign
#   --crashes D  CRASHES  more crash inputs to triage (e.g. testcases from ClusterFuzz); with
#                         --time 0 nothing is fuzzed: only these are triaged and reported
#   --no-build   SKIP_BUILD=1   use the existing build in BUILD_DIR (build)
# PYTHON=/path/to/python3.X picks the CPython the build embeds (ci/build.sh; default the
# distribution's).  The script's own helpers (the target's name, the plot) run with the
# distribution's /usr/bin/python3, which has python3-matplotlib.
# Writes REPORT/report.md, report.json, report.sarif (`gatecrash gate --time 0`: every saved
# case replayed, with a "Nightly campaign" section appended to the Markdown),
# campaign.png (ci/campaign_plot.py), new-escapes.txt (one new signature per line),
# triage.log and the campaign's fuzz.log.
# Exit: 1 when triage saved a new escape signature (one not among ESCAPES' cases), 0 when
# nothing new was found, 2 bad usage, 3/4 as gatecrash's (target failed to load, harness error),
# 5 when nothing new was found but a saved case was inconclusive (`gatecrash gate`'s exit 5:
# the harness did not see it run as the host runs it), the report written all the same.
set -euo pipefail

die() { echo "nightly: error: $*" >&2; exit "${2:-2}"; }

TIME=${TIME:-600} JOBS=${JOBS:-$(nproc)} ENGINE=${ENGINE:-libfuzzer} SEED=${SEED:-0} RUNS=${RUNS:-} SWEEP_DEPTH=${SWEEP_DEPTH:-}
CRASHES=${CRASHES:-} CORPUS=${CORPUS:-} ESCAPES=${ESCAPES:-} REPORT=${REPORT:-} SKIP_BUILD=${SKIP_BUILD:-0}
target= sandbox= requires=
while (($#)); do
  case $1 in
    --time|--jobs|--engine|--seed|--runs|--sweep-depth|--corpus|--escapes|--report|--crashes|--sandbox|--requires)
      (($# >= 2)) || die "$1 needs a value"
      v=$2
      case $1 in
        --time) TIME=$v ;; --jobs) JOBS=$v ;; --engine) ENGINE=$v ;; --seed) SEED=$v ;; --runs) RUNS=$v ;;
        --sweep-depth) SWEEP_DEPTH=$v ;;
        --corpus) CORPUS=$v ;; --crashes) CRASHES=$v ;; --escapes) ESCAPES=$v ;; --report) REPORT=$v ;;
        --sandbox) sandbox=$v ;; --requires) requires=$v ;;
      esac
      shift 2 ;;
    --no-build) SKIP_BUILD=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) [[ -z $target ]] || die "one target only (got $target and $1)"; target=$1; shift ;;
  esac
done
[[ -n $target || -n $sandbox || -n $requires ]] || die "usage: ci/nightly.sh [--time S] [--jobs N] [--sweep-depth N] [--engine libfuzzer|afl] [--corpus DIR] [--escapes DIR] [--report DIR] TARGET_DIR|--sandbox PATH --requires JSON|@FILE"
if [[ -n $sandbox || -n $requires ]]; then
  [[ -n $sandbox && -n $requires && -z $target ]] || die "--sandbox and --requires go together, instead of TARGET_DIR"
  [[ -f $sandbox ]] || die "sandbox module $sandbox not found" 3
else
  [[ -f $target/target.json ]] || die "$target has no target.json"
fi
[[ $ENGINE == libfuzzer || $ENGINE == afl ]] || die "ENGINE must be libfuzzer or afl, not $ENGINE"
for n in "$TIME" "$JOBS" "$SEED" ${RUNS:+"$RUNS"} ${SWEEP_DEPTH:+"$SWEEP_DEPTH"}; do [[ $n =~ ^[0-9]+$ ]] || die "not a number: $n"; done

py=/usr/bin/python3
[[ -x $py ]] || die "/usr/bin/python3 not found (bash ci/install-deps.sh)"
abspath() { realpath -m -- "$1"; }
if [[ -n $sandbox ]]; then # gatecrash names an inline target after its module
  sandbox=$(abspath "$sandbox")
  [[ $requires == @* ]] && requires=@$(abspath "${requires#@}")
  name=$(basename -- "$sandbox") name=${name%.*}
  tgt=(--sandbox "$sandbox" --requires "$requires")
else
  target=$(abspath "$target")
  name=$("$py" -I -c 'import json, sys; print(json.load(open(sys.argv[1]))["name"])' "$target/target.json") ||
    die "cannot read the name in $target/target.json"
  tgt=("$target")
fi
[[ $name =~ ^[A-Za-z0-9._+-]+$ ]] || die "target name '$name' is not usable as a folder name"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS=$(abspath "${CORPUS:-$root/nightly/$name/corpus}")
ESCAPES=$(abspath "${ESCAPES:-$root/escapes/$name}")
REPORT=$(abspath "${REPORT:-$root/out/$name/nightly}")
build=$(abspath "${BUILD_DIR:-$root/build}")
if [[ -n $CRASHES ]]; then
  [[ -d $CRASHES ]] || die "crash folder $CRASHES is not readable"
  CRASHES=$(abspath "$CRASHES")
fi
((TIME > 0)) || [[ -n $CRASHES ]] || die "--time 0 fuzzes nothing: give --crashes DIR to triage"
cd "$root"
if [[ $SKIP_BUILD != 1 ]]; then
  BUILD_DIR=$build bash ci/build.sh || die "the build failed" 4
fi
gc=$build/gatecrash
fuzzer=$build/fuzz_gate
[[ -x $gc && -x $fuzzer ]] || die "no gatecrash/fuzz_gate in $build (build first, or drop --no-build)"

# 1. restore: the repository's seeds and last night's corpus, copied (neither is written by
#    the engine: it reads --corpus only)
camp=$REPORT/campaign
rm -rf "$camp"
mkdir -p "$camp/seeds" "$camp/run" "$REPORT" "$ESCAPES"
find "$root/corpus" -maxdepth 1 -type f -exec cp -t "$camp/seeds/" -- {} +
if [[ -d $CORPUS ]] && compgen -G "$CORPUS/*" >/dev/null; then
  cp -- "$CORPUS"/* "$camp/seeds/"
fi
start=$(date +%s.%N)
if ((TIME > 0)); then
echo "nightly: $name: fuzzing ${TIME}s with $JOBS job(s) on $ENGINE from $(ls "$camp/seeds" | wc -l) seed(s)" >&2

# 2. fuzz
args=("${tgt[@]}" --time "$TIME" --jobs "$JOBS" --seed "$SEED" --corpus "$camp/seeds" --out "$camp/run")
[[ -n $RUNS ]] && args+=(--runs "$RUNS")
[[ -n $SWEEP_DEPTH ]] && args+=(--seed-sweep-depth "$SWEEP_DEPTH")
[[ $ENGINE != libfuzzer ]] && args+=(--engine "$ENGINE")
set +e
"$gc" fuzz "${args[@]}" >"$camp/fuzz.txt"
rc=$?
set -e
((rc <= 1)) || die "gatecrash fuzz failed (exit $rc; see $camp/run/fuzz.log)" "$rc"

# 3. the corpus: `gatecrash fuzz --corpus` merged and pruned the run's finds (either
#    engine's) into the restored seeds with libFuzzer's -merge=1; they become CORPUS
rm -rf "$CORPUS.old"
[[ -d $CORPUS ]] && mv "$CORPUS" "$CORPUS.old"
mkdir -p "$(dirname "$CORPUS")"
cp -r "$camp/seeds" "$CORPUS"
rm -rf "$CORPUS.old"
echo "nightly: corpus $CORPUS: $(ls "$CORPUS" | wc -l) input(s) after the merge" >&2
fi

# 4. triage every crash input into ESCAPES: "new" lines are signatures not saved before
crash_dirs=()
while IFS= read -r d; do crash_dirs+=("$d"); done < <(find "$camp/run" -type d -name crashes | sort)
((${#crash_dirs[@]})) || crash_dirs=("$camp/run/crashes")
[[ -n $CRASHES ]] && crash_dirs+=("$CRASHES")
mkdir -p "${crash_dirs[@]}"
found_by=$([[ $ENGINE == afl ]] && echo "AFL++ (nightly)" || echo "libFuzzer (nightly)")
set +e
"$gc" triage "${tgt[@]}" --out "$ESCAPES" --found-by "$found_by" "${crash_dirs[@]}" >"$REPORT/triage.log"
rc=$?
set -e
((rc == 0)) || die "gatecrash triage failed (exit $rc; see $REPORT/triage.log)" "$rc"
grep -E '^new ' "$REPORT/triage.log" | sed -E 's/^new +.*?: ((reach|effect|syscall):[^ ]+) .*/\1/' | sort -u >"$REPORT/new-escapes.txt" || true
new=$(grep -c '^new ' "$REPORT/triage.log" || true)
tail -1 "$REPORT/triage.log" >&2

# 5. the report: every saved case (new ones included) replayed by the release gate's writer;
#    report.html also charts the campaign's progress and compares with last night's report
#    (kept as previous-report.json)
report_in=()
[[ -f $camp/run/progress.tsv ]] && report_in+=(--progress "$camp/run/progress.tsv")
if [[ -f $REPORT/report.json ]]; then
  cp "$REPORT/report.json" "$REPORT/previous-report.json"
  report_in+=(--previous "$REPORT/previous-report.json")
fi
set +e
"$gc" gate "${tgt[@]}" --escapes "$ESCAPES" --time 0 --report "$REPORT" --out "$camp/gate" "${report_in[@]}" >"$camp/gate.txt" 2>&1
rc=$?
set -e
((rc <= 1 || rc == 5)) || die "gatecrash gate (report) failed (exit $rc; see $camp/gate.txt)" "$rc"
gate_rc=$rc

# 6. the plot, from the engine's own statistics
plot=(--triage "$REPORT/triage.log" --start "$start" -o "$REPORT/campaign.png" --title "gatecrash nightly: $name ($ENGINE, ${TIME}s, $JOBS job(s))")
for d in "${crash_dirs[@]}"; do plot+=(--crashes "$d"); done
[[ -f $camp/run/fuzz.log ]] && plot+=(--libfuzzer-log "$camp/run/fuzz.log")
while IFS= read -r p; do plot+=(--afl-plot-data "$p"); done < <(find "$camp/run" -name plot_data | sort)
if ((TIME > 0)); then
  "$py" -I "$root/ci/campaign_plot.py" "${plot[@]}" >"$camp/plot.txt" 2>&1 ||
    die "the campaign plot failed (see $camp/plot.txt; python3-matplotlib: bash ci/install-deps.sh)" 4
fi
cp "$camp/run/fuzz.log" "$REPORT/fuzz.log" 2>/dev/null || true

# 7. the nightly section of report.md
{
  echo
  echo "## Nightly campaign"
  echo
  echo "- engine: $ENGINE, ${TIME}s, $JOBS job(s), seed $SEED${RUNS:+, at most $RUNS inputs}"
  ((TIME > 0)) && echo "- corpus: \`$CORPUS\` ($(ls "$CORPUS" | wc -l) inputs after the merge)"
  [[ -n $CRASHES ]] && echo "- also triaged: \`$CRASHES\`"
  echo "- triage: $(tail -1 "$REPORT/triage.log")"
  echo "- new escape signatures: $new"
  echo
  if ((new)); then
    echo "| new case | signature | chain |"
    echo "|---|---|---|"
    grep -E '^new ' "$REPORT/triage.log" | sed -E 's/^new +(.*?): ((reach|effect|syscall):[^ ]+)  (.*)$/| `\1` | `\2` | `\4` |/'
    echo
  fi
  if ((TIME > 0)); then
    echo "### Live table of the campaign"
    echo
    echo '```'
    sed -n '/escape input(s)/,$p' "$camp/fuzz.txt"
    echo '```'
    echo
    echo "![campaign: execs/s, corpus size and distinct escapes over time](campaign.png)"
  fi
} >>"$REPORT/report.md"

if ((new)); then
  echo "nightly: $name: $new NEW escape signature(s), saved in $ESCAPES; report: $REPORT/report.md" >&2
  exit 1
fi
if ((gate_rc == 5)); then
  echo "nightly: $name: nothing new, but $(grep -c '^inconclusive ' "$camp/gate.txt") saved case(s) inconclusive (not a pass); report: $REPORT/report.md" >&2
  exit 5
fi
echo "nightly: $name: nothing new; report: $REPORT/report.md" >&2
exit 0
