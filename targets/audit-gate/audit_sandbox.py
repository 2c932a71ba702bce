"""audit_sandbox.py -- a plugin gate that enforces with a PEP 578 audit hook.

A gate of a different kind from station's proxy gate, for testing with
gatecrash (target mode "effect").  It hands the plugin the REAL os,
subprocess and shutil modules (ns["os"], ns["subprocess"], ns["shutil"])
and does not set ns["__builtins__"]: there is no proxy to escape from.
Enforcement is a single process-wide audit hook (sys.addaudithook) that
refuses by raising SandboxViolation from inside the audited operation.

Policy (module-level _POLICY = (spawn_allowed, globs_or_None)):
  * subprocess: false -> refuse the audit events os.system,
    subprocess.Popen, os.exec, os.posix_spawn, os.spawn, os.fork,
    os.forkpty, pty.spawn.
  * filesystem_writes: [globs] -> refuse "open" events opened for writing
    (mode str containing w/a/x/+, or flags including O_WRONLY, O_RDWR,
    O_CREAT, O_TRUNC or O_APPEND) and the events os.remove (also raised by
    os.unlink), os.rmdir and os.mkdir, when the path (args[0], if str or
    bytes) does not fnmatch a glob on its abspath.

INTENDED BUG (the gap the fuzzer is expected to find): the hook does NOT
handle the audit events os.rename (also os.replace), os.symlink, os.link,
os.chmod, os.truncate, os.utime, or any shutil.* event.  A plugin declared
filesystem_writes: [] can therefore still move/overwrite, link, chmod,
truncate or touch files outside its allowlist through those primitives.

Notes:
  * Audit hooks cannot be removed, so the hook is registered once, on the
    first install_restrictions() call; later calls only replace _POLICY.
    The hook is process-wide: once a policy is set it also applies to the
    host process itself (set _POLICY = None to lift it).
  * SandboxViolation subclasses PermissionError so that the import system
    (which tolerates OSError when writing __pycache__) keeps working under
    a filesystem_writes policy.
  * Nothing is printed or changed at import time.
"""

import fnmatch as _fnmatch
import os
import shutil
import subprocess
import sys


class SandboxViolation(PermissionError):
    """Raised (from the audit hook) when a plugin does something forbidden."""


_POLICY = None          # (spawn_allowed: bool, globs: tuple[str, ...] | None)
_MODULE_ID = None
_HOOK_INSTALLED = False

_SPAWN_EVENTS = frozenset({
    "os.system", "subprocess.Popen", "os.exec", "os.posix_spawn",
    "os.spawn", "os.fork", "os.forkpty", "pty.spawn",
})
_FS_PATH_EVENTS = frozenset({"os.remove", "os.rmdir", "os.mkdir"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

_abspath = os.path.abspath
_fsdecode = os.fsdecode


def _log(module_id, msg):
    print(f"[sandbox] {module_id}: {msg}", file=sys.stderr)


def _outside(path, globs):
    """True if str/bytes `path` matches none of `globs` (on its abspath)."""
    if not isinstance(path, (str, bytes)):
        return False
    ap = _fsdecode(_abspath(path))
    for g in globs:
        if _fnmatch.fnmatch(ap, g):
            return False
    return True


def _hook(event, args):
    policy = _POLICY
    if policy is None:
        return
    spawn_allowed, globs = policy
    if not spawn_allowed and event in _SPAWN_EVENTS:
        raise SandboxViolation(f"{event} blocked by sandbox for module {_MODULE_ID}")
    if globs is None:
        return
    if event == "open":
        mode = args[1] if len(args) > 1 else None
        flags = args[2] if len(args) > 2 else None
        writing = (
            (isinstance(mode, str) and any(c in mode for c in "wax+"))
            or (isinstance(flags, int) and flags & _WRITE_FLAGS)
        )
        if writing and args and _outside(args[0], globs):
            raise SandboxViolation(
                f"open({args[0]!r}) for writing outside filesystem_writes "
                f"allowlist for module {_MODULE_ID}")
    elif event in _FS_PATH_EVENTS:
        if args and _outside(args[0], globs):
            raise SandboxViolation(
                f"{event}({args[0]!r}) outside filesystem_writes allowlist "
                f"for module {_MODULE_ID}")


def install_restrictions(ns, requires, module_id):
    """Host entry point: hand `ns` the real modules and set the hook's policy."""
    global _POLICY, _MODULE_ID, _HOOK_INSTALLED
    if not isinstance(requires, dict):
        raise TypeError(f"requires must be a dict, not {type(requires).__name__}")
    sp = bool(requires.get("subprocess", True))
    fw = requires.get("filesystem_writes", None)
    globs = None if fw is None else tuple(fw)

    ns["os"] = os
    ns["subprocess"] = subprocess
    ns["shutil"] = shutil

    _MODULE_ID = module_id
    _POLICY = (sp, globs)
    if not _HOOK_INSTALLED:
        sys.addaudithook(_hook)
        _HOOK_INSTALLED = True

    _log(module_id, "spawn: allowed" if sp else "spawn: refused (audit hook)")
    if globs is None:
        _log(module_id, "filesystem writes: unrestricted")
    else:
        _log(module_id, "filesystem writes: allow: " + (", ".join(globs) or "(none)"))
