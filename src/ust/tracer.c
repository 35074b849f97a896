/*
 * tracer.c - the tracer interface the generated probes call
 * (ltt_ust_event_reserve / ltt_ust_event_commit, <ltt/tracepoint-types.h>)
 * and its one backend for now, the in-process recorder
 * (recorder-internal.h).
 *
 * Contexts: reserve and commit run in the probe: any thread, signal
 * handlers, nested (a signal handler tracing while the thread it
 * interrupted is between reserve and commit). Attach/detach run in the
 * control thread.
 *
 * Invariants:
 *  1. No lock, no allocation, no system call between reserve and commit.
 *  2. ctx->cursor only grows: each channel gets at most one record per
 *     probe call, in channel order.
 *  3. Recorder space is claimed by a compare-and-swap on head (relaxed: the
 *     claimed bytes are private to the claimer until commit); a record is
 *     published by the release store of its header's state, which pairs
 *     with the acquire load in ust_recorder_next(). head only grows, so a
 *     claimed region is never claimed twice.
 *  4. A reservation that does not fit is counted in discarded and never
 *     partially written: recorded + discarded = reservations attempted.
 *
 *  5. A tracer channel (slot) is a recorder or a ring-buffer channel of the
 *     session daemon (ust_tracer_attach_rb). Its record is a CTF event: the
 *     large event header with the event's id in that channel (struct
 *     ust_event_ids, published by the listener thread before the record
 *     can be needed: an event without an id for the slot's current key is
 *     not recorded there), then the payload at a packet offset that is a
 *     multiple of align. The ring buffer reserves on the calling thread's
 *     CPU, in restartable sequences on rseq channels (a thread without
 *     rseq has its events of those counted as discarded: ringbuf.h); the
 *     reservation lives in ctx->priv until commit.
 *  6. Slots and the mappings they point to are never freed while the
 *     process runs (a probe may still be inside one when it is detached):
 *     detaching only unpublishes.
 *  7. A slot with context fields (context-internal.h) reserves, after the
 *     event header, one block aligned to PROTO_CTX_STRUCT_ALIGN: the
 *     context fields, padding to the payload's alignment, the payload. A
 *     payload aligned more than that would be counted as discarded there
 *     (the session daemon describes no such type).
 *  8. Blocking slots (a blocking timeout, and the application allowed it:
 *     LTT_UST_ALLOW_BLOCKING or LTTNG_UST_ALLOW_BLOCKING): a writer that
 *     finds the buffer full waits for room (rb_wait_room()) holding no
 *     reservation and no lock, at most the timeout, re-checking every
 *     WAIT_ROUND_NS that the slot is still attached; then it records, or
 *     counts the record as discarded (rb_discard()): exact accounting
 *     holds. It never waits while its own thread holds a reservation in a
 *     blocking slot (a signal handler nested between reserve and commit:
 *     the sub-buffer it waits for could never complete): blocking_depth.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context-internal.h"
#include "ctf/ctf-rb-client.h"
#include "proto/context-types.h"
#include "recorder-internal.h"
#include "registry-internal.h"
#include "util/macros.h"

enum { REC_RESERVED = 0, REC_COMMITTED = 1 };

struct rec_hdr {
	_Atomic uint32_t state;		/* REC_* */
	uint32_t payload_off;		/* from the header's start */
	uint32_t total;			/* header + padding + payload, rounded to 8 */
	uint32_t len;			/* payload bytes */
	uint32_t align;			/* payload alignment asked by the probe */
	uint32_t reserved;
	const struct ltt_event_desc *desc;
};

struct ust_recorder {
	unsigned char *buf;		/* 64-byte aligned */
	size_t size;
	_Atomic uint64_t head;		/* bytes claimed */
	_Atomic uint64_t recorded;
	_Atomic uint64_t discarded;
};

#define REC_HDR_SIZE ((sizeof(struct rec_hdr) + 7) & ~(size_t)7)

enum slot_kind { SLOT_RECORDER = 1, SLOT_RING_BUFFER = 2 };

struct ust_slot {
	enum slot_kind kind;
	struct ust_recorder *rec;
	struct rb_channel *rb;
	uint64_t key;		/* the daemon's name of the ring-buffer channel */
	const struct ust_context *context;	/* its context fields, or NULL (inv. 7) */
	int64_t blocking_us;	/* 0: never wait; -1: for ever; else at most (inv. 8) */
};

/* Channel c's backend, or NULL. Acquire/release: the slot's fields before
 * its pointer. */
static struct ust_slot *_Atomic channels[UST_MAX_CHANNELS];

_Static_assert(sizeof(struct rb_ctx) <= 7 * sizeof(uint64_t) &&
		       _Alignof(struct rb_ctx) <= _Alignof(uint64_t), "rb_ctx fits in ctx->priv[0..6]");

static int attach(unsigned channel, struct ust_slot *slot)
{
	struct ust_slot *s;

	if (channel >= UST_MAX_CHANNELS)
		return -EINVAL;
	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	*s = *slot;
	/* Release: pairs with the acquire load in ltt_ust_event_reserve(). */
	atomic_store_explicit(&channels[channel], s, memory_order_release);
	return 0;
}

int ust_tracer_attach_rb(unsigned channel, struct rb_channel *rb, uint64_t key,
			 const struct ust_context *context, int64_t blocking_us)
{
	if (!rb || blocking_us < -1)
		return -EINVAL;
	return attach(channel, &(struct ust_slot){ .kind = SLOT_RING_BUFFER, .rb = rb, .key = key,
						   .context = context,
						   .blocking_us = blocking_us });
}

uint64_t ust_tracer_slot_key(unsigned channel)
{
	struct ust_slot *s = channel < UST_MAX_CHANNELS ?
		atomic_load_explicit(&channels[channel], memory_order_acquire) : NULL;

	return s && s->kind == SLOT_RING_BUFFER ? s->key : 0;
}

int ust_event_ids_set(const struct ltt_event_desc *desc, unsigned channel, uint64_t key,
		      uint32_t id)
{
	struct ust_event_ids *ids;

	if (channel >= UST_MAX_CHANNELS || id > UST_EVENT_ID_MAX || key >> 48)
		return -EINVAL;
	/* Acquire: pairs with the release below, from an earlier call. */
	ids = __atomic_load_n(&desc->state->ids, __ATOMIC_ACQUIRE);
	if (!ids) {
		ids = malloc(sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		for (unsigned c = 0; c < UST_MAX_CHANNELS; c++)
			ids->slot[c] = UST_EVENT_ID_NONE;
		/* Release: the initialized table before its pointer. */
		__atomic_store_n(&desc->state->ids, ids, __ATOMIC_RELEASE);
	}
	/* One atomic word: a probe sees the old or the new (key, id), never a mix. */
	__atomic_store_n(&ids->slot[channel], key << 16 | id, __ATOMIC_RELEASE);
	return 0;
}

bool ust_event_has_id(const struct ltt_event_desc *desc, unsigned channel, uint64_t key)
{
	struct ust_event_ids *ids = __atomic_load_n(&desc->state->ids, __ATOMIC_ACQUIRE);

	return ids && __atomic_load_n(&ids->slot[channel], __ATOMIC_ACQUIRE) >> 16 == key;
}

int ust_recorder_create(size_t size, struct ust_recorder **ret_rec)
{
	struct ust_recorder *rec;

	if (size < 64 || size > UINT32_MAX)
		return -EINVAL;
	rec = calloc(1, sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	rec->size = align_up(size, 64);
	rec->buf = aligned_alloc(64, rec->size);
	if (!rec->buf) {
		free(rec);
		return -ENOMEM;
	}
	memset(rec->buf, 0, rec->size);
	*ret_rec = rec;
	return 0;
}

void ust_recorder_free(struct ust_recorder *rec)
{
	if (!rec)
		return;
	free(rec->buf);
	free(rec);
}

void ust_recorder_clear(struct ust_recorder *rec)
{
	memset(rec->buf, 0, rec->size);
	atomic_store_explicit(&rec->head, 0, memory_order_relaxed);
	atomic_store_explicit(&rec->recorded, 0, memory_order_relaxed);
	atomic_store_explicit(&rec->discarded, 0, memory_order_relaxed);
}

int ust_tracer_attach_recorder(unsigned channel, struct ust_recorder *rec)
{
	if (!rec)
		return -EINVAL;
	return attach(channel, &(struct ust_slot){ .kind = SLOT_RECORDER, .rec = rec });
}

void ust_tracer_detach(unsigned channel)
{
	if (channel < UST_MAX_CHANNELS)
		atomic_store_explicit(&channels[channel], NULL, memory_order_release);
}

/* Claims space for one record; returns 0 or -ENOBUFS (counted). */
static int recorder_reserve(struct ust_recorder *rec, struct ltt_ust_ctx *ctx,
			    size_t len, size_t align)
{
	uint64_t old, start, payload, end;
	struct rec_hdr *h;

	old = atomic_load_explicit(&rec->head, memory_order_relaxed);
	do {
		start = old;
		payload = align_up(start + REC_HDR_SIZE, align);
		end = align_up(payload + len, 8);
		if (end > rec->size || end - start > UINT32_MAX) {
			atomic_fetch_add_explicit(&rec->discarded, 1, memory_order_relaxed);
			return -ENOBUFS;
		}
		/* Relaxed: the claimed bytes are ours alone until commit (inv. 3). */
	} while (!atomic_compare_exchange_weak_explicit(&rec->head, &old, end,
							memory_order_relaxed,
							memory_order_relaxed));
	h = (struct rec_hdr *)(void *)(rec->buf + start);
	h->payload_off = (uint32_t)(payload - start);
	h->total = (uint32_t)(end - start);
	h->len = (uint32_t)len;
	h->align = (uint32_t)align;
	h->desc = ctx->desc;
	ctx->data = (char *)rec->buf + payload;
	ctx->priv[1] = start;
	return 0;
}

/* Reservations this thread holds in blocking slots (inv. 8). */
static __thread unsigned blocking_depth __attribute__((tls_model("initial-exec")));

/* Re-check period of a waiting writer (inv. 8). */
#define WAIT_ROUND_NS (100 * 1000000ull)

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/*
 * Reserves in a blocking slot, waiting for room at most its timeout
 * (inv. 8). 0, or -ENOBUFS (counted).
 */
static int reserve_blocking(struct ust_slot *slot, unsigned c, size_t len, size_t align,
			    struct rb_ctx *rc)
{
	uint64_t deadline = 0, now;
	int r;

	for (;;) {
		r = rb_try_reserve(&ctf_rb_client_large, slot->rb, len, align, rc);
		if (r != -EAGAIN)
			return r < 0 ? -ENOBUFS : 0;	/* other errors: counted */
		now = now_ns();
		if (deadline == 0)	/* for ever: -1, or too far to tell apart */
			deadline = slot->blocking_us < 0 ||
						   (uint64_t)slot->blocking_us > (UINT64_MAX - now) / 1000u
					   ? UINT64_MAX
					   : now + (uint64_t)slot->blocking_us * 1000u;
		/* Acquire: as the probe's load of the slot (a detached one waits no more). */
		if (now >= deadline || blocking_depth ||
		    atomic_load_explicit(&channels[c], memory_order_acquire) != slot) {
			rb_discard(slot->rb, rc->cpu);
			return -ENOBUFS;
		}
		rb_wait_room(slot->rb, rc->cpu,
			     deadline - now < WAIT_ROUND_NS ? deadline - now : WAIT_ROUND_NS);
	}
}

/* Reserves a CTF event in a ring-buffer slot; 0, or -ENOENT/-ENOBUFS. */
static int rb_slot_reserve(struct ust_slot *slot, unsigned c, struct ltt_ust_ctx *ctx,
			   size_t len, size_t align)
{
	/* Acquire: pairs with the releases in ust_event_ids_set(). */
	struct ust_event_ids *ids = __atomic_load_n(&ctx->desc->state->ids, __ATOMIC_ACQUIRE);
	/* The reservation lives in the probe's scratch space until commit. */
	struct rb_ctx *rc = (struct rb_ctx *)(void *)ctx->priv;
	size_t context_len = 0;
	uint64_t packed;
	int r;

	if (!ids)
		return -ENOENT;
	packed = __atomic_load_n(&ids->slot[c], __ATOMIC_ACQUIRE);
	if (packed >> 16 != slot->key)
		return -ENOENT;	/* no id yet in this channel (inv. 5) */
	if (slot->context) {
		/* inv. 7: the context, then the payload at a fixed distance */
		if (unlikely(align > PROTO_CTX_STRUCT_ALIGN)) {
			rb_discard(slot->rb, rb_current_cpu(slot->rb));
			return -ENOBUFS;
		}
		context_len = align_up(ust_context_size(slot->context), align);
		len += context_len;
		align = PROTO_CTX_STRUCT_ALIGN;
	}
	if (slot->blocking_us)
		r = reserve_blocking(slot, c, len, align, rc);
	else
		r = rb_reserve(&ctf_rb_client_large, slot->rb, len, align, rc);
	if (r < 0)
		return -ENOBUFS;	/* counted by the ring buffer */
	ctf_rb_write_header(rc, CTF_HEADER_LARGE, (uint32_t)(packed & 0xffff));
	if (slot->context)
		ust_context_write(slot->context, rc->payload, rc->cpu,
				  ctx->struct_size >= offsetof(struct ltt_ust_ctx, ip) + sizeof(ctx->ip)
					  ? ctx->ip : NULL);
	ctx->data = rc->payload + context_len;
	blocking_depth += slot->blocking_us != 0;
	return 0;
}

LTT_EXPORT int ltt_ust_event_reserve(struct ltt_ust_ctx *ctx, size_t len, size_t align)
{
	const struct ltt_event_desc *desc = ctx->desc;
	uint64_t mask;

	/* probes built before ip was appended pass the shorter struct */
	if (unlikely(ctx->struct_size < offsetof(struct ltt_ust_ctx, ip) || !is_pow2(align)))
		return -EINVAL;
	if (ctx->cursor >= UST_MAX_CHANNELS)
		return -ENOENT;
	/* Acquire: pairs with the release store in publish_event(): the
	 * filter set published with these bits is visible. */
	mask = __atomic_load_n(&desc->state->channel_mask, __ATOMIC_ACQUIRE);
	mask &= ~UINT64_C(0) << ctx->cursor;
	while (mask) {
		unsigned c = (unsigned)__builtin_ctzll(mask);
		struct ust_slot *slot;
		int r;

		mask &= mask - 1;
		ctx->cursor = c + 1;
		if (ctx->filter_values && !ust_event_filter_pass(desc, c, ctx->filter_values))
			continue;
		/* Acquire: pairs with the release in attach(). */
		slot = atomic_load_explicit(&channels[c], memory_order_acquire);
		if (!slot)
			continue;
		if (likely(slot->kind == SLOT_RING_BUFFER))
			r = rb_slot_reserve(slot, c, ctx, len, align);
		else
			r = recorder_reserve(slot->rec, ctx, len, align);
		if (r == 0) {
			ctx->priv[7] = (uint64_t)(uintptr_t)slot;
			return 0;
		}
	}
	ctx->cursor = UST_MAX_CHANNELS;
	return -ENOENT;
}

LTT_EXPORT void ltt_ust_event_commit(struct ltt_ust_ctx *ctx)
{
	struct ust_slot *slot = (struct ust_slot *)(uintptr_t)ctx->priv[7];

	if (likely(slot->kind == SLOT_RING_BUFFER)) {
		rb_commit(slot->rb, (const struct rb_ctx *)(const void *)ctx->priv);
		blocking_depth -= slot->blocking_us != 0;
		return;
	}
	struct ust_recorder *rec = slot->rec;
	struct rec_hdr *h = (struct rec_hdr *)(void *)(rec->buf + ctx->priv[1]);

	atomic_fetch_add_explicit(&rec->recorded, 1, memory_order_relaxed);
	/* Release: the header and payload stores before the state that makes
	 * them readable; pairs with the acquire in ust_recorder_next(). */
	atomic_store_explicit(&h->state, REC_COMMITTED, memory_order_release);
}

int ust_recorder_next(struct ust_recorder *rec, size_t *cursor, struct ust_record *ret)
{
	uint64_t head = atomic_load_explicit(&rec->head, memory_order_acquire);
	const struct rec_hdr *h;

	if (*cursor >= head)
		return -ENOENT;
	h = (const struct rec_hdr *)(const void *)(rec->buf + *cursor);
	/* Acquire: pairs with the release in ltt_ust_event_commit(). */
	if (atomic_load_explicit(&h->state, memory_order_acquire) != REC_COMMITTED)
		return -EAGAIN;
	ret->desc = h->desc;
	ret->payload = rec->buf + *cursor + h->payload_off;
	ret->len = h->len;
	ret->align = h->align;
	ret->offset = *cursor + h->payload_off;
	*cursor += h->total;
	return 0;
}

void ust_recorder_counts(struct ust_recorder *rec, uint64_t *ret_recorded,
			 uint64_t *ret_discarded)
{
	*ret_recorded = atomic_load_explicit(&rec->recorded, memory_order_relaxed);
	*ret_discarded = atomic_load_explicit(&rec->discarded, memory_order_relaxed);
}
