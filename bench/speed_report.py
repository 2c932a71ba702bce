"""Tables and a plot from bench/speed.sh's runs (the honest tool for a small report)."""
import glob
import json
import os
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

out, secs, seeds = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
targets = ["station-1.5.0", "station-advisory-fix"]
modes = ["naive", "default"]
res = {}
for t in targets:
    for m in modes:
        runs = []
        for log in sorted(glob.glob(f"{out}/{t}-{m}-*/log")):
            text = open(log, errors="replace").read()
            execs = re.findall(r"stat::number_of_executed_units: (\d+)", text)
            ran = re.findall(r"gatecrash: stats: inputs \d+, chains run (\d+)", text)
            took = re.findall(r"Done (\d+) runs in (\d+) second", text)
            found = [(float(a), sig) for a, _, sig in re.findall(r"NEW-ESCAPE ([\d.]+) (\d+) (\S+)", text)]
            status = re.findall(r"^#(\d+)\s+\S+\s+cov:.*exec/s: (\d+)", text, re.M)
            # a run that ended early (a hang past -timeout, a harness error) has no final stats:
            # its last status line gives inputs and libFuzzer's own exec/s
            n = int(execs[-1]) if execs else (int(took[-1][0]) if took else (int(status[-1][0]) if status else 0))
            if not execs and not took and status:
                secs_run = n / max(int(status[-1][1]), 1)
            else:
                secs_run = secs
            runs.append({"execs": n, "ran": int(ran[-1]) if ran else None, "seconds": secs_run, "found": found,
                         "complete": bool(execs or took)})
        res[(t, m)] = runs

rows, data = [], {}
for t in targets:
    naive_sigs = {s for r in res[(t, "naive")] for _, s in r["found"]}
    for m in modes:
        runs = res[(t, m)]
        eps = statistics.mean(r["execs"] / r["seconds"] for r in runs) if runs else 0
        rps = [r["ran"] / r["seconds"] for r in runs if r["ran"] is not None]
        cps = statistics.mean(rps) if rps else None
        firsts = [min(x for x, _ in r["found"]) for r in runs if r["found"]]
        distinct = [len(r["found"]) for r in runs]
        # time to each signature the naive runs found, median over the runs that found it
        per_sig = {}
        for s in sorted(naive_sigs):
            times = [x for r in runs for x, sig in r["found"] if sig == s]
            per_sig[s] = (statistics.median(times) if times else None, len(times))
        data[f"{t}/{m}"] = {"execs_per_s": eps, "chains_per_s": cps,
                            "runs_ended_early": sum(1 for r in runs if not r["complete"]), "median_first_escape_s": statistics.median(firsts) if firsts else None,
                            "runs_with_an_escape": len(firsts), "runs": len(runs),
                            "median_distinct": statistics.median(distinct) if distinct else 0,
                            "naive_signatures": {k: {"median_s": v[0], "runs": v[1]} for k, v in per_sig.items()}}
        rows.append((t, m, eps, data[f"{t}/{m}"]))

rss = {}
for t in targets:
    text = open(f"{out}/{t}-rss/log", errors="replace").read() if os.path.exists(f"{out}/{t}-rss/log") else ""
    p = dict(re.findall(r"#(\d+)\s+pulse .*?rss: (\d+)Mb", text))
    rss[t] = (int(p["131072"]) if "131072" in p else None, int(p["1048576"]) if "1048576" in p else None)

md = [f"Side by side in one run: {seeds} seeds x {secs:.0f} s per target and mode (2 cores, two runs at a time).", "",
      "| target | mode | inputs/s (mean) | chains run/s | ratio (chains) | median time to first escape | runs with an escape | median distinct signatures |",
      "|---|---|---|---|---|---|---|---|"]
for t, m, eps, d in rows:
    base = data[f"{t}/naive"]["chains_per_s"] or 1
    mf = d["median_first_escape_s"]
    cps = d["chains_per_s"]
    md.append(f"| {t} | {m} | {eps:,.0f} | {'%.0f' % cps if cps else 'n/a'} | {'%.1fx' % (cps / base) if cps else 'n/a'} | "
              f"{'%.2f s' % mf if mf is not None else 'none'} | "
              f"{d['runs_with_an_escape']}/{d['runs']} | {d['median_distinct']:.0f} |")
md += ["", "Runs that ended early (a hang past -timeout, or a harness error; see docs/PERFORMANCE.md): " +
       ", ".join(f"{k}: {v['runs_ended_early']}" for k, v in data.items())]
md += ["", "Signatures the naive runs found, and the median time the default mode took to find each "
       "(over the default runs that found it):", "",
       "| target | signature | naive: runs | default: median time | default: runs |", "|---|---|---|---|---|"]
for t in targets:
    for s, v in data[f"{t}/default"]["naive_signatures"].items():
        nv = data[f"{t}/naive"]["naive_signatures"][s]["runs"]
        md.append(f"| {t} | `{s}` | {nv} | {'%.2f s' % v['median_s'] if v['median_s'] is not None else 'not found'} | {v['runs']} |")
md += ["", "| target | RSS after 2^17 (~131k) inputs | after 2^20 (~1.05M) | growth |", "|---|---|---|---|"]
for t, (a, b) in rss.items():
    g = f"{(b - a) / a * 100:.1f}%" if a and b else "n/a"
    md.append(f"| {t} | {a} MB | {b} MB | {g} |")
open("bench/results/speed.md", "w").write("\n".join(md) + "\n")
json.dump({"results": data, "rss_mb": rss}, open("bench/results/speed.json", "w"), indent=1)

fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=False)
for ax, t in zip(axes, targets):
    for m, color in (("naive", "tab:gray"), ("default", "tab:red")):
        for i, r in enumerate(res[(t, m)]):
            xs = sorted(x for x, _ in r["found"])
            ax.step([0] + xs + [secs], [0] + list(range(1, len(xs) + 1)) + [len(xs)], where="post",
                    color=color, alpha=0.5, label=m if i == 0 else None)
    ax.set_title(t)
    ax.set_xlabel("seconds")
    ax.set_ylabel("distinct escape signatures")
    ax.legend()
fig.tight_layout()
fig.savefig("bench/results/escapes-over-time.png", dpi=90)
print("\n".join(md))
