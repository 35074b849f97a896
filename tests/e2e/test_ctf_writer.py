"""The CTF writer, checked field by field with babeltrace2.

ctf-sample-writer (tests/e2e/ctf-sample-writer.c) writes a trace with one
event class per field type, extreme values, two compact-header streams (two
CPUs) and a large-header stream, several packets each, discarded events,
ids and timestamp gaps that need the extended event header; it prints what
a reader must find as JSON. babeltrace2 must read exactly that.
"""
import json
import math
import os
import struct

import bt2
import pytest

from bt2read import babeltrace_text, read_events
from conftest import build_path

WRITER = build_path("tests", "unit", "common", "ctf", "ctf-sample-writer")


def write_trace(procs, path, *args):
    res = procs.run([WRITER, str(path), *args], timeout=60)
    return json.loads(res.stdout)


def same(got, exp):
    """Equality where NaN equals NaN and -0.0 differs from 0.0."""
    if isinstance(exp, float):
        if not isinstance(got, float):
            return False
        if math.isnan(exp):
            return math.isnan(got)
        return got == exp and math.copysign(1, got) == math.copysign(1, exp)
    if isinstance(exp, dict):
        return (isinstance(got, dict) and got.keys() == exp.keys()
                and all(same(got[k], exp[k]) for k in exp))
    if isinstance(exp, list) and len(exp) == 2 and isinstance(exp[1], list) \
            and isinstance(got, tuple):
        # enum: [value, [labels]] vs (value, (labels...))
        return got == (exp[0], tuple(sorted(exp[1])))
    if isinstance(exp, list):
        return (isinstance(got, list) and len(got) == len(exp)
                and all(same(g, e) for g, e in zip(got, exp)))
    return type(got) is type(exp) and got == exp


def stream_messages(trace):
    """Events and discarded-events messages in order, each with the key
    (stream class id, stream id = stream_instance_id = cpu) of its stream."""
    out = []
    for msg in bt2.TraceCollectionMessageIterator(str(trace)):
        if type(msg) is bt2._DiscardedEventsMessageConst:
            out.append({"discarded": msg.count,
                        "key": (msg.stream.cls.id, msg.stream.id),
                        "begin": msg.beginning_default_clock_snapshot.value,
                        "end": msg.end_default_clock_snapshot.value})
        elif type(msg) is bt2._EventMessageConst:
            out.append({"name": msg.event.name,
                        "key": (msg.event.stream.cls.id, msg.event.stream.id),
                        "cycles": msg.default_clock_snapshot.value})
    return out


def check_events(trace, expected):
    got = [e for e in read_events(trace) if e["name"] != "!discarded"]
    exp = expected["events"]
    assert len(got) == len(exp)
    for i, (g, e) in enumerate(zip(got, exp)):
        where = f"event {i} ({e['name']} at {e['cycles']})"
        assert g["name"] == e["name"], where
        assert g["stream_id"] == e["stream_id"], where
        assert g["cpu_id"] == e["cpu_id"], where
        assert g["cycles"] == e["cycles"], where
        assert g["ns"] == e["ns"], where
        assert same(g["context"], e["context"]), f"{where}: {g['context']} != {e['context']}"
        assert same(g["fields"], e["fields"]), f"{where}: {g['fields']} != {e['fields']}"


@pytest.mark.parametrize("form", [["text"], ["packetized"], ["packetized", "be"]],
                         ids=["text", "packetized", "big-endian"])
def test_every_value_and_timestamp_reads_back(procs, tmp_path, form):
    trace = tmp_path / "trace"
    expected = write_trace(procs, trace, *form)
    check_events(trace, expected)
    # events_discarded, per event: babeltrace2 turns the packet's cumulative
    # count into discarded-events messages before the packet's first event,
    # so the running sum per stream must be what the writer had counted.
    running = {}
    exp = iter(expected["events"])
    for m in stream_messages(trace):
        if "discarded" in m:
            running[m["key"]] = running.get(m["key"], 0) + m["discarded"]
            continue
        e = next(exp)
        assert m["key"] == (e["stream_id"], e["cpu_id"])
        assert running.get(m["key"], 0) == e["events_discarded"], e
    names = {e["name"] for e in expected["events"]}
    # The escapes this trace is built to exercise are all present.
    assert {"sample:id_above_30", "sample:after_gap", "large:id_70000"} <= names
    assert len({(e["stream_id"], e["cpu_id"]) for e in expected["events"]}) == 3


def test_discarded_events_are_reported_per_stream(procs, tmp_path):
    trace = tmp_path / "trace"
    expected = write_trace(procs, trace)
    got = {}
    for m in stream_messages(trace):
        if "discarded" in m:
            got.setdefault("%d/%d" % m["key"], []).append(m["discarded"])
    assert got == {"0/0": [5], "0/1": [1000000, 7], "1/0": [2]}
    assert {k: sum(v) for k, v in got.items()} == expected["discarded"]


def test_babeltrace_cli_prints_no_warning(procs, tmp_path):
    clean = tmp_path / "clean"
    write_trace(procs, clean, "nodiscard")
    out, err = babeltrace_text(clean)
    assert err == ""
    assert "sample:after_gap" in out and "large:id_70000" in out

    # With discarded events, the only stderr lines are babeltrace2's reports
    # of them, one per packet that reports new discards.
    lossy = tmp_path / "lossy"
    write_trace(procs, lossy)
    out, err = babeltrace_text(lossy)
    reports = [l for l in err.splitlines() if l.startswith("WARNING: Tracer discarded")]
    others = [l for l in err.splitlines()
              if l.strip() and not l.startswith("WARNING: Tracer discarded")
              and not l.startswith(" ")]
    assert others == []
    assert sorted(int(l.split()[3]) for l in reports) == [2, 5, 7, 1000000]


def test_metadata_forms(procs, tmp_path):
    text, pk = tmp_path / "text", tmp_path / "pk"
    write_trace(procs, text, "text")
    write_trace(procs, pk, "packetized")
    plain = (text / "metadata").read_bytes()
    assert plain.startswith(b"/* CTF 1.8 */\n")
    raw = (pk / "metadata").read_bytes()
    assert len(raw) % 4096 == 0
    body = b""
    for off in range(0, len(raw), 4096):
        magic, = struct.unpack_from("<I", raw, off)
        assert magic == 0x75D11D57
        uuid = raw[off + 4:off + 20]
        checksum, content, packet = struct.unpack_from("<III", raw, off + 20)
        assert (checksum, packet) == (0, 4096 * 8)
        assert tuple(raw[off + 32:off + 37]) == (0, 0, 0, 1, 8)
        body += raw[off + 37:off + content // 8]
        assert raw[off + content // 8:off + 4096].strip(b"\0") == b""
    assert body == plain
    assert uuid == bytes.fromhex("4c54542d6374662d73616d706c650001")
    # babeltrace2 decodes the packetized form to the same text.
    out, err = babeltrace_text(pk, "-o", "ctf-metadata")
    assert err == ""
    assert out.strip() == plain.decode().strip()


def test_index_matches_packets(procs, tmp_path):
    trace = tmp_path / "trace"
    write_trace(procs, trace)
    msgs = stream_messages(trace)
    for name, sc, cpu, psize in (("channel0_0", 0, 0, 2048), ("channel0_1", 0, 1, 2048),
                                 ("channel1_0", 1, 0, 512)):
        idx = (trace / "index" / (name + ".idx")).read_bytes()
        assert struct.unpack_from(">IIII", idx) == (0xC1F1DCC1, 1, 1, 72)
        assert (len(idx) - 16) % 72 == 0
        entries = [struct.unpack_from(">9Q", idx, o) for o in range(16, len(idx), 72)]
        assert os.path.getsize(trace / name) == len(entries) * psize
        assert len(entries) >= 2
        for seq, (off, pbits, cbits, tb, te, disc, sid, inst, pseq) in enumerate(entries):
            assert (off, pbits, sid, inst, pseq) == (seq * psize, psize * 8, sc, cpu, seq)
            assert cbits <= pbits and tb <= te
            if seq:
                assert tb >= entries[seq - 1][4] and disc >= entries[seq - 1][5]
        # Each event lies within a packet, in packet order.
        mine = [m for m in msgs if m["key"] == (sc, cpu)]
        p = 0
        for m in mine:
            if "discarded" in m:
                continue
            while not entries[p][3] <= m["cycles"] <= entries[p][4]:
                p += 1
        # A discarded-events message per packet whose count grew, spanning
        # from the previous packet's end to this packet's end.
        want = [(entries[i][5] - entries[i - 1][5], entries[i - 1][4], entries[i][4])
                for i in range(1, len(entries)) if entries[i][5] > entries[i - 1][5]]
        if entries[0][5]:
            want.insert(0, (entries[0][5], None, entries[0][4]))
        got = [(m["discarded"], m["begin"], m["end"]) for m in mine if "discarded" in m]
        assert got == want
    # Nothing is left under a temporary name.
    assert [p for p in trace.rglob(".*")] == []
