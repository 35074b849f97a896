/*
 * ctf-clock.h - the clocks of ltt's traces, and what their metadata says.
 *
 * A session has one clock, shared by its user-space and kernel streams so
 * that both lie on one time axis:
 *   monotonic  CLOCK_MONOTONIC in ns, as LTTng (the vDSO: ~30 ns a read here)
 *   tsc        the x86 time-stamp counter in cycles (rdtsc: ~12 ns), read by
 *              the tracer and by the kernel's "x86-tsc" trace clock alike
 * Both are described with the Epoch as origin (offset = realtime - clock,
 * measured when the session is described) and the boot's uuid, so that a
 * reader lines up the traces of one boot whichever clock they use.
 *
 * The TSC is used only where it is constant and nonstop (it counts at one
 * rate in every power state); its frequency is calibrated against the
 * kernel's CLOCK_MONOTONIC_RAW (see ctf_clock_tsc_frequency()). Each CPU's
 * counter is monotonic; across CPUs they may differ by a little (on this
 * kind of VM up to ~190 cycles): streams are per CPU and each stays in order
 * (the ring buffer clamps, I3), but two events on two CPUs closer than that
 * may appear in the wrong order.
 *
 * Context: setup paths (the session daemon); not async-signal-safe.
 */
#ifndef LTT_CTF_CLOCK_H
#define LTT_CTF_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "ctf/ctf-trace.h"

enum ctf_clock_kind {
	CTF_CLOCK_MONOTONIC = 0,
	CTF_CLOCK_TSC,
};

/* A described clock: what ctf_clock_desc() turns into a trace's clock. */
struct ctf_clock_info {
	enum ctf_clock_kind kind;
	uint64_t freq;		/* Hz */
	int64_t offset_s;	/* origin (the Epoch) to clock 0: offset_s + offset / freq */
	uint64_t offset;	/* cycles, < freq */
	uint8_t uuid[16];	/* this boot's */
};

/* "monotonic" or "tsc". */
const char *ctf_clock_kind_name(enum ctf_clock_kind kind);
/* Parses a kind's name; 0 or -EINVAL. */
int ctf_clock_kind_parse(const char *name, enum ctf_clock_kind *ret);

/*
 * Whether the TSC can be this machine's trace clock: x86_64 with the
 * constant_tsc and nonstop_tsc flags in /proc/cpuinfo.
 */
bool ctf_clock_tsc_usable(void);

/*
 * ctf_clock_tsc_frequency - the TSC's rate in Hz, measured against
 * CLOCK_MONOTONIC_RAW between the first call in this process and now (at
 * least 50 ms apart: the first call waits), each end the narrowest of
 * several (rdtsc, clock, rdtsc) samples. The relative error is about 60 ns
 * over the baseline (about 1 ppm after 50 ms, better as the process ages).
 * Returns 0, -ENOTSUP (not x86_64), or the errno of clock_gettime.
 */
int ctf_clock_tsc_frequency(uint64_t *ret_hz);

/*
 * ctf_clock_describe - describes clock kind now: frequency, offset from the
 * Epoch (the narrowest of several realtime samples), boot uuid. Returns 0,
 * -ENOTSUP (tsc where ctf_clock_tsc_usable() is false), or an errno.
 */
int ctf_clock_describe(enum ctf_clock_kind kind, struct ctf_clock_info *ret);

/* Now, on clock kind (in its units: cycles or ns). Context: any. */
uint64_t ctf_clock_now(enum ctf_clock_kind kind);

/*
 * The trace clock of info (name = the kind's name); the returned struct
 * points into info (uuid), which must outlive its use.
 */
struct ctf_clock_desc ctf_clock_desc(const struct ctf_clock_info *info);

#endif /* LTT_CTF_CLOCK_H */
