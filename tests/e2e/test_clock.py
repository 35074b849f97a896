"""The sessions' clock (LTT_CLOCK, ctf/ctf-clock.h): the TSC where it is
constant and nonstop, else CLOCK_MONOTONIC; both described with the Epoch as
origin, so that events read by babeltrace2 fall at the wall-clock time they
were emitted."""
import os
import time

import pytest

from bt2read import babeltrace_text, read_events
from conftest import build_path
from test_tracepoint_ctf import EXPECTED

EMIT = build_path("tests", "unit", "ust", "ust-emit-all")


def tsc_usable():
    with open("/proc/cpuinfo") as f:
        flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")),
                     [])
    return "constant_tsc" in flags and "nonstop_tsc" in flags


def record(ltt_env, procs, tmp_path, clock):
    """Events of ust-emit-all in a session of a daemon started with LTT_CLOCK=clock
    (None: unset); returns (events, clock name, wall ns before, wall ns after)."""
    if clock:
        ltt_env.env["LTT_CLOCK"] = clock
    out = tmp_path / "trace"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("enable-event", "-u", "ltt_test:*")
    ltt_env.ltt("start")
    before = time.time_ns()
    procs.run([EMIT, "3"], env=dict(ltt_env.env, LTT_UST_REGISTER_TIMEOUT="10000"))
    after = time.time_ns()
    ltt_env.ltt("stop")
    _, err = babeltrace_text(out)
    assert err == ""
    with open(out / "ust" / "uid" / str(os.geteuid()) / "64-bit" / "metadata") as f:
        meta = f.read()
    name = "tsc" if 'name = "tsc"' in meta else "monotonic" if 'name = "monotonic"' in meta \
        else None
    return read_events(out), name, before, after


@pytest.mark.parametrize("clock", [None, "monotonic", "tsc"])
def test_events_fall_at_their_wall_clock_time(ltt_env, procs, tmp_path, clock):
    if clock == "tsc" and not tsc_usable():
        pytest.skip("this machine's TSC is not constant and nonstop")
    evs, name, before, after = record(ltt_env, procs, tmp_path, clock)
    assert name == (clock or ("tsc" if tsc_usable() else "monotonic"))
    assert len(evs) == 3 * len(EXPECTED)
    ns = [e["ns"] for e in evs]
    assert ns == sorted(ns)
    # within the run, give or take the offset's precision and a slice
    assert before - 5_000_000 <= ns[0] and ns[-1] <= after + 5_000_000


def test_unknown_clock_is_refused(ltt_env):
    ltt_env.env["LTT_CLOCK"] = "sundial"
    res = ltt_env.ltt("create", "s1", check=False)
    assert res.returncode != 0
    assert "LTT_CLOCK must be 'tsc' or 'monotonic'" in res.stderr
