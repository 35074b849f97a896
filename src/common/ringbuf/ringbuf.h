/*
 * ringbuf.h - per-CPU lock-free ring buffers in shared memory.
 *
 * The algorithm, the layout diagram, the sub-buffer state table, the
 * invariants and the memory-ordering pairs are in doc/design/ring-buffer.md;
 * the invariants below are numbered as there.
 *
 * A channel is one buffer per CPU, each N sub-buffers of S bytes, in one
 * shared mapping (memfd or a file) that writers (traced processes) and the
 * consumer (another process) map from the same fd. The mapping holds no
 * pointers, only positions and counters. The ring buffer knows nothing of
 * CTF: each sub-buffer starts with a header area the consumer fills from
 * struct rb_packet when it takes the sub-buffer.
 *
 * A channel is synchronized one way for its whole life (rb_config.sync,
 * recorded in the mapping):
 *   atomic  writers reserve with a 16-byte compare-and-swap on the pair
 *           {write_pos, last_ts} of any CPU's buffer and commit with an
 *           atomic add; any thread, any CPU, also the consumer.
 *   rseq    writers reserve and commit in restartable sequences on their own
 *           CPU's buffer (rseq-internal.h): no LOCK-prefixed instruction on
 *           the fast path. The consumer runs its flushes and skips in its own
 *           restartable sequences, pinned to the buffer's CPU. x86_64 with
 *           glibc's rseq, discard mode, TSC clock.
 *
 * Contexts:
 *   writer   rb_reserve() / rb_commit(): any thread of any process that mapped
 *            the channel, also a signal handler interrupting a writer (each
 *            reservation is independent); never blocks, never allocates,
 *            no syscall except the consumer wake-up (only when the consumer
 *            said it sleeps).
 *   consumer everything named rb_consumer_* / rb_get_subbuf / rb_put_subbuf /
 *            rb_flush / rb_skip_subbuf / rb_snapshot: one thread per channel
 *            (the functions of one CPU buffer must not run concurrently with
 *            each other), concurrently with any number of writers. On rseq
 *            channels, rb_flush, rb_skip_subbuf, rb_snapshot and the timers
 *            move the calling thread to the buffer's CPU for a moment
 *            (sched_setaffinity; its affinity is restored).
 *
 * Invariants (positions are free-running 64-bit byte counts; the byte at
 * position p lives at offset p mod N*S of its CPU's data area):
 *   I1 consumed <= write_pos <= consumed + N*S; consumed is a multiple of S.
 *   I2 Reservations are disjoint: each is [old, new) of one successful
 *      replacement of the pair {write_pos, last_ts} (a 16-byte CAS, or an rseq
 *      commit), and never crosses a sub-buffer boundary.
 *   I3 A buffer's timestamps never go back: a reservation's timestamp is the
 *      clock clamped to the last_ts of the pair it replaces, which is the
 *      timestamp of the reservation that precedes it.
 *   I4 last_ts is exactly the timestamp of the reservation ending at
 *      write_pos: the two are only ever replaced together.
 *   I5 A sub-buffer of cycle c is complete when its commit count W (the sum of
 *      its commit words) satisfies W = (c+1)*S (mod 2^37) in its byte bits:
 *      every reserved byte of it, its header area and its end padding have
 *      been committed, and its packet info is written.
 *   I6 The slot of a sub-buffer is written again only after consumed passed it
 *      (discard mode: released by the consumer; overwrite mode: released by the
 *      consumer or pushed by a writer once complete).
 *   I7 rseq channels: every store to buffer k's pair and to its sub-buffers'
 *      commit_local words is the commit of a restartable sequence on CPU k.
 *
 * Usage (writer):
 *
 *   static const struct rb_client my_client = { NULL, my_header_size, 4, 4, 27 };
 *   struct rb_ctx ctx;
 *   if (rb_reserve(&my_client, chan, len, align, &ctx) == 0) {
 *           write_header(ctx.rec, ctx.ts, ctx.prev_ts); memcpy(ctx.payload, ...);
 *           rb_commit(chan, &ctx);
 *   }
 */
#ifndef LTT_RINGBUF_H
#define LTT_RINGBUF_H

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util/macros.h"

#if defined(__SANITIZE_THREAD__)
#define RB_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RB_TSAN 1
#endif
#endif
#ifdef RB_TSAN
#include <sanitizer/tsan_interface.h>
#endif

/* glibc >= 2.35 registers rseq for every thread and exports where its area
 * is. ThreadSanitizer does not see inline assembly: its builds use the atomic
 * path only. */
#if defined(__x86_64__) && defined(__GLIBC__) && !defined(RB_TSAN) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#include "ringbuf/rseq-internal.h"
#define RB_HAVE_RSEQ 1
#endif

#define RB_MAGIC 0x4c545242u /* "LTRB" little endian: 'B','R','T','L' */
#define RB_VERSION 2u
#define RB_MIN_SUBBUF_SIZE (4096ull)
#define RB_MAX_SUBBUF_SIZE (64ull << 20)
#define RB_MAX_NUM_SUBBUFS (1u << 16)
#define RB_MAX_CPUS 4096u
#define RB_CACHELINE 64

/*
 * Commit words of a sub-buffer count records * 2^37 + bytes (mod 2^64),
 * cumulative over the slot's cycles: each commit adds RB_COMMIT_RECORD +
 * its bytes. The byte count of a complete cycle c is exactly (c+1)*S, so
 * W - (c+1)*S is the cumulative record count times 2^37 (see
 * rb_commit_records()).
 */
#define RB_COMMIT_BYTES_BITS 37
#define RB_COMMIT_BYTES_MASK ((1ull << RB_COMMIT_BYTES_BITS) - 1)
#define RB_COMMIT_RECORD (1ull << RB_COMMIT_BYTES_BITS)
#define RB_COMMIT_RECORDS_MASK ((1ull << (64 - RB_COMMIT_BYTES_BITS)) - 1)

enum rb_mode {
	RB_MODE_DISCARD = 0,	/* full buffer: new records dropped and counted */
	RB_MODE_OVERWRITE = 1,	/* flight recorder: the oldest sub-buffer is lost */
};

/* The clock of a channel's timestamps (recorded in the mapping, so that the
 * consumer's flushes read the same one as the writers). */
enum rb_clock {
	RB_CLOCK_MONOTONIC = 0,	/* CLOCK_MONOTONIC, ns (vDSO) */
	RB_CLOCK_TSC = 1,	/* x86 time-stamp counter, cycles (x86_64 only) */
};

/* How writers synchronize (see the file comment). */
enum rb_sync {
	RB_SYNC_ATOMIC = 0,
	RB_SYNC_RSEQ = 1,
};

/* ---- shared-memory layout (no pointers; all fields fixed-size) ---- */

/* At offset 0 of the mapping. Written once at creation, then read-only. */
struct rb_shm_header {
	uint32_t magic;		/* RB_MAGIC */
	uint32_t version;	/* RB_VERSION */
	uint32_t header_size;	/* sizeof(struct rb_shm_header) */
	uint32_t nr_cpus;
	uint64_t subbuf_size;	/* S, power of two */
	uint32_t num_subbufs;	/* N, power of two >= 2 */
	uint32_t mode;		/* enum rb_mode */
	uint32_t hdr_area_size;	/* bytes reserved at the start of each sub-buffer */
	uint32_t cpu_ctl_stride; /* bytes between two struct rb_cpu_ctl */
	uint64_t ctl_offset;	/* offset of CPU 0's struct rb_cpu_ctl */
	uint64_t data_offset;	/* offset of CPU 0's data; CPU i at + i*N*S */
	uint64_t total_size;	/* bytes of the whole mapping */
	/* Consumer wake-up: set by the consumer before it sleeps (Dekker pair
	 * with the writers' delivery, see rb_deliver_slow()). */
	_Atomic uint32_t consumer_waiting;
	uint32_t clock;		/* enum rb_clock */
	uint32_t sync;		/* enum rb_sync */
	uint32_t reserved0;
	uint64_t reserved[5];
};

/* Per-sub-buffer control: commit counters and packet info. The packet info
 * fields are atomics accessed relaxed: they are ordered by the commit
 * counters (release by the writer that fills them, acquire by the consumer),
 * and the consumer may read them speculatively in overwrite mode. */
struct rb_subbuf_ctl {
	/* Atomic channels: every commit (atomic add). rseq channels: commits
	 * made off the buffer's CPU (a writer migrated since it reserved, the
	 * consumer's padding and skips). See RB_COMMIT_*. */
	_Atomic uint64_t commit;
	/* Commit word's record count when cycle `tag` of this slot ended:
	 * (tag << 32) | records. Written by whoever finishes a cycle. */
	_Atomic uint64_t records_base;
	_Atomic uint64_t ts_begin;	/* by the opener */
	_Atomic uint64_t seq_num;	/* by the opener: position / S */
	_Atomic uint64_t ts_end;	/* by the closer */
	_Atomic uint64_t content_size;	/* by the closer: bytes incl. header area */
	_Atomic uint64_t events_discarded; /* by the closer: cumulative */
	_Atomic uint64_t closed_pos;	/* by the closer: position of its start + 1 */
	/* (tag << 32) | records committed in cycle `tag`; written before
	 * records_base moves to that tag (see rb_cycle_records()). */
	_Atomic uint64_t cycle_records;
	/* rseq channels: commits made on the buffer's CPU, by plain adds in
	 * restartable sequences (I7); the consumer reads it atomically. */
	_Atomic uint64_t commit_local;
};

/* Per-CPU buffer control; followed by num_subbufs struct rb_subbuf_ctl. */
struct rb_cpu_ctl {
	/* Writer cache line. write_pos and last_ts are one 16-byte pair,
	 * always replaced together (I2, I4). */
	_Alignas(16) _Atomic uint64_t write_pos; /* next free position */
	_Atomic uint64_t last_ts;	/* timestamp of the reservation ending there */
	_Atomic uint64_t discarded;	/* reservations that failed (cumulative) */
	_Atomic uint64_t deliveries;	/* sub-buffers completed (read timer polls) */
	uint64_t pad0[4];
	/* Consumer cache line (writers touch it only in the slow path). */
	_Atomic uint64_t consumed;	/* start of the oldest unreleased sub-buffer */
	_Atomic uint64_t subbufs_lost;	/* overwrite: sub-buffers overwritten */
	_Atomic uint64_t records_lost;	/* overwrite: records in them */
	_Atomic uint64_t subbufs_corrupt; /* skipped: never fully committed */
	_Atomic uint64_t records_corrupt; /* committed records in those */
	/* Writers sleeping in rb_wait_room() for this buffer (blocking
	 * channels); the consumer wakes them when it releases a sub-buffer
	 * (Dekker pair: see rb_wait_room()). */
	_Atomic uint32_t writers_waiting;
	uint32_t pad2;
	uint64_t pad1[2];
	struct rb_subbuf_ctl sb[];
};

/* The layout is shared by processes that may be built apart (the tracer in
 * an application, the consumer, a recovery tool): pin it. Atomics in shared
 * memory must be lock-free (address-free). */
_Static_assert(sizeof(struct rb_shm_header) == 120, "rb_shm_header layout");
_Static_assert(sizeof(struct rb_cpu_ctl) == 128, "rb_cpu_ctl layout");
_Static_assert(sizeof(struct rb_subbuf_ctl) == 80, "rb_subbuf_ctl layout");
_Static_assert(offsetof(struct rb_cpu_ctl, last_ts) == 8, "the pair is 16 contiguous bytes");
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2,
	       "shared-memory atomics must be lock-free");

/* ---- clocks ---- */

/* CLOCK_MONOTONIC in ns (vDSO, no syscall). */
static inline uint64_t rb_clock_monotonic(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

#if defined(__x86_64__)
/* The time-stamp counter of the CPU this runs on. No ordering is needed
 * (I3 clamps what it returns); only constant, nonstop TSCs are used as a
 * clock (the session daemon checks). */
static inline uint64_t rb_clock_tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#define RB_HAVE_TSC 1
#endif

static inline uint64_t rb_clock_read(enum rb_clock clock)
{
#ifdef RB_HAVE_TSC
	if (clock == RB_CLOCK_TSC)
		return rb_clock_tsc();
#endif
	(void)clock;
	return rb_clock_monotonic();
}

/* ---- process-local objects ---- */

/*
 * Compile-time client hooks and constants. Pass the address of a `static
 * const` instance: rb_reserve() is always inlined, so the compiler calls (and
 * inlines) the hooks directly. The slow path and the consumer use the copy
 * kept in the channel.
 */
struct rb_client {
	/*
	 * NULL: timestamps come from the channel's clock (rb_clock_read()).
	 * Else the clock of atomic channels (a test's fake clock); any clock
	 * works, I3 clamps it. rseq channels always read the TSC.
	 */
	uint64_t (*clock_read)(void);
	/*
	 * Returns the bytes from position pos to the end of the record header
	 * of a record with timestamp ts, alignment padding before the header
	 * included; prev_ts is the timestamp the reader will hold before this
	 * record (previous record in the packet, or the packet's ts_begin;
	 * prev_ts <= ts): ts - prev_ts < 2^k allows a k-bit compact timestamp.
	 * Pure function of its arguments (the tracer calls it again with the
	 * values in struct rb_ctx to encode the header).
	 */
	size_t (*record_header_size)(uint64_t pos, uint64_t ts, uint64_t prev_ts);
	/*
	 * The short header the rseq fast path lays out itself: a record with
	 * ts - prev_ts < 2^short_ts_bits has a header of short_header_size
	 * bytes at the next multiple of header_align (a power of two), so that
	 * record_header_size(pos, ts, prev) == align_pad(pos, header_align) +
	 * short_header_size for those. Other records take the slow path.
	 */
	uint32_t header_align;
	uint32_t short_header_size;
	uint32_t short_ts_bits;		/* 1..63 */
};

/* The geometry as validated; a local copy, never re-read from the mapping. */
struct rb_geometry {
	uint32_t nr_cpus;
	uint32_t num_subbufs;
	uint64_t subbuf_size;
	uint32_t hdr_area_size;
	uint32_t cpu_ctl_stride;
	enum rb_mode mode;
	enum rb_clock clock;
	enum rb_sync sync;
	uint64_t ctl_offset;
	uint64_t data_offset;
	uint64_t total_size;
};

struct rb_consumer_cpu;

/* A mapped channel. Fields are read by the inline fast path; treat as opaque. */
struct rb_channel {
	char *base;		/* the mapping */
	uint64_t map_size;
	struct rb_geometry g;
	unsigned subbuf_order;	/* log2(S) */
	unsigned num_order;	/* log2(N) */
	uint64_t buf_mask;	/* N*S - 1 */
	const struct rb_client *client;
	int fd;			/* owned (rb_channel_create) or -1 */
	int wakeup_fd;		/* eventfd written when the consumer sleeps, or -1 */
	char *shm_file;		/* path of the file backing it, or NULL (memfd) */
	struct rb_consumer_cpu *ccpu; /* consumer-side state, lazily allocated */
};

/* What a reservation returns; see rb_reserve(). */
struct rb_ctx {
	uint64_t ts;		/* the record's timestamp */
	uint64_t prev_ts;	/* the previous reservation's (I4): the header's reference */
	uint64_t pos;		/* position of the slot start */
	char *rec;		/* address of the slot start (header padding first) */
	char *payload;		/* address of the payload (aligned) */
	struct rb_cpu_ctl *buf;
	uint32_t slot_size;	/* bytes from rec to the end of the payload */
	uint32_t cpu;
};

/* A sub-buffer handed to the consumer by rb_get_subbuf(). */
struct rb_packet {
	char *data;		/* start of the sub-buffer (header area first), in place */
	uint64_t pos;		/* its position (internal) */
	uint64_t seq_num;	/* per CPU buffer: pos / S */
	uint64_t ts_begin;	/* <= every record's timestamp in it */
	uint64_t ts_end;	/* >= every record's timestamp in it */
	uint64_t content_size;	/* bytes used, header area included */
	uint64_t packet_size;	/* S */
	uint64_t events_discarded; /* cumulative, non-decreasing per CPU buffer */
	uint64_t records;	/* records committed in it */
	uint32_t cpu;
};

/* Channel creation parameters. */
struct rb_config {
	uint64_t subbuf_size;	/* S: power of two, 4 KiB .. 64 MiB */
	uint32_t num_subbufs;	/* N: power of two, 2 .. 65536 */
	uint32_t hdr_area_size;	/* < S/2; rounded up to 4 (a CTF packet header is 84 bytes) */
	enum rb_mode mode;
	enum rb_clock clock;
	enum rb_sync sync;	/* RB_SYNC_RSEQ: discard mode, TSC clock, rb_rseq_usable() */
	uint32_t nr_cpus;	/* 0: sysconf(_SC_NPROCESSORS_CONF) */
	const char *shm_dir;	/* NULL: memfd; else a file is created in it */
	const char *name;	/* memfd / file name (file: must not exist) */
	const struct rb_client *client;
};

/* Counters of one CPU buffer, read live (see rb_buffer_stats()). */
struct rb_stats {
	uint64_t write_pos, consumed;
	uint64_t discarded;	/* reservations refused */
	uint64_t subbufs_lost, records_lost;	/* overwritten (overwrite mode) */
	uint64_t subbufs_corrupt, records_corrupt; /* skipped (dead writer) */
	uint64_t deliveries;
};

/* ---- setup (any context except the fast path; not async-signal-safe) ---- */

/*
 * rb_geometry_check - validates creation parameters.
 * Returns 0, or -EINVAL if a size is not a power of two, out of range, the
 * whole mapping would not fit in 2^47 bytes, or the clock, sync and mode do
 * not go together (rseq: discard mode and the TSC clock). Fills *ret_g on
 * success.
 */
int rb_geometry_check(const struct rb_config *cfg, struct rb_geometry *ret_g);

/*
 * rb_rseq_usable - whether the calling thread can run the restartable
 * sequences of rseq channels: an rseq build (x86_64, glibc >= 2.35, not
 * ThreadSanitizer) and rseq registered in this thread. Context: any.
 */
bool rb_rseq_usable(void);

/*
 * rb_header_validate - validates a mapping's header, never trusting it.
 * Context: any. Returns 0 and fills *ret_g if the header's magic, version and
 * geometry are consistent and the layout it implies fits in map_size bytes;
 * -EPROTO for a bad magic or version, -EINVAL for an inconsistent geometry,
 * -EMSGSIZE if the mapping is too small.
 */
int rb_header_validate(const void *map, uint64_t map_size, struct rb_geometry *ret_g);

/*
 * rb_channel_create - creates and maps a new channel (consumer side).
 * The channel owns the fd (rb_channel_fd()) and, with cfg->shm_dir, the file
 * (left in place by rb_channel_free() so that a crash can be recovered;
 * rb_channel_unlink() removes it). Returns 0, -EINVAL (geometry),
 * -EOPNOTSUPP (rseq asked of a build or thread without it), -EEXIST, or the
 * errno of memfd_create/open/ftruncate/mmap. Free with rb_channel_free().
 */
int rb_channel_create(const struct rb_config *cfg, struct rb_channel **ret_chan);

/*
 * rb_channel_map - maps a channel from an fd someone handed over (writer, or a
 * recovery tool). The fd is not kept (the caller still owns it). Validates
 * the header (see rb_header_validate()); returns its errors, or the errno of
 * fstat/mmap. client: the hooks the slow path uses, the same the caller passes
 * to rb_reserve(). Free with rb_channel_free().
 */
int rb_channel_map(int fd, const struct rb_client *client, struct rb_channel **ret_chan);

/* Unmaps, closes an owned fd; NULL is a no-op. */
void rb_channel_free(struct rb_channel *chan);

/* Removes the backing file of a channel created with shm_dir (else no-op). */
int rb_channel_unlink(struct rb_channel *chan);

/* The fd to hand to writers (owned by the channel), or -1 if mapped. */
int rb_channel_fd(const struct rb_channel *chan);

/*
 * Sets the eventfd the writers write to when the consumer sleeps; -1 unsets.
 * Writer side (each writer process sets the fd it received). Not owned.
 */
void rb_channel_set_wakeup_fd(struct rb_channel *chan, int fd);

/* Live counters of CPU buffer cpu (any context; relaxed reads). */
void rb_buffer_stats(const struct rb_channel *chan, unsigned cpu, struct rb_stats *ret);

/* ---- internal helpers of the inline fast path ---- */

static inline struct rb_cpu_ctl *rb_cpu(const struct rb_channel *chan, unsigned cpu)
{
	return (struct rb_cpu_ctl *)(chan->base + chan->g.ctl_offset +
				     (uint64_t)cpu * chan->g.cpu_ctl_stride);
}

static inline char *rb_data(const struct rb_channel *chan, unsigned cpu, uint64_t pos)
{
	return chan->base + chan->g.data_offset +
	       ((uint64_t)cpu << (chan->subbuf_order + chan->num_order)) +
	       (pos & chan->buf_mask);
}

static inline unsigned rb_subbuf_index(const struct rb_channel *chan, uint64_t pos)
{
	return (unsigned)(pos >> chan->subbuf_order) & (chan->g.num_subbufs - 1);
}

/* Cumulative bytes committed in the slot of pos once pos's cycle is
 * complete: (cycle + 1) * S, exact mod 2^64 (I5). */
static inline uint64_t rb_cycle_end(const struct rb_channel *chan, uint64_t pos)
{
	uint64_t cycle = pos >> (chan->subbuf_order + chan->num_order);

	return (cycle + 1) << chan->subbuf_order;
}

/* Whether commit count w (the sum of the slot's commit words) completes the
 * cycle of pos (I5). */
static inline bool rb_commit_complete(const struct rb_channel *chan, uint64_t pos, uint64_t w)
{
	return ((w - rb_cycle_end(chan, pos)) & RB_COMMIT_BYTES_MASK) == 0;
}

/* The pair {write_pos, last_ts} of a buffer. */
struct rb_pair {
	uint64_t pos, ts;
};

/*
 * Replaces the pair by desired if it equals *expect (16-byte CAS, a full
 * barrier: acquire and release). On failure *expect gets the current pair.
 * Atomic channels only (on rseq channels only sequences on the buffer's CPU
 * store into it, I7).
 */
static inline bool rb_pair_cas(struct rb_cpu_ctl *buf, struct rb_pair *expect,
			       struct rb_pair desired)
{
	typedef unsigned __int128 rb_u128;
	rb_u128 e = (rb_u128)expect->ts << 64 | expect->pos;
	rb_u128 v;

#ifdef RB_TSAN
	/*
	 * ThreadSanitizer runs 16-byte atomics under a lock of its own, which
	 * other processes do not take: the instruction itself, and the
	 * acquire and release it is, told to TSan on the pair's address (the
	 * same address its loads acquire from).
	 */
	uint64_t lo = expect->pos, hi = expect->ts;

	__tsan_release((void *)&buf->write_pos);
	__asm__ volatile("lock cmpxchg16b %[pair]"
			 : "+a"(lo), "+d"(hi), [pair] "+m"(*(rb_u128 *)(void *)&buf->write_pos)
			 : "b"(desired.pos), "c"(desired.ts)
			 : "memory", "cc");
	__tsan_acquire((void *)&buf->write_pos);
	v = (rb_u128)hi << 64 | lo;
#else
	v = __sync_val_compare_and_swap((rb_u128 *)(void *)&buf->write_pos, e,
					 (rb_u128)desired.ts << 64 | desired.pos);
#endif
	if (v == e)
		return true;
	expect->pos = (uint64_t)v;
	expect->ts = (uint64_t)(v >> 64);
	return false;
}

/*
 * A guess of the pair, for a CAS or an rseq comparison that checks it.
 * write_pos is loaded first (acquire orders the second load after it):
 * every replacement changes write_pos, so a check that finds write_pos
 * unchanged also proves last_ts was not replaced after it was loaded.
 */
static inline struct rb_pair rb_pair_load(struct rb_cpu_ctl *buf)
{
	struct rb_pair p;

	p.pos = atomic_load_explicit(&buf->write_pos, memory_order_acquire);
	p.ts = atomic_load_explicit(&buf->last_ts, memory_order_relaxed);
	return p;
}

/* A CPU number valid for the channel: the current CPU (from glibc's rseq
 * area when registered, else sched_getcpu()), folded into nr_cpus. Any value
 * is correct on atomic channels; the current CPU avoids contention. */
static inline unsigned rb_current_cpu(const struct rb_channel *chan)
{
	int cpu;

#ifdef RB_HAVE_RSEQ
	struct rseq *rs = rb_rseq_area();

	if (likely(rs)) {
		uint32_t c = rb_rseq_cpu(rs);

		if (likely(c < chan->g.nr_cpus))
			return c;
	}
#endif
	cpu = sched_getcpu();
	if (unlikely(cpu < 0))
		cpu = 0;
	return (unsigned)cpu < chan->g.nr_cpus ? (unsigned)cpu
					       : (unsigned)cpu % chan->g.nr_cpus;
}

int rb_reserve_slow(const struct rb_client *cl, struct rb_channel *chan, unsigned cpu,
		    size_t len, size_t align, struct rb_ctx *ctx);
int rb_reserve_rseq_slow(const struct rb_client *cl, struct rb_channel *chan, size_t len,
			 size_t align, struct rb_ctx *ctx);
int rb_refuse(struct rb_channel *chan, int err);
void rb_deliver_slow(struct rb_channel *chan, struct rb_cpu_ctl *buf);
/* Wakes the writers waiting for room in buf (consumer, after a release). */
void rb_wake_writers(struct rb_cpu_ctl *buf);

static inline void rb_ctx_fill(struct rb_channel *chan, unsigned cpu, struct rb_cpu_ctl *buf,
			       uint64_t start, uint64_t end, size_t len, uint64_t ts,
			       uint64_t prev, struct rb_ctx *ctx)
{
	ctx->ts = ts;
	ctx->prev_ts = prev;
	ctx->pos = start;
	ctx->rec = rb_data(chan, cpu, start);
	ctx->payload = ctx->rec + (end - len - start);
	ctx->buf = buf;
	ctx->slot_size = (uint32_t)(end - start);
	ctx->cpu = cpu;
}

/* Now, on the clock of a writer of chan with client cl: the client's, or
 * (clock_read NULL) the channel's (rb_clock_read()). */
static inline uint64_t rb_clock_now(const struct rb_client *cl, const struct rb_channel *chan)
{
	return cl->clock_read ? cl->clock_read() : rb_clock_read(chan->g.clock);
}

/* ---- writer fast path ---- */

/*
 * rb_reserve_on - reserves a record slot in CPU buffer cpu of an atomic
 * channel (a writer may use any buffer: tests simulate migrations with it).
 * Context: writer (any thread, signal handler). Lock-free; wait-free unless
 * another writer of the same buffer wins the CAS (then retries). No syscall,
 * no allocation.
 * cl: the client hooks, a constant (see struct rb_client); the payload is
 * len bytes aligned to align (a power of two <= 4096, relative to the
 * sub-buffer start).
 * Returns 0 and fills *ctx: the caller writes the header at ctx->rec (as
 * cl->record_header_size(ctx->pos, ctx->ts, ctx->prev_ts) sized it) and
 * the payload at ctx->payload, then must call rb_commit() (else the
 * sub-buffer is never delivered; see rb_skip_subbuf()).
 * -ENOBUFS: discard mode with the consumer behind, or overwrite mode with the
 * oldest sub-buffer still being written; -E2BIG: the record cannot fit in a
 * sub-buffer; -EINVAL: align not a power of two <= 4096, an rseq channel, or
 * cpu >= nr_cpus. Every error but the bad cpu (which has no buffer) is
 * counted in the buffer's discarded counter, which ends up in a later
 * packet's events_discarded.
 */
__attribute__((always_inline)) static inline int
rb_reserve_on(const struct rb_client *cl, struct rb_channel *chan, unsigned cpu, size_t len,
	      size_t align, struct rb_ctx *ctx)
{
	const uint64_t sbsize = chan->g.subbuf_size;
	struct rb_cpu_ctl *buf;
	struct rb_pair cur;
	uint64_t ts, start, end;

	if (unlikely(cpu >= chan->g.nr_cpus))
		return -EINVAL;
	if (unlikely(len >= sbsize || align > 4096 || !is_pow2(align) ||
		     chan->g.sync != RB_SYNC_ATOMIC))
		return rb_reserve_slow(cl, chan, cpu, len, align, ctx); /* counts it */
	buf = rb_cpu(chan, cpu);
	cur = rb_pair_load(buf);
	for (;;) {
		ts = rb_clock_now(cl, chan);
		/* I3: never before the reservation we follow (cur.ts, I4). */
		if (unlikely(ts < cur.ts))
			ts = cur.ts;
		if (unlikely((cur.pos & (sbsize - 1)) == 0))
			goto slow;	/* sub-buffer not opened yet */
		start = cur.pos;
		end = align_up(start + cl->record_header_size(start, ts, cur.ts), align) + len;
		/* >=: a record ending exactly at the boundary closes the
		 * sub-buffer, which the slow path does. */
		if (unlikely(end - (cur.pos & ~(sbsize - 1)) >= sbsize))
			goto slow;
		/* Full barrier; on failure cur is the pair that won (I2). */
		if (likely(rb_pair_cas(buf, &cur, (struct rb_pair){ end, ts })))
			break;
	}
	rb_ctx_fill(chan, cpu, buf, start, end, len, ts, cur.ts, ctx);
	return 0;
slow:
	return rb_reserve_slow(cl, chan, cpu, len, align, ctx);
}

/*
 * rb_reserve - reserves a record slot in the buffer of the CPU the caller
 * runs on (any CPU's on atomic channels, that CPU's own on rseq channels).
 * Same contract as rb_reserve_on(), plus -EOPNOTSUPP (counted): an rseq
 * channel and the calling thread cannot run its sequences (rseq not
 * registered in it, or a build without them: see rb_rseq_usable()).
 * On rseq channels the fast path is one restartable sequence with no
 * LOCK-prefixed instruction (rb_rseq_reserve()).
 */
__attribute__((always_inline)) static inline int
rb_reserve(const struct rb_client *cl, struct rb_channel *chan, size_t len, size_t align,
	   struct rb_ctx *ctx)
{
	if (likely(chan->g.sync == RB_SYNC_ATOMIC))
		return rb_reserve_on(cl, chan, rb_current_cpu(chan), len, align, ctx);
#ifdef RB_HAVE_RSEQ
	const uint64_t sbsize = chan->g.subbuf_size;
	struct rseq *rs = rb_rseq_area();
	struct rb_rseq_reserve_args a;
	uint64_t old, prev, ts, end;
	uint32_t cpu;

	if (unlikely(!rs || len >= sbsize || align > 4096 || !is_pow2(align)))
		return rb_reserve_rseq_slow(cl, chan, len, align, ctx); /* counts it */
	a = (struct rb_rseq_reserve_args){
		.hdr_mask = cl->header_align - 1, .hdr_nmask = ~(uint64_t)(cl->header_align - 1),
		.hdr_size = cl->short_header_size, .pay_mask = align - 1,
		.pay_nmask = ~(uint64_t)(align - 1), .len = len,
		.ts_limit = 1ull << cl->short_ts_bits, .sb_mask = sbsize - 1,
	};
	for (;;) {
		enum rb_rseq_result r;

		cpu = rb_rseq_cpu(rs);
		if (unlikely(cpu >= chan->g.nr_cpus))
			return rb_reserve_rseq_slow(cl, chan, len, align, ctx);
		r = rb_rseq_reserve(rs, cpu, (uint64_t *)&rb_cpu(chan, cpu)->write_pos, &a, &old,
				    &prev, &ts, &end);
		if (likely(r == RB_RSEQ_DONE))
			break;
		if (r == RB_RSEQ_CHANGED)	/* open, close, or a long header */
			return rb_reserve_rseq_slow(cl, chan, len, align, ctx);
		/* moved or interrupted: again, on whatever CPU we are now */
	}
	rb_ctx_fill(chan, cpu, rb_cpu(chan, cpu), old, end, len, ts, prev, ctx);
	return 0;
#else
	return rb_refuse(chan, -EOPNOTSUPP);
#endif
}

/*
 * Blocking writers (channels with a blocking timeout, discard mode): a
 * writer that may wait for room instead of dropping its record calls
 * rb_try_reserve(), which is rb_reserve() except that a full buffer is not
 * counted: it returns -EAGAIN. The writer then waits with rb_wait_room()
 * (holding nothing: no reservation, no lock) and tries again, or gives up
 * and counts the record with rb_discard(), so that every record is still
 * either committed or counted once (exact accounting).
 */

/*
 * rb_try_reserve - as rb_reserve(), out of line, but -EAGAIN (not counted)
 * when the buffer of the CPU the caller runs on has no room (the consumer is
 * behind); ctx->cpu then names that CPU, for rb_wait_room() and
 * rb_discard(). Other errors are counted as rb_reserve() counts them.
 * Context: writer.
 */
int rb_try_reserve(const struct rb_client *cl, struct rb_channel *chan, size_t len,
		   size_t align, struct rb_ctx *ctx);

/*
 * rb_wait_room - sleeps until the consumer released a sub-buffer of CPU
 * buffer cpu, or timeout_ns passed, or at once if there is room now.
 * Context: a writer holding no reservation; not in the consumer. A futex
 * wait on the buffer's consumed position (shared between processes), woken
 * by rb_wake_writers(); a spurious or early return is harmless (the caller
 * tries again). Returns 0 (woken or room), -ETIMEDOUT, -EINVAL.
 */
int rb_wait_room(struct rb_channel *chan, unsigned cpu, uint64_t timeout_ns);

/*
 * rb_discard - counts one record dropped by a writer (after rb_try_reserve()
 * said -EAGAIN and it gave up), in CPU buffer cpu's discarded counter.
 * Context: writer.
 */
void rb_discard(struct rb_channel *chan, unsigned cpu);

/*
 * rb_commit - publishes a reserved slot.
 * Context: the writer that reserved it (or any thread it handed ctx to);
 * never blocks; a syscall (eventfd write) only if this completes a
 * sub-buffer while the consumer sleeps.
 * Atomic channels, or a writer of an rseq channel that is no longer on the
 * buffer's CPU: an atomic add (release: every store into the slot, and for
 * the last commit of a sub-buffer its packet info, happens before the count
 * that may make the sub-buffer complete; pairs with the acquire loads in
 * rb_oldest()). rseq channels on the buffer's CPU: a plain add in a
 * restartable sequence (rb_rseq_add(): the same ordering from x86's TSO).
 * Whoever sees the sum complete delivers it; two commits racing on both
 * words may both miss it (no fence between the add and the other word's
 * load): the consumer's read timer, and a writer that finds the buffer
 * full, deliver it then (see doc, "rseq channels").
 */
__attribute__((always_inline)) static inline void rb_commit(struct rb_channel *chan,
							      const struct rb_ctx *ctx)
{
	struct rb_subbuf_ctl *sb = &ctx->buf->sb[rb_subbuf_index(chan, ctx->pos)];
	uint64_t add = RB_COMMIT_RECORD + ctx->slot_size, v, other = 0;

#ifdef RB_HAVE_RSEQ
	if (chan->g.sync == RB_SYNC_RSEQ) {
		struct rseq *rs = rb_rseq_area();

		if (likely(rs) && likely(rb_rseq_add(rs, ctx->cpu, (uint64_t *)&sb->commit_local,
						     add, &v) == RB_RSEQ_DONE)) {
			/* Relaxed: a hint for the delivery only. */
			other = atomic_load_explicit(&sb->commit, memory_order_relaxed);
			if (unlikely(rb_commit_complete(chan, ctx->pos, v + other)))
				rb_deliver_slow(chan, ctx->buf);
			return;
		}
	}
#endif
	v = atomic_fetch_add_explicit(&sb->commit, add, memory_order_release) + add;
	if (chan->g.sync == RB_SYNC_RSEQ)	/* relaxed: a hint, as above */
		other = atomic_load_explicit(&sb->commit_local, memory_order_relaxed);
	if (unlikely(rb_commit_complete(chan, ctx->pos, v + other)))
		rb_deliver_slow(chan, ctx->buf);
}

/* ---- consumer side ---- */

enum rb_flush_flags {
	RB_FLUSH_EMPTY = 1,	/* also produce an empty packet if none is open */
};

/*
 * rb_flush - closes the open sub-buffer of CPU buffer cpu (writers go on in
 * the next one). Context: consumer (or a stopping writer); lock-free. On
 * rseq channels the calling thread runs on CPU cpu for the duration.
 * With RB_FLUSH_EMPTY, an empty packet (header area only) is produced when no
 * sub-buffer is open, so that a quiet CPU still produces packets.
 * Returns 1 if a sub-buffer was closed, 0 if there was nothing to close,
 * -ENOBUFS if an empty packet was asked for but there is no room; on rseq
 * channels also -EOPNOTSUPP (this thread cannot run rseq) or the errno of
 * sched_setaffinity (the caller may not run on CPU cpu).
 * The closed sub-buffer becomes readable once its writers committed.
 */
int rb_flush(struct rb_channel *chan, unsigned cpu, unsigned flags);

/*
 * rb_get_subbuf - takes the oldest closed, fully committed sub-buffer of
 * CPU buffer cpu. Context: consumer.
 * Returns 0 and fills *pkt (data in place; the consumer may write its packet
 * header into the header area), then rb_put_subbuf() must follow;
 * -EAGAIN: nothing closed; -EBUSY: the oldest is closed but not fully
 * committed (a writer in progress, or dead: see rb_skip_subbuf());
 * -EBADMSG: its packet info is inconsistent (corrupt mapping; skip it).
 */
int rb_get_subbuf(struct rb_channel *chan, unsigned cpu, struct rb_packet *pkt);

/*
 * rb_put_subbuf - releases the sub-buffer taken by rb_get_subbuf().
 * Returns 0; in overwrite mode -ESTALE if writers overwrote it meanwhile
 * (counted in subbufs_lost: the consumer must drop what it read).
 */
int rb_put_subbuf(struct rb_channel *chan, const struct rb_packet *pkt);

/*
 * rb_skip_subbuf - gives up on the oldest sub-buffer of CPU buffer cpu that
 * rb_get_subbuf() reports -EBUSY (or -EBADMSG) for: marks it complete,
 * counts it (subbufs_corrupt, records_corrupt) and releases it so writers
 * can reuse it. Context: consumer, only once the missing writer is known dead
 * or timed out (a writer that commits after this would corrupt the slot's
 * count: see doc). Returns 0, -EAGAIN if there is no such sub-buffer, or
 * (rseq channels) rb_flush()'s errors.
 */
int rb_skip_subbuf(struct rb_channel *chan, unsigned cpu);

/*
 * rb_consumer_tick - the consumer's timer helper; call it periodically.
 * Context: consumer. now_ns: the consumer's clock (any monotonic clock).
 * switch_ns (0: off): every switch_ns, rb_flush(RB_FLUSH_EMPTY) each buffer.
 * stuck_ns (0: off): a sub-buffer reported -EBUSY for at least stuck_ns is
 * skipped (rb_skip_subbuf()). Returns the number of CPU buffers that have a
 * readable sub-buffer (the read timer: drain when > 0), or -ENOMEM.
 */
int rb_consumer_tick(struct rb_channel *chan, uint64_t now_ns, uint64_t switch_ns,
		     uint64_t stuck_ns);

/*
 * rb_consumer_prepare_sleep - announces that the consumer is about to wait on
 * the wake-up eventfd. Returns 1 if a sub-buffer is readable (do not sleep;
 * the flag is cleared), 0 if the consumer may sleep; after waking call
 * rb_consumer_woken(). Context: consumer. The wait must be bounded by the
 * read timer: a completion can go unannounced (see rb_commit()).
 */
int rb_consumer_prepare_sleep(struct rb_channel *chan);
void rb_consumer_woken(struct rb_channel *chan);

/*
 * rb_snapshot - copies out every complete sub-buffer of CPU buffer cpu that
 * is still in the buffer, oldest first, without stopping writers and without
 * consuming (overwrite mode's flight recorder; works in both modes).
 * Flushes the open sub-buffer first. For each sub-buffer that is consistent
 * after the copy, calls fn(pkt, arg) with pkt->data pointing into scratch
 * (S bytes, caller's); fn returns 0 to go on, non-zero to stop (returned).
 * Sub-buffers overwritten during the copy are counted in *ret_overwritten,
 * incomplete ones (writers in progress or dead) in *ret_incomplete.
 * Returns 0, fn's non-zero value, or -EINVAL.
 * Relies on x86 TSO ordering for the copy check (see doc "Snapshot").
 */
int rb_snapshot(struct rb_channel *chan, unsigned cpu, void *scratch,
		int (*fn)(const struct rb_packet *pkt, void *arg), void *arg,
		uint64_t *ret_overwritten, uint64_t *ret_incomplete);

/*
 * rb_snapshot_newest - rb_snapshot() of the newest max_subbufs sub-buffers
 * at most (0: all); the older ones are left out (a snapshot's size limit).
 */
int rb_snapshot_newest(struct rb_channel *chan, unsigned cpu, uint64_t max_subbufs,
		       void *scratch, int (*fn)(const struct rb_packet *pkt, void *arg),
		       void *arg, uint64_t *ret_overwritten, uint64_t *ret_incomplete);

#endif /* LTT_RINGBUF_H */
