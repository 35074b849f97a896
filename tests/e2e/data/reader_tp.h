/* Tracepoint provider of reader_app.c: one event per field type. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER rdtest

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./reader_tp.h"

#if !defined(READER_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define READER_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_ENUM(rdtest, color,
	TP_ENUM_VALUES(
		ctf_enum_value("RED", 0)
		ctf_enum_value("GREEN", 1)
		ctf_enum_range("BLUE", 2, 10)
		ctf_enum_value("ALSO \"BLUE\"", 5)
		ctf_enum_auto("AUTO")
	)
)

TRACEPOINT_ENUM(rdtest, signed_enum,
	TP_ENUM_VALUES(
		ctf_enum_value("MINUS_ONE", -1)
		ctf_enum_range("NEGATIVE", -100, -2)
		ctf_enum_value("ZERO", 0)
	)
)

TRACEPOINT_EVENT(rdtest, ints,
	TP_ARGS(int, i, long, l, unsigned int, u, int8_t, s8, uint64_t, u64),
	TP_FIELDS(
		ctf_integer(int, int_field, i)
		ctf_integer(long, long_field, l)
		ctf_integer(unsigned int, uint_field, u)
		ctf_integer(int8_t, s8_field, s8)
		ctf_integer(uint64_t, u64_field, u64)
		ctf_integer_hex(int, hex_field, i)
		ctf_integer_hex(uint64_t, hex64_field, u64)
		ctf_integer_hex(int8_t, hex8_field, s8)
		ctf_integer_network(int, net_field, i)
		ctf_integer_network_hex(uint64_t, nethex_field, u64)
	)
)

TRACEPOINT_EVENT(rdtest, strings,
	TP_ARGS(const char *, s, const char *, t),
	TP_FIELDS(
		ctf_string(str_field, s)
		ctf_string(other, t)
		ctf_array_text(char, text_array, s, 8)
		ctf_sequence_text(char, text_seq, t, size_t, strlen(t))
	)
)

TRACEPOINT_EVENT(rdtest, floats,
	TP_ARGS(float, f, double, d),
	TP_FIELDS(
		ctf_float(float, float_field, f)
		ctf_float(double, double_field, d)
	)
)

TRACEPOINT_EVENT(rdtest, arrays,
	TP_ARGS(const int *, a, size_t, n, const uint8_t *, b),
	TP_FIELDS(
		ctf_array(int, int_array, a, 4)
		ctf_array_hex(uint8_t, hex_array, b, 3)
		ctf_sequence(int, int_seq, a, size_t, n)
		ctf_sequence_hex(uint8_t, hex_seq, b, unsigned int, n)
	)
)

TRACEPOINT_EVENT(rdtest, enums,
	TP_ARGS(int, c, int, s),
	TP_FIELDS(
		ctf_enum(rdtest, color, int, color_field, c)
		ctf_enum(rdtest, signed_enum, int, signed_field, s)
	)
)

TRACEPOINT_EVENT(rdtest, empty,
	TP_ARGS(),
	TP_FIELDS()
)

TRACEPOINT_EVENT(rdtest, request_start,
	TP_ARGS(int, id),
	TP_FIELDS(ctf_integer(int, request_id, id))
)

TRACEPOINT_EVENT(rdtest, request_end,
	TP_ARGS(int, id),
	TP_FIELDS(ctf_integer(int, request_id, id))
)

#endif /* READER_TP_H */

#include <lttng/tracepoint-event.h>
