"""gatecrash adapter for RestrictedPython 7.2 with utility_builtins, its `_getattr_` raising.

The host of targets/restrictedpython-utility (compile_restricted + exec against safe_globals,
utility_builtins and the documented guards, the program's `result` variable) with the one
change hosts of this release made to it: `safer_getattr` hands back None for a missing
attribute (its `default` is None), where Python's getattr, and Zope's guarded_getattr that
restricted scripts are written against, raise AttributeError.  RestrictedPython's issue #287
(September 2024) asked for a variant with getattr's behaviour; 7.4 added
`safer_getattr_raise`.  Before it, a host kept safer_getattr's checks and let a missing name
raise, through safer_getattr's own `getattr` parameter, as below.
"""
from RestrictedPython import compile_restricted, safe_globals, utility_builtins
from RestrictedPython.Eval import default_guarded_getitem, default_guarded_getiter
from RestrictedPython.Guards import full_write_guard, guarded_iter_unpack_sequence, safer_getattr


def _lookup(ob, name, default):
    return getattr(ob, name)


def guarded_getattr(ob, name, *default):
    """safer_getattr's checks, then getattr's semantics: a missing name raises."""
    if default:
        return safer_getattr(ob, name, *default)
    return safer_getattr(ob, name, getattr=_lookup)


def _globals():
    glb = dict(safe_globals)
    glb.update(utility_builtins)
    glb.update(
        _getattr_=guarded_getattr,
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
