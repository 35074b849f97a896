"""Trace chunks: `ltt rotate`, automatic rotations (enable-rotation --timer /
--size), laid out as LTTng 2.13 lays them out, each archive a complete trace
that babeltrace2 reads alone without a warning, nothing lost or duplicated
at the boundaries."""
import os
import re
import subprocess
import time
from collections import Counter

from bt2read import babeltrace_text, read_events
from conftest import build_path

HTTPD = build_path("examples", "httpd-sim")
APP_ENV = {"LTT_UST_REGISTER_TIMEOUT": "10000"}
STAMP = r"\d{8}T\d{6}[+-]\d{4}"
ARCHIVE = re.compile(rf"({STAMP})-({STAMP})-(\d+)")


def session(ltt_env, out, *channel_opts):
    ltt_env.ltt("create", "rot", "--output", str(out))
    ltt_env.ltt("enable-channel", "-u", *channel_opts, "ch")
    ltt_env.ltt("enable-event", "-u", "-c", "ch", "httpd:*")


def archives(out):
    """The archived chunks, by index: {index: path}."""
    found = {}
    for name in os.listdir(out / "archives") if (out / "archives").is_dir() else []:
        m = ARCHIVE.fullmatch(name)
        assert m, name
        found[int(m.group(3))] = out / "archives" / name
    return found


def rotate(ltt_env, out):
    text = ltt_env.ltt("rotate", "rot").stdout
    m = re.fullmatch(r"Trace chunk archive for session rot is now readable at (\S+)\n", text)
    assert m, text
    return m.group(1)


def read_chunk(path, discards=False):
    """A chunk read alone by babeltrace2, which prints nothing on stderr but,
    with discards allowed, exact counts of discarded events. Returns the
    requests it holds, {(thread, request): times}, and how many events were
    discarded."""
    out, err = babeltrace_text(path)
    lost = 0
    for line in err.splitlines():
        m = re.match(r"WARNING: Tracer discarded (\d+) events? between", line)
        assert discards and m, err
        lost += int(m.group(1))
    ids = re.findall(r" httpd:request_start: .*?\{ request_id = (\d+),", out)
    return Counter((int(i) >> 32, int(i) & 0xffffffff) for i in ids), lost


def read_archives(found):
    """Every archived chunk, each complete and read alone: the requests of all
    and the number of events discarded in all."""
    total, discarded = Counter(), 0
    for path in found.values():
        complete_trace(path)
        got, lost = read_chunk(path, discards=True)
        total += got
        discarded += lost
    return total, discarded


def requests(evs):
    return Counter((e["fields"]["request_id"] >> 32, e["fields"]["request_id"] & 0xffffffff)
                   for e in evs if e["name"] == "httpd:request_start")


def complete_trace(path):
    """A chunk holds LTTng's layout: metadata, streams, an index per stream."""
    uid = path / "ust" / "uid" / str(os.geteuid()) / "64-bit"
    files = set(os.listdir(uid))
    streams = {f for f in files if re.fullmatch(r"ch_\d+", f)}
    assert "metadata" in files and streams, files
    assert set(os.listdir(uid / "index")) == {s + ".idx" for s in streams}


def test_three_rotations_give_three_complete_chunks(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    session(ltt_env, out)
    ltt_env.ltt("start")
    app = procs.popen([HTTPD, "--wait", "--phases", "4", "50", "2"], stdin=subprocess.PIPE,
                      stdout=subprocess.PIPE, env=dict(ltt_env.env, **APP_ENV), text=True)
    paths = []
    for phase in range(1, 5):
        app.stdin.write("go\n")
        app.stdin.flush()
        assert app.stdout.readline() == f"httpd-sim: phase {phase} done\n"
        if phase < 4:
            paths.append(rotate(ltt_env, out))
    app.stdin.close()
    assert app.wait(timeout=60) == 0
    found = archives(out)
    assert sorted(found) == [0, 1, 2] and [str(found[i]) for i in range(3)] == paths
    # consecutive chunks: each ends when the next begins
    names = [ARCHIVE.fullmatch(found[i].name) for i in range(3)]
    assert names[0].group(2) == names[1].group(1) and names[1].group(2) == names[2].group(1)
    # recording goes on in OUTPUT/BEGIN-3, named after the last archive's end
    current = [n for n in os.listdir(out) if n != "archives"]
    assert current == [f"{names[2].group(2)}-3"]
    per_chunk = []
    for i in range(3):
        complete_trace(found[i])
        per_chunk.append(read_chunk(found[i])[0])
        # chunk i holds phase i: requests i*50 .. i*50+49 of both threads
        assert set(per_chunk[i]) == {(t, r) for t in (0, 1) for r in range(i * 50, i * 50 + 50)}
    ltt_env.ltt("stop")
    per_chunk.append(read_chunk(out / current[0])[0])
    total = sum(per_chunk, Counter())
    assert total == Counter({(t, r): 1 for t in (0, 1) for r in range(200)})
    # babeltrace2 reads the archives together as well
    assert requests(read_events(out / "archives")) == sum(per_chunk[:3], Counter())


def test_rotations_while_writing_lose_and_duplicate_nothing(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    session(ltt_env, out)
    ltt_env.ltt("start")
    app = procs.popen([HTTPD, "--wait", "20000", "2"], stdin=subprocess.PIPE,
                      stdout=subprocess.PIPE, env=dict(ltt_env.env, **APP_ENV), text=True)
    app.stdin.write("go\n")
    app.stdin.flush()
    rotated = 0
    while app.poll() is None or rotated < 3:
        rotate(ltt_env, out)
        rotated += 1
    assert app.wait(timeout=120) == 0
    text = ltt_env.ltt("destroy").stdout   # the last chunk is archived too, and said
    found = archives(out)
    assert sorted(found) == list(range(rotated + 1))
    assert text == ("Session rot destroyed\nTrace chunk archive for session rot is now "
                    f"readable at {found[rotated]}\n")
    assert [n for n in os.listdir(out) if n != "archives"] == []
    total, discarded = read_archives(found)
    # every request exactly once, or counted as discarded
    assert max(total.values()) == 1
    assert len(total) + discarded >= 2 * 20000
    assert set(total) <= {(t, r) for t in (0, 1) for r in range(20000)}
    if not discarded:
        assert len(total) == 2 * 20000


def wait_for_archives(out, n, timeout=30):
    """Polls (bounded) until the session has at least n archived chunks."""
    deadline = time.monotonic() + timeout
    while len(archives(out)) < n:
        assert time.monotonic() < deadline, f"only {len(archives(out))} archives"
        time.sleep(0.05)   # polling a real condition (the archives on disk), bounded


def test_timer_rotations(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    session(ltt_env, out)
    assert ltt_env.ltt("enable-rotation", "--timer", "300ms").stdout == \
        "Enabled periodic rotations every 300000 us on session rot\n"
    assert "timer period: 300000 us" in ltt_env.ltt("list", "rot").stdout
    ltt_env.ltt("start")
    procs.run([HTTPD, "10", "1"], env=dict(ltt_env.env, **APP_ENV))
    wait_for_archives(out, 2)
    ltt_env.ltt("stop")
    found = archives(out)
    total = Counter()
    for path in found.values():
        complete_trace(path)
        total += read_chunk(path)[0]
    assert total == Counter({(0, r): 1 for r in range(10)})


def test_size_rotations(ltt_env, procs, tmp_path):
    out = tmp_path / "out"
    session(ltt_env, out, "--subbuf-size", "16k", "--num-subbuf", "16")
    assert ltt_env.ltt("enable-rotation", "--size", "64k").stdout == \
        "Enabled size-based rotations every 65536 bytes written on session rot\n"
    ltt_env.ltt("start")
    # phases of 1000 requests (about 90 KB each) until the size made two rotations
    app = procs.popen([HTTPD, "--wait", "--phases", "1000", "1000", "1"], stdin=subprocess.PIPE,
                      stdout=subprocess.PIPE, env=dict(ltt_env.env, **APP_ENV), text=True)
    phases = 0
    while len(archives(out)) < 2:
        assert phases < 1000, "no two size rotations after 1000 phases"
        app.stdin.write("go\n")
        app.stdin.flush()
        assert app.stdout.readline() == f"httpd-sim: phase {phases + 1} done\n"
        phases += 1
    app.stdin.close()
    app.wait(timeout=60)
    ltt_env.ltt("destroy")
    total, discarded = read_archives(archives(out))
    assert max(total.values()) == 1
    assert set(total) <= {(0, r) for r in range(1000 * phases)}
    assert len(total) + discarded >= 1000 * phases


def test_disable_rotation(ltt_env, tmp_path):
    session(ltt_env, tmp_path / "out")
    ltt_env.ltt("enable-rotation", "--timer", "10s", "--size", "1M")
    listing = ltt_env.ltt("list", "rot").stdout
    assert ("\nAutomatic rotation schedules:\n    timer period: 10000000 us\n"
            "    size threshold: 1048576 bytes\n") in listing
    assert ltt_env.ltt("disable-rotation", "--size").stdout == \
        "Disabled size-based rotation on session rot\n"
    assert ltt_env.ltt("disable-rotation", "--timer").stdout == \
        "Disabled periodic rotation on session rot\n"
    assert "Automatic rotation" not in ltt_env.ltt("list", "rot").stdout


def test_rejections_leave_the_session_unchanged(ltt_env, tmp_path):
    session(ltt_env, tmp_path / "out")
    ltt_env.ltt("create", "fr", "--snapshot", "--output", str(tmp_path / "fr"))
    ltt_env.ltt("create", "mem", "--no-output")
    ltt_env.ltt("enable-rotation", "-s", "rot", "--timer", "1h")
    before = {s: ltt_env.ltt("list", s).stdout for s in ("rot", "fr", "mem")}
    cases = [
        (["rotate", "rot"], 1, "Session not started"),
        (["rotate", "fr"], 1, "Rotation is not available"),
        (["rotate", "mem"], 1, "Rotation is not available"),
        (["enable-rotation", "-s", "fr", "--timer", "1s"], 1, "Rotation is not available"),
        (["enable-rotation", "-s", "rot", "--timer", "2s"], 1, "already set"),
        (["enable-rotation", "-s", "rot", "--size", "0"], 2, "invalid rotation size"),
        (["enable-rotation", "-s", "rot", "--timer", "soon"], 2, "invalid rotation period"),
        (["enable-rotation", "-s", "rot"], 2, "say which rotation"),
        (["disable-rotation", "-s", "rot", "--size"], 1, "No rotation schedule of this kind"),
        (["disable-rotation", "-s", "rot"], 2, "say which rotation"),
        (["rotate", "nosuch"], 1, "Session not found"),
    ]
    for args, status, text in cases:
        p = ltt_env.ltt(*args, check=False)
        assert p.returncode == status, (args, p.stderr)
        assert p.stderr.startswith("Error: ") and p.stderr.count("\n") == 1, (args, p.stderr)
        assert text in p.stderr, (args, p.stderr)
    assert {s: ltt_env.ltt("list", s).stdout for s in before} == before
    # a stopped session rotates once (its last chunk), not twice
    ltt_env.ltt("start", "rot")
    ltt_env.ltt("stop", "rot")
    rotate(ltt_env, tmp_path / "out")
    p = ltt_env.ltt("rotate", "rot", check=False)
    assert p.returncode == 1 and "already rotated once since it stopped" in p.stderr
    assert sorted(archives(tmp_path / "out")) == [0]
