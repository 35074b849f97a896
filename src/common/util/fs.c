/* fs.c - see fs.h. */
#include "fs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = c;
		if (!c)
			return 0;
	}
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

void find_program(const char *name, const char *env_var, const char *build_subdir, char *buf,
		  size_t size)
{
	const char *env = getenv(env_var);
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/'))) {
			*slash = '\0';
			if (snprintf(buf, size, "%s/%s", self, name) < (int)size &&
			    access(buf, X_OK) == 0)
				return;
			if (snprintf(buf, size, "%s/../%s/%s", self, build_subdir, name) < (int)size &&
			    access(buf, X_OK) == 0)
				return;
		}
	}
	snprintf(buf, size, "%s", name);
}

int session_files_user_dir(char *buf, size_t size)
{
	const char *home = getenv("HOME");

	if (!home || home[0] != '/')
		return -ENOENT;
	return snprintf(buf, size, "%s/.ltt/sessions", home) >= (int)size ? -ENAMETOOLONG : 0;
}

const char *session_files_system_dir(void)
{
	const char *dir = getenv("LTT_SYSTEM_SESSIONS_DIR");

	return dir && dir[0] == '/' ? dir : "/etc/ltt/sessions";
}
