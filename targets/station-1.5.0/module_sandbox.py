"""module_sandbox.py -- station 1.5.0 plugin sandbox (RECONSTRUCTION).

This file is a reconstruction written from the public advisory for station
1.5.0 (CWE-693 / CWE-501, "module-typed attributes leak through the gate
proxies").  It is NOT the vendor's file.  It exists for regression testing
with gatecrash: it reproduces the shape of the shipped gate closely enough
that the advisory's reproduction passes against it.

Vendor's claim (paraphrased from the 86c96e module header, as quoted by the
advisory -- and shown by the advisory to be incomplete):

    This module closes the set of ways to re-fetch a GATED module (os,
    subprocess) by an alternate name -- importlib, builtins, sys.modules,
    posix, and dotted ``import os.path``.

Known, deliberately preserved defects (do not fix here; see
../station-advisory-fix/ for the advisory's proposed fix):

  * The subprocess / os / sys proxies are built by copying every
    non-dunder attribute of the real module, filtered on the NAME only.
    Attributes whose VALUE is a live module (subprocess.os, os.sys,
    os.path, ...) are copied onto the proxy, so the real, ungated module is
    one attribute hop away from the object handed to the plugin.
  * The sys proxy copies sys._getframe like everything else.
  * This module keeps module-level handles on the real os / subprocess /
    sys / builtins modules; they are reachable from the refusal stubs'
    __globals__.

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
        setattr(_os_proxy, attr, getattr(_real_os, attr))
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
        setattr(_sp_proxy, attr, getattr(_real_sp, attr))
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
            setattr(proxy, attr, getattr(_real_sys, attr))
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
