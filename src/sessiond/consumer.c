/* consumer.c - spawning and commanding ltt-consumerd; see consumer.h. */
#include "consumer.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/fs.h"

#define REPLY_TIMEOUT_MS 10000
#define EXIT_TIMEOUT_MS 10000

struct consumer {
	pid_t pid;
	int sock;
	uint32_t seq;
};

/*
 * Channel keys: a random 24-bit epoch of this daemon, then a counter. An
 * application outlives daemons: the keys of the next daemon must not be
 * those the application saw before (it keeps event ids per key), and they
 * stay below 2^48 (the tracer packs them with a 16-bit id).
 */
uint64_t consumer_new_key(void)
{
	static uint64_t epoch, counter;

	while (epoch == 0) {
		uint32_t r = 0;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (uint32_t)getpid() ^ (uint32_t)time(NULL);
		epoch = r & 0xffffff;
	}
	return epoch << 24 | (++counter & 0xffffff);
}

pid_t consumer_pid(const struct consumer *c)
{
	return c->pid;
}

int consumer_spawn(struct consumer **ret)
{
	char path[PATH_MAX];
	struct consumer *c;
	int sv[2];

	find_program("ltt-consumerd", "LTT_CONSUMERD_PATH", "consumerd", path, sizeof(path));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(sv[0]);
		close(sv[1]);
		return -ENOMEM;
	}
	c->sock = sv[0];
	c->pid = fork();
	if (c->pid < 0) {
		int r = -errno;

		close(sv[0]);
		close(sv[1]);
		free(c);
		return r;
	}
	if (c->pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);	/* the daemon blocks its signals */
		if (dup2(sv[1], 0) < 0)
			_exit(127);
		execlp(path, path, (char *)NULL);
		fprintf(stderr, "ltt-sessiond: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(sv[1]);
	*ret = c;
	return 0;
}

void consumer_begin(struct consumer *c, struct proto_builder *b, enum cons_msg_type type)
{
	proto_builder_init(b, (uint16_t)type, ++c->seq);
}

int consumer_call(struct consumer *c, struct proto_builder *b, const int *fds, unsigned n_fds,
		  struct proto_msg *ret_reply, const char **detail)
{
	struct proto_msg reply;
	const char *d;
	int64_t status;
	int r = proto_send(c->sock, b, fds, n_fds, REPLY_TIMEOUT_MS);

	proto_builder_free(b);
	if (r < 0)
		return r == -ETIMEDOUT ? r : -EPIPE;
	r = proto_recv(c->sock, &reply, REPLY_TIMEOUT_MS);
	if (r < 0)
		return r == -ETIMEDOUT ? r : -EPIPE;
	if (reply.hdr.type != CONS_REPLY || reply.hdr.seq != c->seq ||
	    proto_get_i64(&reply.attrs, CONS_A_STATUS, &status) < 0 || status > 0) {
		proto_msg_free(&reply);
		return -EPIPE;	/* out of step: treat as gone */
	}
	if (detail && proto_get_str(&reply.attrs, CONS_A_DETAIL, &d) == 0) {
		static char text[256];	/* the daemon is single-threaded */

		snprintf(text, sizeof(text), "consumer daemon: %s", d);
		*detail = text;
	}
	if (status == 0 && ret_reply)
		*ret_reply = reply;
	else
		proto_msg_free(&reply);
	return (int)status;
}

int consumer_request(struct consumer *c, struct proto_builder *b, const int *fds, unsigned n_fds,
		     const char **detail)
{
	return consumer_call(c, b, fds, n_fds, NULL, detail);
}

/* Waits for pid to exit, up to ms; true if it did (and was reaped). */
static bool wait_exit(pid_t pid, int ms)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	bool done;

	if (pidfd < 0)
		return waitpid(pid, NULL, WNOHANG) == pid;
	done = poll(&(struct pollfd){ .fd = pidfd, .events = POLLIN }, 1, ms) == 1;
	close(pidfd);
	return done && waitpid(pid, NULL, 0) == pid;
}

void consumer_free(struct consumer *c)
{
	if (!c)
		return;
	close(c->sock);
	if (!wait_exit(c->pid, EXIT_TIMEOUT_MS)) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
	}
	free(c);
}
