"""Tables and a plot from bench/speed.sh's runs (the honest tool for a small report)."""
import glob
import json
import math
import os
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

out, secs, seeds = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
naive_long, hard_secs, hard_seeds = float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
targets = ["station-1.5.0", "station-advisory-fix"]
modes = ["naive", "default"]
INF = math.inf


def trailers(chain):
    """Steps of a printed chain: attribute, item and call trailers (string contents ignored)."""
    bare = re.sub(r"'(?:[^'\\]|\\.)*'", "''", chain)
    return sum(bare.count(c) for c in ".[(")


def parse(log, seconds):
    text = open(log, errors="replace").read() if os.path.exists(log) else ""
    execs = re.findall(r"stat::number_of_executed_units: (\d+)", text)
    ran = re.findall(r"gatecrash: stats: inputs \d+, chains run (\d+)", text)
    found = [(float(a), sig, chain) for a, _, sig, chain in
             re.findall(r"NEW-ESCAPE ([\d.]+) (\d+) (\S+) via (.*)", text)]
    pulses = {int(n): (int(c), int(r)) for n, c, r in
              re.findall(r"^#(\d+)\s+pulse .*?corp: (\d+)/.*?rss: (\d+)Mb", text, re.M)}
    mem = {int(n): (float(r), float(pk)) for n, r, pk in
           re.findall(r"gatecrash: memory at input (\d+): resident ([\d.]+) MB, peak ([\d.]+) MB", text)}
    return {"mem": mem, "execs": int(execs[-1]) if execs else 0, "ran": int(ran[-1]) if ran else 0, "seconds": seconds,
            "found": found, "complete": bool(execs) and bool(ran), "pulses": pulses}


def median(xs):
    return statistics.median(xs) if xs else None


def fmt_s(x):
    return "none" if x is None or x == INF else f"{x:.2f} s"


res = {(t, m): [parse(f, secs) for f in sorted(glob.glob(f"{out}/{t}-{m}-[0-9]*/log"))] for t in targets for m in modes}
long_runs = {t: parse(f"{out}/{t}-naive-long/log", naive_long) for t in targets}
data = {}
md = [f"Side by side in one run: {seeds} seeds x {secs:.0f} s per target and mode, two single-process runs at a "
      "time on the 2 cores. Medians over seeds; a run that did not find something counts as not finding it "
      "within its time (so a median is 'none' unless at least half the runs found it).", "",
      "| target | mode | inputs/s (mean) | chains run/s (mean) | ratio (chains run) | median time to first escape "
      "| runs with an escape | median distinct signatures |", "|---|---|---|---|---|---|---|---|"]
for t in targets:
    for m in modes:
        runs = res[(t, m)]
        # throughput over the runs that ended normally (a run killed by the outer timeout
        # under heavy machine load has no stats line)
        done = [r for r in runs if r["complete"]]
        eps = statistics.mean(r["execs"] / r["seconds"] for r in done) if done else 0
        cps = statistics.mean(r["ran"] / r["seconds"] for r in done) if done else 0
        firsts = [min((x for x, _, _ in r["found"]), default=INF) for r in runs]
        d = {"inputs_per_s": eps, "chains_per_s": cps, "median_first_escape_s": median(firsts),
             "runs_with_an_escape": sum(1 for f in firsts if f < INF), "runs": len(runs),
             "runs_ended_early": sum(1 for r in runs if not r["complete"]),
             "median_distinct": median([len(r["found"]) for r in runs]) or 0}
        data[f"{t}/{m}"] = d
    base = data[f"{t}/naive"]["chains_per_s"] or 1
    for m in modes:
        d = data[f"{t}/{m}"]
        d["ratio"] = d["chains_per_s"] / base
        md.append(f"| {t} | {m} | {d['inputs_per_s']:,.0f} | {d['chains_per_s']:,.0f} | {d['ratio']:.1f}x | "
                  f"{fmt_s(d['median_first_escape_s'])} | {d['runs_with_an_escape']}/{d['runs']} | "
                  f"{d['median_distinct']:.0f} |")
# the two runs of a seed ran at the same time, on the same machine load: their ratio is the
# side-by-side figure least disturbed by other processes
md += ["", "Per seed (the naive and default runs of a seed ran at the same time): chains run by the default "
       "/ by the naive loop.", "", "| target | per-seed ratios | median | min | max |", "|---|---|---|---|---|"]
for t in targets:
    pairs = {}
    for m in modes:
        for f in sorted(glob.glob(f"{out}/{t}-{m}-[0-9]*/log")):
            r = parse(f, secs)
            pairs.setdefault(int(f.split("-")[-1].split("/")[0]), {})[m] = r["ran"] if r["complete"] else None
    ratios = [p["default"] / p["naive"] for _, p in sorted(pairs.items()) if p.get("naive") and p.get("default")]
    data[f"{t}/pair_ratios"] = ratios
    if ratios:
        md.append(f"| {t} | {', '.join('%.1f' % r for r in ratios)} | {statistics.median(ratios):.1f}x | "
                  f"{min(ratios):.1f}x | {max(ratios):.1f}x |")
md += ["", "Runs without gatecrash's final stats line (left out of the throughput figures; their escapes "
       "still count): " + ", ".join(f"{k}: {v['runs_ended_early']}" for k, v in data.items() if isinstance(v, dict) and 'runs_ended_early' in v)]

md += ["", f"Every signature the naive loop found — one naive run of {naive_long:.0f} s per target plus the "
       f"{seeds} short naive runs — and the time the default mode took to find it (median over its {seeds} runs):", "",
       "| target | signature | found by the naive loop after | default: median time | default: runs that found it "
       "| under 60 s |", "|---|---|---|---|---|---|"]
for t in targets:
    naive_first = {}
    for r in [long_runs[t]] + res[(t, "naive")]:
        for x, s, _ in r["found"]:
            naive_first[s] = min(naive_first.get(s, INF), x)
    data[f"{t}/naive_long"] = {"inputs": long_runs[t]["execs"], "chains_run": long_runs[t]["ran"],
                               "signatures": len(long_runs[t]["found"])}
    sig_rows = {}
    for s in sorted(naive_first, key=naive_first.get):
        times = [min((x for x, sig, _ in r["found"] if sig == s), default=INF) for r in res[(t, "default")]]
        med = median(times)
        sig_rows[s] = {"naive_s": naive_first[s], "default_median_s": med,
                       "default_runs": sum(1 for x in times if x < INF)}
        md.append(f"| {t} | `{s}` | {naive_first[s]:.1f} s | {fmt_s(med)} | {sig_rows[s]['default_runs']}/{len(times)} "
                  f"| {'yes' if med is not None and med < 60 else 'no'} |")
    if not naive_first:
        md.append(f"| {t} | (the naive loop found none in {naive_long:.0f} s: {long_runs[t]['execs']:,} inputs, "
                  f"{long_runs[t]['ran']:,} chains run) | | | | |")
    data[f"{t}/naive_signatures"] = sig_rows

md += ["", "Memory: one default run of 1.1M inputs per target. Resident: /proc/self/statm, read by",
       "fuzz_gate at input 100,000 and 1,000,000; peak: getrusage's maximum (what libFuzzer's `rss:`",
       "shows), which a single input's short-lived allocation raises for good. Corpus: libFuzzer's",
       "pulse lines at 2^17 and 2^20.", "",
       "| target | resident at 100k inputs | at 1M | growth | peak at 100k | at 1M | corpus at 2^17 | at 2^20 |",
       "|---|---|---|---|---|---|---|---|"]
rss = {}
for t in targets:
    r = parse(f"{out}/{t}-rss/log", 0)
    p, m = r["pulses"], r["mem"]
    a, b = m.get(100000), m.get(1000000)
    g = (b[0] - a[0]) / a[0] * 100 if a and b else None
    ca, cb = p.get(131072), p.get(1048576)
    rss[t] = {"resident_100k": a and a[0], "resident_1M": b and b[0], "peak_100k": a and a[1], "peak_1M": b and b[1],
              "growth_pct": g, "corpus_2_17": ca and ca[0], "corpus_2_20": cb and cb[0]}
    f = lambda x, i: "%.1f MB" % x[i] if x else "n/a"
    md.append(f"| {t} | {f(a, 0)} | {f(b, 0)} | {'%+.1f%%' % g if g is not None else 'n/a'} | {f(a, 1)} | {f(b, 1)} | "
              f"{ca[0] if ca else ''} | {cb[0] if cb else ''} |")

hard = [parse(f, hard_secs) for f in sorted(glob.glob(f"{out}/constants-only-default-*/log"),
                                            key=lambda f: int(f.split("-")[-1].split("/")[0]))]
md += ["", f"targets/constants-only (every escape a class walk of 4+ steps): {len(hard)} default runs of "
       f"{hard_secs:.0f} s.", "", "| seed | first escape (4+ steps) after | its chain | steps | distinct signatures |",
       "|---|---|---|---|---|"]
hard_firsts = []
for i, r in enumerate(hard, 1):
    deep = [(x, s, c) for x, s, c in r["found"] if trailers(c) >= 4]
    f = min(deep, default=None)
    hard_firsts.append(f[0] if f else INF)
    md.append(f"| {i} | {fmt_s(f[0]) if f else 'not found'} | {'`' + f[2] + '`' if f else ''} | "
              f"{trailers(f[2]) if f else ''} | {len(r['found'])} |")
hm = median(hard_firsts)
md += ["", f"Median time to the first 4+ step escape on constants-only: {fmt_s(hm)} "
       f"({sum(1 for x in hard_firsts if x < INF)}/{len(hard)} runs found one within {hard_secs:.0f} s)."]
data["constants-only"] = {"first_deep_escape_s": [None if x == INF else x for x in hard_firsts],
                          "median_s": None if hm in (None, INF) else hm}

open("bench/results/speed.md", "w").write("\n".join(md) + "\n")
json.dump({"results": data, "rss_mb": rss}, open("bench/results/speed.json", "w"), indent=1)

fig, axes = plt.subplots(1, 3, figsize=(15, 4))
for ax, t in zip(axes, targets + ["constants-only"]):
    groups = [("naive", "tab:gray", res.get((t, "naive"), [])), ("default", "tab:red", res.get((t, "default"), []))]
    if t == "constants-only":
        groups = [("default", "tab:red", hard)]
    for m, color, runs in groups:
        for i, r in enumerate(runs):
            xs = sorted(x for x, _, _ in r["found"])
            ax.step([0] + xs + [r["seconds"]], [0] + list(range(1, len(xs) + 1)) + [len(xs)], where="post",
                    color=color, alpha=0.5, label=f"{m} ({len(runs)} seeds)" if i == 0 else None)
    if t in long_runs:
        xs = sorted(x for x, _, _ in long_runs[t]["found"])
        ax.step([0] + xs + [naive_long], [0] + list(range(1, len(xs) + 1)) + [len(xs)], where="post", color="black",
                linestyle="--", label=f"naive, {naive_long:.0f} s run")
    ax.set_xscale("symlog", linthresh=1)
    ax.set_title(t)
    ax.set_xlabel("seconds (log scale past 1 s)")
    ax.set_ylabel("distinct escape signatures")
    ax.legend(loc="upper left")
fig.tight_layout()
fig.savefig("bench/results/escapes-over-time.png", dpi=90)
print("\n".join(md))
