/* ctl-internal.h - what the files of libltt-ctl share. */
#ifndef LTT_CTL_INTERNAL_H
#define LTT_CTL_INTERNAL_H

#include <ltt/ctl.h>

#include "proto/ctl-protocol.h"

struct ltt_ctl {
	int fd;
	uint32_t seq;
	char detail[512];
};

/*
 * Sends the request built in b and waits for its reply (bounded: a daemon
 * that does not answer in 30 s gives -ETIMEDOUT). On success *reply holds the
 * reply (free it with proto_msg_free()); the return value is the reply's
 * status (0 or negative). Transport or protocol failures return -errno or
 * -LTT_ERR_PROTOCOL with nothing to free. The builder is consumed; it must
 * come from the last ctl_begin() (the reply must echo its seq).
 */
int ctl_request(struct ltt_ctl *ctl, struct proto_builder *b, struct proto_msg *reply);

/* Starts a request of the given type with a fresh sequence number. */
void ctl_begin(struct ltt_ctl *ctl, struct proto_builder *b, enum ctl_msg_type type);

/* Sends a request whose reply carries nothing but its status (as ctl_request()). */
int ctl_simple_request(struct ltt_ctl *ctl, struct proto_builder *b);

/* Appends SESSION, DOMAIN and, if not NULL, CHANNEL. */
void ctl_put_target(struct proto_builder *b, const char *session, enum ltt_domain domain,
		    const char *channel);
/* A request naming one session (name NULL: -EINVAL) and nothing else. */
int ctl_session_request(struct ltt_ctl *ctl, enum ctl_msg_type type, const char *name);

/* Sends a request whose reply carries a COUNT; returns it (or the error). */
int ctl_request_count(struct ltt_ctl *ctl, struct proto_builder *b);

/*
 * Sends a request and copies the reply's string attribute id into *ret
 * (may be NULL; free() it): absent when required gives -LTT_ERR_PROTOCOL.
 */
int ctl_request_str(struct ltt_ctl *ctl, struct proto_builder *b, uint16_t id, bool required,
		    char **ret);

#endif /* LTT_CTL_INTERNAL_H */
