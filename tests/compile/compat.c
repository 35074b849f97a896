/* compat.c - an lttng-ust 2.13 program built unchanged against ltt's compat headers. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "tp-compat.h"

int main(void)
{
	int i;

	for (i = 0; i < 10; i++) {
		lttng_ust_tracepoint(ltt_compat, hello, i, "x");
		lttng_ust_tracepoint(ltt_compat, inst, i);
		tracepoint(ltt_compat, classic, i);
	}
	return lttng_ust_tracepoint_enabled(ltt_compat, hello) ? 1 : 0;
}
