/*
 * ltt-test.c - main() of every unit-test binary: runs each registered case
 * in a forked child under a timeout and reports TAP. See ltt-test.h.
 */
#include "ltt-test.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS 512
#define EXIT_SKIP 77

struct test_case {
	const char *name;
	test_fn fn;
};

static struct test_case cases[MAX_TESTS];
static unsigned n_cases;
unsigned test_repetition, test_repeat = 1;

void test_register(const char *name, test_fn fn)
{
	if (n_cases == MAX_TESTS) {
		fprintf(stderr, "ltt-test: more than %d cases\n", MAX_TESTS);
		abort();
	}
	cases[n_cases++] = (struct test_case){ name, fn };
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(NULL);
	_exit(1);
}

void test_skip(const char *why)
{
	fprintf(stdout, "# skip: %s\n", why);
	fflush(NULL);
	_exit(EXIT_SKIP);
}

static bool selected(const char *name, char **names, int n_names)
{
	if (n_names == 0)
		return true;
	for (int i = 0; i < n_names; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/* Runs one case in a child; returns its wait status, or -1 on timeout. */
static int run_case(const struct test_case *c, unsigned timeout_s)
{
	struct timespec deadline, now;
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("ltt-test: fork");
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		for (test_repetition = 0; test_repetition < test_repeat; test_repetition++)
			c->fn();
		fflush(NULL);
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_s;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > deadline.tv_sec ||
		    (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec)) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
	}
}

int main(int argc, char **argv)
{
	unsigned timeout_s = 60, n_run = 0, failed = 0;
	char **names = calloc((size_t)argc, sizeof(*names));
	int n_names = 0;
	const char *env = getenv("LTT_TEST_TIMEOUT");

	if (env)
		timeout_s = (unsigned)strtoul(env, NULL, 10);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
			test_repeat = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
			timeout_s = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--list") == 0) {
			for (unsigned k = 0; k < n_cases; k++)
				puts(cases[k].name);
			return 0;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: %s [--repeat N] [--timeout S] [--list] [NAME...]\n",
				argv[0]);
			return 2;
		} else
			names[n_names++] = argv[i];
	}
	for (unsigned k = 0; k < n_cases; k++)
		n_run += selected(cases[k].name, names, n_names);
	printf("1..%u\n", n_run);
	n_run = 0;
	for (unsigned k = 0; k < n_cases; k++) {
		int status;

		if (!selected(cases[k].name, names, n_names))
			continue;
		n_run++;
		status = run_case(&cases[k], timeout_s);
		if (status == -1) {
			printf("not ok %u - %s # timed out after %u s\n", n_run, cases[k].name, timeout_s);
			failed++;
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			printf("ok %u - %s\n", n_run, cases[k].name);
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SKIP) {
			printf("ok %u - %s # SKIP\n", n_run, cases[k].name);
		} else if (WIFSIGNALED(status)) {
			printf("not ok %u - %s # killed by signal %d (%s)\n", n_run,
			       cases[k].name, WTERMSIG(status), strsignal(WTERMSIG(status)));
			failed++;
		} else {
			printf("not ok %u - %s\n", n_run, cases[k].name);
			failed++;
		}
		fflush(stdout);
	}
	free(names);
	return failed ? 1 : 0;
}
