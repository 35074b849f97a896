"""`ltt analyze events` and `ltt analyze period` on hand-built traces whose
answers are known."""
import json
import subprocess

from conftest import build_path
import ctfgen

LTT = build_path("src", "cli", "ltt")

EVENTS = """
event { name = "req_start"; id = 1; stream_id = 0; fields := struct { uint32_t _id; }; };
event { name = "req_end"; id = 2; stream_id = 0; fields := struct { uint32_t _id; }; };
event { name = "tick"; id = 3; stream_id = 0; fields := struct { string _what; }; };
"""


def u32(v):
    return lambda b: b.uint(v, 32, 8)


def trace(tmp_path):
    s0 = ctfgen.packet([(1, 1000, u32(1)), (1, 1500, u32(2)), (2, 3000, u32(1)),
                        (2, 2001500, u32(2))], 0, 2001500, seq=0, cpu=0)
    s0 += ctfgen.packet([(3, 1500000000, lambda b: b.string("t")), (2, 1600000000, u32(99))],
                        1500000000, 1600000000, seq=1, discarded=3, cpu=0)
    s1 = ctfgen.packet([(1, 2000, u32(3)), (2, 2100, u32(3)), (1, 5000, u32(4))],
                       0, 5000, seq=0, cpu=1, instance=1)
    return ctfgen.write_trace(str(tmp_path / "t"), ctfgen.metadata(EVENTS, offset_s=0),
                              {"c_0": s0, "c_1": s1})


def analyze(*args):
    p = subprocess.run([LTT, "analyze", *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_events_counts(tmp_path):
    t = trace(tmp_path)
    r = json.loads(analyze("events", "--json", t))
    assert r["total"] == 9
    assert {n["name"]: n["count"] for n in r["names"]} == {"req_start": 4, "req_end": 4, "tick": 1}
    assert [(c["cpu"], c["count"]) for c in r["cpus"]] == [(0, 6), (1, 3)]
    assert r["per_second"] == [7, 2]
    assert r["discarded"] == [{"stream": "0/0", "count": 3}]
    assert abs(r["duration_s"] - (1600000000 - 1000) / 1e9) < 1e-9
    text = analyze("events", t)
    assert "9 events in 1.599999000 s" in text
    assert "req_start" in text and "25583" not in text


def test_period_keyed(tmp_path):
    r = json.loads(analyze("period", "--json", "--begin-event", "req_start",
                           "--end-event", "req_end", "--key", "id", trace(tmp_path)))
    assert r["count"] == 3
    assert (r["min_ns"], r["p50_ns"], r["p90_ns"], r["p99_ns"], r["max_ns"]) == \
        (100, 2000, 2000000, 2000000, 2000000)
    assert abs(r["mean_ns"] - (100 + 2000 + 2000000) / 3) < 0.01
    assert (r["unmatched_begin"], r["unmatched_end"]) == (1, 1)


def test_period_nested_without_key(tmp_path):
    r = json.loads(analyze("period", "--json", "--begin-event", "req_start",
                           "--end-event", "req_end", trace(tmp_path)))
    assert r["count"] == 4
    assert (r["min_ns"], r["max_ns"]) == (100, 1599999000)
    assert r["p50_ns"] == 1500
    assert (r["unmatched_begin"], r["unmatched_end"]) == (0, 0)


def test_period_needs_its_events(tmp_path):
    p = subprocess.run([LTT, "analyze", "period", trace(tmp_path)], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "--begin-event" in p.stderr


KERNEL = """
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
typealias integer { size = 64; align = 8; signed = true; } := int64_t;
event { name = "sched_switch"; id = 1; stream_id = 0; fields := struct {
	int32_t _prev_tid; int32_t _next_tid; }; };
event { name = "syscall_entry_openat"; id = 2; stream_id = 0; fields := struct { int32_t _dfd; }; };
event { name = "syscall_exit_openat"; id = 3; stream_id = 0; fields := struct { int64_t _ret; }; };
event { name = "syscall_entry_read"; id = 4; stream_id = 0; fields := struct { int32_t _fd; }; };
event { name = "syscall_exit_read"; id = 5; stream_id = 0; fields := struct { int64_t _ret; }; };
event { name = "irq_handler_entry"; id = 6; stream_id = 0; fields := struct { int32_t _irq; string _name; }; };
event { name = "irq_handler_exit"; id = 7; stream_id = 0; fields := struct { int32_t _irq; int32_t _ret; }; };
event { name = "irq_softirq_entry"; id = 8; stream_id = 0; fields := struct { int32_t _vec; }; };
event { name = "irq_softirq_exit"; id = 9; stream_id = 0; fields := struct { int32_t _vec; }; };
"""


def i32(*vals):
    def w(b):
        for v in vals:
            b.sint(v, 32, 8)
    return w


def i64(v):
    return lambda b: b.sint(v, 64, 8)


def kernel_trace(tmp_path):
    def irq(n, name):
        def w(b):
            b.sint(n, 32, 8)
            b.string(name)
        return w
    # CPU 0: thread 10 opens (100 ns, fails), is switched out in read; thread 20
    # runs read (50 ns) ; thread 10 comes back and its read ends (1000 ns total).
    c0 = ctfgen.packet([
        (1, 100, i32(0, 10)),
        (2, 200, i32(-100)), (3, 300, i64(-2)),
        (4, 400, i32(3)),
        (6, 450, irq(17, "eth0")), (7, 470, i32(17, 1)),
        (1, 500, i32(10, 20)),
        (4, 600, i32(4)), (5, 650, i64(10)),
        (1, 700, i32(20, 10)),
        (5, 1400, i64(4096)),
        (8, 1500, i32(3)), (9, 1530, i32(3)),
    ], 0, 1530, cpu=0)
    # CPU 1: an exit without entry, and one more irq 17
    c1 = ctfgen.packet([
        (1, 10, i32(0, 30)),
        (3, 20, i64(0)),
        (6, 100, irq(17, "eth0")), (7, 130, i32(17, 1)),
    ], 0, 130, cpu=1, instance=1)
    return ctfgen.write_trace(str(tmp_path / "k"), ctfgen.metadata(KERNEL, offset_s=0),
                              {"k_0": c0, "k_1": c1})


def test_syscalls(tmp_path):
    r = json.loads(analyze("syscalls", "--json", kernel_trace(tmp_path)))
    rows = {x["name"]: x for x in r["syscalls"]}
    assert rows["read"]["count"] == 2 and rows["read"]["min_ns"] == 50
    assert rows["read"]["max_ns"] == 1000 and rows["read"]["total_ns"] == 1050
    assert rows["openat"] == {"name": "openat", "count": 1, "errors": 1, "min_ns": 100,
                              "mean_ns": 100.0, "max_ns": 100, "total_ns": 100}
    assert [x["name"] for x in r["syscalls"]] == ["read", "openat"]
    assert r["unmatched"] == 1


def test_irq(tmp_path):
    r = json.loads(analyze("irq", "--json", kernel_trace(tmp_path)))
    rows = {x["name"]: x for x in r["irq"]}
    assert rows["irq 17 (eth0)"]["count"] == 2
    assert (rows["irq 17 (eth0)"]["min_ns"], rows["irq 17 (eth0)"]["max_ns"]) == (20, 30)
    assert rows["softirq 3"]["total_ns"] == 30
    assert "irq 17 (eth0)" in analyze("irq", kernel_trace(tmp_path))


SCHED = """
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
typealias integer { size = 8; align = 8; signed = false; encoding = UTF8; } := char;
event { name = "sched_switch"; id = 1; stream_id = 0; fields := struct {
	char _prev_comm[16]; int32_t _prev_tid; int32_t _prev_prio; int32_t _prev_state;
	char _next_comm[16]; int32_t _next_tid; int32_t _next_prio; }; };
event { name = "sched_wakeup"; id = 2; stream_id = 0; fields := struct {
	char _comm[16]; int32_t _tid; int32_t _prio; int32_t _target_cpu; }; };
"""


def sched_trace(tmp_path):
    def comm(b, s):
        b.raw(s.encode().ljust(16, b"\0"))

    def switch(pc, pt, nc, nt):
        def w(b):
            comm(b, pc)
            b.sint(pt, 32, 8)
            b.sint(120, 32, 8)
            b.sint(0, 32, 8)
            comm(b, nc)
            b.sint(nt, 32, 8)
            b.sint(120, 32, 8)
        return w

    def wakeup(c, t):
        def w(b):
            comm(b, c)
            b.sint(t, 32, 8)
            b.sint(120, 32, 8)
            b.sint(0, 32, 8)
        return w
    c0 = ctfgen.packet([
        (1, 100, switch("swapper", 0, "app", 10)),
        (2, 150, wakeup("worker", 20)),
        (2, 160, wakeup("worker", 20)),          # already runnable: ignored
        (1, 400, switch("app", 10, "worker", 20)),   # worker waited 250 ns; app ran 300
        (2, 450, wakeup("app", 10)),
        (1, 500, switch("worker", 20, "app", 10)),   # app waited 50; worker ran 100
        (1, 1500, switch("app", 10, "swapper", 0)),  # app ran 1000
    ], 0, 1500, cpu=0)
    return ctfgen.write_trace(str(tmp_path / "s"), ctfgen.metadata(SCHED, offset_s=0),
                              {"s_0": c0})


def test_sched_latency(tmp_path):
    r = json.loads(analyze("sched-latency", "--json", sched_trace(tmp_path)))
    rows = {x["name"]: x for x in r["sched-latency"]}
    assert rows["worker"]["count"] == 1 and rows["worker"]["max_ns"] == 250
    assert rows["app"]["count"] == 1 and rows["app"]["min_ns"] == 50


def test_process(tmp_path):
    r = json.loads(analyze("process", "--json", sched_trace(tmp_path)))
    rows = {x["name"]: x for x in r["process"]}
    assert rows["app (10)"]["total_ns"] == 1300 and rows["app (10)"]["errors"] == 2
    assert rows["worker (20)"]["total_ns"] == 100
    assert [x["name"] for x in r["process"]][0] == "app (10)"
