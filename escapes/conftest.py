"""pytest plugin: every saved case (*.chain) below this folder is one test.

    pytest escapes/station-1.5.0                  # fails while a case's escape reproduces
    pytest escapes/station-1.5.0 --expect escape  # fails when a case no longer escapes
    pytest escapes/station-1.5.0 --gate PATH/TO/GATE_MODULE.py   # another build of the gate

Each case runs in its own python process through reproduce.py (the shared runner), so one
gate's import cannot leak into the next case.  Copy this file, reproduce.py, _tables.py and
pytest.ini beside your case folders to run them in your own suite.
"""
import os
import subprocess
import sys

import pytest

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'reproduce.py')


def pytest_addoption(parser):
    group = parser.getgroup('gatecrash')
    group.addoption('--expect', choices=('blocked', 'escape'), default='blocked',
                    help='what every case must do: be blocked (default), or still escape')
    group.addoption('--gate', default=None,
                    help="the gate module (default: the sandbox of the target.json beside the cases)")


def pytest_collect_file(parent, file_path):
    if file_path.suffix == '.chain':
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):
        yield Case.from_parent(self, name=self.path.stem)


class CaseFailed(Exception):
    pass


class Case(pytest.Item):
    def runtest(self):
        cmd = [sys.executable, '-I', RUNNER, str(self.path)]
        gate = self.config.getoption('--gate')
        if gate:
            cmd.append(os.path.abspath(gate))
        # the timeout only keeps a hung gate from hanging the suite; no verdict rests on it
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        said = (p.stdout + p.stderr).strip()
        verdict = (p.stdout.strip().splitlines() or [''])[-1]  # the runner's last line
        expect = self.config.getoption('--expect')
        if p.returncode == 2:
            raise CaseFailed(f'the case could not run: {said}')
        if p.returncode not in (0, 1):
            raise CaseFailed(f'the runner exited {p.returncode}: {said}')
        if expect == 'blocked' and p.returncode == 1:
            raise CaseFailed(verdict)
        if expect == 'escape' and p.returncode == 0:
            raise CaseFailed(f'no longer escapes: {verdict}')

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailed):
            return f'{self.path.name}: {excinfo.value}'
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f'case {self.name}'
