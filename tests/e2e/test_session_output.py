"""A session's output: `ltt start` creates the user-space buffers and the
consumer daemon, `ltt stop` writes what they hold, as LTTng lays traces out
(OUTPUT/ust/uid/UID/64-bit/{metadata, CHANNEL_CPU, index/})."""
import os

from bt2read import babeltrace_text


def uid_dir(out):
    return out / "ust" / "uid" / str(os.geteuid()) / "64-bit"


def test_start_stop_writes_a_readable_trace(ltt_env, tmp_path):
    out = tmp_path / "out"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("enable-channel", "-u", "--subbuf-size", "16k", "chA")
    ltt_env.ltt("enable-event", "-u", "-c", "chA", "app:*")
    ltt_env.ltt("enable-event", "-u", "other:*")          # channel0
    ltt_env.ltt("start")
    ltt_env.ltt("stop")
    d = uid_dir(out)
    ncpu = os.sysconf("SC_NPROCESSORS_CONF")
    names = sorted(os.listdir(d))
    expected = sorted(["metadata", "index"] + [f"{c}_{i}" for c in ("chA", "channel0")
                                               for i in range(ncpu)])
    assert names == expected
    assert sorted(os.listdir(d / "index")) == sorted(f"{c}_{i}.idx" for c in ("chA", "channel0")
                                                      for i in range(ncpu))
    meta = (d / "metadata").read_text()
    assert meta.startswith("/* CTF 1.8 */")
    assert 'domain = "ust";' in meta and 'tracer_name = "lttng-ust";' in meta
    assert 'trace_name = "s1";' in meta
    # every stream holds whole packets of the channel's sub-buffer size at most
    for i in range(ncpu):
        size = os.path.getsize(d / f"chA_{i}")
        assert size > 0 and size % 4096 == 0 and size <= 16384 * 4
    out_text, err = babeltrace_text(out)
    assert err == "" and out_text == ""    # no application registered: no events


def test_restart_appends_and_destroy_keeps_the_files(ltt_env, tmp_path):
    out = tmp_path / "out"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("enable-event", "-u", "--all")
    for _ in range(2):
        ltt_env.ltt("start")
        ltt_env.ltt("stop")
    sizes = {n: os.path.getsize(uid_dir(out) / n) for n in os.listdir(uid_dir(out))
             if n.startswith("channel0_")}
    ltt_env.ltt("destroy")
    assert {n: os.path.getsize(uid_dir(out) / n) for n in sizes} == sizes
    _, err = babeltrace_text(out)
    assert err == ""


def test_no_output_session_writes_nothing(ltt_env, tmp_path):
    ltt_env.ltt("create", "s1", "--no-output")
    ltt_env.ltt("enable-event", "-u", "--all")
    ltt_env.ltt("start")
    ltt_env.ltt("stop")
    assert not os.path.exists(ltt_env.home / "ltt-traces")
