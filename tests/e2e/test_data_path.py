"""The userspace data path without the daemons: writer threads record CTF
events through the ring buffer while a consumer drains it into a trace
directory (tests/e2e/ringbuf-record.c); babeltrace2 is the oracle.
Nothing is lost silently: recorded + discarded == emitted, exactly. Each
way a channel can be: atomic with the monotonic clock or with the TSC, and
rseq (the writers hopping between CPUs while they write)."""
import json
from collections import defaultdict

import pytest

from bt2read import babeltrace_text, read_events
from conftest import build_path

RECORD = build_path("src", "consumerd", "ringbuf-record")


MODES = ["discard", "tsc", "rseq"]


def record(procs, tmp_path, threads, events, subbuf, nsub, mode="discard"):
    out = procs.run([RECORD, str(tmp_path / "trace"), str(threads), str(events), str(subbuf),
                     str(nsub), mode], timeout=120, check=False)
    if out.returncode == 77:
        pytest.skip(out.stderr.strip())
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout), tmp_path / "trace"


@pytest.mark.parametrize("mode", MODES)
def test_lossless_with_big_buffers(procs, tmp_path, mode):
    stats, trace = record(procs, tmp_path, threads=2, events=20000, subbuf=1 << 20, nsub=8,
                          mode=mode)
    assert stats["refused"] == [0, 0]
    evs = read_events(trace)
    assert not [e for e in evs if e["name"] == "!discarded"]
    seqs = defaultdict(list)
    last_ns = {}
    for e in evs:
        assert e["name"] == "ltt_test:record"
        seqs[e["fields"]["writer"]].append(e["fields"]["seq"])
        # each stream (CPU buffer) is in timestamp order
        assert e["ns"] >= last_ns.get(e["cpu_id"], 0)
        last_ns[e["cpu_id"]] = e["ns"]
    # every event of every writer, once, in the writer's order
    assert {w: s for w, s in seqs.items()} == {w: list(range(20000)) for w in (0, 1)}
    out, err = babeltrace_text(trace)
    assert err == ""
    assert out.count("\n") == 40000


@pytest.mark.parametrize("mode", MODES)
def test_exact_accounting_when_the_consumer_falls_behind(procs, tmp_path, mode):
    stats, trace = record(procs, tmp_path, threads=2, events=100000, subbuf=4096, nsub=2,
                          mode=mode)
    emitted, refused = sum(stats["emitted"]), sum(stats["refused"])
    assert refused > 0, "the buffers were expected to overflow"
    evs = read_events(trace)
    recorded = sum(1 for e in evs if e["name"] != "!discarded")
    discarded = sum(e["count"] for e in evs if e["name"] == "!discarded")
    assert recorded == emitted - refused
    assert discarded == refused
    assert recorded + discarded == emitted
    # what was recorded of each writer is in order, without duplicates
    last = {}
    for e in evs:
        if e["name"] == "!discarded":
            continue
        w, s = e["fields"]["writer"], e["fields"]["seq"]
        assert s > last.get(w, -1)
        last[w] = s
    _, err = babeltrace_text(trace)
    assert all(line.startswith("WARNING: Tracer discarded") for line in err.splitlines())
