"""`ltt view` against babeltrace2 on every integer the decode and print
programs treat apart: each size (8, 16, 32, 64 bits), signedness, display
base (2, 8, 10, 16) and byte order, on the one-load path (byte-aligned, in
the payload and in a variant's option), on the general path (in an array of
structs, whose values change type; bit fields) and in arrays and sequences;
floats and enums likewise."""
import itertools
import json
import struct
import subprocess

import pytest

from conftest import build_path
from bt2read import assert_view_as_babeltrace2, read_events
import ctfgen

LTT = build_path("src", "cli", "ltt")

SIZES = (8, 16, 32, 64)
BASES = (2, 8, 10, 16)
KINDS = list(itertools.product(SIZES, (False, True), BASES, ("le", "be")))


def int_type(size, signed, base, bo, align=8):
    return (f"integer {{ size = {size}; align = {align}; signed = {str(signed).lower()}; "
            f"base = {base}; byte_order = {bo}; }}")


def name(size, signed, base, bo):
    return f"_i{size}{'s' if signed else 'u'}b{base}{bo}"


def values(size, signed):
    """Edge values of a type, and one with every byte different."""
    if signed:
        lo, hi = -(1 << (size - 1)), (1 << (size - 1)) - 1
        return [0, -1, lo, hi, 1, -0x12345678 % (1 << size) - (1 << size) // 2]
    return [0, 1, (1 << size) - 1, 1 << (size - 1), 0x0123456789abcdef % (1 << size)]


def put_int(b, v, size, signed, bo, align=8):
    if bo == "be":
        b.be(v, size // 8)
    elif signed:
        b.sint(v, size, align)
    else:
        b.uint(v, size, align)


FIELDS = " ".join(f"{int_type(*k)} {name(*k)};" for k in KINDS)
BITS = " ".join(f"{int_type(s, sg, base, 'le', 1)} {name(s, sg, base, 'le')};"
                for s, sg, base, bo in KINDS if bo == "le")
ARRAYS = " ".join(f"{int_type(*k)} {name(*k)}[2]; {int_type(*k)} {name(*k)}_s[_n];"
                  for k in KINDS)

EVENTS = f"""
typealias floating_point {{ exp_dig = 8; mant_dig = 24; align = 8; }} := f32_t;
typealias floating_point {{ exp_dig = 11; mant_dig = 53; align = 8; }} := f64_t;
typealias floating_point {{ exp_dig = 11; mant_dig = 53; align = 8; byte_order = be; }} := f64be_t;

event {{ name = "fast"; id = 0; stream_id = 0; fields := struct {{
	{FIELDS}
	f32_t _f; f64_t _d; f64be_t _dbe;
	enum : {int_type(16, True, 10, "le")} {{ NEG = -100 ... -1, ZERO = 0, POS = 1 ... 1000 }} _e;
	enum : {int_type(8, False, 16, "be")} {{ X = 1, Y = 2 ... 200 }} _ebe;
}}; }};

event {{ name = "general"; id = 1; stream_id = 0; fields := struct {{
	enum : uint8_t {{ A = 0 ... 9, B = 10 }} _t;
	variant <_t> {{
		struct {{ {FIELDS} f32_t _f; f64_t _d; }} A;
		uint8_t B;
	}} _v;
}}; }};

event {{ name = "dynamic"; id = 4; stream_id = 0; fields := struct {{
	struct {{ {FIELDS} f32_t _f; f64_t _d; }} _a[1];
}}; }};

event {{ name = "bits"; id = 2; stream_id = 0; fields := struct {{
	integer {{ size = 3; align = 1; signed = false; }} _pad;
	{BITS}
	integer {{ size = 5; align = 1; signed = false; }} _tail;
}}; }};

event {{ name = "arrays"; id = 3; stream_id = 0; fields := struct {{
	uint8_t _n;
	{ARRAYS}
}}; }};
"""


def f32(b, f):
    b.uint(struct.unpack("<I", struct.pack("<f", f))[0], 32, 8)


def f64(b, d):
    b.uint(struct.unpack("<Q", struct.pack("<d", d))[0], 64, 8)


def fast_event(vals, f, d, e, ebe):
    def w(b):
        b.align(8)
        for k in KINDS:
            put_int(b, vals[k], k[0], k[1], k[3])
        f32(b, f)
        f64(b, d)
        b.raw(struct.pack(">d", d))
        b.sint(e, 16, 8)
        b.uint(ebe, 8, 8)
    return w


def general_event(vals, f, d):
    def w(b):
        b.uint(3, 8, 8)
        for k in KINDS:
            put_int(b, vals[k], k[0], k[1], k[3])
        f32(b, f)
        f64(b, d)
    return w


def dynamic_event(vals, f, d):
    def w(b):
        for k in KINDS:
            put_int(b, vals[k], k[0], k[1], k[3])
        f32(b, f)
        f64(b, d)
    return w


def bits_event(vals):
    def w(b):
        b.uint(5, 3)
        for k in KINDS:
            if k[3] == "le":
                put_int(b, vals[k], k[0], k[1], "le", 1)
        b.uint(0, 5)
    return w


def arrays_event(vals, n):
    def w(b):
        b.uint(n, 8, 8)
        for k in KINDS:
            for i in range(2):
                put_int(b, vals[k] if i else -1 if k[1] else 0, k[0], k[1], k[3])
            for i in range(n):
                put_int(b, vals[k] if i % 2 else 1, k[0], k[1], k[3])
    return w


def trace(tmp_path):
    events, t = [], 10
    for i in range(6):
        vals = {k: values(k[0], k[1])[i % len(values(k[0], k[1]))] for k in KINDS}
        floats = [(0.0, -0.0), (1.5, 1e300), (-3.25e-5, 123456.5), (float("inf"), float("nan")),
                  (3.4e38, 2.2250738585072014e-308), (1e-45, -1e22)][i]
        events += [(0, t, fast_event(vals, floats[0], floats[1], [-5, 0, 7, -100, 1000, 3][i],
                                     [1, 2, 200, 3, 0, 1][i])),
                   (1, t + 1, general_event(vals, floats[0], floats[1])),
                   (4, t + 1, dynamic_event(vals, floats[0], floats[1])),
                   (2, t + 2, bits_event(vals)),
                   (3, t + 3, arrays_event(vals, i % 3))]
        t += 10
    p = ctfgen.packet(events, ts_begin=0, ts_end=t, seq=0, cpu=0)
    return ctfgen.write_trace(str(tmp_path / "trace"), ctfgen.metadata(EVENTS), {"chan_0": p})


def ltt(*args):
    return subprocess.run([LTT, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("opts", [[], ["--no-delta"], ["-n", "all", "-f", "all"],
                                  ["-n", "none"], ["--clock-cycles"]],
                         ids=lambda o: " ".join(o) or "default")
def test_every_integer_path_identical_to_babeltrace2(tmp_path, opts):
    path = trace(tmp_path)
    assert_view_as_babeltrace2(LTT, path, opts, 30)


def test_every_integer_path_values_as_bt2(tmp_path):
    """--json against the bt2 bindings: each value, whatever its path."""
    path = trace(tmp_path)
    want = [e for e in read_events(path) if e["name"] != "!discarded"]
    got = [json.loads(l) for l in ltt("view", "--json", path).stdout.splitlines()]
    assert len(got) == len(want) == 30

    def plain(v):
        # bt2read gives enums as (value, labels) and NaN as NaN: compare alike
        if isinstance(v, list) and len(v) == 2 and isinstance(v[1], list):
            return (v[0], tuple(sorted(v[1])))
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, list):
            return [plain(x) for x in v]
        return v

    def same(a, b):
        if isinstance(a, float) and isinstance(b, float) and a != a:
            return b != b
        if isinstance(a, dict):
            return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
        if isinstance(a, (list, tuple)):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        return a == b
    for g, w in zip(got, want):
        assert g["name"] == w["name"]
        assert same(plain(g["fields"]), w["fields"]), (g["name"], g["fields"], w["fields"])
