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
 * Starts session s (its buffers, the consumer, the applications' state is
 * pushed by the caller: apps_push()). 0 or a negative errno / -LTT_ERR_*.
 */
int commands_session_start(struct registry *reg, struct reg_session *s, const char **detail);

struct commands_load_request {
	const char *name;		/* NULL: every session found */
	bool force;			/* replace sessions of the same name */
	bool owner_only;		/* skip files of other users (the daemon's own loads) */
	const char *override_url, *override_name;
};

/*
 * Loads sessions from session files (save.h: load_find() searches paths),
 * all checked before any is created; those saved while tracing start.
 * *ret_count: how many were loaded. The caller pushes the applications'
 * state (apps_push()). 0 or a negative errno / -LTT_ERR_* with *detail.
 */
int commands_load(struct registry *reg, const char *const *paths, size_t n_paths,
		  const struct commands_load_request *lr, size_t *ret_count, const char **detail);

/* Milliseconds until commands_tick() has work (-1: none): the loop's poll timeout. */
int commands_timeout_ms(const struct registry *reg);
/* Runs what is due (automatic rotations). */
void commands_tick(struct registry *reg);

/*
 * Releases what the commands set up outside the registry (every session's
 * buffers, the consumer daemon, which writes out what they hold). Call once,
 * before registry_free(), when the daemon exits.
 */
void commands_shutdown(struct registry *reg);

#endif /* LTT_SESSIOND_COMMANDS_H */
