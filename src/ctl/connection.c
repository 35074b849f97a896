/* connection.c - connecting to ltt-sessiond and exchanging requests. */
#include "ctl-internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/macros.h"

#define REPLY_TIMEOUT_MS 30000

LTT_EXPORT int ltt_ctl_runtime_dir(char *buf, size_t size)
{
	return proto_runtime_dir(buf, size);
}

LTT_EXPORT int ltt_ctl_sessiond_socket(char *buf, size_t size)
{
	char dir[4096];
	int r = proto_runtime_dir(dir, sizeof(dir)), n;

	if (r < 0)
		return r;
	n = snprintf(buf, size, "%s/sessiond.sock", dir);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

LTT_EXPORT int ltt_ctl_connect(struct ltt_ctl **ret_ctl)
{
	char path[4096];
	struct ltt_ctl *ctl;
	int fd, r = ltt_ctl_sessiond_socket(path, sizeof(path));

	if (r < 0)
		return r;
	r = proto_connect(path, &fd);
	if (r == -ENOENT || r == -ECONNREFUSED)
		return -LTT_ERR_NO_SESSIOND;
	if (r < 0)
		return r;
	ctl = calloc(1, sizeof(*ctl));
	if (!ctl) {
		close(fd);
		return -ENOMEM;
	}
	ctl->fd = fd;
	*ret_ctl = ctl;
	return 0;
}

LTT_EXPORT void ltt_ctl_close(struct ltt_ctl *ctl)
{
	if (!ctl)
		return;
	close(ctl->fd);
	free(ctl);
}

LTT_EXPORT const char *ltt_ctl_error_detail(const struct ltt_ctl *ctl)
{
	return ctl->detail;
}

void ctl_begin(struct ltt_ctl *ctl, struct proto_builder *b, enum ctl_msg_type type)
{
	proto_builder_init(b, (uint16_t)type, ++ctl->seq);
}

int ctl_request(struct ltt_ctl *ctl, struct proto_builder *b, struct proto_msg *reply)
{
	int64_t status;
	const char *detail;
	int r;

	ctl->detail[0] = '\0';
	r = proto_send(ctl->fd, b, NULL, 0, REPLY_TIMEOUT_MS);
	proto_builder_free(b);
	if (r == -EPIPE || r == -ECONNRESET)
		return -LTT_ERR_NO_SESSIOND;
	if (r < 0)
		return r;
	r = proto_recv(ctl->fd, reply, REPLY_TIMEOUT_MS);
	if (r == -ECONNRESET)
		return -LTT_ERR_NO_SESSIOND;
	if (r == -EBADMSG || r == -EMSGSIZE)
		return -LTT_ERR_PROTOCOL;
	if (r < 0)
		return r;
	if (reply->hdr.type != CTL_REPLY || reply->hdr.seq != ctl->seq ||
	    proto_get_i64(&reply->attrs, CTL_A_STATUS, &status) < 0 || status > 0 ||
	    status < -(int64_t)LTT_ERR_LAST) {
		proto_msg_free(reply);
		return -LTT_ERR_PROTOCOL;
	}
	if (proto_get_str(&reply->attrs, CTL_A_DETAIL, &detail) == 0)
		snprintf(ctl->detail, sizeof(ctl->detail), "%s", detail);
	if (status < 0)
		proto_msg_free(reply);
	return (int)status;
}

int ctl_simple_request(struct ltt_ctl *ctl, struct proto_builder *b)
{
	struct proto_msg reply;
	int r = ctl_request(ctl, b, &reply);

	if (r == 0)
		proto_msg_free(&reply);
	return r;
}

int ctl_session_request(struct ltt_ctl *ctl, enum ctl_msg_type type, const char *name)
{
	struct proto_builder b;

	if (!name)
		return -EINVAL;
	ctl_begin(ctl, &b, type);
	proto_put_str(&b, CTL_A_SESSION, name);
	return ctl_simple_request(ctl, &b);
}

int ctl_request_str(struct ltt_ctl *ctl, struct proto_builder *b, uint16_t id, bool required,
		    char **ret)
{
	struct proto_msg reply;
	const char *value;
	int r = ctl_request(ctl, b, &reply);

	if (r < 0)
		return r;
	if (proto_get_str(&reply.attrs, id, &value) < 0) {
		if (required)
			r = -LTT_ERR_PROTOCOL;
		else if (ret)
			*ret = NULL;
	} else if (ret && !(*ret = strdup(value))) {
		r = -ENOMEM;
	}
	proto_msg_free(&reply);
	return r;
}

int ctl_request_count(struct ltt_ctl *ctl, struct proto_builder *b)
{
	struct proto_msg reply;
	uint64_t count;
	int r = ctl_request(ctl, b, &reply);

	if (r < 0)
		return r;
	r = proto_get_u64(&reply.attrs, CTL_A_COUNT, &count) < 0 || count > INT32_MAX
		    ? -LTT_ERR_PROTOCOL : (int)count;
	proto_msg_free(&reply);
	return r;
}
