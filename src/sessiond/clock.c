/* clock.c - the sessions' clock; see clock.h. */
#include "clock.h"

#include <errno.h>
#include <stdlib.h>

static enum ctf_clock_kind kind = CTF_CLOCK_MONOTONIC;

int session_clock_init(const char **detail)
{
	const char *v = getenv("LTT_CLOCK");

	if (!v || !*v) {
		kind = ctf_clock_tsc_usable() ? CTF_CLOCK_TSC : CTF_CLOCK_MONOTONIC;
		return 0;
	}
	if (ctf_clock_kind_parse(v, &kind) < 0) {
		*detail = "LTT_CLOCK must be 'tsc' or 'monotonic'";
		return -EINVAL;
	}
	if (kind == CTF_CLOCK_TSC && !ctf_clock_tsc_usable()) {
		*detail = "LTT_CLOCK=tsc: this machine's time-stamp counter is not constant and "
			  "nonstop (or not x86_64)";
		return -ENOTSUP;
	}
	return 0;
}

enum ctf_clock_kind session_clock_kind(void)
{
	return kind;
}

void session_clock_describe(struct ctf_clock_info *ret)
{
	if (ctf_clock_describe(kind, ret) == 0)
		return;
	/* Cannot fail: the monotonic clock is always there. */
	ctf_clock_describe(CTF_CLOCK_MONOTONIC, ret);
}
