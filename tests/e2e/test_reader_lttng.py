"""Differential tests of `ltt view` against babeltrace2 on real lttng-ust traces.

A small instrumented program (tests/e2e/data/reader_app.c: integers of every
size and base, byte orders, strings with escapes, text arrays/sequences,
floats and doubles with extremes, arrays, sequences, enums with ranges and
negative values, an empty event) is recorded by a private lttng-sessiond;
`ltt view` must print byte for byte what `babeltrace2` prints with the same
options, and `ltt view --json` must give the values of babeltrace2's Python
bindings.
"""
import json
import math
import os
import subprocess

import pytest

from conftest import Procs, build_path
from bt2read import babeltrace_text, read_events
import lttng_session

LTT = build_path("src", "cli", "ltt")


def ltt_view(path, *args, check=True):
    p = subprocess.run([LTT, "view", *args, str(path)], capture_output=True, text=True,
                       timeout=300)
    if check and p.returncode != 0:
        raise AssertionError(f"ltt view exited {p.returncode}:\n{p.stderr}")
    return p


@pytest.fixture(scope="module")
def traces():
    """{name: path}: a per-UID trace, a per-PID one, and a root holding both."""
    lttng_session.require_lttng()
    procs = Procs()
    lt = None
    try:
        lt = lttng_session.Lttng(procs)
        exe = lt.build_app()
        uid = lt.record("uid", lt.outdir("both/uid"), exe, 30)
        pid = lt.record("pid", lt.outdir("both/pid"), exe, 7,
                        channel_args=("--buffers-pid",), contexts=("vtid",))
        lossy = lt.record("lossy", lt.outdir("lossy"), exe, 3000,
                          channel_args=("--subbuf-size=4096", "--num-subbuf=2", "--discard"),
                          contexts=())
        yield {"uid": uid, "pid": pid, "both": os.path.dirname(uid), "lossy": lossy}
    finally:
        procs.cleanup()
        if lt:
            lt.cleanup()


OPTION_SETS = [
    [],
    ["--no-delta"],
    ["--clock-seconds"],
    ["--clock-date", "--clock-gmt", "--no-delta"],
    ["--clock-cycles"],
    ["-n", "all"],
    ["-n", "none"],
    ["-n", "scope,header"],
    ["-f", "all"],
    ["-f", "trace,loglevel"],
]


@pytest.mark.parametrize("which", ["uid", "pid", "both"])
@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: " ".join(o) or "default")
def test_text_identical_to_babeltrace2(traces, which, opts):
    expected_out, expected_err = babeltrace_text(traces[which], *opts)
    got = ltt_view(traces[which], *opts)
    assert expected_out.count("\n") > 10
    assert got.stdout == expected_out
    assert got.stderr == expected_err


def test_discarded_events_warnings_identical(traces):
    expected_out, expected_err = babeltrace_text(traces["lossy"], "--no-delta")
    got = ltt_view(traces["lossy"], "--no-delta")
    assert "discarded" in expected_err, "the lossy session lost nothing: no test"
    assert got.stdout == expected_out
    assert got.stderr == expected_err


def _plain(v):
    """Our JSON enum [value, [labels]] as bt2read's (value, labels) tuples."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], list) \
            and all(isinstance(s, str) for s in v[1]):
        return (v[0], tuple(sorted(v[1])))
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def _same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize("which", ["uid", "pid", "lossy"])
def test_json_matches_bt2_bindings(traces, which):
    expected = [e for e in read_events(traces[which]) if e["name"] != "!discarded"]
    got = [json.loads(l) for l in ltt_view(traces[which], "--json").stdout.splitlines()]
    got = [g for g in got if "name" in g]
    assert len(got) == len(expected) > 0
    for g, e in zip(got, expected):
        assert g["name"] == e["name"]
        assert g["timestamp"] == e["ns"]
        assert g["cycles"] == e["cycles"]
        assert g["stream_class_id"] == e["stream_id"]
        assert g.get("cpu") == e["cpu_id"]
        assert _same(_plain(g.get("fields", {})), e["fields"]), (g, e)
        assert _same(_plain(g.get("context")), e["context"]), (g, e)
        assert _same(_plain(g.get("packet")), e["packet"]), (g, e)


def test_count_is_the_number_of_events(traces):
    n = sum(1 for e in read_events(traces["both"]) if e["name"] != "!discarded")
    assert ltt_view(traces["both"], "--count").stdout == f"{n}\n"


def test_event_name_filter(traces):
    out, _ = babeltrace_text(traces["uid"], "--no-delta")
    want = [l for l in out.splitlines(keepends=True)
            if " rdtest:request_start: " in l or " rdtest:floats: " in l]
    got = ltt_view(traces["uid"], "--no-delta", "-e", "rdtest:request_s*,rdtest:floats").stdout
    assert got == "".join(want)


def test_begin_end_like_babeltrace2(traces):
    evs = [e for e in read_events(traces["uid"]) if e["name"] != "!discarded"]
    b, e = evs[len(evs) // 4]["ns"], evs[3 * len(evs) // 4]["ns"]
    args = ["--begin", f"{b // 10**9}.{b % 10**9:09d}", "--end", f"{e // 10**9}.{e % 10**9:09d}",
            "--no-delta"]
    expected, _ = babeltrace_text(traces["uid"], *args)
    got = ltt_view(traces["uid"], *args).stdout
    assert got == expected
    assert 0 < got.count("\n") < len(evs)
