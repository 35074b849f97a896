/*
 * ringbuf.c - ring buffer setup, writer slow path, consumer side.
 *
 * Algorithm, layout, state table, invariants (I1..I7, see ringbuf.h) and
 * memory-ordering pairs: doc/design/ring-buffer.md.
 *
 * Contexts: rb_reserve_slow(), rb_reserve_rseq_slow(), rb_refuse() and
 * rb_deliver_slow() run in writers (any thread, signal handlers: no lock, no
 * allocation, the only syscall is the wake-up write). Everything else named
 * rb_consumer_*, rb_get/put/skip_subbuf, rb_flush, rb_snapshot runs in the
 * consumer, one thread per channel, concurrently with writers. Setup
 * functions are ordinary code.
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
			    uint32_t hdr_area_size, uint32_t mode, uint32_t clock, uint32_t sync,
			    struct rb_geometry *g)
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
#ifdef RB_HAVE_TSC
	if (clock != RB_CLOCK_MONOTONIC && clock != RB_CLOCK_TSC)
		return -EINVAL;
#else
	if (clock != RB_CLOCK_MONOTONIC)
		return -EINVAL;
#endif
	/* rseq: the fast path reads the TSC itself, and an overwriting writer
	 * pushes the consumer with a CAS that only atomic channels have. */
	if (sync != RB_SYNC_ATOMIC &&
	    (sync != RB_SYNC_RSEQ || clock != RB_CLOCK_TSC || mode != RB_MODE_DISCARD))
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
	g->clock = (enum rb_clock)clock;
	g->sync = (enum rb_sync)sync;
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
			     (uint32_t)align_up(cfg->hdr_area_size, 4), (uint32_t)cfg->mode,
			     (uint32_t)cfg->clock, (uint32_t)cfg->sync, &g);
	if (r < 0)
		return r;
	*ret_g = g;
	return 0;
}

bool rb_rseq_usable(void)
{
#ifdef RB_HAVE_RSEQ
	struct rseq *rs = rb_rseq_area();

	return rs && rb_rseq_cpu(rs) != RB_RSEQ_NO_CPU;	/* registered in this thread */
#else
	return false;
#endif
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
			     h.clock, h.sync, &g);
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

	if (!cfg->client || !cfg->client->record_header_size)
		return -EINVAL;
	r = rb_geometry_check(cfg, &g);
	if (r < 0)
		return r;
	if (g.sync == RB_SYNC_RSEQ && !rb_rseq_usable())
		return -EOPNOTSUPP;
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
	h->clock = g.clock;
	h->sync = g.sync;
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

	if (!client || !client->record_header_size)
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
 * The commit count of a sub-buffer: the sum of its two words (commit_local is
 * 0 on atomic channels). Acquire: pairs with the release adds to commit, and
 * with the plain adds to commit_local made in program order after the
 * record's stores (x86 TSO): a load that sees a count sees what was written
 * before it. The words are loaded one after the other; both only grow within
 * a cycle, so a sum that reaches the cycle's end is exact (I5).
 */
static uint64_t rb_commit_read(struct rb_subbuf_ctl *sb)
{
	return atomic_load_explicit(&sb->commit, memory_order_acquire) +
	       atomic_load_explicit(&sb->commit_local, memory_order_acquire);
}

/* Cumulative records committed in the slot of pos at the end of its cycle,
 * from its complete commit count w (I5: w - (c+1)*S is records * 2^37). */
static uint64_t rb_commit_records(const struct rb_channel *chan, uint64_t pos, uint64_t w)
{
	return ((w - rb_cycle_end(chan, pos)) >> RB_COMMIT_BYTES_BITS) & RB_COMMIT_RECORDS_MASK;
}

/*
 * Records committed in the complete cycle of the sub-buffer at pos, whose
 * cumulative record count is rec. With publish, records that this cycle is
 * finished (before the slot is released), so that the next cycle can count its own.
 * Context: anyone about to release the slot (consumer put/skip, a pushing
 * writer); several may race, they write the same values.
 */
static uint64_t rb_cycle_records(struct rb_subbuf_ctl *sb, uint64_t cycle, uint64_t rec,
				 bool publish)
{
	uint32_t tag = (uint32_t)cycle, prev_tag = (uint32_t)(cycle - 1);
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

static uint64_t rb_finished_records(const struct rb_channel *chan, struct rb_subbuf_ctl *sb,
				    uint64_t pos, uint64_t w, bool publish)
{
	return rb_cycle_records(sb, cycle_of(chan, pos), rb_commit_records(chan, pos, w), publish);
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
		uint64_t w, n;

		if (nb + S - c <= bufsize) {
			/* Acquire: the slot's previous cycle is complete (released
			 * by the consumer, or never used); this pairs with the
			 * release commits of its writers, so that their stores
			 * into the slot happen before ours also in the view of
			 * one process: the consumer that orders them through
			 * `consumed` is another process, invisible to
			 * ThreadSanitizer. One load per sub-buffer opened. */
			(void)rb_commit_read(&buf->sb[rb_subbuf_index(chan, nb)]);
			return 0;
		}
		if (chan->g.mode == RB_MODE_DISCARD)
			return -ENOBUFS;
		/* I1: c == nb - (N-1)*S is the oldest sub-buffer. Acquire (in
		 * rb_commit_read): its writers' stores must happen before ours. */
		sb = &buf->sb[rb_subbuf_index(chan, c)];
		w = rb_commit_read(sb);
		if (!rb_commit_complete(chan, c, w))
			return -ENOBUFS;
		n = rb_finished_records(chan, sb, c, w, true);
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

/*
 * Adds bytes to the commit count of the sub-buffer at pos of CPU buffer cpu
 * (no record) and delivers it if this completes it: as rb_commit() does,
 * on the local word when an rseq channel's sequence can run on cpu, else
 * with a release add (orders the packet info stores before it; pairs with
 * the acquire in rb_commit_read()).
 */
static void rb_commit_bytes(struct rb_channel *chan, struct rb_cpu_ctl *buf, unsigned cpu,
			    uint64_t pos, uint64_t bytes)
{
	struct rb_subbuf_ctl *sb = &buf->sb[rb_subbuf_index(chan, pos)];
	uint64_t v, other = 0;

#ifdef RB_HAVE_RSEQ
	struct rseq *rs = rb_rseq_area();

	if (chan->g.sync == RB_SYNC_RSEQ && rs &&
	    rb_rseq_add(rs, cpu, (uint64_t *)&sb->commit_local, bytes, &v) == RB_RSEQ_DONE) {
		/* Relaxed: a hint for the delivery (rb_commit()). */
		other = atomic_load_explicit(&sb->commit, memory_order_relaxed);
		goto done;
	}
#endif
	v = atomic_fetch_add_explicit(&sb->commit, bytes, memory_order_release) + bytes;
	if (chan->g.sync == RB_SYNC_RSEQ)
		other = atomic_load_explicit(&sb->commit_local, memory_order_relaxed);
#ifdef RB_HAVE_RSEQ
done:
#else
	(void)cpu;	/* no sequence to run on it */
#endif
	if (rb_commit_complete(chan, pos, v + other))
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

int rb_refuse(struct rb_channel *chan, int err)
{
	return rb_count_discard(rb_cpu(chan, rb_current_cpu(chan)), err);
}

/*
 * The plan of a reservation that needs the slow path, or of a flush: which
 * slot it takes, which sub-buffer it closes or opens. Computed from a pair
 * and a timestamp, carried out by rb_plan_finish() once the pair was
 * replaced by {end, ts}.
 */
struct rb_plan {
	uint64_t start, end;	/* the slot [start, end) */
	uint64_t prev;		/* the header's reference (I4, or ts_begin) */
	uint64_t sb_old, off;	/* sub-buffer closed and the bytes used in it */
	uint64_t nb;		/* sub-buffer opened */
	bool record;		/* a record's slot (else a flush's padding) */
	bool close_old, open_new, empty;
};

/*
 * Plans a record of len bytes after the pair cur at timestamp ts (>= cur.ts).
 * Returns 0, or -E2BIG / -ENOBUFS (the caller counts it).
 */
static int rb_plan_reserve(const struct rb_client *cl, struct rb_channel *chan,
			   struct rb_cpu_ctl *buf, struct rb_pair cur, uint64_t ts, size_t len,
			   size_t align, struct rb_plan *p)
{
	const uint64_t S = chan->g.subbuf_size;

	*p = (struct rb_plan){ .off = cur.pos & (S - 1), .record = true };
	p->sb_old = cur.pos - p->off;
	if (p->off != 0) {
		p->start = cur.pos;
		p->prev = cur.ts;
		p->end = align_up(p->start + cl->record_header_size(p->start, ts, p->prev), align) +
			 len;
		if (p->end - p->sb_old <= S)
			return 0;	/* fits (maybe exactly) */
		p->close_old = true;
		p->nb = p->sb_old + S;
	} else {
		p->nb = cur.pos;
	}
	p->open_new = true;
	/* First record of a packet: the reader's reference is the packet's
	 * ts_begin, which is this very ts. */
	p->prev = ts;
	p->start = p->nb + chan->g.hdr_area_size;
	p->end = align_up(p->start + cl->record_header_size(p->start, ts, ts), align) + len;
	if (p->end - p->nb > S)
		return -E2BIG;
	return rb_make_room(chan, buf, p->nb);
}

/*
 * Plans a flush after the pair cur: the open sub-buffer is padded to its
 * end, or with RB_FLUSH_EMPTY an empty one is made when none is open.
 * Returns 1 (a plan), 0 (nothing to do) or -ENOBUFS.
 */
static int rb_plan_flush(struct rb_channel *chan, struct rb_cpu_ctl *buf, struct rb_pair cur,
			 unsigned flags, struct rb_plan *p)
{
	const uint64_t S = chan->g.subbuf_size;
	int r;

	*p = (struct rb_plan){ .off = cur.pos & (S - 1) };
	p->sb_old = cur.pos - p->off;
	p->start = cur.pos;
	p->end = p->sb_old + S;
	if (p->off != 0) {
		p->close_old = true;
		return 1;
	}
	if (!(flags & RB_FLUSH_EMPTY))
		return 0;
	r = rb_make_room(chan, buf, cur.pos);
	if (r < 0)
		return r;
	p->empty = true;
	return 1;
}

/* Carries out a plan whose pair replacement {end, ts} succeeded. */
static void rb_plan_finish(struct rb_channel *chan, struct rb_cpu_ctl *buf, unsigned cpu,
			   const struct rb_plan *p, uint64_t ts)
{
	const uint64_t S = chan->g.subbuf_size;

	if (p->empty) {
		rb_open_info(chan, buf, p->sb_old, ts);
		rb_close_info(chan, buf, p->sb_old, chan->g.hdr_area_size, ts);
		rb_commit_bytes(chan, buf, cpu, p->sb_old, S);
		return;
	}
	if (p->close_old) {
		rb_close_info(chan, buf, p->sb_old, p->off, ts);
		rb_commit_bytes(chan, buf, cpu, p->sb_old, S - p->off);
	}
	if (p->open_new) {
		rb_open_info(chan, buf, p->nb, ts);
		if (chan->g.hdr_area_size)
			rb_commit_bytes(chan, buf, cpu, p->nb, chan->g.hdr_area_size);
	}
	/* A record ending exactly at the boundary closes its sub-buffer; the
	 * info is published by the record's own commit. */
	if (p->record && (p->end & (S - 1)) == 0)
		rb_close_info(chan, buf, p->end - S, S, ts);
}

/*
 * Plans a record after the pair cur of CPU buffer cpu, at *ts clamped to
 * cur.ts (I3). 0, or the failure: a full buffer without count_full is
 * -EAGAIN, not counted, with ctx->cpu naming it; any other is counted.
 */
static int plan_slot(const struct rb_client *cl, struct rb_channel *chan, unsigned cpu,
		     struct rb_pair cur, uint64_t *ts, size_t len, size_t align, bool count_full,
		     struct rb_ctx *ctx, struct rb_plan *p)
{
	struct rb_cpu_ctl *buf = rb_cpu(chan, cpu);
	int r;

	if (*ts < cur.ts)
		*ts = cur.ts;
	r = rb_plan_reserve(cl, chan, buf, cur, *ts, len, align, p);
	if (r == -ENOBUFS && !count_full) {
		ctx->cpu = cpu;
		return -EAGAIN;
	}
	return r < 0 ? rb_count_discard(buf, r) : 0;
}

/*
 * The reservation on CPU buffer cpu of an atomic channel. count_full false:
 * a full buffer returns -EAGAIN uncounted, with ctx->cpu naming it
 * (rb_try_reserve()).
 */
static int reserve_atomic(const struct rb_client *cl, struct rb_channel *chan, unsigned cpu,
			  size_t len, size_t align, struct rb_ctx *ctx, bool count_full)
{
	struct rb_cpu_ctl *buf;
	struct rb_pair cur;
	struct rb_plan p;
	uint64_t ts;
	int r;

	if (cpu >= chan->g.nr_cpus)
		return -EINVAL;
	buf = rb_cpu(chan, cpu);
	if (align > 4096 || !is_pow2(align) || chan->g.sync != RB_SYNC_ATOMIC)
		return rb_count_discard(buf, -EINVAL);
	if (len >= chan->g.subbuf_size)
		return rb_count_discard(buf, -E2BIG);
	cur = rb_pair_load(buf);
	for (;;) {
		ts = rb_clock_now(cl, chan);
		if ((r = plan_slot(cl, chan, cpu, cur, &ts, len, align, count_full, ctx, &p)) < 0)
			return r;
		/* Full barrier (I2); on failure cur is the pair that won. */
		if (rb_pair_cas(buf, &cur, (struct rb_pair){ p.end, ts }))
			break;
	}
	rb_plan_finish(chan, buf, cpu, &p, ts);
	rb_ctx_fill(chan, cpu, buf, p.start, p.end, len, ts, p.prev, ctx);
	return 0;
}

int rb_reserve_slow(const struct rb_client *cl, struct rb_channel *chan, unsigned cpu,
		    size_t len, size_t align, struct rb_ctx *ctx)
{
	return reserve_atomic(cl, chan, cpu, len, align, ctx, true);
}

#ifdef RB_HAVE_RSEQ
/* The reservation on the caller's CPU of an rseq channel; count_full as in
 * reserve_atomic(). */
static int reserve_rseq(const struct rb_client *cl, struct rb_channel *chan, size_t len,
			size_t align, struct rb_ctx *ctx, bool count_full)
{
	struct rseq *rs = rb_rseq_area();
	struct rb_cpu_ctl *buf;
	struct rb_pair cur;
	struct rb_plan p;
	uint64_t ts;
	uint32_t cpu;
	int r;

	if (!rs)
		return rb_refuse(chan, -EOPNOTSUPP);
	if (align > 4096 || !is_pow2(align))
		return rb_refuse(chan, -EINVAL);
	if (len >= chan->g.subbuf_size)
		return rb_refuse(chan, -E2BIG);
	for (;;) {
		cpu = rb_rseq_cpu(rs);
		if (cpu >= chan->g.nr_cpus)	/* not registered, or no buffer */
			return rb_refuse(chan, -EOPNOTSUPP);
		buf = rb_cpu(chan, cpu);
		cur = rb_pair_load(buf);
		/* Read on any CPU: the clamp keeps the stream in order (I3),
		 * and the sequence below checks cur is still the pair. */
		ts = rb_clock_tsc();
		if ((r = plan_slot(cl, chan, cpu, cur, &ts, len, align, count_full, ctx, &p)) < 0)
			return r;
		/* I7: stored by a sequence on CPU cpu that found write_pos
		 * unchanged, hence the whole pair (rb_pair_load()). */
		if (rb_rseq_store_pair(rs, cpu, (uint64_t *)&buf->write_pos, cur.pos, p.end, ts) ==
		    RB_RSEQ_DONE)
			break;
	}
	rb_plan_finish(chan, buf, cpu, &p, ts);
	rb_ctx_fill(chan, cpu, buf, p.start, p.end, len, ts, p.prev, ctx);
	return 0;
}
#else
static int reserve_rseq(const struct rb_client *cl, struct rb_channel *chan, size_t len,
			size_t align, struct rb_ctx *ctx, bool count_full)
{
	(void)cl, (void)len, (void)align, (void)ctx, (void)count_full;
	return rb_refuse(chan, -EOPNOTSUPP);
}
#endif

int rb_reserve_rseq_slow(const struct rb_client *cl, struct rb_channel *chan, size_t len,
			 size_t align, struct rb_ctx *ctx)
{
	return reserve_rseq(cl, chan, len, align, ctx, true);
}

int rb_try_reserve(const struct rb_client *cl, struct rb_channel *chan, size_t len,
		   size_t align, struct rb_ctx *ctx)
{
	if (chan->g.sync == RB_SYNC_ATOMIC)
		return reserve_atomic(cl, chan, rb_current_cpu(chan), len, align, ctx, false);
	return reserve_rseq(cl, chan, len, align, ctx, false);
}

void rb_discard(struct rb_channel *chan, unsigned cpu)
{
	if (cpu < chan->g.nr_cpus)
		rb_count_discard(rb_cpu(chan, cpu), 0);
}

/* ---- consumer ---- */

#ifdef RB_HAVE_RSEQ
/*
 * The consumer's way onto CPU cpu, for the sequences of rseq channels: the
 * calling thread's affinity is saved and narrowed to cpu (sched_setaffinity
 * returns once the thread runs there), then restored by rb_unpin().
 */
struct rb_pin {
	cpu_set_t *saved;
	size_t size;
};

static int rb_pin(unsigned cpu, struct rb_pin *pin)
{
	cpu_set_t *one;
	int r = 0;

	pin->size = CPU_ALLOC_SIZE(RB_MAX_CPUS);
	pin->saved = CPU_ALLOC(RB_MAX_CPUS);
	one = CPU_ALLOC(RB_MAX_CPUS);
	if (!pin->saved || !one) {
		r = -ENOMEM;
		goto out;
	}
	CPU_ZERO_S(pin->size, one);
	CPU_SET_S(cpu, pin->size, one);
	if (sched_getaffinity(0, pin->size, pin->saved) < 0 ||
	    sched_setaffinity(0, pin->size, one) < 0)
		r = -errno;
out:
	CPU_FREE(one);
	if (r < 0) {
		CPU_FREE(pin->saved);
		pin->saved = NULL;
	}
	return r;
}

static void rb_unpin(struct rb_pin *pin)
{
	if (sched_setaffinity(0, pin->size, pin->saved) < 0) {
		/* Cannot happen: it is the set the thread had. */
	}
	CPU_FREE(pin->saved);
}

/*
 * Runs fn(rs, cpu, arg) with the calling thread on CPU cpu (rb_pin()), rs
 * its rseq area: how the consumer becomes, for a moment, a writer of CPU
 * cpu's buffer of an rseq channel (I7). Returns fn's value, -EOPNOTSUPP if
 * this thread has no rseq, or rb_pin()'s error.
 */
static int rb_run_on_cpu(unsigned cpu, int (*fn)(struct rseq *rs, unsigned cpu, void *arg),
			 void *arg)
{
	struct rseq *rs = rb_rseq_area();
	struct rb_pin pin;
	int r;

	if (!rs || rb_rseq_cpu(rs) == RB_RSEQ_NO_CPU)
		return -EOPNOTSUPP;
	r = rb_pin(cpu, &pin);
	if (r < 0)
		return r;
	r = fn(rs, cpu, arg);
	rb_unpin(&pin);
	return r;
}

/* A sequence of ours found the thread elsewhere: -EAGAIN if it is not on
 * cpu any more (its affinity was changed under it), else 0 (interrupted:
 * retry). */
static int rb_still_on(struct rseq *rs, unsigned cpu)
{
	return rb_rseq_cpu(rs) != cpu ? -EAGAIN : 0;
}

struct rb_flush_arg {
	struct rb_channel *chan;
	unsigned flags;
};

/* rb_flush() of an rseq channel, on CPU cpu: as a writer there would. */
static int rb_flush_on_cpu(struct rseq *rs, unsigned cpu, void *arg)
{
	const struct rb_flush_arg *a = arg;
	struct rb_cpu_ctl *buf = rb_cpu(a->chan, cpu);
	struct rb_plan p;
	int r;

	for (;;) {
		struct rb_pair cur = rb_pair_load(buf);
		/* I3: the packet's end (or empty packet's times) is never
		 * before the last reservation. */
		uint64_t ts = rb_clock_tsc();
		enum rb_rseq_result res;

		if (ts < cur.ts)
			ts = cur.ts;
		r = rb_plan_flush(a->chan, buf, cur, a->flags, &p);
		if (r <= 0)
			return r;
		/* I7: stored by a sequence on CPU cpu, which we now are. */
		res = rb_rseq_store_pair(rs, cpu, (uint64_t *)&buf->write_pos, cur.pos, p.end, ts);
		if (res == RB_RSEQ_DONE) {
			rb_plan_finish(a->chan, buf, cpu, &p, ts);
			return 1;
		}
		if (res == RB_RSEQ_MOVED && (r = rb_still_on(rs, cpu)) < 0)
			return r;
	}
}
#endif

int rb_flush(struct rb_channel *chan, unsigned cpu, unsigned flags)
{
	struct rb_cpu_ctl *buf;
	struct rb_pair cur;
	struct rb_plan p;
	uint64_t ts;
	int r;

	if (cpu >= chan->g.nr_cpus)
		return -EINVAL;
	if (chan->g.sync == RB_SYNC_RSEQ) {
#ifdef RB_HAVE_RSEQ
		return rb_run_on_cpu(cpu, rb_flush_on_cpu,
				     &(struct rb_flush_arg){ .chan = chan, .flags = flags });
#else
		return -EOPNOTSUPP;
#endif
	}
	buf = rb_cpu(chan, cpu);
	cur = rb_pair_load(buf);
	for (;;) {
		/* I3: as in rb_flush_on_cpu(). */
		ts = rb_clock_now(chan->client, chan);
		if (ts < cur.ts)
			ts = cur.ts;
		r = rb_plan_flush(chan, buf, cur, flags, &p);
		if (r <= 0)
			return r;
		/* Full barrier (I2); on failure cur is the pair that won. */
		if (rb_pair_cas(buf, &cur, (struct rb_pair){ p.end, ts }))
			break;
	}
	rb_plan_finish(chan, buf, cpu, &p, ts);
	return 1;
}

/* The state of the sub-buffer at c: 0 complete (its count in *ret_w),
 * -EAGAIN not closed, -EBUSY closed but not fully committed. */
static int rb_subbuf_state(struct rb_channel *chan, struct rb_cpu_ctl *buf, uint64_t c,
			   uint64_t *ret_w)
{
	/* Relaxed: whether it is closed; what is in it is ordered by the
	 * commit count below. */
	uint64_t wp = atomic_load_explicit(&buf->write_pos, memory_order_relaxed);
	uint64_t w;

	if (wp < c + chan->g.subbuf_size)
		return -EAGAIN;
	/* Acquire (rb_commit_read): pairs with every writer's commit of it
	 * (each word is a chain of RMWs: one acquire load synchronizes with
	 * all), so records and packet info are visible. */
	w = rb_commit_read(&buf->sb[rb_subbuf_index(chan, c)]);
	*ret_w = w;
	return rb_commit_complete(chan, c, w) ? 0 : -EBUSY;
}

/* The oldest unreleased sub-buffer's position and state (rb_subbuf_state()). */
static int rb_oldest(struct rb_channel *chan, struct rb_cpu_ctl *buf, uint64_t *ret_c,
		     uint64_t *ret_w)
{
	/* Acquire: in overwrite mode pairs with a pushing writer's release CAS
	 * (records_base it published); in discard mode only we write it. */
	*ret_c = atomic_load_explicit(&buf->consumed, memory_order_acquire);
	return rb_subbuf_state(chan, buf, *ret_c, ret_w);
}

/* Hands out the complete sub-buffer at c of CPU buffer cpu (count w). */
static int rb_take(struct rb_channel *chan, unsigned cpu, uint64_t c, uint64_t w,
		   struct rb_packet *pkt)
{
	const uint64_t S = chan->g.subbuf_size;
	struct rb_consumer_cpu *cc = &chan->ccpu[cpu];
	struct rb_subbuf_ctl *sb = &rb_cpu(chan, cpu)->sb[rb_subbuf_index(chan, c)];
	uint64_t content, d;

	/* Relaxed: ordered by the acquire of the commit words. */
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
	pkt->records = rb_finished_records(chan, sb, c, w, false);
	pkt->cpu = cpu;
	cc->stuck = false;
	return 0;
}

int rb_get_subbuf(struct rb_channel *chan, unsigned cpu, struct rb_packet *pkt)
{
	uint64_t c, w;
	int r;

	if (cpu >= chan->g.nr_cpus)
		return -EINVAL;
	r = rb_oldest(chan, rb_cpu(chan, cpu), &c, &w);
	return r < 0 ? r : rb_take(chan, cpu, c, w, pkt);
}

static int rb_release(struct rb_channel *chan, struct rb_cpu_ctl *buf, uint64_t c, uint64_t w)
{
	struct rb_subbuf_ctl *sb = &buf->sb[rb_subbuf_index(chan, c)];

	rb_finished_records(chan, sb, c, w, true);
	if (chan->g.mode == RB_MODE_DISCARD) {
		/* Release: our reads of the sub-buffer happen before writers
		 * reuse the slot; pairs with the acquire in rb_make_room(). */
		atomic_store_explicit(&buf->consumed, c + chan->g.subbuf_size,
				      memory_order_release);
		rb_wake_writers(buf);
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
	if (pkt->cpu >= chan->g.nr_cpus)
		return -EINVAL;
	/* The count was acquired in rb_get_subbuf(); complete, it cannot
	 * change until the slot is released. */
	return rb_release(chan, rb_cpu(chan, pkt->cpu), pkt->pos,
			  rb_commit_read(&rb_cpu(chan, pkt->cpu)->sb[rb_subbuf_index(chan,
										       pkt->pos)]));
}

struct rb_complete_arg {
	struct rb_channel *chan;
	struct rb_subbuf_ctl *sb;
	uint64_t end;		/* the cycle's end (rb_cycle_end()) */
	uint64_t w;		/* out: the complete count */
};

#ifdef RB_HAVE_RSEQ
/*
 * rseq channels, on CPU cpu: the local word can only change by a sequence
 * on CPU cpu, and ours runs there, so checking it unchanged while we replace
 * the remote word (LOCK cmpxchg: migrated writers add to it) completes the
 * count exactly.
 */
static int rb_complete_on_cpu(struct rseq *rs, unsigned cpu, void *arg)
{
	struct rb_complete_arg *a = arg;

	for (;;) {
		/* Acquire: as in rb_commit_read(). */
		uint64_t local = atomic_load_explicit(&a->sb->commit_local, memory_order_acquire);
		uint64_t remote = atomic_load_explicit(&a->sb->commit, memory_order_acquire);
		uint64_t missing = (a->end - local - remote) & RB_COMMIT_BYTES_MASK;
		enum rb_rseq_result res;
		int r;

		if (missing == 0) {
			a->w = local + remote;
			return 0;
		}
		res = rb_rseq_cas_remote(rs, cpu, (const uint64_t *)&a->sb->commit_local, local,
					 (uint64_t *)&a->sb->commit, remote, remote + missing);
		if (res == RB_RSEQ_DONE) {
			a->w = local + remote + missing;
			return 0;
		}
		if (res == RB_RSEQ_MOVED && (r = rb_still_on(rs, cpu)) < 0)
			return r;
	}
}
#endif

/*
 * Completes the stuck sub-buffer at c by adding the missing bytes to its
 * commit count (keeping the record count): the count becomes exactly the
 * cycle's end (I5). Returns 0 and the complete count in *ret_w, or a
 * negative errno (rseq channels: see rb_flush()).
 */
static int rb_force_complete(struct rb_channel *chan, unsigned cpu, struct rb_subbuf_ctl *sb,
			     uint64_t c, uint64_t *ret_w)
{
	struct rb_complete_arg a = { .chan = chan, .sb = sb, .end = rb_cycle_end(chan, c) };
	int r = 0;

	if (chan->g.sync == RB_SYNC_ATOMIC) {
		/* Acquire, and acq_rel on success: acquire the writers that did
		 * commit; release for whoever reads it next. A failure means a
		 * writer committed meanwhile: retry with the new value (it may
		 * be complete now). */
		uint64_t remote = atomic_load_explicit(&sb->commit, memory_order_acquire);
		uint64_t missing;

		do
			missing = (a.end - remote) & RB_COMMIT_BYTES_MASK;
		while (missing &&
		       !atomic_compare_exchange_weak_explicit(&sb->commit, &remote, remote + missing,
							      memory_order_acq_rel,
							      memory_order_acquire));
		a.w = remote + missing;
	} else {
#ifdef RB_HAVE_RSEQ
		r = rb_run_on_cpu(cpu, rb_complete_on_cpu, &a);
#else
		(void)cpu;
		r = -EOPNOTSUPP;
#endif
	}
	if (r == 0)
		*ret_w = a.w;
	return r;
}

int rb_skip_subbuf(struct rb_channel *chan, unsigned cpu)
{
	struct rb_cpu_ctl *buf;
	struct rb_subbuf_ctl *sb;
	uint64_t c, w, n;
	int r;

	if (cpu >= chan->g.nr_cpus)
		return -EINVAL;
	buf = rb_cpu(chan, cpu);
	r = rb_oldest(chan, buf, &c, &w);
	if (r == -EAGAIN)
		return r;
	sb = &buf->sb[rb_subbuf_index(chan, c)];
	if (r == -EBUSY && (r = rb_force_complete(chan, cpu, sb, c, &w)) < 0)
		return r;
	n = rb_finished_records(chan, sb, c, w, false);
	r = rb_release(chan, buf, c, w);
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
		uint64_t c, w;
		int r;

		if (switch_ns && now_ns - cc->last_switch >= switch_ns) {
			cc->last_switch = now_ns;
			rb_flush(chan, cpu, RB_FLUSH_EMPTY);
		}
		r = rb_oldest(chan, buf, &c, &w);
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
				if (rb_oldest(chan, buf, &c, &w) == 0)
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
		uint64_t c, w;

		if (rb_oldest(chan, rb_cpu(chan, cpu), &c, &w) == 0) {
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
	uint64_t wp, c, lo, wb, overwritten = 0, incomplete = 0, last_d = 0;
	struct rb_cpu_ctl *buf;
	int r = 0;

	if (cpu >= chan->g.nr_cpus || !scratch || !fn)
		return -EINVAL;
	buf = rb_cpu(chan, cpu);
	rb_flush(chan, cpu, 0);
	/* Acquire: see rb_oldest(). */
	c = atomic_load_explicit(&buf->consumed, memory_order_acquire);
	wp = atomic_load_explicit(&buf->write_pos, memory_order_acquire);
	wb = wp & ~(S - 1);
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
		uint64_t w, content, w2, d;

		/* Acquire: as in rb_oldest(). */
		w = rb_commit_read(sb);
		if (!rb_commit_complete(chan, p, w)) {
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
		pkt.records = rb_finished_records(chan, sb, p, w, false);
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
