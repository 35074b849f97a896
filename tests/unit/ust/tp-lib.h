/* tp-lib.h - a provider that lives in a shared object (tp-lib.so), probes and tracepoints both. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ltt_lib

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "tp-lib.h"

#if !defined(LTT_TEST_TP_LIB_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define LTT_TEST_TP_LIB_H

#include <ltt/tracepoint.h>

TRACEPOINT_EVENT(ltt_lib, hello,
	TP_ARGS(int, v),
	TP_FIELDS(ctf_integer(int, v, v)))
TRACEPOINT_LOGLEVEL(ltt_lib, hello, TRACE_INFO)

#endif

#include <ltt/tracepoint-event.h>
