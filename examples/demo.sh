#!/bin/sh
# demo.sh BUILD_DIR - the demo: writes a sample trace into a fresh directory,
# prints it with babeltrace2 and summarizes it (events per name).
# Each step is a function, so that later demos (a traced app, kernel events)
# add a step and call it from main.
set -eu

BUILD=${1:-build}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/ltt-demo-XXXXXX")

step() { printf '\n== %s\n' "$*"; }

write_sample_trace() {
	step "writing a sample trace (examples/sample-trace.c)"
	TRACE=$("$BUILD/examples/sample-trace" "$OUT")
	echo "$TRACE"
	ls -l "$TRACE" "$TRACE/index"
}

print_trace() {
	step "babeltrace2 $OUT (first 20 events)"
	babeltrace2 "$OUT" | head -n 20
}

summarize() {
	step "summary: events per name"
	# babeltrace2's text lines are: [time] (+delta) host NAME: {...}
	babeltrace2 "$OUT" | awk '{ sub(/:$/, "", $4); n[$4]++; total++ }
		END { for (k in n) printf "%8d  %s\n", n[k], k; printf "%8d  total\n", total }' |
		sort -k2
}

main() {
	write_sample_trace
	print_trace
	summarize
	step "trace kept in $OUT"
}

main
