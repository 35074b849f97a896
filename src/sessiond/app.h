/*
 * app.h - the traced applications registered with this daemon (libltt-ust),
 * each with its command and notification connections
 * (proto/app-protocol.h).
 *
 * The daemon's loop hands over a connection whose first message is
 * APP_HELLO (apps_adopt), polls the applications' descriptors it lists
 * (apps_pollfds) and passes them back when ready (apps_ready). After any
 * change of what must be recorded, apps_push() sends every application its
 * new state and waits, bounded, for each to apply it, serving meanwhile the
 * event registrations that applying it causes. An application that breaks
 * the protocol or stops answering is dropped (its tracing simply stops).
 */
#ifndef LTT_SESSIOND_APP_H
#define LTT_SESSIOND_APP_H

#include <poll.h>

#include "proto/app-protocol.h"
#include "registry.h"

/* Takes over connection fd, whose first message hello was APP_HELLO. */
void apps_adopt(struct registry *reg, int fd, const struct proto_msg *hello);

/* Fills fds with the applications' descriptors (at most max); returns how many. */
unsigned apps_pollfds(struct pollfd *fds, unsigned max);

/* Serves descriptor fd, reported ready by poll. */
void apps_ready(struct registry *reg, int fd);

/* Sends every application its state and waits for each to apply it. */
void apps_push(struct registry *reg);

/* Appends, for each application, a CTL_A_APP_DESC with its events (ltt list -u). */
void apps_list(struct registry *reg, struct proto_builder *out);

/*
 * Creates, for a session that starts, the per-PID buffers of every
 * registered application (its channels with --buffers-pid). 0 or -errno.
 */
int apps_attach_session(struct registry *reg, struct reg_session *s, const char **detail);

/* Closes every connection (writing out the per-PID buffers). */
void apps_free(struct registry *reg);

#endif /* LTT_SESSIOND_APP_H */
