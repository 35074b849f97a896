/*
 * httpd-tp.h - the tracepoints of the example request handler, written as
 * for lttng-ust 2.13's classic API with <ltt/...> in place of <lttng/...>.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER httpd

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "httpd-tp.h"

#if !defined(HTTPD_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define HTTPD_TP_H

#include <stdint.h>
#include <ltt/tracepoint.h>

TRACEPOINT_ENUM(httpd, method,
	TP_ENUM_VALUES(
		ctf_enum_value("GET", 0)
		ctf_enum_value("POST", 1)
		ctf_enum_value("PUT", 2)))

TRACEPOINT_EVENT(httpd, request_start,
	TP_ARGS(uint64_t, request_id, int, method, const char *, path),
	TP_FIELDS(
		ctf_integer(uint64_t, request_id, request_id)
		ctf_enum(httpd, method, int, method, method)
		ctf_string(path, path)))
TRACEPOINT_LOGLEVEL(httpd, request_start, TRACE_INFO)

TRACEPOINT_EVENT(httpd, request_end,
	TP_ARGS(uint64_t, request_id, int, status, size_t, bytes),
	TP_FIELDS(
		ctf_integer(uint64_t, request_id, request_id)
		ctf_integer(int, status, status)
		ctf_integer(size_t, bytes, bytes)))
TRACEPOINT_LOGLEVEL(httpd, request_end, TRACE_INFO)

TRACEPOINT_EVENT(httpd, error,
	TP_ARGS(uint64_t, request_id, const char *, msg),
	TP_FIELDS(
		ctf_integer(uint64_t, request_id, request_id)
		ctf_string(msg, msg)))
TRACEPOINT_LOGLEVEL(httpd, error, TRACE_ERR)

#endif /* HTTPD_TP_H */

#include <ltt/tracepoint-event.h>
