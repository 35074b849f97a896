"""`ltt clear` (what was recorded so far is dropped, recording goes on) and
`ltt regenerate metadata` (the wall-time offset sampled again)."""
import os
import re
import subprocess

from bt2read import babeltrace_text, read_events
from conftest import build_path

HTTPD = build_path("examples", "httpd-sim")
APP_ENV = {"LTT_UST_REGISTER_TIMEOUT": "10000"}


def uid_dir(out):
    return out / "ust" / "uid" / str(os.geteuid()) / "64-bit"


def request_ids(trace):
    return sorted(e["fields"]["request_id"] & 0xffffffff for e in read_events(trace)
                  if e["name"] == "httpd:request_start")


def traced_session(ltt_env, out):
    ltt_env.ltt("create", "c", "--output", str(out))
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    ltt_env.ltt("start")


def phased_app(ltt_env, procs, phases, requests):
    app = procs.popen([HTTPD, "--wait", "--phases", str(phases), str(requests), "1"],
                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                      env=dict(ltt_env.env, **APP_ENV), text=True)

    def phase(n):
        app.stdin.write("go\n")
        app.stdin.flush()
        assert app.stdout.readline() == f"httpd-sim: phase {n} done\n"
    return app, phase


def test_clear_while_tracing_keeps_recording(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    traced_session(ltt_env, out)
    app, phase = phased_app(ltt_env, procs, 2, 40)
    phase(1)
    assert ltt_env.ltt("clear").stdout == "Session c cleared\n"
    # the trace files are emptied at once, the metadata stays
    streams = [f for f in os.listdir(uid_dir(out)) if re.fullmatch(r"channel0_\d+", f)]
    assert streams and (uid_dir(out) / "metadata").is_file()
    phase(2)
    app.stdin.close()
    assert app.wait(timeout=60) == 0
    ltt_env.ltt("stop")
    assert request_ids(out) == list(range(40, 80))    # phase 2 only
    assert babeltrace_text(out)[1] == ""


def test_clear_stopped_and_all(ltt_env, procs, tmp_path):
    outs = [tmp_path / "a", tmp_path / "b"]
    for name, out in zip("ab", outs):
        ltt_env.ltt("create", name, "--output", str(out))
        ltt_env.ltt("enable-event", "-u", "-s", name, "httpd:*")
        ltt_env.ltt("start", name)
    procs.run([HTTPD, "10", "1"], env=dict(ltt_env.env, **APP_ENV))
    for name in "ab":
        ltt_env.ltt("stop", name)
    assert [len(request_ids(o)) for o in outs] == [10, 10]
    assert ltt_env.ltt("clear", "--all").stdout == "Session a cleared\nSession b cleared\n"
    for out in outs:
        assert request_ids(out) == []
        assert all(os.path.getsize(uid_dir(out) / f) == 0 for f in os.listdir(uid_dir(out))
                   if f.startswith("channel0_"))
    ltt_env.ltt("start", "a")
    procs.run([HTTPD, "3", "1"], env=dict(ltt_env.env, **APP_ENV))
    ltt_env.ltt("stop", "a")
    assert request_ids(outs[0]) == [0, 1, 2]
    p = ltt_env.ltt("clear", "nosuch", check=False)
    assert (p.returncode, p.stderr) == (1, "Error: cannot clear session 'nosuch': "
                                           "Session not found\n")


def test_clear_after_rotation_keeps_the_archives(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    traced_session(ltt_env, out)
    app, phase = phased_app(ltt_env, procs, 3, 20)
    phase(1)
    ltt_env.ltt("rotate")
    phase(2)
    ltt_env.ltt("clear")
    phase(3)
    app.stdin.close()
    assert app.wait(timeout=60) == 0
    ltt_env.ltt("stop")
    (archive,) = os.listdir(out / "archives")
    (current,) = [n for n in os.listdir(out) if n != "archives"]
    assert request_ids(out / "archives" / archive) == list(range(20))
    assert request_ids(out / current) == list(range(40, 60))


def metadata_offset(out):
    text = (uid_dir(out) / "metadata").read_text()
    return (int(re.search(r"offset_s = (-?\d+);", text).group(1)),
            re.search(r'\buuid = "([^"]+)";', text).group(1))


def test_regenerate_metadata(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    ltt_env.ltt("create", "m", "--output", str(out))
    ltt_env.ltt("enable-event", "-u", "httpd:*")
    p = ltt_env.ltt("regenerate", "metadata", check=False)
    assert (p.returncode, p.stderr) == (1, "Error: cannot regenerate the metadata of session "
                                           "'m': Session not started\n")
    ltt_env.ltt("start")
    procs.run([HTTPD, "5", "1"], env=dict(ltt_env.env, **APP_ENV))
    before = metadata_offset(out)
    text_before = (uid_dir(out) / "metadata").read_text()
    assert ltt_env.ltt("regenerate", "metadata").stdout == \
        "Metadata successfully regenerated for session m\n"
    after = metadata_offset(out)
    # the same trace (uuid), the same events described; the offset sampled anew
    assert after[1] == before[1] and abs(after[0] - before[0]) <= 1
    text_after = (uid_dir(out) / "metadata").read_text()
    assert text_after[text_after.index("event {"):] == text_before[text_before.index("event {"):]
    ltt_env.ltt("stop")
    assert request_ids(out) == list(range(5))
    assert babeltrace_text(out)[1] == ""
    # per-PID buffers are not regenerated, as LTTng
    ltt_env.ltt("create", "p", "--output", str(tmp_path / "p"))
    ltt_env.ltt("enable-channel", "-u", "--buffers-pid", "ch")
    ltt_env.ltt("start")
    p = ltt_env.ltt("regenerate", "metadata", check=False)
    assert p.returncode == 1 and "per-PID" in p.stderr and p.stderr.count("\n") == 1
    for args in (["regenerate"], ["regenerate", "nothing"], ["regenerate", "metadata", "x"]):
        assert ltt_env.ltt(*args, check=False).returncode == 2
    # the state dump is the kernel trace's
    p = ltt_env.ltt("regenerate", "statedump", check=False)
    assert p.returncode == 1 and p.stderr.count("\n") == 1
    assert "the session has no kernel channel" in p.stderr
