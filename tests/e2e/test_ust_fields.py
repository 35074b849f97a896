"""Every field macro through the real tracer and daemons: the events of
tests/unit/ust/tp-test.h, emitted by ust-emit-all, read back by babeltrace2
with the values test_tracepoint_ctf.py expects of the same calls."""
from bt2read import babeltrace_text, read_events
from conftest import build_path
from test_tracepoint_ctf import EXPECTED

EMIT = build_path("tests", "unit", "ust", "ust-emit-all")


def test_every_field_of_every_event_type(ltt_env, procs, tmp_path):
    out = tmp_path / "s1"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("enable-event", "-u", "ltt_test:*")
    ltt_env.ltt("start")
    procs.run([EMIT, "3"], env=dict(ltt_env.env, LTT_UST_REGISTER_TIMEOUT="10000"))
    ltt_env.ltt("stop")
    text, err = babeltrace_text(out)
    assert err == ""
    events = read_events(out)
    assert [(e["name"], e["fields"]) for e in events] == EXPECTED * 3
    assert [e["ns"] for e in events] == sorted(e["ns"] for e in events)
