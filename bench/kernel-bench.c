/*
 * kernel-bench - what the kernel-tracing benchmark traces (bench/run):
 *
 *   kernel-bench getppid N    N getppid() system calls (the raw syscall: never cached)
 *   kernel-bench pingpong N   two threads, both on CPU 0, pass a byte back and
 *                             forth through two pipes N times: each round, each
 *                             blocks in read() and is woken by the other
 *
 * Prints one JSON line: {"seconds": wall-clock time of the loop, "ops": N}.
 * The program's start (and any tracer's) is outside the measure.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int ping[2], pong[2];
static long rounds;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void pin(void)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

static void *pong_main(void *arg)
{
	char c;

	(void)arg;
	pin();
	for (long i = 0; i < rounds; i++)
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			return (void *)1;
	return NULL;
}

int main(int argc, char **argv)
{
	double t0, t1;
	long n;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: kernel-bench getppid|pingpong N\n");
		return 2;
	}
	if (strcmp(argv[1], "getppid") == 0) {
		t0 = now();
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		t1 = now();
	} else if (strcmp(argv[1], "pingpong") == 0) {
		pthread_t th;
		char c = 'x';

		rounds = n;
		pin();
		if (pipe(ping) < 0 || pipe(pong) < 0 || pthread_create(&th, NULL, pong_main, NULL))
			return 1;
		t0 = now();
		for (long i = 0; i < n; i++)
			if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
				return 1;
		t1 = now();
		pthread_join(th, NULL);
	} else {
		fprintf(stderr, "kernel-bench: unknown workload '%s'\n", argv[1]);
		return 2;
	}
	printf("{\"seconds\": %.6f, \"ops\": %ld}\n", t1 - t0, n);
	return 0;
}
