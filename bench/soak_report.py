"""The soak report (bench/soak.sh): reads each campaign's strace log and logs, writes
Markdown on stdout.  Python because this is log parsing for a document, not the harness's
job.  Usage: soak_report.py RUNS_DIR SECONDS START_CWD"""
import gzip
import os
import re
import sys

runs, secs, start_cwd = sys.argv[1], int(sys.argv[2]), sys.argv[3]
LINE = re.compile(r'^(\d+) +(.*)$')
CALL = re.compile(r'^(\w+)\((.*)\) += (-?\d+|\?)(?: (\w+))?')
WRITE_FLAGS = ('O_WRONLY', 'O_RDWR', 'O_CREAT', 'O_TRUNC', 'O_APPEND')
MUTATING = {'unlink', 'unlinkat', 'rename', 'renameat', 'renameat2', 'mkdir', 'mkdirat', 'rmdir', 'symlink',
            'symlinkat', 'link', 'linkat', 'chmod', 'fchmodat', 'chown', 'fchownat', 'lchown', 'truncate',
            'utimensat', 'mknod', 'mknodat', 'setxattr', 'lsetxattr', 'removexattr', 'creat'}
SPAWN = {'clone', 'clone3', 'fork', 'vfork'}


def calls(path):
    """(pid, name, args, ret, errno) of every finished call, joining strace's split lines."""
    pending = {}
    with gzip.open(path, 'rt', errors='replace') as f:
        for raw in f:
            m = LINE.match(raw.rstrip('\n'))
            if not m:
                continue
            pid, rest = int(m.group(1)), m.group(2)
            if rest.endswith('<unfinished ...>'):
                pending[pid] = rest[:-len('<unfinished ...>')].rstrip()
                continue
            r = re.match(r'^<\.\.\. (\w+) resumed>(.*)$', rest)
            if r:
                rest = pending.pop(pid, r.group(1) + '(') + r.group(2)
            c = CALL.match(rest)
            if c:
                ret = int(c.group(3)) if c.group(3) != '?' else None
                yield pid, c.group(1), c.group(2), ret, c.group(4)


def first_path(args):
    m = re.search(r'"((?:[^"\\]|\\.)*)"', args)
    return m.group(1) if m else None


def resolve(cwd, p):
    return os.path.normpath(p if p.startswith('/') else os.path.join(cwd or '/', p))


def analyse(t):
    d = os.path.join(runs, t)
    trace = os.path.join(d, 'trace.gz')
    camp = os.path.realpath(os.path.join(d, 'campaign'))
    # pass 1: who started whom (a child's first lines can come before its parent's clone result)
    parent = {}
    for pid, name, args, ret, err in calls(trace):
        if name in SPAWN and ret is not None and ret > 0:
            parent[ret] = pid
    exe, cwd = {}, {}
    execs, spawned_ok, stopped, writes, fdrel, net = [], [], 0, [], 0, []
    root = None
    for pid, name, args, ret, err in calls(trace):
        if root is None:
            root = pid
            cwd[pid] = start_cwd
        if pid not in cwd:  # first seen: the cwd and program it inherited
            pp = parent.get(pid)
            cwd[pid] = cwd.get(pp, start_cwd)
            exe.setdefault(pid, exe.get(pp))
        if name in ('execve', 'execveat'):
            if ret == 0:
                prog = first_path(args)
                execs.append((pid, prog, exe.get(parent.get(pid))))
                exe[pid] = prog
            elif err == 'EPERM':
                stopped += 1
        elif name in SPAWN:
            if ret is not None and ret > 0:
                spawned_ok.append((pid, ret))
                cwd.setdefault(ret, cwd.get(pid))
                exe.setdefault(ret, exe.get(pid))
            elif err == 'EPERM':
                stopped += 1
        elif name == 'chdir':
            if ret == 0:
                cwd[pid] = resolve(cwd.get(pid), first_path(args) or '')
        elif name in ('connect', 'bind'):
            if ret == 0:
                net.append((exe.get(pid), name, args[:120]))
        elif ret is not None and ret >= 0:
            is_write = name in MUTATING or (name in ('open', 'openat', 'openat2') and any(f in args for f in WRITE_FLAGS))
            if not is_write:
                continue
            p = first_path(args)
            if p is None:
                continue
            if name.endswith('at') and not args.startswith('AT_FDCWD') and not p.startswith('/'):
                fdrel += 1
                continue
            a = resolve(cwd.get(pid), p)
            if a == camp or a.startswith(camp + '/') or a in ('/dev/null', '/dev/tty') or a.startswith('/proc/'):
                continue
            writes.append((exe.get(pid), name, a))
    return {'root': root, 'exe': exe, 'execs': execs, 'spawned': spawned_ok, 'stopped': stopped,
            'writes': writes, 'fdrel': fdrel, 'net': net}


def stats(t):
    d = os.path.join(runs, t)
    log = open(os.path.join(d, 'campaign', 'fuzz.log'), errors='replace').read()
    jobs_path = os.path.join(d, 'campaign', 'job-stats.log')
    jobs = open(jobs_path, errors='replace').read() if os.path.exists(jobs_path) else ''
    s = {'inputs': 0, 'repairs': 0, 'timeouts': 0, 'ooms': 0, 'errors': [], 'jobs': 0, 'job_lines': 0,
         'engine': '', 'mid_input_exits': 0}
    for m in re.finditer(r'gatecrash: stats: inputs (\d+),.*?state repairs (\d+), inputs stopped by the time '
                         r'limit (\d+)(?:, by the memory limit (\d+))?', jobs):
        s['job_lines'] += 1
        s['repairs'] += int(m.group(2))
        s['timeouts'] += int(m.group(3))
        s['ooms'] += int(m.group(4) or 0)
    s['errors'] = [l for l in (log + jobs).splitlines() if l.startswith('gatecrash: error')]
    last = [l for l in log.splitlines() if re.match(r'#\d+: cov:', l)]
    if last:
        s['engine'] = last[-1]
        j = re.search(r'job: (\d+)', last[-1])
        s['jobs'] = int(j.group(1)) if j else 0
        s['inputs'] = int(re.match(r'#(\d+)', last[-1]).group(1))
        c = re.search(r'oom/timeout/crash: (\d+)/(\d+)/(\d+)', last[-1])
        s['engine_oom'], s['engine_timeout'], s['engine_crash'] = map(int, c.groups()) if c else (0, 0, 0)
    txt = open(os.path.join(d, 'fuzz.txt'), errors='replace').read()
    m = re.search(r'(\d+) escape input\(s\), (\d+) distinct', txt)
    s['escapes'], s['distinct'] = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    f = re.search(r'\((\d+) crash input\(s\) did not reproduce\)', txt)
    s['flaky'] = int(f.group(1)) if f else 0
    s['exit'] = open(os.path.join(d, 'exit')).read().strip()
    return s


def expected(prog, parent_prog):
    base = os.path.basename(prog or '')
    pbase = os.path.basename(parent_prog or '')
    if base == 'gatecrash' and parent_prog is None:
        return 'the command'
    if base == 'fuzz_gate' and pbase == 'gatecrash':
        return 'the engine (libFuzzer, fork mode)'
    if base == 'sh' and pbase == 'fuzz_gate':
        return "the engine's shell for a job"
    if base == 'fuzz_gate' and pbase == 'sh':
        return 'an engine job (runs inputs)'
    if base.startswith('llvm-symbolizer') and pbase == 'fuzz_gate':
        return "the engine's symbolizer"
    return None


started = open(os.path.join(runs, 'started')).read().strip()
ended = open(os.path.join(runs, 'ended')).read().strip()
commit = open(os.path.join(runs, 'commit')).read().strip()
print('# Soak report\n')
print(f'`bash bench/soak.sh {secs}` at commit `{commit}`, {started} to {ended}: both campaigns at once '
      '(2 cores, shared with other work), each `gatecrash fuzz TARGET --time %d --seed 1` under '
      '`strace -f` (every process of the tree, every call that starts a process or changes a file).\n' % secs)
rows, proofs = [], []
for t in ('station-1.5.0', 'station-1.5.0-allow-all'):
    s, a = stats(t), analyse(t)
    unexpected = [(p, pp) for _, p, pp in a['execs'] if expected(p, pp) is None]
    job_spawns = [(pid, child) for pid, child in a['spawned']
                  if os.path.basename(a['exe'].get(pid) or '') == 'fuzz_gate'
                  and os.path.basename(a['exe'].get(child) or '') not in ('sh', 'fuzz_gate')
                  and not (a['exe'].get(child) or '').startswith('/usr/bin/llvm-symbolizer')]
    rows.append((t, s, a, unexpected))
    kinds = {}
    for _, p, pp in a['execs']:
        k = expected(p, pp) or f'UNEXPECTED {p} (from {pp})'
        kinds[k] = kinds.get(k, 0) + 1
    proofs.append((t, kinds, unexpected, a, job_spawns))

print('| target | exit | inputs run | state repairs | timeouts | out-of-memory | engine jobs (restarts) | engine crashes (escapes) | escape inputs / distinct / not reproduced | harness errors |')
print('|---|---|---|---|---|---|---|---|---|---|')
for t, s, a, _ in rows:
    print(f"| {t} | {s['exit']} | {s['inputs']:,} | {s['repairs']:,} | {s['timeouts']} | {s['ooms']} | {s['jobs']} | "
          f"{s.get('engine_crash', 0)} | {s['escapes']} / {s['distinct']} / {s['flaky']} | {len(s['errors'])} |")
print()
print('Inputs run and engine crashes are from libFuzzer\'s last status line; repairs, timeouts and '
      'out-of-memory findings are the sums of the `gatecrash: stats` line every engine job appends to the '
      'campaign\'s job-stats.log when it ends (an escape ends a job too). Restarts are libFuzzer fork-mode '
      'jobs: every job is a fresh process by design, and a job ends when it finds an escape (an abort '
      'after the escape line: the engine counts it as a crash) or when its time slice is over.\n')
for t, s, a, _ in rows:
    print(f"- {t}: engine's last status line: `{s['engine']}`; {s['job_lines']} job stats lines"
          + (f"; harness errors: {s['errors'][:3]}" if s['errors'] else '; no `gatecrash: error` line'))
print('\n## Effect on the machine\n')
print('| target | processes started, by role | unexpected processes | process creations stopped by the backstop | files changed outside the campaign folder | fd-relative changes | connect/bind |')
print('|---|---|---|---|---|---|---|')
for t, kinds, unexpected, a, job_spawns in proofs:
    roles = '; '.join(f'{k}: {n}' for k, n in sorted(kinds.items()))
    print(f"| {t} | {roles} | {len(unexpected)} | {a['stopped']} | {len(a['writes'])} | {a['fdrel']} | {len(a['net'])} |")
print()
for t, kinds, unexpected, a, job_spawns in proofs:
    if unexpected:
        print(f'- {t}: unexpected processes: {unexpected[:10]}')
    if a['writes']:
        print(f"- {t}: changes outside the campaign folder: {a['writes'][:10]}")
    if a['net']:
        print(f"- {t}: connect/bind that succeeded (the network is not restricted by these policies): {a['net'][:5]}")
print('\nThe campaign folder holds the harness scratch, the corpus, the crash inputs and the engines\' '
      'temporary files (TMPDIR is set to it). "Stopped by the backstop" counts process-creation calls that '
      'returned EPERM under the seccomp filter: the attempts, none of which ran.')
