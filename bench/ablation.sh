#!/usr/bin/env bash
# With and without each Python-side signal: the default fuzz_gate against the
# same with one of its signals off (-SIGNAL: --feedback=default,-SIGNAL, see
# harness/chain/feedback.h) or one more on (+SIGNAL), with every signal ("full"), and with no
# Python-side feedback at all ("none"; chain mutator and namespace reuse kept).  For each target,
# variant and seed, one single-process run of SECONDS (escapes reported once per signature,
# not as crashes), two runs at a time.  Writes bench/results/ablation.{md,json}.
# RUNS=N bounds each run by N inputs instead of SECONDS (then every figure but chains run/s is
# a count, independent of the machine's load; the time limit becomes 20 x SECONDS).
# REPORT_ONLY=1 runs nothing and reports the runs already in bench/results/X-runs (seeds
# that did not finish every variant are left out).
# NAME=X writes bench/results/X.{md,json} (default: ablation).
# A variant may combine changes: "-transitions,+modules".
# Usage: [NAME=X] [VARIANTS="full none ..."] [RUNS=N] bench/ablation.sh [SECONDS=20] [SEEDS=3] [BUILD_DIR=build] [TARGETS="station-1.5.0 station-advisory-fix"]
# With the defaults it takes about 10 minutes on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20} seeds=${2:-3} build=${3:-build}
targets=${4:-"station-1.5.0 station-advisory-fix"}
root=$PWD
[[ $build == /* ]] || build=$root/$build
[[ -x $build/fuzz_gate ]] || { bash ci/install-deps.sh && BUILD_DIR=$build bash ci/build.sh; } || exit 2
name=${NAME:-ablation}
out=bench/results/$name-runs
[[ -n ${REPORT_ONLY:-} ]] || { rm -rf "$out" && mkdir -p "$out"; }
variants=${VARIANTS:-"default full none -classes -prims +transitions +names +modules +gate +counts"}
seed_inputs=$(find "$root/corpus" -maxdepth 1 -type f | sort | paste -sd,)
run() { # target variant seed
  local t=$1 v=$2 s=$3 fb
  case $v in default|full|none) fb=$v ;; *) fb="default,$v" ;; esac
  local d=$out/$t.$v.$s bound=(-max_total_time="$secs")
  [[ -n ${RUNS:-} ]] && bound=(-runs="$RUNS" -max_total_time=$((secs * 20)))
  mkdir -p "$d/scratch"
  (cd "$d/scratch" && timeout $((secs * 20 + 60)) "$build/fuzz_gate" --target="$root/targets/$t" --quiet \
     --escapes=continue --feedback="$fb" -seed="$s" "${bound[@]}" -timeout=10 -rss_limit_mb=4096 \
     -max_len=512 -dict="$root/dict/gatecrash.dict" -seed_inputs="$seed_inputs" -print_final_stats=1) >"$d/log" 2>&1
}
jobs=()
[[ -n ${REPORT_ONLY:-} ]] && targets_to_run="" || targets_to_run=$targets
for t in $targets_to_run; do
  for s in $(seq 1 "$seeds"); do
    for v in $variants; do
      run "$t" "$v" "$s" &
      jobs+=($!)
      if ((${#jobs[@]} >= 2)); then wait "${jobs[0]}"; jobs=("${jobs[@]:1}"); fi
    done
  done
done
wait
/usr/bin/python3 - "$out" "$secs" "$seeds" "$targets" "$variants" "${RUNS:-}" "$name" <<'PY'
import json, re, statistics, sys
out, secs, seeds, targets, variants, runs = (sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(),
                                             sys.argv[5].split(), sys.argv[6])
result = sys.argv[7]
bound = f"{int(runs):,} inputs" if runs else f"{secs:.0f} s"
def finished(log):
    try:
        return "stat::number_of_executed_units" in open(log, errors="replace").read()
    except OSError:
        return False
# the seeds every variant of every target finished (a report of a run cut short compares like with like)
done = [s for s in range(1, seeds + 1) if all(finished(f"{out}/{t}.{v}.{s}/log") for t in targets for v in variants)]
md = [f"{len(done)} seeds ({', '.join(map(str, done))}) x {bound} per target and variant, two runs at a time (medians over seeds; a run that found",
      "nothing counts as not finding it within its bound).", "",
      "| target | signals | chains run/s | median inputs to first escape | median time to first escape | runs with an escape | median distinct signatures | median corpus size |",
      "|---|---|---|---|---|---|---|---|"]
data = {}
for t in targets:
    for v in variants:
        rows = []
        for log in [f"{out}/{t}.{v}.{s}/log" for s in done]:
            text = open(log, errors="replace").read()
            ran = re.findall(r"chains run (\d+)", text)
            found = [(float(a), int(n)) for a, n in re.findall(r"NEW-ESCAPE ([\d.]+) (\d+) ", text)]
            corp = re.findall(r"corp: (\d+)/", text)
            took = re.findall(r"Done \d+ runs in (\d+) second", text)
            span = max(int(took[-1]), 1) if runs and took else secs
            rows.append({"cps": int(ran[-1]) / span if ran else 0, "first": min(found)[0] if found else None,
                         "first_inputs": min(found)[1] if found else None,
                         "distinct": len(found), "corpus": int(corp[-1]) if corp else 0})
        def med(key):  # median with 'not found' as +infinity: None unless at least half found it
            xs = sorted(r[key] if r[key] is not None else float("inf") for r in rows)
            m = statistics.median(xs) if xs else float("inf")
            return None if m == float("inf") else m
        d = {"chains_per_s": statistics.median(r["cps"] for r in rows) if rows else 0,
             "median_first_escape_s": med("first"), "median_first_escape_inputs": med("first_inputs"),
             "runs_with_escape": sum(r["first"] is not None for r in rows),
             "median_distinct": statistics.median(r["distinct"] for r in rows) if rows else 0,
             "median_corpus": statistics.median(r["corpus"] for r in rows) if rows else 0, "runs": rows}
        data[f"{t}/{v}"] = d
        name = {"default": "default (classes, prims)", "full": "full (all but counts)",
                "none": "none"}.get(  # "-a,+b": "default but a, and b"
            v, "default " + ", ".join(("but " if w[0] == "-" else "and ") + w[1:] for w in v.split(",")))
        fe, fi = d["median_first_escape_s"], d["median_first_escape_inputs"]
        md.append(f"| {t} | {name} | {d['chains_per_s']:,.0f} | {'{:,.0f}'.format(fi) if fi is not None else 'none'} | "
                  f"{'%.2f s' % fe if fe is not None else 'none'} | {d['runs_with_escape']}/{len(rows)} | "
                  f"{d['median_distinct']:.0f} | {d['median_corpus']:.0f} |")
open(f"bench/results/{result}.md", "w").write("\n".join(md) + "\n")
json.dump(data, open(f"bench/results/{result}.json", "w"), indent=1)
print("\n".join(md))
PY
