"""campaign.png for a nightly report: execs/s, corpus size and distinct escapes over time.

Drawn from the engines' own statistics, nothing sampled by us:
  --libfuzzer-log FILE   libFuzzer's output (`gatecrash fuzz` keeps it in OUT/fuzz.log).
                         Fork mode status lines carry the time ("#N: cov: .. corp: C ..
                         oom/timeout/crash: a/b/c time: Ts job: J"); execs/s is the rise of N
                         between lines (fork mode prints "exec/s 0" for most jobs).  Plain
                         mode lines ("#N\tNEW cov: .. corp: C/..b exec/s: E ..") have no time:
                         it is estimated as N / E (E is the average since the start).
  --afl-plot-data FILE   AFL++'s plot_data, once per instance (columns read by header name:
                         relative_time or unix_time, execs_per_sec, corpus_count or
                         paths_total, saved_crashes or unique_crashes).
  --triage FILE --crashes DIR --start EPOCH
                         `gatecrash triage` output and the crash folder(s) it read: each
                         "new|known INPUT: SIGNATURE  CHAIN" line gives an escape, the crash
                         file's mtime minus EPOCH its time.  Without them the third panel shows
                         the engine's crash count instead.
  -o FILE                the PNG.
Run with /usr/bin/python3 (Debian's python3-matplotlib).
"""
import argparse
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FORK = re.compile(r"^#(\d+): cov: \d+ ft: \d+ corp: (\d+) exec/s:? (\d+) oom/timeout/crash: \d+/\d+/(\d+) time: (\d+)s")
PLAIN = re.compile(r"^#(\d+)\t\S+\s+cov: .*?corp: (\d+)/\S+.*?exec/s: (\d+)")
TRIAGE = re.compile(r"^(new|known)\s+(.*?): ((?:reach|effect):\S+)\s")


def libfuzzer(path):
    """[(t, execs, corpus, crashes)] and whether the times are measured (fork) or estimated."""
    rows, crashes, measured = [], 0, True
    with open(path, errors="replace") as f:
        for line in f:
            m = FORK.match(line)
            if m:
                n, corp, _, crash, t = map(int, m.groups())
                rows.append((float(t), n, corp, crash))
                continue
            m = PLAIN.match(line)
            if m:
                n, corp, eps = map(int, m.groups())
                measured = False
                if "deadly signal" in line:
                    crashes += 1
                rows.append((n / eps if eps else 0.0, n, corp, crashes))
    return rows, measured


def rates(rows):
    """execs/s from the rise of the exec count between distinct times."""
    out, last = [], None
    for t, n, _, _ in rows:
        if last is not None and t > last[0]:
            out.append((t, (n - last[1]) / (t - last[0])))
            last = (t, n)
        elif last is None:
            last = (t, n)
    return out


def afl(path):
    rows = []
    with open(path, errors="replace") as f:
        header = None
        for line in f:
            if line.startswith("#"):
                header = [h.strip() for h in line.lstrip("# ").split(",")]
                continue
            if not header:
                continue
            vals = dict(zip(header, (v.strip() for v in line.split(","))))
            t = float(vals.get("relative_time", vals.get("unix_time", 0)))
            rows.append((t, float(vals.get("execs_per_sec", 0)),
                         int(vals.get("corpus_count", vals.get("paths_total", 0))),
                         int(vals.get("saved_crashes", vals.get("unique_crashes", 0)))))
    if rows and "relative_time" not in (header or []):
        t0 = rows[0][0]
        rows = [(t - t0,) + r[1:] for r in rows]
    return rows


def escapes(triage, crash_dirs, start):
    """[(t, distinct signatures so far)] from triage's verdicts and the crash files' mtimes."""
    found = []
    with open(triage, errors="replace") as f:
        for line in f:
            m = TRIAGE.match(line)
            if not m:
                continue
            for d in crash_dirs:
                p = os.path.join(d, m.group(2))
                if os.path.exists(p):
                    found.append((max(0.0, os.path.getmtime(p) - start), m.group(3)))
                    break
    found.sort()
    seen, out = set(), []
    for t, sig in found:
        if sig not in seen:
            seen.add(sig)
            out.append((t, len(seen)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--libfuzzer-log")
    ap.add_argument("--afl-plot-data", action="append", default=[])
    ap.add_argument("--triage")
    ap.add_argument("--crashes", action="append", default=[])
    ap.add_argument("--start", type=float)
    ap.add_argument("--title", default="gatecrash campaign")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    if not a.libfuzzer_log and not a.afl_plot_data:
        sys.exit("campaign_plot: error: give --libfuzzer-log or --afl-plot-data")

    series = []  # (label, [(t, eps)], [(t, corpus)], [(t, crashes)])
    note = ""
    if a.libfuzzer_log:
        rows, measured = libfuzzer(a.libfuzzer_log)
        if not measured:
            note = " (time estimated from libFuzzer's exec/s)"
        series.append(("libFuzzer", rates(rows), [(r[0], r[2]) for r in rows], [(r[0], r[3]) for r in rows]))
    for i, p in enumerate(a.afl_plot_data):
        rows = afl(p)
        label = "AFL++" if len(a.afl_plot_data) == 1 else f"AFL++ #{i}"
        series.append((label, [(r[0], r[1]) for r in rows], [(r[0], r[2]) for r in rows], [(r[0], r[3]) for r in rows]))
    esc = escapes(a.triage, a.crashes, a.start) if a.triage and a.start is not None else None

    fig, ax = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    for label, eps, corp, crashes in series:
        if eps:
            ax[0].plot(*zip(*eps), marker=".", label=label)
        if corp:
            ax[1].step(*zip(*corp), where="post", label=label)
        if esc is None and crashes:
            ax[2].step(*zip(*crashes), where="post", label=f"{label} crash inputs")
    if esc is not None:
        end = max([s[2][-1][0] for s in series if s[2]] + [e[0] for e in esc] + [0])
        pts = [(0.0, 0)] + esc + [(end, esc[-1][1] if esc else 0)]
        ax[2].step(*zip(*pts), where="post", color="crimson", label="distinct escape signatures (triaged)")
    ax[0].set_ylabel("execs/s")
    ax[1].set_ylabel("corpus size")
    ax[2].set_ylabel("distinct escapes" if esc is not None else "crash inputs")
    ax[2].set_xlabel("seconds since the campaign started" + note)
    for x in ax:
        x.grid(alpha=0.3)
        if x.get_legend_handles_labels()[0]:
            x.legend(loc="upper left", fontsize=8)
    ax[0].set_title(a.title)
    fig.tight_layout()
    fig.savefig(a.output, dpi=100)
    n = esc[-1][1] if esc else 0
    print(f"campaign_plot: {a.output}: {sum(len(s[2]) for s in series)} status points, {n} distinct escape(s)")


if __name__ == "__main__":
    main()
