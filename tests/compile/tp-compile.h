/*
 * tp-compile.h - a provider included from C99, C11 and C++ files
 * (tests/compile): the public headers must compile warning-free in each.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ltt_compile

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "tp-compile.h"

#if !defined(LTT_TP_COMPILE_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define LTT_TP_COMPILE_H

#include <stdint.h>
#include <ltt/tracepoint.h>

TRACEPOINT_ENUM(ltt_compile, state,
	TP_ENUM_VALUES(
		ctf_enum_value("idle", 0)
		ctf_enum_range("busy", 1, 9)
		ctf_enum_auto("other")))

TRACEPOINT_EVENT(ltt_compile, every_field,
	TP_ARGS(int, i, const char *, s, const uint8_t *, buf, unsigned, n, double, d),
	TP_FIELDS(
		ctf_integer(int, i, i)
		ctf_integer_hex(unsigned, ih, n)
		ctf_integer_network(uint32_t, in, i)
		ctf_integer_network_hex(uint16_t, inh, i)
		ctf_float(double, d, d)
		ctf_float(float, f, d)
		ctf_string(s, s)
		ctf_array(uint8_t, arr, buf, 2)
		ctf_array_text(char, arrt, s, 4)
		ctf_sequence(uint8_t, seq, buf, unsigned, n)
		ctf_sequence_text(char, seqt, s, unsigned, n)
		ctf_enum(ltt_compile, state, int, st, i)
		ctf_integer_nowrite(int, inw, i)
		ctf_string_nowrite(snw, s)
		ctf_sequence_nowrite(uint8_t, seqnw, buf, unsigned, n)))
TRACEPOINT_LOGLEVEL(ltt_compile, every_field, TRACE_NOTICE)

TRACEPOINT_EVENT_CLASS(ltt_compile, cls,
	TP_ARGS(long, v),
	TP_FIELDS(ctf_integer(long, v, v)))
TRACEPOINT_EVENT_INSTANCE(ltt_compile, cls, one, TP_ARGS(long, v))
TRACEPOINT_EVENT_INSTANCE(ltt_compile, cls, two, TP_ARGS(long, v))
TRACEPOINT_LOGLEVEL(ltt_compile, two, TRACE_DEBUG_FUNCTION)
TRACEPOINT_MODEL_EMF_URI(ltt_compile, two, "urn:ltt:two")

/* The prefixed spellings. */
LTT_TRACEPOINT_EVENT(ltt_compile, prefixed,
	LTT_TP_ARGS(int, v),
	LTT_TP_FIELDS(ltt_field_integer(int, v, v) ltt_field_string(lit, "x")))

#endif

#include <ltt/tracepoint-event.h>
