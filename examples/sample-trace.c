/*
 * sample-trace - writes a small CTF trace with ltt's CTF writer, the way a
 * traced service's user-space trace would look: a per-UID layout
 * (OUT/ust/uid/UID/64-bit/), the monotonic clock, two CPUs, and a few event
 * classes with strings, enums, floats, sequences and a context.
 *
 *   sample-trace OUT         prints the trace directory it wrote
 *
 * Placeholder for the demo until real tracing replaces it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctf/ctf.h"
#include "ltt-config.h"

static struct ctf_error err;

static void check(int r, const char *what)
{
	if (r < 0) {
		fprintf(stderr, "sample-trace: %s: %s%s%s\n", what, strerror(-r),
			err.msg[0] ? ": " : "", err.msg);
		exit(1);
	}
}

static struct ctf_type *named(const char *n)
{
	struct ctf_type *t;

	check(ctf_type_by_name(n, &t), n);
	return t;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void random_uuid(uint8_t u[16])
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, u, 16) != 16) {
		for (int i = 0; i < 16; i++)	/* good enough for a demo */
			u[i] = (uint8_t)(rand() ^ (int)clock_ns(CLOCK_MONOTONIC));
	}
	if (fd >= 0)
		close(fd);
	u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);	/* version 4 */
	u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
}

int main(int argc, char **argv)
{
	static const char *const paths[] = { "/", "/index.html", "/api/users",
					     "/api/orders/42", "/static/app.js" };
	uint8_t uuid[16];
	char host[256] = "localhost", dir[4096], datetime[32];
	uint64_t mono = clock_ns(CLOCK_MONOTONIC), real = clock_ns(CLOCK_REALTIME);
	time_t now = time(NULL);
	struct ctf_trace *t;
	struct ctf_fs_trace *ft;
	struct ctf_fs_stream *cpu[2];
	struct ctf_type *ctx, *p, *method, *seq;
	const struct ctf_event_class *start, *end, *log;

	if (argc != 2) {
		fprintf(stderr, "usage: sample-trace OUT\n");
		return 2;
	}
	gethostname(host, sizeof(host) - 1);
	strftime(datetime, sizeof(datetime), "%Y%m%dT%H%M%S%z", localtime(&now));
	random_uuid(uuid);

	check(ctf_trace_create(uuid, CTF_BO_LE, &t), "trace");
	struct ctf_env_lttng env = {
		.domain = "ust", .tracer_name = "lttng-ust", .tracer_major = 2,
		.tracer_minor = 13, .hostname = host, .trace_name = "sample",
		.trace_creation_datetime = datetime, .buffering_scheme = "uid",
		.buffering_id = (int64_t)getuid(), .architecture_bit_width = 64,
		.ltt_version = LTT_VERSION,
	};
	check(ctf_trace_env_lttng(t, &env, &err), "env");
	struct ctf_clock_desc clk = {
		.name = "monotonic", .description = "Monotonic Clock",
		.freq = 1000000000, .offset_s = (int64_t)((real - mono) / 1000000000u),
		.offset = (real - mono) % 1000000000u,
	};
	check(ctf_trace_add_clock(t, &clk, &err), "clock");
	check(ctf_type_struct_create(0, &ctx), "context");
	check(ctf_type_struct_add(ctx, "vtid", named("int32_t")), "context");
	check(ctf_type_array_create(named("char"), 16, &p), "context");
	check(ctf_type_struct_add(ctx, "procname", p), "context");
	check(ctf_trace_add_stream_class(t, 0, CTF_HEADER_LARGE, "monotonic", ctx, &err,
					 NULL), "stream class");

	check(ctf_type_enum_create(named("uint8_t"), &method), "enum");
	check(ctf_type_enum_add(method, "GET", 0, 0), "enum");
	check(ctf_type_enum_add(method, "POST", 1, 1), "enum");
	check(ctf_type_struct_create(0, &p), "payload");
	check(ctf_type_struct_add(p, "request_id", named("uint64_t")), "payload");
	check(ctf_type_struct_add(p, "method", method), "payload");
	check(ctf_type_struct_add(p, "path", named("string")), "payload");
	struct ctf_event_class_desc d = { .name = "demo:request_start", .id = 0,
					  .has_loglevel = true, .loglevel = 13 };
	check(ctf_trace_add_event_class(t, &d, p, &err, &start), "event");

	check(ctf_type_struct_create(0, &p), "payload");
	check(ctf_type_struct_add(p, "request_id", named("uint64_t")), "payload");
	check(ctf_type_struct_add(p, "status", named("uint16_t")), "payload");
	check(ctf_type_struct_add(p, "duration_ms", named("double")), "payload");
	check(ctf_type_struct_add(p, "nr_chunks", named("uint8_t")), "payload");
	check(ctf_type_sequence_create(named("uint32_t"), "nr_chunks", &seq), "payload");
	check(ctf_type_struct_add(p, "chunk_sizes", seq), "payload");
	d = (struct ctf_event_class_desc){ .name = "demo:request_end", .id = 1,
					   .has_loglevel = true, .loglevel = 13 };
	check(ctf_trace_add_event_class(t, &d, p, &err, &end), "event");

	check(ctf_type_struct_create(0, &p), "payload");
	check(ctf_type_struct_add(p, "msg", named("string")), "payload");
	d = (struct ctf_event_class_desc){ .name = "demo:log", .id = 2,
					   .has_loglevel = true, .loglevel = 4 };
	check(ctf_trace_add_event_class(t, &d, p, &err, &log), "event");

	snprintf(dir, sizeof(dir), "%s/ust/uid/%u/64-bit", argv[1], (unsigned)getuid());
	check(ctf_fs_trace_create(dir, t, CTF_METADATA_TEXT, &ft), dir);
	for (uint32_t c = 0; c < 2; c++)
		check(ctf_fs_stream_create(ft, "channel0", c, 0, 4096, &cpu[c]), "stream");

	uint64_t ts = mono;
	for (uint64_t id = 1; id <= 40; id++) {
		uint32_t c = (uint32_t)(id % 2);
		struct ctf_value ctxv[] = { CTF_S64(4000 + (int64_t)c), CTF_STR("sample-httpd") };
		struct ctf_value sv[] = { CTF_U64(id), CTF_U64(id % 5 == 0),
					  CTF_STR(paths[id % 5]) };
		uint32_t chunks[3] = { 512, 1024 * (uint32_t)id, 7 };
		struct ctf_value cv[] = { CTF_U64(chunks[0]), CTF_U64(chunks[1]),
					  CTF_U64(chunks[2]) };
		uint64_t dur = 20000 + 1500 * (id % 7);
		struct ctf_value ev[] = { CTF_U64(id), CTF_U64(id % 9 ? 200 : 500),
					  CTF_DOUBLE((double)dur / 1e6),
					  CTF_U64(id % 4), CTF_LIST(cv, (uint32_t)(id % 4)) };

		check(ctf_fs_stream_event(cpu[c], start, ts += 12345, ctxv, 2, sv, 3), "event");
		check(ctf_fs_stream_event(cpu[c], end, ts += dur, ctxv, 2, ev, 5), "event");
		if (id % 9 == 0) {
			struct ctf_value lv[] = { CTF_STR("upstream timed out") };

			check(ctf_fs_stream_event(cpu[c], log, ts += 10, ctxv, 2, lv, 1),
			      "event");
		}
	}
	check(ctf_fs_trace_close(ft), "close");
	ctf_fs_trace_free(ft);
	ctf_trace_free(t);
	printf("%s\n", dir);
	return 0;
}
