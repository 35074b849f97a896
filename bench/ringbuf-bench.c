/*
 * ringbuf-bench - ns per reserve+commit on the ring buffer's writer path.
 *
 * For 16- and 64-byte payloads and 1 and 2 writer threads (thread i on CPU
 * i), in discard mode with a consumer thread draining (read timer: 50 us
 * sleeps when idle), for each way a channel can be: atomic with the
 * CLOCK_MONOTONIC clock, atomic with the TSC, rseq (TSC): each writer
 * records `--events` records (4-byte compact header, payload memcpy),
 * timed in its own thread CPU time (the machine is shared: wall time would
 * count other processes' slices); a repetition's value is the mean over
 * its threads of CPU time / records. Prints the median and min-max of
 * `--reps` repetitions as a table, or as JSON with --json. Not a test:
 * numbers depend on the machine and its load.
 *
 *   ringbuf-bench [--json] [--reps N] [--events N]
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ringbuf/ringbuf.h"

/* CTF-like compact header: 5-bit id + 27-bit timestamp, else 4 + 8 bytes. */
static size_t bench_header_size(uint64_t pos, uint64_t ts, uint64_t prev_ts)
{
	size_t pad = (size_t)align_pad(pos, 4);

	if (ts >= prev_ts && ts - prev_ts < (1ull << 27))
		return pad + 4;
	return pad + 4 + (size_t)align_pad(pos + pad + 4, 8) + 8;
}

/* The channel's clock; a 4-byte header at a multiple of 4 for 27-bit deltas. */
static const struct rb_client bench_client = { NULL, bench_header_size, 4, 4, 27 };

/* The ways a channel can be synchronized and timed. */
static const struct variant {
	const char *name;
	enum rb_clock clock;
	enum rb_sync sync;
} variants[] = {
	{ "atomic+monotonic", RB_CLOCK_MONOTONIC, RB_SYNC_ATOMIC },
	{ "atomic+tsc", RB_CLOCK_TSC, RB_SYNC_ATOMIC },
	{ "rseq+tsc", RB_CLOCK_TSC, RB_SYNC_RSEQ },
};

struct run {
	struct rb_channel *chan;
	size_t size;
	uint64_t events;
	_Atomic int go, stop;
	_Atomic unsigned ready;
	double ns[2];
	uint64_t refused[2];
};

struct warg {
	struct run *run;
	unsigned idx;
};

/* The writer's own CPU time: a shared, loaded machine preempts writers, and
 * wall time would count the other processes' slices. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

__attribute__((always_inline)) static inline uint64_t
write_loop(const struct rb_client *cl, struct rb_channel *chan, uint64_t events, size_t size,
	   const unsigned char *payload)
{
	uint64_t refused = 0;

	for (uint64_t i = 0; i < events; i++) {
		struct rb_ctx ctx;

		if (likely(rb_reserve(cl, chan, size, 8, &ctx) == 0)) {
			uint32_t hdr = 1u | (uint32_t)(ctx.ts << 5);

			memcpy(ctx.rec + align_pad(ctx.pos, 4), &hdr, 4);
			memcpy(ctx.payload, payload, size);
			rb_commit(chan, &ctx);
		} else {
			refused++;
		}
	}
	return refused;
}

static void *writer(void *p)
{
	struct warg *a = p;
	struct run *r = a->run;
	unsigned char payload[64];
	uint64_t refused, t0, t1;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a->idx % r->chan->g.nr_cpus, &set);
	sched_setaffinity(0, sizeof(set), &set);
	memset(payload, 0x5a, sizeof(payload));
	/* Relaxed counter; acquire on go pairs with the main thread's release. */
	atomic_fetch_add_explicit(&r->ready, 1, memory_order_relaxed);
	while (!atomic_load_explicit(&r->go, memory_order_acquire))
		;
	t0 = thread_cpu_ns();
	refused = write_loop(&bench_client, r->chan, r->events, r->size, payload);
	t1 = thread_cpu_ns();
	r->ns[a->idx] = (double)(t1 - t0) / (double)r->events;
	r->refused[a->idx] = refused;
	return NULL;
}

static void *consumer(void *p)
{
	struct run *r = p;
	struct rb_packet pkt;

	/* Acquire: pairs with the release store of stop. */
	while (!atomic_load_explicit(&r->stop, memory_order_acquire)) {
		int n = 0;

		for (unsigned cpu = 0; cpu < r->chan->g.nr_cpus; cpu++)
			while (rb_get_subbuf(r->chan, cpu, &pkt) == 0) {
				rb_put_subbuf(r->chan, &pkt);
				n++;
			}
		if (!n) {	/* a read timer, as a real consumer: no busy polling */
			struct timespec ts = { 0, 50 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

static int one_rep(const struct variant *v, size_t size, unsigned threads, uint64_t events,
		   double *ret_ns, double *ret_refused)
{
	struct rb_config cfg = {
		.subbuf_size = 256 * 1024, .num_subbufs = 8, .hdr_area_size = 64,
		.mode = RB_MODE_DISCARD, .clock = v->clock, .sync = v->sync, .name = "bench",
		.client = &bench_client,
	};
	struct run r = { .size = size, .events = events };
	struct warg wa[2];
	pthread_t wt[2], ct;
	int ret = rb_channel_create(&cfg, &r.chan);

	if (ret < 0)
		return ret;
	pthread_create(&ct, NULL, consumer, &r);
	for (unsigned i = 0; i < threads; i++) {
		wa[i] = (struct warg){ &r, i };
		pthread_create(&wt[i], NULL, writer, &wa[i]);
	}
	while (atomic_load_explicit(&r.ready, memory_order_relaxed) < threads)
		sched_yield();
	atomic_store_explicit(&r.go, 1, memory_order_release);
	for (unsigned i = 0; i < threads; i++)
		pthread_join(wt[i], NULL);
	atomic_store_explicit(&r.stop, 1, memory_order_release);
	pthread_join(ct, NULL);
	*ret_ns = 0;
	*ret_refused = 0;
	for (unsigned i = 0; i < threads; i++) {
		*ret_ns += r.ns[i] / threads;
		*ret_refused += (double)r.refused[i] / (double)(events * threads);
	}
	rb_channel_free(r.chan);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 16, 64 };
	static const unsigned threads[] = { 1, 2 };
	bool json = false;
	unsigned reps = 7;
	uint64_t events = 2000000;
	double clk[64];
	bool first = true;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--events") && i + 1 < argc)
			events = strtoull(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: %s [--json] [--reps N] [--events N]\n", argv[0]);
			return 2;
		}
	}
	if (reps < 1 || reps > 64 || events < 1) {
		fprintf(stderr, "ringbuf-bench: --reps 1..64, --events >= 1\n");
		return 2;
	}
	/* The clock alone, for reference. */
	for (unsigned r = 0; r < reps; r++) {
		uint64_t t0 = thread_cpu_ns(), sink = 0;

		for (uint64_t i = 0; i < events; i++)
			sink += rb_clock_monotonic();
		clk[r] = (double)(thread_cpu_ns() - t0) / (double)events;
		__asm__ volatile("" : : "r"(sink));
	}
	qsort(clk, reps, sizeof(double), cmp_double);
	if (json)
		printf("{\"benchmark\": \"ringbuf\", \"reps\": %u, \"events\": %llu, "
		       "\"clock_ns\": %.2f, \"results\": [",
		       reps, (unsigned long long)events, clk[reps / 2]);
	else
		printf("clock_gettime(CLOCK_MONOTONIC): %.1f ns\n"
		       "%-18s %-8s %-8s %10s %10s %10s %10s\n", clk[reps / 2], "channel", "payload",
		       "threads",
		       "median ns", "min ns", "max ns", "refused");
	for (size_t v = 0; v < ARRAY_SIZE(variants); v++)
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
			double ns[64], refused = 0, rf;

			for (unsigned r = 0; r < reps; r++) {
				int ret = one_rep(&variants[v], sizes[s], threads[t], events, &ns[r],
						  &rf);

				if (ret < 0) {
					fprintf(stderr, "ringbuf-bench: cannot create a %s channel: %s\n",
						variants[v].name, strerror(-ret));
					return 1;
				}
				refused += rf / reps;
			}
			qsort(ns, reps, sizeof(double), cmp_double);
			if (json)
				printf("%s{\"channel\": \"%s\", \"payload\": %zu, \"threads\": %u, "
				       "\"median_ns\": %.2f, \"min_ns\": %.2f, \"max_ns\": %.2f, "
				       "\"refused\": %.4f}",
				       first ? "" : ", ", variants[v].name, sizes[s], threads[t],
				       ns[reps / 2], ns[0], ns[reps - 1], refused);
			else
				printf("%-18s %-8zu %-8u %10.1f %10.1f %10.1f %9.2f%%\n",
				       variants[v].name, sizes[s],
				       threads[t], ns[reps / 2], ns[0], ns[reps - 1], refused * 100);
			first = false;
		}
	if (json)
		printf("]}\n");
	return 0;
}
