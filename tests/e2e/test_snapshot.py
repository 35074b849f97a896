"""Flight recorder: `ltt create --snapshot`, overwrite channels, snapshot
outputs, and `ltt snapshot record` writing what the buffers hold while the
app runs, within a maximum size, with what was lost before shown to
babeltrace2 as discarded packets."""
import os
import re
import struct
from collections import defaultdict

from bt2read import babeltrace_text, read_events, read_losses
from conftest import build_path

HTTPD = build_path("examples", "httpd-sim")
APP_ENV = {"LTT_UST_REGISTER_TIMEOUT": "10000"}
LOSS_LINE = re.compile(r"WARNING: Tracer discarded (\d+) packets between \[[^]]+\] and "
                       r"\[[^]]+\] in trace .* within stream \"([^\"]+)\"")


def snapshot(ltt_env, *args):
    out = ltt_env.ltt("snapshot", "record", *args).stdout
    return re.search(r"Written in (\S+)", out).group(1)


def flight_recorder(ltt_env, out, subbufs=4, requests=2000):
    """A snapshot session whose channel ch (4 KiB sub-buffers) recorded
    `requests` requests of one thread on CPU 0: about 10x what it holds."""
    ltt_env.ltt("create", "fr", "--snapshot", "--output", str(out))
    ltt_env.ltt("enable-channel", "-u", "--subbuf-size", "4k", "--num-subbuf", str(subbufs),
                "ch")
    ltt_env.ltt("enable-event", "-u", "-c", "ch", "httpd:request_*")
    ltt_env.ltt("start")


def run_app(ltt_env, procs, requests):
    # one thread on one CPU: its buffer then keeps the newest events, with no writer
    # inside a sub-buffer that another one must overwrite (no discards)
    procs.run(["taskset", "-c", "0", HTTPD, str(requests), "1"],
              env=dict(ltt_env.env, **APP_ENV), timeout=120)


def request_ids(snap):
    evs = [e for e in read_events(snap) if e["name"] != "!discarded"]
    assert {e["cpu_id"] for e in evs} <= {0}
    return [e["fields"]["request_id"] & 0xffffffff for e in evs
            if e["name"] == "httpd:request_start"]


def index_entries(snap, stream="ch_0"):
    """The entries of a stream's index (LTTng's format, big endian): dicts of
    offset, packet_size, content_size, ts_begin, ts_end, events_discarded,
    stream_id, stream_instance_id, packet_seq_num."""
    names = ("offset", "packet_size", "content_size", "ts_begin", "ts_end", "events_discarded",
             "stream_id", "stream_instance_id", "packet_seq_num")
    path = os.path.join(snap, "ust", "uid", str(os.geteuid()), "64-bit", "index", stream + ".idx")
    with open(path, "rb") as f:
        data = f.read()
    magic, major, minor, size = struct.unpack(">IIII", data[:16])
    assert (magic, major, minor, size) == (0xC1F1DCC1, 1, 1, 72)
    return [dict(zip(names, struct.unpack(">9Q", data[o:o + 72])))
            for o in range(16, len(data), 72)]


def stream_bytes(snap):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(snap)
               for f in files if re.fullmatch(r"ch_\d+", f))


def test_snapshot_keeps_the_newest_events_and_shows_the_loss(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    flight_recorder(ltt_env, out)
    run_app(ltt_env, procs, 2000)
    first = snapshot(ltt_env)
    second = snapshot(ltt_env, "--name", "again")
    assert first != second and os.path.isdir(first) and os.path.isdir(second)
    # the session's output is its snapshot output, named as LTTng names it
    assert os.path.basename(first).startswith("snapshot-1-")
    assert os.path.basename(second).startswith("again-")
    for snap in (first, second):
        ids = request_ids(snap)
        assert 0 < len(ids) <= 4 * 4096 // 40
        # the newest requests, contiguous up to the last one
        assert ids == list(range(ids[0], 2000)), ids[:5]
        # babeltrace2 says exactly what was lost before them, and nothing else
        _, err = babeltrace_text(snap)
        lines = err.splitlines()
        assert len(lines) == 1 and LOSS_LINE.match(lines[0]), err
        losses = read_losses(snap)
        assert [(k, s.endswith("ch_0")) for k, _, _, _, s in losses] == [("packets", True)]
        _, lost, begin, end, _ = losses[0]
        # an empty packet marks where recording started; the gap after it is the loss
        marker, first_packet = index_entries(snap)[:2]
        assert marker["content_size"] == marker["packet_size"] and marker["packet_seq_num"] == 0
        assert lost == first_packet["packet_seq_num"] - 1 > 0
        assert begin < end <= min(e["ns"] for e in read_events(snap) if "ns" in e)
    assert (out / os.path.basename(first) / "ust" / "uid").is_dir()
    assert not (out / "ust").exists()      # nothing is written between snapshots


def test_snapshot_without_overflow_reports_no_loss(ltt_env, procs, tmp_path):
    flight_recorder(ltt_env, tmp_path / "out", subbufs=8)
    run_app(ltt_env, procs, 20)
    snap = snapshot(ltt_env)
    assert request_ids(snap) == list(range(20))
    assert read_losses(snap) == []
    assert babeltrace_text(snap)[1] == ""


def test_max_size_keeps_the_newest_subbuffers_of_each_stream(ltt_env, procs, tmp_path):
    flight_recorder(ltt_env, tmp_path / "out", subbufs=8)
    run_app(ltt_env, procs, 2000)
    ncpu = os.sysconf("SC_NPROCESSORS_CONF")
    whole = snapshot(ltt_env)
    # room for 2 sub-buffers per stream (and the loss markers), not 3
    limit = ncpu * (2 * 4096 + 84) + 4096
    small = snapshot(ltt_env, "-m", str(limit))
    assert stream_bytes(small) <= limit < stream_bytes(whole)
    ids, all_ids = request_ids(small), request_ids(whole)
    assert ids == all_ids[-len(ids):] and 0 < len(ids) < len(all_ids)
    assert [e["content_size"] > 84 * 8 for e in index_entries(small)] == [False, True, True]
    # the sub-buffers left out are reported lost too
    assert sum(c for k, c, _, _, _ in read_losses(small) if k == "packets") > \
        sum(c for k, c, _, _, _ in read_losses(whole) if k == "packets")
    p = ltt_env.ltt("snapshot", "record", "-m", "4k", check=False)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.startswith("Error: cannot record a snapshot of session 'fr': Invalid "
                               "attribute (the maximum size holds less than a sub-buffer "
                               "per stream") and p.stderr.count("\n") == 1


def test_snapshot_outputs(ltt_env, procs, tmp_path):
    out, other = tmp_path / "out", tmp_path / "other"
    flight_recorder(ltt_env, out, subbufs=8)
    listing = ltt_env.ltt("snapshot", "list-output").stdout
    assert listing == f"Snapshot output list for session fr\n    [1] snapshot-1: {out}\n"
    # one output per session, as LTTng: replacing it means deleting it first
    p = ltt_env.ltt("snapshot", "add-output", str(other), check=False)
    assert p.returncode == 1 and p.stderr.count("\n") == 1
    assert "Snapshot output already exists" in p.stderr
    assert ltt_env.ltt("snapshot", "list-output").stdout == listing
    for bad in ("7", "nope"):
        p = ltt_env.ltt("snapshot", "del-output", bad, check=False)
        assert (p.returncode, p.stderr) == (1, f"Error: cannot delete snapshot output {bad} "
                                               "of session 'fr': Snapshot output not found\n")
    assert ltt_env.ltt("snapshot", "del-output", "1").stdout == \
        "Snapshot output id 1 successfully deleted for session fr\n"
    assert ltt_env.ltt("snapshot", "list-output").stdout == \
        "Snapshot output list for session fr\n    None\n"
    p = ltt_env.ltt("snapshot", "record", check=False)
    assert p.returncode == 1 and "has no snapshot output" in p.stderr
    added = ltt_env.ltt("snapshot", "add-output", "-n", "mine", "-m", "1M",
                        f"file://{other}").stdout
    assert added == ("Snapshot output successfully added for session fr\n"
                     f"    [2] mine: {other} (max size: 1048576 bytes)\n")
    run_app(ltt_env, procs, 50)
    snap = snapshot(ltt_env)
    assert os.path.dirname(snap) == str(other) and os.path.basename(snap).startswith("mine-")
    # a path given for one snapshot, relative to the current directory
    there = snapshot(ltt_env, "-n", "here", os.path.relpath(tmp_path / "here"))
    assert os.path.realpath(os.path.dirname(there)) == str(tmp_path / "here")
    assert request_ids(snap) == request_ids(there) == list(range(50))
    assert ltt_env.ltt("snapshot", "del-output", "mine").returncode == 0


def test_clear_empties_a_flight_recorder(ltt_env, procs, tmp_path):
    flight_recorder(ltt_env, tmp_path / "out", subbufs=8)
    run_app(ltt_env, procs, 30)
    assert ltt_env.ltt("clear").stdout == "Session fr cleared\n"
    run_app(ltt_env, procs, 7)
    snap = snapshot(ltt_env)
    assert request_ids(snap) == list(range(7))
    assert read_losses(snap) == []


def test_default_channel_of_a_snapshot_session_overwrites(ltt_env):
    ltt_env.ltt("create", "fr", "--snapshot")
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    assert "Event-loss mode:  overwrite" in ltt_env.ltt("list", "fr").stdout


def test_snapshot_errors(ltt_env):
    ltt_env.ltt("create", "plain")
    for args in (["record", "-s", "plain"], ["list-output", "-s", "plain"],
                 ["add-output", "-s", "plain", "/tmp/x"]):
        p = ltt_env.ltt("snapshot", *args, check=False)
        assert p.returncode == 1 and p.stderr.count("\n") == 1
        assert "The session is not in snapshot mode" in p.stderr
    ltt_env.ltt("create", "fr", "--snapshot")
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    p = ltt_env.ltt("snapshot", "record", check=False)
    assert p.returncode == 1 and "start the session first" in p.stderr
    for args in (["take"], ["record", "-m", "lots"], ["record", "a", "b"],
                 ["del-output"], ["list-output", "x"], ["record", "net://host"]):
        p = ltt_env.ltt("snapshot", *args, check=False)
        assert p.returncode in (1, 2) and p.stderr.startswith("Error: "), args
    # a flight recorder without output: snapshots go where each record says
    ltt_env.ltt("create", "mem", "--snapshot", "--no-output")
    assert ltt_env.ltt("snapshot", "list-output").stdout == \
        "Snapshot output list for session mem\n    None\n"
