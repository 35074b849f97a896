/*
 * stream.h - draining one CPU buffer of a ring-buffer channel into a CTF
 * stream file, as LTTng lays it out: DIR/CHANNEL_CPU (the packets, back to
 * back) and DIR/index/CHANNEL_CPU.idx (one entry per packet).
 *
 * Each sub-buffer the ring buffer delivers becomes one packet: the consumer
 * writes its CTF packet header and context into the sub-buffer's header area
 * (which the ring buffer reserves for it) from the ring buffer's packet
 * info (channels are created with CTF_RB_HDR_AREA_SIZE of header area,
 * ctf/ctf-rb-client.h), then writes the packet, padded to a 4 KiB multiple
 * as LTTng does, straight from the shared mapping, and releases it at once.
 * Files grow as packets arrive (no temporary names): a live viewer or a
 * crash leaves a readable prefix.
 *
 * Context: the consumer thread that owns the channel; not thread-safe.
 */
#ifndef LTT_CONSUMERD_STREAM_H
#define LTT_CONSUMERD_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "ctf/ctf.h"
#include "ringbuf/ringbuf.h"
#include "tracefile.h"

struct cons_stream_stats {
	uint64_t packets;		/* written */
	uint64_t bytes;			/* written to the stream files (all of them, ever) */
	uint64_t packets_lost;		/* overwritten while being written (overwrite mode) */
};

struct cons_stream;

/*
 * Creates DIR/CHANNEL_CPU and DIR/index/CHANNEL_CPU.idx (DIR and DIR/index
 * must exist or are created; with limits, the files are split as
 * tracefile.h says) for CPU buffer cpu of a channel whose packets belong to
 * CTF stream class stream_id of the trace with this uuid. dir NULL: the
 * stream starts closed (see cons_stream_move()). Returns 0 and *ret,
 * -EINVAL for a bad name, or an errno of open/mkdir.
 */
int cons_stream_create(const char *dir, const char *channel, unsigned cpu, uint32_t stream_id,
		       const uint8_t uuid[16], const struct tracefile_limits *limits,
		       struct cons_stream **ret);

/* Whether the stream has files to write to (a closed one is not drained). */
bool cons_stream_is_open(const struct cons_stream *s);

/*
 * The packets that follow go to new files in dir (NULL: none until the next
 * move), as packets of the trace with this uuid; their events_discarded
 * count from the last packet written, so that each set of files reads on
 * its own. 0 or an errno of tracefile_move().
 */
int cons_stream_move(struct cons_stream *s, const char *dir, const uint8_t uuid[16]);

/*
 * Empties the stream's files (a clear); the packets that follow count
 * their events_discarded from `discarded`, the buffer's counter at the
 * clear. 0 or -errno.
 */
int cons_stream_reset(struct cons_stream *s, uint64_t discarded);

/*
 * Writes every readable sub-buffer of the stream's CPU buffer of chan.
 * Returns the number of packets written (0: nothing readable, the oldest
 * sub-buffer is still being written, or the stream is closed), or a
 * negative errno of write (the packet that failed is not in the file, and
 * stays in the buffer).
 */
int cons_stream_drain(struct cons_stream *s, struct rb_channel *chan);

/*
 * Writes one packet (a sub-buffer the caller holds, e.g. a snapshot's copy):
 * its header area gets the CTF packet header. 0 or a negative errno (then
 * nothing of it is in the files); -EBADF if the stream is closed.
 */
int cons_stream_write(struct cons_stream *s, const struct rb_packet *pkt);

void cons_stream_get_stats(const struct cons_stream *s, struct cons_stream_stats *ret);

/* Closes the files (they stay); NULL is a no-op. */
void cons_stream_free(struct cons_stream *s);

#endif /* LTT_CONSUMERD_STREAM_H */
