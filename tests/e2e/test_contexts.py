"""Context fields end to end (`ltt add-context`): real daemons, threads of
tests/e2e/ust-ctx-app.c, the trace read by babeltrace2, each value checked
against what the process itself says (its pid and tids, its name, its
namespaces, its ids, its packets' CPU)."""
import os
import subprocess
from collections import defaultdict

from bt2read import babeltrace_text, read_events
from conftest import build_path

APP = build_path("tests", "unit", "ust", "ust-ctx-app")
APP_ENV = {"LTT_UST_REGISTER_TIMEOUT": "10000"}
NAMESPACES = ["cgroup_ns", "ipc_ns", "mnt_ns", "net_ns", "pid_ns", "time_ns", "user_ns",
              "uts_ns"]
IDS = ["vuid", "veuid", "vsuid", "vgid", "vegid", "vsgid"]
PERF = ["perf:thread:task-clock", "perf:thread:context-switches", "perf:thread:page-fault"]
TYPES = ["vpid", "vtid", "pid", "tid", "procname", "ip", "pthread_id", "cpu_id",
         *NAMESPACES, *IDS, *PERF]


def field_name(t):
    return t.replace(":", "_").replace("-", "_")


def printed_tids(out):
    """The (pid, tid) pairs the app printed."""
    return {(int(l.split()[1]), int(l.split()[2])) for l in out.splitlines()
            if l.startswith("tid ")}


def run_app(ltt_env, procs, *args):
    """Runs the app to its end; returns (pid, tids, its code's address range)."""
    out = procs.run([APP, *args], env=dict(ltt_env.env, **APP_ENV)).stdout
    pid = int(next(l.split()[1] for l in out.splitlines() if l.startswith("pid ")))
    text = next(l.split()[1:] for l in out.splitlines() if l.startswith("text "))
    return pid, {t for _, t in printed_tids(out)}, range(int(text[0]), int(text[1]))


def start(ltt_env, tmp_path, types):
    """Session s1 recording ctxtest:* with the context types, started; its output."""
    out = tmp_path / "trace"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("add-context", "-u", *[a for t in types for a in ("-t", t)])
    ltt_env.ltt("enable-event", "-u", "ctxtest:*")
    ltt_env.ltt("start")
    return out


def record(ltt_env, procs, tmp_path, types, app_args):
    out = start(ltt_env, tmp_path, types)
    pid, tids, text = run_app(ltt_env, procs, *app_args)
    ltt_env.ltt("stop")
    return out, pid, tids, text


def kernel_counting_allowed():
    with open("/proc/sys/kernel/perf_event_paranoid") as f:
        return os.geteuid() == 0 or int(f.read()) < 2


def test_every_user_space_context_has_the_right_value(ltt_env, procs, tmp_path):
    out, pid, tids, text = record(ltt_env, procs, tmp_path, TYPES,
                            ["--name", "ctxworker", "--faults", "3", "40"])
    listing = ltt_env.ltt("list", "s1").stdout
    assert "    Context fields:\n" + "".join(f"      {t}\n" for t in TYPES) in listing
    evs = read_events(out)
    assert len(evs) == 3 * 40 and len(tids) == 3
    ns = {n: os.stat(f"/proc/self/ns/{n[:-3]}").st_ino for n in NAMESPACES
          if os.path.exists(f"/proc/self/ns/{n[:-3]}")}
    ids = dict(zip(["vuid", "veuid", "vsuid"], os.getresuid()))
    ids.update(zip(["vgid", "vegid", "vsgid"], os.getresgid()))
    per_thread = defaultdict(list)
    for e in evs:
        ctx = e["context"]
        assert list(ctx) == [field_name(t) for t in TYPES]
        assert ctx["vpid"] == ctx["pid"] == pid
        assert ctx["vtid"] == ctx["tid"] == e["fields"]["tid"]
        assert ctx["procname"] == "ctxworker"
        assert ctx["cpu_id"] == e["cpu_id"]          # the packet's CPU
        for n in NAMESPACES:
            assert ctx[n] == ns.get(n, 0), n
        for i in IDS:
            assert ctx[i] == ids[i], i
        per_thread[ctx["vtid"]].append(e)
    assert set(per_thread) == tids
    # one call site, in the program's code
    assert len({e["context"]["ip"] for e in evs}) == 1 and evs[0]["context"]["ip"] in text
    pthread_ids = set()
    for tid, seq in per_thread.items():
        seq.sort(key=lambda e: e["fields"]["seq"])
        assert [e["fields"]["seq"] for e in seq] == list(range(40))
        assert len({e["context"]["pthread_id"] for e in seq}) == 1
        pthread_ids.add(seq[0]["context"]["pthread_id"])
        for name in map(field_name, PERF):
            values = [e["context"][name] for e in seq]
            assert values == sorted(values), f"{name} of thread {tid} goes back: {values}"
        clock = [e["context"]["perf_thread_task_clock"] for e in seq]
        faults = [e["context"]["perf_thread_page_fault"] for e in seq]
        switches = [e["context"]["perf_thread_context_switches"] for e in seq]
        assert clock[-1] > clock[0] > 0
        # a new page is touched before each tick: at least one fault between two
        assert all(b > a for a, b in zip(faults, faults[1:])), faults
        if kernel_counting_allowed():
            # and a 20 µs sleep, which switches out unless its timer fired before the
            # thread could block (seen under TSan on a busy VM): a switch in nearly
            # every interval, the values never going back (checked above)
            grew = sum(b > a for a, b in zip(switches, switches[1:]))
            assert grew >= 0.9 * (len(switches) - 1), switches
    assert len(pthread_ids) == 3
    _, err = babeltrace_text(out)
    assert err == ""


def test_filters_on_context_fields_of_a_channel_with_contexts(ltt_env, procs, tmp_path):
    out = tmp_path / "trace"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("add-context", "-u", "-t", "vtid,procname")
    ltt_env.ltt("enable-event", "-u", "ctxtest:tick", "--filter",
                '$ctx.vtid == tid && $ctx.procname == "keep*"')
    ltt_env.ltt("enable-channel", "-u", "never")
    ltt_env.ltt("enable-event", "-u", "-c", "never", "ctxtest:tick", "--filter",
                "$ctx.vtid != tid")
    ltt_env.ltt("start")
    _, kept, _ = run_app(ltt_env, procs, "--name", "keepme", "2", "25")
    run_app(ltt_env, procs, "--name", "dropme", "2", "25")
    ltt_env.ltt("stop")
    evs = read_events(out)
    assert {e["context"]["vtid"] for e in evs} == kept and len(evs) == 50
    assert all(e["context"]["procname"] == "keepme" and e["stream_id"] == 0 for e in evs)


def test_a_forked_child_records_its_own_ids(ltt_env, procs, tmp_path):
    """The parent cached its pid and its main thread's tid before forking."""
    out = start(ltt_env, tmp_path, ["vpid", "vtid"])
    p = procs.run([APP, "--main", "--fork", "2", "5"], env=dict(ltt_env.env, **APP_ENV))
    ltt_env.ltt("stop")
    pairs = printed_tids(p.stdout)
    evs = read_events(out)
    assert len({pid for pid, _ in pairs}) == 2 and len(pairs) == 2 + 2 * 2
    assert {(e["context"]["vpid"], e["context"]["vtid"]) for e in evs} == pairs
    assert all(e["context"]["vtid"] == e["fields"]["tid"] for e in evs)
    assert len(evs) == 1 + 2 * (1 + 2 * 5 + 1)    # + the ticks of each main thread


def test_a_thread_renamed_is_seen_from_the_next_start(ltt_env, procs, tmp_path):
    """procname is cached per thread and read again at each state change."""
    out = start(ltt_env, tmp_path, ["vtid", "procname"])
    app = procs.popen([APP, "--main", "--name", "first", "--rename", "second", "--phases", "2",
                       "1", "2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                      env=dict(ltt_env.env, **APP_ENV))
    app.stdin.write("go\n")
    app.stdin.flush()
    pid = int(app.stdout.readline().split()[1])
    while not app.stdout.readline().startswith("phase 1 done"):
        pass
    ltt_env.ltt("stop")
    ltt_env.ltt("start")
    app.communicate("go\n", timeout=60)    # renamed, then phase 2
    assert app.returncode == 0
    ltt_env.ltt("stop")
    main = [e for e in read_events(out) if e["context"]["vtid"] == pid]
    assert [(e["fields"]["phase"], e["context"]["procname"]) for e in main] == \
        [(0, "first"), (1, "first"), (2, "second")]


def test_add_context_lists_the_types(ltt_env):
    every = ltt_env.ltt("add-context", "--list").stdout.split()
    user = ltt_env.ltt("add-context", "--list", "-u").stdout.split()
    kernel = ltt_env.ltt("add-context", "--list", "-k").stdout.split()
    assert set(TYPES) <= set(user) and "prio" not in user and "perf:cpu:cpu-cycles" not in user
    assert {"prio", "nice", "ppid", "perf:cpu:cpu-cycles", "vpid"} <= set(kernel)
    assert "cpu_id" in kernel and set(every) == set(user) | set(kernel)
