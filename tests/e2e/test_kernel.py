"""The kernel backend on tracefs, end to end.

kernel-record (tests/e2e/kernel-record.c) drives the library as a session
and consumer daemon would: instance, events, filters, uprobes, per-CPU
mapped reader, CTF conversion; kernel-workload is what it traces. Every
trace is read by babeltrace2, the oracle, field by field, and its CLI must
print nothing on stderr (the flood test excepted: there babeltrace2 rightly
warns about the discarded events).

Needs root and tracefs (mounted here if it is not); each test is skipped
with the reason otherwise. The autouse fixture `tracefs_clean`
(kernel_env.tracefs_unchanged) asserts that each test leaves tracefs
exactly as it found it.
"""
import json
import os
import subprocess

import pytest

from bt2read import babeltrace_text
from conftest import build_path
from kernel_env import (TRACEFS, WORKLOAD, check_file_syscalls, events_of, tracefs_unchanged,
                        work_report, workload)
from test_tracepoint_ctf import EXPECTED   # the events of one ust-emit-all round

RECORD = build_path("tests", "unit", "kernel", "kernel-record")


@pytest.fixture(autouse=True)
def tracefs_clean():
    yield from tracefs_unchanged()


def record(procs, out, *args, check=True, timeout=120):
    """Runs kernel-record; returns (summary dict or None, CompletedProcess)."""
    res = procs.run([RECORD, "-o", str(out), *args], timeout=timeout, check=False)
    if check and res.returncode != 0:
        raise AssertionError(f"kernel-record exited {res.returncode}:\n{res.stderr}")
    summary = json.loads(res.stdout) if res.returncode == 0 else None
    return summary, res


def test_sched_pingpong(procs, tmp_path):
    summary, _ = record(procs, tmp_path / "t", "--no-statedump", "-e", "sched_switch",
                        "-e", "sched:sched_wakeup", "-e", "sched_waking",
                        "-e", "sched_process_fork", "--",
                        *workload(tmp_path, "pingpong", "300"))
    w = work_report(tmp_path)
    ping, pong = w["ping_tid"], w["pong_tid"]
    assert summary["child_pid"] == w["pid"] == ping
    evs = events_of(tmp_path / "t")
    # pthread_create: a thread of the same process (LTTng's pid = tgid)
    fork = [e["fields"] for e in evs if e["name"] == "sched_process_fork"
            and e["fields"]["child_tid"] == pong]
    assert fork == [{"parent_comm": "ltt-ping", "parent_tid": ping, "parent_pid": ping,
                     "child_comm": "ltt-ping", "child_tid": pong, "child_pid": ping}]
    switches = [e for e in evs if e["name"] == "sched_switch"]
    assert switches
    assert set(switches[0]["fields"]) == {"prev_comm", "prev_tid", "prev_prio", "prev_state",
                                          "next_comm", "next_tid", "next_prio"}
    # every switch of our threads names them right (pong inherits ping's
    # name until its prctl(PR_SET_NAME), then keeps its own)
    pong_named = False
    for e in sorted(switches, key=lambda e: e["ns"]):
        f = e["fields"]
        for side in ("prev", "next"):
            if f[side + "_tid"] == pong:
                if pong_named:
                    assert f[side + "_comm"] == "ltt-pong"
                assert f[side + "_comm"] in ("ltt-pong", "ltt-ping")
                pong_named = pong_named or f[side + "_comm"] == "ltt-pong"
            if f[side + "_tid"] == ping and f[side + "_comm"] != "kernel-record":
                # before exec the child still has the recorder's name
                assert f[side + "_comm"] in ("ltt-ping", "kernel-workload")
    # on one CPU, ping can only write the next byte while pong is switched
    # out: pong leaves the CPU at least once per round (asleep in read(),
    # or preempted by the ping it woke); each sleep is ended by a wakeup
    rounds = w["rounds"]
    pong_all_out = [e for e in switches if e["fields"]["prev_tid"] == pong]
    # asleep (TASK_REPORT bits), not preempted: a preempted task's prev_state
    # carries only the kernel's TASK_REPORT_MAX flag, and needs no wakeup
    pong_out = [e for e in pong_all_out if e["fields"]["prev_state"] & 0x7f]
    pong_in = [e for e in switches if e["fields"]["next_tid"] == pong]
    assert rounds - 1 <= len(pong_all_out) <= rounds + 50
    assert abs(len(pong_in) - len(pong_all_out)) <= 1
    assert {e["cpu_id"] for e in pong_all_out} == {w["cpu"]}
    # and in each round one of them sleeps in read() until the other wakes it
    for name in ("sched_wakeup", "sched_waking"):
        wk = [e for e in evs if e["name"] == name and e["fields"]["tid"] in (ping, pong)]
        assert len(wk) >= rounds - 2, name
        assert len([e for e in wk if e["fields"]["tid"] == pong]) >= len(pong_out) - 1
        assert set(wk[0]["fields"]) == {"comm", "tid", "prio", "target_cpu"}
        named = [e for e in wk if e["fields"]["tid"] == pong]
        assert sum(e["fields"]["comm"] == "ltt-pong" for e in named) >= len(named) - 2
    # one time axis with user space: CLOCK_MONOTONIC, ns from the epoch
    assert all(a["ns"] <= b["ns"] for a, b in zip(switches, switches[1:])
               if a["cpu_id"] == b["cpu_id"])


def test_syscalls_of_a_program(procs, tmp_path):
    data = tmp_path / "known.txt"
    data.write_text("ltt kernel backend: 37 bytes of text\n")
    assert data.stat().st_size == 37
    record(procs, tmp_path / "t", "--no-statedump", "-S", "openat", "-S", "read",
           "-S", "write", "-S", "close", "--",
           *workload(tmp_path, "files", str(data)))
    check_file_syscalls(events_of(tmp_path / "t"), work_report(tmp_path))


def test_kernel_filter_next_tid(procs, tmp_path):
    record(procs, tmp_path / "t", "--no-statedump", "-e", "sched_switch",
           "-F", "next_tid == $CHILD", "--", *workload(tmp_path, "pingpong", "200"))
    w = work_report(tmp_path)
    sw = [e for e in events_of(tmp_path / "t") if e["name"] == "sched_switch"]
    assert len(sw) >= 50
    assert {e["fields"]["next_tid"] for e in sw} == {w["ping_tid"]}


def test_kernel_filter_refused(procs, tmp_path):
    # the kernel's grammar has the operators, but there is no field 'nope'
    _, res = record(procs, tmp_path / "t", "-e", "sched_switch", "-F", "next_tid == nope",
                    "--", "true", check=False)
    assert res.returncode == 1
    assert "kernel filter 'next_tid == nope' refused for sched:sched_switch" in res.stderr
    assert "parse_error" in res.stderr      # the kernel's own explanation
    assert not os.path.exists(tmp_path / "t" / "kernel" / "metadata")


def test_filter_beyond_the_kernel_grammar(procs, tmp_path):
    # LTTng's bitwise or: not an operator of the kernel's filters
    _, res = record(procs, tmp_path / "t", "-e", "sched_switch", "-F", "(next_tid | 1) == 3",
                    "--", "true", check=False)
    assert res.returncode == 1
    assert "the kernel has no operator '|'" in res.stderr


@pytest.mark.parametrize("mode,subbuf", [("mmap", "4096"), ("read", "4096"),
                                         ("mmap", "16384"), ("read", "16384")])
def test_uprobe_counts_every_call(procs, tmp_path, mode, subbuf):
    summary, _ = record(procs, tmp_path / "t", "--no-statedump", "-m", mode,
                        "-b", subbuf, "-n", "64",
                        "-u", WORKLOAD + ":ltt_workload_probe", "--",
                        *workload(tmp_path, "calls", "1234"))
    assert summary["reader"] == mode
    w = work_report(tmp_path)
    evs = [e for e in events_of(tmp_path / "t") if e["name"] == "ltt_workload_probe"]
    assert len(evs) == 1234 == w["calls"]
    assert {e["context"]["tid"] for e in evs} == {w["pid"]}
    assert summary["lost"] == 0


def test_function_tracing_refused_with_reason(procs, tmp_path):
    _, res = record(procs, tmp_path / "t", "--function", "do_sys_openat2", "--", "true",
                    check=False)
    if res.returncode == 0:
        pytest.skip("this kernel allows the function tracer")
    assert "function tracing of 'do_sys_openat2'" in res.stderr
    if "EPERM" in res.stderr:
        assert "lockdown" in res.stderr
    if not os.path.exists(os.path.join(TRACEFS, "kprobe_events")):
        assert "CONFIG_KPROBE_EVENTS" in res.stderr


@pytest.mark.parametrize("mode,policy", [("mmap", "discard"), ("read", "discard"),
                                         ("mmap", "overwrite"), ("read", "overwrite")])
def test_flood_discarded_equals_kernel_lost(procs, tmp_path, mode, policy):
    # discard: the kernel refuses new events ("dropped events");
    # overwrite: it overwrites the oldest ("overrun"); either way counted
    calls = 60000
    extra = ["--overwrite"] if policy == "overwrite" else []
    summary, _ = record(procs, tmp_path / "t", "--no-statedump", "-m", mode, *extra,
                        "-b", "4096", "-n", "2",
                        "-u", WORKLOAD + ":ltt_workload_probe", "--",
                        *workload(tmp_path, "calls", str(calls)))
    evs = events_of(tmp_path / "t", quiet=False)
    recorded = sum(1 for e in evs if e["name"] == "ltt_workload_probe")
    disc = [e["count"] for e in evs if e["name"] == "!discarded"]
    assert None not in disc, "babeltrace2 could not count some discarded events"
    assert summary["lost"] > 0, "a 8 KiB buffer per CPU should overflow"
    assert sum(disc) == summary["lost"] == sum(summary["lost_per_cpu"])
    assert recorded + sum(disc) == calls
    assert recorded == summary["records"]
    _, err = babeltrace_text(tmp_path / "t")
    assert "discarded" in err


def test_statedump_and_env(procs, tmp_path):
    summary, _ = record(procs, tmp_path / "t", "-e", "sched_process_exec",
                        "-e", "sched:sched_kthread_stop_ret", "--",
                        *workload(tmp_path, "calls", "1"))
    child = summary["child_pid"]
    evs = events_of(tmp_path / "t")
    names = [e["name"] for e in evs]
    assert names[0] == "lttng_statedump_start"
    assert "lttng_statedump_end" in names
    procs_ = [e for e in evs if e["name"] == "lttng_statedump_process_state"]
    assert set(procs_[0]["fields"]) == {"tid", "vtid", "pid", "vpid", "ppid", "vppid", "name",
                                        "type", "mode", "submode", "status", "cpu"}
    init = next(e["fields"] for e in procs_ if e["fields"]["tid"] == 1)
    assert init["pid"] == 1 and init["type"][1] == ("USER_THREAD",)
    mine = next(e["fields"] for e in procs_ if e["fields"]["tid"] == child)
    recorder = int(summary["instance"].rsplit("-", 1)[1])   # ltt-SESSION-PID
    assert mine["pid"] == child and mine["ppid"] == recorder
    assert mine["name"] == "kernel-record"  # forked, waiting to exec
    kthreads = [e for e in procs_ if e["fields"]["type"][1] == ("KERNEL_THREAD",)]
    assert kthreads
    fds = [e["fields"] for e in evs if e["name"] == "lttng_statedump_file_descriptor"]
    assert set(fds[0]) == {"pid", "fd", "flags", "fmode", "filename"}
    assert any(f["pid"] == child and f["fd"] == 0 for f in fds)
    exe = [e for e in evs if e["name"] == "sched_process_exec"
           and e["fields"]["tid"] == child]
    assert exe and exe[0]["fields"]["filename"] == WORKLOAD
    assert all(e["ns"] <= exe[0]["ns"] for e in procs_)
    # the env Trace Compass keys on
    import bt2
    it = bt2.TraceCollectionMessageIterator(str(tmp_path / "t"))
    for msg in it:
        if type(msg) is bt2._StreamBeginningMessageConst:
            env = msg.stream.trace.environment
            break
    un = os.uname()
    assert str(env["domain"]) == "kernel"
    assert str(env["tracer_name"]) == "lttng-modules"
    assert str(env["sysname"]) == un.sysname
    assert str(env["kernel_release"]) == un.release
    assert str(env["kernel_version"]) == un.version
    with open(tmp_path / "t" / "kernel" / "metadata") as f:
        meta = f.read()
    assert meta.startswith("/* CTF 1.8 */")
    assert 'name = "monotonic"' in meta or "name = monotonic" in meta
    # every enabled event is declared, fired or not
    assert 'name = "sched_kthread_stop_ret"' in meta
    assert "sched_kthread_stop_ret" not in names


def test_stale_instances_are_removed(procs, tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    path = os.path.join(TRACEFS, "instances", f"ltt-stale-{dead.pid}")
    os.mkdir(path)
    try:
        res = procs.run([RECORD, "--cleanup-stale"])
        assert json.loads(res.stdout)["removed"] >= 1
        assert not os.path.exists(path)
    finally:
        if os.path.exists(path):
            os.rmdir(path)


def test_listing(procs):
    sys_ = procs.run([RECORD, "--list-syscalls"]).stdout.split()
    assert "openat" in sys_ and "close" in sys_
    evs = procs.run([RECORD, "--list"]).stdout.split()
    assert "sched:sched_switch" in evs


def test_unknown_event_is_an_error(procs, tmp_path):
    _, res = record(procs, tmp_path / "t", "-e", "no_such_event_xyz", "--", "true",
                    check=False)
    assert res.returncode == 1
    assert "no kernel event matches 'no_such_event_xyz'" in res.stderr


def test_lttng_names_and_globs(procs, tmp_path):
    # irq_softirq_entry is irq:softirq_entry; 'timer_*' a bare glob
    summary, _ = record(procs, tmp_path / "t", "--no-statedump", "-e", "irq_softirq_*",
                        "-e", "timer:hrtimer_*", "-d", "0.3")
    evs = events_of(tmp_path / "t")
    names = {e["name"] for e in evs}
    assert names <= {"irq_softirq_entry", "irq_softirq_exit", "irq_softirq_raise",
                     "timer_hrtimer_init", "timer_hrtimer_start", "timer_hrtimer_cancel",
                     "timer_hrtimer_expire_entry", "timer_hrtimer_expire_exit",
                     "timer_hrtimer_setup"}
    soft = [e for e in evs if e["name"].startswith("irq_softirq_")]
    if soft:
        assert set(soft[0]["fields"]) == {"vec"}


EMIT = build_path("tests", "unit", "ust", "ust-emit-all")


def _clock_class(trace_dir):
    import bt2
    for msg in bt2.TraceCollectionMessageIterator(str(trace_dir)):
        if type(msg) is bt2._StreamBeginningMessageConst:
            return msg.stream.cls.default_clock_class


def test_user_and_kernel_share_the_tsc(ltt_env, procs, tmp_path):
    """A session on the TSC clock and a kernel instance on "x86-tsc" read the
    same counter: a program's kernel events (exec, exit) enclose its user
    events in cycles, and both traces declare the same clock."""
    user = tmp_path / "user"
    ltt_env.ltt("create", "s1", "--output", str(user))
    ltt_env.ltt("enable-event", "-u", "ltt_test:*")
    ltt_env.ltt("start")
    env = dict(ltt_env.env, LTT_UST_REGISTER_TIMEOUT="10000")
    res = procs.run([RECORD, "-o", str(tmp_path / "k"), "--clock", "tsc", "--no-statedump",
                     "-e", "sched_process_exec", "-e", "sched_process_exit", "--",
                     EMIT, "2"], env=env, timeout=120)
    child = json.loads(res.stdout)["child_pid"]
    ltt_env.ltt("stop")
    kernel = tmp_path / "k"
    ucls, kcls = _clock_class(user), _clock_class(kernel)
    if ucls.name != "tsc":
        pytest.skip("this machine's session clock is not the TSC")
    assert kcls.name == "tsc"
    assert ucls.uuid == kcls.uuid                    # one boot, one origin
    assert abs(ucls.frequency - kcls.frequency) < ucls.frequency * 20e-6
    uev = [e for e in events_of(user) if e["name"].startswith("ltt_test:")]
    kev = [e for e in events_of(kernel) if e["fields"].get("tid") == child]
    assert len(uev) == 2 * len(EXPECTED) and [e["name"] for e in kev] == ["sched_process_exec",
                                                                 "sched_process_exit"]
    assert kev[0]["cycles"] <= uev[0]["cycles"] <= uev[-1]["cycles"] <= kev[1]["cycles"]
    # babeltrace2 reads both as one (same clock uuid), without a word
    out, err = babeltrace_text(tmp_path / "user", str(kernel))
    assert err == "" and out.count("\n") == len(uev) + len(events_of(kernel))
