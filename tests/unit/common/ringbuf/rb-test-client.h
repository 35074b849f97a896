/*
 * rb-test-client.h - a ring-buffer client for the tests, and a verifier.
 *
 * Record = header + payload, like CTF's compact event header:
 *   header: aligned 4; u32 = id (5 bits) | low 27 bits of ts << 5; id 31 is
 *           the escape: then, aligned 8, the full 64-bit timestamp.
 *   payload (aligned 8): struct tc_payload + `len` pseudo-random bytes.
 * The verifier decodes timestamps the way a CTF reader does (from the
 * packet's ts_begin, compact values extend the previous one), so it checks
 * that the compact/escape choice was exact, and checks every payload's
 * checksum, per-writer order, and counts.
 */
#ifndef RB_TEST_CLIENT_H
#define RB_TEST_CLIENT_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ringbuf/ringbuf.h"

#define TC_TS_BITS 27
#define TC_ESCAPE 31u
#define TC_HDR_AREA 64

/* A fake clock for deterministic tests: one shared counter, advanced by
 * tc_clock_step each read (1 unless a test sets bigger jumps). A single
 * RMW per read keeps it strictly monotonic across threads. */
static _Atomic uint64_t tc_fake_now = 1000;
static _Thread_local uint64_t tc_clock_step_tls;
static uint64_t tc_fake_clock(void)
{
	uint64_t step = tc_clock_step_tls ? tc_clock_step_tls : 1;

	return atomic_fetch_add_explicit(&tc_fake_now, step, memory_order_seq_cst) + step;
}

static size_t tc_header_size(uint64_t pos, uint64_t ts, uint64_t prev_ts)
{
	size_t pad = (size_t)align_pad(pos, 4);

	if (ts >= prev_ts && ts - prev_ts < (1ull << TC_TS_BITS))
		return pad + 4;
	return pad + 4 + (size_t)align_pad(pos + pad + 4, 8) + 8;
}

/* The short header: 4 bytes at a multiple of 4, for a 27-bit delta. */
static const struct rb_client tc_client_fake = { tc_fake_clock, tc_header_size, 4, 4,
						 TC_TS_BITS };
/* The channel's own clock (monotonic or TSC): what rseq channels use. */
static const struct rb_client tc_client_chan = { NULL, tc_header_size, 4, 4, TC_TS_BITS };

struct tc_payload {
	uint32_t writer;
	uint32_t seq;
	uint64_t ts;		/* the full timestamp, to check the header's */
	uint32_t len;		/* bytes of data after this struct */
	uint32_t csum;
};

static inline uint32_t tc_fnv(uint32_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 16777619u;
	return h;
}

static inline uint32_t tc_csum(const struct tc_payload *pl, const unsigned char *data)
{
	uint32_t h = 2166136261u;

	h = tc_fnv(h, &pl->writer, 4);
	h = tc_fnv(h, &pl->seq, 4);
	h = tc_fnv(h, &pl->ts, 8);
	h = tc_fnv(h, &pl->len, 4);
	return tc_fnv(h, data, pl->len);
}

/* Writes header and payload of a reserved record. */
static inline void tc_write(const struct rb_ctx *ctx, uint32_t id, uint32_t writer,
			    uint32_t seq, uint32_t len, uint64_t rnd)
{
	size_t hs = tc_header_size(ctx->pos, ctx->ts, ctx->prev_ts);
	size_t pad = (size_t)align_pad(ctx->pos, 4);
	char *h = ctx->rec + pad;
	struct tc_payload pl;
	unsigned char *data = (unsigned char *)ctx->payload + sizeof(pl);

	if (hs == pad + 4) {
		uint32_t w = (id & 31u) | (uint32_t)(ctx->ts << 5);

		memcpy(h, &w, 4);
	} else {
		uint32_t w = TC_ESCAPE;

		memcpy(h, &w, 4);
		memcpy(ctx->rec + hs - 8, &ctx->ts, 8);
	}
	for (uint32_t i = 0; i < len; i++) {
		rnd = rnd * 6364136223846793005ull + 1442695040888963407ull;
		data[i] = (unsigned char)(rnd >> 56);
	}
	pl.writer = writer;
	pl.seq = seq;
	pl.ts = ctx->ts;
	pl.len = len;
	pl.csum = tc_csum(&pl, data);
	memcpy(ctx->payload, &pl, sizeof(pl));
}

/* Reserve + write + commit of one test record; returns rb_reserve_on()'s value. */
#define TC_EMIT(client, chan, cpu, writer, seq, len, rnd)                              \
	({                                                                             \
		struct rb_ctx ctx_;                                                    \
		int r_ = rb_reserve_on(client, chan, cpu, sizeof(struct tc_payload) + (len), \
				    8, &ctx_);                                         \
		if (r_ == 0) {                                                         \
			tc_write(&ctx_, 1, writer, seq, len, rnd);                     \
			rb_commit(chan, &ctx_);                                        \
		}                                                                      \
		r_;                                                                    \
	})

/* Reserve on the caller's own CPU (rb_reserve(): an rseq channel's way). */
#define TC_EMIT_HERE(client, chan, writer, seq, len, rnd)                              \
	({                                                                             \
		struct rb_ctx ctx_;                                                    \
		int r_ = rb_reserve(client, chan, sizeof(struct tc_payload) + (len), 8, \
				    &ctx_);                                            \
		if (r_ == 0) {                                                         \
			tc_write(&ctx_, 1, writer, seq, len, rnd);                     \
			rb_commit(chan, &ctx_);                                        \
		}                                                                      \
		r_;                                                                    \
	})

/* Moves the calling thread to CPU cpu (mod the online CPUs); 0 or -errno. */
static inline int tc_run_on(unsigned cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % (unsigned)sysconf(_SC_NPROCESSORS_ONLN), &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? -errno : 0;
}

/* An rseq channel (TSC clock, discard mode) with a buffer per configured
 * CPU, or NULL (rb_channel_create() failed). */
static inline struct rb_channel *tc_make_rseq(uint64_t S, uint32_t N)
{
	struct rb_config c = {
		.subbuf_size = S, .num_subbufs = N, .hdr_area_size = TC_HDR_AREA,
		.mode = RB_MODE_DISCARD, .clock = RB_CLOCK_TSC, .sync = RB_SYNC_RSEQ,
		.name = "rseq", .client = &tc_client_chan,
	};
	struct rb_channel *chan = NULL;

	return rb_channel_create(&c, &chan) < 0 ? NULL : chan;
}

/* ---- verifier ---- */

struct tc_verifier {
	unsigned nwriters, ncpus;
	uint32_t max_seq;		/* seqs are < max_seq */
	int64_t *last_seq;		/* [writer * ncpus + cpu], -1: none */
	uint8_t *seen;			/* [writer * max_seq + seq] */
	uint64_t *recorded;		/* [writer] */
	uint64_t *last_ts;		/* [cpu]: decoded ts of the last record */
	uint64_t *last_pkt_end;		/* [cpu] */
	uint64_t *last_discarded;	/* [cpu]: last packet's events_discarded */
	int64_t *last_pkt_seq;		/* [cpu] */
	uint64_t total, packets, compact, escapes;
	char err[256];
};

static inline void tc_verifier_init(struct tc_verifier *v, unsigned nwriters, unsigned ncpus,
				    uint32_t max_seq)
{
	memset(v, 0, sizeof(*v));
	v->nwriters = nwriters;
	v->ncpus = ncpus;
	v->max_seq = max_seq;
	v->last_seq = malloc(sizeof(int64_t) * nwriters * ncpus);
	v->seen = calloc((size_t)nwriters * max_seq, 1);
	v->recorded = calloc(nwriters, sizeof(uint64_t));
	v->last_ts = calloc(ncpus, sizeof(uint64_t));
	v->last_pkt_end = calloc(ncpus, sizeof(uint64_t));
	v->last_discarded = calloc(ncpus, sizeof(uint64_t));
	v->last_pkt_seq = malloc(sizeof(int64_t) * ncpus);
	for (unsigned i = 0; i < nwriters * ncpus; i++)
		v->last_seq[i] = -1;
	for (unsigned i = 0; i < ncpus; i++)
		v->last_pkt_seq[i] = -1;
}

static inline void tc_verifier_free(struct tc_verifier *v)
{
	free(v->last_seq);
	free(v->seen);
	free(v->recorded);
	free(v->last_ts);
	free(v->last_pkt_end);
	free(v->last_discarded);
	free(v->last_pkt_seq);
}

#define TC_FAIL(v, ...)                                                                \
	do {                                                                           \
		snprintf((v)->err, sizeof((v)->err), __VA_ARGS__);                     \
		return -1;                                                             \
	} while (0)

/*
 * Checks one packet; returns 0 or -1 with v->err set. strict_seq: packets of
 * a CPU must have consecutive sequence numbers (discard mode, no skip).
 */
static inline int tc_verify_packet(struct tc_verifier *v, const struct rb_packet *pkt,
				   int strict_seq)
{
	uint64_t off = TC_HDR_AREA, cur = pkt->ts_begin, nrec = 0;
	unsigned cpu = pkt->cpu;

	if (cpu >= v->ncpus)
		TC_FAIL(v, "cpu %u out of range", cpu);
	if (pkt->content_size < TC_HDR_AREA || pkt->content_size > pkt->packet_size)
		TC_FAIL(v, "content_size %llu", (unsigned long long)pkt->content_size);
	if (pkt->ts_begin > pkt->ts_end)
		TC_FAIL(v, "ts_begin %llu > ts_end %llu", (unsigned long long)pkt->ts_begin,
			(unsigned long long)pkt->ts_end);
	if (pkt->ts_begin < v->last_pkt_end[cpu])
		TC_FAIL(v, "packet begins at %llu before the previous ended (%llu)",
			(unsigned long long)pkt->ts_begin,
			(unsigned long long)v->last_pkt_end[cpu]);
	if (pkt->events_discarded < v->last_discarded[cpu])
		TC_FAIL(v, "events_discarded went down");
	if (strict_seq && v->last_pkt_seq[cpu] >= 0 &&
	    (int64_t)pkt->seq_num != v->last_pkt_seq[cpu] + 1)
		TC_FAIL(v, "cpu %u packet seq %llu after %lld", cpu,
			(unsigned long long)pkt->seq_num, (long long)v->last_pkt_seq[cpu]);
	if ((int64_t)pkt->seq_num <= v->last_pkt_seq[cpu])
		TC_FAIL(v, "packet seq %llu not increasing", (unsigned long long)pkt->seq_num);
	while (off < pkt->content_size) {
		struct tc_payload pl;
		uint32_t w;
		uint64_t ts;
		const unsigned char *data;

		off = align_up(off, 4);
		if (off + 4 > pkt->content_size)
			TC_FAIL(v, "truncated header at %llu", (unsigned long long)off);
		memcpy(&w, pkt->data + off, 4);
		off += 4;
		if ((w & 31u) == TC_ESCAPE) {
			off = align_up(off, 8);
			memcpy(&ts, pkt->data + off, 8);
			off += 8;
			v->escapes++;
		} else {
			uint64_t low = w >> 5, mask = (1ull << TC_TS_BITS) - 1;

			ts = (cur & ~mask) | low;
			if (ts < cur)
				ts += 1ull << TC_TS_BITS;
			v->compact++;
		}
		off = align_up(off, 8);
		if (off + sizeof(pl) > pkt->content_size)
			TC_FAIL(v, "truncated payload at %llu", (unsigned long long)off);
		memcpy(&pl, pkt->data + off, sizeof(pl));
		off += sizeof(pl);
		if (pl.len > pkt->content_size - off)
			TC_FAIL(v, "payload length %u overruns at %llu", pl.len,
				(unsigned long long)off);
		data = (const unsigned char *)pkt->data + off;
		off += pl.len;
		if (pl.writer >= v->nwriters || pl.seq >= v->max_seq)
			TC_FAIL(v, "bad writer %u / seq %u", pl.writer, pl.seq);
		if (tc_csum(&pl, data) != pl.csum)
			TC_FAIL(v, "checksum of writer %u seq %u", pl.writer, pl.seq);
		if (ts != pl.ts)
			TC_FAIL(v, "decoded ts %llu != recorded %llu (writer %u seq %u)",
				(unsigned long long)ts, (unsigned long long)pl.ts, pl.writer,
				pl.seq);
		if (ts < v->last_ts[cpu] || ts < pkt->ts_begin || ts > pkt->ts_end)
			TC_FAIL(v, "ts %llu out of order (last %llu, packet %llu..%llu)",
				(unsigned long long)ts, (unsigned long long)v->last_ts[cpu],
				(unsigned long long)pkt->ts_begin, (unsigned long long)pkt->ts_end);
		if ((int64_t)pl.seq <= v->last_seq[pl.writer * v->ncpus + cpu])
			TC_FAIL(v, "writer %u seq %u after %lld on cpu %u", pl.writer, pl.seq,
				(long long)v->last_seq[pl.writer * v->ncpus + cpu], cpu);
		if (v->seen[(size_t)pl.writer * v->max_seq + pl.seq])
			TC_FAIL(v, "writer %u seq %u twice", pl.writer, pl.seq);
		v->seen[(size_t)pl.writer * v->max_seq + pl.seq] = 1;
		v->last_seq[pl.writer * v->ncpus + cpu] = pl.seq;
		v->last_ts[cpu] = ts;
		cur = ts;
		v->recorded[pl.writer]++;
		v->total++;
		nrec++;
	}
	if (nrec != pkt->records)
		TC_FAIL(v, "packet has %llu records, ring buffer counted %llu",
			(unsigned long long)nrec, (unsigned long long)pkt->records);
	v->last_pkt_end[cpu] = pkt->ts_end;
	v->last_discarded[cpu] = pkt->events_discarded;
	v->last_pkt_seq[cpu] = (int64_t)pkt->seq_num;
	v->packets++;
	return 0;
}

/* Drains every readable packet of every CPU; returns packets read or -1. */
static inline int tc_drain(struct rb_channel *chan, struct tc_verifier *v, int strict_seq)
{
	struct rb_packet pkt;
	int n = 0;

	for (unsigned cpu = 0; cpu < v->ncpus; cpu++) {
		while (rb_get_subbuf(chan, cpu, &pkt) == 0) {
			if (tc_verify_packet(v, &pkt, strict_seq) < 0)
				return -1;
			if (rb_put_subbuf(chan, &pkt) < 0) {
				snprintf(v->err, sizeof(v->err), "put failed");
				return -1;
			}
			n++;
		}
	}
	return n;
}

/* Closes every buffer and drains; then, if discards happened after the last
 * packet, produces an empty packet to carry them (what a consumer does at
 * stop). Returns 0 or -1. */
static inline int tc_final_drain(struct rb_channel *chan, struct tc_verifier *v, int strict_seq)
{
	for (unsigned cpu = 0; cpu < v->ncpus; cpu++)
		rb_flush(chan, cpu, 0);
	if (tc_drain(chan, v, strict_seq) < 0)
		return -1;
	for (unsigned cpu = 0; cpu < v->ncpus; cpu++) {
		struct rb_stats st;

		rb_buffer_stats(chan, cpu, &st);
		if (st.discarded > v->last_discarded[cpu]) {
			int r = rb_flush(chan, cpu, RB_FLUSH_EMPTY);

			if (r != 1) {
				rb_buffer_stats(chan, cpu, &st);
				snprintf(v->err, sizeof(v->err), "final empty flush of CPU %u: %d "
					 "(write_pos %llu, consumed %llu)", cpu, r,
					 (unsigned long long)st.write_pos,
					 (unsigned long long)st.consumed);
				return -1;
			}
		}
	}
	return tc_drain(chan, v, strict_seq) < 0 ? -1 : 0;
}

#endif /* RB_TEST_CLIENT_H */
