/*
 * <lttng/tracepoint-event.h> for programs written for lttng-ust 2.13: see
 * <lttng/tracepoint.h> in this folder. No include guard, like the header
 * it forwards to.
 */
#if defined(LTTNG_UST_TRACEPOINT_CREATE_PROBES) && !defined(LTT_TRACEPOINT_CREATE_PROBES)
#undef LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTT_TRACEPOINT_CREATE_PROBES
#endif
#if defined(LTTNG_UST_TRACEPOINT_INCLUDE) && !defined(LTT_TRACEPOINT_INCLUDE) && \
	!defined(TRACEPOINT_INCLUDE)
#define TRACEPOINT_INCLUDE LTTNG_UST_TRACEPOINT_INCLUDE
#endif
#if defined(LTTNG_UST_TRACEPOINT_PROVIDER) && !defined(LTT_TRACEPOINT_PROVIDER) && \
	!defined(TRACEPOINT_PROVIDER)
#define TRACEPOINT_PROVIDER LTTNG_UST_TRACEPOINT_PROVIDER
#endif
#ifdef LTT_TRACEPOINT_CREATE_PROBES
/* Headers written for lttng-ust 2.13's prefixed API test this spelling. */
#define LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ
#define LTT__COMPAT_PROBES_OUTER
#include <ltt/tracepoint-event.h>
#undef LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ
#undef LTT__COMPAT_PROBES_OUTER
#elif !defined(LTT__COMPAT_PROBES_OUTER)
#include <ltt/tracepoint-event.h>
#endif
