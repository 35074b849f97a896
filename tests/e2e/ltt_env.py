"""A private ltt environment for one test: its own LTT_HOME and HOME, the
`ltt` command of the build, and at teardown the session daemon it started
killed (by the PID in its pid file: never by name)."""
import os
import select
import signal
import subprocess

from conftest import build_path


class LttEnv:
    def __init__(self, tmp_path):
        self.home = tmp_path / "home"
        self.runtime = tmp_path / "run"
        self.home.mkdir()
        self.env = dict(os.environ, HOME=str(self.home), LTT_HOME=str(self.runtime))
        self.ltt_path = build_path("src", "cli", "ltt")

    def ltt(self, *args, check=True, timeout=60):
        """Runs `ltt ARGS`; returns the CompletedProcess (text)."""
        p = subprocess.run([self.ltt_path, *args], env=self.env, capture_output=True,
                           text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        if check and p.returncode != 0:
            raise AssertionError(f"ltt {' '.join(args)} exited {p.returncode}:\n"
                                 f"{p.stdout}\n{p.stderr}")
        return p

    def sessiond_pid(self):
        try:
            return int((self.runtime / "sessiond.pid").read_text())
        except (FileNotFoundError, ValueError):
            return None

    def consumerd_pids(self):
        """The processes the session daemon started (its consumer daemons)."""
        daemon, out = self.sessiond_pid(), []
        for d in os.listdir("/proc"):
            if d.isdigit():
                try:
                    with open(f"/proc/{d}/stat") as f:
                        if int(f.read().rsplit(")", 1)[1].split()[1]) == daemon:
                            out.append(int(d))
                except (OSError, ValueError, IndexError):
                    pass
        return out

    def kill_sessiond(self, sig=signal.SIGTERM, timeout=10):
        """Stops the daemon this environment started and waits until it is gone
        (through a pidfd: the daemon is not our child)."""
        pid = self.sessiond_pid()
        if pid is None:
            return
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            return
        try:
            signal.pidfd_send_signal(fd, sig)
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            if not poller.poll(timeout * 1000):
                signal.pidfd_send_signal(fd, signal.SIGKILL)
                poller.poll(timeout * 1000)
        except ProcessLookupError:
            pass
        finally:
            os.close(fd)
