"""The naive loop of bench/source-speed.sh: a source target's adapter imported by file path
and its entry called on each program, REPS times over the list, nothing else (the adapter
makes a fresh sandbox object per call; no reuse, no oracle, no feedback).  Prints one line:
evaluations and seconds of the loop alone.
usage: python source_naive.py ADAPTER ENTRY REPS PROGRAM.py...
"""
import importlib.util
import os
import sys
import time

adapter, entry, reps, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
sys.path.insert(0, os.path.dirname(os.path.abspath(adapter)))
spec = importlib.util.spec_from_file_location("adapter", adapter)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
evaluate = getattr(module, entry)
programs = [open(f).read() for f in files]
n = 0
start = time.perf_counter()
for _ in range(reps):
    for src in programs:
        try:
            evaluate(src)
        except Exception:
            pass
        n += 1
print(n, time.perf_counter() - start)
