"""Flight recorder: `ltt create --snapshot`, overwrite channels, and
`ltt snapshot record` writing what the buffers hold while the app runs."""
import os
import re
from collections import defaultdict

from bt2read import babeltrace_text, read_events
from conftest import build_path

HTTPD = build_path("examples", "httpd-sim")
APP_ENV = {"LTT_UST_REGISTER_TIMEOUT": "10000"}


def snapshot(ltt_env, *args):
    out = ltt_env.ltt("snapshot", "record", *args).stdout
    return re.search(r"Written in (\S+)", out).group(1)


def test_snapshot_keeps_the_newest_events(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    ltt_env.ltt("create", "fr", "--snapshot", "--output", str(out))
    ltt_env.ltt("enable-channel", "-u", "--subbuf-size", "4k", "--num-subbuf", "4", "ch")
    ltt_env.ltt("enable-event", "-u", "-c", "ch", "httpd:request_*")
    ltt_env.ltt("start")
    # ~10x what 4 sub-buffers of 4 KiB hold (2 events of ~40 bytes per request), one
    # thread on one CPU: its buffer then keeps the newest events, with no writer
    # inside a sub-buffer that another one must overwrite (no discards)
    procs.run(["taskset", "-c", "0", HTTPD, "2000", "1"], env=dict(ltt_env.env, **APP_ENV),
              timeout=120)
    first = snapshot(ltt_env)
    second = snapshot(ltt_env, "--name", "again")
    assert first != second and os.path.isdir(first) and os.path.isdir(second)
    assert os.path.basename(second).startswith("again-")
    for snap in (first, second):
        text, err = babeltrace_text(snap)
        assert err == ""
        evs = [e for e in read_events(snap) if e["name"] != "!discarded"]
        per_thread = defaultdict(list)
        for e in evs:
            rid = e["fields"]["request_id"]
            per_thread[rid >> 32].append((e["name"], rid & 0xffffffff))
        assert {e["cpu_id"] for e in evs} == {0}
        assert 0 < len(evs) <= 4 * 4096 // 20
        for seq in per_thread.values():
            ids = [i for n, i in seq if n == "httpd:request_start"]
            # the newest requests, contiguous up to the last one
            assert ids == list(range(ids[0], 2000)), ids[:5]
    assert (out / os.path.basename(first) / "ust" / "uid").is_dir()
    assert not (out / "ust").exists()      # nothing is written between snapshots


def test_default_channel_of_a_snapshot_session_overwrites(ltt_env):
    ltt_env.ltt("create", "fr", "--snapshot")
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    assert "Event-loss mode:  overwrite" in ltt_env.ltt("list", "fr").stdout


def test_snapshot_errors(ltt_env):
    ltt_env.ltt("create", "plain")
    p = ltt_env.ltt("snapshot", "record", "plain", check=False)
    assert p.returncode == 1
    assert p.stderr.strip() == ("Error: cannot record a snapshot of session 'plain': "
                                "The session is not in snapshot mode")
    ltt_env.ltt("create", "fr", "--snapshot")
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    p = ltt_env.ltt("snapshot", "record", check=False)
    assert p.returncode == 1 and "start the session first" in p.stderr
    p = ltt_env.ltt("create", "bad", "--snapshot", "--no-output", check=False)
    assert p.returncode == 1 and "writes its snapshots to its output" in p.stderr
    p = ltt_env.ltt("snapshot", "take", check=False)
    assert p.returncode == 2
