/* endpoint.c - the runtime directory and the listening/connecting sockets. */
#include "proto.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int make_private_dir(const char *path)
{
	struct stat st;

	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (lstat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 0077))
		return -EPERM;
	return 0;
}

int proto_runtime_dir_path(char *buf, size_t size)
{
	const char *env = getenv("LTT_HOME"), *base;
	int n;

	if (env && *env)
		n = snprintf(buf, size, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(buf, size, "/run/ltt");
	else if ((base = getenv("XDG_RUNTIME_DIR")) && *base)
		n = snprintf(buf, size, "%s/ltt", base);
	else if ((base = getenv("HOME")) && *base)
		n = snprintf(buf, size, "%s/.ltt", base);
	else
		return -ENOENT;
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

int proto_runtime_dir(char *buf, size_t size)
{
	int r = proto_runtime_dir_path(buf, size);

	return r < 0 ? r : make_private_dir(buf);
}

static int sockaddr_for(const char *path, struct sockaddr_un *sa)
{
	*sa = (struct sockaddr_un){ .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	strcpy(sa->sun_path, path);
	return 0;
}

int proto_connect(const char *path, int *ret_fd)
{
	struct sockaddr_un sa;
	int fd, r = sockaddr_for(path, &sa);

	if (r < 0)
		return r;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

int proto_listen(const char *path, int *ret_fd)
{
	struct sockaddr_un sa;
	int fd = -1, probe, r = sockaddr_for(path, &sa);

	if (r < 0)
		return r;
	/* A socket file that nobody accepts on is left over by a dead daemon. */
	r = proto_connect(path, &probe);
	if (r == 0) {
		close(probe);
		return -EADDRINUSE;
	}
	if (r == -ECONNREFUSED && unlink(path) < 0 && errno != ENOENT)
		return -errno;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 64) < 0) {
		r = -errno;
		goto err;
	}
	*ret_fd = fd;
	return 0;
err:
	close(fd);
	return r;
}
