/*
 * kernel-user-app - an instrumented program for the combined user + kernel
 * tests: a writer thread blocks in write() on a full pipe; the main thread
 * waits until the kernel says so (/proc/self/task/TID/syscall names write),
 * emits ktest:during_write, then empties the pipe, which lets the write
 * return. So the tracepoint lies, by time, between the writer's
 * syscall_entry_write and syscall_exit_write. Writes what it did as JSON to
 * OUTFILE.
 *
 *   kernel-user-app OUTFILE
 */
#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "kernel-user-tp.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int pipefd[2];
static volatile pid_t writer_tid;
static char chunk[65536];

static void *writer(void *arg)
{
	(void)arg;
	writer_tid = (pid_t)syscall(SYS_gettid);
	/* the pipe is full: this write blocks until the main thread reads */
	if (write(pipefd[1], "x", 1) != 1)
		return (void *)1;
	return NULL;
}

/* Whether thread tid is inside write() now, as the kernel reports it. */
static int in_write(pid_t tid)
{
	char path[64], buf[128] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strncmp(buf, "1 ", 2) == 0;	/* __NR_write on x86-64 */
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 1000000 };
	pthread_t th;
	FILE *out;
	int waited;

	if (argc != 2 || !(out = fopen(argv[1], "w")))
		return 2;
	if (pipe(pipefd) < 0)
		return 1;
	fcntl(pipefd[1], F_SETPIPE_SZ, 4096);
	fcntl(pipefd[1], F_SETFL, O_NONBLOCK);
	while (write(pipefd[1], chunk, sizeof(chunk)) > 0)
		;
	fcntl(pipefd[1], F_SETFL, 0);
	if (pthread_create(&th, NULL, writer, NULL) != 0)
		return 1;
	/* bounded: 10 s */
	for (waited = 0; waited < 10000 && !(writer_tid && in_write(writer_tid)); waited++)
		nanosleep(&tick, NULL);
	if (waited == 10000)
		return 3;
	tracepoint(ktest, during_write, (int)writer_tid, pipefd[1]);
	/* room in the pipe: the write returns */
	if (read(pipefd[0], chunk, sizeof(chunk)) <= 0)
		return 1;
	pthread_join(th, NULL);
	fprintf(out, "{\"pid\": %d, \"writer_tid\": %d, \"fd\": %d}\n", (int)getpid(),
		(int)writer_tid, pipefd[1]);
	return fclose(out) == 0 ? 0 : 1;
}
