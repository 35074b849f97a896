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
	int fd, idx_fd;
	uint64_t offset;	/* bytes in the stream file */
	unsigned cpu;
	uint32_t stream_id;
	uint8_t uuid[16];
	struct cons_stream_stats stats;
};

int cons_stream_create(const char *dir, const char *channel, unsigned cpu, uint32_t stream_id,
		       const uint8_t uuid[16], struct cons_stream **ret)
{
	char path[PATH_MAX];
	uint8_t idx_header[CTF_INDEX_HEADER_SIZE];
	struct cons_stream *s;
	int r;

	if (!*channel || strchr(channel, '/') || channel[0] == '.')
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->fd = s->idx_fd = -1;
	s->cpu = cpu;
	s->stream_id = stream_id;
	memcpy(s->uuid, uuid, 16);
	r = -ENAMETOOLONG;
	if (snprintf(path, sizeof(path), "%s/index", dir) >= (int)sizeof(path))
		goto err;
	if ((r = mkdir_p(path, 0750)) < 0)	/* DIR/index, and DIR */
		goto err;
	snprintf(path, sizeof(path), "%s/%s_%u", dir, channel, cpu);
	s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (s->fd < 0) {
		r = -errno;
		goto err;
	}
	snprintf(path, sizeof(path), "%s/index/%s_%u.idx", dir, channel, cpu);
	s->idx_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (s->idx_fd < 0) {
		r = -errno;
		goto err;
	}
	ctf_index_header_write(idx_header);
	if ((r = write_all(s->idx_fd, idx_header, sizeof(idx_header))) < 0)
		goto err;
	*ret = s;
	return 0;
err:
	cons_stream_free(s);
	return r;
}

/*
 * Fills the header area of pkt (ours until rb_put_subbuf()) with its CTF
 * packet header, and entry with its index entry for file offset off;
 * returns the bytes to write (content padded to PACKET_PAD).
 */
static uint64_t packet_prepare(const struct cons_stream *s, const struct rb_packet *pkt,
			       uint64_t off, uint8_t entry[CTF_INDEX_ENTRY_SIZE])
{
	uint64_t size = align_up(pkt->content_size, PACKET_PAD);
	struct ctf_packet_info info;

	if (size > pkt->packet_size)
		size = pkt->packet_size;
	info = (struct ctf_packet_info){
		.ts_begin = pkt->ts_begin,
		.ts_end = pkt->ts_end,
		.content_size = pkt->content_size * 8,
		.packet_size = size * 8,
		.seq_num = pkt->seq_num,
		.events_discarded = pkt->events_discarded,
		.cpu_id = pkt->cpu,
		.stream_id = s->stream_id,
		.stream_instance_id = s->cpu,
	};
	ctf_packet_header_write(pkt->data, s->uuid, CTF_BO_LE, &info);
	ctf_index_entry_write(entry, off, &info);
	return size;
}

/* Cuts both files back to `packets` packets ending at offset. 0 or -errno. */
static int truncate_to(struct cons_stream *s, uint64_t offset, uint64_t packets)
{
	uint64_t idx_end = CTF_INDEX_HEADER_SIZE + packets * CTF_INDEX_ENTRY_SIZE;

	if (ftruncate(s->fd, (off_t)offset) < 0 || ftruncate(s->idx_fd, (off_t)idx_end) < 0 ||
	    lseek(s->fd, (off_t)offset, SEEK_SET) < 0 ||
	    lseek(s->idx_fd, (off_t)idx_end, SEEK_SET) < 0)
		return -errno;
	return 0;
}

/*
 * Writes one packet: its bytes straight from the shared mapping (a
 * snapshot: from its copy), then its index entry. 0, or a negative errno
 * (then neither file holds any of it).
 */
int cons_stream_write(struct cons_stream *s, const struct rb_packet *pkt)
{
	uint8_t entry[CTF_INDEX_ENTRY_SIZE];
	uint64_t size = packet_prepare(s, pkt, s->offset, entry);
	int r = write_all(s->fd, pkt->data, size), t;

	if (r == 0)
		r = write_all(s->idx_fd, entry, sizeof(entry));
	if (r == 0) {
		s->offset += size;
		s->stats.packets++;
		s->stats.bytes += size;
		return 0;
	}
	/* keep both files consistent: drop the partial packet and entry (a
	 * failure there is the worse news) */
	t = truncate_to(s, s->offset, s->stats.packets);
	return t < 0 ? t : r;
}

/* Removes the last packet written (it was overwritten while we copied it). */
static int drop_last_packet(struct cons_stream *s, uint64_t size)
{
	s->offset -= size;
	s->stats.packets--;
	s->stats.bytes -= size;
	s->stats.packets_lost++;
	return truncate_to(s, s->offset, s->stats.packets);
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

	for (;;) {
		struct rb_packet pkt;
		uint64_t before;
		int r = rb_get_subbuf(chan, s->cpu, &pkt);

		if (r == -EAGAIN || r == -EBUSY)
			return n;	/* nothing closed, or a writer still in it */
		if (r < 0)
			return r;
		before = s->offset;
		r = cons_stream_write(s, &pkt);
		if (r < 0)
			return r;	/* not released: retried on the next drain */
		if (rb_put_subbuf(chan, &pkt) == -ESTALE) {
			r = drop_last_packet(s, s->offset - before);
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
	if (s->fd >= 0)
		close(s->fd);
	if (s->idx_fd >= 0)
		close(s->idx_fd);
	free(s);
}
