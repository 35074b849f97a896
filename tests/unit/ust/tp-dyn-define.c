/* The program side of tp-dyn.h: tracepoints, probes found at run time. */
#define TRACEPOINT_DEFINE
#define TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#include "tp-dyn.h"
#include "tp-dyn-emit.h"

void tp_dyn_emit(int v, const char *s)
{
	tracepoint(ltt_dyn, ping, v, s);
}
