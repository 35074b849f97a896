"""`ltt view` on hand-built CTF traces: corner cases compared with babeltrace2,
and corrupt inputs that must give one clear error and a non-zero exit."""
import json
import os
import resource
import struct
import subprocess

import pytest

from conftest import build_path
from bt2read import assert_view_as_babeltrace2, babeltrace_text
import ctfgen

LTT = build_path("src", "cli", "ltt")

EVENTS = """
typealias integer { size = 3; align = 1; signed = true; } := int3_t;
typealias integer { size = 5; align = 1; signed = false; base = 2; } := bin5_t;
typealias integer { size = 8; align = 8; signed = true; base = 8; } := oct8_t;
typealias integer { size = 12; align = 1; signed = true; base = 16; } := hex12_t;
typealias integer { size = 16; align = 8; signed = true; byte_order = be; } := be16_t;
typealias integer { size = 32; align = 32; signed = true; } := int32_t;
typealias floating_point { exp_dig = 8; mant_dig = 24; align = 32; } := float;
typealias floating_point { exp_dig = 11; mant_dig = 53; align = 64; } := double;
typealias integer { size = 8; align = 8; signed = false; encoding = UTF8; } := char;

enum kind : int32_t { NEG = -5 ... -1, ZERO = 0, "ONE or TWO" = 1 ... 2, TWO = 2, NEXT };

event {
	name = "bits";
	id = 0;
	stream_id = 0;
	loglevel = 6;
	model.emf.uri = "http://example.com/bits";
	fields := struct {
		int3_t _small;
		bin5_t _bin;
		oct8_t _oct;
		hex12_t _hex;
		be16_t _be;
		enum kind _kind;
		float _f;
		double _d;
	};
};

event {
	name = "compound";
	id = 40;
	stream_id = 0;
	fields := struct {
		uint8_t _n;
		string _names[_n];
		struct { uint16_t a; int32_t b; } _pairs[2];
		char _text[6];
		enum : uint8_t { A, B } _sel;
		variant <_sel> { uint32_t A; string B; } _var;
		uint8_t _len;
		int3_t _bits[_len];
	};
};
"""


def bits_event(small, b5, oct8, hex12, be16, kind, f, d):
    def w(b):
        b.align(64)                # the payload struct's alignment (its double)
        b.sint(small, 3)
        b.uint(b5, 5)
        b.sint(oct8, 8, 8)
        b.sint(hex12, 12)
        b.be(be16, 2)
        b.sint(kind, 32, 32)
        b.f32(f)
        b.f64(d)
    return w


def compound_event(names, pairs, text, sel, var, bits):
    def w(b):
        b.align(32)                # the payload struct's alignment (pairs' int32_t)
        b.uint(len(names), 8, 8)
        for n in names:
            b.string(n)
        for a, c in pairs:
            b.align(32)            # the struct's alignment: its int32_t's
            b.uint(a, 16, 8)
            b.sint(c, 32, 32)
        b.raw(text)
        b.uint(sel, 8, 8)
        if sel == 0:
            b.uint(var, 32, 8)
        else:
            b.string(var)
        b.uint(len(bits), 8, 8)
        for x in bits:
            b.sint(x, 3)
    return w


def good_streams(header="compact"):
    """Two streams; header: the event header lttng-ust writes with few event
    classes ("compact") or many ("large"). Either way both options of the
    header's variant occur, and its clock field wraps between events."""
    # clock: 27-bit timestamps wrap between events (the reader must carry)
    p0 = ctfgen.packet([
        (0, 5, bits_event(-4, 0b10110, -1, -2048, -2, -3, 1.5, -0.1)),
        (0, (1 << 27) - 10, bits_event(3, 1, 127, 2047, 32767, 0, 3.4e38, 1e-300)),
        (40, (1 << 27) + 20, compound_event(["a", "b\\c", "\t"], [(1, -1), (65535, 2**31 - 1)],
                                b"ab\0cd\0", 1, "opt B", [-4, -1, 0, 3])),
        (0, (1 << 27) + (1 << 26), bits_event(0, 0, 0, 0, 0, 2, 0.0, 1e6)),
    ], ts_begin=0, ts_end=(1 << 27) + (1 << 26), seq=0, cpu=3, header=header)
    p1 = ctfgen.packet([
        (40, (1 << 27) + (1 << 26) + 100,
         compound_event([], [(0, 0), (7, -7)], b"hello!", 0, 4000000000, [])),
        (0, 1 << 30, bits_event(1, 31, -128, 1, 1, 99, float("inf"), float("nan"))),
    ], ts_begin=(1 << 27) + (1 << 26) + 50, ts_end=1 << 30, seq=1, discarded=4, cpu=3,
        header=header)
    last = [(0, (1 << 30) + 7, bits_event(-1, 2, 8, -1, -32768, -5, -2.5, 123.456))]
    if header == "large":
        # 32-bit timestamps: one that wraps, then one too far for them (extended)
        last += [(40, (1 << 32) + 3, compound_event(["w"], [(1, 1), (2, 2)], b"wrap\0\0",
                                                    0, 5, [2])),
                 (0, (1 << 34) + 1, bits_event(0, 1, 2, 3, 4, 2, 1.0, 2.0))]
    p2 = ctfgen.packet(last, ts_begin=(1 << 30) + 5, ts_end=last[-1][1] + 2, seq=3, discarded=4,
                       cpu=3, pad_to=4096, header=header)
    # a second stream, on another CPU, interleaved in time
    q0 = ctfgen.packet([
        (0, 5, bits_event(2, 3, 4, 5, 6, 1, 2.0, 2.0)),
        (40, 30, compound_event(["only"], [(2, 2), (3, 3)], b"xyzxyz", 0, 1, [1])),
    ], ts_begin=0, ts_end=40, seq=0, cpu=1, instance=1, header=header)
    return {"chan_0": p0 + p1 + p2, "chan_1": q0}


def make(tmp_path, meta=None, streams=None, name="trace"):
    return ctfgen.write_trace(str(tmp_path / name), meta or ctfgen.metadata(EVENTS),
                              streams if streams is not None else good_streams())


def ltt(*args):
    return subprocess.run([LTT, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("opts", [[], ["--no-delta"], ["-n", "all", "-f", "all"],
                                  ["--clock-cycles"], ["--clock-seconds"]],
                         ids=lambda o: " ".join(o) or "default")
def test_corner_cases_identical_to_babeltrace2(tmp_path, opts):
    path = make(tmp_path)
    assert_view_as_babeltrace2(LTT, path, opts, 9)


@pytest.mark.parametrize("opts", [[], ["--clock-cycles"], ["-n", "all", "-f", "all"]],
                         ids=lambda o: " ".join(o) or "default")
def test_large_event_headers_identical_to_babeltrace2(tmp_path, opts):
    """event_header_large: a 16-bit id; a 32-bit timestamp (compact) or a
    32-bit id and a 64-bit timestamp (extended)."""
    path = make(tmp_path, meta=ctfgen.metadata(EVENTS, header="large"),
                streams=good_streams("large"))
    assert_view_as_babeltrace2(LTT, path, opts, 11)


def test_corner_cases_with_another_clock(tmp_path):
    """A 100 MHz clock with an offset in cycles beyond one second."""
    path = make(tmp_path, meta=ctfgen.metadata(EVENTS, freq=100000000, offset_s=10,
                                               offset=250000000))
    out, err = babeltrace_text(path, "--clock-seconds", "--no-delta")
    got = ltt("view", "--clock-seconds", "--no-delta", path)
    assert (got.stdout, got.stderr) == (out, err)


def test_json_values(tmp_path):
    path = make(tmp_path)
    lines = [json.loads(l) for l in ltt("view", "--json", path).stdout.splitlines()]
    ev = [l for l in lines if l.get("name") == "compound" and l["cpu"] == 3][0]
    assert ev["fields"]["names"] == ["a", "b\\c", "\t"]
    assert ev["fields"]["pairs"] == [{"a": 1, "b": -1}, {"a": 65535, "b": 2**31 - 1}]
    assert ev["fields"]["text"] == "ab"
    assert ev["fields"]["var"] == "opt B"
    assert ev["fields"]["bits"] == [-4, -1, 0, 3]
    assert ev["cpu"] == 3
    first = [l for l in lines if l.get("name") == "bits"][0]
    assert first["fields"]["kind"] == [-3, ["NEG"]]
    assert any("discarded_events" in l and l["discarded_events"] == 4 for l in lines)
    assert any(l.get("discarded_packets") == 1 for l in lines)


# --- corrupt input ---------------------------------------------------------------

def one_error(res, *needles):
    """A non-zero exit and exactly one error line (discarded-event warnings aside)."""
    assert res.returncode != 0
    lines = [l for l in res.stderr.splitlines() if l.strip() and not l.startswith("WARNING:")]
    assert len(lines) == 1, res.stderr
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def test_truncated_packet(tmp_path):
    s = good_streams()
    s["chan_0"] = s["chan_0"][:150]
    path = make(tmp_path, streams=s)
    one_error(ltt("view", path), "chan_0", "offset 0", "beyond the end of the file")


def test_truncated_event_content(tmp_path):
    s = good_streams()
    # content_size says more than the events hold: the last event is cut
    p = ctfgen.packet([(0, 5, bits_event(0, 0, 0, 0, 0, 0, 0.0, 0.0))], 0, 10,
                      content_size=(64 + 288 + 60) * 8 - 40, pad_to=1024)
    s["chan_0"] = p
    path = make(tmp_path, streams=s)
    one_error(ltt("view", path), "chan_0", "offset")


@pytest.mark.parametrize("header", ["compact", "large"])
def test_event_header_cut_by_the_content_end(tmp_path, header):
    """An extended event header whose timestamp goes past the content end:
    the same error whichever way the header is read."""
    s = good_streams(header)
    events = [(0, 5, bits_event(0, 0, 0, 0, 0, 0, 0.0, 0.0)),
              (0, 1 << 40, bits_event(0, 0, 0, 0, 0, 0, 0.0, 0.0))]
    # packet header and context: 672 bits; the first event ends at bit 896
    # (compact: 32-bit header) or 960 (large: 48); the second event's
    # extended header ends 104 or 112 bits later: cut in its timestamp
    header_end = {"compact": 896 + 104, "large": 960 + 112}[header]
    whole = ctfgen.packet(events, 0, 1 << 40, header=header)
    s["chan_0"] = ctfgen.packet(events, 0, 1 << 40, header=header,
                                content_size=header_end - 32, pad_to=len(whole))
    path = make(tmp_path, streams=s)
    one_error(ltt("view", path), "chan_0", "offset", "integer goes past the end")


def test_wrong_magic(tmp_path):
    s = good_streams()
    s["chan_1"] = b"\xde\xad\xbe\xef" + s["chan_1"][4:]
    path = make(tmp_path, streams=s)
    one_error(ltt("view", path), "chan_1", "magic")


def test_packet_size_beyond_file_end(tmp_path):
    s = good_streams()
    s["chan_1"] = ctfgen.packet([(0, 5, bits_event(0, 0, 0, 0, 0, 0, 0.0, 0.0))], 0, 10,
                                packet_size=1 << 40, instance=1)
    path = make(tmp_path, streams=s)
    one_error(ltt("view", path), "chan_1", "beyond the end of the file")


@pytest.mark.parametrize("bad", [
    "event { name = \"x\"; fields := struct { uint32_t a; }; ",
    "event { name = x; id = 0; fields := struct { nosuchtype a; }; };",
    "typealias integer { size = 0; } := bad_t;",
    "typealias integer { size = 65; } := bad_t;",
    "event { name = \"y\"; id = 1; fields := struct { uint8_t s[nolength]; }; };",
    "event { name = \"z\"; id = 2; fields := struct { variant <notag> { uint8_t a; } v; }; };",
    "@",
])
def test_metadata_errors(tmp_path, bad):
    path = make(tmp_path, meta=ctfgen.metadata(EVENTS) + bad)
    one_error(ltt("view", path), "metadata", "line ")


def test_absurd_sequence_length(tmp_path):
    s = good_streams()

    def huge(b):
        b.align(32)
        b.uint(255, 8, 8)          # 255 strings announced, none there
    s["chan_1"] = ctfgen.packet([(40, 5, huge)], 0, 10, instance=1)
    path = make(tmp_path, streams=s)
    one_error(ltt("view", path), "chan_1", "offset")


def test_deep_nesting_is_refused(tmp_path):
    deep = "struct { " * 200 + "uint8_t x;" + " } x;" * 200
    meta = ctfgen.metadata(EVENTS) + "event { name = \"deep\"; id = 3; fields := struct { %s }; };" % deep
    path = make(tmp_path, meta=meta)
    one_error(ltt("view", path), "metadata", "nested")


def test_not_a_trace(tmp_path):
    (tmp_path / "empty").mkdir()
    one_error(ltt("view", str(tmp_path / "empty")), "no CTF trace")


def test_count_and_filters(tmp_path):
    path = make(tmp_path)
    assert ltt("view", "--count", path).stdout == "9\n"
    assert ltt("view", "--count", "-e", "comp*", path).stdout == "3\n"


# --- packets larger than the reader's window ---------------------------------------

BLOBS = """
event {
	name = "blob";
	id = 0;
	stream_id = 0;
	fields := struct { uint32_t n; string s; };
};
"""


def blob_packet(strings, ts0, seq, cpu=0, instance=0):
    """A packet of "blob" events (compact headers), one per string, built
    event by event (ctfgen's bit packer is too slow for megabytes): each
    starts 32-bit aligned, as the header's alignment puts it: id 0 in the
    low 5 bits, the timestamp's low 27 bits above, then n and s."""
    events = [struct.pack("<II", ((ts0 + i) & ((1 << 27) - 1)) << 5, i) + s.encode() + b"\0"
              for i, s in enumerate(strings)]
    pad = [(-len(e)) % 4 for e in events]
    body = b"".join(e + b"\0" * p for e, p in zip(events, pad))
    head = 84                        # packet header and context, bytes
    content = (head + len(body) - pad[-1]) * 8
    ctx = ctfgen.packet([], ts0, ts0 + len(strings), seq=seq, cpu=cpu, instance=instance,
                        content_size=content, packet_size=(head + len(body)) * 8)
    assert len(ctx) == head
    return ctx + body


def test_packets_larger_than_the_read_window(tmp_path):
    """Packets of 0.7 and 1 MiB (the reader reads 256 KiB at a time):
    events cut by a window's end, an event of 600 KiB (larger than a window),
    and a small packet after them, as babeltrace2 prints them."""
    ts0 = 1 << 20
    # no empty strings: babeltrace2 2.0 prints an earlier value for them
    p0 = blob_packet(["x" * (1 + (i * 37) % 91) for i in range(14000)], ts0, 0)
    big = ["y" * (1 + (i * 53) % 67) for i in range(9000)]
    big[4000] = "z" * (600 << 10)
    p1 = blob_packet(big, ts0 + 20000, 1)
    p2 = blob_packet(["last", "end"], ts0 + 40000, 2)
    assert len(p0) > 2 * (256 << 10) and len(p1) > 3 * (256 << 10)
    path = ctfgen.write_trace(str(tmp_path / "big"), ctfgen.metadata(BLOBS),
                              {"chan_0": p0 + p1 + p2})
    assert_view_as_babeltrace2(LTT, path, [], 14000 + 9000 + 2)
    assert ltt("view", "--count", path).stdout == "23002\n"


def test_event_cut_by_the_content_end_beyond_a_window(tmp_path):
    """A string that runs past the content end of a packet larger than the
    window: the same error and offset as if the packet was read at once."""
    strings = ["x" * 40] * 10000
    p = bytearray(blob_packet(strings, 1 << 20, 0))
    # each event: 4 + 4 + 41 bytes, and 3 of padding after the last's content
    assert len(p) == 84 + 52 * 10000
    p[-4] = ord("x")                 # the last NUL, the content's last byte
    path = ctfgen.write_trace(str(tmp_path / "cut"), ctfgen.metadata(BLOBS), {"chan_0": bytes(p)})
    err = one_error(ltt("view", path), "chan_0", "string without its terminating NUL")
    # the offset where the event is looked for: the end of the one before
    # (its header's alignment skips the 3 bytes of padding after that)
    assert f"offset {len(p) - 52 - 3}:" in err, err


def test_more_streams_than_open_files(tmp_path):
    """A trace of more streams than the process may open files (48 streams,
    RLIMIT_NOFILE 16): the streams give their descriptors up and open their
    files again, and the output is babeltrace2's, byte for byte."""
    streams = {}
    for s in range(48):
        packets = []
        for p in range(3):
            times = [(2 * p + k) * 1000 + s for k in range(2)]
            packets.append(ctfgen.packet(
                [(0, t, bits_event(s % 8 - 4, s % 32, s, p, t % 30000, 0, 1.0, 2.0))
                 for t in times],
                ts_begin=times[0], ts_end=times[-1], seq=p, cpu=s, instance=s))
        streams[f"chan_{s}"] = b"".join(packets)
    path = make(tmp_path, streams=streams)
    out, _ = babeltrace_text(path)

    def few_files():
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (16, hard))

    got = subprocess.run([LTT, "view", path], capture_output=True, text=True, timeout=60,
                         preexec_fn=few_files)
    assert got.returncode == 0, got.stderr
    assert out.count("\n") == 48 * 6
    assert got.stdout == out
