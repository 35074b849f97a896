#!/bin/sh
# check-exports.sh LIB: every symbol LIB defines for others starts with ltt_.
set -eu
lib=$1
syms=$(nm -D --defined-only "$lib" | awk '{ print $3 }' | sed 's/@.*//' | sort -u)
[ -n "$syms" ] || { echo "no exported symbols in $lib"; exit 1; }
bad=$(printf '%s\n' "$syms" | grep -v -e '^ltt_' -e '^LTT_UST_0$' || true)
if [ -n "$bad" ]; then
	echo "symbols outside the ltt_ API exported by $lib:"
	printf '%s\n' "$bad"
	exit 1
fi
printf '%s\n' "$syms" | grep -q '^ltt_ust_event_reserve$'
echo "$lib exports only ltt_ symbols:"
printf '%s\n' "$syms"
