"""A tiny CTF 1.8 trace writer for tests: TSDL text plus packets built bit by bit.

Little-endian bit fields are packed as CTF says (LSB first); big-endian
fields must be byte-aligned here. Used to build corner cases (odd sizes,
wrapping clocks, variants, corrupt packets) that tracers rarely write.
"""
import os
import struct
import uuid as uuidlib


class Bits:
    """Little-endian bit packer."""

    def __init__(self):
        self.acc = 0
        self.pos = 0

    def align(self, bits):
        self.pos = (self.pos + bits - 1) // bits * bits

    def uint(self, value, size, align=1):
        self.align(align)
        self.acc |= (value & ((1 << size) - 1)) << self.pos
        self.pos += size

    def sint(self, value, size, align=1):
        self.uint(value & ((1 << size) - 1), size, align)

    def be(self, value, nbytes):
        self.align(8)
        for b in value.to_bytes(nbytes, "big", signed=value < 0):
            self.uint(b, 8)

    def raw(self, data):
        self.align(8)
        for b in data:
            self.uint(b, 8)

    def string(self, s):
        self.raw(s.encode() + b"\0" if isinstance(s, str) else s + b"\0")

    def f32(self, v):
        self.align(32)
        self.uint(struct.unpack("<I", struct.pack("<f", v))[0], 32)

    def f64(self, v):
        self.align(64)
        self.uint(struct.unpack("<Q", struct.pack("<d", v))[0], 64)

    def bytes(self):
        n = (self.pos + 7) // 8
        return self.acc.to_bytes(n, "little")


TRACE_UUID = uuidlib.UUID("2a6422d0-6cee-11e0-8c08-cb07d7b3a564")

PREAMBLE = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
typealias integer { size = 27; align = 1; signed = false; } := uint27_t;

trace {
	major = 1;
	minor = 8;
	uuid = "%s";
	byte_order = le;
	packet.header := struct {
		uint32_t magic;
		uint8_t  uuid[16];
		uint32_t stream_id;
		uint64_t stream_instance_id;
	};
};

env {
	hostname = "testhost";
	domain = "ust";
	tracer_name = "ltt-test";
};

clock {
	name = "monotonic";
	uuid = "6a5d3b7a-9a2b-4bd5-b0a3-5a3c59c0ca17";
	description = "Monotonic Clock";
	freq = %d;
	offset_s = %d;
	offset = %d;
};

typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } := uint27_clock_monotonic_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;

struct packet_context {
	uint64_clock_monotonic_t timestamp_begin;
	uint64_clock_monotonic_t timestamp_end;
	uint64_t content_size;
	uint64_t packet_size;
	uint64_t packet_seq_num;
	uint64_t events_discarded;
	uint32_t cpu_id;
};

typealias integer { size = 32; align = 8; signed = false; map = clock.monotonic.value; } := uint32_clock_monotonic_t;

struct event_header_compact {
	enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
	variant <id> {
		struct { uint27_clock_monotonic_t timestamp; } compact;
		struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;
	} v;
} align(32);

struct event_header_large {
	enum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;
	variant <id> {
		struct { uint32_clock_monotonic_t timestamp; } compact;
		struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;
	} v;
} align(8);

stream {
	id = 0;
	event.header := struct event_header_%s;
	packet.context := struct packet_context;
};
"""


# event headers as lttng-ust writes them: (header alignment, bits of the id,
# bits of the compact timestamp and its alignment, the id meaning "extended")
HEADERS = {"compact": (32, 5, 27, 1, 31), "large": (8, 16, 32, 8, 65535)}


def metadata(events_tsdl, freq=1000000000, offset_s=1700000000, offset=0, header="compact"):
    return PREAMBLE % (TRACE_UUID, freq, offset_s, offset, header) + events_tsdl


def packet(events, ts_begin, ts_end, seq=0, discarded=0, cpu=0, instance=0,
           magic=0xC1FC1FC1, packet_size=None, content_size=None, pad_to=None,
           header="compact"):
    """events: list of (id, absolute timestamp, payload_writer(Bits)); the
    compact option of the header (`header`: "compact", a 27-bit timestamp, or
    "large", 32 bits) is used when it can carry the id and the time."""
    halign, idbits, tsbits, tsalign, extended = HEADERS[header]
    b = Bits()
    b.uint(magic, 32, 8)
    b.raw(TRACE_UUID.bytes)
    b.uint(0, 32, 8)
    b.uint(instance, 64, 8)
    ctx_pos = b.pos
    # context placeholders, patched below
    for _ in range(6):
        b.uint(0, 64, 8)
    b.uint(cpu, 32, 8)
    cur = ts_begin
    for ev in events:
        ev_id, ts, payload = ev
        b.align(halign)
        if ev_id < extended and cur <= ts < cur + (1 << tsbits):
            b.uint(ev_id, idbits, 8)
            b.uint(ts & ((1 << tsbits) - 1), tsbits, tsalign)
        else:
            b.uint(extended, idbits, 8)
            b.uint(ev_id, 32, 8)
            b.uint(ts, 64, 8)
        cur = ts
        payload(b)
    content = b.pos if content_size is None else content_size
    total = pad_to * 8 if pad_to else (b.pos + 7) // 8 * 8
    psize = total if packet_size is None else packet_size
    vals = [ts_begin, ts_end, content, psize, seq, discarded]
    acc = b.acc
    for i, v in enumerate(vals):
        pos = ctx_pos + 64 * i
        acc &= ~(((1 << 64) - 1) << pos)
        acc |= (v & ((1 << 64) - 1)) << pos
    b.acc = acc
    data = b.bytes()
    return data + b"\0" * (total // 8 - len(data))


def write_trace(path, meta, streams):
    """streams: {filename: bytes}."""
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "metadata"), "w") as f:
        f.write(meta)
    for name, data in streams.items():
        with open(os.path.join(path, name), "wb") as f:
            f.write(data)
    return path
