/*
 * ctf-rb-client.h - the ring-buffer client of CTF streams: records are CTF
 * events (LTTng's compact or large event header, then the payload) and each
 * sub-buffer starts with the room of a CTF packet header and context.
 *
 * The tracer passes these clients to rb_reserve() (inlined: the hooks are
 * compile-time constants) and writes each header with ctf_rb_write_header();
 * the consumer passes the same client to rb_channel_map() so that flushes
 * read the same clock.
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

	return (size_t)((ctf_event_header_end(kind, base, ext) - base) / 8);
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

static const struct rb_client ctf_rb_client_compact = { rb_clock_monotonic, ctf_rb_compact_size };
static const struct rb_client ctf_rb_client_large = { rb_clock_monotonic, ctf_rb_large_size };

/*
 * Writes the event header of a reserved record (ctx from rb_reserve() with
 * the client of `kind`; id within that form's short range). The payload
 * goes at ctx->payload.
 */
static inline void ctf_rb_write_header(const struct rb_ctx *ctx, enum ctf_header_kind kind,
				       uint32_t id)
{
	uint64_t base = (ctx->pos & 63) * 8;

	ctf_event_header_write((uint8_t *)ctx->rec - (ctx->pos & 63), base, kind, CTF_BO_LE, id,
			       ctx->ts, ctf_event_header_extended(kind, id, ctx->ts, ctx->prev_ts));
}

#endif /* LTT_CTF_RB_CLIENT_H */
