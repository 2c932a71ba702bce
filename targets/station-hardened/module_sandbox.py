"""module_sandbox.py -- the station gate rewritten after `gatecrash advise`.

Same host entry point and policy handling as ../station-1.5.0/module_sandbox.py, written
again the way a maintainer would after reading what `gatecrash advise` says about it:

  * No module-valued copies: the os / os.path / subprocess proxies are built from an
    allowlist, never by copying dir() of the real module.
  * Real functions are never handed out: every function on a proxy, in the namespace or
    in its __builtins__ is a wrapper made here.  A builtin's __self__ is its real module
    and a copied Python function's __globals__ is its real module's namespace; a wrapper
    has neither.
  * No os.supports_* sets (they hold the real functions), no os.environ (its class's
    methods are os.py's functions).
  * Refusals and wrappers carry no frames or globals into handler code: each is rebuilt
    with types.FunctionType over a globals dict that holds nothing but what its body
    names (no real module, an empty __builtins__), so a refusal's __globals__, its
    traceback's frame's f_globals and f_builtins lead nowhere.

What no namespace gate can take away remains, and gatecrash names it as not closable:
the wrapper's closure cell holds the real function (cell.cell_contents), and every class
reaches object.__subclasses__().  Closing those needs compile-time restrictions on
attribute names (RestrictedPython-style) or another process.
"""

import builtins as _real_builtins
import fnmatch as _fnmatch
import os as _real_os
import types as _types


class SandboxViolation(Exception):
    """Raised when a plugin touches something its declaration forbids."""


def _clean(f, **names):
    """f rebuilt over globals that hold only 'names' and empty builtins (closure kept)."""
    g = {"__builtins__": {}}
    g.update(names)
    return _types.FunctionType(f.__code__, g, f.__name__, f.__defaults__, f.__closure__)


def _refuse(name, module_id):
    msg = f"{name} blocked by sandbox for module {module_id}"

    def _stub(*args, **kwargs):
        raise SandboxViolation(msg)
    stub = _clean(_stub, SandboxViolation=SandboxViolation)
    stub.__name__ = name.rsplit(".", 1)[-1]
    stub.__qualname__ = name
    return stub


def _wrap(name, real):
    # An exception from inside a real Python function would carry that function's frame
    # (and its module's globals) to the caller: it is caught here and raised again after
    # the except block, so the new one has no __context__ and only this frame.
    def _wrapper(*args, **kwargs):
        err = None
        try:
            return real(*args, **kwargs)
        except Exception as e:
            err = (type(e), str(e))
        raise err[0](err[1])
    w = _clean(_wrapper, Exception=Exception, type=type, str=str)
    w.__name__ = name
    w.__qualname__ = name
    return w


# The builtins the gate's own functions call, as wrappers: a builtin's __self__ is the real
# builtins module, and these sit in those functions' globals.
_B = {n: _wrap(n, getattr(_real_builtins, n)) for n in ("isinstance", "any", "all")}

_OS_SAFE = ("getcwd", "getpid", "getppid", "getuid", "getgid", "listdir", "stat", "lstat", "fspath",
            "fsencode", "fsdecode", "strerror", "cpu_count", "urandom", "get_terminal_size")
_OS_CONSTANTS = ("name", "sep", "altsep", "curdir", "pardir", "extsep", "pathsep", "linesep", "devnull",
                 "F_OK", "R_OK", "W_OK", "X_OK", "SEEK_SET", "SEEK_CUR", "SEEK_END")
_PATH_SAFE = ("join", "basename", "dirname", "split", "splitext", "normpath", "abspath", "isabs",
              "exists", "isfile", "isdir", "islink", "getsize", "relpath", "commonpath", "expanduser")
_SP_REFUSED = ("run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput")
_OS_SPAWN_REFUSED = ("system", "popen", "fork", "forkpty", "execv", "execve", "execl", "execle", "execlp",
                     "execlpe", "execvp", "execvpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "spawnl",
                     "spawnle", "spawnlp", "spawnlpe", "posix_spawn", "posix_spawnp")
_OS_WRITES = ("remove", "unlink", "rename", "replace", "rmdir", "mkdir", "makedirs", "chmod", "chown",
              "lchown", "link", "symlink", "truncate", "utime", "mkfifo", "mknod", "open", "removedirs",
              "renames", "setxattr", "removexattr")
_BUILTIN_CLASSES = ("bool", "bytes", "bytearray", "complex", "dict", "float", "frozenset", "int", "list",
                    "object", "range", "set", "slice", "str", "tuple", "type", "BaseException", "Exception",
                    "ArithmeticError", "AttributeError", "IndexError", "KeyError", "LookupError",
                    "NameError", "OSError", "PermissionError", "RuntimeError", "StopIteration",
                    "TypeError", "ValueError", "ZeroDivisionError", "NotImplementedError", "ImportError")
_BUILTIN_FUNCS = ("abs", "all", "any", "ascii", "bin", "callable", "chr", "divmod", "format", "hash", "hex",
                  "isinstance", "issubclass", "iter", "len", "max", "min", "next", "oct", "ord", "pow",
                  "print", "repr", "round", "sorted", "sum", "getattr", "hasattr", "setattr", "id")


def _module(name, attrs):
    m = _types.ModuleType(name)
    for k, v in attrs.items():
        setattr(m, k, v)
    return m


def _os_proxy(ns, module_id, spawn_allowed, globs):
    proxy = ns.get("__rc_sandbox_os_proxy__")
    if proxy is not None:
        return proxy
    attrs = {n: getattr(_real_os, n) for n in _OS_CONSTANTS if hasattr(_real_os, n)}
    attrs.update({n: _wrap(n, getattr(_real_os, n)) for n in _OS_SAFE if hasattr(_real_os, n)})
    attrs["path"] = _module("posixpath", {n: _wrap(n, getattr(_real_os.path, n)) for n in _PATH_SAFE})
    for n in _OS_SPAWN_REFUSED:
        if hasattr(_real_os, n):
            attrs[n] = _wrap(n, getattr(_real_os, n)) if spawn_allowed else _refuse(f"os.{n}", module_id)
    for n in _OS_WRITES:
        if hasattr(_real_os, n):
            attrs[n] = _guard_fs(n, getattr(_real_os, n), globs, module_id)
    proxy = _module("os", attrs)
    ns["__rc_sandbox_os_proxy__"] = proxy
    return proxy


def _path_allowed(path, globs, abspath, fsdecode, fnmatch):
    try:
        ap = fsdecode(abspath(path))
    except (TypeError, ValueError):
        return False
    return any(fnmatch(ap, g) for g in globs)


def _guard_fs(name, real, globs, module_id):
    """Writes go through only when every str/bytes/PathLike argument is inside the globs."""
    allowed = _clean(_path_allowed, TypeError=TypeError, ValueError=ValueError, any=_B["any"])
    if globs is None:
        return _wrap(name, real)
    globs = tuple(globs)
    abspath, fsdecode, fnmatch = _real_os.path.abspath, _real_os.fsdecode, _fnmatch.fnmatch
    msg = f"os.{name} outside filesystem_writes allowlist for module {module_id}"

    def _guarded(*args, **kwargs):
        paths = [a for a in args if isinstance(a, (str, bytes))]
        if paths and all(allowed(p, globs, abspath, fsdecode, fnmatch) for p in paths):
            return real(*args, **kwargs)
        raise SandboxViolation(msg)
    g = _clean(_guarded, SandboxViolation=SandboxViolation, isinstance=_B["isinstance"], str=str, bytes=bytes,
               all=_B["all"])
    g.__name__ = name
    return g


def _guarded_open_for(globs, module_id):
    real_open = _real_builtins.open
    allowed = _clean(_path_allowed, TypeError=TypeError, ValueError=ValueError, any=_B["any"])
    abspath, fsdecode, fnmatch = _real_os.path.abspath, _real_os.fsdecode, _fnmatch.fnmatch
    globs = tuple(globs) if globs is not None else None

    def open(file, mode="r", *args, **kw):
        if globs is not None and isinstance(mode, str) and any(c in mode for c in "wax+"):
            if not allowed(file, globs, abspath, fsdecode, fnmatch):
                raise SandboxViolation(f"open({file!r}, {mode!r}) outside filesystem_writes allowlist "
                                       f"for module {module_id}")
        return real_open(file, mode, *args, **kw)
    return _clean(open, SandboxViolation=SandboxViolation, isinstance=_B["isinstance"], str=str, any=_B["any"])


def _import_guard(ns, module_id):
    msg = f"import blocked by sandbox for module {module_id}"

    def __import__(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name in ("os", "subprocess") and name in ns:
            return ns[name]
        raise SandboxViolation(msg + ": " + str(name))
    return _clean(__import__, SandboxViolation=SandboxViolation, ns=ns, str=str)


def install_restrictions(ns, requires, module_id):
    """Host entry point: gate `ns` according to the module's `requires`."""
    if not isinstance(requires, dict):
        raise TypeError(f"requires must be a dict, not {type(requires).__name__}")
    spawn_allowed = bool(requires.get("subprocess", True))
    globs = requires.get("filesystem_writes", None)
    os_proxy = _os_proxy(ns, module_id, spawn_allowed, globs)
    sp = {n: _refuse(f"subprocess.{n}", module_id) for n in _SP_REFUSED}
    sp.update(PIPE=-1, STDOUT=-2, DEVNULL=-3)
    ns["subprocess"] = _module("subprocess", sp)
    ns["os"] = os_proxy
    ns["open"] = _guarded_open_for(globs, module_id)
    b = {n: getattr(_real_builtins, n) for n in _BUILTIN_CLASSES}
    b.update({n: _wrap(n, getattr(_real_builtins, n)) for n in _BUILTIN_FUNCS})
    b["SandboxViolation"] = SandboxViolation
    b["open"] = ns["open"]
    b["__import__"] = _import_guard(ns, module_id)
    ns["__builtins__"] = b
    ns["__rc_sandbox_gated__"] = True
