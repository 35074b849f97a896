/*
 * consumer.h - the session daemon's ltt-consumerd: spawned on first need,
 * commanded over a socketpair (proto/consumer-protocol.h), one request at a
 * time, each answered before the next.
 */
#ifndef LTT_SESSIOND_CONSUMER_H
#define LTT_SESSIOND_CONSUMER_H

#include <stdint.h>
#include <sys/types.h>

#include "proto/consumer-protocol.h"

struct consumer;

/* A key for a new channel, unique in this daemon and unlike a previous daemon's. */
uint64_t consumer_new_key(void);

/* The consumer's process (not to be traced by the kernel channels it drains). */
pid_t consumer_pid(const struct consumer *c);

/*
 * Starts ltt-consumerd ($LTT_CONSUMERD_PATH, else beside this program, else
 * in the build tree). Returns 0 and *ret, or a negative errno.
 */
int consumer_spawn(struct consumer **ret);

/*
 * Sends the request built in b (consumed) with n_fds descriptors and waits
 * for the reply (bounded: 10 s). Returns the reply's status (0 or negative),
 * or -EPIPE when the consumer is gone (the caller frees it and spawns
 * another next time). *detail (may be NULL) gets a static description.
 */
int consumer_request(struct consumer *c, struct proto_builder *b, const int *fds, unsigned n_fds,
		     const char **detail);

/* consumer_request, and on success its reply in *ret_reply (proto_msg_free it). */
int consumer_call(struct consumer *c, struct proto_builder *b, const int *fds, unsigned n_fds,
		  struct proto_msg *ret_reply, const char **detail);

/* Starts a request with the consumer's next sequence number. */
void consumer_begin(struct consumer *c, struct proto_builder *b, enum cons_msg_type type);

/*
 * Closes the control socket (the consumer then writes out what its buffers
 * hold and exits) and waits for it up to 10 s before killing it. NULL: no-op.
 */
void consumer_free(struct consumer *c);

#endif /* LTT_SESSIOND_CONSUMER_H */
