"""The README's demo (examples/demo.sh) records the example program and
shows its trace; it leaves no daemon behind."""
import os
import re
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
    # the daemon the demo started is gone: its pid file points to no process
    run = next(tmp_path.glob("ltt-demo-*")) / "run"
    pid_file = run / "sessiond.pid"
    if pid_file.exists():
        pid = int(pid_file.read_text())
        assert not os.path.exists(f"/proc/{pid}") or \
            open(f"/proc/{pid}/stat").read().split()[2] == "Z"
