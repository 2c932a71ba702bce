"""gatecrash adapter for RestrictedPython 6.0 (targets/restrictedpython-6.0).

RestrictedPython 6.0 is the last release before GHSA-wqc8-x2pr-7jqh / CVE-2023-37271 (fixed
in 6.1 and 5.3: stack frames reachable from a generator, walked past the sandbox).  The
adapter is targets/restrictedpython's, unchanged.

Written from RestrictedPython's documentation ("Basic usage" and "Policies & builtins"):
the untrusted source is compiled with compile_restricted(source, filename, 'exec') and the
byte code run with exec() against safe_globals (safe_builtins as __builtins__) plus the
guards the documentation names for attribute, item and iteration access and for writes.
The host gets back the program's `result` variable.  compile_restricted raises SyntaxError
for what the policy rejects (names starting with "_", import of anything, ...): that is
RestrictedPython's own refusal (target.json "refusals").
"""
from RestrictedPython import compile_restricted, safe_globals
from RestrictedPython.Eval import default_guarded_getitem, default_guarded_getiter
from RestrictedPython.Guards import full_write_guard, guarded_iter_unpack_sequence, safer_getattr


def _globals():
    glb = dict(safe_globals)
    glb.update(
        _getattr_=safer_getattr,
        _getitem_=default_guarded_getitem,
        _getiter_=default_guarded_getiter,
        _iter_unpack_sequence_=guarded_iter_unpack_sequence,
        _write_=full_write_guard,
    )
    return glb


def evaluate(source):
    byte_code = compile_restricted(source, filename="<untrusted>", mode="exec")
    loc = {}
    exec(byte_code, _globals(), loc)
    return loc.get("result")


def roots():
    return sorted(safe_globals["__builtins__"])
