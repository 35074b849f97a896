/*
 * tp-bench - the cost of a tracepoint, the same source for ltt and
 * lttng-ust (built twice, see bench/meson.build):
 *
 *   tp-bench small|medium THREADS EVENTS [RATE]
 *
 * Each thread, pinned to CPU (index mod CPUs), calls the tracepoint EVENTS
 * times; the cost is the thread's CPU time divided by EVENTS. With RATE
 * (events per second per thread), each thread paces itself to that rate
 * (it emits what the elapsed time calls for, checking the clock every 64
 * events) instead of going flat out: the sustained-rate benchmark. Whether
 * the tracepoint is enabled is the session's business (bench/run). Prints
 * one JSON line: {"ns_per_event": [per thread], "emitted": total,
 * "rate": [events per second of wall time, per thread]}.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench-tp.h"

struct worker {
	pthread_t thread;
	unsigned index;
	int medium;
	long events;
	double rate;		/* events per second, 0: flat out */
	double ns, achieved;
};

static double clock_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void emit(const struct worker *w, long i)
{
	if (w->medium)
		tracepoint(bench, medium, (int)i, (int)w->index, "0123456789abcdef");
	else
		tracepoint(bench, small, (int)i);
}

static void *run(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;
	double t0, wall0;

	CPU_ZERO(&set);
	CPU_SET(w->index % (unsigned)sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
	t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	wall0 = clock_ns(CLOCK_MONOTONIC);
	if (w->rate > 0) {
		for (long i = 0; i < w->events;) {
			/* what the elapsed time calls for, 64 at a time at most */
			double due = (clock_ns(CLOCK_MONOTONIC) - wall0) * w->rate / 1e9;

			for (long n = 0; n < 64 && i < w->events && (double)i < due; n++)
				emit(w, i++);
		}
	} else {
		for (long i = 0; i < w->events; i++)
			emit(w, i);
	}
	w->ns = (clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)w->events;
	w->achieved = (double)w->events * 1e9 / (clock_ns(CLOCK_MONOTONIC) - wall0);
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[64];
	unsigned threads;
	long events;
	double rate;

	if ((argc != 4 && argc != 5) || (strcmp(argv[1], "small") && strcmp(argv[1], "medium"))) {
		fprintf(stderr, "usage: %s small|medium THREADS EVENTS [RATE]\n", argv[0]);
		return 2;
	}
	threads = (unsigned)atoi(argv[2]);
	events = atol(argv[3]);
	rate = argc == 5 ? atof(argv[4]) : 0;
	if (threads < 1 || threads > 64 || events < 1 || rate < 0)
		return 2;
	for (unsigned i = 0; i < threads; i++) {
		w[i] = (struct worker){ .index = i, .medium = !strcmp(argv[1], "medium"),
					.events = events, .rate = rate };
		pthread_create(&w[i].thread, NULL, run, &w[i]);
	}
	printf("{\"ns_per_event\": [");
	for (unsigned i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		printf("%s%.3f", i ? ", " : "", w[i].ns);
	}
	printf("], \"emitted\": %ld, \"rate\": [", events * (long)threads);
	for (unsigned i = 0; i < threads; i++)
		printf("%s%.0f", i ? ", " : "", w[i].achieved);
	printf("]}\n");
	return 0;
}
