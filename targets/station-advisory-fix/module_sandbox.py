"""module_sandbox.py -- station 1.5.0 + the advisory's proposed fix (RECONSTRUCTION).

This is ../station-1.5.0/module_sandbox.py (itself a reconstruction from the
public advisory for station 1.5.0, not the vendor's file) with ONLY the fix
the advisory proposes applied, for regression testing with gatecrash.

What changed vs station-1.5.0:

  * All three proxy copy loops (subprocess, os, sys) now filter on the
    attribute's VALUE as well as its name: any value that is a live module
    object (isinstance(v, types.ModuleType)) is skipped, so subprocess.os,
    os.sys, os.path, ... are no longer real modules one hop off a proxy.
  * Because that filter also drops os.path, the os proxy gets a `path`
    attribute back: a proxy of posixpath built with the same filtered copy
    loop, so os.path.join etc. keep working.

Nothing else is changed.  In particular, deliberately left as in 1.5.0
(the point of this target is to show the fix falls short):

  * function __globals__ (e.g. subprocess.list2cmdline.__globals__["os"],
    the refusal stubs' __globals__ with _real_os / _real_sp / _real_sys),
  * builtin methods' __self__, sys._getframe on the sys proxy (a builtin
    function, not a module, so the value filter keeps it), tracebacks of
    refusal stubs, and everything else the value filter does not cover.

Vendor's claim (paraphrased from the 86c96e module header, as quoted by the
advisory -- and shown by the advisory to be incomplete):

    This module closes the set of ways to re-fetch a GATED module (os,
    subprocess) by an alternate name -- importlib, builtins, sys.modules,
    posix, and dotted ``import os.path``.

Entry point used by the host: install_restrictions(ns, requires, module_id).
Nothing is printed or changed at import time.
"""

import os as _real_os
import subprocess as _real_sp
import sys as _real_sys
import builtins as _real_builtins
import fnmatch as _fnmatch
import types as _types
from collections.abc import Mapping as _Mapping


class SandboxViolation(Exception):
    """Raised when a plugin touches something its declaration forbids."""


def _refuse(name, module_id):
    """Return a stub that refuses `name` for `module_id`."""
    def _stub(*args, **kwargs):
        raise SandboxViolation(f"{name} blocked by sandbox for module {module_id}")
    _stub.__name__ = name.rsplit(".", 1)[-1]
    _stub.__qualname__ = name
    return _stub


def _log(module_id, msg):
    print(f"[sandbox] {module_id}: {msg}", file=_real_sys.stderr)


_OS_PROXY_KEY = "__rc_sandbox_os_proxy__"

_SP_REFUSED = (
    "run", "call", "check_call", "check_output", "Popen",
    "getoutput", "getstatusoutput",
)

_OS_SPAWN_REFUSED = (
    "system", "popen", "fork", "forkpty",
    "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe",
    "spawnv", "spawnve", "spawnvp", "spawnvpe",
    "spawnl", "spawnle", "spawnlp", "spawnlpe",
    "posix_spawn", "posix_spawnp",
)

# name -> names of the path parameters that must fall inside the allowlist
_FS_WRAPPED = {
    "remove": ("path",),
    "unlink": ("path",),
    "rename": ("src", "dst"),
    "replace": ("src", "dst"),
    "rmdir": ("path",),
    "mkdir": ("path",),
    "makedirs": ("name",),
}


def _os_proxy_for(ns):
    """Get or create the os proxy shared by the subprocess and filesystem gates."""
    proxy = ns.get(_OS_PROXY_KEY)
    if proxy is not None:
        return proxy
    _os_proxy = _types.ModuleType("os")
    for attr in dir(_real_os):
        if attr.startswith("__"):
            continue
        v = getattr(_real_os, attr)
        if isinstance(v, _types.ModuleType):  # advisory fix: never copy a live module
            continue
        setattr(_os_proxy, attr, v)
    # advisory fix: os.path was dropped by the filter; restore it as a
    # filtered proxy of posixpath so os.path.join etc. keep working.
    _path_proxy = _types.ModuleType(_real_os.path.__name__)
    for attr in dir(_real_os.path):
        if attr.startswith("__"):
            continue
        v = getattr(_real_os.path, attr)
        if isinstance(v, _types.ModuleType):
            continue
        setattr(_path_proxy, attr, v)
    _os_proxy.path = _path_proxy
    ns[_OS_PROXY_KEY] = _os_proxy
    return _os_proxy


def _install_subprocess_gate(ns, allowed, module_id):
    if allowed:
        ns["subprocess"] = _real_sp
        existing = ns.get(_OS_PROXY_KEY)
        ns["os"] = existing if existing is not None else _real_os
        _log(module_id, "subprocess gate OPEN")
        return

    _sp_proxy = _types.ModuleType("subprocess")
    for attr in dir(_real_sp):
        if attr.startswith("__"):
            continue
        v = getattr(_real_sp, attr)
        if isinstance(v, _types.ModuleType):  # advisory fix: never copy a live module
            continue
        setattr(_sp_proxy, attr, v)
    for name in _SP_REFUSED:
        setattr(_sp_proxy, name, _refuse(f"subprocess.{name}", module_id))

    _os_proxy = _os_proxy_for(ns)
    for name in _OS_SPAWN_REFUSED:
        if hasattr(_real_os, name):
            setattr(_os_proxy, name, _refuse(f"os.{name}", module_id))

    ns["subprocess"] = _sp_proxy
    ns["os"] = _os_proxy
    _log(module_id, "subprocess gate CLOSED")


def _abs_str(path):
    return _real_os.fsdecode(_real_os.path.abspath(path))


def _path_allowed(path, globs):
    try:
        ap = _abs_str(path)
    except (TypeError, ValueError):
        return False
    return any(_fnmatch.fnmatch(ap, g) for g in globs)


def _guard_fs(name, real, params, globs, module_id):
    def _guarded(*args, **kwargs):
        paths = []
        for i, p in enumerate(params):
            if i < len(args):
                paths.append(args[i])
            elif p in kwargs:
                paths.append(kwargs[p])
        if paths and all(_path_allowed(p, globs) for p in paths):
            return real(*args, **kwargs)
        raise SandboxViolation(
            f"os.{name}({', '.join(repr(p) for p in paths)}) outside "
            f"filesystem_writes allowlist for module {module_id}")
    _guarded.__name__ = name
    _guarded.__qualname__ = f"os.{name}"
    return _guarded


def _install_filesystem_gate(ns, globs, module_id):
    if globs is None:
        return  # unrestricted
    globs = list(globs)

    _os_proxy = _os_proxy_for(ns)
    for name, params in _FS_WRAPPED.items():
        setattr(_os_proxy, name,
                _guard_fs(name, getattr(_real_os, name), params, globs, module_id))

    _real_open = _real_builtins.open

    def _guarded_open(file, mode="r", *args, **kw):
        if isinstance(mode, str) and any(c in mode for c in "wax+"):
            if not _path_allowed(file, globs):
                raise SandboxViolation(
                    f"open({file!r}, {mode!r}) outside filesystem_writes "
                    f"allowlist for module {module_id}")
        return _real_open(file, mode, *args, **kw)

    ns["open"] = _guarded_open
    ns["os"] = _os_proxy
    if globs:
        _log(module_id, "filesystem-write gate active \u2014 allow: " + ", ".join(globs))
    else:
        _log(module_id, "filesystem-write gate active \u2014 allow: (none)")


class _GuardedModules(_Mapping):
    """Read-only view of sys.modules for the sys proxy,
    so sys.modules['subprocess'] cannot out-flank __import__."""

    _BLOCKED = ("importlib", "builtins", "posix")

    def __init__(self, real_modules, ns):
        self._real = real_modules
        self._ns = ns

    def __getitem__(self, key):
        if key == "os":
            return self._ns.get("os", _real_os)
        if key == "subprocess":
            return self._ns.get("subprocess", _real_sp)
        if key in self._BLOCKED:
            raise SandboxViolation(f"sys.modules[{key!r}] blocked by sandbox")
        return self._real[key]

    def __iter__(self):
        return iter(self._real)

    def __len__(self):
        return len(self._real)


_BLOCKED_IMPORTS = ("importlib", "builtins", "posix")


def _install_import_guard(ns, module_id):
    _sys_proxy_cache = []

    def _sys_proxy():
        if _sys_proxy_cache:
            return _sys_proxy_cache[0]
        proxy = _types.ModuleType("sys")
        for attr in dir(_real_sys):
            if attr.startswith("__"):
                continue
            v = getattr(_real_sys, attr)
            if isinstance(v, _types.ModuleType):  # advisory fix: never copy a live module
                continue
            setattr(proxy, attr, v)
        proxy.modules = _GuardedModules(_real_sys.modules, ns)
        _sys_proxy_cache.append(proxy)
        return proxy

    def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0:
            if name == "os":
                return ns["os"] if "os" in ns else _real_os
            if name == "subprocess":
                return ns["subprocess"] if "subprocess" in ns else _real_sp
            if name in _BLOCKED_IMPORTS or name.startswith("importlib."):
                raise SandboxViolation(
                    f"import {name} blocked by sandbox for module {module_id}")
            if name.startswith("os.") or name.startswith("subprocess."):
                raise SandboxViolation(
                    f"import {name} blocked by sandbox for module {module_id}")
            if name == "sys":
                return _sys_proxy()
        return _real_builtins.__import__(name, globals, locals, fromlist, level)

    b = dict(_real_builtins.__dict__)
    b["__import__"] = guarded_import
    if "open" in ns:
        b["open"] = ns["open"]
    ns["__builtins__"] = b


def install_restrictions(ns, requires, module_id):
    """Host entry point: gate `ns` according to the module's `requires`."""
    if not isinstance(requires, dict):
        raise TypeError(f"requires must be a dict, not {type(requires).__name__}")
    sp = requires.get("subprocess", True)
    fw = requires.get("filesystem_writes", None)
    net = requires.get("network", True)

    _install_subprocess_gate(ns, bool(sp), module_id)
    if fw is not None:
        _install_filesystem_gate(ns, fw, module_id)
    if net:
        _log(module_id, "network: allowed")
    else:
        _log(module_id, "network: declared false (not gated by this module)")
    _install_import_guard(ns, module_id)
    ns["__rc_sandbox_gated__"] = True
