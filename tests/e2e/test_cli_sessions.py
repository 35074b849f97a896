"""The control plane end to end: the ltt command, libltt-ctl and a real
ltt-sessiond started by `ltt create`, in a private LTT_HOME."""
import os
import re
import socket
import struct

import pytest

COMMANDS = ["create", "destroy", "enable-channel", "enable-event", "disable-event",
            "start", "stop", "list", "status", "snapshot", "view", "analyze", "version",
            "help"]


def test_create_spawns_daemon_and_lists_session(ltt_env):
    p = ltt_env.ltt("create", "s1")
    assert "Session s1 created." in p.stdout
    m = re.search(r"Traces will be written in (\S+)", p.stdout)
    assert m and re.fullmatch(re.escape(str(ltt_env.home)) + r"/ltt-traces/s1-\d{8}-\d{6}",
                              m.group(1))
    assert ltt_env.sessiond_pid() is not None
    out = ltt_env.ltt("list").stdout
    assert re.search(r"1\) s1 \(\S+\) \[inactive\]", out)


def test_auto_named_session_and_current_session(ltt_env):
    p = ltt_env.ltt("create")
    name = re.search(r"Session (auto-\d{8}-\d{6}) created", p.stdout).group(1)
    assert f"ltt-traces/{name}\n" in p.stdout
    # commands without a name act on the current session
    ltt_env.ltt("enable-event", "-u", "app:*")
    assert f"Tracing session {name}: [inactive]" in ltt_env.ltt("status").stdout
    ltt_env.ltt("destroy")
    p = ltt_env.ltt("status", check=False)
    assert p.returncode == 1 and "no current session" in p.stderr


def test_output_options(ltt_env, tmp_path):
    ltt_env.ltt("create", "a", "--output", str(tmp_path / "out"))
    ltt_env.ltt("create", "b", "--no-output")
    out = ltt_env.ltt("list").stdout
    assert f"a ({tmp_path / 'out'})" in out
    assert "b (no output)" in out
    ltt_env.ltt("start", "a")
    assert (tmp_path / "out").is_dir()   # the output exists once tracing starts


@pytest.mark.parametrize("args, message", [
    (["create", "s1"], "cannot create session 's1': Session already exists"),
    (["create", "bad/name"], "Invalid name"),
    (["destroy", "nope"], "cannot destroy session 'nope': Session not found"),
    (["start", "nope"], "Session not found"),
    (["enable-event", "-u", "-s", "s1", "bad name"], "Invalid event name or pattern"),
    (["enable-event", "-u", "-s", "s1", "app:x", "-x", "app:y"],
     "exclusions apply to a pattern with '*'"),
    (["enable-event", "-u", "-s", "s1", "-c", "nochan", "app:x"], "Channel not found"),
    (["enable-channel", "-u", "-s", "s1", "--subbuf-size", "3000", "c"],
     "power of two from 4 KiB to 64 MiB"),
    (["enable-channel", "-u", "-s", "s1", "--num-subbuf", "1", "c"], "power of two from 2"),
    (["enable-channel", "-u", "-s", "s1", "--blocking-timeout", "100", "c"],
     "blocking channels are not available yet"),
    (["enable-event", "-u", "-s", "s1", "app:x", "--filter", "a > && b"],
     "Invalid filter expression (filter, column 5: expected an operand)"),
    (["enable-event", "-u", "-s", "s1", "app:x", "--filter", "size + 1 > 2"],
     "column 6: arithmetic ('+') is not allowed in filters"),
])
def test_errors_are_one_clear_line(ltt_env, args, message):
    ltt_env.ltt("create", "s1")
    before = ltt_env.ltt("list", "s1").stdout
    p = ltt_env.ltt(*args, check=False)
    assert p.returncode == 1
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], p.stderr
    assert ltt_env.ltt("list", "s1").stdout == before   # nothing changed


@pytest.mark.parametrize("args", [
    ["enable-event", "app:x"],                  # no domain
    ["enable-event", "-u", "-k", "app:x"],      # two domains
    ["enable-event", "-u", "--all", "app:x"],   # both --all and names
    ["enable-event", "-u", "--loglevel", "LOUD", "app:x"],
    ["enable-channel", "-u", "--switch-timer", "soon", "c"],
    ["create", "a", "b"],
    ["bogus-command"],
])
def test_usage_errors_exit_2(ltt_env, args):
    ltt_env.ltt("create", "s1")
    p = ltt_env.ltt(*args, check=False)
    assert p.returncode == 2 and p.stderr


def test_channels_rules_and_listing(ltt_env):
    ltt_env.ltt("create", "s1")
    ltt_env.ltt("enable-channel", "-u", "--overwrite", "--subbuf-size", "64k",
                "--num-subbuf", "8", "--switch-timer", "100ms", "--buffers-uid", "chA,chB")
    ltt_env.ltt("enable-event", "-u", "-c", "chA", "app:*", "--exclude", "app:noisy,app:x*")
    ltt_env.ltt("enable-event", "-u", "--loglevel", "TRACE_WARNING", "req:start")
    ltt_env.ltt("enable-event", "-u", "--loglevel-only", "info", "req:end")
    ltt_env.ltt("enable-event", "-u", "req:*", "--filter", 'a > 10 && s == "req*"')
    out = ltt_env.ltt("list", "s1").stdout
    cha = out[out.index("- chA:"):out.index("- chB:")]
    assert "Event-loss mode:  overwrite" in cha
    assert "Sub-buffer size:  65536 bytes" in cha
    assert "Sub-buffer count: 8" in cha
    assert "Switch timer:     100000 us" in cha
    assert "Buffering:        per-user" in cha
    assert "app:* (excluding app:noisy, app:x*) (type: tracepoint) [enabled]" in cha
    ch0 = out[out.index("- channel0:"):]
    assert "Sub-buffer size:  524288 bytes" in ch0    # the default channel's defaults
    assert "req:start (loglevel: TRACE_WARNING or more severe)" in ch0
    assert "req:end (loglevel: TRACE_INFO only)" in ch0
    assert 'req:* (filter: a > 10 && s == "req*") (type: tracepoint) [enabled]' in ch0
    # the same rule twice is refused; disabled then enabled again is fine
    p = ltt_env.ltt("enable-event", "-u", "--loglevel", "TRACE_WARNING", "req:start", check=False)
    assert p.returncode == 1 and "already enabled" in p.stderr
    ltt_env.ltt("disable-event", "-u", "req:start")
    assert "req:start (loglevel: TRACE_WARNING or more severe) (type: tracepoint) [disabled]" \
        in ltt_env.ltt("list", "s1").stdout
    ltt_env.ltt("enable-event", "-u", "--loglevel", "TRACE_WARNING", "req:start")
    ltt_env.ltt("disable-event", "-u", "-c", "chA", "--all-events")
    assert "[disabled]" in ltt_env.ltt("list", "s1").stdout.split("- chB:")[0]
    p = ltt_env.ltt("disable-event", "-u", "never:enabled", check=False)
    assert p.returncode == 1 and "Event rule not found" in p.stderr


def test_start_stop_and_channel_after_start(ltt_env):
    ltt_env.ltt("create", "s1")
    ltt_env.ltt("enable-event", "-u", "--all")
    assert "Tracing started for session s1" in ltt_env.ltt("start").stdout
    assert "[active]" in ltt_env.ltt("list").stdout
    p = ltt_env.ltt("start", check=False)
    assert p.returncode == 1 and "already started" in p.stderr
    p = ltt_env.ltt("enable-channel", "-u", "late", check=False)
    assert p.returncode == 1 and "before the session starts" in p.stderr
    ltt_env.ltt("enable-event", "-u", "late:event")     # rules may come any time
    assert "Tracing stopped for session s1" in ltt_env.ltt("stop").stdout
    p = ltt_env.ltt("stop", check=False)
    assert p.returncode == 1 and "already stopped" in p.stderr


def test_destroy_all(ltt_env):
    for name in ("a", "b", "c"):
        ltt_env.ltt("create", name)
    out = ltt_env.ltt("destroy", "--all").stdout
    assert out.count("destroyed") == 3
    assert "Currently no available tracing session" in ltt_env.ltt("list").stdout


def test_no_daemon_is_a_clear_error(ltt_env):
    p = ltt_env.ltt("list", check=False)
    assert p.returncode == 1
    assert p.stderr.strip() == \
        "Error: cannot reach the session daemon: No session daemon is running"


def test_daemon_survives_malformed_clients(ltt_env):
    ltt_env.ltt("create", "s1")
    path = str(ltt_env.runtime / "sessiond.sock")
    # garbage, a header announcing more than it sends, a bad payload
    bad_payload = struct.pack("<HHI", 1, 3, 4) + b"ab\0c" + b"\0" * 4
    for data in (b"\xff" * 64,
                 struct.pack("<IHHII", 0x7054544c, 1, 2, 64, 1),
                 struct.pack("<IHHII", 0x7054544c, 1, 2, len(bad_payload), 1) + bad_payload):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(path)
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
            s.settimeout(10)
            try:
                assert s.recv(1024) == b""     # dropped rather than served
            except ConnectionResetError:
                pass
    assert "s1" in ltt_env.ltt("list").stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(ltt_env, command):
    p = ltt_env.ltt(command, "--help")
    assert p.stdout.startswith("Usage: ltt"), p.stdout
    assert ltt_env.ltt("help", command).stdout == p.stdout


def test_version(ltt_env):
    assert re.fullmatch(r"ltt \d+\.\d+\.\d+\n", ltt_env.ltt("--version").stdout)
    assert ltt_env.ltt("version").stdout == ltt_env.ltt("--version").stdout
