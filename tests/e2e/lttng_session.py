"""Recording real lttng-ust traces for the reader's differential tests.

The session daemon runs as `nobody` with a private LTTNG_HOME, so that it
shares nothing (sockets, shm) with root's or another test's daemon; it is
started through `procs` (its own process group) and killed at teardown.
"""
import os
import shutil
import subprocess
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
NOBODY = 65534


def lttng_available():
    return all(shutil.which(p) for p in ("lttng", "lttng-sessiond", "setpriv", "gcc")) and \
        any(os.path.exists(p) for p in ("/usr/include/lttng/tracepoint.h", "/usr/include/x86_64-linux-gnu/lttng/tracepoint.h"))


def require_lttng():
    if not lttng_available():
        pytest.skip("lttng-tools, liblttng-ust-dev, gcc or setpriv not installed")
    if os.geteuid() != 0:
        pytest.skip("needs root to run the session daemon as a private user")


class Lttng:
    """A private lttng-sessiond and the helpers to record with it."""

    def __init__(self, procs):
        self.procs = procs
        self.dir = tempfile.mkdtemp(prefix="ltt-reader-e2e-")
        os.chmod(self.dir, 0o755)
        self.home = os.path.join(self.dir, "home")
        os.mkdir(self.home)
        os.chown(self.home, NOBODY, NOBODY)
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                    "HOME": self.home, "LTTNG_HOME": self.home,
                    "LTTNG_UST_REGISTER_TIMEOUT": "5000"}
        self.asuser = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
                       "--clear-groups", "--"]
        self.sessiond = procs.popen(self.asuser + ["lttng-sessiond", "--no-kernel"],
                                    env=self.env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            r = subprocess.run(self.asuser + ["lttng", "list"], env=self.env,
                               capture_output=True, text=True, timeout=20)
            if r.returncode == 0:
                break
            if self.sessiond.poll() is not None:
                raise AssertionError("lttng-sessiond exited early")
            if time.monotonic() > deadline:
                raise AssertionError("lttng-sessiond did not answer: " + r.stderr)
            time.sleep(0.05)   # polling a real condition (the daemon answers), bounded

    def lttng(self, *args):
        return self.procs.run(self.asuser + ["lttng", *args], env=self.env, timeout=60)

    def build_app(self):
        exe = os.path.join(self.dir, "reader_app")
        subprocess.run(["gcc", "-O1", "-I", os.path.join(HERE, "data"), "-o", exe,
                        os.path.join(HERE, "data", "reader_app.c"), "-llttng-ust", "-ldl"],
                       check=True, timeout=120)
        os.chmod(exe, 0o755)
        return exe

    def run_app(self, exe, *args, env=None):
        e = dict(self.env)
        if env:
            e.update(env)
        return self.procs.run(self.asuser + [exe, *map(str, args)], env=e, timeout=120)

    def outdir(self, name):
        d = os.path.join(self.dir, "traces", name)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        os.chown(os.path.dirname(d), NOBODY, NOBODY)
        return d

    def record(self, session, out, exe, loops, channel_args=(), contexts=("vpid", "procname"),
               app_env=None):
        """One session: create, (channel), events, contexts, start, app, stop, destroy."""
        self.lttng("create", session, "--output=" + out)
        chan = []
        if channel_args:
            self.lttng("enable-channel", "-u", *channel_args, "ch")
            chan = ["-c", "ch"]
        self.lttng("enable-event", "-u", "rdtest:*", *chan)
        if contexts:
            ctx = []
            for c in contexts:
                ctx += ["-t", c]
            self.lttng("add-context", "-u", *chan, *ctx)
        self.lttng("start", session)
        self.run_app(exe, loops, env=app_env)
        self.lttng("stop", session)
        self.lttng("destroy", session)
        return out

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)
