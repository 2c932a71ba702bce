"""gatecrash adapter for RestrictedPython with utility_builtins (targets/restrictedpython-utility).

Written from RestrictedPython's documentation ("Policies & builtins": safe_builtins,
limited_builtins and utility_builtins, the last being the modules and helpers -- string, math,
random, set, frozenset, same_type, test, reorder -- that Zope's templates and scripts get):
the host of targets/restrictedpython (compile_restricted + exec against safe_globals and the
documented guards, the program's `result` variable) that also puts utility_builtins into the
program's globals.  compile_restricted's SyntaxError is RestrictedPython's own refusal.
"""
from RestrictedPython import compile_restricted, safe_globals, utility_builtins
from RestrictedPython.Eval import default_guarded_getitem, default_guarded_getiter
from RestrictedPython.Guards import full_write_guard, guarded_iter_unpack_sequence, safer_getattr


# the host's attribute guard (targets/restrictedpython-7.2-utility sets its own)
GETATTR = safer_getattr


def _globals():
    glb = dict(safe_globals)
    glb.update(utility_builtins)
    glb.update(
        _getattr_=GETATTR,
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
    return sorted(safe_globals["__builtins__"]) + sorted(utility_builtins)
