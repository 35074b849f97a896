/*
 * ctf-clock.h - the clock every trace of a session declares.
 *
 * User-space and kernel streams of a session are written on one time axis:
 * the tracer reads CLOCK_MONOTONIC, the kernel instance's trace_clock is
 * "mono" (the same clock), and every trace of the session declares the same
 * CTF clock, with the same offset, so that babeltrace2 merges them exactly.
 * This is the one place that says which clock that is: a session takes a
 * struct ctf_trace_clock once and hands it to every trace it makes (and the
 * kernel instance its tracefs name); switching the trace clock (say, to the
 * TSC) is a change here.
 */
#ifndef LTT_CTF_CLOCK_H
#define LTT_CTF_CLOCK_H

#include <stdint.h>

#include "ctf/ctf-trace.h"

struct ctf_trace_clock {
	char name[32];			/* the CTF clock: "monotonic", as LTTng's */
	char tracefs[16];		/* the kernel's trace_clock reading the same: "mono" */
	uint64_t freq;			/* Hz */
	int64_t offset_s;		/* realtime at monotonic 0: seconds ... */
	uint64_t offset;		/* ... plus cycles */
	uint8_t uuid[16];		/* this boot's id (the clock is per boot) */
};

/*
 * The trace clock, its offset measured now (realtime - monotonic, from the
 * narrowest of a few samples). Context: control path.
 */
void ctf_trace_clock_now(struct ctf_trace_clock *c);

/* Its CTF description (pointing into c), for ctf_trace_add_clock(). */
void ctf_trace_clock_desc(const struct ctf_trace_clock *c, struct ctf_clock_desc *ret);

#endif /* LTT_CTF_CLOCK_H */
