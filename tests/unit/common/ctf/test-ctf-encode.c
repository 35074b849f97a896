/* Tests of the stream-data encoding: bits, alignment, headers, framing. */
#include <errno.h>

#include "ctf/ctf.h"
#include "ltt-test.h"

static const uint8_t uuid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

static struct ctf_type *named(const char *n)
{
	struct ctf_type *t = NULL;

	ASSERT_OK(ctf_type_by_name(n, &t));
	return t;
}

static struct ctf_type *bits_t(unsigned size, bool sgn)
{
	struct ctf_int_params p = { .size = size, .align = 1, .is_signed = sgn };
	struct ctf_type *t = NULL;

	ASSERT_OK(ctf_type_int_create(&p, &t));
	return t;
}

/* Validates struct st as an event payload of a throwaway trace. */
static struct ctf_trace *with_payload(struct ctf_type *st, const struct ctf_event_class **ec,
				      enum ctf_byte_order bo)
{
	struct ctf_clock_desc c = { .name = "monotonic", .freq = 1000000000 };
	struct ctf_event_class_desc d = { .name = "e", .id = 0 };
	struct ctf_error err = { { 0 } };
	struct ctf_trace *t = NULL;

	ASSERT_OK(ctf_trace_create(uuid, bo, &t));
	ASSERT_OK(ctf_trace_add_clock(t, &c, &err));
	ASSERT_OK(ctf_trace_add_stream_class(t, 0, CTF_HEADER_COMPACT, "monotonic", NULL,
					     &err, NULL));
	if (ctf_trace_add_event_class(t, &d, st, &err, ec) < 0)
		test_fail(__FILE__, __LINE__, "%s", err.msg);
	return t;
}

TEST(bit_writers_le_and_be)
{
	uint8_t b[16] = { 0 };

	/* LE: a 3-bit then a 5-bit field share a byte, low bits first. */
	ctf_bits_write_le(b, 0, 3, 5);
	ctf_bits_write_le(b, 3, 5, 0x1f);
	ASSERT_EQ_HEX(b[0], 0xfd);
	/* A 12-bit field across two bytes at bit offset 12. */
	ctf_bits_write_le(b, 12, 12, 0xabc);
	ASSERT_EQ_HEX(b[1], 0xc0);
	ASSERT_EQ_HEX(b[2], 0xab);
	/* Aligned whole bytes: little-endian order. */
	ctf_bits_write_le(b, 32, 32, 0x11223344);
	ASSERT_EQ_HEX(b[4], 0x44);
	ASSERT_EQ_HEX(b[7], 0x11);
	/* BE: most significant bits first. */
	memset(b, 0, sizeof(b));
	ctf_bits_write_be(b, 0, 16, 0x1f90);
	ASSERT_EQ_HEX(b[0], 0x1f);
	ASSERT_EQ_HEX(b[1], 0x90);
	ctf_bits_write_be(b, 16, 3, 5);
	ctf_bits_write_be(b, 19, 5, 1);
	ASSERT_EQ_HEX(b[2], 0xa1);
	ctf_bits_write_be(b, 24, 64, 0x0102030405060708ULL);
	ASSERT_EQ_HEX(b[3], 0x01);
	ASSERT_EQ_HEX(b[10], 0x08);
	/* A full 64-bit value at an odd bit offset keeps every bit. */
	memset(b, 0, sizeof(b));
	ctf_bits_write_le(b, 5, 64, UINT64_MAX);
	ASSERT_EQ_HEX(b[0], 0xe0);
	for (int i = 1; i < 8; i++)
		ASSERT_EQ_HEX(b[i], 0xff);
	ASSERT_EQ_HEX(b[8], 0x1f);
}

TEST(u8_then_u64_pads_7_bytes_from_packet_start)
{
	struct ctf_type *p;
	const struct ctf_event_class *ec;
	struct ctf_trace *t;
	uint8_t buf[64] = { 0 };
	struct ctf_cursor c = { buf, 0, sizeof(buf) * 8 };
	struct ctf_value v[] = { CTF_U64(0xaa), CTF_U64(0x1122334455667788ULL) };

	ASSERT_OK(ctf_type_struct_create(0, &p));
	ASSERT_OK(ctf_type_struct_add(p, "a", named("uint8_t")));
	ASSERT_OK(ctf_type_struct_add(p, "b", named("uint64_t")));
	t = with_payload(p, &ec, CTF_BO_LE);
	ASSERT_EQ_INT(ec->payload->align, 64);
	ASSERT_OK(ctf_serialize_struct(&c, CTF_BO_LE, ec->payload, v, 2));
	ASSERT_EQ_U64(c.off, 128);
	ASSERT_EQ_HEX(buf[0], 0xaa);
	for (int i = 1; i < 8; i++)
		ASSERT_EQ_HEX(buf[i], 0);
	ASSERT_EQ_HEX(buf[8], 0x88);
	ASSERT_EQ_HEX(buf[15], 0x11);
	/* Alignment is from the packet start, not from where the struct began:
	 * starting at byte 3, the struct aligns to 8 first, then no padding. */
	memset(buf, 0, sizeof(buf));
	c.off = 24;
	ASSERT_OK(ctf_serialize_struct(&c, CTF_BO_LE, ec->payload, v, 2));
	ASSERT_EQ_U64(c.off, 64 + 128);
	ASSERT_EQ_HEX(buf[8], 0xaa);
	ASSERT_EQ_HEX(buf[16], 0x88);
	ctf_trace_free(t);
}

TEST(bitfields_pack_and_strings_align_8)
{
	struct ctf_type *p;
	const struct ctf_event_class *ec;
	struct ctf_trace *t;
	uint8_t buf[32] = { 0 };
	struct ctf_cursor c = { buf, 0, sizeof(buf) * 8 };
	struct ctf_value v[] = { CTF_U64(5), CTF_S64(-1), CTF_U64(1), CTF_STR("hi"),
				 CTF_U64(0x7f) };

	ASSERT_OK(ctf_type_struct_create(0, &p));
	ASSERT_OK(ctf_type_struct_add(p, "a", bits_t(3, false)));
	ASSERT_OK(ctf_type_struct_add(p, "b", bits_t(4, true)));
	ASSERT_OK(ctf_type_struct_add(p, "c", bits_t(2, false)));
	ASSERT_OK(ctf_type_struct_add(p, "s", named("string")));
	ASSERT_OK(ctf_type_struct_add(p, "d", bits_t(7, false)));
	t = with_payload(p, &ec, CTF_BO_LE);
	ASSERT_EQ_INT(ec->payload->align, 8);	/* the string's */
	ASSERT_OK(ctf_serialize_struct(&c, CTF_BO_LE, ec->payload, v, ARRAY_SIZE(v)));
	/* a=101, b=1111, c=01 packed from bit 0: byte0 = 1 1111 101, byte1 bit0 = 0 */
	ASSERT_EQ_HEX(buf[0], 0xfd);
	ASSERT_EQ_HEX(buf[1], 0x00);
	/* c's high bit is bit 8 (0 for value 1); c = 0b01: bit 7 of byte 0 = 1 */
	/* the string starts at the next byte boundary (bit 16) */
	ASSERT_EQ_MEM(buf + 2, "hi", 3);
	/* d right after the string's NUL, no padding (align 1) */
	ASSERT_EQ_HEX(buf[5], 0x7f);
	ASSERT_EQ_U64(c.off, 5 * 8 + 7);
	ctf_trace_free(t);
}

TEST(serializer_checks_values_and_undoes_on_error)
{
	struct ctf_type *p, *s, *e;
	const struct ctf_event_class *ec;
	struct ctf_trace *t;
	uint8_t buf[64], zero[64] = { 0 };
	struct ctf_cursor c = { buf, 3, sizeof(buf) * 8 };
	struct ctf_value list[2] = { CTF_S64(1), CTF_S64(2) };

	ASSERT_OK(ctf_type_struct_create(0, &p));
	ASSERT_OK(ctf_type_struct_add(p, "i8", named("int8_t")));
	ASSERT_OK(ctf_type_struct_add(p, "n", named("uint8_t")));
	ASSERT_OK(ctf_type_sequence_create(named("int16_t"), "n", &s));
	ASSERT_OK(ctf_type_struct_add(p, "seq", s));
	ASSERT_OK(ctf_type_enum_create(named("uint8_t"), &e));
	ASSERT_OK(ctf_type_enum_add(e, "A", 0, 3));
	ASSERT_OK(ctf_type_struct_add(p, "en", e));
	t = with_payload(p, &ec, CTF_BO_LE);

#define TRY(expect, ...)                                                       \
	do {                                                                   \
		struct ctf_value v_[] = { __VA_ARGS__ };                       \
		memset(buf, 0, sizeof(buf));                                   \
		buf[0] = 0x5; /* 3 bits already used before the payload */     \
		c.off = 3;                                                     \
		ASSERT_EQ_INT(ctf_serialize_struct(&c, CTF_BO_LE, ec->payload, v_, \
						   ARRAY_SIZE(v_)), expect);   \
		if ((expect) < 0) {                                            \
			ASSERT_EQ_U64(c.off, 3);                               \
			ASSERT_EQ_HEX(buf[0], 0x5);                            \
			ASSERT_EQ_MEM(buf + 1, zero + 1, sizeof(buf) - 1);     \
		}                                                              \
	} while (0)

	TRY(0, CTF_S64(-128), CTF_U64(2), CTF_LIST(list, 2), CTF_U64(200));
	/* The struct aligns as its most aligned member (int16_t): from bit 3 to
	 * 16, then i8, n, two int16 and the enum: 16 + 8 + 8 + 32 + 8. */
	ASSERT_EQ_U64(c.off, 72);
	TRY(-ERANGE, CTF_S64(-129), CTF_U64(2), CTF_LIST(list, 2), CTF_U64(0));
	TRY(-ERANGE, CTF_U64(128), CTF_U64(2), CTF_LIST(list, 2), CTF_U64(0));
	TRY(-ERANGE, CTF_S64(0), CTF_S64(-1), CTF_LIST(list, 2), CTF_U64(0));
	TRY(-ERANGE, CTF_S64(0), CTF_U64(2), CTF_LIST(list, 2), CTF_U64(256));
	/* Wrong kinds. */
	TRY(-EINVAL, CTF_DOUBLE(0), CTF_U64(2), CTF_LIST(list, 2), CTF_U64(0));
	TRY(-EINVAL, CTF_S64(0), CTF_U64(2), CTF_STR("x"), CTF_U64(0));
	/* A sequence whose count is not its length field's value. */
	TRY(-EINVAL, CTF_S64(0), CTF_U64(3), CTF_LIST(list, 2), CTF_U64(0));
	/* The wrong number of fields. */
	TRY(-EINVAL, CTF_S64(0), CTF_U64(2), CTF_LIST(list, 2));
	/* Too small a buffer. */
	c.cap = 40;
	TRY(-ENOSPC, CTF_S64(1), CTF_U64(2), CTF_LIST(list, 2), CTF_U64(1));
	ctf_trace_free(t);
}

TEST(floats_and_big_endian_trace)
{
	struct ctf_type *p;
	const struct ctf_event_class *ec;
	struct ctf_trace *t;
	uint8_t buf[32] = { 0 };
	struct ctf_cursor c = { buf, 0, sizeof(buf) * 8 };
	struct ctf_value v[] = { CTF_DOUBLE(-2.0), CTF_DOUBLE(1.0), CTF_U64(0x0102) };

	ASSERT_OK(ctf_type_struct_create(0, &p));
	ASSERT_OK(ctf_type_struct_add(p, "f", named("float")));
	ASSERT_OK(ctf_type_struct_add(p, "d", named("double")));
	ASSERT_OK(ctf_type_struct_add(p, "u", named("uint16_t")));
	t = with_payload(p, &ec, CTF_BO_BE);
	ASSERT_OK(ctf_serialize_struct(&c, CTF_BO_BE, ec->payload, v, 3));
	/* -2.0f = 0xc0000000, big-endian; the double is 64-bit aligned. */
	ASSERT_EQ_HEX(buf[0], 0xc0);
	ASSERT_EQ_HEX(buf[3], 0x00);
	ASSERT_EQ_HEX(buf[8], 0x3f);
	ASSERT_EQ_HEX(buf[9], 0xf0);
	ASSERT_EQ_HEX(buf[16], 0x01);
	ASSERT_EQ_HEX(buf[17], 0x02);
	ctf_trace_free(t);
}

TEST(compact_header_choice_and_escape)
{
	const uint64_t k27 = UINT64_C(1) << 27;

	/* Exact iff 0 <= ts - last < 2^27 and id <= 30. */
	ASSERT_FALSE(ctf_event_header_extended(CTF_HEADER_COMPACT, 30, 100, 100));
	ASSERT_FALSE(ctf_event_header_extended(CTF_HEADER_COMPACT, 0, k27 - 1, 0));
	ASSERT_TRUE(ctf_event_header_extended(CTF_HEADER_COMPACT, 0, k27, 0));
	ASSERT_TRUE(ctf_event_header_extended(CTF_HEADER_COMPACT, 31, 100, 100));
	ASSERT_TRUE(ctf_event_header_extended(CTF_HEADER_COMPACT, 0, 99, 100));
	/* Crossing a 2^27 boundary by a small delta stays compact. */
	ASSERT_FALSE(ctf_event_header_extended(CTF_HEADER_COMPACT, 1, 5 * k27 + 2,
					       5 * k27 - 3));
	/* Sizes: 32 bits; extended: 5 bits, pad to 64, u32 id, pad, u64 ts. */
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_COMPACT, CTF_LAYOUT_NATURAL, 84 * 8, false), 88 * 8);
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_COMPACT, CTF_LAYOUT_NATURAL, 84 * 8, true), 104 * 8);
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_COMPACT, CTF_LAYOUT_NATURAL, 81 * 8 + 1, false), 88 * 8);
	/* From byte 88: id 31 at 88, u32 id at 96, u64 timestamp at 104. */
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_COMPACT, CTF_LAYOUT_NATURAL, 88 * 8, true), 112 * 8);

	uint8_t b[64] = { 0 };

	ASSERT_EQ_U64(ctf_event_header_write(b, 0, CTF_HEADER_COMPACT, CTF_LAYOUT_NATURAL, CTF_BO_LE, 3,
					     (k27 * 7) | 0x123456, false), 32);
	/* id in bits 0-4, timestamp low 27 bits in 5-31. */
	{
		uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			     (uint32_t)b[3] << 24;

		ASSERT_EQ_HEX(w & 31, 3);
		ASSERT_EQ_HEX(w >> 5, 0x123456);
	}
	memset(b, 0, sizeof(b));
	ASSERT_EQ_U64(ctf_event_header_write(b, 32, CTF_HEADER_COMPACT, CTF_LAYOUT_NATURAL, CTF_BO_LE, 40,
					     0x1122334455667788ULL, true), 192);
	ASSERT_EQ_HEX(b[4], 31);
	ASSERT_EQ_HEX(b[8], 40);	/* u32 id at the next 64-bit boundary */
	ASSERT_EQ_HEX(b[16], 0x88);	/* u64 timestamp */
	ASSERT_EQ_HEX(b[23], 0x11);
}

TEST(large_header_choice_and_escape)
{
	const uint64_t k32 = UINT64_C(1) << 32;
	uint8_t b[64] = { 0 };

	ASSERT_FALSE(ctf_event_header_extended(CTF_HEADER_LARGE, 65534, k32 - 1, 0));
	ASSERT_TRUE(ctf_event_header_extended(CTF_HEADER_LARGE, 65535, 0, 0));
	ASSERT_TRUE(ctf_event_header_extended(CTF_HEADER_LARGE, 0, k32, 0));
	ASSERT_FALSE(ctf_event_header_extended(CTF_HEADER_LARGE, 31, 1000, 0));
	/* u16 id, u32 timestamp aligned to 32: 8 bytes from an aligned start. */
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_LARGE, CTF_LAYOUT_NATURAL, 0, false), 64);
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_LARGE, CTF_LAYOUT_NATURAL, 16, false), 64);
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_LARGE, CTF_LAYOUT_NATURAL, 0, true), 128 + 64);
	ASSERT_EQ_U64(ctf_event_header_write(b, 16, CTF_HEADER_LARGE, CTF_LAYOUT_NATURAL, CTF_BO_LE, 0x1234,
					     0xaabbccdd, false), 64);
	ASSERT_EQ_HEX(b[2], 0x34);
	ASSERT_EQ_HEX(b[3], 0x12);
	ASSERT_EQ_HEX(b[4], 0xdd);
	ASSERT_EQ_HEX(b[7], 0xaa);
	memset(b, 0, sizeof(b));
	ASSERT_EQ_U64(ctf_event_header_write(b, 0, CTF_HEADER_LARGE, CTF_LAYOUT_NATURAL, CTF_BO_LE, 70000,
					     5, true), 192);
	ASSERT_EQ_HEX(b[0], 0xff);
	ASSERT_EQ_HEX(b[1], 0xff);
	ASSERT_EQ_HEX(b[8] | b[9] << 8 | b[10] << 16, 70000);
	ASSERT_EQ_HEX(b[16], 5);
}

TEST(packed_headers_as_lttng_on_x86)
{
	uint8_t b[64] = { 0 };

	/* Large: u16 id then u32 timestamp at any byte: 6 bytes; extended:
	 * 65535, u32 id, u64 timestamp: 14 bytes. */
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_LARGE, CTF_LAYOUT_PACKED, 85 * 8, false),
		      91 * 8);
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_LARGE, CTF_LAYOUT_PACKED, 85 * 8, true),
		      99 * 8);
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_LARGE, CTF_LAYOUT_PACKED, 84 * 8 + 3, false),
		      91 * 8);
	/* Compact: 5 + 27 bits: 4 bytes; extended: 5 bits, the next byte, u32
	 * id, u64 timestamp: 13 bytes. */
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_COMPACT, CTF_LAYOUT_PACKED, 85 * 8, false),
		      89 * 8);
	ASSERT_EQ_U64(ctf_event_header_end(CTF_HEADER_COMPACT, CTF_LAYOUT_PACKED, 85 * 8, true),
		      98 * 8);
	ASSERT_EQ_U64(ctf_event_header_write(b, 8, CTF_HEADER_LARGE, CTF_LAYOUT_PACKED, CTF_BO_LE,
					     0x1234, 0xaabbccdd, false), 56);
	ASSERT_EQ_HEX(b[1], 0x34);
	ASSERT_EQ_HEX(b[2], 0x12);
	ASSERT_EQ_HEX(b[3], 0xdd);
	ASSERT_EQ_HEX(b[6], 0xaa);
	memset(b, 0, sizeof(b));
	ASSERT_EQ_U64(ctf_event_header_write(b, 8, CTF_HEADER_LARGE, CTF_LAYOUT_PACKED, CTF_BO_LE,
					     70000, 0x1122334455667788ULL, true), 15 * 8);
	ASSERT_EQ_HEX(b[1] & b[2], 0xff);
	ASSERT_EQ_HEX(b[3] | b[4] << 8 | b[5] << 16, 70000);
	ASSERT_EQ_HEX(b[7], 0x88);
	ASSERT_EQ_HEX(b[14], 0x11);
	memset(b, 0, sizeof(b));
	ASSERT_EQ_U64(ctf_event_header_write(b, 8, CTF_HEADER_COMPACT, CTF_LAYOUT_PACKED,
					     CTF_BO_LE, 40, 0x1122334455667788ULL, true), 14 * 8);
	ASSERT_EQ_HEX(b[1] & 31, 31);
	ASSERT_EQ_HEX(b[2], 40);	/* u32 id at the next byte */
	ASSERT_EQ_HEX(b[6], 0x88);	/* u64 timestamp right after */
	ASSERT_EQ_HEX(b[13], 0x11);
}

TEST(packet_header_layout)
{
	struct ctf_packet_info pi = {
		.ts_begin = 0x1111, .ts_end = 0x2222, .content_size = 800,
		.packet_size = 4096 * 8, .seq_num = 7, .events_discarded = 9,
		.cpu_id = 3, .stream_id = 2, .stream_instance_id = 0x55,
	};
	uint8_t b[128];

	memset(b, 0xee, sizeof(b));
	ASSERT_EQ_U64(ctf_packet_header_write(b, uuid, CTF_BO_LE, &pi), 84);
	ASSERT_EQ_U64(CTF_PACKET_HEADER_SIZE, 84);
	ASSERT_EQ_HEX(b[0] | b[1] << 8 | b[2] << 16 | (uint64_t)b[3] << 24, 0xC1FC1FC1);
	ASSERT_EQ_MEM(b + 4, uuid, 16);
	ASSERT_EQ_HEX(b[20], 2);	/* stream_id */
	ASSERT_EQ_HEX(b[24], 0x55);	/* stream_instance_id */
	ASSERT_EQ_HEX(b[32] | b[33] << 8, 0x1111);
	ASSERT_EQ_HEX(b[40] | b[41] << 8, 0x2222);
	ASSERT_EQ_HEX(b[48] | b[49] << 8, 800);
	ASSERT_EQ_HEX(b[56] | b[57] << 8 | b[58] << 16, 4096 * 8);
	ASSERT_EQ_HEX(b[64], 7);
	ASSERT_EQ_HEX(b[72], 9);
	ASSERT_EQ_HEX(b[80], 3);
	ASSERT_EQ_HEX(b[84], 0xee);	/* nothing written past the context */
	ctf_packet_header_write(b, uuid, CTF_BO_BE, &pi);
	ASSERT_EQ_HEX(b[0], 0xc1);
	ASSERT_EQ_HEX(b[3], 0xc1);
	ASSERT_EQ_HEX(b[83], 3);
}

TEST(packetized_metadata_framing)
{
	static char text[10000];
	size_t need, room = 4096 - 37;
	uint8_t *out;
	long n;

	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + i % 26);
	need = ctf_metadata_packetized_size(sizeof(text), 4096);
	ASSERT_EQ_U64(need, 3 * 4096);
	out = malloc(need);
	ASSERT_EQ_INT(ctf_metadata_packetize(uuid, CTF_BO_LE, text, sizeof(text), 4096, out,
					     need - 1), -ENOSPC);
	n = ctf_metadata_packetize(uuid, CTF_BO_LE, text, sizeof(text), 4096, out, need);
	ASSERT_EQ_INT(n, 3 * 4096);
	for (int p = 0; p < 3; p++) {
		uint8_t *h = out + p * 4096;
		uint32_t magic, checksum, content, packet;
		size_t len = p < 2 ? room : sizeof(text) - 2 * room;

		memcpy(&magic, h, 4);
		memcpy(&checksum, h + 20, 4);
		memcpy(&content, h + 24, 4);
		memcpy(&packet, h + 28, 4);
		ASSERT_EQ_HEX(magic, 0x75D11D57);
		ASSERT_EQ_MEM(h + 4, uuid, 16);
		ASSERT_EQ_INT(checksum, 0);
		ASSERT_EQ_INT(content, (37 + len) * 8);
		ASSERT_EQ_INT(packet, 4096 * 8);
		ASSERT_EQ_INT(h[32] | h[33] | h[34], 0);	/* no compression/... */
		ASSERT_EQ_INT(h[35], 1);
		ASSERT_EQ_INT(h[36], 8);
		ASSERT_EQ_MEM(h + 37, text + p * room, len);
		for (size_t i = 37 + len; i < 4096; i++)
			ASSERT_EQ_INT(h[i], 0);
	}
	free(out);
	ASSERT_EQ_U64(ctf_metadata_packetized_size(0, 4096), 0);
	ASSERT_EQ_U64(ctf_metadata_packetized_size(1, 4096), 4096);
	ASSERT_EQ_U64(ctf_metadata_packetized_size(room, 4096), 4096);
	ASSERT_EQ_U64(ctf_metadata_packetized_size(room + 1, 4096), 8192);
}
