"""lookup_sandbox.py -- a hard case for gatecrash (issue 16), not a real vendor's gate.

Handler code gets one object, ``tool``: ``tool(name)`` looks a tool up by name.  Every
object the gate hands out refuses attribute access (``__getattribute__`` raises,
``__dir__`` is empty), so no attribute walk, class walk or mapping walk starts from it,
and a search that calls nothing with arguments (``gatecrash sweep``) finds no escape.
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


class _Locked:
    """An object whose every attribute is refused."""
    __slots__ = ()

    def __getattribute__(self, name):
        raise AttributeError(f"'{name}' is not available in the sandbox")

    def __dir__(self):
        return []


class _Constants(_Locked):
    """A tool: a few constants, read by item (``tool('clock')['zone']``)."""
    __slots__ = ("_values",)

    def __init__(self, values):
        object.__setattr__(self, "_values", dict(values))

    def __getitem__(self, key):
        values = object.__getattribute__(self, "_values")
        if not isinstance(key, str) or key not in values:
            raise KeyError(key)
        return values[key]


_TOOLS = {
    "clock": _Constants({"zone": "UTC", "resolution": 1}),
    "units": _Constants({"length": "m", "mass": "kg"}),
    "limits": _Constants({"cpu": 2, "memory": 256}),
}
# the defect: an alias kept for old plugins, resolved to the real module
_COMPAT = {"ops.compat-v1": "os"}


class ToolRefused(LookupError):
    """Raised for an unknown tool name; 'catalog' is the lookup (the defect: a real function)."""

    def __init__(self, name, catalog):
        super().__init__(f"no tool named {name!r}")
        self.name = name
        self.catalog = catalog


def _lookup(name):
    if name in _TOOLS:
        return _TOOLS[name]
    if name in _COMPAT:
        return _sys.modules[_COMPAT[name]]
    raise ToolRefused(name, _lookup)


class _Tool(_Locked):
    __slots__ = ()

    def __call__(self, name):
        if not isinstance(name, str):
            raise TypeError("a tool name is a str")
        return _lookup(name)


def install_restrictions(ns, requires, module_id):
    if not isinstance(requires, dict):
        raise TypeError("requires must be a dict")
    ns["tool"] = _Tool()
    ns["__builtins__"] = {}
    print(f"[lookup-sandbox] {module_id}: tool(name) only", file=_sys.stderr)
