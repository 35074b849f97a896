/*
 * kernel-channel.h - a session's kernel channel in the consumer: the per-CPU
 * ring buffers of its tracefs instance (which the session daemon made and
 * configured), read through the mapped trace_pipe_raw (kt_cpu_reader) and
 * converted to CTF in OUTPUT/kernel/CHANNEL_CPU with LTTng's names
 * (kt_converter), its metadata and index beside them, growing as it goes.
 *
 * When it drains: when a CPU's buffer is buffer_percent full (its
 * trace_pipe_raw polls readable: the fds of kernel_channel_pollfds()), at
 * each read timer tick, at each switch timer tick (which also closes the
 * open packets, so that readers see them), and completely at FLUSH (the
 * daemon turned tracing off first) and at the end. What the kernel lost
 * (its overrun and dropped counts) becomes events_discarded, exactly.
 *
 * Context: the consumer's one thread; nothing here is thread-safe.
 */
#ifndef LTT_CONSUMERD_KERNEL_CHANNEL_H
#define LTT_CONSUMERD_KERNEL_CHANNEL_H

#include <poll.h>
#include <stdint.h>

#include "proto/consumer-protocol.h"

struct kernel_channel;

/*
 * Opens the instance of an ADD_KERNEL_CHANNEL request, maps its buffers and
 * creates the trace. Returns 0 and *ret, or a negative errno with *detail
 * (static or the channel's own text, valid until the next call).
 */
int kernel_channel_create(const struct proto_msg *m, struct kernel_channel **ret,
			  const char **detail);

uint64_t kernel_channel_key(const struct kernel_channel *k);

/*
 * KERNEL_START (its attributes a): declares the events enabled now (the
 * function tracer's under FUNCTION_NAME), writes the state dump.
 */
int kernel_channel_start(struct kernel_channel *k, const struct proto_attrs *a,
			 const char **detail);

/* KERNEL_FILTERS: replaces the filters evaluated on converted records. */
int kernel_channel_set_filters(struct kernel_channel *k, const struct proto_attrs *a,
			       const char **detail);

/* The descriptors to poll (one per CPU, POLLIN); returns how many were written. */
unsigned kernel_channel_pollfds(const struct kernel_channel *k, struct pollfd *fds,
				unsigned max);

/*
 * Runs the channel's timers at time now (ns): drains when `readable` (one
 * of its descriptors polled readable) or the read timer is due, closes the
 * packets when the switch timer is due. Returns the next time it wants to
 * run (ns).
 */
uint64_t kernel_channel_service(struct kernel_channel *k, uint64_t now, bool readable);

/*
 * Drains every CPU to the end, counts what the kernel lost, closes the open
 * packets and brings the metadata up to date: all that was recorded is on
 * disk. 0 or a negative errno with *detail.
 */
int kernel_channel_flush(struct kernel_channel *k, const char **detail);

/* Adds EVENTS LOST FILTERED PACKETS BYTES to a STATS reply. */
/*
 * ROTATE: drains and closes the current trace (a complete one: metadata,
 * index), then makes the next one in dir (OUTPUT-OF-THE-CHUNK/kernel; NULL:
 * none until the next ROTATE, for a session rotated while stopped). The
 * records drained before are in the closed trace, those after in the next:
 * none in both, none in neither. 0 or a negative errno with *detail.
 */
int kernel_channel_rotate(struct kernel_channel *k, const char *dir, const char **detail);

/*
 * CLEAR: what the buffers hold now is dropped and the trace made again,
 * empty, over the same files; recording goes on.
 */
int kernel_channel_clear(struct kernel_channel *k, const char **detail);

/* KERNEL_CLOCK: the clock's new offset, in this trace and the next chunks'. */
int kernel_channel_set_clock(struct kernel_channel *k, const struct proto_attrs *a,
			     const char **detail);

void kernel_channel_stats(const struct kernel_channel *k, struct proto_builder *reply);

/* Flushes, closes the trace, unmaps the buffers (NULL: no-op). */
void kernel_channel_free(struct kernel_channel *k);

#endif /* LTT_CONSUMERD_KERNEL_CHANNEL_H */
