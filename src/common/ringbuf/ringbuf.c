/*
 * ringbuf.c - ring buffer setup, writer slow path, consumer side.
 *
 * Algorithm, layout, state table, invariants (I1..I6, see ringbuf.h) and
 * memory-ordering pairs: doc/design/ring-buffer.md.
 *
 * Contexts: rb_reserve_slow() and rb_deliver_slow() run in writers (any
 * thread, signal handlers: no lock, no allocation, the only syscall is the
 * wake-up write). Everything else named rb_consumer_*, rb_get/put/skip_subbuf,
 * rb_flush, rb_snapshot runs in the consumer, one thread per channel,
 * concurrently with writers. Setup functions are ordinary code.
 */
#include "ringbuf/ringbuf.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Consumer-side state of one CPU buffer (process-local). */
struct rb_consumer_cpu {
	uint64_t last_discarded;	/* keeps events_discarded non-decreasing */
	uint64_t stuck_pos;		/* position reported -EBUSY ... */
	uint64_t stuck_since;		/* ... since this tick time */
	bool stuck;
	uint64_t last_switch;
};

static unsigned log2u(uint64_t v)
{
	return (unsigned)__builtin_ctzll(v);
}

/* ---- geometry ---- */

static int geometry_compute(uint32_t nr_cpus, uint64_t subbuf_size, uint32_t num_subbufs,
			    uint32_t hdr_area_size, uint32_t mode, struct rb_geometry *g)
{
	uint64_t stride, per_cpu, ctl_end;

	if (nr_cpus < 1 || nr_cpus > RB_MAX_CPUS)
		return -EINVAL;
	if (!is_pow2(subbuf_size) || subbuf_size < RB_MIN_SUBBUF_SIZE ||
	    subbuf_size > RB_MAX_SUBBUF_SIZE)
		return -EINVAL;
	if (!is_pow2(num_subbufs) || num_subbufs < 2 || num_subbufs > RB_MAX_NUM_SUBBUFS)
		return -EINVAL;
	if (hdr_area_size % 4 || hdr_area_size >= subbuf_size / 2)
		return -EINVAL;
	if (mode != RB_MODE_DISCARD && mode != RB_MODE_OVERWRITE)
		return -EINVAL;
	stride = align_up(sizeof(struct rb_cpu_ctl) +
				  (uint64_t)num_subbufs * sizeof(struct rb_subbuf_ctl),
			  RB_CACHELINE);
	if (stride > UINT32_MAX)
		return -EINVAL;
	per_cpu = subbuf_size * num_subbufs;
	if (per_cpu * nr_cpus > (1ull << 47))	/* no overflow: each factor is bounded */
		return -EINVAL;
	g->nr_cpus = nr_cpus;
	g->num_subbufs = num_subbufs;
	g->subbuf_size = subbuf_size;
	g->hdr_area_size = hdr_area_size;
	g->cpu_ctl_stride = (uint32_t)stride;
	g->mode = (enum rb_mode)mode;
	g->ctl_offset = align_up(sizeof(struct rb_shm_header), RB_CACHELINE);
	ctl_end = g->ctl_offset + stride * nr_cpus;
	g->data_offset = align_up(ctl_end, 4096);
	g->total_size = g->data_offset + per_cpu * nr_cpus;
	return 0;
}

int rb_geometry_check(const struct rb_config *cfg, struct rb_geometry *ret_g)
{
	struct rb_geometry g;
	long n;
	uint32_t nr_cpus = cfg->nr_cpus;
	int r;

	if (nr_cpus == 0) {
		n = sysconf(_SC_NPROCESSORS_CONF);
		nr_cpus = n > 0 ? (uint32_t)n : 1;
	}
	r = geometry_compute(nr_cpus, cfg->subbuf_size, cfg->num_subbufs,
			     (uint32_t)align_up(cfg->hdr_area_size, 4), (uint32_t)cfg->mode, &g);
	if (r < 0)
		return r;
	*ret_g = g;
	return 0;
}

int rb_header_validate(const void *map, uint64_t map_size, struct rb_geometry *ret_g)
{
	struct rb_shm_header h;
	struct rb_geometry g;
	int r;

	if (!map || map_size < sizeof(h))
		return -EMSGSIZE;
	/* One copy: every check below looks at the same values even if a
	 * peer scribbles on the header meanwhile. */
	memcpy(&h, map, sizeof(h));
	if (h.magic != RB_MAGIC || h.version != RB_VERSION)
		return -EPROTO;
	if (h.header_size != sizeof(h))
		return -EINVAL;
	r = geometry_compute(h.nr_cpus, h.subbuf_size, h.num_subbufs, h.hdr_area_size, h.mode,
			     &g);
	if (r < 0)
		return r;
	if (h.cpu_ctl_stride != g.cpu_ctl_stride || h.ctl_offset != g.ctl_offset ||
	    h.data_offset != g.data_offset || h.total_size != g.total_size)
		return -EINVAL;
	if (map_size < g.total_size)
		return -EMSGSIZE;
	*ret_g = g;
	return 0;
}

/* ---- channel objects ---- */

static int channel_alloc(struct rb_channel **ret_chan, const struct rb_geometry *g)
{
	struct rb_channel *chan;

	chan = calloc(1, sizeof(*chan));
	if (!chan)
		return -ENOMEM;
	chan->ccpu = calloc(g->nr_cpus, sizeof(*chan->ccpu));
	if (!chan->ccpu) {
		free(chan);
		return -ENOMEM;
	}
	chan->g = *g;
	chan->subbuf_order = log2u(g->subbuf_size);
	chan->num_order = log2u(g->num_subbufs);
	chan->buf_mask = g->subbuf_size * g->num_subbufs - 1;
	chan->fd = -1;
	chan->wakeup_fd = -1;
	chan->base = MAP_FAILED;
	*ret_chan = chan;
	return 0;
}

int rb_channel_create(const struct rb_config *cfg, struct rb_channel **ret_chan)
{
	struct rb_channel *chan = NULL;
	struct rb_geometry g;
	struct rb_shm_header *h;
	const char *name = cfg->name ? cfg->name : "ltt-ringbuf";
	int r;

	if (!cfg->client || !cfg->client->clock_read || !cfg->client->record_header_size)
		return -EINVAL;
	r = rb_geometry_check(cfg, &g);
	if (r < 0)
		return r;
	r = channel_alloc(&chan, &g);
	if (r < 0)
		return r;
	chan->client = cfg->client;
	if (cfg->shm_dir) {
		if (strchr(name, '/')) {
			r = -EINVAL;
			goto err;
		}
		if (asprintf(&chan->shm_file, "%s/%s", cfg->shm_dir, name) < 0) {
			chan->shm_file = NULL;
			r = -ENOMEM;
			goto err;
		}
		chan->fd = open(chan->shm_file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (chan->fd < 0) {
			r = -errno;
			free(chan->shm_file);
			chan->shm_file = NULL;	/* not ours: do not unlink */
			goto err;
		}
	} else {
		chan->fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (chan->fd < 0) {
			r = -errno;
			goto err;
		}
	}
	if (ftruncate(chan->fd, (off_t)g.total_size) < 0) {
		r = -errno;
		goto err;
	}
	/* A memfd's size is sealed: no process it is handed to can shrink it
	 * under the others' mappings (SIGBUS). A file cannot be sealed. */
	if (!cfg->shm_dir &&
	    fcntl(chan->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
		r = -errno;
		goto err;
	}
	chan->base = mmap(NULL, g.total_size, PROT_READ | PROT_WRITE, MAP_SHARED, chan->fd, 0);
	if (chan->base == MAP_FAILED) {
		r = -errno;
		goto err;
	}
	chan->map_size = g.total_size;
	/* The file is zero-filled: positions, counters and commit words start
	 * at 0. Only the records_base tags need "cycle -1". */
	for (uint32_t cpu = 0; cpu < g.nr_cpus; cpu++) {
		struct rb_cpu_ctl *buf = rb_cpu(chan, cpu);

		for (uint32_t i = 0; i < g.num_subbufs; i++) {
			atomic_init(&buf->sb[i].records_base, 0xffffffffull << 32);
			atomic_init(&buf->sb[i].cycle_records, 0xffffffffull << 32);
		}
	}
	h = (struct rb_shm_header *)chan->base;
	h->header_size = sizeof(*h);
	h->nr_cpus = g.nr_cpus;
	h->subbuf_size = g.subbuf_size;
	h->num_subbufs = g.num_subbufs;
	h->mode = g.mode;
	h->hdr_area_size = g.hdr_area_size;
	h->cpu_ctl_stride = g.cpu_ctl_stride;
	h->ctl_offset = g.ctl_offset;
	h->data_offset = g.data_offset;
	h->total_size = g.total_size;
	h->version = RB_VERSION;
	/* The magic last: a recovery tool that sees it sees a whole header
	 * (other processes only map after the fd is handed over, which
	 * orders everything). */
	atomic_thread_fence(memory_order_release);
	h->magic = RB_MAGIC;
	*ret_chan = chan;
	return 0;
err:
	if (chan->shm_file)
		unlink(chan->shm_file);
	rb_channel_free(chan);
	return r;
}

int rb_channel_map(int fd, const struct rb_client *client, struct rb_channel **ret_chan)
{
	struct rb_channel *chan = NULL;
	struct rb_geometry g;
	struct stat st;
	void *map;
	int r;

	if (!client || !client->clock_read || !client->record_header_size)
		return -EINVAL;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size < (off_t)sizeof(struct rb_shm_header))
		return -EMSGSIZE;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	r = rb_header_validate(map, (uint64_t)st.st_size, &g);
	if (r < 0)
		goto err;
	r = channel_alloc(&chan, &g);
	if (r < 0)
		goto err;
	chan->base = map;
	chan->map_size = (uint64_t)st.st_size;
	chan->client = client;
	*ret_chan = chan;
	return 0;
err:
	munmap(map, (size_t)st.st_size);
	return r;
}

void rb_channel_free(struct rb_channel *chan)
{
	if (!chan)
		return;
	if (chan->base != MAP_FAILED)
		munmap(chan->base, chan->map_size);
	if (chan->fd >= 0)
		close(chan->fd);
	free(chan->shm_file);
	free(chan->ccpu);
	free(chan);
}

int rb_channel_unlink(struct rb_channel *chan)
{
	if (!chan->shm_file)
		return 0;
	if (unlink(chan->shm_file) < 0)
		return -errno;
	return 0;
}

int rb_channel_fd(const struct rb_channel *chan)
{
	return chan->fd;
}

void rb_channel_set_wakeup_fd(struct rb_channel *chan, int fd)
{
	chan->wakeup_fd = fd;
}

void rb_buffer_stats(const struct rb_channel *chan, unsigned cpu, struct rb_stats *ret)
{
	struct rb_cpu_ctl *buf = rb_cpu(chan, cpu);

	/* Relaxed: statistics, no ordering with anything. */
	ret->write_pos = atomic_load_explicit(&buf->write_pos, memory_order_relaxed);
	ret->consumed = atomic_load_explicit(&buf->consumed, memory_order_relaxed);
	ret->discarded = atomic_load_explicit(&buf->discarded, memory_order_relaxed);
	ret->subbufs_lost = atomic_load_explicit(&buf->subbufs_lost, memory_order_relaxed);
	ret->records_lost = atomic_load_explicit(&buf->records_lost, memory_order_relaxed);
	ret->subbufs_corrupt = atomic_load_explicit(&buf->subbufs_corrupt, memory_order_relaxed);
	ret->records_corrupt = atomic_load_explicit(&buf->records_corrupt, memory_order_relaxed);
	ret->deliveries = atomic_load_explicit(&buf->deliveries, memory_order_relaxed);
}

/* ---- shared pieces of the writer slow path and the consumer ---- */

static uint64_t cycle_of(const struct rb_channel *chan, uint64_t pos)
{
	return pos >> (chan->subbuf_order + chan->num_order);
}

/*
 * Records committed in the complete cycle of the sub-buffer at pos, whose
 * commit word is v. With publish, records that this cycle is finished
 * (before the slot is released), so that the next cycle can count its own.
 * Context: anyone about to release the slot (consumer put/skip, a pushing
 * writer); several may race, they write the same values.
 */
static uint64_t rb_cycle_records(struct rb_subbuf_ctl *sb, uint64_t cycle, uint64_t v,
				 bool publish)
{
	uint32_t tag = (uint32_t)cycle, prev_tag = (uint32_t)(cycle - 1);
	uint64_t rec = v >> RB_COMMIT_BYTES_BITS;
	/* Acquire: pairs with the release CAS below of another finisher, so
	 * that seeing its tag we also see its cycle_records store. */
	uint64_t base = atomic_load_explicit(&sb->records_base, memory_order_acquire);
	uint64_t n, cr;

	if ((uint32_t)(base >> 32) == prev_tag) {
		n = (rec - (base & 0xffffffffu)) & RB_COMMIT_RECORDS_MASK;
		if (publish) {
			/* Relaxed: ordered by the release CAS that follows. */
			atomic_store_explicit(&sb->cycle_records, ((uint64_t)tag << 32) | n,
					      memory_order_relaxed);
			/* Release: publishes cycle_records with the tag. A
			 * failure means another finisher did the same. */
			atomic_compare_exchange_strong_explicit(
				&sb->records_base, &base, ((uint64_t)tag << 32) | rec,
				memory_order_release, memory_order_relaxed);
		}
		return n;
	}
	cr = atomic_load_explicit(&sb->cycle_records, memory_order_relaxed);
	if ((uint32_t)(cr >> 32) == tag)
		return cr & 0xffffffffu;
	return 0;	/* cannot happen unless the mapping is corrupt */
}

/*
 * Makes sure the sub-buffer at position nb (a multiple of S) may be opened
 * (I6). Discard mode: -ENOBUFS if the consumer has not released its slot.
 * Overwrite mode: pushes the consumer past the oldest sub-buffer, if it is
 * complete (else -ENOBUFS: a writer is still in it, we must not write over
 * it), counting it as lost.
 */
static int rb_make_room(struct rb_channel *chan, struct rb_cpu_ctl *buf, uint64_t nb)
{
	const uint64_t S = chan->g.subbuf_size;
	const uint64_t bufsize = S << chan->num_order;

	for (;;) {
		/* Acquire: pairs with the release store (or CAS) of consumed
		 * in rb_put_subbuf()/rb_skip_subbuf() and with other writers'
		 * pushes: every read of the slot's previous cycle happens
		 * before we (and those who reserve after our CAS) write it. */
		uint64_t c = atomic_load_explicit(&buf->consumed, memory_order_acquire);
		struct rb_subbuf_ctl *sb;
		uint64_t v, n;

		if (nb + S - c <= bufsize) {
			/* Acquire: the slot's previous cycle is complete (released
			 * by the consumer, or never used); this pairs with the
			 * release commits of its writers, so that their stores
			 * into the slot happen before ours also in the view of
			 * one process: the consumer that orders them through
			 * `consumed` is another process, invisible to
			 * ThreadSanitizer. One load per sub-buffer opened. */
			(void)atomic_load_explicit(&buf->sb[rb_subbuf_index(chan, nb)].commit,
						   memory_order_acquire);
			return 0;
		}
		if (chan->g.mode == RB_MODE_DISCARD)
			return -ENOBUFS;
		/* I1: c == nb - (N-1)*S is the oldest sub-buffer. */
		sb = &buf->sb[rb_subbuf_index(chan, c)];
		/* Acquire: pairs with the release commits of its writers, whose
		 * stores into the slot must happen before ours. */
		v = atomic_load_explicit(&sb->commit, memory_order_acquire);
		if ((v & RB_COMMIT_BYTES_MASK) != rb_commit_full(chan, c))
			return -ENOBUFS;
		n = rb_cycle_records(sb, cycle_of(chan, c), v, true);
		/* acq_rel: acquire as the load above; release so that a writer
		 * or consumer that sees the push also sees the records_base
		 * update. Failure: someone else released it; look again. */
		if (atomic_compare_exchange_strong_explicit(&buf->consumed, &c, c + S,
							    memory_order_acq_rel,
							    memory_order_relaxed)) {
			/* Relaxed: counters. */
			atomic_fetch_add_explicit(&buf->subbufs_lost, 1, memory_order_relaxed);
			atomic_fetch_add_explicit(&buf->records_lost, n, memory_order_relaxed);
		}
	}
}

void rb_deliver_slow(struct rb_channel *chan, struct rb_cpu_ctl *buf)
{
	struct rb_shm_header *h = (struct rb_shm_header *)chan->base;

	/* Relaxed: the read timer's hint; the data is published by commit. */
	atomic_fetch_add_explicit(&buf->deliveries, 1, memory_order_relaxed);
	/* Dekker pair with rb_consumer_prepare_sleep(): our completing commit
	 * (before this fence) and its store of consumer_waiting (before its
	 * fence) cannot both be missed: either we see the flag and wake it,
	 * or it sees the complete sub-buffer and does not sleep. */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&h->consumer_waiting, memory_order_relaxed) &&
	    chan->wakeup_fd >= 0) {
		uint64_t one = 1;
		ssize_t r = write(chan->wakeup_fd, &one, sizeof(one));

		(void)r;	/* EAGAIN: the counter is already non-zero */
	}
}

/* Adds bytes to a sub-buffer's commit word (release: orders the packet info
 * stores before it; pairs with the acquire in rb_get_subbuf()) and delivers
 * it if this completes it. */
static void rb_commit_bytes(struct rb_channel *chan, struct rb_cpu_ctl *buf, uint64_t pos,
			    uint64_t bytes)
{
	struct rb_subbuf_ctl *sb = &buf->sb[rb_subbuf_index(chan, pos)];
	uint64_t v = atomic_fetch_add_explicit(&sb->commit, bytes, memory_order_release) + bytes;

	if ((v & RB_COMMIT_BYTES_MASK) == rb_commit_full(chan, pos))
		rb_deliver_slow(chan, buf);
}

/* Writes the opener's packet info of the sub-buffer at sbpos. Relaxed
 * stores, published by the opener's header-area commit that follows. */
static void rb_open_info(struct rb_channel *chan, struct rb_cpu_ctl *buf, uint64_t sbpos,
			 uint64_t ts)
{
	struct rb_subbuf_ctl *sb = &buf->sb[rb_subbuf_index(chan, sbpos)];

	atomic_store_explicit(&sb->ts_begin, ts, memory_order_relaxed);
	atomic_store_explicit(&sb->seq_num, sbpos >> chan->subbuf_order, memory_order_relaxed);
}

/* Writes the closer's packet info. Relaxed stores, published by a later
 * release commit of the closer (its padding, or its own record). */
static void rb_close_info(struct rb_channel *chan, struct rb_cpu_ctl *buf, uint64_t sbpos,
			  uint64_t content, uint64_t ts)
{
	struct rb_subbuf_ctl *sb = &buf->sb[rb_subbuf_index(chan, sbpos)];
	/* Relaxed: a snapshot of a counter; rb_get_subbuf() makes the series
	 * non-decreasing (closers may store out of order). */
	uint64_t d = atomic_load_explicit(&buf->discarded, memory_order_relaxed);

	atomic_store_explicit(&sb->ts_end, ts, memory_order_relaxed);
	atomic_store_explicit(&sb->content_size, content, memory_order_relaxed);
	atomic_store_explicit(&sb->events_discarded, d, memory_order_relaxed);
	atomic_store_explicit(&sb->closed_pos, sbpos + 1, memory_order_relaxed);
}

static int rb_count_discard(struct rb_cpu_ctl *buf, int r)
{
	/* Relaxed: a counter, read by the next closer (see rb_close_info()). */
	atomic_fetch_add_explicit(&buf->discarded, 1, memory_order_relaxed);
	return r;
}

int rb_reserve_slow(const struct rb_client *cl, struct rb_channel *chan, unsigned cpu,
		    size_t len, size_t align, struct rb_ctx *ctx)
{
	const uint64_t S = chan->g.subbuf_size;
	struct rb_cpu_ctl *buf;
	uint64_t old, ts, prev, off, sb_old, nb = 0, start, end;
	bool close_old, open_new;
	int r;

	if (cpu >= chan->g.nr_cpus)
		return -EINVAL;
	buf = rb_cpu(chan, cpu);
	if (align > 4096 || !is_pow2(align))
		return rb_count_discard(buf, -EINVAL);
	if (len >= S)
		return rb_count_discard(buf, -E2BIG);
	/* Relaxed: a guess for the CAS. */
	old = atomic_load_explicit(&buf->write_pos, memory_order_relaxed);
	for (;;) {
		/* I3, I4: as in rb_reserve(). */
		ts = cl->clock_read();
		prev = atomic_load_explicit(&buf->last_ts, memory_order_relaxed);
		off = old & (S - 1);
		sb_old = old - off;
		close_old = open_new = false;
		if (off != 0) {
			start = old;
			end = align_up(start + cl->record_header_size(start, ts, prev), align) + len;
			if (end - sb_old <= S)
				goto try;	/* fits (maybe exactly) */
			close_old = true;
			nb = sb_old + S;
		} else {
			nb = old;
		}
		open_new = true;
		/* First record of a packet: the reader's reference is the
		 * packet's ts_begin, which is this very ts. */
		prev = ts;
		start = nb + chan->g.hdr_area_size;
		end = align_up(start + cl->record_header_size(start, ts, prev), align) + len;
		if (end - nb > S)
			return rb_count_discard(buf, -E2BIG);
		r = rb_make_room(chan, buf, nb);
		if (r < 0)
			return rb_count_discard(buf, r);
try:
		/* acq_rel: as in rb_reserve() (I4 chain; and the flush and
		 * snapshot read write_pos after it). */
		if (atomic_compare_exchange_weak_explicit(&buf->write_pos, &old, end,
							  memory_order_acq_rel,
							  memory_order_relaxed))
			break;
	}
	atomic_store_explicit(&buf->last_ts, ts, memory_order_relaxed); /* I4: stale-low */
	if (close_old) {
		rb_close_info(chan, buf, sb_old, off, ts);
		rb_commit_bytes(chan, buf, sb_old, S - off);
	}
	if (open_new) {
		rb_open_info(chan, buf, nb, ts);
		if (chan->g.hdr_area_size)
			rb_commit_bytes(chan, buf, nb, chan->g.hdr_area_size);
	}
	/* A record ending exactly at the boundary closes its sub-buffer; the
	 * info is published by the record's own commit. */
	if ((end & (S - 1)) == 0)
		rb_close_info(chan, buf, end - S, S, ts);
	ctx->ts = ts;
	ctx->prev_ts = prev;
	ctx->pos = start;
	ctx->rec = rb_data(chan, cpu, start);
	ctx->payload = ctx->rec + (end - len - start);
	ctx->buf = buf;
	ctx->slot_size = (uint32_t)(end - start);
	ctx->cpu = cpu;
	return 0;
}

/* ---- consumer ---- */

int rb_flush(struct rb_channel *chan, unsigned cpu, unsigned flags)
{
	const uint64_t S = chan->g.subbuf_size;
	struct rb_cpu_ctl *buf;
	uint64_t old, off, end, ts;
	bool empty;
	int r;

	if (cpu >= chan->g.nr_cpus)
		return -EINVAL;
	buf = rb_cpu(chan, cpu);
	old = atomic_load_explicit(&buf->write_pos, memory_order_relaxed);
	for (;;) {
		/* I3: the packet's ts_end (or empty packet's times) is read
		 * after the position it closes was loaded. */
		ts = chan->client->clock_read();
		off = old & (S - 1);
		empty = off == 0;
		if (empty) {
			if (!(flags & RB_FLUSH_EMPTY))
				return 0;
			r = rb_make_room(chan, buf, old);
			if (r < 0)
				return r;
			end = old + S;
		} else {
			end = old - off + S;
		}
		/* acq_rel: as in rb_reserve(). */
		if (atomic_compare_exchange_weak_explicit(&buf->write_pos, &old, end,
							  memory_order_acq_rel,
							  memory_order_relaxed))
			break;
	}
	if (empty) {
		rb_open_info(chan, buf, old, ts);
		rb_close_info(chan, buf, old, chan->g.hdr_area_size, ts);
		rb_commit_bytes(chan, buf, old, S);
	} else {
		rb_close_info(chan, buf, old - off, off, ts);
		rb_commit_bytes(chan, buf, old - off, S - off);
	}
	return 1;
}

/* The oldest unreleased sub-buffer's state: 0 complete, -EAGAIN not closed,
 * -EBUSY closed but not fully committed. */
static int rb_oldest(struct rb_channel *chan, struct rb_cpu_ctl *buf, uint64_t *ret_c,
		     uint64_t *ret_v)
{
	const uint64_t S = chan->g.subbuf_size;
	/* Acquire: in overwrite mode pairs with a pushing writer's release CAS
	 * (records_base it published); in discard mode only we write it. */
	uint64_t c = atomic_load_explicit(&buf->consumed, memory_order_acquire);
	/* Relaxed: whether it is closed; what is in it is ordered by the
	 * commit word below. */
	uint64_t w = atomic_load_explicit(&buf->write_pos, memory_order_relaxed);
	uint64_t v;

	*ret_c = c;
	if (w < c + S)
		return -EAGAIN;
	/* Acquire: pairs with the release commits of every writer of it
	 * (a chain of RMWs: one acquire load synchronizes with all), so
	 * records and packet info are visible. */
	v = atomic_load_explicit(&buf->sb[rb_subbuf_index(chan, c)].commit, memory_order_acquire);
	*ret_v = v;
	if ((v & RB_COMMIT_BYTES_MASK) != rb_commit_full(chan, c))
		return -EBUSY;
	return 0;
}

int rb_get_subbuf(struct rb_channel *chan, unsigned cpu, struct rb_packet *pkt)
{
	const uint64_t S = chan->g.subbuf_size;
	struct rb_consumer_cpu *cc;
	struct rb_cpu_ctl *buf;
	struct rb_subbuf_ctl *sb;
	uint64_t c, v, content, d;
	int r;

	if (cpu >= chan->g.nr_cpus)
		return -EINVAL;
	buf = rb_cpu(chan, cpu);
	cc = &chan->ccpu[cpu];
	r = rb_oldest(chan, buf, &c, &v);
	if (r < 0)
		return r;
	sb = &buf->sb[rb_subbuf_index(chan, c)];
	/* Relaxed: ordered by the acquire of the commit word. */
	content = atomic_load_explicit(&sb->content_size, memory_order_relaxed);
	if (atomic_load_explicit(&sb->closed_pos, memory_order_relaxed) != c + 1 ||
	    content < chan->g.hdr_area_size || content > S)
		return -EBADMSG;
	d = atomic_load_explicit(&sb->events_discarded, memory_order_relaxed);
	if (d < cc->last_discarded)
		d = cc->last_discarded;
	cc->last_discarded = d;
	pkt->data = rb_data(chan, cpu, c);
	pkt->pos = c;
	pkt->seq_num = c >> chan->subbuf_order;
	pkt->ts_begin = atomic_load_explicit(&sb->ts_begin, memory_order_relaxed);
	pkt->ts_end = atomic_load_explicit(&sb->ts_end, memory_order_relaxed);
	pkt->content_size = content;
	pkt->packet_size = S;
	pkt->events_discarded = d;
	pkt->records = rb_cycle_records(sb, cycle_of(chan, c), v, false);
	pkt->cpu = cpu;
	cc->stuck = false;
	return 0;
}

static int rb_release(struct rb_channel *chan, struct rb_cpu_ctl *buf, uint64_t c, uint64_t v)
{
	struct rb_subbuf_ctl *sb = &buf->sb[rb_subbuf_index(chan, c)];

	rb_cycle_records(sb, cycle_of(chan, c), v, true);
	if (chan->g.mode == RB_MODE_DISCARD) {
		/* Release: our reads of the sub-buffer happen before writers
		 * reuse the slot; pairs with the acquire in rb_make_room(). */
		atomic_store_explicit(&buf->consumed, c + chan->g.subbuf_size,
				      memory_order_release);
		return 0;
	}
	/* Overwrite: writers may have pushed us (then they counted it lost,
	 * and may be writing into it: what we read is garbage). acq_rel
	 * success: release as above; failure relaxed. */
	if (!atomic_compare_exchange_strong_explicit(&buf->consumed, &c, c + chan->g.subbuf_size,
						     memory_order_acq_rel, memory_order_relaxed))
		return -ESTALE;
	return 0;
}

int rb_put_subbuf(struct rb_channel *chan, const struct rb_packet *pkt)
{
	struct rb_cpu_ctl *buf;
	uint64_t v;

	if (pkt->cpu >= chan->g.nr_cpus)
		return -EINVAL;
	buf = rb_cpu(chan, pkt->cpu);
	/* Relaxed: the value was acquired in rb_get_subbuf(); complete, it
	 * cannot change until the slot is released. */
	v = atomic_load_explicit(&buf->sb[rb_subbuf_index(chan, pkt->pos)].commit,
				 memory_order_relaxed);
	return rb_release(chan, buf, pkt->pos, v);
}

int rb_skip_subbuf(struct rb_channel *chan, unsigned cpu)
{
	struct rb_cpu_ctl *buf;
	struct rb_subbuf_ctl *sb;
	uint64_t c, v, full, n;
	int r;

	if (cpu >= chan->g.nr_cpus)
		return -EINVAL;
	buf = rb_cpu(chan, cpu);
	r = rb_oldest(chan, buf, &c, &v);
	if (r == -EAGAIN)
		return r;
	sb = &buf->sb[rb_subbuf_index(chan, c)];
	full = rb_commit_full(chan, c);
	if (r == -EBUSY) {
		/* Complete it by hand, keeping the record count. acq_rel:
		 * acquire the writers that did commit; release for whoever
		 * reads it next. A failure means a writer committed meanwhile:
		 * retry with the new value (it may even be complete now). */
		for (;;) {
			uint64_t nv = (v & ~RB_COMMIT_BYTES_MASK) | full;

			if ((v & RB_COMMIT_BYTES_MASK) == full)
				break;
			if (atomic_compare_exchange_weak_explicit(&sb->commit, &v, nv,
								  memory_order_acq_rel,
								  memory_order_acquire)) {
				v = nv;
				break;
			}
		}
	}
	n = rb_cycle_records(sb, cycle_of(chan, c), v, false);
	r = rb_release(chan, buf, c, v);
	if (r < 0)
		return 0;	/* overwrite: pushed meanwhile, already counted lost */
	/* Relaxed: counters. */
	atomic_fetch_add_explicit(&buf->subbufs_corrupt, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&buf->records_corrupt, n, memory_order_relaxed);
	chan->ccpu[cpu].stuck = false;
	return 0;
}

int rb_consumer_tick(struct rb_channel *chan, uint64_t now_ns, uint64_t switch_ns,
		     uint64_t stuck_ns)
{
	int readable = 0;

	for (unsigned cpu = 0; cpu < chan->g.nr_cpus; cpu++) {
		struct rb_consumer_cpu *cc = &chan->ccpu[cpu];
		struct rb_cpu_ctl *buf = rb_cpu(chan, cpu);
		uint64_t c, v;
		int r;

		if (switch_ns && now_ns - cc->last_switch >= switch_ns) {
			cc->last_switch = now_ns;
			rb_flush(chan, cpu, RB_FLUSH_EMPTY);
		}
		r = rb_oldest(chan, buf, &c, &v);
		if (r == 0) {
			readable++;
			cc->stuck = false;
		} else if (r == -EBUSY && stuck_ns) {
			if (!cc->stuck || cc->stuck_pos != c) {
				cc->stuck = true;
				cc->stuck_pos = c;
				cc->stuck_since = now_ns;
			} else if (now_ns - cc->stuck_since >= stuck_ns) {
				rb_skip_subbuf(chan, cpu);
				if (rb_oldest(chan, buf, &c, &v) == 0)
					readable++;
			}
		}
	}
	return readable;
}

int rb_consumer_prepare_sleep(struct rb_channel *chan)
{
	struct rb_shm_header *h = (struct rb_shm_header *)chan->base;

	atomic_store_explicit(&h->consumer_waiting, 1, memory_order_relaxed);
	/* Dekker pair with rb_deliver_slow(): see there. */
	atomic_thread_fence(memory_order_seq_cst);
	for (unsigned cpu = 0; cpu < chan->g.nr_cpus; cpu++) {
		uint64_t c, v;

		if (rb_oldest(chan, rb_cpu(chan, cpu), &c, &v) == 0) {
			atomic_store_explicit(&h->consumer_waiting, 0, memory_order_relaxed);
			return 1;
		}
	}
	return 0;
}

void rb_consumer_woken(struct rb_channel *chan)
{
	struct rb_shm_header *h = (struct rb_shm_header *)chan->base;

	/* Relaxed: only saves writers a syscall. */
	atomic_store_explicit(&h->consumer_waiting, 0, memory_order_relaxed);
}

int rb_snapshot(struct rb_channel *chan, unsigned cpu, void *scratch,
		int (*fn)(const struct rb_packet *pkt, void *arg), void *arg,
		uint64_t *ret_overwritten, uint64_t *ret_incomplete)
{
	return rb_snapshot_newest(chan, cpu, 0, scratch, fn, arg, ret_overwritten,
				  ret_incomplete);
}

int rb_snapshot_newest(struct rb_channel *chan, unsigned cpu, uint64_t max_subbufs,
		       void *scratch, int (*fn)(const struct rb_packet *pkt, void *arg),
		       void *arg, uint64_t *ret_overwritten, uint64_t *ret_incomplete)
{
	const uint64_t S = chan->g.subbuf_size;
	const uint64_t bufsize = S << chan->num_order;
	uint64_t w, c, lo, wb, overwritten = 0, incomplete = 0, last_d = 0;
	struct rb_cpu_ctl *buf;
	int r = 0;

	if (cpu >= chan->g.nr_cpus || !scratch || !fn)
		return -EINVAL;
	buf = rb_cpu(chan, cpu);
	rb_flush(chan, cpu, 0);
	/* Acquire: see rb_oldest(). */
	c = atomic_load_explicit(&buf->consumed, memory_order_acquire);
	w = atomic_load_explicit(&buf->write_pos, memory_order_acquire);
	wb = w & ~(S - 1);
	/* The oldest that can still be intact is wb - N*S (unless a writer
	 * opened wb meanwhile: the check after the copy sees it). */
	lo = wb >= bufsize ? wb - bufsize : 0;
	if (lo < c)
		lo = c;
	if (max_subbufs && (wb - lo) / S > max_subbufs)
		lo = wb - max_subbufs * S;
	for (uint64_t p = lo; p < wb; p += S) {
		struct rb_subbuf_ctl *sb = &buf->sb[rb_subbuf_index(chan, p)];
		struct rb_packet pkt;
		uint64_t v, content, w2, d;

		/* Acquire: as in rb_oldest(). */
		v = atomic_load_explicit(&sb->commit, memory_order_acquire);
		if ((v & RB_COMMIT_BYTES_MASK) != rb_commit_full(chan, p)) {
			/* Relaxed: reused since? then lost, else in progress. */
			w2 = atomic_load_explicit(&buf->write_pos, memory_order_relaxed);
			if (w2 > p + bufsize)
				overwritten++;
			else
				incomplete++;
			continue;
		}
		content = atomic_load_explicit(&sb->content_size, memory_order_relaxed);
		if (content < chan->g.hdr_area_size || content > S)
			content = S;	/* re-checked below */
		pkt.ts_begin = atomic_load_explicit(&sb->ts_begin, memory_order_relaxed);
		pkt.ts_end = atomic_load_explicit(&sb->ts_end, memory_order_relaxed);
		d = atomic_load_explicit(&sb->events_discarded, memory_order_relaxed);
		pkt.records = rb_cycle_records(sb, cycle_of(chan, p), v, false);
		bool closed_ok = atomic_load_explicit(&sb->closed_pos, memory_order_relaxed) == p + 1;
		memcpy(scratch, rb_data(chan, cpu, p), content);
		/*
		 * Seqlock-style check: the slot is rewritten only by
		 * reservations whose CAS moved write_pos past p + N*S, and a
		 * writer stores into its slot only after its CAS. The fence
		 * orders our copy before the load of write_pos; with x86 TSO
		 * (stores seen in order) a copy that saw any new store also
		 * sees the CAS that preceded it. The copy itself is a data
		 * race by the C model, so this path is not run under TSan.
		 */
		atomic_thread_fence(memory_order_acquire);
		w2 = atomic_load_explicit(&buf->write_pos, memory_order_relaxed);
		if (w2 > p + bufsize) {
			overwritten++;
			continue;
		}
		if (!closed_ok || content < chan->g.hdr_area_size) {
			incomplete++;
			continue;
		}
		if (d < last_d)
			d = last_d;
		last_d = d;
		pkt.data = scratch;
		pkt.pos = p;
		pkt.seq_num = p >> chan->subbuf_order;
		pkt.content_size = content;
		pkt.packet_size = S;
		pkt.events_discarded = d;
		pkt.cpu = cpu;
		r = fn(&pkt, arg);
		if (r)
			break;
	}
	if (ret_overwritten)
		*ret_overwritten = overwritten;
	if (ret_incomplete)
		*ret_incomplete = incomplete;
	return r;
}
