/*
 * httpd-sim - a simulated request handler, instrumented with tracepoints:
 *
 *   httpd-sim [--wait] [--phases N] [--fork] [--dlopen PROBES.so] [REQUESTS [THREADS]]
 *
 * Each worker thread handles REQUESTS requests: request_start, some work,
 * request_end (and an error for every 10th). --wait: read a line from
 * standard input before starting (so that tracing can start meanwhile);
 * --phases N: handle the requests N times, reading a line before each and
 * printing one after each;
 * --fork: fork first, and the child handles as many requests (its thread
 * ids are numbered after the parent's); --dlopen: load the probes from a
 * shared object first (httpd-sim-dyn, whose call sites link to their probes
 * at run time). Run it under `ltt` to record it (see the README's demo).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "httpd-tp.h"

static const char *const paths[] = { "/", "/index.html", "/api/users", "/api/orders/42",
				     "/static/app.js" };

struct worker {
	pthread_t thread;
	unsigned id;
	unsigned long first, requests;	/* request numbers first .. first + requests - 1 */
};

/* Some work whose duration depends on the request. */
static size_t handle(uint64_t id)
{
	struct timespec t0, t;
	size_t bytes = 512 + (id % 7) * 1024;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) <
	       (long)(2000 + (id % 5) * 3000));
	return bytes;
}

static void *work(void *arg)
{
	struct worker *w = arg;

	for (unsigned long i = w->first; i < w->first + w->requests; i++) {
		uint64_t id = (uint64_t)w->id << 32 | i;
		int status = i % 10 == 9 ? 500 : 200;

		tracepoint(httpd, request_start, id, (int)(i % 3), paths[i % 5]);
		size_t bytes = handle(id);
		if (status != 200)
			tracepoint(httpd, error, id, "upstream timed out");
		tracepoint(httpd, request_end, id, status, bytes);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	bool wait_line = false, do_fork = false;
	unsigned long requests = 20;
	unsigned threads = 2, first_id = 0, phases = 1;
	struct worker w[64];
	pid_t child = -1;
	int a = 1;

	for (; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "--wait"))
			wait_line = true;
		else if (!strcmp(argv[a], "--phases") && a + 1 < argc)
			phases = (unsigned)strtoul(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "--fork"))
			do_fork = true;
		else if (!strcmp(argv[a], "--dlopen") && a + 1 < argc) {
			if (!dlopen(argv[++a], RTLD_NOW)) {
				fprintf(stderr, "httpd-sim: %s\n", dlerror());
				return 1;
			}
		} else
			break;
	}
	if (a < argc)
		requests = strtoul(argv[a++], NULL, 10);
	if (a < argc)
		threads = (unsigned)strtoul(argv[a++], NULL, 10);
	if (threads < 1 || threads > 64 || a < argc) {
		fprintf(stderr, "usage: httpd-sim [--wait] [--phases N] [--fork] [--dlopen PROBES.so] "
			"[REQUESTS [THREADS (1..64)]]\n");
		return 2;
	}
	if (do_fork) {
		child = fork();
		if (child < 0)
			return 1;
		if (child == 0)
			first_id = threads;
	}
	for (unsigned phase = 0; phase < phases; phase++) {
		char line[16];

		if ((wait_line || phase > 0) && !fgets(line, sizeof(line), stdin))
			return 1;
		for (unsigned i = 0; i < threads; i++) {
			w[i] = (struct worker){ .id = first_id + i, .requests = requests,
						.first = phase * requests };
			pthread_create(&w[i].thread, NULL, work, &w[i]);
		}
		for (unsigned i = 0; i < threads; i++)
			pthread_join(w[i].thread, NULL);
		if (phases > 1) {
			/* a test driving the phases waits for this line */
			printf("httpd-sim%s: phase %u done\n", child == 0 ? " (child)" : "",
			       phase + 1);
			fflush(stdout);
		}
	}
	printf("httpd-sim%s: %u threads handled %lu requests each\n", child == 0 ? " (child)" : "",
	       threads, requests * phases);
	if (child > 0) {
		int status;

		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	}
	return 0;
}
