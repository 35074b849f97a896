/*
 * ust-session.h - the user-space buffers of a session: for each user channel,
 * a ring-buffer channel in shared memory (per-UID scheme: one set for the
 * daemon's own user), the CTF trace class that describes them, and their
 * registration with the consumer, which writes them to
 * OUTPUT/ust/uid/UID/64-bit/.
 *
 * Created at the session's first start, flushed at each stop, released at
 * destroy. The shared-memory fds are what applications will map.
 */
#ifndef LTT_SESSIOND_UST_SESSION_H
#define LTT_SESSIOND_UST_SESSION_H

#include "consumer.h"
#include "registry.h"

struct ust_session;

/*
 * Creates the buffers of the session's user channels (if not done yet) and
 * hands them to the consumer. Returns 0 or a negative errno / -LTT_ERR_*,
 * with *detail saying what failed.
 */
int ust_session_start(struct reg_session *s, struct consumer *c, const char **detail);

/* Closes the open sub-buffers; returns once the consumer wrote them. */
int ust_session_flush(struct reg_session *s, struct consumer *c, const char **detail);

/* Flushes, then releases the buffers and the consumer's streams. NULL c: local only. */
void ust_session_free(struct reg_session *s, struct consumer *c);

#endif /* LTT_SESSIOND_UST_SESSION_H */
