/*
 * ringbuf-record - the userspace data path without the daemons: writer
 * threads reserve, encode (CTF compact event header + payload) and commit
 * records into a ring-buffer channel while a consumer thread drains it into
 * a CTF trace directory (stream files, index, metadata).
 *
 *   ringbuf-record DIR THREADS EVENTS SUBBUF_SIZE NUM_SUBBUF [MODE]
 *
 * MODE: discard (default: atomic channel, monotonic clock), overwrite
 * (atomic, monotonic), tsc (atomic, TSC clock), rseq (restartable
 * sequences, TSC clock). Writer thread i runs on CPU i mod CPUs unless
 * MODE is rseq, where writers hop between CPUs every few hundred events
 * (sched_setaffinity) so that migrations race with reservations and commits.
 *
 * Prints one JSON line: {"emitted": [per thread], "refused": [per thread],
 * "packets": N, "packets_lost": N}. The e2e test reads DIR with babeltrace2.
 * Exit status 77: rseq asked of a build without it (ThreadSanitizer's), or
 * the TSC of a machine where it is no clock.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "ctf/ctf-clock.h"
#include "ctf/ctf-rb-client.h"
#include "stream.h"

#define EVENT_ID 0
#define MAX_THREADS 64

static const struct rb_client *const client = &ctf_rb_client_compact;

struct writer {
	pthread_t thread;
	struct rb_channel *chan;
	uint32_t id;
	bool hop;		/* change CPU every few hundred events */
	uint64_t events, emitted, refused;
};

static void run_on(unsigned cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % (unsigned)sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static atomic_int writers_left;

static void *write_events(void *arg)
{
	struct writer *w = arg;

	for (uint64_t seq = 0; seq < w->events; seq++) {
		struct rb_ctx ctx;

		if (w->hop && seq % 300 == 0)
			run_on(w->id + (unsigned)(seq / 300));
		w->emitted++;
		if (rb_reserve(client, w->chan, 16, 8, &ctx) < 0) {
			w->refused++;
			continue;
		}
		ctf_rb_write_header(&ctx, CTF_HEADER_COMPACT, EVENT_ID);
		memcpy(ctx.payload, &w->id, 4);
		memset(ctx.payload + 4, 0, 4);
		memcpy(ctx.payload + 8, &seq, 8);
		rb_commit(w->chan, &ctx);
	}
	/* release: the consumer's final drain sees every commit */
	atomic_fetch_sub_explicit(&writers_left, 1, memory_order_release);
	return NULL;
}

static int write_metadata(const char *dir, const uint8_t uuid[16], enum ctf_clock_kind kind)
{
	struct ctf_type *payload, *t;
	struct ctf_trace *trace;
	struct ctf_error err;
	struct ctf_clock_info info;
	struct ctf_clock_desc clock;
	const char *text;
	char path[4096];
	size_t len;
	FILE *f;
	struct ctf_event_class_desc ev = { .name = "ltt_test:record", .id = EVENT_ID };

	if (ctf_clock_describe(kind, &info) < 0)
		return -1;
	clock = ctf_clock_desc(&info);
	if (ctf_trace_create(uuid, CTF_BO_LE, &trace) < 0 ||
	    ctf_trace_set_layout(trace, CTF_LAYOUT_HOST, &err) < 0 ||
	    ctf_trace_add_clock(trace, &clock, &err) < 0 ||
	    ctf_trace_add_stream_class(trace, 0, CTF_HEADER_COMPACT, clock.name, NULL, &err,
				       NULL) < 0 ||
	    ctf_type_struct_create(0, &payload) < 0)
		return -1;
	ctf_type_by_name("uint32_t", &t);
	ctf_type_struct_add(payload, "writer", t);
	ctf_type_by_name("uint64_t", &t);
	ctf_type_struct_add(payload, "seq", t);
	if (ctf_trace_add_event_class(trace, &ev, payload, &err, NULL) < 0 ||
	    ctf_trace_metadata(trace, &text, &len) < 0) {
		fprintf(stderr, "metadata: %s\n", err.msg);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
		return -1;
	ctf_trace_free(trace);
	return 0;
}

/* Drains every CPU; returns packets written or -errno. */
static int drain(struct rb_channel *chan, struct cons_stream **streams, unsigned ncpu)
{
	int total = 0;

	for (unsigned cpu = 0; cpu < ncpu; cpu++) {
		int r = cons_stream_drain(streams[cpu], chan);

		if (r < 0)
			return r;
		total += r;
	}
	return total;
}

int main(int argc, char **argv)
{
	struct writer w[MAX_THREADS];
	struct cons_stream *streams[RB_MAX_CPUS];
	struct rb_channel *chan;
	uint8_t uuid[16];
	unsigned threads, ncpu;
	uint64_t events, packets = 0, lost = 0;
	const char *mode = argc > 6 ? argv[6] : "discard";
	bool tsc = !strcmp(mode, "tsc") || !strcmp(mode, "rseq");
	int efd, r;

	if (argc < 6) {
		fprintf(stderr, "usage: %s DIR THREADS EVENTS SUBBUF_SIZE NUM_SUBBUF "
			"[discard|overwrite|tsc|rseq]\n", argv[0]);
		return 2;
	}
	threads = (unsigned)atoi(argv[2]);
	events = strtoull(argv[3], NULL, 10);
	struct rb_config cfg = {
		.subbuf_size = strtoull(argv[4], NULL, 10),
		.num_subbufs = (uint32_t)atoi(argv[5]),
		.hdr_area_size = CTF_RB_HDR_AREA_SIZE,
		.mode = !strcmp(mode, "overwrite") ? RB_MODE_OVERWRITE : RB_MODE_DISCARD,
		.clock = tsc ? RB_CLOCK_TSC : RB_CLOCK_MONOTONIC,
		.sync = !strcmp(mode, "rseq") ? RB_SYNC_RSEQ : RB_SYNC_ATOMIC,
		.name = "ringbuf-record",
		.client = client,
	};
	if (threads < 1 || threads > MAX_THREADS)
		return 2;
	if (cfg.sync == RB_SYNC_RSEQ && !rb_rseq_usable()) {
		fprintf(stderr, "ringbuf-record: no restartable sequences in this build\n");
		return 77;	/* the tests' "skipped" */
	}
	if (tsc && !ctf_clock_tsc_usable()) {
		fprintf(stderr, "ringbuf-record: no constant, nonstop TSC here\n");
		return 77;
	}
	for (unsigned i = 0; i < 16; i++)
		uuid[i] = (uint8_t)(rand() ^ getpid() >> (i % 3));
	r = rb_channel_create(&cfg, &chan);
	if (r < 0) {
		fprintf(stderr, "rb_channel_create: %s\n", strerror(-r));
		return 1;
	}
	ncpu = chan->g.nr_cpus;
	for (unsigned cpu = 0; cpu < ncpu; cpu++) {
		r = cons_stream_create(argv[1], "channel0", cpu, 0, uuid, NULL, &streams[cpu]);
		if (r < 0) {
			fprintf(stderr, "stream: %s\n", strerror(-r));
			return 1;
		}
	}
	if (write_metadata(argv[1], uuid, tsc ? CTF_CLOCK_TSC : CTF_CLOCK_MONOTONIC) < 0)
		return 1;
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	rb_channel_set_wakeup_fd(chan, efd);
	atomic_store(&writers_left, (int)threads);
	for (unsigned i = 0; i < threads; i++) {
		w[i] = (struct writer){ .chan = chan, .id = i, .events = events,
					.hop = cfg.sync == RB_SYNC_RSEQ };
		pthread_create(&w[i].thread, NULL, write_events, &w[i]);
	}
	/* consume while writers run: drain, else sleep on the eventfd (bounded) */
	while (atomic_load_explicit(&writers_left, memory_order_acquire) > 0) {
		if ((r = drain(chan, streams, ncpu)) < 0)
			break;
		if (r == 0 && rb_consumer_prepare_sleep(chan) == 0) {
			struct pollfd pfd = { .fd = efd, .events = POLLIN };
			uint64_t v;

			poll(&pfd, 1, 10);
			if (read(efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
				break;
			rb_consumer_woken(chan);
		}
	}
	for (unsigned i = 0; i < threads; i++)
		pthread_join(w[i].thread, NULL);
	/* the writers are done: close the open sub-buffers (an empty packet
	 * carries discards that happened after the last one) and drain */
	for (unsigned cpu = 0; cpu < ncpu; cpu++)
		rb_flush(chan, cpu, RB_FLUSH_EMPTY);
	if (r >= 0)
		while ((r = drain(chan, streams, ncpu)) > 0)
			;
	if (r < 0) {
		fprintf(stderr, "drain: %s\n", strerror(-r));
		return 1;
	}
	printf("{\"emitted\": [");
	for (unsigned i = 0; i < threads; i++)
		printf("%s%llu", i ? ", " : "", (unsigned long long)w[i].emitted);
	printf("], \"refused\": [");
	for (unsigned i = 0; i < threads; i++)
		printf("%s%llu", i ? ", " : "", (unsigned long long)w[i].refused);
	for (unsigned cpu = 0; cpu < ncpu; cpu++) {
		struct cons_stream_stats st;

		cons_stream_get_stats(streams[cpu], &st);
		packets += st.packets;
		lost += st.packets_lost;
		cons_stream_free(streams[cpu]);
	}
	printf("], \"packets\": %llu, \"packets_lost\": %llu}\n", (unsigned long long)packets,
	       (unsigned long long)lost);
	rb_channel_free(chan);
	close(efd);
	return 0;
}
