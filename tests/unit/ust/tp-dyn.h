/*
 * tp-dyn.h - a provider whose probes are in a shared object
 * (tp-dyn-probe.so) while its tracepoints are in the program, defined with
 * TRACEPOINT_PROBE_DYNAMIC_LINKAGE (tp-dyn-define.c).
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ltt_dyn

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "tp-dyn.h"

#if !defined(LTT_TEST_TP_DYN_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define LTT_TEST_TP_DYN_H

#include <ltt/tracepoint.h>

TRACEPOINT_EVENT(ltt_dyn, ping,
	TP_ARGS(int, v, const char *, s),
	TP_FIELDS(
		ctf_integer(int, v, v)
		ctf_string(s, s)))

#endif

#include <ltt/tracepoint-event.h>
