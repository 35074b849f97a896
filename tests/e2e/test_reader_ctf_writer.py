"""`ltt view` on traces of ltt's own CTF writer (the ctf-sample-writer of
tests/unit/common/ctf: every field type, extremes, compact and large
headers with escapes, discarded events, text/packetized/big-endian
metadata): byte-identical to babeltrace2, and --json equal to the values the
writer says it wrote."""
import json
import subprocess

import pytest

from conftest import build_path
from bt2read import babeltrace_text
from test_ctf_writer import same, write_trace

LTT = build_path("src", "cli", "ltt")
FORMS = [["text"], ["packetized"], ["packetized", "be"], ["nodiscard"]]


def ltt_view(path, *args):
    p = subprocess.run([LTT, "view", *args, str(path)], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    return p


@pytest.mark.parametrize("form", FORMS, ids=lambda f: "-".join(f))
@pytest.mark.parametrize("opts", [[], ["--no-delta", "-n", "all", "-f", "all"],
                                  ["--clock-cycles"], ["--clock-seconds", "--clock-date"]],
                         ids=lambda o: " ".join(o) or "default")
def test_text_identical_to_babeltrace2(procs, tmp_path, form, opts):
    trace = tmp_path / "trace"
    write_trace(procs, trace, *form)
    out, err = babeltrace_text(trace, *opts)
    got = ltt_view(trace, *opts)
    assert out.count("\n") > 5
    assert got.stdout == out
    assert got.stderr == err


@pytest.mark.parametrize("form", FORMS, ids=lambda f: "-".join(f))
def test_json_is_what_was_written(procs, tmp_path, form):
    trace = tmp_path / "trace"
    expected = write_trace(procs, trace, *form)["events"]
    got = [json.loads(l) for l in ltt_view(trace, "--json").stdout.splitlines()]
    got = [g for g in got if "name" in g]
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        where = f"{e['name']} at {e['cycles']}"
        assert g["name"] == e["name"], where
        assert g["cycles"] == e["cycles"], where
        assert g["timestamp"] == e["ns"], where
        assert g["stream_class_id"] == e["stream_id"], where
        assert g.get("cpu") == e["cpu_id"], where
        assert same(g.get("fields", {}), e["fields"]), f"{where}: {g.get('fields')} != {e['fields']}"
        if e["context"] is not None:
            assert same(g.get("context"), e["context"]), where
