"""Reading traces with babeltrace2, the oracle.

read_events(path) decodes a trace with the bt2 Python bindings into plain
Python values; read_losses(path) lists what babeltrace2 says was lost;
babeltrace_text(path, *args) runs the babeltrace2 CLI;
assert_view_as_babeltrace2() compares `ltt view` with it.
"""
import subprocess

import bt2


def _value(field):
    """A bt2 field as a plain Python value (dicts for structures)."""
    if isinstance(field, bt2._StringFieldConst):
        return str(field)
    if isinstance(field, bt2._EnumerationFieldConst):
        return (int(field), tuple(sorted(field.labels)))
    if isinstance(field, (bt2._SignedIntegerFieldConst, bt2._UnsignedIntegerFieldConst)):
        return int(field)
    if isinstance(field, bt2._RealFieldConst):
        return float(field)
    if isinstance(field, bt2._StructureFieldConst):
        return {k: _value(v) for k, v in field.items()}
    if isinstance(field, bt2._ArrayFieldConst):
        return [_value(v) for v in field]
    if isinstance(field, bt2._VariantFieldConst):
        return _value(field.selected_option)
    if isinstance(field, bt2._BoolFieldConst):
        return bool(field)
    raise TypeError(f"unhandled field type {type(field)}")


def read_events(path):
    """Every event of the trace at path, in time order, as dicts:
    name, ns (ns from origin), cycles, stream_id, cpu_id, fields (payload),
    context (event common context or None), packet (packet context).
    Discarded-events messages are returned too, as dicts with name
    '!discarded' and count."""
    out = []
    for msg in bt2.TraceCollectionMessageIterator(str(path)):
        if type(msg) is bt2._DiscardedEventsMessageConst:
            out.append({"name": "!discarded", "count": msg.count,
                        "stream_id": msg.stream.cls.id})
            continue
        if type(msg) is not bt2._EventMessageConst:
            continue
        ev = msg.event
        cs = msg.default_clock_snapshot
        pkt = ev.packet.context_field if ev.packet is not None else None
        out.append({
            "name": ev.name,
            "ns": cs.ns_from_origin,
            "cycles": cs.value,
            "stream_id": ev.stream.cls.id,
            "cpu_id": int(pkt["cpu_id"]) if pkt is not None and "cpu_id" in pkt else None,
            "fields": _value(ev.payload_field) if ev.payload_field is not None else {},
            "context": _value(ev.common_context_field) if ev.common_context_field is not None else None,
            "packet": _value(pkt) if pkt is not None else None,
        })
    return out


def read_losses(path):
    """What babeltrace2 reports as lost in the trace at path: a list of
    (kind, count, begin_ns, end_ns, stream_name) with kind "events" or
    "packets"; count None when babeltrace2 cannot tell how many."""
    out = []
    kinds = {bt2._DiscardedEventsMessageConst: "events",
             bt2._DiscardedPacketsMessageConst: "packets"}
    for msg in bt2.TraceCollectionMessageIterator(str(path)):
        kind = kinds.get(type(msg))
        if kind is None:
            continue
        cls = msg.stream.cls
        has_times = (cls.discarded_events_have_default_clock_snapshots if kind == "events"
                     else cls.discarded_packets_have_default_clock_snapshots)
        out.append((kind, msg.count,
                    msg.beginning_default_clock_snapshot.ns_from_origin if has_times else None,
                    msg.end_default_clock_snapshot.ns_from_origin if has_times else None,
                    msg.stream.name))
    return out


def babeltrace_text(path, *args):
    """(stdout, stderr) of `babeltrace2 [args] path`; raises if it fails."""
    p = subprocess.run(["babeltrace2", *args, str(path)], capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0:
        raise AssertionError(f"babeltrace2 exited {p.returncode}:\n{p.stderr}")
    return p.stdout, p.stderr


def assert_view_as_babeltrace2(ltt, path, opts, lines):
    """`ltt view OPTS path` prints what `babeltrace2 OPTS path` prints, on
    stdout (`lines` lines) and stderr, byte for byte."""
    out, err = babeltrace_text(path, *opts)
    got = subprocess.run([ltt, "view", *opts, str(path)], capture_output=True, text=True,
                         timeout=300)
    assert got.returncode == 0, got.stderr
    assert out.count("\n") == lines
    assert got.stdout == out
    assert got.stderr == err
