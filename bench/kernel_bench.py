"""The kernel-tracing benchmark (part of bench/run): two workloads traced
with every sched tracepoint and every system call enabled, in the same run,

  untraced   the workload alone
  ltt        an ltt session (its own daemons, private home): enable-event -k
             'sched:*' and --syscall --all, the default kernel channel
  perf       `perf record -a` with the same events (Debian's linux-perf)
  naive      a tracefs instance with the same events, `cat` reading each
             CPU's trace_pipe_raw into a file
  floor      the kernel alone: an instance set up as ltt's (trace_clock mono,
             record-tgid, a pid excluded), the same events, a buffer large
             enough for the whole run and no reader: what recording every
             event costs the workload, with nothing lost

and for each: the slowdown (workload time / untraced time, medians), the
events recorded and lost (ltt: events in the trace and its events_discarded;
perf: samples written and its LOST records; naive: the kernel's "read events"
and overrun + dropped), and bytes written per event recorded.

bench/kernel-bench.c is the workload: `getppid N` (a syscall-heavy loop)
and `pingpong N` (two threads on one CPU passing a byte through pipes: a
scheduler-heavy one). It times its own loop, so no tracer's start counts.
Needs root, tracefs and perf; otherwise skipped with the reason. It runs
under bench/run's lock (tracefs is global) and leaves tracefs as it found
it.
"""
import glob
import json
import os
import re
import resource
import shutil
import signal
import statistics
import struct
import subprocess
import tempfile
import time

TRACEFS = "/sys/kernel/tracing"
TRACERS = ["untraced", "ltt", "perf", "naive", "floor"]


def unavailable(build):
    """Why the benchmark cannot run here, or None."""
    if os.geteuid() != 0:
        return "kernel tracing needs root"
    if not os.path.isdir(os.path.join(TRACEFS, "instances")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS], capture_output=True)
    if not os.path.isdir(os.path.join(TRACEFS, "instances")):
        return "no tracefs"
    if not shutil.which("perf"):
        return "perf is not installed (tools/install-deps --bench: linux-perf)"
    if not os.path.exists(os.path.join(build, "bench", "kernel-bench")):
        return "bench/kernel-bench is not built"
    return None


def sh(argv, env=None, check=True, timeout=900, preexec_fn=None):
    p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout,
                       preexec_fn=preexec_fn)
    if check and p.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {p.stderr.strip()}")
    return p


def workload(build, kind, n):
    """Runs the workload alone: (seconds, None, None, None)."""
    out = sh([os.path.join(build, "bench", "kernel-bench"), kind, str(n)]).stdout
    return json.loads(out)["seconds"], None, None, None


class Ltt:
    def __init__(self, build):
        self.build = build
        self.home = tempfile.mkdtemp(prefix="ltt-kbench-")
        self.env = dict(os.environ, HOME=self.home, LTT_HOME=os.path.join(self.home, "run"))
        self.cli = os.path.join(build, "src", "cli", "ltt")

    def ltt(self, *args):
        return sh([self.cli, *args], env=self.env)

    def run(self, kind, n):
        out = os.path.join(self.home, "trace")
        shutil.rmtree(out, ignore_errors=True)
        self.ltt("create", "kb", "--output", out)
        try:
            self.ltt("enable-event", "-k", "-s", "kb", "sched:*")
            self.ltt("enable-event", "-k", "-s", "kb", "--syscall", "--all")
            self.ltt("start", "kb")
            seconds = workload(self.build, kind, n)[0]
            self.ltt("stop", "kb")
        finally:
            self.ltt("destroy", "kb")
        kdir = os.path.join(out, "kernel")
        recorded = int(sh([self.cli, "view", "--count", kdir]).stdout.split()[0])
        lost, size = 0, 0
        for f in glob.glob(os.path.join(kdir, "index", "*.idx")):
            with open(f, "rb") as fh:
                data = fh.read()
            if len(data) >= 16 + 72:        # the last packet's cumulative events_discarded
                lost += struct.unpack(">Q", data[-72 + 40:-72 + 48])[0]
        for f in glob.glob(os.path.join(kdir, "channel0_*")):
            size += os.path.getsize(f)
        shutil.rmtree(out, ignore_errors=True)
        return seconds, recorded, lost, size

    def stop(self):
        try:
            with open(os.path.join(self.home, "run", "sessiond.pid")) as f:
                pid = int(f.read())
            os.kill(pid, signal.SIGTERM)
            for _ in range(200):
                os.kill(pid, 0)
                time.sleep(0.05)
        except (OSError, ValueError):
            pass
        shutil.rmtree(self.home, ignore_errors=True)


def more_files():
    """perf opens every event on every CPU: as many descriptors as allowed."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Perf:
    def __init__(self, build):
        self.build = build
        self.dir = tempfile.mkdtemp(prefix="ltt-kbench-perf-")

    def run(self, kind, n):
        data = os.path.join(self.dir, "perf.data")
        p = sh(["perf", "record", "-a", "-e", "sched:*", "-e", "syscalls:*", "-o", data, "--",
                os.path.join(self.build, "bench", "kernel-bench"), kind, str(n)],
               preexec_fn=more_files)
        seconds = json.loads(p.stdout.strip().splitlines()[-1])["seconds"]
        m = re.search(r"\((\d+) samples\)", p.stderr)
        recorded = int(m.group(1)) if m else 0
        lost = self.lost(data)
        size = os.path.getsize(data)
        os.unlink(data)
        return seconds, recorded, lost, size

    @staticmethod
    def lost(data):
        """Samples perf lost: the sum of its LOST and LOST_SAMPLES records."""
        stats = sh(["perf", "report", "--stats", "-i", data], check=False).stdout
        # the "Aggregated stats:" section, up to the first per-event one ("EVENT stats:")
        aggregated = stats.split("Aggregated stats:", 1)[-1]
        aggregated = re.split(r"^\S.* stats:$", aggregated, maxsplit=1, flags=re.M)[0]
        records = sum(int(n) for n in re.findall(r"^\s*LOST(?:_SAMPLES)? events:\s+(\d+)",
                                                 aggregated, re.M))
        if records == 0:
            return 0
        # each record says how many samples it stands for (perf report -D: "lost:N")
        dump = subprocess.Popen(["perf", "report", "-D", "-i", data], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        lost = 0
        for line in dump.stdout:
            if b"PERF_RECORD_LOST" in line:
                m = re.search(rb"lost:\s*(\d+)", line)
                lost += int(m.group(1)) if m else 0
        dump.wait()
        return lost

    def stop(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class Naive:
    """A tracefs instance and `cat per_cpu/cpuN/trace_pipe_raw > file`."""

    def __init__(self, build):
        self.build = build
        self.dir = tempfile.mkdtemp(prefix="ltt-kbench-naive-")
        self.inst = os.path.join(TRACEFS, "instances", f"ltt-naive-{os.getpid()}")

    @staticmethod
    def write(path, value):
        with open(path, "w") as f:
            f.write(value)

    def run(self, kind, n):
        os.mkdir(self.inst)
        cats = []
        try:
            self.write(os.path.join(self.inst, "events/sched/enable"), "1")
            self.write(os.path.join(self.inst, "events/syscalls/enable"), "1")
            cpus = sorted(os.listdir(os.path.join(self.inst, "per_cpu")))
            for cpu in cpus:
                out = open(os.path.join(self.dir, cpu), "wb")
                cats.append(subprocess.Popen(
                    ["cat", os.path.join(self.inst, "per_cpu", cpu, "trace_pipe_raw")],
                    stdout=out))
                out.close()
            self.write(os.path.join(self.inst, "tracing_on"), "1")
            seconds = workload(self.build, kind, n)[0]
            self.write(os.path.join(self.inst, "tracing_on"), "0")
            recorded = lost = 0
            for cpu in cpus:
                with open(os.path.join(self.inst, "per_cpu", cpu, "stats")) as f:
                    st = dict(l.split(":", 1) for l in f.read().splitlines() if ":" in l)
                lost += int(st["overrun"]) + int(st["dropped events"])
                recorded += int(st["read events"])
        finally:
            for c in cats:
                c.kill()
                c.wait()
            self.write(os.path.join(self.inst, "events/enable"), "0")
            os.rmdir(self.inst)
        size = 0
        for cpu in cpus:
            size += os.path.getsize(os.path.join(self.dir, cpu))
            os.unlink(os.path.join(self.dir, cpu))
        return seconds, recorded, lost, size

    def stop(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class Floor:
    """The same events into an instance big enough for the run, read by nobody."""

    def __init__(self, build):
        self.build = build
        self.inst = os.path.join(TRACEFS, "instances", f"ltt-floor-{os.getpid()}")

    def run(self, kind, n):
        os.mkdir(self.inst)
        try:
            for f, v in (("buffer_size_kb", str(512 << 10)), ("trace_clock", "mono"),
                         ("options/record-tgid", "1"),
                         ("set_event_notrace_pid", str(os.getpid())),
                         ("events/sched/enable", "1"), ("events/syscalls/enable", "1"),
                         ("tracing_on", "1")):
                Naive.write(os.path.join(self.inst, f), v)
            seconds = workload(self.build, kind, n)[0]
            Naive.write(os.path.join(self.inst, "tracing_on"), "0")
            recorded = lost = 0
            for cpu in os.listdir(os.path.join(self.inst, "per_cpu")):
                with open(os.path.join(self.inst, "per_cpu", cpu, "stats")) as f:
                    st = dict(l.split(":", 1) for l in f.read().splitlines() if ":" in l)
                lost += int(st["overrun"]) + int(st["dropped events"])
                recorded += int(st["entries"])
        finally:
            Naive.write(os.path.join(self.inst, "events/enable"), "0")
            os.rmdir(self.inst)
        return seconds, recorded, lost, 0

    def stop(self):
        pass


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def run(build, reps, quick, log):
    """The figures, {figure: {tracer: spread}}; log(message) reports progress."""
    sizes = {"getppid": 1_000_000 if quick else 5_000_000,
             "pingpong": 50_000 if quick else 200_000}
    tracers = {"ltt": Ltt(build), "perf": Perf(build), "naive": Naive(build),
               "floor": Floor(build)}
    figures = {}
    try:
        for kind, n in sizes.items():
            samples = {t: [] for t in TRACERS}
            for rep in range(reps):
                # interleaved: each repetition runs every tracer, so drift hits all
                for name in TRACERS:
                    log(f"# kernel {kind} {n}: {name} ({rep + 1}/{reps})")
                    samples[name].append(workload(build, kind, n) if name == "untraced"
                                         else tracers[name].run(kind, n))
            base = statistics.median(s[0] for s in samples["untraced"])
            figures[f"kernel {kind} seconds"] = {t: spread([s[0] for s in samples[t]])
                                                 for t in TRACERS}
            for t in TRACERS[1:]:
                figures.setdefault(f"kernel {kind} slowdown", {})[t] = spread(
                    [s[0] / base for s in samples[t]])
                figures.setdefault(f"kernel {kind} events recorded", {})[t] = spread(
                    [s[1] for s in samples[t]])
                figures.setdefault(f"kernel {kind} % lost", {})[t] = spread(
                    [100.0 * s[2] / (s[1] + s[2]) if s[1] + s[2] else 0 for s in samples[t]])
                figures.setdefault(f"kernel {kind} bytes/event", {})[t] = spread(
                    [s[3] / s[1] if s[1] else 0 for s in samples[t]])
    finally:
        for t in tracers.values():
            t.stop()
    return figures


def print_table(figures):
    names = TRACERS[1:]
    print(f"\n{'kernel figure':30}" + "".join(f"{n:>22}" for n in names) +
          "  ltt/perf ltt/naive ltt/floor")
    for fig, per in figures.items():
        if fig.endswith("seconds"):
            continue
        row = f"{fig:30}"
        for n in names:
            s = per[n]
            digits = 0 if "recorded" in fig else 2
            row += f"{s['median']:.{digits}f} ({s['min']:.{digits}f}-{s['max']:.{digits}f})".rjust(22)
        for peer in ("perf", "naive", "floor"):
            row += f"{per['ltt']['median'] / per[peer]['median']:10.2f}" \
                if per[peer]["median"] else f"{'-':>10}"
        print(row)
