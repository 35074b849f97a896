/* common.c - helpers of the ltt commands; see cli.h. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/fs.h"

bool cli_quiet;

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_say(const char *fmt, ...)
{
	va_list ap;

	if (cli_quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

int cli_fail(struct ltt_ctl *ctl, int err, const char *fmt, ...)
{
	const char *detail = ctl ? ltt_ctl_error_detail(ctl) : "";
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (detail[0])
		cli_error("%s: %s (%s)", what, ltt_strerror(err), detail);
	else
		cli_error("%s: %s", what, ltt_strerror(err));
	return 1;
}

/* Runs `ltt-sessiond --daemonize`, which returns once its socket listens. */
static int spawn_sessiond(void)
{
	char path[PATH_MAX];
	int status;
	pid_t pid;

	find_program("ltt-sessiond", "LTT_SESSIOND_PATH", "sessiond", path, sizeof(path));
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execlp(path, path, "--daemonize", (char *)NULL);
		fprintf(stderr, "Error: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

int cli_connect(bool spawn, struct ltt_ctl **ret_ctl)
{
	int r = ltt_ctl_connect(ret_ctl);

	if (r == -LTT_ERR_NO_SESSIOND && spawn) {
		if (spawn_sessiond() < 0) {
			cli_error("cannot start the session daemon (ltt-sessiond)");
			return 1;
		}
		cli_say("Spawning a session daemon\n");
		r = ltt_ctl_connect(ret_ctl);
	}
	if (r < 0)
		return cli_fail(NULL, r, "cannot reach the session daemon");
	return 0;
}

static int current_path(char *buf, size_t size)
{
	char dir[PATH_MAX];
	int r = ltt_ctl_runtime_dir(dir, sizeof(dir));

	if (r < 0)
		return r;
	return snprintf(buf, size, "%s/current-session", dir) >= (int)size ? -ENAMETOOLONG : 0;
}

const char *cli_session_or_current(const char *name)
{
	static char current[256];
	char path[PATH_MAX];
	FILE *f;

	if (name)
		return name;
	if (current_path(path, sizeof(path)) == 0 && (f = fopen(path, "re"))) {
		bool ok = fgets(current, sizeof(current), f) != NULL;

		fclose(f);
		current[strcspn(current, "\n")] = '\0';
		if (ok && current[0])
			return current;
	}
	cli_error("no session given and no current session (create one with `ltt create`)");
	return NULL;
}

int cli_set_current_session(const char *name)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;
	int r = current_path(path, sizeof(path));

	if (r < 0)
		return r;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fprintf(f, "%s\n", name);
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		r = -errno;
		unlink(tmp);
		return r;
	}
	return 0;
}

void cli_clear_current_session(const char *name)
{
	char path[PATH_MAX], cur[256] = "";
	FILE *f;

	if (current_path(path, sizeof(path)) < 0 || !(f = fopen(path, "re")))
		return;
	if (fgets(cur, sizeof(cur), f))
		cur[strcspn(cur, "\n")] = '\0';
	fclose(f);
	if (strcmp(cur, name) == 0)
		unlink(path);
}

int cli_output_path(const char *arg, char *buf, size_t size)
{
	char cwd[PATH_MAX];
	int n;

	if (strncmp(arg, "file://", 7) == 0)
		arg += 7;
	else if (strstr(arg, "://")) {
		cli_error("%s: network outputs are not supported: give a local path", arg);
		return 1;
	}
	if (!*arg) {
		cli_error("an output path is empty");
		return 1;
	}
	if (arg[0] == '/')
		n = snprintf(buf, size, "%s", arg);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(buf, size, "%s/%s", cwd, arg);
	else
		n = -1;
	if (n < 0 || (size_t)n >= size) {
		cli_error("output path too long: %s", arg);
		return 1;
	}
	return 0;
}

/* Parses an unsigned number followed by a unit from units[] (NULL-terminated). */
static int parse_with_units(const char *s, const char *const *units, const uint64_t *scale,
			    uint64_t *ret)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	for (size_t i = 0; units[i]; i++)
		if (strcmp(end, units[i]) == 0) {
			if (scale[i] && v > UINT64_MAX / scale[i])
				return -EINVAL;
			*ret = v * scale[i];
			return 0;
		}
	return -EINVAL;
}

int cli_parse_size(const char *s, uint64_t *ret)
{
	static const char *const units[] = { "", "k", "K", "M", "G", NULL };
	static const uint64_t scale[] = { 1, 1 << 10, 1 << 10, 1 << 20, 1 << 30 };

	return parse_with_units(s, units, scale, ret);
}

int cli_parse_usec(const char *s, uint64_t *ret)
{
	static const char *const units[] = { "", "us", "ms", "s", "m", "h", NULL };
	static const uint64_t scale[] = { 1, 1, 1000, 1000000, 60000000, 3600000000 };

	return parse_with_units(s, units, scale, ret);
}

bool cli_wants_help(int argc, char **argv, const char *help)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(help, stdout);
			return true;
		}
	}
	return false;
}
