#!/usr/bin/env python3
"""gatecrash reproducer: write escape on station-1.5.0

Signature: reach:write:os.removexattr:direct
Policy:    subprocess=false filesystem_writes=[] network=true
Chain:
    os.removexattr

Usage: python3 THIS_FILE PATH/TO/GATE_MODULE.py
Exit status: 1 when the escape reproduces, 0 when the gate blocks it, 2 on bad usage
or a gate that does not load.
Nothing is spawned or written: the chain stops at the primitive, and an audit hook
refuses any spawn or write the chain attempts.
"""
KIND = 'reach'
CAPABILITY = 'write'
PRIMITIVE_NAME = 'os.removexattr'
PRIMITIVE = ('os', 'removexattr')
REQUIRES_JSON = '{"subprocess":false,"filesystem_writes":[]}'
REQUIRES = __import__('json').loads(REQUIRES_JSON)
MODULE_ID = 'plugin'
INSTALL = 'install_restrictions'
ENTRIES = ('install_restrictions', '_install_subprocess_gate', '_install_filesystem_gate')

import builtins
import fnmatch
import functools
import importlib
import importlib.util
import json
import os
import sys
import types

sys.dont_write_bytecode = True  # leave the gate's folder as it was: no __pycache__
# the event tables of harness/oracle.c
SPAWN_EVENTS = {'os.system', 'os.exec', 'os.posix_spawn', 'os.spawn', 'os.fork', 'os.forkpty',
                'subprocess.Popen', 'pty.spawn', 'os.startfile'}
NET_EVENTS = {'socket.connect', 'socket.bind', 'socket.sendto', 'socket.sendmsg', 'socket.getaddrinfo',
              'socket.gethostbyname', 'socket.gethostbyaddr'}
# write events -> indices of the arguments that name written paths
WRITE_EVENTS = {'open': (0,), 'os.remove': (0,), 'os.rmdir': (0,), 'os.mkdir': (0,),
                'os.rename': (0, 1), 'os.truncate': (0,), 'os.chmod': (0,), 'os.chown': (0,),
                'os.utime': (0,), 'os.link': (0, 1), 'os.symlink': (1,), 'os.setxattr': (0,),
                'os.removexattr': (0,), 'os.chflags': (0,), 'sqlite3.connect': (0,),
                'shutil.copyfile': (1,), 'shutil.copymode': (1,),
                'shutil.copystat': (1,), 'shutil.copytree': (1,), 'shutil.chown': (0,),
                'shutil.make_archive': (0,), 'shutil.move': (0, 1), 'shutil.rmtree': (0,),
                'shutil.unpack_archive': (1,)}

# The real primitive, captured before any gate code runs.
REAL = functools.reduce(getattr, PRIMITIVE[1].split('.'), importlib.import_module(PRIMITIVE[0])) \
    if KIND == 'reach' else None
NS = None
IN_CHAIN = False
ESCAPED = []


def _same(v):
    if v is REAL:
        return True
    code = getattr(REAL, '__code__', None)
    if code is not None and getattr(v, '__code__', None) is code:
        return True
    try:
        return type(v) is type(REAL) and bool(v == REAL)
    except Exception:
        return False


def _forbidden_path(p):
    globs = REQUIRES.get('filesystem_writes')
    if globs is None:
        return False
    if not isinstance(p, (str, bytes, os.PathLike)):
        return True
    p = os.path.abspath(os.fsdecode(p))
    return not any(fnmatch.fnmatch(p, g) for g in globs)


def _hook(event, args):
    # Added after the gate is installed, so a gate's own audit hook refuses first.
    # Whatever the policy, nothing is let through: this script never spawns or writes.
    if not IN_CHAIN:
        return
    if event in SPAWN_EVENTS:
        if REQUIRES.get('subprocess', True) is False:
            ESCAPED.append(f'effect spawn {event} {args[0]!r}' if args else event)
        raise PermissionError(f'reproducer: {event} refused')
    if event in NET_EVENTS:
        if REQUIRES.get('network', True) is False:
            ESCAPED.append(f'effect network {event}')
        raise PermissionError(f'reproducer: {event} refused')
    if event in WRITE_EVENTS:
        if event == 'sqlite3.connect' and args and args[0] in (':memory:', ''):
            return
        if event == 'open':
            mode, flags = args[1], args[2]
            writes = (isinstance(mode, str) and any(c in mode for c in 'wax+')) or (
                isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND))
            if not writes:
                return
        for i in WRITE_EVENTS[event]:
            if i < len(args) and _forbidden_path(args[i]):
                ESCAPED.append(f'effect write {event} {args[i]!r}')
        raise PermissionError(f'reproducer: {event} refused')


def load(path):
    path = os.path.abspath(path)
    sys.path.insert(0, os.path.dirname(path))  # as the host has the gate's folder on sys.path
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def install(gate):
    ns = {}
    req = json.loads(REQUIRES_JSON)  # a fresh copy, as the host passes it
    if INSTALL == 'gates':
        getattr(gate, ENTRIES[1])(ns, req.get('subprocess', True), MODULE_ID)
        if 'filesystem_writes' in req:
            getattr(gate, ENTRIES[2])(ns, req['filesystem_writes'], MODULE_ID)
    else:
        getattr(gate, ENTRIES[0])(ns, req, MODULE_ID)
    ns.setdefault('__builtins__', builtins.__dict__)  # as exec() gives handler code
    return ns


_HANDLER = next(c for c in compile('def handler(f, a):\n    return f(*a)\n', '<handler>', 'exec').co_consts
                if isinstance(c, types.CodeType))


def _call(v, *a):
    # Called from a frame whose globals are the namespace, as handler code runs;
    # a call that raises yields its exception, so the chain can walk its traceback.
    try:
        return types.FunctionType(_HANDLER, NS)(v, a)
    except BaseException as e:
        return e


def _dirname(v, k):
    names = dir(v)
    return names[k % len(names)]


def _items(v):
    mapping = hasattr(v, 'keys') and hasattr(v, '__getitem__') and not isinstance(v, (list, tuple, str, bytes))
    keys = list(v.keys() if mapping else v)[:4096]
    return mapping, keys


def _nth(v, k):
    mapping, keys = _items(v)
    x = keys[k % len(keys)]
    return v[x] if mapping else x


def _named(v, name):
    mapping, keys = _items(v)
    attr = '__qualname__' if '.' in name else '__name__'
    for x in keys:
        x = v[x] if mapping else x
        if getattr(x, attr, None) == name:
            return x
    raise LookupError(f'no element named {name}')


def _check(v, where):
    if KIND == 'reach' and _same(v):
        print(f'ESCAPE reproduced: reach {CAPABILITY} {PRIMITIVE_NAME} via {where}')
        sys.exit(1)
    if ESCAPED:
        print(f'ESCAPE reproduced: {ESCAPED[0]} via {where}')
        sys.exit(1)


def run(ns):
    _ = None
    # os.removexattr
    v = ns['os']
    _check(v, 'os')
    v = getattr(v, 'removexattr')
    _check(v, 'os.removexattr')
    _ = v


def main():
    global NS, IN_CHAIN
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        NS = install(load(sys.argv[1]))
    except BaseException as e:  # exit 1 means 'reproduced': a gate that fails to load is not
        print(f'error: the gate did not load: {type(e).__name__}: {e}', file=sys.stderr)
        sys.exit(2)
    sys.addaudithook(_hook)
    IN_CHAIN = True
    try:
        run(NS)
    except Exception as e:
        IN_CHAIN = False
        print(f'blocked: a step failed: {type(e).__name__}: {e}')
        sys.exit(0)
    IN_CHAIN = False
    print('blocked: the escape did not reproduce')
    sys.exit(0)


if __name__ == '__main__':
    main()
