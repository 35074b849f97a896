"""Trackers end to end (`ltt track`, `ltt untrack`): which processes a
session records, decided per application by the session daemon, also while
the session records; the trace read by babeltrace2."""
import os
import subprocess
from collections import Counter

from bt2read import read_events
from conftest import build_path

APP = build_path("tests", "unit", "ust", "ust-ctx-app")
APP_ENV = {"LTT_UST_REGISTER_TIMEOUT": "10000"}


class App:
    """ust-ctx-app with --phases: each phase runs when told, and is waited for."""

    def __init__(self, ltt_env, procs, phases, threads=2, events=10):
        self.p = procs.popen([APP, "--phases", str(phases), str(threads), str(events)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env=dict(ltt_env.env, **APP_ENV))
        self.pid = int(self.p.stdout.readline().split()[1])   # registered by now

    def phase(self, k):
        """Runs phase k and returns when its events are emitted."""
        self.p.stdin.write("go\n")
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            assert line, f"application {self.pid} ended before phase {k}"
            if line.startswith(f"phase {k} done"):
                return

    def end(self):
        self.p.stdin.close()
        self.p.wait(timeout=60)
        assert self.p.returncode == 0


def events_by(out):
    evs = read_events(out)
    assert not [e for e in evs if e["name"] == "!discarded"]
    return Counter((e["context"]["vpid"], e["fields"]["phase"]) for e in evs)


def session(ltt_env, tmp_path, *channel_opts):
    out = tmp_path / "trace"
    ltt_env.ltt("create", "s1", "--output", str(out))
    if channel_opts:
        ltt_env.ltt("enable-channel", "-u", *channel_opts, "channel0")
    ltt_env.ltt("add-context", "-u", "-t", "vpid")
    ltt_env.ltt("enable-event", "-u", "ctxtest:*")
    return out


def test_tracking_one_pid_of_two_keeps_only_its_events(ltt_env, procs, tmp_path):
    out = session(ltt_env, tmp_path)
    a, b = App(ltt_env, procs, 1), App(ltt_env, procs, 1)
    ltt_env.ltt("track", "-u", f"--vpid={a.pid}")
    listing = ltt_env.ltt("list", "s1").stdout
    assert f"  Virtual process IDs:  {a.pid}\n" in listing
    assert "  Virtual user IDs:     all\n" in listing
    ltt_env.ltt("start")
    a.phase(1)
    b.phase(1)
    ltt_env.ltt("stop")
    a.end()
    b.end()
    assert events_by(out) == {(a.pid, 1): 20}


def test_untrack_and_track_while_recording(ltt_env, procs, tmp_path):
    out = session(ltt_env, tmp_path)
    app = App(ltt_env, procs, 4)
    ltt_env.ltt("track", "-u", "--vpid", str(app.pid))
    ltt_env.ltt("start")
    app.phase(1)
    ltt_env.ltt("untrack", "-u", f"--vpid={app.pid}")   # returns once the app applied it
    assert "  Virtual process IDs:  none\n" in ltt_env.ltt("list", "s1").stdout
    app.phase(2)
    ltt_env.ltt("track", "-u", f"--vpid={app.pid}")
    app.phase(3)
    ltt_env.ltt("untrack", "-u", "--all", "--vpid")
    app.phase(4)
    ltt_env.ltt("stop")
    app.end()
    assert events_by(out) == {(app.pid, 1): 20, (app.pid, 3): 20}


def test_per_pid_buffers_of_an_application_tracked_later(ltt_env, procs, tmp_path):
    """An untracked application gets no per-PID buffers; tracked, it does."""
    out = session(ltt_env, tmp_path, "--buffers-pid")
    ltt_env.ltt("untrack", "-u", "--all", "--vpid")
    ltt_env.ltt("start")
    app = App(ltt_env, procs, 2)
    app.phase(1)
    assert not (out / "ust" / "pid").exists()
    ltt_env.ltt("track", "-u", f"--vpid={app.pid}")
    app.phase(2)
    ltt_env.ltt("stop")
    app.end()
    (pid_dir,) = os.listdir(out / "ust" / "pid")
    assert pid_dir.startswith(f"ust-ctx-app-{app.pid}-")
    assert events_by(out / "ust" / "pid" / pid_dir) == {(app.pid, 2): 20}


def test_user_and_group_trackers(ltt_env, procs, tmp_path):
    out = session(ltt_env, tmp_path)
    uid, gid = os.getuid(), os.getgid()
    app = App(ltt_env, procs, 3)
    ltt_env.ltt("track", "-u", f"--vuid={uid + 1},{uid + 2}")      # not this user
    ltt_env.ltt("start")
    app.phase(1)
    ltt_env.ltt("track", "-u", "--all", "--vuid")
    ltt_env.ltt("track", "-u", f"--vgid={gid}")
    app.phase(2)
    ltt_env.ltt("untrack", "-u", f"--vgid={gid}")
    app.phase(3)
    ltt_env.ltt("stop")
    app.end()
    assert events_by(out) == {(app.pid, 2): 20}
    p = ltt_env.ltt("track", "-u", "--vuid=root,nobody")          # names
    assert "Added root to the virtual user ID tracker inclusion set" in p.stdout
    assert "  Virtual user IDs:     0, 65534\n" in ltt_env.ltt("list", "s1").stdout
