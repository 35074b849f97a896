"""Session features on kernel channels: contexts (`add-context -k`), trackers
(`track -k --pid`), rotation, clear and regenerate, save/load of all of it;
the traces read by babeltrace2, the oracle.

Needs root and tracefs (skipped with the reason otherwise); every test
leaves tracefs exactly as it found it (kernel_env)."""
import os
import re

import pytest

from kernel_env import events_of, work_report, workload
# the fixtures: tracefs left as found, a daemon stopped with SIGTERM before that check
from test_kernel_session import Gated, kltt, tracefs_clean  # noqa: F401


def run_getppid(procs, tmp_path, n):
    """Runs `kernel-workload getppid n` to its end; returns its pid."""
    procs.run(workload(tmp_path, "getppid", str(n)))
    return work_report(tmp_path)["pid"]


def getppid_session(kltt, out):
    """Session k recording the getppid syscalls into out, started."""
    kltt.ltt("create", "k", "--output", str(out))
    kltt.ltt("enable-event", "-k", "--syscall", "getppid")
    kltt.ltt("start", "k")


def test_kernel_contexts_name_the_thread_its_process_and_cpu(kltt, procs, tmp_path):
    kltt.ltt("create", "k", "--output", str(tmp_path / "k"))
    kltt.ltt("enable-event", "-k", "sched_switch")
    kltt.ltt("enable-event", "-k", "--syscall", "read,write")
    kltt.ltt("add-context", "-k", "-t", "pid", "-t", "procname", "-t", "prio", "-t", "cpu_id",
             "-t", "tid")
    kltt.ltt("start", "k")
    procs.run(workload(tmp_path, "pingpong", "300"))
    kltt.ltt("stop", "k")
    w = work_report(tmp_path)
    evs = events_of(tmp_path / "k")
    assert all(set(e["context"]) == {"tid", "pid", "procname", "prio", "cpu_id"} for e in evs)
    # the emitter's cpu is the stream's
    assert all(e["context"]["cpu_id"] == e["cpu_id"] for e in evs)
    for tid, name in ((w["pong_tid"], "ltt-pong"), (w["ping_tid"], "ltt-ping")):
        ours = [e for e in evs if e["context"]["tid"] == tid and e["name"].startswith("syscall_")]
        assert len(ours) >= w["rounds"], (tid, len(ours))
        # a thread of the workload: its process is the workload's
        assert {e["context"]["pid"] for e in ours} == {w["pid"]}
        # named after its prctl (the later half: the first may precede the rename)
        assert {e["context"]["procname"] for e in ours[len(ours) // 2:]} == {name}
        assert {e["context"]["prio"] for e in ours} == {20}   # nice 0, as LTTng's prio
    # the state dump carries them too
    dump = [e for e in evs if e["name"] == "lttng_statedump_process_state"
            and e["fields"]["tid"] == 1]
    assert dump and dump[0]["context"]["pid"] == 1


@pytest.mark.parametrize("ctx", ["vtid", "perf:thread:task-clock", "callstack-kernel"])
def test_kernel_context_tracefs_cannot_record_is_refused(kltt, ctx):
    kltt.ltt("create", "k")
    p = kltt.ltt("add-context", "-k", "-t", ctx, check=False)
    assert p.returncode == 1 and p.stderr.count("\n") == 1, p.stderr
    assert f"kernel context '{ctx}' is not recorded by ltt" in p.stderr
    # nothing changed: no kernel channel was left behind
    assert "Kernel" not in kltt.ltt("list", "k").stdout


def test_kernel_context_after_start_is_refused(kltt, tmp_path):
    kltt.ltt("create", "k", "--output", str(tmp_path / "k"))
    kltt.ltt("enable-event", "-k", "sched_switch")
    kltt.ltt("start", "k")
    p = kltt.ltt("add-context", "-k", "-t", "pid", check=False)
    assert p.returncode == 1 and "before the session starts" in p.stderr
    kltt.ltt("stop", "k")


def getppid_entries(path, pid):
    """The syscall_entry_getppid events of process pid in the trace at path,
    read alone (babeltrace2 says nothing on stderr: no discards)."""
    return sum(1 for e in events_of(path) if e["name"] == "syscall_entry_getppid"
               and e["context"]["tid"] == pid)


def rotation_archives(out):
    return sorted((out / "archives").iterdir(), key=lambda p: int(p.name.rsplit("-", 1)[1]))


def test_rotations_while_tracing_lose_and_duplicate_no_kernel_event(kltt, procs, tmp_path):
    out = tmp_path / "k"
    kltt.ltt("create", "k", "--output", str(out))
    kltt.ltt("enable-channel", "-k", "--subbuf-size", "1M", "--num-subbuf", "8", "ch")
    kltt.ltt("enable-event", "-k", "--syscall", "getppid")
    kltt.ltt("add-context", "-k", "-t", "procname")
    kltt.ltt("start", "k")
    n, runs, rotated = 400000, [], 0
    # rotations while it runs (a run that ended before the first is run again: a
    # loaded machine may start `ltt` slower than the workload calls getppid)
    while not rotated and len(runs) < 4:
        work = tmp_path / f"run{len(runs)}"
        work.mkdir()
        app = procs.popen(workload(work, "getppid", str(n)))
        while app.poll() is None and rotated < 3:
            kltt.ltt("rotate", "k")
            rotated += app.poll() is None
        assert app.wait(timeout=120) == 0
        runs.append(work_report(work)["pid"])
    assert rotated, "every run ended before a rotation"
    kltt.ltt("rotate", "k")                           # and one at its end, tracing
    kltt.ltt("stop", "k")
    kltt.ltt("rotate", "k")                           # the last chunk archived
    counts = {pid: [] for pid in runs}
    for chunk in rotation_archives(out):
        # each chunk a complete kernel trace of its own: metadata, streams, index
        files = set(os.listdir(chunk / "kernel"))
        assert {"metadata", "index"} <= files and any(f.startswith("ch_") for f in files)
        for pid in runs:
            counts[pid].append(getppid_entries(chunk, pid))
    assert all(sum(c) == n for c in counts.values()), counts
    # the last run spans chunks
    assert sum(1 for c in counts[runs[-1]] if c) >= 2, counts
    # the stats count every chunk
    assert "Discarded events: 0" in kltt.ltt("list", "k").stdout


def test_rotation_while_stopped_then_restart(kltt, procs, tmp_path):
    out = tmp_path / "k"
    getppid_session(kltt, out)
    first = run_getppid(procs, tmp_path, 1000)
    kltt.ltt("stop", "k")
    kltt.ltt("rotate", "k")
    kltt.ltt("start", "k")
    second = run_getppid(procs, tmp_path, 2000)
    kltt.ltt("stop", "k")
    kltt.ltt("rotate", "k")
    a, b = rotation_archives(out)
    assert (getppid_entries(a, first), getppid_entries(a, second)) == (1000, 0)
    assert (getppid_entries(b, first), getppid_entries(b, second)) == (0, 2000)
    # the restart's state dump is in the second chunk
    assert any(e["name"] == "lttng_statedump_start" for e in events_of(b))


def test_clear_drops_the_kernel_trace_so_far_and_keeps_recording(kltt, procs, tmp_path):
    out = tmp_path / "k"
    getppid_session(kltt, out)
    before = run_getppid(procs, tmp_path, 3000)
    kltt.ltt("clear", "k")
    after = run_getppid(procs, tmp_path, 2000)
    kltt.ltt("stop", "k")
    assert getppid_entries(out, before) == 0
    assert getppid_entries(out, after) == 2000
    # cleared while stopped: nothing left
    kltt.ltt("clear", "k")
    assert getppid_entries(out, after) == 0


def test_size_rotation_is_refused_with_a_kernel_channel(kltt, tmp_path):
    kltt.ltt("create", "k", "--output", str(tmp_path / "k"))
    kltt.ltt("enable-event", "-k", "sched_switch")
    p = kltt.ltt("enable-rotation", "-s", "k", "--size", "1M", check=False)
    assert p.returncode == 1 and p.stderr.count("\n") == 1
    assert "rotate with --timer" in p.stderr


def test_regenerate_metadata_rewrites_the_kernel_metadata(kltt, procs, tmp_path):
    out = tmp_path / "k"
    getppid_session(kltt, out)
    procs.run(workload(tmp_path, "getppid", "500"))
    meta = out / "kernel" / "metadata"
    kltt.ltt("regenerate", "metadata", "-s", "k")   # written now, even before a packet
    before = (os.stat(meta).st_ino, meta.read_text())
    assert kltt.ltt("regenerate", "metadata", "-s", "k").stdout == \
        "Metadata successfully regenerated for session k\n"
    after = (os.stat(meta).st_ino, meta.read_text())
    assert after[0] != before[0]     # written again (a new file renamed over it)
    # the same trace and events, the clock's offset sampled anew
    strip = lambda t: re.sub(r"offset(_s)? = -?\d+;", "", t)
    assert strip(after[1]) == strip(before[1])
    kltt.ltt("stop", "k")
    assert getppid_entries(out, work_report(tmp_path)["pid"]) == 500


def test_regenerate_statedump_gives_a_rotated_chunk_its_state(kltt, procs, tmp_path):
    out = tmp_path / "k"
    getppid_session(kltt, out)
    kltt.ltt("rotate", "k")
    before = run_getppid(procs, tmp_path, 300)
    assert kltt.ltt("regenerate", "statedump", "-s", "k").stdout == \
        "State dump successfully regenerated for session k\n"
    kltt.ltt("stop", "k")
    p = kltt.ltt("regenerate", "statedump", "-s", "k", check=False)
    assert p.returncode == 1 and "Session not started" in p.stderr
    kltt.ltt("rotate", "k")
    first, second = rotation_archives(out)
    assert [e["name"] for e in events_of(first)].count("lttng_statedump_start") == 1
    evs = events_of(second)
    names = [e["name"] for e in evs]
    assert names.count("lttng_statedump_start") == names.count("lttng_statedump_end") == 1
    # after what the buffers held: the workload's syscalls come first
    assert names.index("lttng_statedump_start") > max(
        i for i, e in enumerate(evs) if e["context"]["tid"] == before)
    assert any(e["name"] == "lttng_statedump_process_state" and e["fields"]["tid"] == 1
               for e in evs)


def test_pid_tracker_keeps_only_the_tracked_process(kltt, procs, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = Gated(procs, tmp_path / "a", workload(tmp_path / "a", "pingpong", "200"))
    b = Gated(procs, tmp_path / "b", workload(tmp_path / "b", "getppid", "2000"))
    out = tmp_path / "k"
    kltt.ltt("create", "k", "--output", str(out))
    kltt.ltt("enable-event", "-k", "--syscall", "read,write,getppid")
    kltt.ltt("track", "-k", "--pid", str(a.pid))
    assert f"Process IDs:          {a.pid}" in kltt.ltt("list", "k").stdout
    kltt.ltt("start", "k")
    a.run()
    b.run()
    kltt.ltt("stop", "k")
    w = work_report(tmp_path / "a")
    tids = {e["context"]["tid"] for e in events_of(out) if e["name"].startswith("syscall_")}
    # the tracked process, its thread made after the tracking too; nobody else
    assert tids == {w["ping_tid"], w["pong_tid"]}, tids
    assert work_report(tmp_path / "b")["pid"] == b.pid


def test_untracking_every_pid_records_nothing_then_all_again(kltt, procs, tmp_path):
    out = tmp_path / "k"
    kltt.ltt("create", "k", "--output", str(out))
    kltt.ltt("enable-event", "-k", "--syscall", "getppid")
    kltt.ltt("untrack", "-k", "--pid", "--all")
    kltt.ltt("start", "k")
    none = run_getppid(procs, tmp_path, 500)
    kltt.ltt("track", "-k", "--pid", "--all")       # while tracing
    every = run_getppid(procs, tmp_path, 700)
    kltt.ltt("stop", "k")
    assert (getppid_entries(out, none), getppid_entries(out, every)) == (0, 700)


@pytest.mark.parametrize("args", [["track", "-k", "--vpid", "1"], ["track", "-k", "--uid", "0"],
                                  ["untrack", "-k", "--gid", "--all"]])
def test_kernel_trackers_other_than_pid_are_refused(kltt, args):
    kltt.ltt("create", "k")
    kltt.ltt("enable-event", "-k", "sched_switch")
    before = kltt.ltt("list", "k").stdout
    p = kltt.ltt(*args, check=False)
    assert p.returncode == 1 and p.stderr.count("\n") == 1
    assert "the kernel domain tracks --pid only" in p.stderr
    assert kltt.ltt("list", "k").stdout == before


def test_saved_kernel_contexts_and_trackers_load_back(kltt, procs, tmp_path):
    a = Gated(procs, tmp_path, workload(tmp_path, "pingpong", "100"))
    out = tmp_path / "k"
    kltt.ltt("create", "k", "--output", str(out))
    kltt.ltt("enable-event", "-k", "--syscall", "read,write")
    kltt.ltt("add-context", "-k", "-t", "procname", "-t", "pid", "-t", "cpu_id")
    kltt.ltt("track", "-k", "--pid", f"{a.pid},{a.pid + 100000}")
    # and the user space's, which share the sections
    kltt.ltt("enable-event", "-u", "app:*")
    kltt.ltt("add-context", "-u", "-t", "vtid")
    kltt.ltt("track", "-u", "--vuid", "0")
    listed = kltt.ltt("list", "k").stdout
    kltt.ltt("save", "k", "-o", str(tmp_path / "saved"))
    text = (tmp_path / "saved" / "k.ltt-session").read_text()
    assert "[context]\ndomain = kernel\nchannel = channel0\ntype = procname\ntype = pid\n" \
        "type = cpu_id\n" in text
    assert f"[tracker]\ndomain = kernel\nattribute = pid\nvalue = {a.pid}\n" in text
    kltt.ltt("destroy", "k")
    kltt.ltt("load", "-i", str(tmp_path / "saved"), "k")
    assert kltt.ltt("list", "k").stdout == listed
    kltt.ltt("start", "k")
    a.run()
    kltt.ltt("stop", "k")
    w = work_report(tmp_path)
    evs = [e for e in events_of(out / "kernel") if e["name"].startswith("syscall_")]
    assert {e["context"]["tid"] for e in evs} == {w["ping_tid"], w["pong_tid"]}
    assert list(evs[0]["context"]) == ["tid", "procname", "pid", "cpu_id"]
    assert {e["context"]["pid"] for e in evs} == {w["pid"]}
