"""lookup_sandbox.py -- a hard case for gatecrash, not a real vendor's gate.

Handler code gets one object, ``tool``: ``tool(name)`` looks a tool up by name.  Every
object the gate hands out, and every refusal it raises, refuses attribute access
(``__getattribute__`` raises, ``__dir__`` is empty), items and calls, so no attribute walk,
class walk or mapping walk starts from it, and a search that calls nothing with arguments
(``gatecrash sweep``) finds no escape.
Two defects remain, each needing a call with a string argument:

    tool('ops.compat-v1').system           a compatibility alias, named only in this
                                           module's own data, hands out the real os module
    tool('x').catalog.__globals__['_os'].system
                                           the refusal raised for an unknown name carries the
                                           real lookup function in an attribute

(a chain's call that raises yields the exception, so ``tool('x').catalog`` is the
attribute of what the refusal raised.)
"""
import os as _os
import sys as _sys


class _Refused(LookupError):
    """Every refusal.  Its attributes are refused too (a real exception would start a class
    walk, e.g. tool().__class__.__base__...), except 'catalog', which the refusal of an
    unknown name sets to the lookup (the defect: a real function)."""

    def __getattribute__(self, name):
        if name == "catalog":
            return object.__getattribute__(self, name)
        raise AttributeError(f"'{name}' is not available in the sandbox")

    def __dir__(self):
        return []

    def __call__(self, *args, **kwargs):
        raise _Refused("not callable")


class _Locked:
    """An object whose every attribute, item and call is refused."""
    __slots__ = ()

    def __getattribute__(self, name):
        raise AttributeError(f"'{name}' is not available in the sandbox")

    def __dir__(self):
        return []

    def __getitem__(self, key):
        raise KeyError(key)

    def __call__(self, *args, **kwargs):
        raise _Refused("not callable")


class _Builtins(_Locked):
    """The namespace's builtins: none (a dict here would start a class walk: {}.__class__)."""
    __slots__ = ()


_TOOLS = {"clock": _Locked(), "units": _Locked(), "limits": _Locked()}
# the defect: an alias kept for old plugins, resolved to the real module
_COMPAT = {"ops.compat-v1": "os"}


def _lookup(name):
    if name in _TOOLS:
        return _TOOLS[name]
    if name in _COMPAT:
        return _sys.modules[_COMPAT[name]]
    refused = _Refused(f"no tool named {name!r}")
    object.__setattr__(refused, "catalog", _lookup)
    raise refused


class _Tool(_Locked):
    __slots__ = ()

    def __call__(self, *args, **kwargs):
        if len(args) != 1 or kwargs or not isinstance(args[0], str):
            raise _Refused("tool(name) takes one str")
        return _lookup(args[0])


def install_restrictions(ns, requires, module_id):
    if not isinstance(requires, dict):
        raise TypeError("requires must be a dict")
    ns["tool"] = _Tool()
    ns["__builtins__"] = _Builtins()
    print(f"[lookup-sandbox] {module_id}: tool(name) only", file=_sys.stderr)
