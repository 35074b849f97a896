/*
 * bench-tp.h - the benchmark's events, one provider header for both tracers
 * (the classic API is the same): built with -DBENCH_LTTNG against lttng-ust,
 * otherwise against ltt.
 *   small:  1 int                         (lttng-ust: 10 bytes/event)
 *   medium: 2 ints + a 16-character string (lttng-ust: 31 bytes/event)
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER bench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "bench-tp.h"

#if !defined(BENCH_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_TP_H

#ifdef BENCH_LTTNG
#include <lttng/tracepoint.h>
#else
#include <ltt/tracepoint.h>
#endif

TRACEPOINT_EVENT(bench, small,
	TP_ARGS(int, v),
	TP_FIELDS(ctf_integer(int, v, v)))

TRACEPOINT_EVENT(bench, medium,
	TP_ARGS(int, a, int, b, const char *, s),
	TP_FIELDS(
		ctf_integer(int, a, a)
		ctf_integer(int, b, b)
		ctf_string(s, s)))

#endif /* BENCH_TP_H */

#ifdef BENCH_LTTNG
#include <lttng/tracepoint-event.h>
#else
#include <ltt/tracepoint-event.h>
#endif
