"""Bounded disk use: `enable-channel --tracefile-size --tracefile-count`
splits each stream into CHANNEL_CPU_K files of at most SIZE bytes, keeping
the newest N (and their index files), as LTTng does."""
import os
import re
import subprocess

from bt2read import babeltrace_text, read_events
from conftest import build_path

HTTPD = build_path("examples", "httpd-sim")
APP_ENV = {"LTT_UST_REGISTER_TIMEOUT": "10000"}


def uid_dir(out):
    return out / "ust" / "uid" / str(os.geteuid()) / "64-bit"


def test_tracefile_size_and_count_keep_the_newest(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    ltt_env.ltt("create", "tf", "--output", str(out))
    # buffers that hold several phases: whatever the machine's load, nothing is discarded
    ltt_env.ltt("enable-channel", "-u", "--subbuf-size", "4k", "--num-subbuf", "64",
                "--tracefile-size", "8k", "--tracefile-count", "3", "ch")
    listing = ltt_env.ltt("list", "tf").stdout
    assert "Trace file count: 3 per stream\n" in listing
    assert "Trace file size:  8192 bytes\n" in listing
    ltt_env.ltt("enable-event", "-u", "-c", "ch", "httpd:request_*")
    ltt_env.ltt("start")
    # phases of 100 requests on CPU 0 (about 8 KB each): many more packets than
    # three 8 KiB files hold
    app = procs.popen(["taskset", "-c", "0", HTTPD, "--wait", "--phases", "20", "100", "1"],
                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                      env=dict(ltt_env.env, **APP_ENV), text=True)
    for phase in range(1, 21):
        app.stdin.write("go\n")
        app.stdin.flush()
        assert app.stdout.readline() == f"httpd-sim: phase {phase} done\n"
    app.stdin.close()
    assert app.wait(timeout=60) == 0
    ltt_env.ltt("stop")
    files = os.listdir(uid_dir(out))
    cpu0 = sorted(f for f in files if re.fullmatch(r"ch_0_\d+", f))
    assert cpu0 == ["ch_0_0", "ch_0_1", "ch_0_2"]      # the count reached, files reused
    assert not [f for f in files if re.fullmatch(r"ch_\d+", f)]   # always numbered
    for f in files:
        if re.fullmatch(r"ch_\d+_\d+", f):
            assert os.path.getsize(uid_dir(out) / f) <= 8192
            assert (uid_dir(out) / "index" / (f + ".idx")).is_file()
    assert sorted(os.listdir(uid_dir(out) / "index")) == \
        sorted(f + ".idx" for f in files if re.fullmatch(r"ch_\d+_\d+", f))
    _, err = babeltrace_text(out)
    assert err == ""
    ids = [e["fields"]["request_id"] for e in read_events(out)
           if e["name"] == "httpd:request_start"]
    # the newest requests, contiguous up to the last one; the older files are gone
    assert ids == list(range(ids[0], 2000)) and ids[0] > 0


def test_tracefile_size_alone_splits_without_removing(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    ltt_env.ltt("create", "tf", "--output", str(out))
    p = ltt_env.ltt("enable-channel", "-u", "--subbuf-size", "8k", "--num-subbuf", "64", "-C",
                    "4k", "ch")
    assert p.stderr == "Warning: trace file size rounded up from 4096 to the sub-buffer " \
                       "size (8192)\n"
    ltt_env.ltt("enable-event", "-u", "-c", "ch", "httpd:request_*")
    ltt_env.ltt("start")
    procs.run(["taskset", "-c", "0", HTTPD, "600", "1"], env=dict(ltt_env.env, **APP_ENV))
    ltt_env.ltt("stop")
    cpu0 = [f for f in os.listdir(uid_dir(out)) if f.startswith("ch_0_")]
    assert len(cpu0) > 3 and all(os.path.getsize(uid_dir(out) / f) <= 8192 for f in cpu0)
    ids = [e["fields"]["request_id"] for e in read_events(out)
           if e["name"] == "httpd:request_start"]
    assert sorted(ids) == list(range(600))


def test_tracefile_rejections(ltt_env):
    ltt_env.ltt("create", "tf")
    before = ltt_env.ltt("list", "tf").stdout
    for args, status, text in (
            (["-W", "3"], 2, "a trace file count needs a trace file size"),
            (["-C", "lots"], 2, "invalid trace file size"),
            (["-C", "1M", "-W", "x"], 2, "invalid trace file count")):
        p = ltt_env.ltt("enable-channel", "-u", *args, "ch", check=False)
        assert (p.returncode, p.stderr.count("\n")) == (status, 1) and text in p.stderr
    assert ltt_env.ltt("list", "tf").stdout == before
