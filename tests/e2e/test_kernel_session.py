"""The kernel domain through the real CLI and daemons: `ltt enable-channel -k`,
`enable-event -k` (tracepoints, --syscall, --filter, --userspace-probe,
--function), `list -k`, sessions started and stopped, combined with user
space; the traces read by babeltrace2, the oracle.

Needs root and tracefs (each test is skipped with the reason otherwise);
every test leaves tracefs exactly as it found it (kernel_env), and its
session daemon is stopped with SIGTERM, as a user would, before that check.
"""
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time

import bt2
import pytest

from bt2read import babeltrace_text
from conftest import build_path
from kernel_env import (TRACEFS, WORKLOAD, check_file_syscalls, events_of, read_tracefs,
                        tracefs_unchanged, work_report, workload)

USER_APP = build_path("tests", "unit", "kernel", "kernel-user-app")
SESSIOND = build_path("src", "sessiond", "ltt-sessiond")
APP_ENV = {"LTT_UST_REGISTER_TIMEOUT": "10000"}


@pytest.fixture(autouse=True)
def tracefs_clean():
    yield from tracefs_unchanged()


@pytest.fixture
def kltt(tracefs_clean, ltt_env):
    """ltt_env whose daemon exits cleanly (SIGTERM) before tracefs is checked."""
    yield ltt_env
    ltt_env.kill_sessiond(signal.SIGTERM)


def instance_dir(session):
    """The session's tracefs instance (ltt-SESSION-PID)."""
    names = [n for n in os.listdir(os.path.join(TRACEFS, "instances"))
             if re.fullmatch(rf"ltt-{re.escape(session)}-\d+", n)]
    assert len(names) == 1, names
    return os.path.join(TRACEFS, "instances", names[0])


class Gated:
    """A program that waits for open_gate() before it execs (its pid is known
    first: filters can name it, and it exists when the session starts)."""

    def __init__(self, procs, tmp_path, argv, env=None):
        self.fifo = tmp_path / "gate"
        os.mkfifo(self.fifo)
        self.proc = procs.popen(["sh", "-c", 'read x < "$0" && exec "$@"', str(self.fifo),
                                 *argv], env=env)
        self.pid = self.proc.pid

    def run(self, timeout=60):
        with open(self.fifo, "w") as f:
            f.write("go\n")
        assert self.proc.wait(timeout=timeout) == 0


def record(kltt, procs, tmp_path, setup, argv, name="k", env=None):
    """create, the `ltt` commands of setup, start, argv run to its end, stop."""
    out = tmp_path / name
    kltt.ltt("create", name, "--output", str(out))
    for args in setup:
        kltt.ltt(*args)
    kltt.ltt("start", name)
    procs.run(argv, env=env)
    kltt.ltt("stop", name)
    return out


def test_pingpong_sched_events(kltt, procs, tmp_path):
    out = record(kltt, procs, tmp_path, [("enable-event", "-k", "sched_switch,sched_wakeup")],
                 workload(tmp_path, "pingpong", "300"))
    w = work_report(tmp_path)
    ping, pong = w["ping_tid"], w["pong_tid"]
    # LTTng's layout: a stream and its index per CPU, the metadata
    ncpus = len(os.listdir(os.path.join(TRACEFS, "per_cpu")))
    assert set(os.listdir(out / "kernel")) == {"index", "metadata"} | {
        f"channel0_{c}" for c in range(ncpus)}
    assert set(os.listdir(out / "kernel" / "index")) == {f"channel0_{c}.idx"
                                                         for c in range(ncpus)}
    evs = events_of(out)
    switches = [e for e in evs if e["name"] == "sched_switch"]
    ours = [e for e in switches if e["fields"]["prev_tid"] == pong]
    assert w["rounds"] - 1 <= len(ours) <= w["rounds"] + 50
    assert {e["fields"]["prev_comm"] for e in ours[len(ours) // 2:]} == {"ltt-pong"}
    assert {e["cpu_id"] for e in ours} == {w["cpu"]}
    wakeups = [e for e in evs if e["name"] == "sched_wakeup" and e["fields"]["tid"] in (ping, pong)]
    assert len(wakeups) >= w["rounds"] - 2
    assert set(wakeups[0]["fields"]) == {"comm", "tid", "prio", "target_cpu"}
    # the state dump comes first, at the start
    assert evs[0]["name"] == "lttng_statedump_start"


def test_syscalls_with_arguments_and_return_values(kltt, procs, tmp_path):
    data = tmp_path / "known.txt"
    data.write_text("ltt kernel backend: 37 bytes of text\n")
    out = record(kltt, procs, tmp_path,
                 [("enable-event", "-k", "--syscall", "openat,read,write,close")],
                 workload(tmp_path, "files", str(data)))
    check_file_syscalls(events_of(out), work_report(tmp_path))
    # only what was asked for, and the consumer did not trace itself
    names = {e["name"] for e in events_of(out, quiet=False)}
    assert {n for n in names if n.startswith("syscall_")} <= {
        f"syscall_{d}_{s}" for d in ("entry", "exit") for s in ("openat", "read", "write", "close")}


def test_kernel_filter_keeps_only_matching_events(kltt, procs, tmp_path):
    app = Gated(procs, tmp_path, workload(tmp_path, "pingpong", "200"))
    kltt.ltt("create", "k", "--output", str(tmp_path / "k"))
    kltt.ltt("enable-event", "-k", "sched_switch", "--filter", f"next_tid == {app.pid}")
    # pushed into the kernel, in its own field names
    with open(os.path.join(instance_dir("k"), "events/sched/sched_switch/filter")) as f:
        assert f.read().strip() == f"next_pid == {app.pid}"
    kltt.ltt("start", "k")
    app.run()
    kltt.ltt("stop", "k")
    sw = [e for e in events_of(tmp_path / "k") if e["name"] == "sched_switch"]
    assert len(sw) >= 50
    assert {e["fields"]["next_tid"] for e in sw} == {app.pid}


def test_saved_kernel_session_loads_with_its_rules_and_filters(kltt, procs, tmp_path):
    app = Gated(procs, tmp_path, workload(tmp_path, "pingpong", "200"))
    kltt.ltt("create", "k", "--output", str(tmp_path / "k"))
    kltt.ltt("enable-channel", "-k", "--subbuf-size", "64k", "--num-subbuf", "4", "kc")
    kltt.ltt("enable-event", "-k", "-c", "kc", "sched_switch", "--filter",
             f"next_tid == {app.pid}")
    kltt.ltt("enable-event", "-k", "-c", "kc", "--syscall", "getppid")
    kltt.ltt("disable-event", "-k", "-c", "kc", "getppid")
    kltt.ltt("enable-event", "-k", "-c", "kc", "--userspace-probe",
             f"{WORKLOAD}:ltt_workload_probe", "probe")
    listed = kltt.ltt("list", "k").stdout
    assert f"{WORKLOAD}:ltt_workload_probe" in listed
    kltt.ltt("save", "k", "-o", str(tmp_path / "saved"))
    kltt.ltt("destroy", "k")
    kltt.ltt("load", "-i", str(tmp_path / "saved"), "k")
    assert kltt.ltt("list", "k").stdout == listed
    # the instance is back, with the kernel's half of the filter
    with open(os.path.join(instance_dir("k"), "events/sched/sched_switch/filter")) as f:
        assert f.read().strip() == f"next_pid == {app.pid}"
    kltt.ltt("start", "k")
    app.run()
    kltt.ltt("stop", "k")
    evs = events_of(tmp_path / "k")
    sw = [e for e in evs if e["name"] == "sched_switch"]
    assert len(sw) >= 50 and {e["fields"]["next_tid"] for e in sw} == {app.pid}
    assert not [e for e in evs if "getppid" in e["name"]]   # loaded disabled


def test_consumer_filters_what_the_kernel_cannot(kltt, procs, tmp_path):
    # $ctx.pid is the thread group: a kernel record only knows the thread
    app = Gated(procs, tmp_path, workload(tmp_path, "pingpong", "100"))
    kltt.ltt("create", "k", "--output", str(tmp_path / "k"))
    kltt.ltt("enable-event", "-k", "--syscall", "read,write", "--filter", f"$ctx.pid == {app.pid}")
    kltt.ltt("enable-event", "-k", "sched_switch", "--filter",
             f"(next_tid | 0) == {app.pid}")     # LTTng's bitwise or: not the kernel's
    inst = instance_dir("k")
    for ev in ("syscalls/sys_enter_read", "syscalls/sys_exit_write", "sched/sched_switch"):
        with open(os.path.join(inst, "events", ev, "filter")) as f:
            assert f.read().strip() == "none", ev   # left to the consumer
    kltt.ltt("start", "k")
    app.run()
    kltt.ltt("stop", "k")
    w = work_report(tmp_path)
    evs = events_of(tmp_path / "k")
    sys_ = [e for e in evs if e["name"].startswith("syscall_")]
    assert {e["context"]["tid"] for e in sys_} == {w["ping_tid"], w["pong_tid"]}
    assert sum(e["name"] == "syscall_entry_write" for e in sys_) >= 2 * w["rounds"]
    sw = [e for e in evs if e["name"] == "sched_switch"]
    assert sw and {e["fields"]["next_tid"] for e in sw} == {w["ping_tid"]}


def test_filter_neither_side_can_evaluate_is_refused(kltt):
    kltt.ltt("create", "k")
    before = kltt.ltt("list", "k").stdout
    p = kltt.ltt("enable-event", "-k", "sched_switch", "--filter",
                 '$ctx.procname == "a" || (next_tid | 0) == 1', check=False)
    assert p.returncode == 1
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and "the consumer cannot evaluate it" in lines[0], p.stderr
    assert "$ctx.procname" in lines[0]
    assert kltt.ltt("list", "k").stdout == before


def test_userspace_probe_counts_every_call(kltt, procs, tmp_path):
    out = record(kltt, procs, tmp_path,
                 [("enable-event", "-k", "--userspace-probe", f"elf:{WORKLOAD}:ltt_workload_probe",
                   "probe")],
                 workload(tmp_path, "calls", "1234"))
    w = work_report(tmp_path)
    evs = [e for e in events_of(out) if e["name"] == "probe"]
    assert len(evs) == 1234 == w["calls"]
    assert {e["context"]["tid"] for e in evs} == {w["pid"]}
    assert "probe (location: elf:" in kltt.ltt("list", "k").stdout


def test_function_tracing_is_refused_with_the_reason(kltt):
    kltt.ltt("create", "k")
    p = kltt.ltt("enable-event", "-k", "--function", "do_sys_openat2", "openat_fn", check=False)
    if p.returncode == 0:
        pytest.skip("this kernel allows the function tracer (test_function_calls_are_recorded)")
    assert p.returncode == 1
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and "function tracing of 'do_sys_openat2'" in lines[0], p.stderr
    if "EPERM" in lines[0] or "Operation not permitted" in lines[0]:
        assert "lockdown" in lines[0]
    if not os.path.exists(os.path.join(TRACEFS, "kprobe_events")):
        assert "CONFIG_KPROBE_EVENTS" in lines[0]
    assert "openat_fn" not in kltt.ltt("list", "k").stdout


def test_function_calls_are_recorded(kltt, procs, tmp_path):
    kltt.ltt("create", "k", "--output", str(tmp_path / "k"))
    p = kltt.ltt("enable-event", "-k", "--function", "do_sys_openat2", "openat_fn", check=False)
    if p.returncode != 0:
        pytest.skip(f"the function tracer is refused here: {p.stderr.strip()}")
    data = tmp_path / "known.txt"
    data.write_text("x\n")
    kltt.ltt("start", "k")
    procs.run(workload(tmp_path, "files", str(data)))
    kltt.ltt("stop", "k")
    w = work_report(tmp_path)
    calls = [e for e in events_of(tmp_path / "k") if e["name"] == "openat_fn"]
    assert any(e["context"]["tid"] == w["pid"] for e in calls)


def test_user_tracepoint_inside_the_write_it_waited_for(kltt, procs, tmp_path):
    out = record(kltt, procs, tmp_path,
                 [("enable-event", "-u", "ktest:*"),
                  ("enable-event", "-k", "--syscall", "write")],
                 [USER_APP, str(tmp_path / "app.json")], env=dict(kltt.env, **APP_ENV))
    w = work_report(tmp_path, "app.json")
    assert sorted(os.listdir(out)) == ["kernel", "ust"]
    evs = events_of(out)        # babeltrace2 merges both traces, quietly
    tp = [e for e in evs if e["name"] == "ktest:during_write"]
    assert len(tp) == 1 and tp[0]["fields"] == {"writer": w["writer_tid"], "fd": w["fd"]}
    mine = [e for e in evs if e["context"] and e["context"].get("tid") == w["writer_tid"]
            and e["name"].startswith("syscall_")]
    entry = [e for e in mine if e["name"] == "syscall_entry_write" and e["fields"]["fd"] == w["fd"]
             and e["fields"]["count"] == 1]
    assert len(entry) == 1
    exit_ = next(e for e in mine if e["name"] == "syscall_exit_write" and e["ns"] >= entry[0]["ns"])
    assert exit_["fields"]["ret"] == 1
    # one time axis: raw clock values and babeltrace2's ns from origin agree
    assert entry[0]["ns"] < tp[0]["ns"] < exit_["ns"]
    assert entry[0]["cycles"] < tp[0]["cycles"] < exit_["cycles"]
    text, _ = babeltrace_text(out)
    lines = text.splitlines()
    at = [i for i, l in enumerate(lines) if "ktest:during_write" in l][0]
    before = [l for l in lines[:at] if "syscall_entry_write" in l and
              f"tid = {w['writer_tid']} }}" in l]
    assert before, "babeltrace2 does not print the entry before the tracepoint"


def instance_lost(inst):
    """What the kernel counts as lost in an instance: overrun + dropped events."""
    lost = 0
    for cpu in os.listdir(os.path.join(inst, "per_cpu")):
        with open(os.path.join(inst, "per_cpu", cpu, "stats")) as f:
            stats = dict(line.split(":", 1) for line in f.read().splitlines() if ":" in line)
        lost += int(stats["overrun"]) + int(stats["dropped events"])
    return lost


@pytest.mark.parametrize("policy", ["discard", "overwrite"])
def test_flooded_tiny_buffer_counts_exactly_what_the_kernel_lost(kltt, procs, tmp_path, policy):
    calls = 500000
    app = Gated(procs, tmp_path, workload(tmp_path, "getppid", str(calls)))
    out = tmp_path / "k"
    kltt.ltt("create", "k", "--output", str(out))
    kltt.ltt("enable-channel", "-k", f"--{policy}", "--subbuf-size", "4k", "--num-subbuf", "2",
             "tiny")
    # the program's calls only (a kernel filter: the others never reach the buffer)
    kltt.ltt("enable-event", "-k", "-c", "tiny", "--syscall", "getppid", "--filter",
             f"$ctx.tid == {app.pid}")
    kltt.ltt("start", "k")
    app.run()
    kltt.ltt("stop", "k")
    lost = instance_lost(instance_dir("k"))
    recorded, events, discarded = 0, 0, []
    for msg in bt2.TraceCollectionMessageIterator(str(out)):
        if type(msg) is bt2._EventMessageConst:
            recorded += msg.event.name.endswith("_getppid")
            events += 1
        elif type(msg) is bt2._DiscardedEventsMessageConst:
            discarded.append(msg.count)
    # and `ltt list` says so (the consumer's counts)
    status = kltt.ltt("list", "k").stdout
    assert f"Recorded events:  {events}\n" in status
    assert f"Discarded events: {lost}\n" in status
    assert None not in discarded, "babeltrace2 could not count some discarded events"
    assert lost > 0, "an 8 KiB buffer per CPU should overflow"
    assert sum(discarded) == lost
    assert recorded + sum(discarded) == 2 * calls      # an entry and an exit each
    _, err = babeltrace_text(out)
    assert "discarded" in err


def test_switch_timer_writes_packets_while_tracing(kltt, procs, tmp_path):
    out = tmp_path / "k"
    kltt.ltt("create", "k", "--output", str(out))
    kltt.ltt("enable-channel", "-k", "--switch-timer", "50ms", "k")
    kltt.ltt("enable-event", "-k", "--syscall", "getppid")
    kltt.ltt("start", "k")
    procs.run(workload(tmp_path, "getppid", "100"))
    # far less than a packet: only the switch timer closes it, tracing on
    index = list((out / "kernel" / "index").glob("k_*.idx"))
    deadline = time.monotonic() + 10
    while sum(f.stat().st_size for f in index) <= 16 * len(index):
        assert time.monotonic() < deadline, "no packet was written while tracing"
        time.sleep(0.05)
    kltt.ltt("stop", "k")
    names = [e["name"] for e in events_of(out)]
    assert names.count("syscall_entry_getppid") >= 100


def test_restarted_session_dumps_state_again_and_keeps_one_trace(kltt, procs, tmp_path):
    out = tmp_path / "k"
    kltt.ltt("create", "k", "--output", str(out))
    kltt.ltt("enable-event", "-k", "--syscall", "getppid")
    for _ in range(2):
        kltt.ltt("start", "k")
        procs.run(["sh", "-c", "true"])
        kltt.ltt("stop", "k")
    names = [e["name"] for e in events_of(out)]
    assert names.count("lttng_statedump_start") == 2
    assert names.count("lttng_statedump_end") == 2


def test_statedump_has_processes_fds_and_memory_maps(kltt, procs, tmp_path):
    app = Gated(procs, tmp_path, workload(tmp_path, "calls", "1"))
    kltt.ltt("create", "k", "--output", str(tmp_path / "k"))
    kltt.ltt("enable-event", "-k", "sched_process_exec")
    kltt.ltt("start", "k")
    app.run()
    kltt.ltt("stop", "k")
    evs = events_of(tmp_path / "k")
    dump = evs[:[e["name"] for e in evs].index("lttng_statedump_end")]
    mine = [e["fields"] for e in dump if e["name"] == "lttng_statedump_process_state"
            and e["fields"]["tid"] == app.pid]
    assert mine and mine[0]["name"] == "sh"        # waiting at the gate
    maps = [e["fields"] for e in dump if e["name"] == "lttng_statedump_vm_map"
            and e["fields"]["pid"] == app.pid]
    assert set(maps[0]) == {"pid", "start", "end", "flags", "inode", "pgoff"}
    sh = os.stat(shutil.which("sh"), follow_symlinks=True)
    text = [m for m in maps if m["inode"] == sh.st_ino]
    assert text and all(m["start"] < m["end"] for m in maps)
    assert any(m["flags"] & 4 for m in text)      # VM_EXEC: its code
    fds = [e["fields"] for e in dump if e["name"] == "lttng_statedump_file_descriptor"
           and e["fields"]["pid"] == app.pid]
    assert any(f["fd"] == 0 for f in fds)


def test_list_kernel_events_and_syscalls(kltt):
    kltt.ltt("create", "k")
    out = kltt.ltt("list", "-k").stdout
    assert out.startswith("Kernel events:\n")
    assert "      sched_switch (loglevel: TRACE_EMERG (0)) (type: tracepoint)\n" in out
    assert "      irq_softirq_entry (loglevel" in out
    assert "syscall_entry" not in out
    out = kltt.ltt("list", "-k", "--syscall").stdout
    assert out.startswith("System calls:\n")
    assert "      openat (type: syscall) [64-bit]\n" in out


def test_status_shows_kernel_channels_and_rules(kltt, monkeypatch):
    kltt.ltt("create", "k")
    kltt.ltt("enable-channel", "-k", "--subbuf-size", "64k", "--num-subbuf", "8", "kchan")
    kltt.ltt("enable-event", "-k", "-a")
    kltt.ltt("enable-event", "-k", "sched_switch", "--filter", "prev_tid == 1")
    kltt.ltt("disable-event", "-k", "sched_switch")
    out = kltt.ltt("status").stdout
    assert "=== Domain: Linux kernel ===" in out
    assert "- kchan: [enabled]" in out
    assert "65536 bytes" in out and "Buffering:        global" in out
    assert "      * (type: tracepoint) [enabled]" in out
    assert "      * (type: syscall) [enabled]" in out
    assert "      sched_switch (filter: prev_tid == 1) (type: tracepoint) [disabled]" in out
    # and tracefs follows: every tracepoint and syscall, 64 KiB x 8 per CPU
    inst = instance_dir("k")
    with open(os.path.join(inst, "buffer_subbuf_size_kb")) as f:
        assert f.read().strip() == "64"
    with open(os.path.join(inst, "buffer_size_kb")) as f:
        assert int(f.read().split()[0]) >= 512      # plus the pages' headers
    with open(os.path.join(inst, "events/sched/sched_switch/enable")) as f:
        assert f.read().strip() == "1"       # still enabled by '*'
    with open(os.path.join(inst, "events/sched/sched_switch/filter")) as f:
        assert f.read().strip() == "none"
    with open(os.path.join(inst, "events/syscalls/sys_enter_openat/enable")) as f:
        assert f.read().strip() == "1"


def test_disabled_rule_stops_its_events(kltt):
    kltt.ltt("create", "k")
    kltt.ltt("enable-event", "-k", "sched_switch,sched_wakeup")
    kltt.ltt("enable-event", "-k", "--syscall", "openat")
    assert "1 " not in kltt.ltt("disable-event", "-k", "sched_switch").stderr
    inst = instance_dir("k")
    enabled = set(open(os.path.join(inst, "set_event")).read().split())
    assert enabled == {"sched:sched_wakeup", "syscalls:sys_enter_openat",
                       "syscalls:sys_exit_openat"}
    kltt.ltt("disable-event", "-k", "-a")
    assert open(os.path.join(inst, "set_event")).read() == ""


def test_one_kernel_channel_per_session(kltt):
    kltt.ltt("create", "k")
    kltt.ltt("enable-channel", "-k", "a")
    p = kltt.ltt("enable-channel", "-k", "b", check=False)
    assert p.returncode == 1
    assert "a session has one kernel channel" in p.stderr and "'a' is it" in p.stderr
    # rules without -c go to the session's kernel channel
    assert "in channel a" in kltt.ltt("enable-event", "-k", "sched_switch").stdout


def test_snapshot_sessions_refuse_kernel_channels(kltt, tmp_path):
    kltt.ltt("create", "k", "--snapshot", "--output", str(tmp_path / "snap"))
    p = kltt.ltt("enable-event", "-k", "sched_switch", check=False)
    assert p.returncode == 1
    assert "snapshot sessions record user space only" in p.stderr


def test_unknown_event_is_one_clear_error(kltt):
    kltt.ltt("create", "k")
    p = kltt.ltt("enable-event", "-k", "no_such_event_xyz", check=False)
    assert p.returncode == 1
    assert p.stderr.count("\n") == 1 and "no kernel event matches 'no_such_event_xyz'" in p.stderr


def _wait_exit(pid, timeout=30):
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        assert select.select([fd], [], [], timeout)[0], f"process {pid} did not exit"
    finally:
        os.close(fd)


def _session_with_everything(kltt, tmp_path):
    kltt.ltt("create", "k", "--output", str(tmp_path / "k"))
    kltt.ltt("enable-event", "-k", "sched_switch", "--filter", "prev_tid == 1")
    kltt.ltt("enable-event", "-k", "--userspace-probe", f"{WORKLOAD}:ltt_workload_probe", "p")
    kltt.ltt("start", "k")
    return kltt.sessiond_pid()


@pytest.mark.parametrize("also_consumer", [False, True])
def test_killed_daemon_leaves_tracefs_clean(kltt, tmp_path, also_consumer):
    daemon = _session_with_everything(kltt, tmp_path)
    consumers = kltt.consumerd_pids()
    assert len(consumers) == 1
    os.kill(daemon, signal.SIGKILL)
    _wait_exit(daemon)
    if also_consumer:
        os.kill(consumers[0], signal.SIGKILL)
    # the consumer writes out the trace and removes the orphaned instance;
    # killed too, the next daemon removes it when it starts
    _wait_exit(consumers[0])
    kltt.ltt("create", "other")         # starts a new daemon
    assert not [n for n in os.listdir(os.path.join(TRACEFS, "instances"))
                if n.startswith("ltt-k-")]
    assert f"ltt_{daemon}/" not in (read_tracefs("uprobe_events") or "")
    if not also_consumer:
        assert events_of(tmp_path / "k", quiet=False) is not None


def test_killed_consumer_is_reported_and_destroy_cleans_up(kltt, tmp_path):
    daemon = _session_with_everything(kltt, tmp_path)
    consumer = kltt.consumerd_pids()[0]
    os.kill(consumer, signal.SIGKILL)
    _wait_exit(consumer)
    p = kltt.ltt("stop", "k", check=False)
    assert p.returncode == 1 and "the consumer daemon stopped answering" in p.stderr
    kltt.ltt("stop", "k")               # without a consumer: tracing off
    p = kltt.ltt("start", "k", check=False)
    assert p.returncode == 1
    assert "the consumer daemon that wrote this session's kernel trace died" in p.stderr
    kltt.ltt("destroy", "k")            # the instance goes (checked by tracefs_clean)
    assert not [n for n in os.listdir(os.path.join(TRACEFS, "instances"))
                if n.startswith("ltt-k-")]


def test_stale_instance_of_a_dead_daemon_is_removed_at_start(kltt):
    dead = subprocess.Popen(["true"])
    dead.wait()
    path = os.path.join(TRACEFS, "instances", f"ltt-stale-{dead.pid}")
    os.mkdir(path)
    try:
        kltt.ltt("create", "k")          # starts the daemon
        assert not os.path.exists(path)
    finally:
        if os.path.exists(path):
            os.rmdir(path)


def test_unprivileged_daemon_refuses_the_kernel_clearly(tracefs_clean, procs):
    home = tempfile.mkdtemp(prefix="ltt-nobody-")
    os.chmod(home, 0o777)
    env = dict(os.environ, HOME=home, LTT_HOME=os.path.join(home, "run"))
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    ltt = build_path("src", "cli", "ltt")
    try:
        procs.run(nobody + [ltt, "create", "k"], env=env)
        p = procs.run(nobody + [ltt, "enable-event", "-k", "sched_switch"], env=env,
                      check=False)
        assert p.returncode == 1
        lines = p.stderr.splitlines()
        assert len(lines) == 1 and "kernel tracing needs root" in lines[0], p.stderr
        assert "tracing' group" in lines[0] and "uid 65534" in lines[0]
        p = procs.run(nobody + [ltt, "list", "-k"], env=env, check=False)
        assert p.returncode == 1 and "kernel tracing needs root" in p.stderr
    finally:
        try:
            with open(os.path.join(home, "run", "sessiond.pid")) as f:
                pid = int(f.read())
            os.kill(pid, signal.SIGTERM)
            _wait_exit(pid)
        except (OSError, ValueError):
            pass
        shutil.rmtree(home, ignore_errors=True)
