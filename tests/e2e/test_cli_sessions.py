"""The control plane end to end: the ltt command, libltt-ctl and a real
ltt-sessiond started by `ltt create`, in a private LTT_HOME."""
import os
import re
import socket
import struct

import pytest

COMMANDS = ["create", "destroy", "enable-channel", "enable-event", "disable-event",
            "add-context", "track", "untrack",
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
    (["enable-channel", "-u", "-s", "s1", "--overwrite", "--blocking-timeout", "100", "c"],
     "a blocking timeout applies to user-space channels in discard mode"),
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


def no_pmu():
    return not os.path.exists("/sys/bus/event_source/devices/cpu")


@pytest.mark.parametrize("setup, args, message", [
    ([], ["add-context", "-u", "-t", "vpid", "-t", "bogus"],
     "unknown context type 'bogus'"),
    ([], ["add-context", "-u", "-t", "vpid,prio"],
     "Unknown context type ('prio' is recorded in the kernel domain only)"),
    ([], ["add-context", "-u", "-t", "vtid", "-t", "vtid"],
     "Context already added ('vtid' is given twice)"),
    ([["add-context", "-u", "-t", "vpid"]], ["add-context", "-u", "-t", "procname,vpid"],
     "Context already added (channel 'channel0' records 'vpid' already)"),
    ([["enable-event", "-u", "app:*"], ["start"]], ["add-context", "-u", "-t", "vpid"],
     "The session has been started already"),
    ([["enable-event", "-u", "app:*"], ["start"], ["stop"]],
     ["add-context", "-u", "-t", "vpid"], "The session has been started already"),
    ([], ["add-context", "-u", "-c", "nochan", "-t", "vpid"], "Channel not found"),
    ([], ["add-context", "-k", "-t", "vtid"], "kernel context 'vtid' is not recorded by ltt"
     if os.geteuid() == 0 else "kernel tracing needs root"),
    pytest.param([], ["add-context", "-u", "-t", "perf:thread:cpu-cycles"],
                 "perf:thread:cpu-cycles: no hardware performance counter on this machine",
                 marks=pytest.mark.skipif(not no_pmu(), reason="this machine has a PMU")),
    ([["track", "-u", "--vpid=12"]], ["track", "-u", "--vpid=13,12"],
     "Already in the inclusion set (already tracked: 12)"),
    ([], ["track", "-u", "--vpid=5,5"], "Already in the inclusion set (given twice: 5)"),
    ([["track", "-u", "--vpid=12"]], ["untrack", "-u", "--vpid=12,14"],
     "Not in the inclusion set (not tracked: 14)"),
    ([], ["untrack", "-u", "--vpid=14"], "Not in the inclusion set (the set includes every"),
    ([], ["track", "-u", "--uid=0"], "the user space domain tracks --vpid, --vuid and --vgid"),
    ([], ["untrack", "-k", "--all", "--gid"], "the kernel domain tracks --pid only"
     if os.geteuid() == 0 else "kernel tracing needs root"),
    ([], ["track", "-u", "--vuid=no-such-user"], "'no-such-user' is not a valid virtual user ID"),
    ([], ["enable-channel", "-k", "--blocking-timeout", "10", "c"],
     "a blocking timeout applies to user-space channels in discard mode"
     if os.geteuid() == 0 else "kernel tracing needs root"),
])
def test_rejections_leave_the_session_unchanged(ltt_env, setup, args, message):
    ltt_env.ltt("create", "s1")
    for cmd in setup:
        ltt_env.ltt(*cmd)
    before = ltt_env.ltt("list", "s1").stdout
    p = ltt_env.ltt(*args, check=False)
    assert p.returncode == 1
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], p.stderr
    assert ltt_env.ltt("list", "s1").stdout == before


@pytest.mark.parametrize("args", [
    ["add-context", "-u"],                      # no type
    ["add-context", "-t", "vpid"],              # no domain
    ["add-context", "--list", "-t", "vpid"],
    ["track", "-u"],                            # no attribute
    ["track", "-u", "--all", "--vpid=3"],       # --all with values
    ["untrack", "-u", "--vpid"],                # no values, no --all
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


def test_contexts_and_trackers_listing(ltt_env):
    ltt_env.ltt("create", "s1")
    ltt_env.ltt("enable-channel", "-u", "chA,chB")
    p = ltt_env.ltt("add-context", "-u", "-c", "chA", "-t", "vpid,perf:thread:task-clock")
    assert p.stdout == ("ust context vpid added to channel chA\n"
                        "ust context perf:thread:task-clock added to channel chA\n")
    p = ltt_env.ltt("add-context", "-u", "-t", "procname")     # every channel of the domain
    assert p.stdout == "ust context procname added to all channels\n"
    p = ltt_env.ltt("track", "-u", "--vpid=7,3", "--vgid", "100")
    assert p.stdout == ("Added 7 to the virtual process ID tracker inclusion set\n"
                        "Added 3 to the virtual process ID tracker inclusion set\n"
                        "Added 100 to the virtual group ID tracker inclusion set\n")
    out = ltt_env.ltt("list", "s1").stdout
    assert ("=== Domain: User space ===\n\n"
            "Tracked process attributes\n"
            "  Virtual process IDs:  3, 7\n"
            "  Virtual user IDs:     all\n"
            "  Virtual group IDs:    100\n\n"
            "Channels:\n-------------\n- chA: [enabled]\n") in out
    cha, chb = out[out.index("- chA:"):out.index("- chB:")], out[out.index("- chB:"):]
    assert "    Context fields:\n      vpid\n      perf:thread:task-clock\n      procname\n" in cha
    assert "    Context fields:\n      procname\n\n    Recording event rules:" in chb
    p = ltt_env.ltt("untrack", "-u", "--all", "--vpid")
    assert p.stdout == "Virtual process ID tracking policy set to `exclude all`\n"
    assert "  Virtual process IDs:  none\n" in ltt_env.ltt("list", "s1").stdout
    ltt_env.ltt("track", "-u", "--all", "--vpid", "--vgid")
    assert "  Virtual process IDs:  all\n" in ltt_env.ltt("list", "s1").stdout


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
