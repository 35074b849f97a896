/*
 * ust-ctx-app - emits ctxtest:tick events from threads, for the tests of
 * contexts, trackers and blocking channels:
 *
 *   ust-ctx-app [--name NAME] [--rename NAME] [--main] [--fork] [--phases N]
 *               [--faults] THREADS EVENTS
 *
 * It prints "pid PID" first, then "text START END": the addresses of its
 * executable code (where the tracepoints' call sites are). Each phase (one, or N with --phases, each
 * then started by a line read from standard input) runs THREADS threads that
 * each print "tid PID TID" and emit EVENTS ticks (tid, seq, phase), then
 * prints "phase K done".
 *   --name NAME    the main thread's name (the threads inherit it)
 *   --rename NAME  the main thread's name from phase 2 on
 *   --main         the main thread emits ticks too: one before the phases
 *                  (seq 0, phase 0) and one after each (seq K, phase K)
 *   --fork         after its first tick the main thread forks; each process
 *                  emits a tick from its main thread (seq 1, phase 0), then
 *                  runs the phases (use with one phase)
 *   --faults       before each tick a thread touches a new page (a page
 *                  fault) and sleeps 20 us (a context switch)
 */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "ctx-tp.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned events;
static int phase;
static bool faults;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void say_tid(void)
{
	pthread_mutex_lock(&out_lock);
	printf("tid %d %d\n", getpid(), gettid());
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

/* Prints the executable's code mapping, from /proc/self/maps. */
static void say_text(void)
{
	char exe[4096], line[4352];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *maps = fopen("/proc/self/maps", "re");

	if (n <= 0 || !maps)
		exit(6);
	exe[n] = '\0';
	while (fgets(line, sizeof(line), maps)) {
		unsigned long start, end;
		char perms[8];

		if (strstr(line, exe) && sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3 &&
		    perms[2] == 'x')
			printf("text %lu %lu\n", start, end);
	}
	fclose(maps);
}

static void *emit(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	char *pages = NULL;

	(void)arg;
	say_tid();
	if (faults) {
		pages = mmap(NULL, (size_t)page * events, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (pages == MAP_FAILED)
			exit(3);
	}
	for (unsigned i = 0; i < events; i++) {
		if (faults) {
			pages[(size_t)page * i] = 1;
			usleep(20);
		}
		tracepoint(ctxtest, tick, gettid(), i, phase);
	}
	if (pages)
		munmap(pages, (size_t)page * events);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned threads, phases = 1;
	const char *rename = NULL;
	bool main_ticks = false, do_fork = false, wait_lines = false;
	pid_t child = -1;
	char line[64];
	int a = 1;

	for (; a < argc && !strncmp(argv[a], "--", 2); a++) {
		if (!strcmp(argv[a], "--name") && a + 1 < argc)
			prctl(PR_SET_NAME, argv[++a], 0, 0, 0);
		else if (!strcmp(argv[a], "--rename") && a + 1 < argc)
			rename = argv[++a];
		else if (!strcmp(argv[a], "--main"))
			main_ticks = true;
		else if (!strcmp(argv[a], "--fork"))
			do_fork = true;
		else if (!strcmp(argv[a], "--phases") && a + 1 < argc) {
			phases = (unsigned)atoi(argv[++a]);
			wait_lines = true;
		} else if (!strcmp(argv[a], "--faults"))
			faults = true;
		else
			return 2;
	}
	if (argc - a != 2)
		return 2;
	threads = (unsigned)atoi(argv[a]);
	events = (unsigned)atoi(argv[a + 1]);
	printf("pid %d\n", getpid());
	say_text();
	fflush(stdout);
	if (main_ticks) {
		say_tid();
		tracepoint(ctxtest, tick, gettid(), 0, 0);
	}
	if (do_fork) {
		child = fork();
		if (child < 0)
			return 1;
		if (child == 0)
			say_tid();	/* the child's main thread */
		tracepoint(ctxtest, tick, gettid(), 1, 0);
	}
	for (phase = 1; phase <= (int)phases; phase++) {
		pthread_t t[64];

		if (wait_lines && !fgets(line, sizeof(line), stdin))
			return 4;
		if (phase == 2 && rename)
			prctl(PR_SET_NAME, rename, 0, 0, 0);
		for (unsigned i = 0; i < threads && i < 64; i++)
			if (pthread_create(&t[i], NULL, emit, NULL) != 0)
				return 5;
		for (unsigned i = 0; i < threads && i < 64; i++)
			pthread_join(t[i], NULL);
		if (main_ticks)
			tracepoint(ctxtest, tick, gettid(), (unsigned)phase, phase);
		printf("phase %d done\n", phase);
		fflush(stdout);
	}
	if (child > 0) {
		int status;

		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	}
	return 0;
}
