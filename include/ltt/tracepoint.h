/*
 * <ltt/tracepoint.h> - static tracepoints for C and C++ programs.
 *
 * The interface of lttng-ust 2.13's classic API: a provider header declares
 * events with TRACEPOINT_EVENT(provider, name, TP_ARGS(...), TP_FIELDS(...)),
 * code records them with tracepoint(provider, name, args...), one C file
 * defines TRACEPOINT_CREATE_PROBES and TRACEPOINT_DEFINE and includes the
 * provider header to build the probes; link with -lltt-ust (pkg-config
 * ltt-ust). Every macro also has a prefixed spelling (LTT_TRACEPOINT_EVENT,
 * ltt_tracepoint(), ltt_field_integer(), ...); define
 * LTT_TRACEPOINT_NO_CLASSIC before including to get only those.
 *
 * A provider header:
 *
 *   #undef TRACEPOINT_PROVIDER
 *   #define TRACEPOINT_PROVIDER my_app
 *   #undef TRACEPOINT_INCLUDE
 *   #define TRACEPOINT_INCLUDE "./my-app-tp.h"
 *   #if !defined(MY_APP_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
 *   #define MY_APP_TP_H
 *   #include <ltt/tracepoint.h>
 *   TRACEPOINT_EVENT(my_app, request,
 *           TP_ARGS(int, id, const char *, path),
 *           TP_FIELDS(ctf_integer(int, id, id) ctf_string(path, path)))
 *   TRACEPOINT_LOGLEVEL(my_app, request, TRACE_INFO)
 *   #endif
 *   #include <ltt/tracepoint-event.h>
 *
 * Which translation unit defines what (as with lttng-ust):
 *   - the probe object: TRACEPOINT_CREATE_PROBES (C only), and
 *     TRACEPOINT_DEFINE unless another file of the module defines it;
 *   - exactly one file per module (program or shared object) defines
 *     TRACEPOINT_DEFINE: it holds the tracepoints (the state words) and the
 *     constructor that registers them;
 *   - every other file just includes the provider header.
 *   - TRACEPOINT_PROBE_DYNAMIC_LINKAGE, defined with TRACEPOINT_DEFINE in
 *     the program, lets the probe object live in a shared object loaded
 *     later (LD_PRELOAD or dlopen): call sites then go through the probe
 *     pointer that libltt-ust installs when the provider registers.
 *
 * Cost: a disabled tracepoint is one relaxed load of its state word and a
 * branch predicted not taken; its arguments are not evaluated. An enabled
 * one is one direct call (one indirect call with dynamic linkage) to a
 * probe generated for the event's layout. Details: doc/design/tracepoint.md.
 *
 * This header compiles as C99 -pedantic, C11 and C++. The probe pass
 * (<ltt/tracepoint-event.h> with TRACEPOINT_CREATE_PROBES) is C only. An
 * event without arguments (TP_ARGS()) is recorded with tracepoint(p, e):
 * ISO C before C2x warns about the empty variadic argument under
 * -pedantic, as with lttng-ust; GNU modes and C++ accept it.
 */
#ifndef LTT_TRACEPOINT_H
#define LTT_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>
#include <ltt/tracepoint-types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Log levels, most severe first (syslog's, then lttng-ust's debug levels). */
enum ltt_loglevel {
	LTT_LOGLEVEL_EMERG = 0,
	LTT_LOGLEVEL_ALERT = 1,
	LTT_LOGLEVEL_CRIT = 2,
	LTT_LOGLEVEL_ERR = 3,
	LTT_LOGLEVEL_WARNING = 4,
	LTT_LOGLEVEL_NOTICE = 5,
	LTT_LOGLEVEL_INFO = 6,
	LTT_LOGLEVEL_DEBUG_SYSTEM = 7,
	LTT_LOGLEVEL_DEBUG_PROGRAM = 8,
	LTT_LOGLEVEL_DEBUG_PROCESS = 9,
	LTT_LOGLEVEL_DEBUG_MODULE = 10,
	LTT_LOGLEVEL_DEBUG_UNIT = 11,
	LTT_LOGLEVEL_DEBUG_FUNCTION = 12,
	LTT_LOGLEVEL_DEBUG_LINE = 13,
	LTT_LOGLEVEL_DEBUG = 14,
};
/* The level of an event declared without TRACEPOINT_LOGLEVEL (as lttng-ust). */
#define LTT_LOGLEVEL_DEFAULT LTT_LOGLEVEL_DEBUG_LINE

/* --- argument lists: TP_ARGS(type1, arg1, type2, arg2, ...), at most 10 pairs --- */
#define LTT__TP_CAT_(a, b) a##b
#define LTT__TP_CAT(a, b) LTT__TP_CAT_(a, b)
#define LTT__TP_STR_(...) #__VA_ARGS__
#define LTT__TP_STR(...) LTT__TP_STR_(__VA_ARGS__)
/* Forwards a list that holds commas as one macro argument. */
#define LTT__TP_PARAMS(...) __VA_ARGS__
#define LTT__TP_NARGS(...) LTT__TP_NARGS_(__VA_ARGS__, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define LTT__TP_NARGS_(_1,_2,_3,_4,_5,_6,_7,_8,_9,_10,_11,_12,_13,_14,_15,_16,_17,_18,_19,_20, N, ...) N
#define LTT__TP_PROTO_1(x) void
#define LTT__TP_PROTO_2(t1, a1) t1 a1
#define LTT__TP_PROTO_4(t1, a1, t2, a2) t1 a1, t2 a2
#define LTT__TP_PROTO_6(t1, a1, t2, a2, t3, a3) t1 a1, t2 a2, t3 a3
#define LTT__TP_PROTO_8(t1, a1, t2, a2, t3, a3, t4, a4) t1 a1, t2 a2, t3 a3, t4 a4
#define LTT__TP_PROTO_10(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5
#define LTT__TP_PROTO_12(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6
#define LTT__TP_PROTO_14(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7
#define LTT__TP_PROTO_16(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8
#define LTT__TP_PROTO_18(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9
#define LTT__TP_PROTO_20(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9, t10, a10) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10
#define LTT__TP_XPROTO_1(x) 
#define LTT__TP_XPROTO_2(t1, a1) , t1 a1
#define LTT__TP_XPROTO_4(t1, a1, t2, a2) , t1 a1, t2 a2
#define LTT__TP_XPROTO_6(t1, a1, t2, a2, t3, a3) , t1 a1, t2 a2, t3 a3
#define LTT__TP_XPROTO_8(t1, a1, t2, a2, t3, a3, t4, a4) , t1 a1, t2 a2, t3 a3, t4 a4
#define LTT__TP_XPROTO_10(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) , t1 a1, t2 a2, t3 a3, t4 a4, t5 a5
#define LTT__TP_XPROTO_12(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) , t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6
#define LTT__TP_XPROTO_14(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7) , t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7
#define LTT__TP_XPROTO_16(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8) , t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8
#define LTT__TP_XPROTO_18(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9) , t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9
#define LTT__TP_XPROTO_20(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9, t10, a10) , t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10
#define LTT__TP_ARGS_1(x) 
#define LTT__TP_ARGS_2(t1, a1) a1
#define LTT__TP_ARGS_4(t1, a1, t2, a2) a1, a2
#define LTT__TP_ARGS_6(t1, a1, t2, a2, t3, a3) a1, a2, a3
#define LTT__TP_ARGS_8(t1, a1, t2, a2, t3, a3, t4, a4) a1, a2, a3, a4
#define LTT__TP_ARGS_10(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) a1, a2, a3, a4, a5
#define LTT__TP_ARGS_12(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) a1, a2, a3, a4, a5, a6
#define LTT__TP_ARGS_14(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7) a1, a2, a3, a4, a5, a6, a7
#define LTT__TP_ARGS_16(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8) a1, a2, a3, a4, a5, a6, a7, a8
#define LTT__TP_ARGS_18(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9) a1, a2, a3, a4, a5, a6, a7, a8, a9
#define LTT__TP_ARGS_20(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9, t10, a10) a1, a2, a3, a4, a5, a6, a7, a8, a9, a10
#define LTT__TP_XARGS_1(x) 
#define LTT__TP_XARGS_2(t1, a1) , a1
#define LTT__TP_XARGS_4(t1, a1, t2, a2) , a1, a2
#define LTT__TP_XARGS_6(t1, a1, t2, a2, t3, a3) , a1, a2, a3
#define LTT__TP_XARGS_8(t1, a1, t2, a2, t3, a3, t4, a4) , a1, a2, a3, a4
#define LTT__TP_XARGS_10(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) , a1, a2, a3, a4, a5
#define LTT__TP_XARGS_12(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) , a1, a2, a3, a4, a5, a6
#define LTT__TP_XARGS_14(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7) , a1, a2, a3, a4, a5, a6, a7
#define LTT__TP_XARGS_16(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8) , a1, a2, a3, a4, a5, a6, a7, a8
#define LTT__TP_XARGS_18(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9) , a1, a2, a3, a4, a5, a6, a7, a8, a9
#define LTT__TP_XARGS_20(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9, t10, a10) , a1, a2, a3, a4, a5, a6, a7, a8, a9, a10
#define LTT__TP_UNUSED_1(x) 
#define LTT__TP_UNUSED_2(t1, a1) (void)a1;
#define LTT__TP_UNUSED_4(t1, a1, t2, a2) (void)a1; (void)a2;
#define LTT__TP_UNUSED_6(t1, a1, t2, a2, t3, a3) (void)a1; (void)a2; (void)a3;
#define LTT__TP_UNUSED_8(t1, a1, t2, a2, t3, a3, t4, a4) (void)a1; (void)a2; (void)a3; (void)a4;
#define LTT__TP_UNUSED_10(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) (void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
#define LTT__TP_UNUSED_12(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) (void)a1; (void)a2; (void)a3; (void)a4; (void)a5; (void)a6;
#define LTT__TP_UNUSED_14(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7) (void)a1; (void)a2; (void)a3; (void)a4; (void)a5; (void)a6; (void)a7;
#define LTT__TP_UNUSED_16(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8) (void)a1; (void)a2; (void)a3; (void)a4; (void)a5; (void)a6; (void)a7; (void)a8;
#define LTT__TP_UNUSED_18(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9) (void)a1; (void)a2; (void)a3; (void)a4; (void)a5; (void)a6; (void)a7; (void)a8; (void)a9;
#define LTT__TP_UNUSED_20(t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6, t7, a7, t8, a8, t9, a9, t10, a10) (void)a1; (void)a2; (void)a3; (void)a4; (void)a5; (void)a6; (void)a7; (void)a8; (void)a9; (void)a10;
/* int a, char *b  |  void */
#define LTT__TP_PROTO(...) LTT__TP_CAT(LTT__TP_PROTO_, LTT__TP_NARGS(__VA_ARGS__))(__VA_ARGS__)
/* , int a, char *b  |  (nothing) */
#define LTT__TP_XPROTO(...) LTT__TP_CAT(LTT__TP_XPROTO_, LTT__TP_NARGS(__VA_ARGS__))(__VA_ARGS__)
/* a, b */
#define LTT__TP_ARGS(...) LTT__TP_CAT(LTT__TP_ARGS_, LTT__TP_NARGS(__VA_ARGS__))(__VA_ARGS__)
/* , a, b */
#define LTT__TP_XARGS(...) LTT__TP_CAT(LTT__TP_XARGS_, LTT__TP_NARGS(__VA_ARGS__))(__VA_ARGS__)
/* (void)a; (void)b; */
#define LTT__TP_UNUSED(...) LTT__TP_CAT(LTT__TP_UNUSED_, LTT__TP_NARGS(__VA_ARGS__))(__VA_ARGS__)

#define LTT_TP_ARGS(...) __VA_ARGS__
#define LTT_TP_FIELDS(...) __VA_ARGS__
#define LTT_TP_ENUM_VALUES(...) __VA_ARGS__

/*
 * --- the call site ---
 * ltt_tracepoint(provider, name, args...): records the event if enabled;
 * the arguments are evaluated only then.
 * ltt_tracepoint_enabled(provider, name): nonzero if it is enabled, to
 * guard the computation of arguments: then call ltt_do_tracepoint().
 */
#define LTT__TP_SYM(prefix, provider, name) prefix##provider##___##name
#define ltt_tracepoint_enabled(provider, name)                                  \
	__builtin_expect(!!__atomic_load_n(&LTT__TP_SYM(ltt_tp__, provider, name).state, \
					   __ATOMIC_RELAXED), 0)
#define ltt_do_tracepoint(provider, name, ...)                                  \
	LTT__TP_SYM(ltt_tp_call__, provider, name)(__VA_ARGS__)
#define ltt_tracepoint(provider, name, ...)                                     \
	do {                                                                    \
		if (ltt_tracepoint_enabled(provider, name))                     \
			ltt_do_tracepoint(provider, name, __VA_ARGS__);         \
	} while (0)

/*
 * --- field macros, inside TP_FIELDS(), juxtaposed without commas ---
 * They expand to the internal LTT__F*() forms that each pass of
 * <ltt/tracepoint-event.h> defines in its own way:
 *   LTT__FI(type, name, src, byte_order, base, nowrite)            integer
 *   LTT__FF(type, name, src, nowrite)                              float
 *   LTT__FS(name, src, nowrite)                                    string
 *   LTT__FA(type, name, src, length, encoding, base, byte_order, nowrite)
 *   LTT__FQ(type, name, src, length_type, length, encoding, base, byte_order, nowrite)
 *   LTT__FE(provider, enum_name, type, name, src, nowrite)         enum
 *   LTT__FU(src)                                                   unused
 */
#define ltt_field_integer(type, name, src) \
	LTT__FI(type, name, src, LTT_BYTE_ORDER_HOST, 10, 0)
#define ltt_field_integer_hex(type, name, src) \
	LTT__FI(type, name, src, LTT_BYTE_ORDER_HOST, 16, 0)
#define ltt_field_integer_network(type, name, src) \
	LTT__FI(type, name, src, LTT_BYTE_ORDER_BE, 10, 0)
#define ltt_field_integer_network_hex(type, name, src) \
	LTT__FI(type, name, src, LTT_BYTE_ORDER_BE, 16, 0)
#define ltt_field_float(type, name, src) LTT__FF(type, name, src, 0)
#define ltt_field_string(name, src) LTT__FS(name, src, 0)
#define ltt_field_array(type, name, src, length) \
	LTT__FA(type, name, src, length, LTT_ENCODING_NONE, 10, LTT_BYTE_ORDER_HOST, 0)
#define ltt_field_array_hex(type, name, src, length) \
	LTT__FA(type, name, src, length, LTT_ENCODING_NONE, 16, LTT_BYTE_ORDER_HOST, 0)
#define ltt_field_array_network(type, name, src, length) \
	LTT__FA(type, name, src, length, LTT_ENCODING_NONE, 10, LTT_BYTE_ORDER_BE, 0)
#define ltt_field_array_network_hex(type, name, src, length) \
	LTT__FA(type, name, src, length, LTT_ENCODING_NONE, 16, LTT_BYTE_ORDER_BE, 0)
#define ltt_field_array_text(type, name, src, length) \
	LTT__FA(type, name, src, length, LTT_ENCODING_UTF8, 10, LTT_BYTE_ORDER_HOST, 0)
#define ltt_field_sequence(type, name, src, length_type, length) \
	LTT__FQ(type, name, src, length_type, length, LTT_ENCODING_NONE, 10, LTT_BYTE_ORDER_HOST, 0)
#define ltt_field_sequence_hex(type, name, src, length_type, length) \
	LTT__FQ(type, name, src, length_type, length, LTT_ENCODING_NONE, 16, LTT_BYTE_ORDER_HOST, 0)
#define ltt_field_sequence_network(type, name, src, length_type, length) \
	LTT__FQ(type, name, src, length_type, length, LTT_ENCODING_NONE, 10, LTT_BYTE_ORDER_BE, 0)
#define ltt_field_sequence_network_hex(type, name, src, length_type, length) \
	LTT__FQ(type, name, src, length_type, length, LTT_ENCODING_NONE, 16, LTT_BYTE_ORDER_BE, 0)
#define ltt_field_sequence_text(type, name, src, length_type, length) \
	LTT__FQ(type, name, src, length_type, length, LTT_ENCODING_UTF8, 10, LTT_BYTE_ORDER_HOST, 0)
#define ltt_field_enum(provider, enum_name, type, name, src) \
	LTT__FE(provider, enum_name, type, name, src, 0)
#define ltt_field_unused(src) LTT__FU(src)

/* _nowrite: described and visible to filters, not written in the record. */
#define ltt_field_integer_nowrite(type, name, src) \
	LTT__FI(type, name, src, LTT_BYTE_ORDER_HOST, 10, 1)
#define ltt_field_integer_hex_nowrite(type, name, src) \
	LTT__FI(type, name, src, LTT_BYTE_ORDER_HOST, 16, 1)
#define ltt_field_integer_network_nowrite(type, name, src) \
	LTT__FI(type, name, src, LTT_BYTE_ORDER_BE, 10, 1)
#define ltt_field_integer_network_hex_nowrite(type, name, src) \
	LTT__FI(type, name, src, LTT_BYTE_ORDER_BE, 16, 1)
#define ltt_field_float_nowrite(type, name, src) LTT__FF(type, name, src, 1)
#define ltt_field_string_nowrite(name, src) LTT__FS(name, src, 1)
#define ltt_field_array_nowrite(type, name, src, length) \
	LTT__FA(type, name, src, length, LTT_ENCODING_NONE, 10, LTT_BYTE_ORDER_HOST, 1)
#define ltt_field_array_text_nowrite(type, name, src, length) \
	LTT__FA(type, name, src, length, LTT_ENCODING_UTF8, 10, LTT_BYTE_ORDER_HOST, 1)
#define ltt_field_sequence_nowrite(type, name, src, length_type, length) \
	LTT__FQ(type, name, src, length_type, length, LTT_ENCODING_NONE, 10, LTT_BYTE_ORDER_HOST, 1)
#define ltt_field_sequence_text_nowrite(type, name, src, length_type, length) \
	LTT__FQ(type, name, src, length_type, length, LTT_ENCODING_UTF8, 10, LTT_BYTE_ORDER_HOST, 1)
#define ltt_field_enum_nowrite(provider, enum_name, type, name, src) \
	LTT__FE(provider, enum_name, type, name, src, 1)

/*
 * --- enumerations: TRACEPOINT_ENUM(provider, name, TP_ENUM_VALUES(...)) ---
 * Mappings juxtaposed without commas; a value keeps its C type's signedness.
 */
#ifdef __cplusplus
#define LTT__TP_TYPEOF(x) decltype(x)
#else
#define LTT__TP_TYPEOF(x) __typeof__(x)
#endif
#define LTT__TP_IS_SIGNED(type) ((type)-1 < (type)1)
#define LTT__TP_ENUM_VALUE(v)                                                   \
	{ (uint64_t)(v), LTT__TP_IS_SIGNED(LTT__TP_TYPEOF(v)) }
#define ltt_enum_value(label, value)                                            \
	{ label, LTT__TP_ENUM_VALUE(value), LTT__TP_ENUM_VALUE(value), 0 },
#define ltt_enum_range(label, start, end)                                       \
	{ label, LTT__TP_ENUM_VALUE(start), LTT__TP_ENUM_VALUE(end), 0 },
#define ltt_enum_auto(label)                                                    \
	{ label, { 0, 0 }, { 0, 0 }, LTT_ENUM_ENTRY_AUTO },

/*
 * --- declarations ---
 * LTT_TRACEPOINT_EVENT_CLASS(provider, class, args, fields): a layout.
 * LTT_TRACEPOINT_EVENT_INSTANCE(provider, class, name, args): an event of
 * that layout (args: the class's).
 * LTT_TRACEPOINT_EVENT(provider, name, args, fields): both at once.
 * LTT_TRACEPOINT_LOGLEVEL(provider, name, level), LTT_TRACEPOINT_ENUM,
 * LTT_TRACEPOINT_MODEL_EMF_URI(provider, name, "uri").
 * The passes redefine CLASS, INSTANCE, LOGLEVEL, ENUM and MODEL_EMF_URI.
 */
#define LTT_TRACEPOINT_EVENT(provider, name, args, fields)                      \
	LTT_TRACEPOINT_EVENT_CLASS(provider, name, LTT__TP_PARAMS(args),        \
				   LTT__TP_PARAMS(fields))                      \
	LTT_TRACEPOINT_EVENT_INSTANCE(provider, name, name, LTT__TP_PARAMS(args))

/* --- the classic spellings --- */
#ifndef LTT_TRACEPOINT_NO_CLASSIC
#define tracepoint ltt_tracepoint
#define tracepoint_enabled ltt_tracepoint_enabled
#define do_tracepoint ltt_do_tracepoint
#define TP_ARGS LTT_TP_ARGS
#define TP_FIELDS LTT_TP_FIELDS
#define TP_ENUM_VALUES LTT_TP_ENUM_VALUES
#define TRACEPOINT_EVENT LTT_TRACEPOINT_EVENT
#define TRACEPOINT_EVENT_CLASS LTT_TRACEPOINT_EVENT_CLASS
#define TRACEPOINT_EVENT_INSTANCE LTT_TRACEPOINT_EVENT_INSTANCE
#define TRACEPOINT_LOGLEVEL LTT_TRACEPOINT_LOGLEVEL
#define TRACEPOINT_ENUM LTT_TRACEPOINT_ENUM
#define TRACEPOINT_MODEL_EMF_URI LTT_TRACEPOINT_MODEL_EMF_URI
#define TRACE_EMERG LTT_LOGLEVEL_EMERG
#define TRACE_ALERT LTT_LOGLEVEL_ALERT
#define TRACE_CRIT LTT_LOGLEVEL_CRIT
#define TRACE_ERR LTT_LOGLEVEL_ERR
#define TRACE_WARNING LTT_LOGLEVEL_WARNING
#define TRACE_NOTICE LTT_LOGLEVEL_NOTICE
#define TRACE_INFO LTT_LOGLEVEL_INFO
#define TRACE_DEBUG_SYSTEM LTT_LOGLEVEL_DEBUG_SYSTEM
#define TRACE_DEBUG_PROGRAM LTT_LOGLEVEL_DEBUG_PROGRAM
#define TRACE_DEBUG_PROCESS LTT_LOGLEVEL_DEBUG_PROCESS
#define TRACE_DEBUG_MODULE LTT_LOGLEVEL_DEBUG_MODULE
#define TRACE_DEBUG_UNIT LTT_LOGLEVEL_DEBUG_UNIT
#define TRACE_DEBUG_FUNCTION LTT_LOGLEVEL_DEBUG_FUNCTION
#define TRACE_DEBUG_LINE LTT_LOGLEVEL_DEBUG_LINE
#define TRACE_DEBUG LTT_LOGLEVEL_DEBUG
#define ctf_integer ltt_field_integer
#define ctf_integer_hex ltt_field_integer_hex
#define ctf_integer_network ltt_field_integer_network
#define ctf_integer_network_hex ltt_field_integer_network_hex
#define ctf_float ltt_field_float
#define ctf_string ltt_field_string
#define ctf_array ltt_field_array
#define ctf_array_hex ltt_field_array_hex
#define ctf_array_network ltt_field_array_network
#define ctf_array_network_hex ltt_field_array_network_hex
#define ctf_array_text ltt_field_array_text
#define ctf_sequence ltt_field_sequence
#define ctf_sequence_hex ltt_field_sequence_hex
#define ctf_sequence_network ltt_field_sequence_network
#define ctf_sequence_network_hex ltt_field_sequence_network_hex
#define ctf_sequence_text ltt_field_sequence_text
#define ctf_enum ltt_field_enum
#define ctf_unused ltt_field_unused
#define ctf_integer_nowrite ltt_field_integer_nowrite
#define ctf_integer_hex_nowrite ltt_field_integer_hex_nowrite
#define ctf_integer_network_nowrite ltt_field_integer_network_nowrite
#define ctf_integer_network_hex_nowrite ltt_field_integer_network_hex_nowrite
#define ctf_float_nowrite ltt_field_float_nowrite
#define ctf_string_nowrite ltt_field_string_nowrite
#define ctf_array_nowrite ltt_field_array_nowrite
#define ctf_array_text_nowrite ltt_field_array_text_nowrite
#define ctf_sequence_nowrite ltt_field_sequence_nowrite
#define ctf_sequence_text_nowrite ltt_field_sequence_text_nowrite
#define ctf_enum_nowrite ltt_field_enum_nowrite
#define ctf_enum_value ltt_enum_value
#define ctf_enum_range ltt_enum_range
#define ctf_enum_auto ltt_enum_auto
#endif /* LTT_TRACEPOINT_NO_CLASSIC */

#ifdef __cplusplus
}
#endif

#endif /* LTT_TRACEPOINT_H */

/*
 * Outside the include guard: what depends on the macros the including file
 * set (TRACEPOINT_DEFINE, TRACEPOINT_PROBE_DYNAMIC_LINKAGE), unless a pass
 * of <ltt/tracepoint-event.h> is re-reading the provider header.
 */
#ifndef LTT__TP_IN_PROBE_PASS
#include <ltt/tracepoint-callsite.h>
#endif
