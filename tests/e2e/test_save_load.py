"""`ltt save` / `ltt load` / `ltt-sessiond --load`: session configurations as
text files that reproduce the session exactly, a strict reader whose errors
name FILE:LINE:COLUMN and create nothing, and boot-time loading."""
import os
import re
import subprocess

from bt2read import read_events
from conftest import build_path

HTTPD = build_path("examples", "httpd-sim")
APP_ENV = {"LTT_UST_REGISTER_TIMEOUT": "10000"}


def sessions_dir(ltt_env):
    return ltt_env.home / ".ltt" / "sessions"


def configure(ltt_env, tmp_path):
    """Two sessions using every attribute save knows."""
    ltt_env.ltt("create", "full", "--output", str(tmp_path / "full"))
    ltt_env.ltt("enable-channel", "-u", "--subbuf-size", "8k", "--num-subbuf", "8",
                "--overwrite", "--switch-timer", "1ms", "--read-timer", "5ms",
                "--tracefile-size", "64k", "--tracefile-count", "4", "ch")
    ltt_env.ltt("enable-channel", "-u", "--buffers-pid", "perpid")
    ltt_env.ltt("enable-event", "-u", "-c", "ch", "httpd:*", "-x", "httpd:error",
                "--loglevel", "INFO", "--filter", 'request_id > 1 && path == "/a*"')
    ltt_env.ltt("enable-event", "-u", "-c", "ch", "httpd:error", "--loglevel-only", "ERR")
    ltt_env.ltt("enable-event", "-u", "-c", "perpid", "x:y")
    ltt_env.ltt("disable-event", "-u", "-c", "perpid", "x:y")
    ltt_env.ltt("enable-event", "-u", "other:*")
    ltt_env.ltt("enable-rotation", "--timer", "10s", "--size", "8M")
    ltt_env.ltt("create", "fr", "--snapshot", "--output", str(tmp_path / "fr"))
    ltt_env.ltt("snapshot", "del-output", "1")
    ltt_env.ltt("snapshot", "add-output", "-n", "named", "-m", "1M", str(tmp_path / "snaps"))
    ltt_env.ltt("enable-event", "-u", "httpd:request_*")


def describe(ltt_env):
    return {"full": ltt_env.ltt("list", "full").stdout, "fr": ltt_env.ltt("list", "fr").stdout,
            "fr outputs": ltt_env.ltt("snapshot", "list-output", "-s", "fr").stdout,
            "all": ltt_env.ltt("list").stdout}


def test_save_destroy_load_reproduces_the_sessions(ltt_env, tmp_path):
    configure(ltt_env, tmp_path)
    before = describe(ltt_env)
    assert ltt_env.ltt("save").stdout == \
        f"All sessions have been saved successfully in {sessions_dir(ltt_env)}.\n"
    assert sorted(os.listdir(sessions_dir(ltt_env))) == ["fr.ltt-session", "full.ltt-session"]
    ltt_env.ltt("destroy", "--all")
    assert ltt_env.ltt("load").stdout == "All sessions have been loaded successfully\n"
    assert describe(ltt_env) == before
    # one at a time, by name, from another directory
    other = tmp_path / "other"
    assert ltt_env.ltt("save", "-o", str(other), "full").stdout == \
        f"Session full saved successfully in {other}.\n"
    assert os.listdir(other) == ["full.ltt-session"]
    ltt_env.ltt("destroy", "full")
    assert ltt_env.ltt("load", "-i", str(other), "full").stdout == \
        "Session full has been loaded successfully\n"
    assert describe(ltt_env) == before
    # the file is what a user reads and edits
    text = (other / "full.ltt-session").read_text()
    assert text.startswith("# ltt session configuration") and "\nversion = 1\n" in text
    assert '\nfilter = request_id > 1 && path == "/a*"\n' in text
    assert "\n[rotation]\ntimer-us = 10000000\nsize = 8388608\n" in text


def test_existing_files_and_sessions_need_force(ltt_env, tmp_path):
    configure(ltt_env, tmp_path)
    ltt_env.ltt("save", "full")
    p = ltt_env.ltt("save", "full", check=False)
    assert (p.returncode, p.stderr) == (1, "Error: cannot save session 'full': Session file "
                                           "already exists (full.ltt-session exists: use "
                                           "--force to replace it)\n")
    ltt_env.ltt("save", "-f", "full")
    p = ltt_env.ltt("load", "full", check=False)
    assert (p.returncode, p.stderr) == (1, "Error: cannot load session 'full': Session "
                                           "already exists (use --force to replace it)\n")
    ltt_env.ltt("enable-event", "-u", "-s", "full", "late:*")
    ltt_env.ltt("load", "-f", "full")
    assert "late:*" not in ltt_env.ltt("list", "full").stdout
    p = ltt_env.ltt("load", "nosuch", check=False)
    assert p.returncode == 1 and "Session file not found (no nosuch.ltt-session in " in p.stderr


def test_overrides(ltt_env, tmp_path):
    configure(ltt_env, tmp_path)
    ltt_env.ltt("save", "fr")
    out = ltt_env.ltt("load", "--override-name", "fr2", "--override-url",
                      f"file://{tmp_path}/moved", "fr").stdout
    assert out == ("Session fr has been loaded successfully\nSession name overridden with fr2\n"
                   f"Session output url overridden with {tmp_path}/moved\n")
    listing = ltt_env.ltt("list", "fr2").stdout
    assert f"Trace output: {tmp_path}/moved\n" in listing
    assert ltt_env.ltt("snapshot", "list-output", "-s", "fr2").stdout == \
        f"Snapshot output list for session fr2\n    [2] named: {tmp_path}/moved (max size: " \
        "1048576 bytes)\n"
    p = ltt_env.ltt("load", "--override-name", "x", check=False)
    assert p.returncode == 2 and p.stderr.startswith("Error: ")


def test_malformed_files_say_where_and_create_nothing(ltt_env, tmp_path):
    configure(ltt_env, tmp_path)
    ltt_env.ltt("save")
    ltt_env.ltt("destroy", "--all")
    good = (sessions_dir(ltt_env) / "full.ltt-session").read_text()
    cases = {
        "junk": ("this is not a session file\n", 1, 6, "expected '=' after the key"),
        "empty": ("# nothing\n", 1, 1, "a session file starts with `version = 1`"),
        "version": (good.replace("version = 1", "version = 9"), 2, 11,
                    "format version '9' is not supported"),
        "number": (good.replace("num-subbuf = 8", "num-subbuf = eight"), None, 14,
                   "'num-subbuf' is a number of decimal digits, not 'eight'"),
        "pow2": (good.replace("num-subbuf = 8", "num-subbuf = 6"), None, 1,
                 "[channel]: Invalid attribute: the sub-buffer count must be a power of two"),
        "key": (good.replace("mode = normal", "mode = normal\nmood = good"), None, 1,
                "unknown key 'mood' in [session]"),
        "string": (good.replace("name = ch\n", 'name = "ch\n'), None, 8, "is not closed"),
        "filter": (good.replace("request_id > 1", "request_id >"), None, 10,
                   "Invalid filter expression: filter, column 14: expected an operand"),
        "tracker": (good + "\n[tracker]\ndomain = user\nattribute = pid\n", None, 1,
                    "[tracker]: the user domain does not track 'pid'"),
        "tracker-value": (good + "\n[tracker]\ndomain = user\nattribute = vpid\nvalue = x\n",
                          None, 1, "[tracker]: 'value' is a number, not 'x'"),
        "context": (good + "\n[context]\ndomain = user\nchannel = ch\ntype = nope\n", None, 1,
                    "[context]: Unknown context type: 'nope'"),
    }
    for name, (text, line, column, message) in cases.items():
        bad = tmp_path / "bad" / name
        bad.mkdir(parents=True)
        # a good file next to the bad one: neither is loaded
        (bad / "fr.ltt-session").write_text((sessions_dir(ltt_env) / "fr.ltt-session").read_text())
        (bad / "full.ltt-session").write_text(text)
        p = ltt_env.ltt("load", "-i", str(bad), check=False)
        assert p.returncode == 1 and p.stdout == "" and p.stderr.count("\n") == 1, p.stderr
        m = re.fullmatch(r"Error: cannot load the sessions: Invalid session file "
                         rf"\({re.escape(str(bad))}/full\.ltt-session:(\d+):(\d+): (.*)\)\n",
                         p.stderr)
        assert m, p.stderr
        if line:
            assert int(m.group(1)) == line, p.stderr
        if column:
            assert int(m.group(2)) == column, p.stderr
        assert message in m.group(3), p.stderr
        lines = text.splitlines()
        assert int(m.group(1)) <= len(lines)
        assert ltt_env.ltt("list").stdout == "Currently no available tracing session\n"
    # what the kernel domain cannot make is refused as its commands refuse it
    # (here: two kernel channels, where tracefs gives a session one buffer;
    # without root, the kernel domain itself)
    (tmp_path / "k.ltt-session").write_text(
        "version = 1\n[session]\nname = k\n[channel]\ndomain = kernel\nname = kc\n"
        "[channel]\ndomain = kernel\nname = kd\n")
    p = ltt_env.ltt("load", "-i", str(tmp_path / "k.ltt-session"), check=False)
    assert p.returncode == 1 and p.stderr.count("\n") == 1, p.stderr
    assert ("one kernel channel" in p.stderr if os.geteuid() == 0
            else "channel 'kc': kernel tracing needs root" in p.stderr), p.stderr
    assert ltt_env.ltt("list").stdout == "Currently no available tracing session\n"


def test_a_session_saved_while_tracing_starts_when_loaded(ltt_env, procs, tmp_path):
    out = tmp_path / "t"
    ltt_env.ltt("create", "t", "--output", str(out))
    ltt_env.ltt("enable-event", "-u", "httpd:request_start")
    ltt_env.ltt("start")
    ltt_env.ltt("save", "t")
    ltt_env.ltt("destroy", "t")
    ltt_env.ltt("load", "t")
    assert "Tracing session t: [active]" in ltt_env.ltt("list", "t").stdout
    procs.run([HTTPD, "5", "1"], env=dict(ltt_env.env, **APP_ENV))
    ltt_env.ltt("stop", "t")
    assert sorted(e["fields"]["request_id"] for e in read_events(out)) == list(range(5))


def start_daemon(ltt_env, *args):
    subprocess.run([build_path("src", "sessiond", "ltt-sessiond"), "--daemonize", *args],
                   env=ltt_env.env, check=True, timeout=30)


def test_daemon_loads_saved_sessions_at_start(ltt_env, tmp_path):
    configure(ltt_env, tmp_path)
    before = describe(ltt_env)
    system = tmp_path / "etc-ltt-sessions"
    ltt_env.env["LTT_SYSTEM_SESSIONS_DIR"] = str(system)
    ltt_env.ltt("save", "-o", str(sessions_dir(ltt_env) / "auto"), "full")
    ltt_env.ltt("save", "-o", str(system / "auto"), "fr")
    ltt_env.ltt("save", "-o", str(tmp_path / "boot"))
    ltt_env.kill_sessiond()
    # boot-time tracing: the auto directories, the user's then the system's
    start_daemon(ltt_env)
    assert describe(ltt_env) == before
    ltt_env.kill_sessiond()
    # a file of another user in an auto directory is not trusted
    os.chown(system / "auto" / "fr.ltt-session", 65534, 65534)
    start_daemon(ltt_env)
    assert "full" in ltt_env.ltt("list").stdout and "fr" not in ltt_env.ltt("list").stdout
    ltt_env.kill_sessiond()
    # --load PATH instead of the auto directories
    start_daemon(ltt_env, "--load", str(tmp_path / "boot" / "fr.ltt-session"))
    assert re.findall(r"\d\) (\S+)", ltt_env.ltt("list").stdout) == ["fr"]
    ltt_env.kill_sessiond()
    # `ltt load NAME` finds a session in the system-wide directory too
    (system / "fr.ltt-session").write_text((tmp_path / "boot" / "fr.ltt-session").read_text())
    ltt_env.ltt("load", "fr")
    assert describe(ltt_env)["fr outputs"] == before["fr outputs"]
