/* tp-compat.h - a provider written for lttng-ust 2.13's headers and prefixed API. */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER ltt_compat

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "tp-compat.h"

#if !defined(LTT_TP_COMPAT_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define LTT_TP_COMPAT_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(ltt_compat, hello,
	LTTNG_UST_TP_ARGS(int, v, const char *, s),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, v, v)
		lttng_ust_field_string(s, s)))
LTTNG_UST_TRACEPOINT_LOGLEVEL(ltt_compat, hello, LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO)

LTTNG_UST_TRACEPOINT_EVENT_CLASS(ltt_compat, cls,
	LTTNG_UST_TP_ARGS(int, v),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer_hex(int, v, v)))
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(ltt_compat, cls, ltt_compat, inst, LTTNG_UST_TP_ARGS(int, v))

/* and the classic API through <lttng/tracepoint.h> */
TRACEPOINT_EVENT(ltt_compat, classic,
	TP_ARGS(int, v),
	TP_FIELDS(ctf_integer(int, v, v)))

#endif

#include <lttng/tracepoint-event.h>
