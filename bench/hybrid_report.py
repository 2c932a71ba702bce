"""bench/hybrid.sh's report: RUNS_DIR (bench/results/hybrid-runs) into PREFIX.md and PREFIX.png.

Each run folder holds meta.tsv (target, mode, seed, seconds, wall, stopped_early) and the
campaign's OUT/finds.tsv (seconds since the campaign started, sweep|engine, hole, signature,
chain: one line per new row of its table) and OUT/progress.tsv (execs over time); a sweep
folder its own finds.tsv (every hole at the sweep's wall time).
Run with /usr/bin/python3 (Debian's python3-matplotlib).
"""
import os
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODES = ["sweep", "fuzz", "hybrid"]


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", errors="replace") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def load(runs_dir):
    runs = []
    for target in sorted(os.listdir(runs_dir)):
        tdir = os.path.join(runs_dir, target)
        for name in sorted(os.listdir(tdir)):
            d = os.path.join(tdir, name)
            meta = dict(r[:2] for r in read_tsv(os.path.join(d, "meta.tsv")) if len(r) >= 2)
            if not meta:
                continue
            finds = read_tsv(os.path.join(d, "finds.tsv")) or read_tsv(os.path.join(d, "out", "finds.tsv"))
            first = {}  # hole -> first time
            swept = [float(r[0]) for r in finds if len(r) >= 2 and r[1] == "sweep"]
            for r in finds:
                if len(r) >= 3:
                    t = float(r[0])
                    first[r[2]] = min(t, first.get(r[2], t))
            # execs/s after the seeding phase: from the first progress line with inputs run
            # (about 5 s in, the sweep and the seeds' first pass behind it) to the last
            prog = [r for r in read_tsv(os.path.join(d, "out", "progress.tsv"))[1:] if len(r) >= 2 and float(r[1]) > 0]
            eps = None
            if len(prog) >= 2:
                secs = float(prog[-1][0]) - float(prog[0][0])
                eps = (float(prog[-1][1]) - float(prog[0][1])) / secs if secs > 0 else None
            # inputs the per-input time limit stopped (each costs the limit or more): the jobs' stats lines
            stats = os.path.join(d, "out", "job-stats.log")
            timeouts = None
            if os.path.exists(stats):
                with open(stats, encoding="utf-8", errors="replace") as f:
                    timeouts = sum(int(m) for m in re.findall(r"stopped by the time limit (\d+)", f.read()))
            runs.append({"target": target, "mode": meta["mode"], "seed": meta.get("seed", "-"), "prog": prog,
                         "timeouts": timeouts,
                         "wall": float(meta.get("wall", 0)), "stopped": meta.get("stopped_early") == "1",
                         "seconds": meta.get("seconds", "-"), "first": first,
                         "first_escape": min(first.values()) if first else None, "eps": eps,
                         "replayed": int(meta["replayed"]) if "replayed" in meta else None,
                         "flaky": int(meta["flaky"]) if "flaky" in meta else None,
                         "swept_by": max(swept) if swept and meta["mode"] != "sweep" else None})
    return runs


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, digits=1):
    return "-" if x is None else f"{x:.{digits}f}"


def holes_at(run, t):
    return sum(1 for v in run["first"].values() if v <= t)


def replays(rs):
    done = [r for r in rs if r["replayed"] is not None]
    if not done:
        return "-"
    return f"{sum(r['replayed'] for r in done)}: {sum(r['flaky'] for r in done)}"


def summary_table(runs, out):
    out.append("| target | mode | s | runs | first escape s (median, min-max) | holes at 60 s | at 120 s | at 600 s "
               "| holes at end | execs/s after seeding (median) | stopped early "
               "| crash inputs triaged afresh: not reproducible |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for target in sorted({r["target"] for r in runs}):
        for mode, secs in sorted({(r["mode"], r["seconds"]) for r in runs if r["target"] == target},
                                 key=lambda k: (MODES.index(k[0]), k[1] == "-" or float(k[1]))):
            rs = [r for r in runs if r["target"] == target and r["mode"] == mode and r["seconds"] == secs]
            fe = [r["first_escape"] for r in rs if r["first_escape"] is not None]
            fe_s = "none" if not fe else f"{fmt(med(fe))} ({fmt(min(fe))}-{fmt(max(fe))}, {len(fe)}/{len(rs)})"
            cols = []
            for t in (60, 120, 600):
                ok = [r for r in rs if mode == "sweep" or r["stopped"] or float(r["seconds"]) >= t]
                cols.append(fmt(med([holes_at(r, t) for r in ok]), 0) if ok else "-")
            out.append(f"| {target} | {mode} | {secs} | {len(rs)} | {fe_s} | {cols[0]} | {cols[1]} | {cols[2]} | "
                       f"{fmt(med([len(r['first']) for r in rs]), 0)} | {fmt(med([r['eps'] for r in rs]), 0)} | "
                       f"{sum(r['stopped'] for r in rs)} | {replays(rs)} |")


WINDOWS = [(0, 120), (120, 300), (300, 600)]


def window_eps(run, lo, hi):
    """execs/s between the first and last progress lines in [lo, hi] (prog starts after seeding)"""
    pts = [(float(r[0]), float(r[1])) for r in run["prog"]]
    inside = [p for p in pts if lo <= p[0] <= hi]
    if len(inside) < 2 or inside[-1][0] - inside[0][0] < 0.5 * (hi - lo):
        return None  # the run ended early in this window
    return (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0])


def throughput_table(runs, out):
    """execs/s per window of the long runs, and hybrid/fuzz per seed (the two ran side by side)"""
    long_runs = [r for r in runs if r["mode"] != "sweep" and r["seconds"] != "-" and float(r["seconds"]) >= 600
                 and not r["stopped"]]
    cols = " | ".join(f"{lo}-{hi} s: fuzz, hybrid, hybrid/fuzz" for lo, hi in WINDOWS)
    out.append(f"| target | seeds | {cols} | inputs stopped by the time limit: fuzz, hybrid (median) |")
    out.append("|---|---|" + "---|" * (len(WINDOWS) + 1))
    for target in sorted({r["target"] for r in long_runs}):
        rs = [r for r in long_runs if r["target"] == target]
        seeds = sorted({r["seed"] for r in rs if r["mode"] == "hybrid"} & {r["seed"] for r in rs if r["mode"] == "fuzz"})
        if not seeds:
            continue  # no pair ran its whole length (lookup-hard's hybrid stops early)
        cells = []
        for lo, hi in WINDOWS:
            by = {(r["mode"], r["seed"]): window_eps(r, lo, hi) for r in rs}
            f = med([by.get(("fuzz", s)) for s in seeds])
            h = med([by.get(("hybrid", s)) for s in seeds])
            ratios = [by[("hybrid", s)] / by[("fuzz", s)] for s in seeds
                      if by.get(("hybrid", s)) and by.get(("fuzz", s))]
            rng = f" ({fmt(min(ratios), 2)}-{fmt(max(ratios), 2)})" if ratios else ""
            cells.append(f"{fmt(f, 0)}, {fmt(h, 0)}, {fmt(med(ratios), 2)}{rng}")
        tos = [f"{fmt(med([r['timeouts'] for r in rs if r['mode'] == m and r['seed'] in seeds]), 0)}"
               for m in ("fuzz", "hybrid")]
        out.append(f"| {target} | {len(seeds)} | " + " | ".join(cells) + f" | {tos[0]}, {tos[1]} |")


def hole_table(runs, out):
    out.append("| target | hole | " + " | ".join(f"{m}: seeds, median s" for m in MODES) + " |")
    out.append("|---|---|" + "---|" * len(MODES))
    for target in sorted({r["target"] for r in runs}):
        trs = [r for r in runs if r["target"] == target]
        holes = sorted({h for r in trs for h in r["first"]})
        for h in holes:
            cells = []
            for mode in MODES:
                rs = [r for r in trs if r["mode"] == mode]
                ts = [r["first"][h] for r in rs if h in r["first"]]
                cells.append("-" if not rs else f"{len(ts)}/{len(rs)}, {fmt(med(ts))}" if ts else f"0/{len(rs)}")
            out.append(f"| {target} | `{h}` | " + " | ".join(cells) + " |")


def sweep_check(runs, out):
    out.append("| target | holes of sweep --depth 5 | hybrid runs with all of them by 60 s | by 1 s "
               "| the hybrid's own sweep: all its escapes reported by (s, median, max) |")
    out.append("|---|---|---|---|---|")
    for target in sorted({r["target"] for r in runs}):
        sw = [r for r in runs if r["target"] == target and r["mode"] == "sweep"]
        hy = [r for r in runs if r["target"] == target and r["mode"] == "hybrid"]
        if not sw or not hy:
            continue
        need = set(sw[0]["first"])
        by = lambda t: sum(all(h in r["first"] and r["first"][h] <= t for h in need) for r in hy)  # noqa: E731
        sb = [r["swept_by"] for r in hy if r["swept_by"] is not None]
        sb_s = f"{fmt(med(sb), 2)}, {fmt(max(sb), 2)}" if sb else "no escapes"
        out.append(f"| {target} | {len(need)} | {by(60)}/{len(hy)} | {by(1)}/{len(hy)} | {sb_s} |")


def plot(runs, path):
    targets = sorted({r["target"] for r in runs})
    fig, axes = plt.subplots(1, len(targets), figsize=(4.2 * len(targets), 3.4), squeeze=False)
    colors = {"sweep": "black", "fuzz": "tab:blue", "hybrid": "tab:red"}
    for ax, target in zip(axes[0], targets):
        for r in [r for r in runs if r["target"] == target]:
            ts = sorted(r["first"].values())
            if r["mode"] == "sweep":
                ax.plot([max(r["wall"], 0.05)], [len(ts)], "o", color=colors["sweep"], label="sweep --depth 5")
                continue
            end = r["wall"]
            xs = [0.05] + [max(t, 0.05) for t in ts] + [max(end, 0.05)]
            ys = [0] + list(range(1, len(ts) + 1)) + [len(ts)]
            ax.step(xs, ys, where="post", color=colors[r["mode"]], alpha=0.6, label=r["mode"])
        ax.set_xscale("log")
        ax.set_title(target, fontsize=9)
        ax.set_xlabel("seconds since the campaign started")
        ax.set_ylabel("holes found")
        h, lab = ax.get_legend_handles_labels()
        uniq = dict(zip(lab, h))
        ax.legend(uniq.values(), uniq.keys(), fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main():
    runs_dir, prefix = sys.argv[1], sys.argv[2]
    runs = load(runs_dir)
    out = ["# bench/hybrid.sh results", "", "## Per target and mode", ""]
    summary_table(runs, out)
    out += ["", "## Throughput over the 600 s runs (execs/s, medians over seeds; hybrid/fuzz: median of"
            " each seed's pair, min-max)", ""]
    throughput_table(runs, out)
    out += ["", "## Time to each hole (seeds that found it, median seconds among them)", ""]
    hole_table(runs, out)
    out += ["", "## The sweep's holes in the hybrid", ""]
    sweep_check(runs, out)
    with open(prefix + ".md", "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    plot(runs, prefix + ".png")
    print("\n".join(out))


if __name__ == "__main__":
    main()
