/*
 * ctf-rb-client.h - the ring-buffer client of CTF streams: records are CTF
 * events (LTTng's compact or large event header, then the payload) and each
 * sub-buffer starts with the room of a CTF packet header and context.
 *
 * Records are laid out in the host's layout (CTF_LAYOUT_HOST: packed on
 * x86, as LTTng's); the session daemon declares the same in the metadata.
 * The tracer passes these clients to rb_reserve() (inlined: the hooks are
 * compile-time constants) and writes each header with ctf_rb_write_header();
 * the consumer passes the same client to rb_channel_map(). Timestamps come
 * from the channel's clock (no clock hook).
 */
#ifndef LTT_CTF_RB_CLIENT_H
#define LTT_CTF_RB_CLIENT_H

#include "ctf/ctf-encode.h"
#include "ringbuf/ringbuf.h"

/* The header area of each sub-buffer: the CTF packet header and context. */
#define CTF_RB_HDR_AREA_SIZE CTF_PACKET_HEADER_SIZE

/*
 * Header size of a record at position pos (padding included). Only the
 * position's alignment matters: sub-buffers start at multiples of their
 * power-of-two size, so pos mod 64 is the offset mod 64 in the packet.
 */
static inline size_t ctf_rb_header_size(enum ctf_header_kind kind, uint32_t id, uint64_t pos,
					uint64_t ts, uint64_t prev_ts)
{
	uint64_t base = (pos & 63) * 8;
	bool ext = ctf_event_header_extended(kind, id, ts, prev_ts);

	return (size_t)((ctf_event_header_end(kind, CTF_LAYOUT_HOST, base, ext) - base) / 8);
}

/*
 * The hooks do not know the event id: they size the header for an id that
 * the short form holds, so these clients serve streams whose event ids stay
 * below 31 (compact) or 65535 (large): the session daemon assigns them so.
 */
static inline size_t ctf_rb_compact_size(uint64_t pos, uint64_t ts, uint64_t prev_ts)
{
	return ctf_rb_header_size(CTF_HEADER_COMPACT, 0, pos, ts, prev_ts);
}

static inline size_t ctf_rb_large_size(uint64_t pos, uint64_t ts, uint64_t prev_ts)
{
	return ctf_rb_header_size(CTF_HEADER_LARGE, 0, pos, ts, prev_ts);
}

/*
 * The short headers of the packed layout, at any byte: compact 4 bytes for
 * a 27-bit time delta, large 6 bytes for a 32-bit one (rseq channels, which
 * exist on x86 only, where the layout is packed).
 */
static const struct rb_client ctf_rb_client_compact = {
	.record_header_size = ctf_rb_compact_size,
	.header_align = 1, .short_header_size = 4, .short_ts_bits = CTF_COMPACT_TS_BITS,
};
static const struct rb_client ctf_rb_client_large = {
	.record_header_size = ctf_rb_large_size,
	.header_align = 1, .short_header_size = 6, .short_ts_bits = CTF_LARGE_TS_BITS,
};

/*
 * Writes the event header of a reserved record (ctx from rb_reserve() with
 * the client of `kind`; id within that form's short range). The payload
 * goes at ctx->payload.
 */
static inline void ctf_rb_write_header(const struct rb_ctx *ctx, enum ctf_header_kind kind,
				       uint32_t id)
{
	uint64_t base = (ctx->pos & 63) * 8;

	ctf_event_header_write((uint8_t *)ctx->rec - (ctx->pos & 63), base, kind, CTF_LAYOUT_HOST,
			       CTF_BO_LE, id, ctx->ts,
			       ctf_event_header_extended(kind, id, ctx->ts, ctx->prev_ts));
}

#endif /* LTT_CTF_RB_CLIENT_H */
