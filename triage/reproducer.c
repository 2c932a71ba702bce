/* reproducer.c — see reproducer.h.  The script is generated text: a fixed preamble (the
 * helpers the chain's Python form calls) with the audit-event tables of the effect oracle
 * (generated from oracle.c's), plus the case's constants and its steps. */
#include "reproducer.h"

#include <string.h>

static void py_str(gc_strbuf *out, const char *s) { gc_chain_print_string(s, strlen(s), out); }

/* Before the event tables. */
static const char *preamble =
    "import builtins\n"
    "import fnmatch\n"
    "import functools\n"
    "import importlib\n"
    "import importlib.util\n"
    "import json\n"
    "import os\n"
    "import sys\n"
    "import types\n"
    "\n"
    "sys.dont_write_bytecode = True  # leave the gate's folder as it was: no __pycache__\n"
    "\n";

/* After the event tables (generated from oracle.c by event_tables). */
static const char *preamble_rest =
    "# The real primitive, captured before any gate code runs.\n"
    "REAL = functools.reduce(getattr, PRIMITIVE[1].split('.'), importlib.import_module(PRIMITIVE[0])) \\\n"
    "    if KIND == 'reach' else None\n"
    "NS = None\n"
    "IN_CHAIN = False\n"
    "ESCAPED = []\n"
    "\n"
    "\n"
    "def _same(v):\n"
    "    if v is REAL:\n"
    "        return True\n"
    "    code = getattr(REAL, '__code__', None)\n"
    "    if code is not None and getattr(v, '__code__', None) is code:\n"
    "        return True\n"
    "    try:\n"
    "        return type(v) is type(REAL) and bool(v == REAL)\n"
    "    except Exception:\n"
    "        return False\n"
    "\n"
    "\n"
    "def _forbidden_path(p):\n"
    "    globs = REQUIRES.get('filesystem_writes')\n"
    "    if globs is None:\n"
    "        return False\n"
    "    if not isinstance(p, (str, bytes, os.PathLike)):\n"
    "        return True\n"
    "    p = os.path.abspath(os.fsdecode(p))\n"
    "    return not any(fnmatch.fnmatch(p, g) for g in globs)\n"
    "\n"
    "\n"
    "def _hook(event, args):\n"
    "    # Added after the gate is installed, so a gate's own audit hook refuses first.\n"
    "    # Whatever the policy, nothing is let through: this script never spawns or writes.\n"
    "    if not IN_CHAIN:\n"
    "        return\n"
    "    if event in SPAWN_EVENTS:\n"
    "        if REQUIRES.get('subprocess', True) is False:\n"
    "            ESCAPED.append(f'effect spawn {event} {args[0]!r}' if args else event)\n"
    "        raise PermissionError(f'reproducer: {event} refused')\n"
    "    if event in NET_EVENTS:\n"
    "        if REQUIRES.get('network', True) is False:\n"
    "            ESCAPED.append(f'effect network {event}')\n"
    "        raise PermissionError(f'reproducer: {event} refused')\n"
    "    if event in WRITE_EVENTS:\n"
    "        if event == 'sqlite3.connect' and args and args[0] in (':memory:', ''):\n"
    "            return\n"
    "        if event == 'open':\n"
    "            mode, flags = args[1], args[2]\n"
    "            writes = (isinstance(mode, str) and any(c in mode for c in 'wax+')) or (\n"
    "                isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND))\n"
    "            if not writes:\n"
    "                return\n"
    "        for i in WRITE_EVENTS[event]:\n"
    "            if i < len(args) and _forbidden_path(args[i]):\n"
    "                ESCAPED.append(f'effect write {event} {args[i]!r}')\n"
    "        raise PermissionError(f'reproducer: {event} refused')\n"
    "\n"
    "\n"
    "def load(path):\n"
    "    path = os.path.abspath(path)\n"
    "    sys.path.insert(0, os.path.dirname(path))  # as the host has the gate's folder on sys.path\n"
    "    name = os.path.splitext(os.path.basename(path))[0]\n"
    "    spec = importlib.util.spec_from_file_location(name, path)\n"
    "    mod = importlib.util.module_from_spec(spec)\n"
    "    sys.modules[name] = mod\n"
    "    spec.loader.exec_module(mod)\n"
    "    return mod\n"
    "\n"
    "\n"
    "def install(gate):\n"
    "    ns = {}\n"
    "    req = json.loads(REQUIRES_JSON)  # a fresh copy, as the host passes it\n"
    "    if INSTALL == 'gates':\n"
    "        getattr(gate, ENTRIES[1])(ns, req.get('subprocess', True), MODULE_ID)\n"
    "        if 'filesystem_writes' in req:\n"
    "            getattr(gate, ENTRIES[2])(ns, req['filesystem_writes'], MODULE_ID)\n"
    "    else:\n"
    "        getattr(gate, ENTRIES[0])(ns, req, MODULE_ID)\n"
    "    ns.setdefault('__builtins__', builtins.__dict__)  # as exec() gives handler code\n"
    "    return ns\n"
    "\n"
    "\n"
    "_HANDLER = next(c for c in compile('def handler(f, a):\\n    return f(*a)\\n', '<handler>', 'exec').co_consts\n"
    "                if isinstance(c, types.CodeType))\n"
    "\n"
    "\n"
    "def _call(v, *a):\n"
    "    # Called from a frame whose globals are the namespace, as handler code runs;\n"
    "    # a call that raises yields its exception, so the chain can walk its traceback.\n"
    "    try:\n"
    "        return types.FunctionType(_HANDLER, NS)(v, a)\n"
    "    except BaseException as e:\n"
    "        return e\n"
    "\n"
    "\n"
    "def _dirname(v, k):\n"
    "    names = dir(v)\n"
    "    return names[k % len(names)]\n"
    "\n"
    "\n"
    "def _set_key(x):\n"
    "    # the harness's order for set elements (eval.c sort_by_name): type, name, repr\n"
    "    t = type(x)\n"
    "    m = getattr(t, '__module__', 'builtins')\n"
    "    tp = t.__name__ if m == 'builtins' or t.__flags__ & 512 else f'{m}.{t.__name__}'\n"
    "    n = getattr(x, '__qualname__', None)\n"
    "    n = n if isinstance(n, str) else getattr(x, '__name__', None)\n"
    "    try:\n"
    "        r = repr(x)\n"
    "    except Exception:\n"
    "        r = ''\n"
    "    return tp, n if isinstance(n, str) else '', r\n"
    "\n"
    "\n"
    "def _items(v):\n"
    "    mapping = hasattr(v, 'keys') and hasattr(v, '__getitem__') and not isinstance(v, (list, tuple, str, bytes))\n"
    "    keys = list(v.keys() if mapping else v)[:4096]\n"
    "    if isinstance(v, (set, frozenset)):\n"
    "        keys.sort(key=_set_key)\n"
    "    return mapping, keys\n"
    "\n"
    "\n"
    "def _nth(v, k):\n"
    "    mapping, keys = _items(v)\n"
    "    x = keys[k % len(keys)]\n"
    "    return v[x] if mapping else x\n"
    "\n"
    "\n"
    "def _named(v, name):\n"
    "    mapping, keys = _items(v)\n"
    "    attr = '__qualname__' if '.' in name else '__name__'\n"
    "    for x in keys:\n"
    "        x = v[x] if mapping else x\n"
    "        if getattr(x, attr, None) == name:\n"
    "            return x\n"
    "    raise LookupError(f'no element named {name}')\n"
    "\n"
    "\n"
    "def _check(v, where):\n"
    "    if KIND == 'reach' and _same(v):\n"
    "        print(f'ESCAPE reproduced: reach {CAPABILITY} {PRIMITIVE_NAME} via {where}')\n"
    "        sys.exit(1)\n"
    "    if ESCAPED:\n"
    "        print(f'ESCAPE reproduced: {ESCAPED[0]} via {where}')\n"
    "        sys.exit(1)\n"
    "\n"
    "\n";

static const char *main_part =
    "\n"
    "\n"
    "def main():\n"
    "    global NS, IN_CHAIN\n"
    "    if len(sys.argv) != 2:\n"
    "        print(__doc__, file=sys.stderr)\n"
    "        sys.exit(2)\n"
    "    try:\n"
    "        NS = install(load(sys.argv[1]))\n"
    "    except BaseException as e:  # exit 1 means 'reproduced': a gate that fails to load is not\n"
    "        print(f'error: the gate did not load: {type(e).__name__}: {e}', file=sys.stderr)\n"
    "        sys.exit(2)\n"
    "    sys.addaudithook(_hook)\n"
    "    IN_CHAIN = True\n"
    "    try:\n"
    "        run(NS)\n"
    "    except Exception as e:\n"
    "        IN_CHAIN = False\n"
    "        print(f'blocked: a step failed: {type(e).__name__}: {e}')\n"
    "        sys.exit(0)\n"
    "    IN_CHAIN = False\n"
    "    print('blocked: the escape did not reproduce')\n"
    "    sys.exit(0)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n";

/* "NAME = {'a', 'b'}" (or, with 'paths', "NAME = {'a': (0,), 'b': (0, 1)}") of the audit
 * events of capability 'cap', wrapped before column 100. */
static void event_table(gc_strbuf *out, const char *name, gc_cap cap, int paths)
{
    size_t indent = strlen(name) + 4, col = indent, n = 0;
    gc_sb_printf(out, "%s = {", name);
    const char *ev;
    gc_cap c;
    int p[2];
    gc_strbuf item;
    gc_sb_init(&item);
    for (size_t i = 0; gc_oracle_event(i, &ev, &c, p) == 0; i++) {
        if (c != cap)
            continue;
        gc_sb_clear(&item);
        py_str(&item, ev);
        if (paths && p[1] < 0)
            gc_sb_printf(&item, ": (%d,)", p[0]);
        else if (paths)
            gc_sb_printf(&item, ": (%d, %d)", p[0], p[1]);
        if (n++ && col + 2 + item.len > 99) { /* ", item" and the closing '}' */
            gc_sb_printf(out, ",\n%*s", (int)indent, "");
            col = indent;
        } else if (n > 1) {
            gc_sb_puts(out, ", ");
            col += 2;
        }
        gc_sb_puts(out, item.data);
        col += item.len;
    }
    gc_sb_free(&item);
    gc_sb_puts(out, "}\n");
}

/* The reproducer's audit-event tables, generated from the effect oracle's (oracle.c) when
 * the script is written, so the two cannot drift apart. */
static void event_tables(gc_strbuf *out)
{
    gc_sb_puts(out, "# the event tables of harness/oracle.c (generated from it)\n");
    event_table(out, "SPAWN_EVENTS", GC_CAP_SPAWN, 0);
    event_table(out, "NET_EVENTS", GC_CAP_NETWORK, 0);
    gc_sb_puts(out, "# write events -> indices of the arguments that name written paths\n");
    event_table(out, "WRITE_EVENTS", GC_CAP_WRITE, 1);
    gc_sb_puts(out, "\n");
}

void gc_reproducer_write(const gc_target *t, const gc_chain *chain, const gc_outcome *o, gc_strbuf *out)
{
    gc_strbuf text;
    gc_sb_init(&text);
    gc_chain_print(chain, &text);
    char policy[512];
    gc_policy_describe(&t->policy, policy, sizeof policy);

    gc_sb_puts(out, "#!/usr/bin/env python3\n\"\"\"gatecrash reproducer: ");
    gc_sb_printf(out, "%s escape on %s\n\n", gc_cap_name(o->escape.cap), t->spec.name);
    gc_sb_printf(out, "Signature: %s\nPolicy:    %s\nChain:\n", o->signature, policy);
    for (const char *p = text.data; *p;) {
        const char *e = strchr(p, '\n');
        gc_sb_puts(out, "    ");
        gc_sb_putn(out, p, e ? (size_t)(e - p) : strlen(p));
        gc_sb_putc(out, '\n');
        p = e ? e + 1 : p + strlen(p);
    }
    gc_sb_puts(out, "\nUsage: python3 THIS_FILE PATH/TO/GATE_MODULE.py\n"
                    "Exit status: 1 when the escape reproduces, 0 when the gate blocks it, 2 on bad usage\n"
                    "or a gate that does not load.\n"
                    "Nothing is spawned or written: the chain stops at the primitive, and an audit hook\n"
                    "refuses any spawn or write the chain attempts.\n\"\"\"\n");
    /* constants first: the preamble uses them at import time */
    gc_sb_puts(out, "KIND = ");
    py_str(out, gc_kind_name(o->escape.kind));
    gc_sb_puts(out, "\nCAPABILITY = ");
    py_str(out, gc_cap_name(o->escape.cap));
    gc_sb_puts(out, "\nPRIMITIVE_NAME = ");
    py_str(out, o->escape.primitive);
    const char *dot = strchr(o->escape.primitive, '.');
    gc_sb_puts(out, "\nPRIMITIVE = (");
    if (dot) {
        gc_chain_print_string(o->escape.primitive, (size_t)(dot - o->escape.primitive), out);
        gc_sb_puts(out, ", ");
        py_str(out, dot + 1);
    } else {
        gc_sb_puts(out, "'builtins', ");
        py_str(out, o->escape.primitive);
    }
    gc_sb_puts(out, ")\nREQUIRES_JSON = ");
    py_str(out, t->spec.requires_json);
    gc_sb_puts(out, "\nREQUIRES = __import__('json').loads(REQUIRES_JSON)\nMODULE_ID = ");
    py_str(out, t->spec.module_id);
    gc_sb_puts(out, "\nINSTALL = ");
    py_str(out, t->spec.install == GC_INSTALL_GATES ? "gates" : "install_restrictions");
    gc_sb_puts(out, "\nENTRIES = (");
    py_str(out, t->spec.entry_install);
    gc_sb_puts(out, ", ");
    py_str(out, t->spec.entry_sp);
    gc_sb_puts(out, ", ");
    py_str(out, t->spec.entry_fs);
    gc_sb_puts(out, ")\n\n");
    gc_sb_puts(out, preamble);
    event_tables(out);
    gc_sb_puts(out, preamble_rest);
    gc_sb_puts(out, "def run(ns):\n    _ = None\n");
    gc_chain_print_python(chain, "    ", out);
    gc_sb_puts(out, main_part);
    gc_sb_free(&text);
}
