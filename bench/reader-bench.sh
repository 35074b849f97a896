#!/bin/sh
# reader-bench.sh - ltt view vs babeltrace2 on one lttng-ust trace (not a test).
#
#   bench/reader-bench.sh [BUILD_DIR] [EVENTS]     (defaults: build, 10000000)
#   TRACE=DIR bench/reader-bench.sh ...            reuse a trace recorded before
#
# Records EVENTS events of tests/e2e/data/reader_app.c with a private
# lttng-sessiond (as nobody, blocking channel: nothing discarded), then, in
# the same run, converts the trace to text (to /dev/null) and counts it
# (decode only) with both readers, and prints events/s, peak RSS and ratios.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
events=${2:-10000000}
ltt="$top/$build/src/cli/ltt"
[ -x "$ltt" ] || { echo "reader-bench: build first ($ltt missing)" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "reader-bench: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

work=$(mktemp -d /tmp/ltt-reader-bench-XXXXXX)
chmod 755 "$work"
sessiond=""
cleanup() {
	[ -n "$sessiond" ] && kill "$sessiond" 2>/dev/null && wait "$sessiond" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT INT TERM

if [ -z "${TRACE:-}" ]; then
	home="$work/home"; mkdir -p "$home" "$work/traces"; chown nobody "$home" "$work/traces"
	as="setpriv --reuid=65534 --regid=65534 --clear-groups --"
	export HOME="$home" LTTNG_HOME="$home"
	gcc -O2 -I "$top/tests/e2e/data" -o "$work/app" "$top/tests/e2e/data/reader_app.c" -llttng-ust -ldl
	$as lttng-sessiond --no-kernel >/dev/null 2>&1 &
	sessiond=$!
	i=0
	until $as lttng list >/dev/null 2>&1; do
		i=$((i + 1)); [ $i -lt 200 ] || { echo "reader-bench: sessiond does not answer" >&2; exit 1; }
		sleep 0.05
	done
	TRACE="$work/traces/bench"
	$as lttng create bench --output="$TRACE" >/dev/null
	$as lttng enable-channel -u --subbuf-size=4M --num-subbuf=8 --blocking-timeout=inf ch >/dev/null
	$as lttng enable-event -u -c ch 'rdtest:*' >/dev/null
	$as lttng add-context -u -c ch -t vpid -t vtid >/dev/null
	$as lttng start bench >/dev/null
	LTTNG_UST_ALLOW_BLOCKING=1 $as "$work/app" $((events / 10))
	$as lttng stop bench >/dev/null
	$as lttng destroy bench >/dev/null
fi

n=$("$ltt" view --count "$TRACE")
size=$(du -sm "$TRACE" | cut -f1)
echo "trace: $TRACE: $n events, $size MiB"

# run NAME CMD...: prints "NAME seconds maxrss_kib"
run() {
	name=$1; shift
	/usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" ||
		{ echo "reader-bench: $name failed:" >&2; cat "$work/err" >&2; exit 1; }
	echo "$name $(cat "$work/time")"
}

{
	run bt2-text babeltrace2 "$TRACE"
	run ltt-text "$ltt" view "$TRACE"
	run bt2-count babeltrace2 "$TRACE" -c sink.utils.counter
	run ltt-count "$ltt" view --count "$TRACE"
} > "$work/results"

awk -v n="$n" '
	{ t[$1] = $2; m[$1] = $3 }
	END {
		printf "%-10s %10s %14s %12s\n", "reader", "seconds", "events/s", "peak RSS"
		for (k in t) printf "%-10s %10.2f %14.0f %9.1f MiB\n", k, t[k], (t[k] > 0 ? n / t[k] : 0), m[k] / 1024
		printf "text:        ltt is %.1fx babeltrace2 (RSS %.1f vs %.1f MiB)\n", t["bt2-text"] / t["ltt-text"], m["ltt-text"] / 1024, m["bt2-text"] / 1024
		printf "decode only: ltt is %.1fx babeltrace2 (RSS %.1f vs %.1f MiB)\n", t["bt2-count"] / t["ltt-count"], m["ltt-count"] / 1024, m["bt2-count"] / 1024
	}' "$work/results"
