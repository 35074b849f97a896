/*
 * rotation.c - the operations that put a channel's packets in other files:
 * ROTATE (the packets so far stay in the current files, the next ones go to
 * the next chunk's), CLEAR (the packets so far are dropped and the files
 * emptied) and SNAPSHOT (what the buffers hold, copied into new files);
 * see channel.h and doc/design/chunks-and-session-files.md.
 *
 * Each is two halves: the ring-buffer half (close the open sub-buffers at a
 * boundary, then write, drop or copy what precedes it) and the file half
 * (cons_stream_move(), cons_stream_reset(), tracefile.h), which knows
 * nothing of where packets come from. A kernel stream plugs in by giving
 * its own first half (flush its reader at the boundary, then drain or
 * discard up to it) and using the same file half.
 *
 * Context: the consumer's thread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "ctf/ctf-rb-client.h"
#include "proto/consumer-protocol.h"

/*
 * Where a snapshot channel's recording starts: when it was created or last
 * cleared. A snapshot reports what the buffers lost since then (older
 * sub-buffers overwritten, or left out by a size limit) as a gap in
 * packet_seq_num after an empty packet marking that start, and the events
 * writers could not record as events_discarded counted from it, so that a
 * reader (babeltrace2) says how many packets and events are missing.
 */
struct snapshot_base {
	uint64_t seq;		/* ring sequence number of the first sub-buffer since */
	uint64_t ts;		/* when, on the trace's clock */
	uint64_t discarded;	/* the buffer's discarded counter then */
};

int rotation_channel_init(struct channel *c)
{
	uint64_t now = rb_clock_now(c->chan->client, c->chan);

	c->base = calloc(c->ncpu, sizeof(*c->base));
	if (!c->base)
		return -ENOMEM;
	for (unsigned cpu = 0; cpu < c->ncpu; cpu++)
		c->base[cpu].ts = now;
	return 0;
}

void rotation_channel_fini(struct channel *c)
{
	free(c->base);
	c->base = NULL;
}

static bool streams_open(const struct channel *c)
{
	for (unsigned cpu = 0; cpu < c->ncpu; cpu++)
		if (c->streams[cpu] && cons_stream_is_open(c->streams[cpu]))
			return true;
	return false;
}

int rotation_rotate(struct channel *c, const char *dir, const uint8_t uuid[16],
		    const char **detail)
{
	int r = 0;

	if (c->snapshot) {
		*detail = "a snapshot channel has no files to rotate";
		return -EINVAL;
	}
	/* the current files end with what was recorded up to here */
	if (streams_open(c) && (r = cons_channel_settle(c, RB_FLUSH_EMPTY, cons_channel_drain)) < 0)
		return r;
	memcpy(c->uuid, uuid, 16);
	for (unsigned cpu = 0; cpu < c->ncpu && r == 0; cpu++)
		r = cons_stream_move(c->streams[cpu], dir, uuid);
	if (r < 0) {
		*detail = "cannot create the stream files of the next chunk";
		return r;
	}
	/* the new files of a session that is tracing start with an empty packet
	 * carrying the counters at the boundary */
	return dir && !c->stopped ? cons_channel_settle(c, RB_FLUSH_EMPTY, cons_channel_drain) : 0;
}

/* Releases every sub-buffer that is ready without writing it. Returns how many. */
static int drop(struct channel *c)
{
	int n = 0;

	for (unsigned cpu = 0; cpu < c->ncpu; cpu++) {
		struct rb_packet pkt;
		int r;

		while ((r = rb_get_subbuf(c->chan, cpu, &pkt)) == 0 || r == -EBADMSG) {
			if (r == 0)
				rb_put_subbuf(c->chan, &pkt);	/* -ESTALE: overwritten, gone too */
			else
				rb_skip_subbuf(c->chan, cpu);
			n++;
		}
	}
	return n;
}

int rotation_clear(struct channel *c, const char **detail)
{
	/* Before the flush: every record after the boundary is timed later (ring-buffer I3). */
	uint64_t now = rb_clock_now(c->chan->client, c->chan);
	int r = cons_channel_settle(c, 0, drop);

	for (unsigned cpu = 0; cpu < c->ncpu && r == 0; cpu++) {
		struct rb_stats st;

		rb_buffer_stats(c->chan, cpu, &st);
		c->base[cpu] = (struct snapshot_base){
			.seq = st.consumed / c->chan->g.subbuf_size,
			.ts = now,
			.discarded = st.discarded,
		};
		if (c->streams[cpu] && (r = cons_stream_reset(c->streams[cpu], st.discarded)) < 0)
			*detail = "cannot empty the stream files";
	}
	if (r == 0 && !c->stopped && streams_open(c))
		r = cons_channel_settle(c, RB_FLUSH_EMPTY, cons_channel_drain);
	return r;
}

/* What the copy of one CPU buffer needs in its callback. */
struct snapshot_copy {
	struct cons_stream *stream;
	const struct snapshot_base *base;
	uint32_t hdr_area_size;
	bool started;
};

/*
 * Writes the empty packet that marks where recording started, when what
 * follows does not continue it (sub-buffers or events were lost): the
 * reader then sees the gap in sequence numbers and the discarded count.
 */
static int write_start_marker(struct snapshot_copy *sc, const struct rb_packet *first)
{
	char header[CTF_RB_HDR_AREA_SIZE];
	struct rb_packet marker = {
		.data = header,
		.seq_num = 0,
		.ts_begin = sc->base->ts,
		.ts_end = sc->base->ts,
		.content_size = sc->hdr_area_size,
		.packet_size = sc->hdr_area_size,
		.events_discarded = 0,
		.cpu = first->cpu,
	};

	if (first->seq_num == sc->base->seq && first->events_discarded <= sc->base->discarded)
		return 0;
	return cons_stream_write(sc->stream, &marker);
}

static int snapshot_packet(const struct rb_packet *pkt, void *arg)
{
	struct snapshot_copy *sc = arg;
	struct rb_packet p = *pkt;

	if (!sc->started && write_start_marker(sc, pkt) < 0)
		return 1;
	sc->started = true;
	/* numbered from 1 after the start; discards counted from it */
	p.seq_num = pkt->seq_num >= sc->base->seq ? pkt->seq_num - sc->base->seq + 1 : 1;
	p.events_discarded = pkt->events_discarded > sc->base->discarded
				     ? pkt->events_discarded - sc->base->discarded : 0;
	return cons_stream_write(sc->stream, &p) < 0 ? 1 : 0;
}

int rotation_snapshot(struct channel *c, const char *dir, uint64_t max_packets,
		      struct proto_builder *reply, const char **detail)
{
	uint64_t packets = 0, overwritten = 0, incomplete = 0;
	void *scratch = malloc(c->chan->g.subbuf_size);
	int r = scratch ? 0 : -ENOMEM;

	for (unsigned cpu = 0; r == 0 && cpu < c->ncpu; cpu++) {
		struct snapshot_copy sc = { .base = &c->base[cpu],
					    .hdr_area_size = c->chan->g.hdr_area_size };
		struct cons_stream_stats st;
		uint64_t over = 0, inc = 0;

		r = cons_stream_create(dir, c->name, cpu, c->stream_id, c->uuid, NULL, &sc.stream);
		if (r < 0) {
			*detail = "cannot create the snapshot's stream files";
			break;
		}
		if (rb_snapshot_newest(c->chan, cpu, max_packets, scratch, snapshot_packet, &sc,
				       &over, &inc) != 0) {
			*detail = "cannot write the snapshot";
			r = -EIO;
		}
		cons_stream_get_stats(sc.stream, &st);
		packets += st.packets;
		overwritten += over;
		incomplete += inc;
		cons_stream_free(sc.stream);
	}
	free(scratch);
	proto_put_u64(reply, CONS_A_PACKETS, packets);
	proto_put_u64(reply, CONS_A_OVERWRITTEN, overwritten);
	proto_put_u64(reply, CONS_A_INCOMPLETE, incomplete);
	return r;
}
