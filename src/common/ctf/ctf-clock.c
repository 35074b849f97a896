/* ctf-clock.c - the session's trace clock; see ctf-clock.h. */
#include "ctf/ctf-clock.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* uuid of this boot, as LTTng names the monotonic clock (/proc's boot_id). */
static void boot_uuid(uint8_t uuid[16])
{
	char text[64] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	unsigned k = 0;

	memset(uuid, 0, 16);
	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		fclose(f);
	}
	for (const char *p = text; *p && k < 32; p++) {
		unsigned v;

		if (*p >= '0' && *p <= '9')
			v = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			v = (unsigned)(*p - 'a' + 10);
		else
			continue;
		uuid[k / 2] = (uint8_t)(uuid[k / 2] | (k % 2 ? v : v << 4));
		k++;
	}
}

static uint64_t ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

/* realtime - monotonic in ns, the best (narrowest) of a few samples. */
static int64_t monotonic_offset(void)
{
	int64_t best = 0;
	uint64_t best_width = UINT64_MAX;

	for (int i = 0; i < 10; i++) {
		struct timespec m1, rt, m2;

		clock_gettime(CLOCK_MONOTONIC, &m1);
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &m2);
		if (ns(&m2) - ns(&m1) < best_width) {
			best_width = ns(&m2) - ns(&m1);
			best = (int64_t)ns(&rt) - (int64_t)(ns(&m1) + best_width / 2);
		}
	}
	return best;
}

void ctf_trace_clock_now(struct ctf_trace_clock *c)
{
	int64_t off = monotonic_offset();

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "monotonic");
	snprintf(c->tracefs, sizeof(c->tracefs), "mono");
	c->freq = 1000000000;
	c->offset_s = off / 1000000000;
	c->offset = (uint64_t)(off % 1000000000);
	boot_uuid(c->uuid);
}

void ctf_trace_clock_desc(const struct ctf_trace_clock *c, struct ctf_clock_desc *ret)
{
	*ret = (struct ctf_clock_desc){
		.name = c->name,
		.uuid = c->uuid,
		.description = "Monotonic Clock",
		.freq = c->freq,
		.offset_s = c->offset_s,
		.offset = c->offset,
		.precision = 1,
	};
}
