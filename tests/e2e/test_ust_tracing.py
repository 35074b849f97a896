"""Userspace tracing end to end: the instrumented example program
(examples/httpd-sim.c, linked with libltt-ust), real daemons started by
`ltt create`, the trace checked with babeltrace2."""
import os
import signal
import time
import subprocess
from collections import Counter

import pytest

from bt2read import babeltrace_text, read_events
from conftest import build_path

HTTPD = build_path("examples", "httpd-sim")
# generous: registration must complete before the program emits, whatever the load
APP_ENV = {"LTT_UST_REGISTER_TIMEOUT": "10000"}


def expected(requests, threads):
    errors = requests // 10
    return {"httpd:request_start": requests * threads, "httpd:request_end": requests * threads,
            **({"httpd:error": errors * threads} if errors else {})}


def run_app(ltt_env, procs, *args, timeout=120):
    return procs.run([HTTPD, *args], env=dict(ltt_env.env, **APP_ENV), timeout=timeout)


def record(ltt_env, procs, tmp_path, rules, app_args, name="s1"):
    out = tmp_path / name
    ltt_env.ltt("create", name, "--output", str(out))
    for rule in rules:
        ltt_env.ltt("enable-event", "-u", "-s", name, *rule)
    ltt_env.ltt("start", name)
    run_app(ltt_env, procs, *app_args)
    ltt_env.ltt("stop", name)
    return out


def counts(trace):
    evs = read_events(trace)
    assert not [e for e in evs if e["name"] == "!discarded"]
    return Counter(e["name"] for e in evs), evs


def test_app_started_after_start_is_traced_completely(ltt_env, procs, tmp_path):
    out = record(ltt_env, procs, tmp_path, [["httpd:*"]], ["30", "2"])
    c, evs = counts(out)
    assert c == expected(30, 2)
    stdout, stderr = babeltrace_text(out)
    assert stderr == ""
    # every request of every thread, each start with its end, in order per thread
    per_thread = {}
    for e in evs:
        rid = e["fields"]["request_id"]
        per_thread.setdefault(rid >> 32, []).append((e["ns"], e["name"], rid & 0xffffffff))
    assert sorted(per_thread) == [0, 1]
    for seq in per_thread.values():
        assert [t for t, _, _ in seq] == sorted(t for t, _, _ in seq)    # monotonic per thread
        starts = [i for _, n, i in seq if n == "httpd:request_start"]
        assert starts == list(range(30))
    start = next(e for e in evs if e["name"] == "httpd:request_start")
    assert start["fields"]["method"][1] == ("GET",) and start["fields"]["path"] == "/"


def test_view_a_session_by_name(ltt_env, procs, tmp_path):
    out = record(ltt_env, procs, tmp_path, [["httpd:*"]], ["5", "1"])
    by_name = ltt_env.ltt("view", "--no-delta", "s1")
    current = ltt_env.ltt("view", "--no-delta")
    text, err = babeltrace_text(out, "--no-delta")
    assert by_name.stdout == current.stdout == text and by_name.stderr == err == ""
    p = ltt_env.ltt("view", "nosuch", check=False)
    assert p.returncode == 1 and "neither a trace directory nor a session" in p.stderr


def test_app_started_before_start_is_traced(ltt_env, procs, tmp_path):
    out = tmp_path / "s1"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    app = procs.popen([HTTPD, "--wait", "10", "1"], stdin=subprocess.PIPE,
                      stdout=subprocess.PIPE, env=dict(ltt_env.env, **APP_ENV))
    # the app is registered once `ltt list` sees... its registration is synchronous
    # with its constructor: wait until it reads stdin, i.e. its main() runs
    ltt_env.ltt("start")          # returns after every registered app applied the state
    app.communicate(b"go\n", timeout=60)
    assert app.returncode == 0
    ltt_env.ltt("stop")
    assert counts(out)[0] == expected(10, 1)


def test_forked_child_is_traced(ltt_env, procs, tmp_path):
    out = record(ltt_env, procs, tmp_path, [["httpd:request_*"]], ["--fork", "20", "1"])
    c, evs = counts(out)
    assert c == {"httpd:request_start": 40, "httpd:request_end": 40}
    assert {e["fields"]["request_id"] >> 32 for e in evs} == {0, 1}   # parent and child


def test_loglevel_exclusion_and_filter(ltt_env, procs, tmp_path):
    out = record(ltt_env, procs, tmp_path, [
        ["httpd:*", "--loglevel", "TRACE_ERR"],      # error only (ERR)
    ], ["20", "1"], name="lvl")
    assert counts(out)[0] == {"httpd:error": 2}
    out = record(ltt_env, procs, tmp_path, [["httpd:*", "--exclude", "httpd:request_end"]],
                 ["20", "1"], name="excl")
    assert counts(out)[0] == {"httpd:request_start": 20, "httpd:error": 2}
    out = record(ltt_env, procs, tmp_path, [["httpd:request_end", "--filter",
                                             "status == 500 && bytes > 0"]],
                 ["20", "1"], name="filt")
    c, evs = counts(out)
    assert c == {"httpd:request_end": 2}
    assert all(e["fields"]["status"] == 500 for e in evs)
    out = record(ltt_env, procs, tmp_path, [["httpd:request_start", "--filter",
                                             'path == "/api/*"']], ["20", "1"], name="glob")
    c, evs = counts(out)
    assert c == {"httpd:request_start": 8}
    assert all(e["fields"]["path"].startswith("/api/") for e in evs)


def test_filter_keeps_exactly_the_matching_events(ltt_env, procs, tmp_path):
    """An integer comparison and a string glob together, against an unfiltered
    session of the same run; a filter on a field the event lacks keeps nothing."""
    sessions = {"all": None, "filt": '(request_id & 4294967295) > 10 && path == "/api/*"',
                "missing": "no_such_field == 1 || no_such_field != 1"}
    for name, filt in sessions.items():
        ltt_env.ltt("create", name, "--output", str(tmp_path / name))
        ltt_env.ltt("enable-event", "-u", "-s", name, "httpd:request_start",
                    *(["--filter", filt] if filt else []))
        ltt_env.ltt("start", name)
    run_app(ltt_env, procs, "40", "2")
    for name in sessions:
        ltt_env.ltt("stop", name)
    everything = counts(tmp_path / "all")[1]
    assert len(everything) == 80
    want = [(e["fields"]["request_id"], e["fields"]["path"]) for e in everything
            if e["fields"]["request_id"] & 0xffffffff > 10
            and e["fields"]["path"].startswith("/api/")]
    got = [(e["fields"]["request_id"], e["fields"]["path"])
           for e in counts(tmp_path / "filt")[1]]
    assert want and len(want) < len(everything)
    assert sorted(got) == sorted(want)
    assert read_events(tmp_path / "missing") == []


def test_two_sessions_with_different_rules(ltt_env, procs, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    ltt_env.ltt("create", "a", "--output", str(a))
    ltt_env.ltt("enable-event", "-u", "-s", "a", "httpd:request_start")
    ltt_env.ltt("create", "b", "--output", str(b))
    ltt_env.ltt("enable-event", "-u", "-s", "b", "httpd:request_end")
    ltt_env.ltt("start", "a")
    ltt_env.ltt("start", "b")
    run_app(ltt_env, procs, "15", "2")
    ltt_env.ltt("stop", "a")
    ltt_env.ltt("stop", "b")
    assert counts(a)[0] == {"httpd:request_start": 30}
    assert counts(b)[0] == {"httpd:request_end": 30}


def test_no_session_daemon_app_runs_normally(ltt_env, procs):
    p = run_app(ltt_env, procs, "5", "1")
    assert "handled 5 requests" in p.stdout


def wait_registered(ltt_env, pid):
    """Polls `ltt list -u` (bounded) until the daemon knows application pid."""
    for _ in range(2000):
        out = ltt_env.ltt("list", "-u").stdout
        if f"PID: {pid} - Name:" in out:
            return
    raise AssertionError(f"application {pid} never registered:\n{out}")


def test_killing_the_session_daemon_does_not_hurt_the_app(ltt_env, procs, tmp_path):
    ltt_env.ltt("create", "s1", "--output", str(tmp_path / "s1"))
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    ltt_env.ltt("start")
    app = procs.popen([HTTPD, "--wait", "--phases", "2", "100", "2"], stdin=subprocess.PIPE,
                      stdout=subprocess.PIPE, env=dict(ltt_env.env, **APP_ENV))
    app.stdin.write(b"go\n")
    app.stdin.flush()
    ltt_env.kill_sessiond(signal.SIGKILL)       # while the app traces
    # a new daemon: the running app registers with it and is traced again
    ltt_env.ltt("create", "s2", "--output", str(tmp_path / "s2"))
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    ltt_env.ltt("start")
    wait_registered(ltt_env, app.pid)
    out, _ = app.communicate(b"phase 2\n", timeout=120)
    assert app.returncode == 0 and b"handled 200 requests" in out
    ltt_env.ltt("stop")
    c, evs = counts(tmp_path / "s2")
    assert c == expected(100, 2)
    assert {e["fields"]["request_id"] & 0xffffffff for e in evs} == set(range(100, 200))


def test_provider_loaded_with_dlopen(ltt_env, procs, tmp_path):
    probes = build_path("examples", "libhttpd-tp-probes.so")
    out = tmp_path / "s1"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    ltt_env.ltt("start")
    # without the probes the call sites have nothing to call: nothing recorded
    procs.run([build_path("examples", "httpd-sim-dyn"), "5", "1"],
              env=dict(ltt_env.env, **APP_ENV))
    procs.run([build_path("examples", "httpd-sim-dyn"), "--dlopen", probes, "10", "2"],
              env=dict(ltt_env.env, **APP_ENV))
    ltt_env.ltt("stop")
    assert counts(out)[0] == expected(10, 2)


def test_killing_the_consumer_does_not_hurt_the_app(ltt_env, procs, tmp_path):
    ltt_env.ltt("create", "s1", "--output", str(tmp_path / "s1"))
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    ltt_env.ltt("start")
    sessiond = ltt_env.sessiond_pid()
    children = [int(p) for p in os.listdir("/proc") if p.isdigit()
                and _ppid(int(p)) == sessiond]
    assert len(children) == 1, children      # the consumer
    app = procs.popen([HTTPD, "--wait", "200", "2"], stdin=subprocess.PIPE,
                      stdout=subprocess.PIPE, env=dict(ltt_env.env, **APP_ENV))
    app.stdin.write(b"go\n")
    app.stdin.flush()
    os.kill(children[0], signal.SIGKILL)
    out, _ = app.communicate(timeout=120)
    assert app.returncode == 0 and b"handled 200 requests" in out
    # the daemon notices at the next request and says so
    p = ltt_env.ltt("stop", check=False)
    assert p.returncode == 1 and "consumer daemon" in p.stderr


def _ppid(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def test_list_shows_the_tracepoints_of_running_apps(ltt_env, procs):
    ltt_env.ltt("create", "s1")
    assert "None" in ltt_env.ltt("list", "-u").stdout
    app = procs.popen([HTTPD, "--wait", "1", "1"], stdin=subprocess.PIPE,
                      stdout=subprocess.PIPE, env=dict(ltt_env.env, **APP_ENV))
    wait_registered(ltt_env, app.pid)
    out = ltt_env.ltt("list", "-u").stdout
    assert f"PID: {app.pid} - Name: httpd-sim" in out
    assert "httpd:request_start (loglevel: TRACE_INFO (6)) (type: tracepoint)" in out
    assert "httpd:error (loglevel: TRACE_ERR (3)) (type: tracepoint)" in out
    app.communicate(b"go\n", timeout=60)


def test_per_pid_buffers(ltt_env, procs, tmp_path):
    out = tmp_path / "s1"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("enable-channel", "-u", "--buffers-pid", "chp")
    ltt_env.ltt("enable-event", "-u", "-c", "chp", "httpd:request_*")
    ltt_env.ltt("enable-event", "-u", "httpd:error")         # channel0: per-UID
    ltt_env.ltt("start")
    early = procs.popen([HTTPD, "--wait", "10", "1"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, env=dict(ltt_env.env, **APP_ENV))
    wait_registered(ltt_env, early.pid)
    run_app(ltt_env, procs, "20", "2")
    early.communicate(b"go\n", timeout=60)
    ltt_env.ltt("stop")
    pid_dirs = sorted(os.listdir(out / "ust" / "pid"))
    assert len(pid_dirs) == 2 and all(d.startswith("httpd-sim-") for d in pid_dirs)
    per_app = {}
    for d in pid_dirs:
        meta = (out / "ust" / "pid" / d / "metadata").read_text()
        assert 'tracer_buffering_scheme = "pid";' in meta
        pid = int(d.split("-")[2])
        assert f"vpid = {pid};" in meta and f"tracer_buffering_id = {pid};" in meta
        per_app[pid] = counts(out / "ust" / "pid" / d)[0]
    assert per_app[early.pid] == {"httpd:request_start": 10, "httpd:request_end": 10}
    assert sorted(per_app.values(), key=len) == [
        {"httpd:request_start": 10, "httpd:request_end": 10},
        {"httpd:request_start": 40, "httpd:request_end": 40}]
    assert counts(out / "ust" / "uid")[0] == {"httpd:error": 5}   # 4 + 1, shared buffers
    _, err = babeltrace_text(out)
    assert err == ""


def _holds(pid, needle):
    """Whether process pid has a descriptor or a mapping whose target contains needle."""
    fd_dir = f"/proc/{pid}/fd"
    links = []
    for fd in os.listdir(fd_dir):
        try:
            links.append(os.readlink(f"{fd_dir}/{fd}"))
        except FileNotFoundError:
            pass
    with open(f"/proc/{pid}/maps") as f:
        maps = f.read()
    return any(needle in link for link in links) or needle in maps


def test_per_pid_buffers_are_written_out_and_released_when_the_app_exits(ltt_env, procs,
                                                                          tmp_path):
    out = tmp_path / "s1"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("enable-channel", "-u", "--buffers-pid", "chp")
    ltt_env.ltt("enable-event", "-u", "-c", "chp", "httpd:request_*")
    ltt_env.ltt("enable-event", "-u", "httpd:error")         # channel0: per-UID, stays
    ltt_env.ltt("start")
    sessiond = ltt_env.sessiond_pid()
    (consumer,) = [int(p) for p in os.listdir("/proc") if p.isdigit() and _ppid(int(p)) == sessiond]
    run_app(ltt_env, procs, "30", "2")
    (pid_dir,) = os.listdir(out / "ust" / "pid")
    trace_dir = str(out / "ust" / "pid" / pid_dir)
    # the daemons notice the exit: the channel's memory and files are released
    deadline = time.monotonic() + 30
    while any(_holds(p, "memfd:ltt-chp") or _holds(p, trace_dir) for p in (sessiond, consumer)):
        assert time.monotonic() < deadline, "the exited application's buffers are still held"
        time.sleep(0.01)
    assert _holds(consumer, "memfd:ltt-channel0")    # the session's own buffers are not
    # the session still records; the application's trace is complete already
    assert counts(trace_dir)[0] == {"httpd:request_start": 60, "httpd:request_end": 60}
    _, err = babeltrace_text(trace_dir)
    assert err == ""
    index = os.listdir(os.path.join(trace_dir, "index"))
    assert sorted(index) == sorted(f + ".idx" for f in os.listdir(trace_dir)
                                   if f.startswith("chp_"))
    ltt_env.ltt("stop")
    assert counts(out / "ust" / "uid")[0] == {"httpd:error": 6}
