"""The README's demo (examples/demo.sh) records the example program and
shows its trace (as root with tracefs, the kernel's view of it too); it
leaves no daemon behind, and tracefs as it was."""
import os
import re
import select
import subprocess

import pytest

from conftest import BUILD, TOP
from kernel_env import snapshot, tracefs_unavailable


@pytest.fixture
def tracefs_before():
    """tracefs as it was (None where the kernel is not traced)."""
    return None if tracefs_unavailable() else snapshot()


def test_demo_shows_a_real_trace(tmp_path, tracefs_before):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    p = subprocess.run(["sh", os.path.join(TOP, "examples", "demo.sh"), BUILD], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert re.search(r"^\s+40  httpd:request_start$", p.stdout, re.M)
    assert re.search(r"^\s+40  httpd:request_end$", p.stdout, re.M)
    assert re.search(r"^\s+4  httpd:error$", p.stdout, re.M)
    assert re.search(r"^40 requests: min [\d.]+ us", p.stdout, re.M)
    if tracefs_before is None:
        assert "(user space only: " in p.stdout
    else:
        # the kernel's view: its threads' system calls and switches, beside
        assert re.search(r"^\s+\d+  syscall_entry_clone3$", p.stdout, re.M)
        assert re.search(r"^\s+\d+  sched_switch$", p.stdout, re.M)
        assert re.search(r"^clone3 +[1-9]", p.stdout, re.M)
        assert re.search(r"^\d+ context switches of its threads", p.stdout, re.M)
    # the daemon the demo started was told to stop: it exits (bounded wait)
    log = (next(tmp_path.glob("ltt-demo-*")) / "run" / "sessiond.log").read_text()
    pid = int(re.search(r"serving .* \(pid (\d+)\)", log).group(1))
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        fd = None
    if fd is not None:
        try:
            assert select.select([fd], [], [], 30)[0], f"the demo's daemon {pid} is still running"
        finally:
            os.close(fd)
    if tracefs_before is not None:
        assert snapshot() == tracefs_before, "the demo left tracefs changed"
