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

#include <stdint.h>

#include "ctf/ctf.h"
#include "ringbuf/ringbuf.h"

struct cons_stream_stats {
	uint64_t packets;		/* written */
	uint64_t bytes;			/* written to the stream file */
	uint64_t packets_lost;		/* overwritten while being written (overwrite mode) */
};

struct cons_stream;

/*
 * Creates DIR/CHANNEL_CPU and DIR/index/CHANNEL_CPU.idx (DIR and DIR/index
 * must exist or are created) for CPU buffer cpu of a channel whose packets
 * belong to CTF stream class stream_id of the trace with this uuid.
 * Returns 0 and *ret, -EINVAL for a bad name, or an errno of open/mkdir.
 */
int cons_stream_create(const char *dir, const char *channel, unsigned cpu, uint32_t stream_id,
		       const uint8_t uuid[16], struct cons_stream **ret);

/*
 * Writes every readable sub-buffer of the stream's CPU buffer of chan.
 * Returns the number of packets written (0: nothing readable, or the oldest
 * sub-buffer is still being written), or a negative errno of write (the
 * packet that failed is not in the file, and stays in the buffer).
 */
int cons_stream_drain(struct cons_stream *s, struct rb_channel *chan);

/*
 * Writes one packet (a sub-buffer the caller holds, e.g. a snapshot's copy):
 * its header area gets the CTF packet header. 0 or a negative errno (then
 * nothing of it is in the files).
 */
int cons_stream_write(struct cons_stream *s, const struct rb_packet *pkt);

void cons_stream_get_stats(const struct cons_stream *s, struct cons_stream_stats *ret);

/* Closes the files (they stay); NULL is a no-op. */
void cons_stream_free(struct cons_stream *s);

#endif /* LTT_CONSUMERD_STREAM_H */
