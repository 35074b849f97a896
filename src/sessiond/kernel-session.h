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
 *
 * Where contexts and trackers will plug in: a context (pid, tid, prio,
 * procname...) is a field the consumer adds to each converted record from
 * the record itself or its own per-thread state: it travels with
 * ADD_KERNEL_CHANNEL, like the clock; a pid/uid tracker is the instance's
 * set_event_pid (kt_instance_exclude_pid's sibling), written here when the
 * tracker changes.
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

/* At stop: tracing off, then the consumer drains it all to disk. */
int kernel_session_stop(struct reg_session *s, struct consumer *c, const char **detail);

/*
 * Destroy: tracing off, the consumer writes what is left and unmaps the
 * buffers (c NULL: no consumer), the instance is removed. No-op without one.
 */
void kernel_session_free(struct reg_session *s, struct consumer *c);

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
