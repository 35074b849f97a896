/*
 * <lttng/tracepoint.h> for programs written for lttng-ust 2.13: maps its
 * spellings onto ltt's. Put include/compat (installed as
 * $includedir/ltt/compat) on the include path and link with -lltt-ust; or
 * better, include <ltt/tracepoint.h>, which has the same classic spellings.
 *
 * The classic API (TRACEPOINT_EVENT, tracepoint(), ctf_integer, ...) comes
 * from <ltt/tracepoint.h>; this header adds lttng-ust 2.13's prefixed
 * spellings (LTTNG_UST_TRACEPOINT_EVENT, lttng_ust_tracepoint(),
 * lttng_ust_field_integer, ...).
 */
#if defined(LTTNG_UST_TRACEPOINT_DEFINE) && !defined(LTT_TRACEPOINT_DEFINE)
#define LTT_TRACEPOINT_DEFINE
#endif
#if defined(LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE) && \
	!defined(LTT_TRACEPOINT_PROBE_DYNAMIC_LINKAGE)
#define LTT_TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#endif

#include <ltt/tracepoint.h>

#ifndef LTT_COMPAT_LTTNG_TRACEPOINT_H
#define LTT_COMPAT_LTTNG_TRACEPOINT_H

#define lttng_ust_tracepoint ltt_tracepoint
#define lttng_ust_tracepoint_enabled ltt_tracepoint_enabled
#define lttng_ust_do_tracepoint ltt_do_tracepoint
#define LTTNG_UST_TP_ARGS LTT_TP_ARGS
#define LTTNG_UST_TP_FIELDS LTT_TP_FIELDS
#define LTTNG_UST_TP_ENUM_VALUES LTT_TP_ENUM_VALUES
#define LTTNG_UST_TRACEPOINT_EVENT LTT_TRACEPOINT_EVENT
#define LTTNG_UST_TRACEPOINT_EVENT_CLASS LTT_TRACEPOINT_EVENT_CLASS
/* lttng-ust 2.13: (class_provider, class_name, provider, name, args); one provider here. */
#define LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(class_provider, class_name, provider, name, args) \
	LTT_TRACEPOINT_EVENT_INSTANCE(provider, class_name, name, LTT__TP_PARAMS(args))
#define LTTNG_UST_TRACEPOINT_LOGLEVEL LTT_TRACEPOINT_LOGLEVEL
#define LTTNG_UST_TRACEPOINT_ENUM LTT_TRACEPOINT_ENUM
#define LTTNG_UST_TRACEPOINT_MODEL_EMF_URI LTT_TRACEPOINT_MODEL_EMF_URI

#define LTTNG_UST_TRACEPOINT_LOGLEVEL_EMERG LTT_LOGLEVEL_EMERG
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_ALERT LTT_LOGLEVEL_ALERT
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_CRIT LTT_LOGLEVEL_CRIT
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR LTT_LOGLEVEL_ERR
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING LTT_LOGLEVEL_WARNING
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_NOTICE LTT_LOGLEVEL_NOTICE
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO LTT_LOGLEVEL_INFO
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_SYSTEM LTT_LOGLEVEL_DEBUG_SYSTEM
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROGRAM LTT_LOGLEVEL_DEBUG_PROGRAM
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROCESS LTT_LOGLEVEL_DEBUG_PROCESS
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_MODULE LTT_LOGLEVEL_DEBUG_MODULE
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_UNIT LTT_LOGLEVEL_DEBUG_UNIT
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_FUNCTION LTT_LOGLEVEL_DEBUG_FUNCTION
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE LTT_LOGLEVEL_DEBUG_LINE
#define LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG LTT_LOGLEVEL_DEBUG

#define lttng_ust_field_integer ltt_field_integer
#define lttng_ust_field_integer_hex ltt_field_integer_hex
#define lttng_ust_field_integer_network ltt_field_integer_network
#define lttng_ust_field_integer_network_hex ltt_field_integer_network_hex
#define lttng_ust_field_float ltt_field_float
#define lttng_ust_field_string ltt_field_string
#define lttng_ust_field_array ltt_field_array
#define lttng_ust_field_array_hex ltt_field_array_hex
#define lttng_ust_field_array_network ltt_field_array_network
#define lttng_ust_field_array_network_hex ltt_field_array_network_hex
#define lttng_ust_field_array_text ltt_field_array_text
#define lttng_ust_field_sequence ltt_field_sequence
#define lttng_ust_field_sequence_hex ltt_field_sequence_hex
#define lttng_ust_field_sequence_network ltt_field_sequence_network
#define lttng_ust_field_sequence_network_hex ltt_field_sequence_network_hex
#define lttng_ust_field_sequence_text ltt_field_sequence_text
#define lttng_ust_field_enum ltt_field_enum
#define lttng_ust_field_unused ltt_field_unused
#define lttng_ust_field_integer_nowrite ltt_field_integer_nowrite
#define lttng_ust_field_integer_hex_nowrite ltt_field_integer_hex_nowrite
#define lttng_ust_field_integer_network_nowrite ltt_field_integer_network_nowrite
#define lttng_ust_field_integer_network_hex_nowrite ltt_field_integer_network_hex_nowrite
#define lttng_ust_field_float_nowrite ltt_field_float_nowrite
#define lttng_ust_field_string_nowrite ltt_field_string_nowrite
#define lttng_ust_field_array_nowrite ltt_field_array_nowrite
#define lttng_ust_field_array_text_nowrite ltt_field_array_text_nowrite
#define lttng_ust_field_sequence_nowrite ltt_field_sequence_nowrite
#define lttng_ust_field_sequence_text_nowrite ltt_field_sequence_text_nowrite
#define lttng_ust_field_enum_nowrite ltt_field_enum_nowrite
#define lttng_ust_field_enum_value ltt_enum_value
#define lttng_ust_field_enum_range ltt_enum_range
#define lttng_ust_field_enum_auto ltt_enum_auto

#endif /* LTT_COMPAT_LTTNG_TRACEPOINT_H */
