"""constants_deep_sandbox.py -- a hard case for gatecrash, not a real vendor's gate.

Like constants-only, the proxies handed to handler code carry only constants and refusal
stubs compiled in isolation, and no module object is on any of them.  Two helpers the gate
needs are compiled the same way, each with the one real module it uses as its only global:

  - the plugin loader (globals {'os': <the real os>}) that a plugin's registry entry keeps,
    three steps from the namespace: plugins.registry.default.load;
  - the refusal helper (globals {'subprocess': <the real subprocess>}: a refusal raises
    subprocess.SubprocessError, so handler code that catches it keeps working), which every
    stub keeps as a keyword default: subprocess.run.__kwdefaults__['_refuse'].

Their builtins are empty, so what remains beside the class walks (4 or more steps from a
constant or a stub) are routes of six steps, each through a function's __globals__:

    plugins.registry.default.load.__globals__['os'].system
    subprocess.run.__kwdefaults__['_refuse'].__globals__['subprocess'].Popen

The import guard refuses every import.
"""
import os as _os
import subprocess as _sp
import sys as _sys
import types as _types

_OS_REFUSED = ("system", "popen", "fork", "execv", "execve", "spawnv", "remove", "unlink", "rename",
               "replace", "rmdir", "mkdir", "makedirs", "open", "chmod", "symlink", "link", "truncate")
_SP_REFUSED = ("run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput")


def _isolated(src, name, scope):
    # compiled on its own: its globals are 'scope' and its builtins are empty
    scope = dict(scope, __builtins__={})
    code = compile(src, f"<{name}>", "exec")
    fn_code = next(c for c in code.co_consts if isinstance(c, _types.CodeType))
    return _types.FunctionType(fn_code, scope, fn_code.co_name)


_refuse = _isolated("def _refuse(name):\n    raise subprocess.SubprocessError(name + ' blocked by sandbox')\n",
                    "refusal helper", {"subprocess": _sp})
_load = _isolated("def load(path):\n    return os.fspath(path)\n", "plugin loader", {"os": _os})


def _stub(name):
    src = f"def {name}(*a, _refuse=None, **k):\n    _refuse('{name}')\n"
    fn = _isolated(src, f"refusal {name}", {})
    fn.__kwdefaults__ = {"_refuse": _refuse}
    return fn


def _constant_proxy(name, real, refuse):
    proxy = _types.ModuleType(name)
    for attr in dir(real):
        if attr.startswith("__"):
            continue
        value = getattr(real, attr)
        if isinstance(value, (str, int, float, bool, bytes)) or (
                isinstance(value, tuple) and all(isinstance(x, str) for x in value)):
            setattr(proxy, attr, value)
    for attr in refuse:
        setattr(proxy, attr, _stub(attr))
    return proxy


def _plugins():
    proxy = _types.ModuleType("plugins")
    proxy.api_version = "2.1"
    proxy.registry = _types.SimpleNamespace(default=_types.SimpleNamespace(name="default", load=_load))
    return proxy


def install_restrictions(ns, requires, module_id):
    if not isinstance(requires, dict):
        raise TypeError("requires must be a dict")
    ns["subprocess"] = _constant_proxy("subprocess", _sp, _SP_REFUSED)
    ns["os"] = _constant_proxy("os", _os, _OS_REFUSED)
    ns["plugins"] = _plugins()
    # no builtin functions at all (a builtin's __self__ is the real builtins module): only
    # an isolated refusing __import__
    ns["__builtins__"] = {"__import__": _stub("__import__"), "True": True, "False": False, "None": None}
    print(f"[constants-deep] {module_id}: proxies carry constants and isolated refusals only", file=_sys.stderr)
