/* Tracepoint provider of ust-ctx-app.c (contexts, trackers, blocking channels). */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ctxtest

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./ctx-tp.h"

#if !defined(CTX_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define CTX_TP_H

#include <ltt/tracepoint.h>

/* tid: the emitting thread's, as gettid() says; seq counts its events. */
TRACEPOINT_EVENT(ctxtest, tick,
	TP_ARGS(int, tid, unsigned int, seq, int, phase),
	TP_FIELDS(
		ctf_integer(int, tid, tid)
		ctf_integer(unsigned int, seq, seq)
		ctf_integer(int, phase, phase)
	)
)

#endif /* CTX_TP_H */

#include <ltt/tracepoint-event.h>
