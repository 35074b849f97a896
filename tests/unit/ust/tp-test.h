/*
 * tp-test.h - the test provider: every field macro, an event class with
 * instances, enums, log levels, a model.emf.uri, an event without
 * arguments. Classic (lttng-ust) spellings.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ltt_test

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "tp-test.h"

#if !defined(LTT_TEST_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define LTT_TEST_TP_H

#include <stddef.h>
#include <stdint.h>
#include <ltt/tracepoint.h>

TRACEPOINT_ENUM(ltt_test, color,
	TP_ENUM_VALUES(
		ctf_enum_value("red", 0)
		ctf_enum_range("greens", 1, 5)
		ctf_enum_value("minus", -3)
		ctf_enum_auto("next")
		ctf_enum_value("big", UINT64_C(0xffffffffffffffff))))

TRACEPOINT_EVENT(ltt_test, ints,
	TP_ARGS(int8_t, s8, uint8_t, u8, int16_t, s16, uint16_t, u16, int32_t, s32,
		uint32_t, u32, int64_t, s64, uint64_t, u64),
	TP_FIELDS(
		ctf_integer(int8_t, s8, s8)
		ctf_integer(uint8_t, u8, u8)
		ctf_integer(int16_t, s16, s16)
		ctf_integer(uint16_t, u16, u16)
		ctf_integer(int32_t, s32, s32)
		ctf_integer(uint32_t, u32, u32)
		ctf_integer(int64_t, s64, s64)
		ctf_integer(uint64_t, u64, u64)))
TRACEPOINT_LOGLEVEL(ltt_test, ints, TRACE_INFO)

TRACEPOINT_EVENT(ltt_test, bases,
	TP_ARGS(uint32_t, v, uint16_t, port, uint64_t, addr),
	TP_FIELDS(
		ctf_integer_hex(uint32_t, hex, v)
		ctf_integer_network(uint16_t, port, port)
		ctf_integer_network_hex(uint64_t, addr, addr)
		ctf_integer(uint8_t, tail, v + 1)))
TRACEPOINT_LOGLEVEL(ltt_test, bases, TRACE_WARNING)

TRACEPOINT_EVENT(ltt_test, floats,
	TP_ARGS(float, f, double, d),
	TP_FIELDS(
		ctf_integer(char, c, 'x')
		ctf_float(float, f, f)
		ctf_float(double, d, d)))

TRACEPOINT_EVENT(ltt_test, strings,
	TP_ARGS(const char *, a, const char *, b),
	TP_FIELDS(
		ctf_string(a, a)
		ctf_integer(uint32_t, after, 0x11223344)
		ctf_string(b, b)))
TRACEPOINT_LOGLEVEL(ltt_test, strings, TRACE_DEBUG)

TRACEPOINT_EVENT(ltt_test, arrays,
	TP_ARGS(const uint32_t *, arr, const char *, text, const uint16_t *, net),
	TP_FIELDS(
		ctf_integer(uint8_t, first, 7)
		ctf_array(uint32_t, arr, arr, 3)
		ctf_array_text(char, text, text, 8)
		ctf_array_network(uint16_t, net, net, 2)
		ctf_array_hex(uint8_t, hexes, text, 2)))

TRACEPOINT_EVENT(ltt_test, seqs,
	TP_ARGS(const uint64_t *, vals, size_t, n, const char *, text, unsigned int, tn),
	TP_FIELDS(
		ctf_integer(uint8_t, first, 9)
		ctf_sequence(uint64_t, vals, vals, uint8_t, n)
		ctf_sequence_text(char, text, text, unsigned int, tn)
		ctf_sequence_hex(uint16_t, h16, vals, uint16_t, 1)
		ctf_sequence_network(uint32_t, n32, vals, size_t, 0)))

TRACEPOINT_EVENT(ltt_test, enums,
	TP_ARGS(int, c, unsigned char, small),
	TP_FIELDS(
		ctf_enum(ltt_test, color, int, c, c)
		ctf_enum(ltt_test, color, unsigned char, small, small)))
TRACEPOINT_LOGLEVEL(ltt_test, enums, TRACE_EMERG)

TRACEPOINT_EVENT(ltt_test, nowrite,
	TP_ARGS(int, a, const char *, s, const int *, arr, size_t, n),
	TP_FIELDS(
		ctf_integer_nowrite(int, hidden, a)
		ctf_integer(int, shown, a + 1)
		ctf_string_nowrite(hs, s)
		ctf_float_nowrite(double, hf, 1.5)
		ctf_array_nowrite(int, ha, arr, 2)
		ctf_sequence_nowrite(int, hseq, arr, size_t, n)
		ctf_integer_hex_nowrite(int, hh, a)
		ctf_enum_nowrite(ltt_test, color, int, he, a)
		ctf_array_text_nowrite(char, hat, s, 2)
		ctf_sequence_text_nowrite(char, hst, s, size_t, 1)
		ctf_integer_network_nowrite(uint16_t, hn, a)
		ctf_integer_network_hex_nowrite(uint16_t, hnh, a)
		ctf_unused(n)
		ctf_string(last, s)))

TRACEPOINT_EVENT_CLASS(ltt_test, cls,
	TP_ARGS(int, v, const char *, why),
	TP_FIELDS(
		ctf_integer(int, v, v)
		ctf_string(why, why)))
TRACEPOINT_EVENT_INSTANCE(ltt_test, cls, inst_err, TP_ARGS(int, v, const char *, why))
TRACEPOINT_LOGLEVEL(ltt_test, inst_err, TRACE_ERR)
TRACEPOINT_EVENT_INSTANCE(ltt_test, cls, inst_debug, TP_ARGS(int, v, const char *, why))
TRACEPOINT_LOGLEVEL(ltt_test, inst_debug, TRACE_DEBUG)

TRACEPOINT_EVENT(ltt_test, noargs,
	TP_ARGS(),
	TP_FIELDS())
TRACEPOINT_MODEL_EMF_URI(ltt_test, noargs, "http://example.com/model")

TRACEPOINT_EVENT(ltt_test, counted,
	TP_ARGS(uint32_t, thread, uint32_t, seq),
	TP_FIELDS(
		ctf_integer(uint32_t, thread, thread)
		ctf_integer(uint32_t, seq, seq)
		ctf_integer(uint32_t, check, thread * 2654435761u ^ seq)))

#endif /* LTT_TEST_TP_H */

#include <ltt/tracepoint-event.h>
