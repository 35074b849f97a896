"""The README's demo (examples/demo.sh) records the example program and
shows its trace; it leaves no daemon behind."""
import os
import re
import select
import subprocess

from conftest import BUILD, TOP


def test_demo_shows_a_real_trace(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    p = subprocess.run(["sh", os.path.join(TOP, "examples", "demo.sh"), BUILD], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert re.search(r"^\s+40  httpd:request_start$", p.stdout, re.M)
    assert re.search(r"^\s+40  httpd:request_end$", p.stdout, re.M)
    assert re.search(r"^\s+4  httpd:error$", p.stdout, re.M)
    assert re.search(r"^40 requests: min [\d.]+ us", p.stdout, re.M)
    # the daemon the demo started was told to stop: it exits (bounded wait)
    log = (next(tmp_path.glob("ltt-demo-*")) / "run" / "sessiond.log").read_text()
    pid = int(re.search(r"serving .* \(pid (\d+)\)", log).group(1))
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        assert select.select([fd], [], [], 30)[0], f"the demo's daemon {pid} is still running"
    finally:
        os.close(fd)
