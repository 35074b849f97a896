/*
 * Fuzz target: a ring-buffer mapping handed over by another process is
 * outside input. The input is the start of the mapping (the rest is zero,
 * up to the size the header claims, at most 1 MiB); if rb_channel_map()
 * accepts it, the consumer (get/put/skip/flush/snapshot) and a writer
 * (reserve/commit, on a given CPU's buffer and on this thread's own, which
 * on an rseq channel runs the restartable sequences) run on it: whatever
 * positions, counters, clock and synchronization it claims, they must stay
 * inside the mapping and terminate.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ringbuf/ringbuf.h"

static size_t fz_header_size(uint64_t pos, uint64_t ts, uint64_t prev_ts)
{
	size_t pad = (size_t)align_pad(pos, 4);

	return ts - prev_ts < (1u << 27) ? pad + 4 : pad + 4 + (size_t)align_pad(pos + pad + 4, 8) + 8;
}

static uint64_t fz_clock(void)
{
	static uint64_t t;

	return t += 1000;
}

static const struct rb_client fz_client = { fz_clock, fz_header_size, 4, 4, 27 };

static int fz_snap(const struct rb_packet *pkt, void *arg)
{
	uint64_t *sum = arg;

	for (uint64_t i = 0; i < pkt->content_size; i++)
		*sum += (unsigned char)pkt->data[i];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rb_channel *chan = NULL;
	struct rb_shm_header h;
	uint64_t len = size, sum = 0, ow, inc;
	void *scratch = NULL;
	int fd;

	if (size > (1u << 20))
		return 0;
	fd = memfd_create("fuzz-ringbuf", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size >= sizeof(h)) {
		memcpy(&h, data, sizeof(h));
		if (h.total_size > len && h.total_size <= (1u << 20))
			len = h.total_size;
	}
	if (ftruncate(fd, (off_t)len) < 0 || (size && write(fd, data, size) != (ssize_t)size))
		goto out;
	if (rb_channel_map(fd, &fz_client, &chan) < 0)
		goto out;
	scratch = malloc(chan->g.subbuf_size);
	if (!scratch)
		goto out;
	for (unsigned cpu = 0; cpu < chan->g.nr_cpus && cpu < 8; cpu++) {
		for (int i = 0; i < 2 * (int)chan->g.num_subbufs && i < 64; i++) {
			struct rb_packet pkt;
			int r = rb_get_subbuf(chan, cpu, &pkt);

			if (r == 0) {
				for (uint64_t j = 0; j < pkt.content_size; j++)
					sum += (unsigned char)pkt.data[j];
				memset(pkt.data, 0, chan->g.hdr_area_size); /* consumer's header */
				rb_put_subbuf(chan, &pkt);
			} else if (r == -EBUSY || r == -EBADMSG) {
				rb_skip_subbuf(chan, cpu);
			} else {
				break;
			}
		}
		for (int i = 0; i < 16; i++) {
			struct rb_ctx ctx;
			size_t n = (size_t)(i * 37) % 300;

			if ((i & 1 ? rb_reserve(&fz_client, chan, n, 8, &ctx)
				   : rb_reserve_on(&fz_client, chan, cpu, n, 8, &ctx)) == 0) {
				memset(ctx.rec, 0x5a, ctx.slot_size);
				rb_commit(chan, &ctx);
			}
		}
		rb_flush(chan, cpu, RB_FLUSH_EMPTY);
		rb_snapshot(chan, cpu, scratch, fz_snap, &sum, &ow, &inc);
		rb_consumer_tick(chan, 1000, 1, 1);
	}
out:
	free(scratch);
	rb_channel_free(chan);
	close(fd);
	__asm__ volatile("" : : "r"(sum));
	return 0;
}
