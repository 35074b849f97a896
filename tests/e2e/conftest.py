"""Shared fixtures of the end-to-end suite.

Every test gets its own scratch directory (tmp_path) and, through `procs`,
a registry of the processes it starts: each is killed (its whole process
group) at teardown, pass or fail. Build outputs are found through
$LTT_BUILD_DIR (tests/run sets it; default: build/).
"""
import os
import signal
import subprocess

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("LTT_BUILD_DIR", os.path.join(TOP, "build"))


def build_path(*parts):
    """Path of a build output, e.g. build_path('tests', 'ctf-sample-writer')."""
    return os.path.join(BUILD, *parts)


class Procs:
    """Starts processes in their own process group and kills them at teardown."""

    def __init__(self):
        self.started = []

    def popen(self, argv, **kw):
        kw.setdefault("start_new_session", True)
        p = subprocess.Popen(argv, **kw)
        self.started.append(p)
        return p

    def run(self, argv, timeout=60, check=True, **kw):
        """Runs argv to completion (bounded); returns CompletedProcess."""
        p = self.popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, **kw)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._kill(p)
            raise
        res = subprocess.CompletedProcess(argv, p.returncode, out, err)
        if check and p.returncode != 0:
            raise AssertionError(f"{argv} exited {p.returncode}:\n{out}\n{err}")
        return res

    @staticmethod
    def _kill(p):
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(timeout=10)

    def cleanup(self):
        for p in reversed(self.started):
            self._kill(p)


@pytest.fixture
def procs():
    registry = Procs()
    yield registry
    registry.cleanup()


@pytest.fixture
def ltt_env(tmp_path):
    """A private LTT_HOME/HOME with the build's ltt; kills its daemon at teardown."""
    from ltt_env import LttEnv
    env = LttEnv(tmp_path)
    yield env
    env.kill_sessiond(signal.SIGKILL)
