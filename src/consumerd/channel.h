/*
 * channel.h - a channel the consumer drains: one ring buffer (a stream per
 * CPU buffer) of a session daemon's channel, and what main.c and
 * rotation.c share about it.
 */
#ifndef LTT_CONSUMERD_CHANNEL_H
#define LTT_CONSUMERD_CHANNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/proto.h"
#include "stream.h"

struct snapshot_base;

struct channel {
	uint64_t key;
	struct rb_channel *chan;
	struct cons_stream **streams;	/* one per CPU buffer */
	unsigned ncpu;
	int wakeup_fd;
	uint64_t switch_ns, read_ns;
	bool snapshot;		/* flight recorder: never drained, written by SNAPSHOT */
	bool stopped;		/* its session stopped (FLUSH): no switch timer until START */
	char name[256];		/* the channel (stream file prefix) */
	uint32_t stream_id;
	uint8_t uuid[16];
	struct snapshot_base *base;	/* per CPU buffer, snapshot channels (rotation.c) */
};

/*
 * Writes what every CPU buffer of c has ready; a write error is logged
 * once. Returns the number of packets written, or the error.
 */
int cons_channel_drain(struct channel *c);

/*
 * Closes the open sub-buffers (with RB_FLUSH_EMPTY in flags, an empty one
 * too) and has `consume` take everything committed (cons_channel_drain()
 * writes it), giving writers still inside a record a bounded time to
 * commit it. 0 or consume's error.
 */
int cons_channel_settle(struct channel *c, unsigned flags, int (*consume)(struct channel *c));

/* ---- rotation.c: the operations that move a channel's streams to new files ---- */

/* Sets up what the snapshot accounting of a new channel needs. 0 or -ENOMEM. */
int rotation_channel_init(struct channel *c);
void rotation_channel_fini(struct channel *c);

/*
 * ROTATE: everything recorded so far goes to the current files, the rest to
 * new files in dir (NULL: none until the next rotation), as packets of the
 * trace with this uuid. 0 or -errno with *detail.
 */
int rotation_rotate(struct channel *c, const char *dir, const uint8_t uuid[16],
		    const char **detail);

/* CLEAR: drops what the buffers hold and empties the files; recording goes on. */
int rotation_clear(struct channel *c, const char **detail);

/*
 * SNAPSHOT: what the buffers hold now (the newest max_packets sub-buffers
 * of each CPU buffer, 0: all) as stream files in dir; the reply gets
 * PACKETS, OVERWRITTEN, INCOMPLETE.
 */
int rotation_snapshot(struct channel *c, const char *dir, uint64_t max_packets,
		      struct proto_builder *reply, const char **detail);

#endif /* LTT_CONSUMERD_CHANNEL_H */
