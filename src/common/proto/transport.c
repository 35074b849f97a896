/* transport.c - sending and receiving messages on Unix sockets; see proto.h. */
#include "proto.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "util/macros.h"

/* Milliseconds left before deadline (-1: no deadline), at least 0. */
static int remaining_ms(const struct timespec *deadline)
{
	struct timespec now;
	long long ms;

	if (!deadline)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (deadline->tv_sec - now.tv_sec) * 1000LL + (deadline->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : (int)ms;
}

static void deadline_in(struct timespec *d, int timeout_ms)
{
	clock_gettime(CLOCK_MONOTONIC, d);
	d->tv_sec += timeout_ms / 1000;
	d->tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (d->tv_nsec >= 1000000000) {
		d->tv_sec++;
		d->tv_nsec -= 1000000000;
	}
}

/* Waits until sock is ready for events; 0, -ETIMEDOUT or a negative errno. */
static int wait_ready(int sock, short events, const struct timespec *deadline)
{
	struct pollfd pfd = { .fd = sock, .events = events };
	int r;

	do {
		r = poll(&pfd, 1, remaining_ms(deadline));
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	return r == 0 ? -ETIMEDOUT : 0;
}

int proto_send(int sock, const struct proto_builder *b, const int *fds, unsigned n_fds,
	       int timeout_ms)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * PROTO_MAX_FDS)];
	} control;
	struct timespec deadline;
	const struct timespec *dl = NULL;
	size_t len, done = 0;
	const uint8_t *data;
	int r = proto_builder_error(b);

	if (r < 0)
		return r;
	if (n_fds > PROTO_MAX_FDS)
		return -EINVAL;
	if (timeout_ms >= 0) {
		deadline_in(&deadline, timeout_ms);
		dl = &deadline;
	}
	data = proto_builder_data(b, &len);
	while (done < len) {
		struct iovec iov = { (void *)(data + done), len - done };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t n;

		if (done == 0 && n_fds) {
			struct cmsghdr *cm;

			memset(&control, 0, sizeof(control));
			mh.msg_control = control.buf;
			mh.msg_controllen = CMSG_SPACE(sizeof(int) * n_fds);
			cm = CMSG_FIRSTHDR(&mh);
			cm->cmsg_level = SOL_SOCKET;
			cm->cmsg_type = SCM_RIGHTS;
			cm->cmsg_len = CMSG_LEN(sizeof(int) * n_fds);
			memcpy(CMSG_DATA(cm), fds, sizeof(int) * n_fds);
		}
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				r = wait_ready(sock, POLLOUT, dl);
				if (r < 0)
					return r;
				continue;
			}
			return -errno;
		}
		done += (size_t)n;
	}
	return 0;
}

static void close_fds(int *fds, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

/* Takes the SCM_RIGHTS descriptors of mh into msg; -EBADMSG if truncated. */
static int take_fds(struct msghdr *mh, struct proto_msg *msg)
{
	int r = (mh->msg_flags & MSG_CTRUNC) ? -EBADMSG : 0;

	for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		size_t n;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (msg->n_fds < PROTO_MAX_FDS)
				msg->fds[msg->n_fds++] = fd;
			else {
				close(fd);
				r = -EBADMSG;
			}
		}
	}
	return r;
}

/*
 * Reads exactly len bytes; descriptors arriving with them go to msg.
 * Returns 0, -ECONNRESET if the peer closed before sending anything,
 * -EBADMSG if it closed mid-way or sent too many descriptors, -ETIMEDOUT, or
 * a negative errno.
 */
static int recv_all(int sock, void *buf, size_t len, struct proto_msg *msg,
		    const struct timespec *dl)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * PROTO_MAX_FDS)];
	} control;
	size_t done = 0;
	int r = 0;

	while (done < len) {
		struct iovec iov = { (uint8_t *)buf + done, len - done };
		struct msghdr mh = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
		};
		ssize_t n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				r = wait_ready(sock, POLLIN, dl);
				if (r < 0)
					return r;
				continue;
			}
			return -errno;
		}
		if (take_fds(&mh, msg) < 0)
			r = -EBADMSG;
		if (n == 0)
			return done == 0 && msg->n_fds == 0 ? -ECONNRESET : -EBADMSG;
		done += (size_t)n;
	}
	return r;
}

int proto_recv(int sock, struct proto_msg *msg, int timeout_ms)
{
	struct timespec deadline;
	const struct timespec *dl = NULL;
	int r;

	*msg = (struct proto_msg){ .payload = NULL };
	for (unsigned i = 0; i < PROTO_MAX_FDS; i++)
		msg->fds[i] = -1;
	if (timeout_ms >= 0) {
		deadline_in(&deadline, timeout_ms);
		dl = &deadline;
	}
	r = wait_ready(sock, POLLIN, dl);
	if (r < 0)
		return r;
	r = recv_all(sock, &msg->hdr, sizeof(msg->hdr), msg, dl);
	if (r == 0)
		r = proto_header_check(&msg->hdr);
	if (r == 0 && msg->hdr.payload_len) {
		msg->payload = malloc(msg->hdr.payload_len);
		r = msg->payload ? recv_all(sock, msg->payload, msg->hdr.payload_len, msg, dl)
				 : -ENOMEM;
		if (r == -ECONNRESET)
			r = -EBADMSG;	/* closed between header and payload */
	}
	if (r == 0)
		r = proto_attrs_parse(msg->payload, msg->hdr.payload_len, &msg->attrs);
	if (r < 0)
		proto_msg_free(msg);
	return r;
}

void proto_msg_free(struct proto_msg *msg)
{
	if (!msg)
		return;
	close_fds(msg->fds, msg->n_fds);
	free(msg->payload);
	msg->payload = NULL;
	msg->n_fds = 0;
}

int proto_peer_cred(int sock, pid_t *ret_pid, uid_t *ret_uid, gid_t *ret_gid)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return -errno;
	if (ret_pid)
		*ret_pid = cred.pid;
	if (ret_uid)
		*ret_uid = cred.uid;
	if (ret_gid)
		*ret_gid = cred.gid;
	return 0;
}
