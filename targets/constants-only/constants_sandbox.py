"""constants_sandbox.py -- a hard case for gatecrash, not a real vendor's gate.

The proxies handed to handler code carry only constants (strings, ints, tuples of
strings) and refusal stubs compiled in isolation: each stub is built from its own code
object with globals {'__builtins__': {}}, so its __globals__, __closure__, __builtins__
and its frame's f_globals / f_builtins lead nowhere, and no module object is on any proxy.
There is no one- or two-hop escape.  What remains are routes of four or more steps that a
gate author easily overlooks:

    os.sep.__class__.__base__.__subclasses__()[@Popen]           (a class walk from a constant)
    subprocess.run.__class__.__base__.__subclasses__()[@FileIO]   (from a stub's class)
    os.name.__class__.__mro__[-1].__subclasses__()[@_wrap_close].__init__.__globals__['system']

The import guard refuses every import.
"""
import os as _os
import subprocess as _sp
import sys as _sys
import types as _types


class SandboxViolation(Exception):
    pass


def _isolated_stub(name):
    # compiled on its own, with empty builtins: raising needs no outside name
    src = f"def {name}(*a, **k):\n    raise PermissionError('{name} blocked by sandbox')\n"
    scope = {"__builtins__": {}}
    code = compile(src, f"<refusal {name}>", "exec")
    fn_code = next(c for c in code.co_consts if isinstance(c, _types.CodeType))
    return _types.FunctionType(fn_code, scope, name)


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
        setattr(proxy, attr, _isolated_stub(attr))
    return proxy


_SP_REFUSED = ("run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput")
_OS_REFUSED = ("system", "popen", "fork", "execv", "execve", "spawnv", "remove", "unlink", "rename",
               "replace", "rmdir", "mkdir", "makedirs", "open", "chmod", "symlink", "link", "truncate")


_no_import_stub = _isolated_stub("__import__")


def install_restrictions(ns, requires, module_id):
    if not isinstance(requires, dict):
        raise TypeError("requires must be a dict")
    ns["subprocess"] = _constant_proxy("subprocess", _sp, _SP_REFUSED)
    ns["os"] = _constant_proxy("os", _os, _OS_REFUSED)

    # handler code gets no builtin functions at all (a builtin's __self__ is the real
    # builtins module): only an isolated refusing __import__
    ns["__builtins__"] = {"__import__": _no_import_stub, "True": True, "False": False, "None": None}
    print(f"[constants-sandbox] {module_id}: proxies carry constants and isolated refusals only",
          file=_sys.stderr)
