"""What the kernel end-to-end tests share: tracefs must be there (root,
mounted here if it is not), and each test must leave it exactly as it found
it: same instances, no event enabled at the top level, tracer nop, same
uprobe_events. tracefs is global: run these tests under
`flock /tmp/ltt-heavy.lock` (tests/run's callers do)."""
import json
import os
import subprocess

import pytest

from bt2read import babeltrace_text, read_events
from conftest import build_path

TRACEFS = "/sys/kernel/tracing"
# what the tests trace (tests/e2e/kernel-workload.c)
WORKLOAD = build_path("tests", "unit", "kernel", "kernel-workload")


def workload(tmp_path, *args):
    """argv of kernel-workload writing its report to tmp_path/work.json."""
    return [WORKLOAD, str(tmp_path / "work.json"), *args]


def work_report(tmp_path, name="work.json"):
    """What the workload (or another test program) wrote it did."""
    with open(tmp_path / name) as f:
        return json.load(f)


def events_of(trace, quiet=True):
    """Decoded events; with quiet, the babeltrace2 CLI must say nothing on stderr."""
    if quiet:
        _, err = babeltrace_text(trace)
        assert err == "", f"babeltrace2 warned:\n{err}"
    return read_events(trace)


def check_file_syscalls(evs, w):
    """The openat, read, write and close of `kernel-workload files` (report w)
    in events evs, each entry followed by its exit, with their values. The
    path string cannot be fetched on this kernel (eprobes are refused: see
    doc/design/kernel-tracing.md): the openat is found by the path's address."""
    evs = [e for e in evs if e["context"] and e["context"]["tid"] == w["pid"]]
    i = next(k for k, e in enumerate(evs) if e["name"] == "syscall_entry_openat"
             and e["fields"]["filename"] == w["path_addr"])
    assert set(evs[i]["fields"]) == {"dfd", "filename", "flags", "mode"}
    assert evs[i + 1]["name"] == "syscall_exit_openat"
    assert evs[i + 1]["fields"] == {"ret": w["fd"]}
    rest = evs[i + 2:]

    def call(name, fd):
        k = next(k for k, e in enumerate(rest) if e["name"] == f"syscall_entry_{name}"
                 and e["fields"]["fd"] == fd)
        assert rest[k + 1]["name"] == f"syscall_exit_{name}"
        return rest[k]["fields"], rest[k + 1]["fields"]["ret"]

    entry, ret = call("read", w["fd"])
    assert entry["count"] == 256 and ret == 37 == w["read"]
    entry, ret = call("write", w["null_fd"])
    assert entry["count"] == 37 and ret == 37
    assert call("close", w["fd"])[1] == 0


def tracefs_unavailable():
    """Why kernel tests cannot run here, or None."""
    if os.geteuid() != 0:
        return "kernel tracing needs root"
    if not os.path.isdir(os.path.join(TRACEFS, "instances")):
        p = subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS],
                           capture_output=True, text=True)
        if p.returncode != 0:
            return f"cannot mount tracefs: {p.stderr.strip()}"
    if not os.path.isdir(os.path.join(TRACEFS, "instances")):
        return "tracefs has no instances directory"
    return None


def read_tracefs(name):
    try:
        with open(os.path.join(TRACEFS, name)) as f:
            return f.read()
    except OSError:
        return None


def snapshot():
    return {
        "instances": sorted(os.listdir(os.path.join(TRACEFS, "instances"))),
        "set_event": read_tracefs("set_event"),
        "current_tracer": read_tracefs("current_tracer"),
        "uprobe_events": read_tracefs("uprobe_events"),
    }


def remove_leftovers(before):
    """Removes the ltt-* instances and ltt_* uprobes made since `before`."""
    for name in os.listdir(os.path.join(TRACEFS, "instances")):
        if name.startswith("ltt-") and name not in before["instances"]:
            path = os.path.join(TRACEFS, "instances", name)
            for f, v in (("tracing_on", "0"), ("events/enable", "0")):
                try:
                    with open(os.path.join(path, f), "w") as fh:
                        fh.write(v)
                except OSError:
                    pass
            try:
                os.rmdir(path)
            except OSError:
                pass
    old = set((before["uprobe_events"] or "").splitlines())
    for line in (read_tracefs("uprobe_events") or "").splitlines():
        ev = line.split()[0].split(":", 1)[-1] if line else ""
        if line not in old and ev.startswith("ltt_"):
            try:
                with open(os.path.join(TRACEFS, "uprobe_events"), "a") as fh:
                    fh.write("-:" + ev + "\n")
            except OSError:
                pass


def tracefs_unchanged():
    """Generator fixture body: skips without tracefs; after the test, removes
    what it left (pass or fail) and asserts tracefs is as it was."""
    why = tracefs_unavailable()
    if why:
        pytest.skip(why)
    before = snapshot()
    yield
    after = snapshot()
    remove_leftovers(before)
    changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
    assert not changed, f"the test left tracefs changed (before, after): {changed}"
