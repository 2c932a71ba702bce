#!/usr/bin/env python3
"""gatecrash's reproducer: replay a saved escape case against a gate with plain CPython.

Usage: python3 reproduce.py CASE.chain [GATE_MODULE.py]
       python3 reproduce.py CASE.py [ADAPTER.py]      (a source target's case)
    GATE_MODULE.py defaults to the "sandbox" of the target.json beside the case (a path
    relative to that folder); the requires block and install entries come from it too.
    A source target's case (target.json "kind": "source") is a program: ADAPTER.py defaults
    to its "adapter", whose evaluate (its "entry") runs the case's text unchanged, with its
    "venv"'s site-packages on sys.path (a venv of another Python version is refused).
Exit status: 1 when the escape reproduces, 0 when the gate blocks it, 2 on bad usage, an
unreadable case, a gate that does not load, or a case of kind syscall or landlock (made
below Python) run without gatecrash-watch around this script.

It imports the gate module from its path, installs it into a fresh namespace as the host
does, walks the chain step by step in a frame whose globals are the namespace, and checks
every value against the real primitive, read from its module as that module is imported
(before the gate's code after the import runs).  Nothing is
spawned or written: the chain stops at the primitive, and an audit hook refuses any spawn or
write the chain attempts.  The tables (audit events, primitives) are _tables.py beside this
file, written by gatecrash from the harness's own (`gatecrash triage --tables FILE`); a
standalone reproducer (`gatecrash triage --standalone`) is this file with the tables and
the case inlined.  pytest: conftest.py beside this file collects every case.
"""
import ast
import builtins
import fnmatch
import importlib
import importlib.util
import json
import os
import re
import sys
import threading
import types

sys.dont_write_bytecode = True  # leave the gate's folder as it was: no __pycache__

# Under gatecrash-watch (a confirmation's eyes below Python: triage/watch.h), the descriptor
# on which the case's run is marked (Run.in_chain); taken out of the environment the
# sandbox sees.
_WATCH_FD = os.environ.pop('GATECRASH_WATCH_FD', None)

if 'SPAWN_EVENTS' not in globals():  # a standalone reproducer has them inlined above
    _spec = importlib.util.spec_from_file_location(
        '_gatecrash_tables', os.path.join(os.path.dirname(os.path.abspath(__file__)), '_tables.py'))
    _tables = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_tables)
    SPAWN_EVENTS, NET_EVENTS, WRITE_EVENTS = _tables.SPAWN_EVENTS, _tables.NET_EVENTS, _tables.WRITE_EVENTS
    HARNESS_EVENTS = _tables.HARNESS_EVENTS
    PRIMITIVES, HARNESS_MODULES = _tables.PRIMITIVES, _tables.HARNESS_MODULES


_HARNESS_PREFIXES = tuple(e[:-1] for e in HARNESS_EVENTS if e.endswith('.*'))  # 'ctypes.*': 'ctypes.'


class BadCase(Exception):
    pass


class Blocked(PermissionError):
    """What the harness raises on an event it refuses (harness/runtime/oracle.c block())."""


Blocked.__module__ = 'gatecrash'


class Timeout(BaseException):
    """The harness's time-limit exception (harness/runtime/timelimit.c): a class a chain walks
    to there (BaseException.__subclasses__()[@Timeout]), so it is here too."""


Timeout.__module__ = 'gatecrash'


# --- the case: its '#' header and the chain language (harness/chain/chain.h) ---------------------

_TOKEN = re.compile(r"""\s*(?:(?P<str>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|(?P<int>-?\d+)"""
                    r"""|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>\.\#|\[\#|\[@|[.\[\]()@,;#]))""")


def _tokens(line):
    pos, out = 0, []
    while pos < len(line) and line[pos:].strip():
        m = _TOKEN.match(line, pos)
        if not m:
            raise BadCase(f'cannot read {line[pos:]!r}')
        kind = m.lastgroup
        text = m.group(kind)
        if kind == 'op' and text == '#':
            break  # a comment
        out.append((kind, text, m.end()))
        pos = m.end()
    return out


PREV = object()  # a call's '_' argument: the previous statement's value, as root '_' is


def _arg(tok):
    kind, text, _ = tok
    if kind == 'str':
        return ast.literal_eval(text)
    if kind == 'int':
        return int(text)
    if kind == 'name' and text in ('None', 'True', 'False'):
        return {'None': None, 'True': True, 'False': False}[text]
    raise BadCase(f'not a literal: {text}')


def _expect(toks, i, text):
    if i >= len(toks) or toks[i][1] != text:
        raise BadCase(f'expected {text!r}')
    return i + 1


def _trailer(toks, i):
    """(trailer, next index): ('attr', n) ('item', key) ('call', args) ('dir', k) ('nth', k) ('named', n)."""
    kind, text, _ = toks[i]
    if text == '.':
        return ('attr', toks[i + 1][1]), i + 2
    if text in ('.#', '[#'):
        k = int(toks[i + 1][1])
        return (('dir', k), i + 2) if text == '.#' else (('nth', k), _expect(toks, i + 2, ']'))
    if text == '[@':
        name = toks[i + 1][1]
        j = i + 2
        while j + 1 < len(toks) and toks[j][1] == '.':  # a dotted __qualname__
            name += '.' + toks[j + 1][1]
            j += 2
        return ('named', name), _expect(toks, j, ']')
    if text == '[':
        return ('item', _arg(toks[i + 1])), _expect(toks, i + 2, ']')
    if text == '(':
        args, j = [], i + 1
        while toks[j][1] != ')':
            args.append(PREV if toks[j][1] == '_' else _arg(toks[j]))
            j += 1
            if toks[j][1] == ',':
                j += 1
        return ('call', args), j + 1
    raise BadCase(f'unexpected {text!r}')


def parse_chain(lines):
    """[(source, root, [(trailer, source up to it)])], one per statement."""
    stmts = []
    for line in lines:
        toks = _tokens(line)
        i, start = 0, 0
        while i < len(toks):
            if toks[i][0] != 'name':
                raise BadCase(f'a statement starts with a name, not {toks[i][1]!r}')
            root, i, trailers = toks[i][1], i + 1, []
            while i < len(toks) and toks[i][1] != ';':
                try:
                    t, i = _trailer(toks, i)
                except IndexError:
                    raise BadCase(f'incomplete statement: {line!r}') from None
                trailers.append((t, line[start:toks[i - 1][2]].strip()))
            stmts.append((line[start:toks[i - 1][2]].strip(), root, trailers))
            if i < len(toks):
                start, i = toks[i][2], i + 1
    return stmts


def parse_header(text):
    """(header fields, the other lines) of a case: its leading and other '#' lines."""
    header, lines = {}, []
    for line in text.splitlines():
        if line.startswith('#'):
            key, sep, value = line[1:].partition(':')
            if sep:
                header.setdefault(key.strip(), value.strip())
        elif line.strip():
            lines.append(line)
    for key in ('kind', 'capability', 'primitive'):
        if key not in header:
            raise BadCase(f'no "# {key}:" line in its header')
    return header, lines


def parse_case(text):
    """(header fields, statements) of a .chain file."""
    header, lines = parse_header(text)
    return header, parse_chain(lines)


class Primitives:
    """The real primitives watched: [(name, capability)], each read from its module's
    namespace as that module finishes executing (before code after its import, the gate's,
    can replace it), as the harness binds its rows as modules appear.  A module already
    imported is read at once; no module is imported here for it, so the host's world is
    kept: a gate that imports subprocess makes subprocess.Popen the newest subclass of
    object here as in the harness (object.__subclasses__()[-1] is the same class)."""

    def __init__(self, names):
        self.found = []     # (name, capability, the real object) once its module was imported
        self.caps = dict(names)
        self.pending = {}   # module: [names] not read yet
        self.busy = False
        for name, _ in names:
            if name not in PRIMITIVES:
                raise BadCase(f'{name} is not in the harness\'s table of primitives')
            self.pending.setdefault(PRIMITIVES[name][0], []).append(name)
        for module in [m for m in self.pending if m in sys.modules]:
            self.read(module, sys.modules[module])
        if self.pending:
            sys.meta_path.insert(0, self)

    def read(self, module, mod):
        for name in self.pending.pop(module, ()):
            v = mod
            try:
                for part in PRIMITIVES[name][1].split('.'):
                    v = getattr(v, part)
            except AttributeError:
                continue
            self.found.append((name, self.caps[name], v))

    def find_spec(self, fullname, path=None, target=None):
        """sys.meta_path: a module read for its primitives gets a loader that reads them
        once it has executed; the other finders find it."""
        if fullname not in self.pending or self.busy:
            return None
        self.busy = True
        try:
            spec = importlib.util.find_spec(fullname)
        except (ImportError, ValueError):
            spec = None
        finally:
            self.busy = False
        if spec is not None and spec.loader is not None:
            spec.loader = _Reading(spec.loader, self, fullname)
        return spec

class _Reading:
    """A module's loader that reads the primitives out of the module it executed."""

    def __init__(self, loader, prims, name):
        self._loader, self._prims, self._name = loader, prims, name

    def create_module(self, spec):
        create = getattr(self._loader, 'create_module', None)
        return create(spec) if create else None

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._prims.read(self._name, module)

    def __getattr__(self, attr):
        return getattr(self._loader, attr)


# --- the gate, installed as the host does -------------------------------------------------

def import_harness_modules():
    """The built-in modules the harness imports before the gate loads (its C functions'
    definitions are guarded there), so a class walk meets the same classes here; a Python
    module is imported by the gate or a program, as in the host, never here."""
    for name in HARNESS_MODULES:
        if name in sys.builtin_module_names:
            importlib.import_module(name)


def load(path):
    path = os.path.abspath(path)
    sys.path.insert(0, os.path.dirname(path))  # as the host has the gate's folder on sys.path
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def install(gate, target):
    ns = {}
    req = json.loads(json.dumps(target['requires']))  # a fresh copy, as the host passes it
    entries = target.get('entries', {})
    module_id = target.get('module_id', 'plugin')
    if target.get('install') == 'gates':
        getattr(gate, entries.get('subprocess_gate', '_install_subprocess_gate'))(
            ns, req.get('subprocess', True), module_id)
        if 'filesystem_writes' in req:
            getattr(gate, entries.get('filesystem_gate', '_install_filesystem_gate'))(
                ns, req['filesystem_writes'], module_id)
    else:
        getattr(gate, entries.get('install_restrictions', 'install_restrictions'))(ns, req, module_id)
    ns.setdefault('__builtins__', builtins.__dict__)  # as exec() gives handler code
    return ns


# --- the effect oracle: an audit hook that refuses and records -----------------------------

_THREAD_START = threading.Thread._bootstrap_inner.__code__


def _sandbox_sets_attr(event, args):
    """A source target's code (the sandbox's, a module it imports, the program) setting or
    deleting an attribute other than __code__: given, as the harness gives it while evaluate
    and the host's handling run (harness/runtime/oracle.c sandbox_sets_function_attr); a
    module imported there (shutil: a namedtuple's field docs) does it."""
    return (event in ('object.__setattr__', 'object.__delattr__') and len(args) > 1
            and isinstance(args[1], str) and args[1] != '__code__')


class Run:
    def __init__(self, header, requires):
        self.kind, self.cap, self.prim = header['kind'], header['capability'], header['primitive']
        self.requires = requires
        # the real primitives watched, each read as its module is imported (Primitives): the
        # one the header names, or with '# primitive: *' every one the policy forbids (a case
        # without a known escape, run to see whether anything escapes: a miss)
        self.watched = Primitives([] if self.kind != 'reach' else forbidden_primitives(requires)
                                  if self.prim == '*' else [(self.prim, self.cap)])
        self.in_chain = False
        self.source = False  # a source target's evaluate runs: its code sets attributes
        self.escaped = []
        self.ns = None

    @property
    def in_chain(self):
        return self._in_chain

    @in_chain.setter
    def in_chain(self, on):
        # marked for gatecrash-watch, which stops and names a process made, a socket opened
        # or a file written below Python (no audit event) only while the case runs
        self._in_chain = on
        if _WATCH_FD is not None:
            os.write(int(_WATCH_FD), b'B' if on else b'E')

    def forbidden_path(self, p):
        globs = self.requires.get('filesystem_writes')
        if globs is None:
            return False
        if not isinstance(p, (str, bytes, os.PathLike)):
            return True
        p = os.path.abspath(os.fsdecode(p))
        return not any(fnmatch.fnmatch(p, g) for g in globs)

    def hook(self, event, args):
        # Added after the gate is installed, so a gate's own audit hook refuses first.
        # Whatever the policy, nothing is let through: this script never spawns or writes.
        # What the harness refuses, it refuses too, with the harness's exception, so a call
        # raises here where it raises there (a chain may walk the exception's traceback).
        if not self.in_chain:
            return
        if event == 'sys.setprofile' and sys._getframe(1).f_code is _THREAD_START:
            return  # a new thread taking the runner's own profile (threading.setprofile)
        if event in HARNESS_EVENTS or event.startswith(_HARNESS_PREFIXES):
            if self.source and _sandbox_sets_attr(event, args):
                return
            raise Blocked(f'gatecrash: {event} blocked by the harness')
        if event in SPAWN_EVENTS:
            if self.requires.get('subprocess', True) is False:
                self.escaped.append(f'effect spawn {event} {args[0]!r}' if args else event)
            raise Blocked(f'gatecrash: {event} blocked by the harness')
        if event in NET_EVENTS:
            if self.requires.get('network', True) is False:
                self.escaped.append(f'effect network {event}')
            raise Blocked(f'gatecrash: {event} blocked by the harness')
        if event in WRITE_EVENTS:
            if event == 'open' and isinstance(args[0], int):
                # open(fd): the file would close that descriptor (oracle.c judge())
                raise Blocked('gatecrash: open(fd) blocked by the harness')
            if event == 'sqlite3.connect' and args and args[0] in (':memory:', ''):
                return
            if event == 'open' and not _opens_for_writing(args[1], args[2]):
                return
            for i in WRITE_EVENTS[event]:
                if i < len(args) and self.forbidden_path(args[i]):
                    self.escaped.append(f'effect write {event} {args[i]!r}')
            raise Blocked(f'gatecrash: {event} blocked by the harness')

    def same(self, v):
        """(name, capability) of the watched primitive v is, or None."""
        for name, cap, real in self.watched.found:
            if _same(v, real):
                return name, cap
        return None

    def check(self, v, where):
        """The verdict line when value v reached by 'where' is an escape, else None."""
        hit = self.kind == 'reach' and self.same(v)
        if hit:
            return f'ESCAPE reproduced: reach {hit[1]} {hit[0]} via {where}'
        if self.escaped:
            return f'ESCAPE reproduced: {self.escaped[0]} via {where}'
        return None


def _code(x):
    """The code of a function or a bound method's function, else None: read without running
    any code of x (a getattr would run a gate class's __getattr__, which may loop), as the
    harness's keys are (harness/runtime/oracle.c keys_of)."""
    if type(x) is types.MethodType:
        x = x.__func__
    return x.__code__ if type(x) is types.FunctionType else None


def _same(v, real):
    if v is real:
        return True
    code = _code(real)
    if code is not None and _code(v) is code:
        return True
    try:
        return type(v) is type(real) and bool(v == real)
    except Exception:
        return False


def forbidden_primitives(requires):
    """[(name, capability)] of every primitive whose capability the policy forbids
    (oracle.c gc_policy_forbids)."""
    globs = requires.get('filesystem_writes')
    forbids = {'spawn': requires.get('subprocess', True) is False,
               'network': requires.get('network', True) is False,
               'write': globs is not None and not any(g in ('*', '/*', '**', '/**') for g in globs)}
    return [(name, cap) for name, (_, _, cap) in PRIMITIVES.items() if forbids.get(cap)]


def _opens_for_writing(mode, flags):
    return (isinstance(mode, str) and any(c in mode for c in 'wax+')) or (
        isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND)))


# --- the chain's steps, with the evaluator's meaning (harness/chain/eval.c) ----------------------

_HANDLER = next(c for c in compile('def handler(f, a):\n    return f(*a)\n', '<handler>', 'exec').co_consts
                if isinstance(c, types.CodeType))


_TRACEBACK = BaseException.__traceback__  # read and set past a gate's __getattribute__


def _call(ns, v, args):
    # Called from a frame whose globals are the namespace, as handler code runs;
    # a call that raises yields its exception, so the chain can walk its traceback.  The
    # harness calls the handler from C, so its traceback starts at the handler's frame:
    # this frame's entry, the first (no audited frame read is needed to drop it), goes,
    # and tb_next counts the same frames here as there.
    try:
        return types.FunctionType(_HANDLER, ns)(v, tuple(args))
    except BaseException as e:
        tb = _TRACEBACK.__get__(e)
        if tb is not None:
            _TRACEBACK.__set__(e, tb.tb_next)
        return e


def _set_key(x):
    # the harness's order for set elements (eval.c sort_by_name): type, name, repr
    t = type(x)
    m = getattr(t, '__module__', 'builtins')
    tp = t.__name__ if m == 'builtins' or t.__flags__ & 512 else f'{m}.{t.__name__}'
    n = getattr(x, '__qualname__', None)
    n = n if isinstance(n, str) else getattr(x, '__name__', None)
    try:
        r = repr(x)
    except Exception:
        r = ''
    return tp, n if isinstance(n, str) else '', r


def _items(v):
    mapping = hasattr(v, 'keys') and hasattr(v, '__getitem__') and not isinstance(v, (list, tuple, str, bytes))
    keys = list(v.keys() if mapping else v)[:4096]
    if isinstance(v, (set, frozenset)):
        keys.sort(key=_set_key)
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


def step(ns, v, trailer, prev=None):
    kind, arg = trailer
    if kind == 'attr':
        return getattr(v, arg)
    if kind == 'item':
        return v[arg]
    if kind == 'call':
        return _call(ns, v, [prev if a is PREV else a for a in arg])
    if kind == 'dir':
        names = dir(v)
        return getattr(v, names[arg % len(names)])
    if kind == 'nth':
        return _nth(v, arg)
    return _named(v, arg)


def walk(run, stmts):
    """(the verdict line of the first escaping step or None, why the first failed step failed
    or None).  A step that fails ends its statement and '_' becomes None, as in the
    evaluator (docs/CHAINS.md): the next statement still runs."""
    prev, done, failed = None, '', None  # the statements run so far, as the verdict names them
    for source, root, trailers in stmts:
        where = done + root
        try:
            v = prev if root == '_' else run.ns[root]
            verdict = run.check(v, where)
            for trailer, where in trailers:
                if verdict:
                    break
                where = done + where
                v = step(run.ns, v, trailer, prev)
                verdict = run.check(v, where)
        except Exception as e:
            failed = failed or f'{type(e).__name__}: {e}'
            v, verdict = None, run.check(None, where)  # an effect the failing step had
        if verdict:
            return verdict, failed
        prev, done = v, done + source + '; '
    return None, failed


# --- the command ---------------------------------------------------------------------------

def replay(case_text, target, gate_path):
    """(exit status, message): 1 reproduced, 0 blocked, 2 could not run."""
    import_harness_modules()
    try:
        header, stmts = parse_case(case_text)
        run = Run(header, target['requires'])
    except (BadCase, ImportError, AttributeError, KeyError) as e:
        return 2, f'error: unreadable case: {e}'
    try:
        run.ns = install(load(gate_path), target)
    except BaseException as e:  # exit 1 means 'reproduced': a gate that fails to load is not
        return 2, f'error: the gate did not load: {type(e).__name__}: {e}'
    sys.addaudithook(run.hook)
    run.in_chain = True
    try:
        verdict, failed = walk(run, stmts)
    finally:
        run.in_chain = False
    if verdict:
        return 1, verdict
    return 0, f'blocked: a step failed: {failed}' if failed else 'blocked: the escape did not reproduce'


# --- source targets: the case is a program, run through the adapter's evaluate -----------

def add_venv(venv):
    """The venv's site-packages on sys.path (as the harness does); None, or why not."""
    if not venv or os.path.realpath(sys.prefix) == os.path.realpath(venv):
        return None
    try:
        with open(os.path.join(venv, 'pyvenv.cfg')) as f:
            cfg = {k.strip(): v.strip() for k, v in (line.split('=', 1) for line in f if '=' in line)}
    except OSError as e:
        return f'venv {venv} is not a virtual environment: {e}'
    version = (cfg.get('version') or cfg.get('version_info') or '').strip()
    here = '%d.%d' % sys.version_info[:2]
    if version.split('.')[:2] != here.split('.'):
        return f'venv {venv} is for Python {version}, not this Python {here}'
    import site
    site.addsitedir(os.path.join(venv, 'lib', f'python{here}', 'site-packages'))
    return None


def refusal_types(adapter, names):
    """The sandbox's own refusal exceptions, named as target.json names them."""
    types_ = []
    for name in names:
        module, _, attr = name.rpartition('.')
        owner = importlib.import_module(module) if module else adapter
        v = getattr(owner, attr, None) if module else getattr(adapter, attr, getattr(builtins, attr, None))
        if not (isinstance(v, type) and issubclass(v, BaseException)):
            raise BadCase(f'refusal {name!r} is no exception class')
        types_.append(v)
    return tuple(types_)


def _exception_values(v):
    # read through the exception's own descriptors: no code of the value runs
    reads = [('.args', BaseException.args), ('.__cause__', BaseException.__cause__),
             ('.__context__', BaseException.__context__)]
    if isinstance(v, AttributeError) and hasattr(AttributeError, 'obj'):
        reads += [('.obj', AttributeError.obj), ('.name', AttributeError.name)]
    if isinstance(v, StopIteration):
        reads.append(('.value', StopIteration.value))
    out = []
    for where, d in reads:
        try:
            out.append((where, d.__get__(v)))
        except Exception:
            pass
    try:
        out.append(('.__dict__', object.__getattribute__(v, '__dict__')))
    except Exception:
        pass
    return out


def search(run, v, where='result', depth=0, budget=None):
    """The verdict line when the value evaluate gave back holds the primitive (the harness's
    bounded search, harness/source/source.c: containers and exception attributes), else None."""
    budget = budget if budget is not None else [4096]
    budget[0] -= 1
    if depth > 6 or budget[0] < 0 or v is None:
        return None
    verdict = run.check(v, where)
    if verdict:
        return verdict
    if isinstance(v, BaseException):
        kids = _exception_values(v)
    elif type(v) in (list, tuple) or isinstance(v, (list, tuple)):
        kids = [(f'[{i}]', x) for i, x in enumerate(list.__iter__(v) if isinstance(v, list) else tuple.__iter__(v))]
    elif isinstance(v, dict):
        kids = []
        for i, (k, x) in enumerate(dict.items(v)):
            kids += [(f'{{key {i}}}', k), (f'{{value {i}}}', x)]
    else:
        kids = []
    for step_, x in kids:
        verdict = search(run, x, where + step_, depth + 1, budget)
        if verdict or budget[0] < 0:
            return verdict
    return None


STEP_MARKER = '\n# gatecrash: step\n'  # harness/runtime/dialect.h, GC_STEP_MARKER


def steps_of(session):
    """A step target's evaluate, as harness/runtime/adapter.c runs it: the parts between
    step markers in turn through one session(); the one part's value, or a tuple of each."""
    def evaluate(text):
        step = session()
        values = tuple(step(part) for part in text.split(STEP_MARKER, 15))
        return values[0] if len(values) == 1 else values
    return evaluate


def replay_source(case_text, target, adapter_path):
    """(exit status, message) of a source case: its text through evaluate, the returned
    value searched, every C-level call checked before it runs (sys.setprofile's c_call, as
    the harness's profile function does)."""
    import_harness_modules()
    try:
        header, _ = parse_header(case_text)
        run = Run(header, target['requires'])
        run.source = True
    except (BadCase, ImportError, AttributeError, KeyError) as e:
        return 2, f'error: unreadable case: {e}'
    why = add_venv(target.get('venv'))
    if why:
        return 2, f'error: {why}'
    called = []
    spaces = Namespaces(run)

    def guard(frame, event, arg):
        if event == 'call' and run.in_chain:
            spaces.frame_started(frame)
        hit = event == 'c_call' and run.in_chain and run.kind == 'reach' and run.same(arg)
        if hit:
            called.append(f'ESCAPE reproduced: reach {hit[1]} {hit[0]} called inside the evaluation')
            raise PermissionError(f'reproducer: {hit[0]} refused')

    # before the adapter loads: a thread it starts then (a worker pool's) or later (one per
    # program) runs the program's code under the guard too, as the harness watches every thread
    threading.setprofile(guard)
    try:
        adapter = load(adapter_path)
        evaluate = getattr(adapter, target.get('entry', 'evaluate'))
        if target.get('steps', 1) > 1:  # its parts between step markers, against one session
            evaluate = steps_of(adapter.session)
        refused = refusal_types(adapter, target.get('refusals', []))
    except BaseException as e:  # exit 1 means 'reproduced': an adapter that fails to load is not
        return 2, f'error: the adapter did not load: {type(e).__name__}: {e}'
    sys.addaudithook(run.hook)
    sys.addaudithook(spaces.hook)
    sys.setprofile(guard)
    run.in_chain = True
    try:
        value = evaluate(case_text)
    except BaseException as e:
        value = e
    finally:
        run.in_chain = False
        sys.setprofile(None)
    verdict = called[0] if called else run.check(None, 'the evaluation') if run.escaped else None
    if not verdict and isinstance(value, refused):
        return 0, f'blocked: refused by the sandbox: {type(value).__name__}'
    verdict = verdict or search(run, value) or spaces.search()
    if not verdict:  # what the host does with it after evaluate returned, the guard still on
        holder, value = [value], None
        host_handles(run, holder, guard, spaces)
        verdict = called[0].replace('inside the evaluation', 'after evaluate returned') if called else None
    return (1, verdict) if verdict else (0, 'blocked: the escape did not reproduce')


def _stdlib_caller(frame):
    """Is the frame the standard library's (its module's top-level name in
    sys.stdlib_module_names)?  An exec there (importlib's, as a module is imported) runs a
    module's code, not the program's (harness/source/program_ns.c stdlib_caller)."""
    name = frame.f_globals.get('__name__')
    return isinstance(name, str) and name.partition('.')[0] in sys.stdlib_module_names


class Namespaces:
    """The namespaces the program's code ran in, as the harness finds them
    (harness/source/program_ns.c): the exec audit event names the code object about to run,
    and the frame that runs it is seen starting (sys.setprofile's call event); its globals
    and locals are kept with a copy of what each held then, so that what the sandbox bound
    before (the same object under the same name) is not the program's."""

    def __init__(self, run):
        self.run, self.codes, self.seen = run, set(), []

    def hook(self, event, args):
        if event == 'exec' and self.run.in_chain and args and hasattr(args[0], 'co_code') \
                and not _stdlib_caller(sys._getframe(1)):
            self.codes.add(id(args[0]))

    def frame_started(self, frame):
        if id(frame.f_code) in self.codes:
            for d in (frame.f_globals, frame.f_locals):
                if not any(d is held for held, _ in self.seen):
                    self.seen.append((d, dict(d)))

    def search(self):
        """The verdict line when a binding the program made holds the primitive, else None."""
        budget = [4096]
        for d, before in self.seen:
            for name, v in list(d.items()):
                if name == '__builtins__' or (name in before and before[name] is v):
                    continue
                verdict = search(self.run, v, f"the program's namespace, at {name}", 0, budget)
                if verdict or budget[0] < 0:
                    return verdict
        return None


def host_handles(run, holder, guard, spaces):
    """The host's handling of the value evaluate gave back, as the harness does it
    (harness/source/source.c): its repr, str and format, a comparison with None, its hash and
    its truth (a value of a class made by Python code: Py_TPFLAGS_HEAPTYPE), then dropping it
    (its finalizer, a collection).  The program's own dunder methods run here, after the
    sandbox's window, with the guard on; what they raise is the host's to log."""
    import gc
    sys.setprofile(guard)
    run.in_chain = True
    try:
        v = holder.pop()
        handles = (repr, str, format, lambda x: x == None, hash, bool) if type(v).__flags__ & (1 << 9) else ()  # noqa: E711
        for handle in handles:
            try:
                handle(v)
            except BaseException:
                pass
        del v
        spaces.seen.clear()  # the program's namespaces dropped too, as the harness drops them
        gc.collect()
    except BaseException:
        pass
    finally:
        run.in_chain = False
        sys.setprofile(None)


def case_target(case_path):
    """The target.json beside a case, its sandbox (a source target's adapter and venv) made
    absolute."""
    folder = os.path.dirname(os.path.abspath(case_path))
    with open(os.path.join(folder, 'target.json')) as f:
        target = json.load(f)
    for key in ('adapter', 'venv') if target.get('kind') == 'source' else ('sandbox',):
        if key in target or key == 'sandbox':
            target[key] = os.path.join(folder, target[key])
    return target


def main(argv):
    if 'CASE_TEXT' in globals():  # standalone: the case and its target are inlined
        target = json.loads(TARGET_JSON)
        source = target.get('kind') == 'source'  # the adapter: as given, else the target's
        if len(argv) != 1 and not (source and not argv):
            print(__doc__, file=sys.stderr)
            return 2
        text, gate = CASE_TEXT, argv[0] if argv else target['adapter']
    else:
        if len(argv) not in (1, 2):
            print(__doc__, file=sys.stderr)
            return 2
        try:
            with open(argv[0], encoding='utf-8') as f:
                text = f.read()
            target = case_target(argv[0])
        except (OSError, ValueError, KeyError) as e:
            print(f'error: cannot read the case or the target.json beside it: {e}', file=sys.stderr)
            return 2
        gate = argv[1] if len(argv) == 2 else target['adapter' if target.get('kind') == 'source' else 'sandbox']
    try:
        kind = parse_header(text)[0]['kind']
    except BadCase:
        kind = None  # the replay says why
    if kind in ('syscall', 'landlock') and _WATCH_FD is None:
        # made from C (a process, a socket, a write): this script's hook would neither see it
        # nor stop it, and the escape would happen for real
        print(f'error: a {kind} escape is made below Python, where an audit hook neither '
              f'sees nor stops it: run this under gatecrash-watch, as gatecrash replay does '
              f'(gatecrash-watch --count CAPABILITY -- python3 -s THIS_SCRIPT ...)', file=sys.stderr)
        return 2
    run = replay_source if target.get('kind') == 'source' else replay
    code, message = run(text, target, gate)
    print(message, file=sys.stderr if code == 2 else sys.stdout)
    return code


if __name__ == '__main__':
    # The verdict is out: nothing the program left behind (a thread, a second
    # threading._MainThread that interpreter shutdown would wait for) may hold the process.
    _code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_code)
