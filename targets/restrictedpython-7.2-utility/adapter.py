"""gatecrash adapter for RestrictedPython 7.2 with utility_builtins, its `_getattr_` raising.

The host of targets/restrictedpython-utility (its adapter, loaded from there: compile_restricted
+ exec against safe_globals, utility_builtins and the documented guards, the program's
`result` variable) with the one change hosts of this release made to it: `safer_getattr`
hands back None for a missing attribute (its `default` is None), where Python's getattr, and
Zope's guarded_getattr that restricted scripts are written against, raise AttributeError.
RestrictedPython's issue #287 (September 2024) asked for a variant with getattr's behaviour;
7.4 added `safer_getattr_raise`.  Before it, a host kept safer_getattr's checks and let a
missing name raise, through safer_getattr's own `getattr` parameter, as below.
"""
import importlib.util
import os

from RestrictedPython.Guards import safer_getattr

_path = os.path.join(os.path.dirname(__file__), "..", "restrictedpython-utility", "adapter.py")
_spec = importlib.util.spec_from_file_location("gatecrash_restrictedpython_utility", _path)
_host = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_host)


def _lookup(ob, name, default):
    return getattr(ob, name)


def guarded_getattr(ob, name, *default):
    """safer_getattr's checks, then getattr's semantics: a missing name raises."""
    if default:
        return safer_getattr(ob, name, *default)
    return safer_getattr(ob, name, getattr=_lookup)


_host.GETATTR = guarded_getattr
evaluate = _host.evaluate
roots = _host.roots
