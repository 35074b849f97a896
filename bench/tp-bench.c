/*
 * tp-bench - the cost of a tracepoint, the same source for ltt and
 * lttng-ust (built twice, see bench/meson.build):
 *
 *   tp-bench small|medium THREADS EVENTS
 *
 * Each thread, pinned to CPU (index mod CPUs), calls the tracepoint EVENTS
 * times; the cost is the thread's CPU time divided by EVENTS. Whether the
 * tracepoint is enabled is the session's business (bench/run). Prints one
 * JSON line: {"ns_per_event": [per thread], "emitted": total}.
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
	double ns;
};

static double thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void *run(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;
	double t0;

	CPU_ZERO(&set);
	CPU_SET(w->index % (unsigned)sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
	t0 = thread_ns();
	if (w->medium)
		for (long i = 0; i < w->events; i++)
			tracepoint(bench, medium, (int)i, (int)w->index, "0123456789abcdef");
	else
		for (long i = 0; i < w->events; i++)
			tracepoint(bench, small, (int)i);
	w->ns = (thread_ns() - t0) / (double)w->events;
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[64];
	unsigned threads;
	long events;

	if (argc != 4 || (strcmp(argv[1], "small") && strcmp(argv[1], "medium"))) {
		fprintf(stderr, "usage: %s small|medium THREADS EVENTS\n", argv[0]);
		return 2;
	}
	threads = (unsigned)atoi(argv[2]);
	events = atol(argv[3]);
	if (threads < 1 || threads > 64 || events < 1)
		return 2;
	for (unsigned i = 0; i < threads; i++) {
		w[i] = (struct worker){ .index = i, .medium = !strcmp(argv[1], "medium"),
					.events = events };
		pthread_create(&w[i].thread, NULL, run, &w[i]);
	}
	printf("{\"ns_per_event\": [");
	for (unsigned i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		printf("%s%.3f", i ? ", " : "", w[i].ns);
	}
	printf("], \"emitted\": %ld}\n", events * (long)threads);
	return 0;
}
