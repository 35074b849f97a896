/* ctf-clock.c - trace clocks: TSC calibration and descriptions; see ctf-clock.h. */
#include "ctf/ctf-clock.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ringbuf/ringbuf.h"

#define NS_PER_S 1000000000ull
#define CALIBRATION_NS (50 * 1000000ull)
#define SAMPLES 16

const char *ctf_clock_kind_name(enum ctf_clock_kind kind)
{
	return kind == CTF_CLOCK_TSC ? "tsc" : "monotonic";
}

int ctf_clock_kind_parse(const char *name, enum ctf_clock_kind *ret)
{
	if (!strcmp(name, "monotonic"))
		*ret = CTF_CLOCK_MONOTONIC;
	else if (!strcmp(name, "tsc"))
		*ret = CTF_CLOCK_TSC;
	else
		return -EINVAL;
	return 0;
}

/* Whether the flags line of /proc/cpuinfo has both words. */
static bool cpuinfo_has(const char *a, const char *b)
{
	char line[4096];
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		/* words are space-separated; pad the ends to match whole words */
		char padded[sizeof(line) + 2], wa[64], wb[64];

		snprintf(padded, sizeof(padded), " %s", line);
		padded[strcspn(padded, "\n")] = ' ';
		snprintf(wa, sizeof(wa), " %s ", a);
		snprintf(wb, sizeof(wb), " %s ", b);
		found = strstr(padded, wa) && strstr(padded, wb);
		break;
	}
	fclose(f);
	return found;
}

bool ctf_clock_tsc_usable(void)
{
#ifdef RB_HAVE_TSC
	return cpuinfo_has("constant_tsc", "nonstop_tsc");
#else
	return false;
#endif
}

static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * NS_PER_S + (uint64_t)t->tv_nsec;
}

#ifdef RB_HAVE_TSC
/* A (tsc, clock) pair: the narrowest bracket of SAMPLES tries. */
struct tsc_sample {
	uint64_t tsc, ns;
};

static int tsc_sample(clockid_t id, struct tsc_sample *ret)
{
	uint64_t width = UINT64_MAX;

	for (int i = 0; i < SAMPLES; i++) {
		struct timespec t;
		uint64_t a, b;

		/* lfence: the clock read stays between the two TSC reads */
		__builtin_ia32_lfence();
		a = rb_clock_tsc();
		__builtin_ia32_lfence();
		if (clock_gettime(id, &t) < 0)
			return -errno;
		__builtin_ia32_lfence();
		b = rb_clock_tsc();
		if (b >= a && b - a < width) {
			width = b - a;
			ret->tsc = a + (b - a) / 2;
			ret->ns = ns_of(&t);
		}
	}
	return width == UINT64_MAX ? -EIO : 0;
}
#endif

int ctf_clock_tsc_frequency(uint64_t *ret_hz)
{
#ifdef RB_HAVE_TSC
	static struct tsc_sample first;	/* setup paths are single-threaded */
	struct tsc_sample now;
	int r;

	if (first.ns == 0 && (r = tsc_sample(CLOCK_MONOTONIC_RAW, &first)) < 0)
		return r;
	if ((r = tsc_sample(CLOCK_MONOTONIC_RAW, &now)) < 0)
		return r;
	if (now.ns - first.ns < CALIBRATION_NS) {
		uint64_t left = CALIBRATION_NS - (now.ns - first.ns);
		struct timespec d = { (time_t)(left / NS_PER_S), (long)(left % NS_PER_S) };

		while (nanosleep(&d, &d) < 0 && errno == EINTR)
			;
		if ((r = tsc_sample(CLOCK_MONOTONIC_RAW, &now)) < 0)
			return r;
	}
	if (now.tsc <= first.tsc || now.ns <= first.ns)
		return -EIO;
	*ret_hz = (uint64_t)(((unsigned __int128)(now.tsc - first.tsc) * NS_PER_S +
			      (now.ns - first.ns) / 2) / (now.ns - first.ns));
	return 0;
#else
	(void)ret_hz;
	return -ENOTSUP;
#endif
}

/* uuid of this boot (/proc's boot_id), as LTTng names its clock. */
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

/* realtime - monotonic in ns, the narrowest of a few samples. */
static int64_t monotonic_offset_ns(void)
{
	int64_t best = 0;
	uint64_t best_width = UINT64_MAX;

	for (int i = 0; i < SAMPLES; i++) {
		struct timespec m1, rt, m2;
		uint64_t a, b;

		clock_gettime(CLOCK_MONOTONIC, &m1);
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &m2);
		a = ns_of(&m1);
		b = ns_of(&m2);
		if (b - a < best_width) {
			best_width = b - a;
			best = (int64_t)ns_of(&rt) - (int64_t)(a + (b - a) / 2);
		}
	}
	return best;
}

/* Splits an offset of off_ns from the Epoch into seconds and cycles < freq. */
static void set_offset(struct ctf_clock_info *c, int64_t off_ns)
{
	int64_t s = off_ns / (int64_t)NS_PER_S, rem = off_ns % (int64_t)NS_PER_S;

	if (rem < 0) {
		rem += (int64_t)NS_PER_S;
		s--;
	}
	c->offset_s = s;
	c->offset = (uint64_t)((unsigned __int128)(uint64_t)rem * c->freq / NS_PER_S);
}

int ctf_clock_describe(enum ctf_clock_kind kind, struct ctf_clock_info *ret)
{
	struct ctf_clock_info c = { .kind = kind };

	boot_uuid(c.uuid);
	if (kind == CTF_CLOCK_MONOTONIC) {
		c.freq = NS_PER_S;
		set_offset(&c, monotonic_offset_ns());
		*ret = c;
		return 0;
	}
#ifdef RB_HAVE_TSC
	struct tsc_sample rt;
	int r;

	if (kind != CTF_CLOCK_TSC || !ctf_clock_tsc_usable())
		return -ENOTSUP;
	if ((r = ctf_clock_tsc_frequency(&c.freq)) < 0 ||
	    (r = tsc_sample(CLOCK_REALTIME, &rt)) < 0)
		return r;
	/* Epoch to TSC 0: realtime - tsc / freq at the same instant. */
	set_offset(&c, (int64_t)rt.ns -
			       (int64_t)((unsigned __int128)rt.tsc * NS_PER_S / c.freq));
	*ret = c;
	return 0;
#else
	return -ENOTSUP;
#endif
}

struct ctf_clock_desc ctf_clock_desc(const struct ctf_clock_info *info)
{
	return (struct ctf_clock_desc){
		.name = ctf_clock_kind_name(info->kind),
		.uuid = info->uuid,
		.description = info->kind == CTF_CLOCK_TSC ? "x86 time-stamp counter"
							   : "Monotonic Clock",
		.freq = info->freq,
		.offset_s = info->offset_s,
		.offset = info->offset,
		.precision = 1,
	};
}

uint64_t ctf_clock_now(enum ctf_clock_kind kind)
{
	return rb_clock_read(kind == CTF_CLOCK_TSC ? RB_CLOCK_TSC : RB_CLOCK_MONOTONIC);
}
