"""`ltt view` on traces recorded by ltt itself (ltt-sessiond, the consumer,
libltt-ust; every field macro of tests/unit/ust/tp-test.h): byte-identical to
babeltrace2, per-UID and per-PID buffers."""
import subprocess

import pytest

from bt2read import babeltrace_text
from conftest import build_path

EMIT = build_path("tests", "unit", "ust", "ust-emit-all")
LTT = build_path("src", "cli", "ltt")


@pytest.mark.parametrize("buffers", [[], ["--buffers-pid"]], ids=["per-uid", "per-pid"])
def test_view_identical_to_babeltrace2(ltt_env, procs, tmp_path, buffers):
    out = tmp_path / "s1"
    ltt_env.ltt("create", "s1", "--output", str(out))
    if buffers:
        p = ltt_env.ltt("enable-channel", "-u", *buffers, "ch", check=False)
        if p.returncode != 0:
            pytest.skip("per-PID buffers not available: " + p.stderr.strip())
        ltt_env.ltt("enable-event", "-u", "-c", "ch", "ltt_test:*")
    else:
        ltt_env.ltt("enable-event", "-u", "ltt_test:*")
    ltt_env.ltt("start")
    procs.run([EMIT, "3"], env=dict(ltt_env.env, LTT_UST_REGISTER_TIMEOUT="10000"))
    ltt_env.ltt("stop")
    for opts in ([], ["--no-delta", "-n", "all", "-f", "all"], ["--clock-cycles"]):
        exp_out, exp_err = babeltrace_text(out, *opts)
        got = subprocess.run([LTT, "view", *opts, str(out)], capture_output=True, text=True,
                             timeout=60)
        assert got.returncode == 0, got.stderr
        assert exp_out.count("\n") >= 3
        assert got.stdout == exp_out
        assert got.stderr == exp_err
