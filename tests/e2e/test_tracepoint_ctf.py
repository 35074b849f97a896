"""The bytes the generated probes write are the CTF layout their descriptors
declare: tp-ctf-dump records known events of tests/unit/ust/tp-test.h and
writes them as a CTF 1.8 trace whose metadata comes from the descriptors
alone; babeltrace2 must decode every field to the value recorded, without
a warning."""
import os

import pytest

from bt2read import babeltrace_text, read_events
from conftest import build_path

DUMP = build_path("tests", "unit", "ust", "tp-ctf-dump")

EXPECTED = [
    ("ltt_test:ints", {"s8": -2, "u8": 200, "s16": -2000, "u16": 50000, "s32": -2000000,
                       "u32": 3000000000, "s64": -1, "u64": 0x0102030405060708}),
    ("ltt_test:bases", {"hex": 0x11223344, "port": 0x1234, "addr": 0x0102030405060708,
                        "tail": 0x45}),
    ("ltt_test:floats", {"c": ord("x"), "f": 1.5, "d": -2.25}),
    ("ltt_test:strings", {"a": "abc", "after": 0x11223344, "b": "(null)"}),
    ("ltt_test:arrays", {"first": 7, "arr": [1, 2, 0xa0b0c0d0], "text": "hi",
                         "net": [0x0102, 0x0304], "hexes": [ord("h"), ord("i")]}),
    ("ltt_test:seqs", {"first": 9, "_vals_length": 2,
                       "vals": [0x1111111111111111, 0x2222222222222222],
                       "_text_length": 3, "text": "abc", "_h16_length": 1, "h16": [0x1111],
                       "_n32_length": 0, "n32": []}),
    ("ltt_test:enums", {"c": (-3, ("minus",)), "small": (4, ("greens",))}),
    ("ltt_test:nowrite", {"shown": 6, "last": "str"}),
    ("ltt_test:inst_err", {"v": 1, "why": "disk"}),
    ("ltt_test:noargs", {}),
    ("ltt_test:counted", {"thread": 1, "seq": 2, "check": (2654435761 ^ 2) & 0xffffffff}),
]


@pytest.fixture
def trace(tmp_path, procs):
    if not os.path.exists(DUMP):
        pytest.skip(f"{DUMP} not built")
    procs.run([DUMP, str(tmp_path)], timeout=30)
    return tmp_path


def test_every_field_decodes_as_recorded(trace):
    babeltrace_text(trace)      # a broken layout fails here, in a child process
    events = read_events(trace)
    assert [(e["name"], e["fields"]) for e in events] == EXPECTED
    assert [e["ns"] for e in events] == list(range(1, len(EXPECTED) + 1))


def test_babeltrace_reads_it_without_warnings(trace):
    out, err = babeltrace_text(trace)
    assert err == ""
    assert len(out.splitlines()) == len(EXPECTED)
    assert 'c = ( "minus" : container = -3 )' in out
