#!/bin/sh
# demo.sh BUILD_DIR - the demo: records the example request handler
# (examples/httpd-sim.c) with ltt, prints the trace with babeltrace2 and
# summarizes it (events per name, request latencies).
# It uses a private runtime directory, so that it neither sees nor disturbs
# another session daemon, and stops the daemon it started.
# Each step is a function: later demos (kernel events) add a step to main.
set -eu

BUILD=${1:-build}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ltt-demo-XXXXXX")
OUT="$WORK/trace"
LTT="$BUILD/src/cli/ltt"
export LTT_HOME="$WORK/run"
# the example waits up to this long for its registration (default: a few ms)
export LTT_UST_REGISTER_TIMEOUT=5000

step() { printf '\n== %s\n' "$*"; }
ltt() { echo "\$ ltt $*"; "$LTT" "$@"; }

stop_daemon() {
	if [ -f "$LTT_HOME/sessiond.pid" ]; then
		kill "$(cat "$LTT_HOME/sessiond.pid")" 2>/dev/null || true
	fi
}
trap stop_daemon EXIT

record() {
	step "recording examples/httpd-sim (2 threads x 20 requests)"
	ltt create demo --output "$OUT"
	ltt enable-event -u 'httpd:*'
	ltt start
	"$BUILD/examples/httpd-sim" 20 2
	ltt stop
	ltt destroy
}

print_trace() {
	step "babeltrace2 $OUT (first 12 events)"
	babeltrace2 "$OUT" | head -n 12
}

summarize() {
	step "summary: events per name"
	# babeltrace2's text lines are: [time] (+delta) host NAME: {...}
	babeltrace2 "$OUT" | awk '{ sub(/:$/, "", $4); n[$4]++; total++ }
		END { for (k in n) printf "%8d  %s\n", n[k], k; printf "%8d  total\n", total }' |
		sort -k2
	step "summary: request latency (request_start -> request_end, by request_id)"
	babeltrace2 --clock-seconds "$OUT" | awk '
		/httpd:request_(start|end)/ {
			t = substr($1, 2, length($1) - 2); match($0, /request_id = [0-9]+/)
			id = substr($0, RSTART + 13, RLENGTH - 13)
			if ($0 ~ /request_start/) s[id] = t
			else if (id in s) { d = (t - s[id]) * 1e6; sum += d; n++
				if (d > max) max = d; if (min == "" || d < min) min = d }
		}
		END { if (n) printf "%d requests: min %.1f us, mean %.1f us, max %.1f us\n",
			n, min, sum / n, max }'
}

main() {
	record
	print_trace
	summarize
	step "trace kept in $OUT"
}

main
