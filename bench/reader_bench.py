#!/usr/bin/python3
"""The reader's rows of bench/run: `ltt view` against babeltrace2 on one lttng-ust trace.

The trace: reader_app (tests/e2e/data, every field type the reader decodes)
recorded with Debian's lttng-ust, EVENTS events, a blocking channel so that
nothing is discarded. It is recorded once and kept under the build directory
(bench/reader-trace-N); LTT_BENCH_TRACE=DIR uses another one. Its session
daemon runs as `nobody` with a private home: it shares nothing with root's.

Each repetition runs, in turn and with the trace in the page cache:
  text          ltt view TRACE  /  babeltrace2 TRACE                 (to /dev/null)
  decode only   ltt view --count TRACE  /  babeltrace2 -c sink.utils.counter TRACE
and the text conversion of a tenth of the trace (the same packets, cut), to
show that memory does not grow with the trace. Both decode-only commands
decode every field of every event: babeltrace2's source builds each event's
fields whatever the sink; `ltt view --count` runs each event's decode
program into its values, as `ltt view` does before it prints.
"""
import os
import shutil
import struct
import subprocess
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOBODY = 65534
DEFAULT_EVENTS = 10_000_000


def missing_peers():
    """What recording and reading the trace needs and is not installed, or ''."""
    need = ["babeltrace2", "lttng", "lttng-sessiond", "setpriv", "gcc"]
    miss = [p for p in need if not shutil.which(p)]
    if not os.path.exists("/usr/bin/time"):
        miss.append("time")
    if not any(os.path.exists(p) for p in ("/usr/include/lttng/tracepoint.h",
                                           "/usr/include/x86_64-linux-gnu/lttng/tracepoint.h")):
        miss.append("liblttng-ust-dev")
    if os.geteuid() != 0:
        miss.append("root (the session daemon runs as nobody)")
    return ", ".join(miss)


def record(trace, events):
    """Records the trace into `trace` (which must not exist)."""
    work = tempfile.mkdtemp(prefix="ltt-reader-bench-")
    os.chmod(work, 0o755)
    home = os.path.join(work, "home")
    out = os.path.join(work, "traces")
    for d in (home, out):
        os.mkdir(d)
        os.chown(d, NOBODY, NOBODY)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LTTNG_HOME": home,
           "LTTNG_UST_REGISTER_TIMEOUT": "5000"}
    asuser = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]
    sessiond = None

    def lttng(*args):
        subprocess.run(asuser + ["lttng", *args], env=env, check=True, capture_output=True,
                       timeout=120)
    try:
        app = os.path.join(work, "reader_app")
        data = os.path.join(TOP, "tests", "e2e", "data")
        subprocess.run(["gcc", "-O2", "-I", data, "-o", app, os.path.join(data, "reader_app.c"),
                        "-llttng-ust", "-ldl"], check=True, timeout=300)
        sessiond = subprocess.Popen(asuser + ["lttng-sessiond", "--no-kernel"], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while subprocess.run(asuser + ["lttng", "list"], env=env,
                             capture_output=True).returncode != 0:
            if sessiond.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("reader bench: lttng-sessiond does not answer")
            time.sleep(0.05)    # polling the real condition (the daemon answers), bounded
        lttng("create", "bench", "--output=" + os.path.join(out, "bench"))
        lttng("enable-channel", "-u", "--subbuf-size=4M", "--num-subbuf=8",
              "--blocking-timeout=inf", "ch")
        lttng("enable-event", "-u", "-c", "ch", "rdtest:*")
        lttng("add-context", "-u", "-c", "ch", "-t", "vpid", "-t", "vtid")
        lttng("start", "bench")
        # reader_app emits 10 events per loop
        subprocess.run(asuser + [app, str(events // 10)], check=True, timeout=1800,
                       env=dict(env, LTTNG_UST_ALLOW_BLOCKING="1"))
        lttng("stop", "bench")
        lttng("destroy", "bench")
        os.makedirs(os.path.dirname(trace), exist_ok=True)
        shutil.move(os.path.join(out, "bench"), trace)
    finally:
        if sessiond and sessiond.poll() is None:
            sessiond.terminate()
            sessiond.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


def cut(trace, dest, fraction):
    """A copy of trace with each stream file cut after `fraction` of its packets
    (packet boundaries from the LTTng index files)."""
    for root, dirs, files in os.walk(trace):
        rel = os.path.relpath(root, trace)
        os.makedirs(os.path.join(dest, rel), exist_ok=True)
        if os.path.basename(root) == "index":
            continue
        for f in files:
            src, dst = os.path.join(root, f), os.path.join(dest, rel, f)
            idx = os.path.join(root, "index", f + ".idx")
            if f == "metadata" or not os.path.exists(idx):
                shutil.copyfile(src, dst)
                continue
            with open(idx, "rb") as fh:
                data = fh.read()
            # header: magic, major, minor, entry size (big-endian u32 each)
            entry = struct.unpack(">I", data[12:16])[0]
            offsets = [struct.unpack(">Q", data[16 + i * entry:24 + i * entry])[0]
                       for i in range((len(data) - 16) // entry)]
            keep = max(1, int(len(offsets) * fraction))
            end = offsets[keep] if keep < len(offsets) else os.path.getsize(src)
            with open(src, "rb") as i, open(dst, "wb") as o:
                o.write(i.read(end))


def measure(argv, capture=False):
    """Runs argv, its output to /dev/null (capture: to a file, whose start is
    returned): (seconds, peak RSS in MiB, output or ''). The peak RSS is
    /usr/bin/time's: a child of this interpreter would count its memory."""
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as rss, \
            open(os.devnull, "wb") as null:
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name, *argv],
                           stdout=out if capture else null, stderr=subprocess.PIPE)
        seconds = time.perf_counter() - t0
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)}: {p.stderr.decode(errors='replace').strip()}")
        out.seek(0)
        return seconds, int(rss.read().split()[-1]) / 1024, out.read(4096).decode(errors="replace")


def figures(build, reps, log, spread):
    """The reader's figures for bench/run and facts about the trace, or
    ({}, None) (with why on log) if something is missing."""
    miss = missing_peers()
    if miss:
        log(f"reader: not measured, missing: {miss} (make bench-deps)")
        return {}, None
    ltt = os.path.join(build, "src", "cli", "ltt")
    events = int(os.environ.get("LTT_BENCH_EVENTS", DEFAULT_EVENTS))
    trace = os.environ.get("LTT_BENCH_TRACE") or \
        os.path.join(build, "bench", f"reader-trace-{events}")
    if not os.path.isdir(trace):
        log(f"# reader: recording {events} lttng-ust events into {trace}")
        record(trace, events)
    tenth = trace + "-tenth"
    if not os.path.isdir(tenth):
        cut(trace, tenth, 0.1)
    n = int(measure([ltt, "view", "--count", trace], capture=True)[2])   # and into the page cache
    n10 = int(measure([ltt, "view", "--count", tenth], capture=True)[2])
    mib = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(trace) for f in fs) >> 20
    log(f"# reader: {n} events ({mib} MiB), a tenth: {n10}")
    runs = {
        "text": ([ltt, "view", trace], ["babeltrace2", trace], n),
        "decode only": ([ltt, "view", "--count", trace],
                        ["babeltrace2", trace, "-c", "sink.utils.counter"], n),
        "text, a tenth of the trace": ([ltt, "view", tenth], ["babeltrace2", tenth], n10),
    }
    got = {k: {"ltt": ([], []), "babeltrace2": ([], [])} for k in runs}
    for rep in range(reps):
        log(f"# reader: repetition {rep + 1}/{reps}")
        for k, (mine, peer, _) in runs.items():
            for who, argv in (("ltt", mine), ("babeltrace2", peer)):
                s, rss, _ = measure(argv)
                got[k][who][0].append(s)
                got[k][who][1].append(rss)

    fig = {}
    for k, (_, _, count) in runs.items():
        if k != "text, a tenth of the trace":
            fig[f"reader {k}, M events/s"] = {
                who: spread([count / s / 1e6 for s in got[k][who][0]]) for who in got[k]}
        fig[f"reader {k}, peak RSS MiB"] = {who: spread(got[k][who][1]) for who in got[k]}
    return fig, {"events": n, "tenth_events": n10, "trace_mib": mib, "trace": trace}


if __name__ == "__main__":
    # the reader rows alone: bench/reader_bench.py [BUILD_DIR] [REPS]
    import json
    import statistics
    import sys

    def _spread(values):
        return {"median": statistics.median(values), "min": min(values), "max": max(values)}
    args = sys.argv[1:]
    fig, info = figures(os.path.abspath(args[0]) if args else os.path.join(TOP, "build"),
                        int(args[1]) if len(args) > 1 else 3,
                        lambda m: print(m, file=sys.stderr, flush=True), _spread)
    print(json.dumps({"figures": fig, "reader": info}, indent=2))
