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
