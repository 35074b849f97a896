/* commands.h - answering libltt-ctl's requests (see proto/ctl-protocol.h). */
#ifndef LTT_SESSIOND_COMMANDS_H
#define LTT_SESSIOND_COMMANDS_H

#include "proto/ctl-protocol.h"
#include "consumer.h"
#include "registry.h"

/*
 * Executes the request msg against reg and builds its reply into *reply
 * (initialized here; the caller sends and frees it). Never fails as a
 * whole: an invalid request gets a reply with a negative status.
 */
void commands_handle(struct registry *reg, const struct proto_msg *msg,
		     struct proto_builder *reply);

/* The consumer daemon, spawned if needed; NULL with *detail on failure. */
struct consumer *commands_consumer(const char **detail);

/*
 * Releases what the commands set up outside the registry (every session's
 * buffers, the consumer daemon, which writes out what they hold). Call once,
 * before registry_free(), when the daemon exits.
 */
void commands_shutdown(struct registry *reg);

#endif /* LTT_SESSIOND_COMMANDS_H */
