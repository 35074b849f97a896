/*
 * clock.h - the clock of this daemon's sessions (ctf/ctf-clock.h): the TSC
 * where it is usable, else CLOCK_MONOTONIC; LTT_CLOCK=monotonic|tsc in the
 * daemon's environment chooses. One setting for the user-space buffers and
 * the kernel's trace clock alike, so that both lie on one time axis.
 */
#ifndef LTT_SESSIOND_CLOCK_H
#define LTT_SESSIOND_CLOCK_H

#include "ctf/ctf-clock.h"

/*
 * Reads LTT_CLOCK. Returns 0, or -EINVAL (an unknown name) / -ENOTSUP (tsc
 * asked where the TSC is not constant and nonstop) with *detail saying so.
 * Call once, at start.
 */
int session_clock_init(const char **detail);

/* The kind chosen by session_clock_init(). */
enum ctf_clock_kind session_clock_kind(void);

/*
 * Describes the clock for a new session (frequency, offset from the Epoch
 * now). A TSC that cannot be described falls back to the monotonic clock.
 */
void session_clock_describe(struct ctf_clock_info *ret);

#endif /* LTT_SESSIOND_CLOCK_H */
