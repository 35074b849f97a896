/* stream.c - one CPU buffer to one CTF stream file; see stream.h. */
#include "stream.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/macros.h"

#define PACKET_PAD 4096

struct cons_stream {
	struct tracefile tf;
	unsigned cpu;
	uint32_t stream_id;
	uint8_t uuid[16];
	uint64_t discarded_base;	/* subtracted from events_discarded: 0 at the files' start */
	uint64_t last_discarded;	/* of the last packet written, as counted */
	struct cons_stream_stats stats;
};

int cons_stream_create(const char *dir, const char *channel, unsigned cpu, uint32_t stream_id,
		       const uint8_t uuid[16], const struct tracefile_limits *limits,
		       struct cons_stream **ret)
{
	struct cons_stream *s;
	int r;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cpu = cpu;
	s->stream_id = stream_id;
	memcpy(s->uuid, uuid, 16);
	r = tracefile_open(&s->tf, dir, channel, cpu, limits);
	if (r < 0) {
		free(s);
		return r;
	}
	*ret = s;
	return 0;
}

bool cons_stream_is_open(const struct cons_stream *s)
{
	return tracefile_is_open(&s->tf);
}

int cons_stream_move(struct cons_stream *s, const char *dir, const uint8_t uuid[16])
{
	memcpy(s->uuid, uuid, 16);
	s->discarded_base = s->last_discarded;
	return tracefile_move(&s->tf, dir);
}

int cons_stream_reset(struct cons_stream *s, uint64_t discarded)
{
	s->discarded_base = s->last_discarded = discarded;
	return tracefile_reset(&s->tf);
}

int cons_stream_write(struct cons_stream *s, const struct rb_packet *pkt)
{
	uint64_t size = align_up(pkt->content_size, PACKET_PAD);
	struct ctf_packet_info info;
	uint8_t entry[CTF_INDEX_ENTRY_SIZE];
	int r;

	if (!cons_stream_is_open(s))
		return -EBADF;
	if (size > pkt->packet_size)
		size = pkt->packet_size;
	info = (struct ctf_packet_info){
		.ts_begin = pkt->ts_begin,
		.ts_end = pkt->ts_end,
		.content_size = pkt->content_size * 8,
		.packet_size = size * 8,
		.seq_num = pkt->seq_num,
		.events_discarded = pkt->events_discarded > s->discarded_base
					    ? pkt->events_discarded - s->discarded_base : 0,
		.cpu_id = pkt->cpu,
		.stream_id = s->stream_id,
		.stream_instance_id = s->cpu,
	};
	if ((r = tracefile_make_room(&s->tf, size)) < 0)
		return r;
	/* The sub-buffer is ours until rb_put_subbuf(): fill its header area. */
	ctf_packet_header_write(pkt->data, s->uuid, CTF_BO_LE, &info);
	r = write_all(s->tf.fd, pkt->data, size);
	if (r < 0)
		goto undo;
	ctf_index_entry_write(entry, s->tf.size, &info);
	r = write_all(s->tf.idx_fd, entry, sizeof(entry));
	if (r < 0)
		goto undo;
	tracefile_written(&s->tf, size);
	s->last_discarded = pkt->events_discarded;
	s->stats.packets++;
	s->stats.bytes += size;
	return 0;
undo:
	/* keep both files consistent: drop the partial packet and entry */
	tracefile_undo(&s->tf);
	return r;
}

/* Removes the last packet written (it was overwritten while we copied it). */
static int drop_last_packet(struct cons_stream *s, uint64_t size)
{
	s->stats.packets--;
	s->stats.bytes -= size;
	s->stats.packets_lost++;
	return tracefile_drop_last(&s->tf, size);
}

/*
 * Each sub-buffer is written and released at once, before the next is
 * taken: writing several with one system call would save little and keep
 * them all from the writers until the last is written (at a few hundred
 * MB/s a writer needs a sub-buffer back within a millisecond or two).
 */
int cons_stream_drain(struct cons_stream *s, struct rb_channel *chan)
{
	int n = 0;

	if (!cons_stream_is_open(s))
		return 0;	/* no files now: the packets wait in the buffer */
	for (;;) {
		struct rb_packet pkt;
		uint64_t before;
		int r = rb_get_subbuf(chan, s->cpu, &pkt);

		if (r == -EAGAIN || r == -EBUSY)
			return n;	/* nothing closed, or a writer still in it */
		if (r < 0)
			return r;
		before = s->stats.bytes;
		r = cons_stream_write(s, &pkt);
		if (r < 0)
			return r;	/* not released: retried on the next drain */
		if (rb_put_subbuf(chan, &pkt) == -ESTALE) {
			r = drop_last_packet(s, s->stats.bytes - before);
			if (r < 0)
				return r;
			continue;
		}
		n++;
	}
}

void cons_stream_get_stats(const struct cons_stream *s, struct cons_stream_stats *ret)
{
	*ret = s->stats;
}

void cons_stream_free(struct cons_stream *s)
{
	if (!s)
		return;
	tracefile_close(&s->tf);
	free(s);
}
