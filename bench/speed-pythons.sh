#!/usr/bin/env bash
# The default fuzz_gate on each supported CPython this machine has, side by side in one run
#: for each version (ci/find-python.sh; built in build-py3.X, or `build` for the
# distribution's default), SEEDS single-process runs of SECONDS on station-1.5.0 and
# station-advisory-fix, and HARD_SEEDS runs of HARD_SECONDS on targets/constants-only (whose
# escapes are class walks of 4+ steps); two runs at a time, versions interleaved so each
# sees the same machine load.  Reports, per version and target, the median inputs/s and
# the median number of distinct escape signatures (and both against the default
# version's), and on constants-only the runs that found an escape of 4+ steps.
# Writes bench/results/speed-pythons.md.  A benchmark, not a test.
# Usage: bench/speed-pythons.sh [SECONDS=60] [SEEDS=3] [HARD_SECONDS=120] [HARD_SEEDS=3] [VERSIONS="3.11 3.12 3.13"]
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60} seeds=${2:-3} hard_secs=${3:-120} hard_seeds=${4:-3} versions=${5:-3.11 3.12 3.13}
root=$PWD
default=$(/usr/bin/python3 -I -c 'import sys; print("%d.%d" % sys.version_info[:2])')
out=$root/bench/results/speed-pythons-runs
rm -rf "$out" && mkdir -p "$out"
have=()
for v in $versions; do
  py=$(bash ci/find-python.sh "$v") || { echo "speed-pythons: skip CPython $v: not on this machine" >&2; continue; }
  b=build-py$v
  [[ $v == "$default" ]] && b=build
  [[ -x $b/fuzz_gate ]] || PYTHON=$py BUILD_DIR=$b bash ci/build.sh || exit 2
  echo "$v $root/$b" >>"$out/versions"
  have+=("$v")
done
((${#have[@]})) || exit 2
seed_inputs=$(find "$root/corpus" -maxdepth 1 -type f | sort | paste -sd,)
common=(--quiet --escapes=continue -timeout=10 -rss_limit_mb=4096 -max_len=512 -dict="$root/dict/gatecrash.dict"
        -seed_inputs="$seed_inputs" -print_final_stats=1)
bin() { awk -v v="$1" '$1 == v {print $2}' "$out/versions"; }
run() { # dir version target seconds seed
  mkdir -p "$1/scratch"
  (cd "$1/scratch" && timeout $(($4 + 120)) "$(bin "$2")/fuzz_gate" --target="$root/targets/$3" "${common[@]}" \
     -seed="$5" -max_total_time="$4") >"$1/log" 2>&1
}
jobs=()
slot() { jobs+=($!); if ((${#jobs[@]} >= 2)); then wait "${jobs[0]}"; jobs=("${jobs[@]:1}"); fi; }
for s in $(seq 1 "$seeds"); do
  for t in station-1.5.0 station-advisory-fix; do
    for v in "${have[@]}"; do run "$out/$v-$t-$s" "$v" "$t" "$secs" "$s" & slot; done
  done
done
for s in $(seq 1 "$hard_seeds"); do
  for v in "${have[@]}"; do run "$out/$v-constants-only-$s" "$v" constants-only "$hard_secs" "$s" & slot; done
done
wait

# one line per run: version target seed inputs/s distinct-signatures deep-escapes first-deep-s
for f in "$out"/*/log; do
  d=$(basename "$(dirname "$f")") v=${d%%-*} rest=${d#*-} s=${d##*-} t=${rest%-*}
  n=$(sed -n 's/^stat::number_of_executed_units: //p' "$f" | tail -1)
  el=$secs; [[ $t == constants-only ]] && el=$hard_secs
  # gatecrash: NEW-ESCAPE SECONDS N SIGNATURE via CHAIN; a chain's steps: its . [ ( outside strings
  awk -v v="$v" -v t="$t" -v s="$s" -v n="${n:-0}" -v el="$el" '
    /NEW-ESCAPE / { sub(/^.*NEW-ESCAPE /, ""); sigs++; c = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ via /, "", c); gsub(/'"'"'([^'"'"'\\]|\\.)*'"'"'/, "", c)
                     k = gsub(/[.[(]/, "", c); if (k >= 4) { deep++; if (first == "") first = $1 } }
    END { printf "%s %s %s %.0f %d %d %s\n", v, t, s, n / el, sigs, deep, first == "" ? "-" : first }' "$f"
done | sort >"$out/runs.txt"

awk -v def="$default" -v secs="$secs" -v seeds="$seeds" -v hs="$hard_secs" -v hseeds="$hard_seeds" '
  function med(key,   n, i, j, x, a) { n = cnt[key]; for (i = 1; i <= n; i++) a[i] = val[key, i]
    for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  { k = $1 SUBSEP $2; if (!(k in seen)) { seen[k] = 1; order[++no] = k }
    cnt[k "e"]++; val[k "e", cnt[k "e"]] = $4; cnt[k "d"]++; val[k "d", cnt[k "d"]] = $5
    if ($2 == "constants-only") { hr[k]++; if ($6 > 0) hd[k]++; if ($7 != "-") ft[k] = ft[k] " " $7 } }
  END {
    printf "Default fuzz_gate per CPython, side by side: %d seeds x %d s per version and target, two runs at a time (versions interleaved). Medians over seeds. Ratios against CPython %s.\n\n", seeds, secs, def
    print "| CPython | target | inputs/s | vs " def " | distinct signatures | vs " def " |"; print "|---|---|---|---|---|---|"
    for (i = 1; i <= no; i++) { split(order[i], p, SUBSEP); if (p[2] == "constants-only") continue
      e = med(order[i] "e"); d = med(order[i] "d"); be = med(def SUBSEP p[2] "e"); bd = med(def SUBSEP p[2] "d")
      printf "| %s | %s | %.0f | %s | %g | %s |\n", p[1], p[2], e, be ? sprintf("%.2f", e / be) : "-", d, bd ? sprintf("%.0f%%", 100 * d / bd) : "-" }
    printf "\nconstants-only (escapes are class walks of 4+ steps): %d seeds x %d s per version.\n\n", hseeds, hs
    print "| CPython | inputs/s | runs with an escape of 4+ steps | time of the first (per run that found one) |"; print "|---|---|---|---|"
    for (i = 1; i <= no; i++) { split(order[i], p, SUBSEP); if (p[2] != "constants-only") continue
      printf "| %s | %.0f | %d/%d |%s s |\n", p[1], med(order[i] "e"), hd[order[i]], hr[order[i]], ft[order[i]] == "" ? " -" : ft[order[i]] } }
' "$out/runs.txt" >bench/results/speed-pythons.md
cat bench/results/speed-pythons.md
