/*
 * kernel-workload - what the kernel e2e tests trace. Writes what it did as
 * JSON to OUTFILE (its stdout belongs to the recorder).
 *
 *   kernel-workload OUTFILE pingpong N   two threads ("ltt-ping",
 *                                        "ltt-pong") wake each other N times,
 *                                        on one CPU: each round, each blocks
 *                                        once and is woken once
 *   kernel-workload OUTFILE files PATH   openat, read, write (/dev/null), close
 *   kernel-workload OUTFILE calls N      calls ltt_workload_probe() N times
 *   kernel-workload OUTFILE getppid N    N getppid() syscalls, as fast as it can
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int ping[2], pong[2];
static long rounds;
static pid_t pong_tid;

static void *pong_main(void *arg)
{
	char c;

	(void)arg;
	prctl(PR_SET_NAME, "ltt-pong");
	pong_tid = (pid_t)syscall(SYS_gettid);
	for (long i = 0; i < rounds; i++) {
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

__attribute__((noinline, used)) int ltt_workload_probe(int i);
__attribute__((noinline, used)) int ltt_workload_probe(int i)
{
	__asm__ volatile("" ::: "memory");
	return i * 3 + 1;
}

int main(int argc, char **argv)
{
	FILE *out;

	if (argc < 4)
		return 2;
	out = fopen(argv[1], "w");
	if (!out)
		return 1;
	if (strcmp(argv[2], "pingpong") == 0) {
		pthread_t th;
		char c = 'x';

		cpu_set_t one;

		rounds = atol(argv[3]);
		prctl(PR_SET_NAME, "ltt-ping");
		CPU_ZERO(&one);
		CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
		if (sched_setaffinity(0, sizeof(one), &one) < 0)
			return 1;
		if (pipe(ping) < 0 || pipe(pong) < 0)
			return 1;
		pthread_create(&th, NULL, pong_main, NULL);
		for (long i = 0; i < rounds; i++)
			if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
				return 1;
		pthread_join(th, NULL);
		fprintf(out, "{\"pid\": %d, \"ping_tid\": %d, \"pong_tid\": %d, \"rounds\": %ld, "
			"\"cpu\": %d}\n", (int)getpid(), (int)syscall(SYS_gettid), (int)pong_tid,
			rounds, sched_getcpu());
	} else if (strcmp(argv[2], "files") == 0) {
		static char path[4096];
		char buf[256];
		ssize_t n, w;
		int fd, nul, cr;

		snprintf(path, sizeof(path), "%s", argv[3]);
		fd = openat(AT_FDCWD, path, O_RDONLY);
		if (fd < 0)
			return 1;
		n = read(fd, buf, sizeof(buf));
		nul = open("/dev/null", O_WRONLY);
		w = write(nul, buf, n > 0 ? (size_t)n : 0);
		close(nul);
		cr = close(fd);
		fprintf(out, "{\"pid\": %d, \"path_addr\": %llu, \"fd\": %d, \"read\": %zd, "
			"\"written\": %zd, \"close\": %d, \"null_fd\": %d}\n",
			(int)getpid(), (unsigned long long)(uintptr_t)path, fd, n, w, cr, nul);
	} else if (strcmp(argv[2], "calls") == 0) {
		long n = atol(argv[3]), sum = 0;

		for (long i = 0; i < n; i++)
			sum += ltt_workload_probe((int)i);
		fprintf(out, "{\"pid\": %d, \"calls\": %ld, \"sum\": %ld}\n", (int)getpid(), n, sum);
	} else if (strcmp(argv[2], "getppid") == 0) {
		long n = atol(argv[3]), sum = 0;

		for (long i = 0; i < n; i++)
			sum += syscall(SYS_getppid);	/* not the libc wrapper: never cached */
		fprintf(out, "{\"pid\": %d, \"calls\": %ld, \"ppid\": %ld}\n", (int)getpid(), n,
			n ? sum / n : 0);
	} else {
		return 2;
	}
	return fclose(out) == 0 ? 0 : 1;
}
