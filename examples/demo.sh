#!/bin/sh
# demo.sh BUILD_DIR - the demo: records the example request handler
# (examples/httpd-sim.c) with ltt, prints the trace with babeltrace2 and
# summarizes it (events per name, request latencies). As root with tracefs,
# the kernel's view of the same program is recorded beside it (its
# scheduling and its system calls, on the same clock); otherwise the demo
# says why and stays in user space.
# It uses a private runtime directory, so that it neither sees nor disturbs
# another session daemon, and stops the daemon it started (which removes its
# tracefs instance).
# Each step is a function: later demos add a step to main.
set -eu

BUILD=${1:-build}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ltt-demo-XXXXXX")
OUT="$WORK/trace"
LTT="$BUILD/src/cli/ltt"
APP=httpd-sim
export LTT_HOME="$WORK/run"
# the example waits up to this long for its registration (default: a few ms)
export LTT_UST_REGISTER_TIMEOUT=5000

step() { printf '\n== %s\n' "$*"; }
ltt() {
	printf '$ ltt'
	for a in "$@"; do
		case $a in
		*[\ \"\$\*\|]*) printf " '%s'" "$a" ;;
		*) printf ' %s' "$a" ;;
		esac
	done
	echo
	"$LTT" "$@"
}

stop_daemon() {
	if [ -f "$LTT_HOME/sessiond.pid" ]; then
		kill "$(cat "$LTT_HOME/sessiond.pid")" 2>/dev/null || true
	fi
}
trap stop_daemon EXIT
trap 'exit 1' INT TERM HUP PIPE

# Why the kernel cannot be traced here, or nothing.
kernel_unavailable() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "not root (kernel tracing needs root or the tracing group)"
	elif [ ! -d /sys/kernel/tracing/instances ] &&
	     ! mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
		echo "tracefs cannot be mounted on /sys/kernel/tracing"
	fi
}

KERNEL_WHY=$(kernel_unavailable)

enable_kernel() {
	# the example's threads only: kernel filters, evaluated by the kernel itself
	ltt enable-event -k sched_switch --filter "prev_comm == \"$APP\" || next_comm == \"$APP\""
	ltt enable-event -k sched_wakeup --filter "comm == \"$APP\""
	ltt enable-event -k --syscall --all --filter "\$ctx.procname == \"$APP\""
}

record() {
	step "recording examples/$APP (2 threads x 20 requests)"
	ltt create demo --output "$OUT"
	ltt enable-event -u 'httpd:*'
	if [ -z "$KERNEL_WHY" ]; then
		enable_kernel
	else
		echo "(user space only: $KERNEL_WHY)"
	fi
	ltt start
	"$BUILD/examples/$APP" 20 2
	ltt stop
	ltt destroy
}

print_trace() {
	step "babeltrace2 $OUT (the first 12 events of the requests)"
	babeltrace2 "$OUT" | grep -A 11 -m 1 'httpd:request_start' | head -n 12
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
	[ -z "$KERNEL_WHY" ] || return 0
	step "summary: the kernel's view of $APP (its system calls, its time off CPU)"
	"$LTT" analyze syscalls "$OUT/kernel"
	babeltrace2 --clock-seconds "$OUT" | awk -v app="$APP" '
		/ sched_switch: / {
			t = substr($1, 2, length($1) - 2)
			prev = $0; sub(/.*prev_tid = /, "", prev); sub(/,.*/, "", prev)
			next_ = $0; sub(/.*next_tid = /, "", next_); sub(/,.*/, "", next_)
			if ($0 ~ "prev_comm = \"" app "\"") { off[prev] = t; switches++ }
			if ($0 ~ "next_comm = \"" app "\"" && (next_ in off)) {
				waited += t - off[next_]; delete off[next_] }
		}
		END { printf "%d context switches of its threads, %.1f ms off CPU in all\n",
			switches, waited * 1e3 }'
}

main() {
	record
	print_trace
	summarize
	step "trace kept in $OUT"
}

main
