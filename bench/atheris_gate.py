"""An Atheris harness doing fuzz_gate's job, as a Python fuzzing engineer would write it first:
the baseline of bench/atheris.sh, nothing of gatecrash's own.

The target's gate is installed once on a namespace; each input is decoded as text, parsed
as a Python expression and walked from that namespace: names, attributes, subscripts with
a constant key and calls without arguments to a handful of harmless built-in methods (no
other call: the baseline has no backstop, so it must not run os.fork()).  The value the
walk ends on is looked up in a table of real spawn and write primitives, as fuzz_gate's
reach oracle does; under an allow-all policy none is forbidden, so no input crashes.
Most of Atheris's byte mutations do not parse, and a parse error is cheap, so its inputs/s
overstate the job: the figure is the walks run (inputs that parsed and started a walk),
written to the file $ATHERIS_COUNT (once a second and as the run ends: libFuzzer ends the
process with exit(), past Python's atexit), as fuzz_gate's "chains run" counts its own.
Coverage is Atheris's: the gate's module and this walk instrumented.

Usage: python atheris_gate.py SANDBOX_PY REQUIRES_JSON MODULE_ID [libFuzzer flags] CORPUS...
"""
import ast
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time

import atheris

PRIMS = {id(f) for f in (os.system, os.popen, os.fork, os.execv, os.execve, os.spawnv, os.posix_spawn,
                         subprocess.Popen, subprocess.run, subprocess.call, subprocess.check_output,
                         open, os.open, os.remove, os.unlink, os.rename, os.replace, os.rmdir,
                         os.mkdir, os.makedirs, os.chmod, os.truncate, os.link, os.symlink,
                         shutil.copyfile, shutil.rmtree, shutil.move)}
SAFE_CALLS = {"__subclasses__", "mro", "keys", "values", "items", "__dir__"}


def load_gate(path, requires, module_id):
    spec = importlib.util.spec_from_file_location("bench_gate", path)
    mod = importlib.util.module_from_spec(spec)
    with atheris.instrument_imports():
        spec.loader.exec_module(mod)
    ns = {"__builtins__": __builtins__}
    getattr(mod, "install_restrictions")(ns, requires, module_id)
    return ns


@atheris.instrument_func
def walk(node, ns):
    if isinstance(node, ast.Name):
        return ns[node.id] if node.id in ns else getattr(ns["__builtins__"], node.id)
    if isinstance(node, ast.Attribute):
        return getattr(walk(node.value, ns), node.attr)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return walk(node.value, ns)[node.slice.value]
    if (isinstance(node, ast.Call) and not node.args and not node.keywords
            and isinstance(node.func, ast.Attribute) and node.func.attr in SAFE_CALLS):
        return walk(node.func, ns)()
    raise ValueError("not a walk")


def main():
    path, requires, module_id = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
    ns = load_gate(path, requires, module_id)
    count = os.environ.get("ATHERIS_COUNT")
    state = {"walks": 0, "reached": 0, "last": time.monotonic()}

    def one(data):
        try:
            tree = ast.parse(data.decode("utf-8", "replace"), mode="eval")
        except Exception:
            return
        state["walks"] += 1
        if count and state["walks"] % 256 == 0 and time.monotonic() - state["last"] >= 1:
            state["last"] = time.monotonic()
            with open(count, "w") as f:
                f.write("%d\n" % state["walks"])
        try:
            state["reached"] += id(walk(tree.body, ns)) in PRIMS
        except Exception:
            pass

    atheris.Setup([sys.argv[0]] + sys.argv[4:], one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
