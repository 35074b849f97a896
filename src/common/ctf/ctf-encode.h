/*
 * ctf-encode.h - the bit-level rules of CTF 1.8 stream data, inline for the
 * tracer's fast path: bit writers, the packet header + context layout, and
 * LTTng's compact and large event headers with their escape.
 *
 * Offsets are in bits from the start of the packet: CTF aligns every field
 * relative to the packet start, so a writer that encodes into a sub-buffer
 * passes the sub-buffer start as `base`.
 *
 * Context: any (no allocation, no locks, no errors): callers have checked
 * that the bytes they write are inside their buffer, which starts zeroed
 * (bitfields are or-ed into partially written bytes).
 */
#ifndef LTT_CTF_ENCODE_H
#define LTT_CTF_ENCODE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ctf/ctf-trace.h"
#include "util/macros.h"

/* ---- bit writers ---- */

/*
 * Writes the low `len` bits (1..64) of v at bit offset `off`: little-endian
 * fields fill each byte from its least significant bit, big-endian ones
 * from its most significant bit (the CTF 1.8 / babeltrace convention).
 */
static inline void ctf_bits_write_le(uint8_t *base, uint64_t off, unsigned len,
				     uint64_t v)
{
	uint8_t *p = base + (off >> 3);

	if (likely((off & 7) == 0 && (len & 7) == 0)) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* Constant-size copies compile to single stores. */
		switch (len) {
		case 8: *p = (uint8_t)v; return;
		case 16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); return; }
		case 32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); return; }
		case 64: memcpy(p, &v, 8); return;
		default: memcpy(p, &v, len >> 3); return;
		}
#else
		for (unsigned i = 0; i < len >> 3; i++)
			p[i] = (uint8_t)(v >> (8 * i));
#endif
		return;
	}
	while (len) {
		unsigned shift = off & 7;
		unsigned n = 8 - shift < len ? 8 - shift : len;
		uint8_t mask = (uint8_t)(((1u << n) - 1) << shift);

		p = base + (off >> 3);
		*p = (uint8_t)((*p & ~mask) | (((unsigned)v << shift) & mask));
		v >>= n;
		off += n;
		len -= n;
	}
}

static inline void ctf_bits_write_be(uint8_t *base, uint64_t off, unsigned len,
				     uint64_t v)
{
	if (likely((off & 7) == 0 && (len & 7) == 0)) {
		uint8_t *p = base + (off >> 3);

		for (unsigned i = 0; i < len >> 3; i++)
			p[i] = (uint8_t)(v >> (len - 8 - 8 * i));
		return;
	}
	while (len) {
		unsigned shift = off & 7;
		unsigned n = 8 - shift < len ? 8 - shift : len;
		unsigned pos = 8 - shift - n;
		uint8_t bits = (uint8_t)((v >> (len - n)) & ((1u << n) - 1));
		uint8_t mask = (uint8_t)(((1u << n) - 1) << pos);
		uint8_t *p = base + (off >> 3);

		*p = (uint8_t)((*p & ~mask) | (bits << pos));
		off += n;
		len -= n;
	}
}

/* bo is CTF_BO_LE or CTF_BO_BE (resolve CTF_BO_NATIVE first). */
static inline void ctf_bits_write(uint8_t *base, uint64_t off, unsigned len,
				  uint64_t v, enum ctf_byte_order bo)
{
	if (bo == CTF_BO_BE)
		ctf_bits_write_be(base, off, len, v);
	else
		ctf_bits_write_le(base, off, len, v);
}

/* ---- packet header and context ---- */

#define CTF_PACKET_MAGIC 0xC1FC1FC1u

/*
 * The packet header (magic, uuid, stream_id, stream_instance_id) and
 * context (timestamp_begin, timestamp_end, content_size, packet_size,
 * packet_seq_num, events_discarded as unsigned long, cpu_id), naturally
 * aligned: byte offsets of the fields a writer patches when a packet ends.
 */
#define CTF_PACKET_OFF_TS_BEGIN 32
#define CTF_PACKET_OFF_TS_END 40
#define CTF_PACKET_OFF_CONTENT_SIZE 48
#define CTF_PACKET_OFF_PACKET_SIZE 56
#define CTF_PACKET_OFF_SEQ_NUM 64
#define CTF_PACKET_OFF_DISCARDED 72
#define CTF_PACKET_OFF_CPU_ID (72 + sizeof(unsigned long))
/* Bytes of header + context: where the first event header may start. */
#define CTF_PACKET_HEADER_SIZE (CTF_PACKET_OFF_CPU_ID + 4)

/* What a packet header and context say. Sizes in bits, as in CTF. */
struct ctf_packet_info {
	uint64_t ts_begin, ts_end;
	uint64_t content_size, packet_size;
	uint64_t seq_num;
	uint64_t events_discarded;	/* cumulative for the stream */
	uint32_t cpu_id;
	uint32_t stream_id;
	uint64_t stream_instance_id;
};

/*
 * Writes the packet header and context at dst (CTF_PACKET_HEADER_SIZE
 * bytes, dst being the packet start) in byte order bo; returns the size.
 * The consumer calls it on a sub-buffer; it may call it again with updated
 * ts_end/content_size/events_discarded at packet end.
 */
static inline size_t ctf_packet_header_write(void *dst, const uint8_t uuid[16],
					     enum ctf_byte_order bo,
					     const struct ctf_packet_info *pi)
{
	uint8_t *b = dst;

	ctf_bits_write(b, 0, 32, CTF_PACKET_MAGIC, bo);
	memcpy(b + 4, uuid, 16);
	ctf_bits_write(b, 20 * 8, 32, pi->stream_id, bo);
	ctf_bits_write(b, 24 * 8, 64, pi->stream_instance_id, bo);
	ctf_bits_write(b, CTF_PACKET_OFF_TS_BEGIN * 8, 64, pi->ts_begin, bo);
	ctf_bits_write(b, CTF_PACKET_OFF_TS_END * 8, 64, pi->ts_end, bo);
	ctf_bits_write(b, CTF_PACKET_OFF_CONTENT_SIZE * 8, 64, pi->content_size, bo);
	ctf_bits_write(b, CTF_PACKET_OFF_PACKET_SIZE * 8, 64, pi->packet_size, bo);
	ctf_bits_write(b, CTF_PACKET_OFF_SEQ_NUM * 8, 64, pi->seq_num, bo);
	ctf_bits_write(b, CTF_PACKET_OFF_DISCARDED * 8, 8 * sizeof(unsigned long),
		       pi->events_discarded, bo);
	ctf_bits_write(b, CTF_PACKET_OFF_CPU_ID * 8, 32, pi->cpu_id, bo);
	return CTF_PACKET_HEADER_SIZE;
}

/* ---- event headers ---- */

#define CTF_COMPACT_ID_MAX 30u		/* 31 = extended */
#define CTF_COMPACT_TS_BITS 27
#define CTF_LARGE_ID_MAX 65534u		/* 65535 = extended */
#define CTF_LARGE_TS_BITS 32

/*
 * Whether an event header needs the extended form: its id does not fit, or
 * its timestamp cannot be rebuilt from the reader's clock value `last_ts`
 * (the previous event's timestamp, or timestamp_begin for a packet's first
 * event). A reader takes a k-bit timestamp as the low bits of the clock and
 * adds 2^k when they went backwards, so k bits are exact iff
 * 0 <= ts - last_ts < 2^k. A timestamp below last_ts gets the full form.
 */
static inline bool ctf_event_header_extended(enum ctf_header_kind kind, uint32_t id,
					     uint64_t ts, uint64_t last_ts)
{
	if (kind == CTF_HEADER_COMPACT)
		return id > CTF_COMPACT_ID_MAX || ts < last_ts ||
		       ts - last_ts >= (UINT64_C(1) << CTF_COMPACT_TS_BITS);
	return id > CTF_LARGE_ID_MAX || ts < last_ts ||
	       ts - last_ts >= (UINT64_C(1) << CTF_LARGE_TS_BITS);
}

/*
 * Bit offset right after an event header that starts (unaligned) at off.
 * Natural layout: the header struct and each field at its own alignment
 * (the extended variant option is a struct { uint32_t id; uint64_t
 * timestamp; }, aligned as its largest member: 64 bits). Packed layout
 * (CTF_LAYOUT_PACKED, LTTng's on x86): the header at a byte boundary and
 * every field after the previous one, the extended struct at the next byte
 * boundary: large 6 or 14 bytes, compact 4 or 13.
 */
static inline uint64_t ctf_event_header_end(enum ctf_header_kind kind, enum ctf_layout layout,
					    uint64_t off, bool extended)
{
	if (layout == CTF_LAYOUT_PACKED) {
		off = align_up(off, 8);
		if (kind == CTF_HEADER_COMPACT)
			return extended ? off + 8 + 32 + 64 : off + 32;
		return extended ? off + 16 + 32 + 64 : off + 16 + 32;
	}
	if (kind == CTF_HEADER_COMPACT) {
		off = align_up(off, 32);
		if (!extended)
			return off + 32;
		off = align_up(off + 5, 64) + 32;	/* 5-bit id 31, uint32_t id */
		return align_up(off, 64) + 64;		/* uint64_t timestamp */
	}
	off = align_up(off, 16) + 16;			/* uint16_t id */
	if (!extended)
		return align_up(off, 32) + 32;		/* uint32_t timestamp */
	off = align_up(off, 64) + 32;			/* uint32_t id */
	return align_up(off, 64) + 64;			/* uint64_t timestamp */
}

/*
 * Writes an event header starting (unaligned) at bit off; returns the bit
 * offset after it (same as ctf_event_header_end). bo: CTF_BO_LE/BE.
 */
static inline uint64_t ctf_event_header_write(uint8_t *base, uint64_t off,
					      enum ctf_header_kind kind,
					      enum ctf_layout layout,
					      enum ctf_byte_order bo, uint32_t id,
					      uint64_t ts, bool extended)
{
	/* Alignment of the header, of its 32-bit and 64-bit fields. */
	const unsigned packed = layout == CTF_LAYOUT_PACKED;
	const uint64_t a_hdr = packed ? 8 : kind == CTF_HEADER_COMPACT ? 32 : 16;
	const uint64_t a32 = packed ? 8 : 32, a64 = packed ? 8 : 64;

	off = align_up(off, a_hdr);
	if (kind == CTF_HEADER_COMPACT) {
		if (!extended) {
			ctf_bits_write(base, off, 5, id, bo);
			ctf_bits_write(base, off + 5, 27, ts & ((UINT64_C(1) << 27) - 1), bo);
			return off + 32;
		}
		ctf_bits_write(base, off, 5, 31, bo);
		off = align_up(off + 5, a64);
	} else {
		if (!extended) {
			ctf_bits_write(base, off, 16, id, bo);
			off = align_up(off + 16, a32);
			ctf_bits_write(base, off, 32, (uint32_t)ts, bo);
			return off + 32;
		}
		ctf_bits_write(base, off, 16, 65535, bo);
		off = align_up(off + 16, a64);
	}
	ctf_bits_write(base, off, 32, id, bo);
	off = align_up(off + 32, a64);
	ctf_bits_write(base, off, 64, ts, bo);
	return off + 64;
}

#endif /* LTT_CTF_ENCODE_H */
