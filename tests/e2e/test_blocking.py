"""Blocking channels end to end (`enable-channel --blocking-timeout`): a
flood into a tiny buffer, with and without the application's opt-in; every
event emitted is recorded or counted as discarded (babeltrace2 reads the
counts from the packets)."""
import os
import signal
import subprocess

import pytest

from bt2read import read_events
from conftest import build_path

APP = build_path("tests", "unit", "ust", "ust-ctx-app")
THREADS, EVENTS = 2, 15000
EMITTED = THREADS * EVENTS + 2     # and the main thread's two (--main)


def flood(ltt_env, procs, tmp_path, timeout, app_env, stall=False):
    """Records the flood into a 2 x 4 KiB channel; returns (recorded, discarded).
    stall: the consumer daemon is stopped while the threads emit (the buffer
    fills for sure); the program registered and emitted its first event
    before, so that the session daemon has nothing to ask the consumer then."""
    out = tmp_path / "trace"
    ltt_env.ltt("create", "s1", "--output", str(out))
    ltt_env.ltt("enable-channel", "-u", "--subbuf-size", "4k", "--num-subbuf", "2",
                "--blocking-timeout", timeout, "tiny")
    ltt_env.ltt("enable-event", "-u", "-c", "tiny", "ctxtest:tick")
    ltt_env.ltt("start")
    app = procs.popen([APP, "--main", "--phases", "1", str(THREADS), str(EVENTS)],
                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                      env=dict(ltt_env.env, LTT_UST_REGISTER_TIMEOUT="10000", **app_env))
    assert app.stdout.readline().startswith("pid ")
    stopped = ltt_env.consumerd_pids() if stall else []
    for pid in stopped:
        os.kill(pid, signal.SIGSTOP)
    try:
        app.stdin.write("go\n")
        app.stdin.close()
        assert app.wait(timeout=300) == 0
    finally:
        for pid in stopped:
            os.kill(pid, signal.SIGCONT)
    ltt_env.ltt("stop")
    evs = read_events(out)
    ticks = [e for e in evs if e["name"] == "ctxtest:tick"]
    discarded = sum(e["count"] for e in evs if e["name"] == "!discarded")
    # each thread's events in order, none twice
    per_thread = {}
    for e in ticks:
        per_thread.setdefault(e["fields"]["tid"], []).append(e["fields"]["seq"])
    for seqs in per_thread.values():
        assert seqs == sorted(set(seqs))
    return len(ticks), discarded


@pytest.mark.parametrize("opt_in", ["LTT_UST_ALLOW_BLOCKING", "LTTNG_UST_ALLOW_BLOCKING"])
def test_with_the_opt_in_a_flood_loses_nothing(ltt_env, procs, tmp_path, opt_in):
    recorded, discarded = flood(ltt_env, procs, tmp_path, "inf", {opt_in: "1"})
    assert (recorded, discarded) == (EMITTED, 0)
    assert "Blocking timeout: infinite" in ltt_env.ltt("list", "s1").stdout


def test_without_the_opt_in_the_channel_discards_and_counts(ltt_env, procs, tmp_path):
    recorded, discarded = flood(ltt_env, procs, tmp_path, "inf", {}, stall=True)
    assert recorded + discarded == EMITTED and discarded > 0


def test_a_short_timeout_discards_and_counts(ltt_env, procs, tmp_path):
    """Waits of 1 us are too short for the consumer: exact accounting still holds."""
    recorded, discarded = flood(ltt_env, procs, tmp_path, "1", {"LTT_UST_ALLOW_BLOCKING": "1"})
    assert recorded + discarded == EMITTED
    assert "Blocking timeout: 1 us" in ltt_env.ltt("list", "s1").stdout
