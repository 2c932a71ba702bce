#!/usr/bin/env bash
# With and without each Python-side signal (issue 4): the default fuzz_gate against the
# same with one signal off (--feedback=full,-SIGNAL, see harness/feedback.h) or on
# (+counts: hit counts, off by default), and with no
# Python-side feedback at all (chain mutator and namespace reuse kept).  For each target,
# variant and seed, one single-process run of SECONDS (escapes reported once per signature,
# not as crashes), two runs at a time.  Writes bench/results/ablation.{md,json}.
# Usage: [VARIANTS="full none ..."] bench/ablation.sh [SECONDS=20] [SEEDS=3] [BUILD_DIR=build] [TARGETS="station-1.5.0 station-advisory-fix"]
# With the defaults it takes about 10 minutes on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20} seeds=${2:-3} build=${3:-build}
targets=${4:-"station-1.5.0 station-advisory-fix"}
root=$PWD
[[ $build == /* ]] || build=$root/$build
out=bench/results/ablation-runs
rm -rf "$out" && mkdir -p "$out"
variants=${VARIANTS:-"full +counts -gate -names -transitions -modules -classes -prims none"}
seed_inputs=$(ls "$root"/corpus/* | paste -sd,)
run() { # target variant seed
  local t=$1 v=$2 s=$3 fb
  case $v in full|none) fb=$v ;; *) fb="full,$v" ;; esac
  local d=$out/$t.$v.$s
  mkdir -p "$d/scratch"
  (cd "$d/scratch" && timeout $((secs + 60)) "$build/fuzz_gate" --target="$root/targets/$t" --quiet \
     --escapes=continue --feedback="$fb" -seed="$s" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 \
     -max_len=512 -dict="$root/dict/gatecrash.dict" -seed_inputs="$seed_inputs" -print_final_stats=1) >"$d/log" 2>&1
}
jobs=()
for t in $targets; do
  for s in $(seq 1 "$seeds"); do
    for v in $variants; do
      run "$t" "$v" "$s" &
      jobs+=($!)
      if ((${#jobs[@]} >= 2)); then wait "${jobs[0]}"; jobs=("${jobs[@]:1}"); fi
    done
  done
done
wait
/usr/bin/python3.11 - "$out" "$secs" "$seeds" "$targets" "$variants" <<'PY'
import glob, json, re, statistics, sys
out, secs, seeds, targets, variants = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(), sys.argv[5].split()
md = [f"{seeds} seeds x {secs:.0f} s per target and variant, two runs at a time (medians over seeds).", "",
      "| target | signals | chains run/s | median time to first escape | median distinct signatures | median corpus size |",
      "|---|---|---|---|---|---|"]
data = {}
for t in targets:
    for v in variants:
        rows = []
        for log in sorted(glob.glob(f"{out}/{t}.{v}.*/log")):
            text = open(log, errors="replace").read()
            ran = re.findall(r"chains run (\d+)", text)
            found = [float(a) for a in re.findall(r"NEW-ESCAPE ([\d.]+) ", text)]
            corp = re.findall(r"corp: (\d+)/", text)
            rows.append({"cps": int(ran[-1]) / secs if ran else 0, "first": min(found) if found else None,
                         "distinct": len(found), "corpus": int(corp[-1]) if corp else 0})
        firsts = [r["first"] for r in rows if r["first"] is not None]
        d = {"chains_per_s": statistics.median(r["cps"] for r in rows) if rows else 0,
             "median_first_escape_s": statistics.median(firsts) if len(firsts) * 2 > len(rows) else None,
             "median_distinct": statistics.median(r["distinct"] for r in rows) if rows else 0,
             "median_corpus": statistics.median(r["corpus"] for r in rows) if rows else 0, "runs": rows}
        data[f"{t}/{v}"] = d
        name = {"full": "default (all but counts)", "none": "none"}.get(
            v, ("default but " if v[0] == "-" else "default and ") + v[1:])
        fe = d["median_first_escape_s"]
        md.append(f"| {t} | {name} | {d['chains_per_s']:,.0f} | {'%.2f s' % fe if fe is not None else 'none'} | "
                  f"{d['median_distinct']:.0f} | {d['median_corpus']:.0f} |")
open("bench/results/ablation.md", "w").write("\n".join(md) + "\n")
json.dump(data, open("bench/results/ablation.json", "w"), indent=1)
print("\n".join(md))
PY
