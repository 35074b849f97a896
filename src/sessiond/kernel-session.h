/*
 * kernel-session.h - a session's kernel domain, on tracefs (src/kernel):
 *
 *   instance   one tracefs instance per session (ltt-SESSION-PID), made with
 *              the session's kernel channel (its sub-buffer size x count is
 *              the instance's per-CPU buffer, --overwrite its overwrite
 *              option, the session's trace clock its trace_clock), started
 *              and stopped with the session, removed at destroy;
 *   events     the tracefs events the channel's enabled rules match, each
 *              enabled in the instance with, when every rule matching it has
 *              a filter, those filters OR'ed: in the kernel's own filter
 *              file when its grammar can say it, else evaluated by the
 *              consumer on the converted records;
 *   consumer   the channel in ltt-consumerd (kernel-channel.c there), added
 *              at the first start: it reads the instance into OUTPUT/kernel.

 *   contexts   tid (always), pid, procname, prio, cpu_id: fields the
 *              consumer's converter adds to every record from the record
 *              and its per-thread state (src/kernel/threads.c); they travel
 *              with ADD_KERNEL_CHANNEL, like the clock.
 *
 * Context: the daemon's main loop. Functions return 0 or a negative errno /
 * -LTT_ERR_*, with *detail naming what failed (valid until the next call).
 */
#ifndef LTT_SESSIOND_KERNEL_SESSION_H
#define LTT_SESSIOND_KERNEL_SESSION_H

#include "consumer.h"
#include "proto/proto.h"
#include "registry.h"

/*
 * Whether this daemon can trace the kernel: root, or a member of the
 * `tracing` group with write access to tracefs. -LTT_ERR_KERNEL_UNAVAILABLE
 * with *detail saying why not.
 */
int kernel_session_available(const char **detail);

/*
 * The kernel context (enum kt_context) that records context type `type`
 * (proto/context-types.h): 0 for tid, which every kernel event has;
 * -LTT_ERR_CONTEXT_UNAVAILABLE with *detail saying why for the types the
 * tracefs backend cannot record.
 */
int kernel_session_context(unsigned type, const char **detail);

/*
 * The kernel pid tracker of s (its registry set) into its tracefs instance,
 * if it has one: only those processes (their threads, and what they fork
 * from now on) are recorded. 0 or an error with *detail.
 */
int kernel_session_track(struct reg_session *s, const char **detail);

/*
 * Makes the tracefs instance of session s for its new kernel channel c
 * (just added to the registry; a session has one kernel channel: tracefs
 * gives an instance one ring buffer).
 */
int kernel_session_add_channel(struct reg_session *s, const struct reg_channel *c,
			       const char **detail);

/*
 * Session s was built from a session file (save.c): makes the instance of
 * its kernel channel, if it has one, and applies its rules, as
 * enable-channel and enable-event would have. 0, or an error with *detail
 * (the caller destroys s).
 */
int kernel_session_load(struct reg_session *s, const char **detail);

/*
 * Rule `index` of the session's kernel channel was enabled or disabled in
 * the registry: the instance follows (events, filters, uprobes, the
 * function tracer) and, if the session started before, the consumer's
 * filters. On failure the caller takes the rule back and calls this again
 * to restore what it had.
 */
int kernel_session_rule_changed(struct reg_session *s, size_t index, struct consumer *c,
				const char **detail);

/* At start: the consumer's channel (first time), the state dump, tracing on. */
int kernel_session_start(struct reg_session *s, struct consumer *c, const char **detail);

/*
 * Regenerate statedump: the consumer writes a state dump into the kernel
 * trace now (after what the buffers hold), as at start.
 */
int kernel_session_statedump(struct reg_session *s, struct consumer *c, const char **detail);

/* At stop: tracing off, then the consumer drains it all to disk. */
int kernel_session_stop(struct reg_session *s, struct consumer *c, const char **detail);

/*
 * Destroy: tracing off, the consumer writes what is left and unmaps the
 * buffers (c NULL: no consumer), the instance is removed. No-op without one.
 */
void kernel_session_free(struct reg_session *s, struct consumer *c);

/*
 * Rotation: the kernel trace so far is closed, complete, in the current
 * chunk; what follows goes to DIR/kernel (dir NULL: the session is stopped,
 * the next trace is made by the rotation at its next start). No-op before
 * the first start.
 */
int kernel_session_rotate(struct reg_session *s, struct consumer *c, const char *dir,
			  const char **detail);

/* Clear: what the kernel buffers hold is dropped, the kernel trace emptied. */
int kernel_session_clear(struct reg_session *s, struct consumer *c, const char **detail);

/* Regenerate metadata: the kernel trace's metadata gets the session's (resampled) clock. */
int kernel_session_regenerate_metadata(struct reg_session *s, struct consumer *c,
				       const char **detail);

/*
 * What the consumer wrote of the session's kernel channel: events recorded,
 * and events the kernel lost. -ENOENT when it has not started yet.
 */
int kernel_session_stats(struct reg_session *s, struct consumer *c, uint64_t *ret_recorded,
			 uint64_t *ret_discarded);

/*
 * `ltt list -k`: one TRACEPOINT_DESC (PATTERN: LTTng's name, NAME: tracefs'
 * system:name) per kernel tracepoint; syscalls: one per syscall (PATTERN).
 */
int kernel_session_list(bool syscalls, struct proto_builder *reply, const char **detail);

/* At daemon start, as root: removes the instances and uprobes of dead daemons. */
void kernel_session_cleanup_stale(void);

#endif /* LTT_SESSIOND_KERNEL_SESSION_H */
