/*
 * test-reader.c - libltt-reader: TSDL parsing, bit-level decoding, clocks,
 * variants and sequences, and errors on bad input (in memory, no files).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ltt-test.h"
#include "reader/reader-internal.h"

static struct rd_meta *parse_ok(const char *text)
{
	struct rd_meta *m = NULL;
	char err[256];
	int r = rd_meta_parse(text, strlen(text), &m, err, sizeof(err));

	if (r != 0)
		test_fail(__FILE__, __LINE__, "parse failed: %d: %s", r, err);
	return m;
}

static int parse_err(const char *text, char *err, size_t len)
{
	struct rd_meta *m = NULL;
	int r = rd_meta_parse(text, strlen(text), &m, err, len);

	if (r == 0)
		rd_meta_free(m);
	return r;
}

#define U8 "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
#define U16 "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
#define U32 "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"

TEST(parses_types_names_and_meanings)
{
	struct rd_meta *m = parse_ok(
		"/* CTF 1.8 */\n" U8 U32
		"typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
		"trace { major = 1; minor = 8; byte_order = be; };\n"
		"clock { name = c; freq = 1000; offset = 2500; };\n"
		"typealias integer { size = 32; map = clock.c.value; } := ts_t;\n"
		"stream { id = 3; packet.context := struct { ts_t timestamp_begin; unsigned long events_discarded; uint32_t cpu_id; };\n"
		"  event.header := struct { uint8_t id; ts_t timestamp; }; };\n"
		"event { name = \"a:b\"; id = 7; stream_id = 3; loglevel = 13;\n"
		"  fields := struct { enum : uint8_t { X, Y = 5, Z, W = 10 ... 20 } _e; uint8_t _n; uint32_t _s[_n]; }; };\n");
	struct rd_stream_class *sc;
	struct rd_event_class *ec;
	struct rd_type *e, *pc;

	ASSERT_EQ_INT(m->bo, RD_BO_BE);
	ASSERT_EQ_INT(m->nclocks, 1);
	/* offset 2500 cycles at 1 kHz: normalized to 2 s + 500 cycles */
	ASSERT_EQ_INT(m->clocks[0].offset_s, 2);
	ASSERT_EQ_U64(m->clocks[0].offset, 500);
	ASSERT_EQ_INT(m->clocks[0].base_ns, 2500000000LL);
	sc = rd_meta_stream(m, 3);
	ASSERT_NOT_NULL(sc);
	ASSERT_TRUE(sc->has_discarded);
	ASSERT_EQ_INT(sc->clock, 0);
	ec = rd_stream_event(sc, 7);
	ASSERT_NOT_NULL(ec);
	ASSERT_EQ_INT(strcmp(ec->name, "a:b"), 0);
	ASSERT_EQ_INT(ec->loglevel, 13);
	/* native byte order resolved to the trace's */
	ASSERT_EQ_INT(ec->fields->members[1].type->bo, RD_BO_BE);
	e = ec->fields->members[0].type;
	ASSERT_EQ_INT(e->kind, RD_ENUM);
	ASSERT_EQ_INT(e->nmappings, 4);
	ASSERT_EQ_INT(e->mappings[2].ranges[0].lo, 6);	/* Z follows Y = 5 */
	ASSERT_EQ_INT(e->mappings[3].ranges[0].hi, 20);
	ASSERT_EQ_INT(strcmp(ec->fields->members[0].shown, "e"), 0);
	/* the sequence length resolved to its sibling */
	ASSERT_EQ_PTR(ec->fields->members[2].type->len.target, ec->fields->members[1].type);
	/* babeltrace2 hides the special packet context fields, keeps cpu_id */
	pc = sc->packet_context;
	ASSERT_TRUE(pc->members[0].type->hidden);
	ASSERT_TRUE(pc->members[1].type->hidden);
	ASSERT_FALSE(pc->members[2].type->hidden);
	ASSERT_EQ_INT(pc->nshown, 1);
	ASSERT_TRUE(sc->event_header->members[0].type->is_event_id);
	rd_meta_free(m);
}

TEST(reports_syntax_errors_with_their_line)
{
	char err[256];

	ASSERT_EQ_INT(parse_err(U8 "\nevent { name = x; fields := struct { nosuch a; }; };", err, sizeof(err)), -EPROTO);
	ASSERT_TRUE(strstr(err, "line 3") != NULL);
	ASSERT_TRUE(strstr(err, "nosuch") != NULL);
	ASSERT_EQ_INT(parse_err(U8 "event { name = x; fields := struct { uint8_t a[b]; }; };", err, sizeof(err)), -EPROTO);
	ASSERT_TRUE(strstr(err, "length") != NULL);
	ASSERT_EQ_INT(parse_err("typealias integer { size = 99; } := x;", err, sizeof(err)), -EPROTO);
	ASSERT_EQ_INT(parse_err("/* unterminated", err, sizeof(err)), -EPROTO);
	ASSERT_EQ_INT(parse_err("", err, sizeof(err)), -EPROTO);
}

TEST(refuses_exponential_type_copies)
{
	char text[4096] = U8 "typealias struct { uint8_t a; uint8_t b; } := t0;\n";
	char err[256];

	for (int i = 1; i < 30; i++) {
		size_t n = strlen(text);

		snprintf(text + n, sizeof(text) - n,
			 "typealias struct { t%d a; t%d b; } := t%d;\n", i - 1, i - 1, i);
	}
	ASSERT_EQ_INT(parse_err(text, err, sizeof(err)), -EPROTO);
	ASSERT_TRUE(strstr(err, "too many types") != NULL || strstr(err, "nested") != NULL);
}

/* One stream without header or context: the file is one packet of events. */
static const char bitmeta[] =
	"typealias integer { size = 3; align = 1; signed = true; } := i3;\n"
	"typealias integer { size = 5; align = 1; signed = false; } := u5;\n"
	"typealias integer { size = 16; align = 8; signed = true; byte_order = be; } := be16;\n"
	"clock { name = c; freq = 1000000000; };\n"
	"typealias integer { size = 8; align = 8; signed = false; map = clock.c.value; } := ts8;\n"
	"event { name = bits; fields := struct { ts8 t; i3 a; u5 b; be16 c; }; };\n";

static struct ltt_reader *open_mem(const char *meta, const uint8_t *data, size_t size,
				   char **err)
{
	struct ltt_reader *r = NULL;
	const uint8_t *bufs[1] = { data };
	size_t sizes[1] = { size };
	int ret = rd_reader_open_mem(meta, strlen(meta), bufs, sizes, 1, &r, err);

	return ret == 0 ? r : NULL;
}

TEST(decodes_bit_fields_byte_orders_and_wrapping_clocks)
{
	/* t=250, a=-3 (0b101), b=17 (0b10001): byte 0b10001101, c=-2 BE */
	const uint8_t data[] = { 250, 0x8d, 0xff, 0xfe, 5, 0x05, 0x00, 0x01 };
	char *err = NULL;
	struct ltt_reader *r = open_mem(bitmeta, data, sizeof(data), &err);
	const struct ltt_event *ev;
	const struct ltt_value *f;

	ASSERT_NOT_NULL(r);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	f = ltt_event_field(ev, "a");
	ASSERT_EQ_INT(ltt_value_i64(f), -3);
	ASSERT_EQ_INT(ltt_value_kind(f), LTT_VALUE_SIGNED);
	ASSERT_EQ_U64(ltt_value_u64(ltt_event_field(ev, "b")), 17);
	ASSERT_EQ_INT(ltt_value_i64(ltt_event_field(ev, "c")), -2);
	ASSERT_EQ_U64(ltt_event_cycles(ev), 250);
	ASSERT_NULL(ltt_event_field(ev, "t"));	/* clock-mapped: hidden, as babeltrace2 */
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	/* 5 after 250 on an 8-bit clock field: wrapped once */
	ASSERT_EQ_U64(ltt_event_cycles(ev), 256 + 5);
	ASSERT_EQ_INT(ltt_event_ns(ev), 261);
	ASSERT_EQ_INT(ltt_value_i64(ltt_event_field(ev, "a")), -3);	/* 0x05: a = 0b101 */
	ASSERT_EQ_INT(ltt_value_i64(ltt_event_field(ev, "c")), 1);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_END);
	ltt_reader_free(r);
	free(err);
}

TEST(truncated_event_is_an_error_naming_the_offset)
{
	const uint8_t data[] = { 1, 2, 3, 4, 9, 9 };	/* second event cut */
	char *err = NULL;
	struct ltt_reader *r = open_mem(bitmeta, data, sizeof(data), &err);
	const struct ltt_event *ev;

	ASSERT_NOT_NULL(r);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), -EBADMSG);
	ASSERT_TRUE(strstr(ltt_reader_errmsg(r), "(memory)/stream000: offset 4") != NULL);
	/* and it stays failed */
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), -EBADMSG);
	ltt_reader_free(r);
	free(err);
}

TEST(zero_size_events_do_not_loop)
{
	const char meta[] = "event { name = e; fields := struct { }; };\n";
	const uint8_t data[] = { 0 };
	char *err = NULL;
	struct ltt_reader *r = open_mem(meta, data, sizeof(data), &err);

	ASSERT_NULL(r);
	ASSERT_TRUE(err && strstr(err, "size zero") != NULL);
	free(err);
}

TEST(sequences_variants_and_strings)
{
	const char meta[] =
		"typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
		"event { name = e; fields := struct { enum : u8 { A, B = 7 } k; u8 n;"
		" variant <k> { u8 A; string B; } v; string s[n]; }; };\n";
	const uint8_t data[] = { 7, 2, 'h', 'i', 0, 'x', 0, 'y', 'z', 0,
				 0, 1, 42, 'q', 0 };
	char *err = NULL;
	struct ltt_reader *r = open_mem(meta, data, sizeof(data), &err);
	const struct ltt_event *ev;
	const struct ltt_value *v;
	size_t len;

	ASSERT_NOT_NULL(r);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	v = ltt_event_field(ev, "v");
	ASSERT_EQ_INT(ltt_value_kind(v), LTT_VALUE_VARIANT);
	ASSERT_EQ_INT(strncmp(ltt_value_string(ltt_value_child(v, 0), &len), "hi", 2), 0);
	ASSERT_EQ_INT(len, 2);
	v = ltt_event_field(ev, "s");
	ASSERT_EQ_INT(ltt_value_count(v), 2);
	ASSERT_EQ_INT(strncmp(ltt_value_string(ltt_value_child(v, 1), &len), "yz", 2), 0);
	ASSERT_EQ_INT(strcmp(ltt_value_enum_label(ltt_event_field(ev, "k"), 0), "B"), 0);
	ASSERT_NULL(ltt_value_enum_label(ltt_event_field(ev, "k"), 1));
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	ASSERT_EQ_U64(ltt_value_u64(ltt_value_child(ltt_event_field(ev, "v"), 0)), 42);
	ASSERT_EQ_INT(ltt_value_count(ltt_event_field(ev, "s")), 1);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_END);
	ltt_reader_free(r);
	free(err);
}

TEST(absurd_sequence_length_is_an_error)
{
	const char meta[] =
		"typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
		"event { name = e; fields := struct { u32 n; struct { } s[n]; }; };\n";
	const uint8_t data[] = { 0xff, 0xff, 0xff, 0x7f };
	char *err = NULL;
	struct ltt_reader *r = open_mem(meta, data, sizeof(data), &err);

	ASSERT_NULL(r);
	ASSERT_TRUE(err && strstr(err, "too many fields") != NULL);
	free(err);
}

TEST(packetized_metadata_is_unpacked)
{
	const char text[] = "typealias integer { size = 8; } := u8;";
	uint8_t buf[37 + sizeof(text)];
	uint32_t magic = 0x75D11D57, content = (uint32_t)(37 + strlen(text)) * 8;
	char *out = NULL, err[128];
	size_t len;

	memset(buf, 0, sizeof(buf));
	memcpy(buf, &magic, 4);
	memcpy(buf + 24, &content, 4);
	memcpy(buf + 28, &content, 4);
	memcpy(buf + 37, text, strlen(text));
	ASSERT_EQ_INT(rd_metadata_text(buf, 37 + strlen(text), &out, &len, err, sizeof(err)), 0);
	ASSERT_EQ_INT(len, strlen(text));
	ASSERT_EQ_INT(strcmp(out, text), 0);
	free(out);
	content = 1 << 20;	/* beyond the file */
	memcpy(buf + 24, &content, 4);
	ASSERT_EQ_INT(rd_metadata_text(buf, 37 + strlen(text), &out, &len, err, sizeof(err)), -EPROTO);
}

/*
 * Decode programs: the one-load ops (byte-aligned: in the payload and in a
 * variant's option), the general op (the same fields in an array of
 * structs, whose values change type) and the bit-field path all give the
 * same values, for every size, signedness and byte order.
 */
TEST(integers_alike_on_every_decode_path)
{
	static const unsigned sizes[] = { 8, 16, 32, 64 };
	char meta[16384], fields[4096] = "", opt[4096] = "", bits[4096] = "";
	uint8_t data[2048];
	size_t n = 0, nf = 0;
	char *err = NULL;
	struct ltt_reader *r;
	const struct ltt_event *ev;

	/* fields f<size><s|u><le|be>: their values are each size's bytes 0x81 0x02 0x83 ... */
	for (size_t i = 0; i < 4; i++)
		for (int sg = 0; sg < 2; sg++)
			for (int be = 0; be < 2; be++) {
				char f[256];

				snprintf(f, sizeof(f), "integer { size = %u; align = 8; signed = %d; byte_order = %s; } f%u%c%s; ",
					 sizes[i], sg, be ? "be" : "le", sizes[i], sg ? 's' : 'u', be ? "be" : "le");
				strcat(fields, f);
				strcat(opt, f);
				if (!be) {
					snprintf(f, sizeof(f), "integer { size = %u; align = 1; signed = %d; } f%u%cle; ",
						 sizes[i], sg, sizes[i], sg ? 's' : 'u');
					strcat(bits, f);
				}
				nf++;
			}
	snprintf(meta, sizeof(meta),
		 "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
		 "typealias integer { size = 1; align = 1; signed = false; } := u1;\n"
		 "stream { event.header := struct { u8 id; }; };\n"
		 "event { name = fast; id = 0; fields := struct { %s }; };\n"
		 "event { name = variant; id = 1; fields := struct { enum : u8 { A = 0 ... 9 } t; variant <t> { struct { %s } A; } v; }; };\n"
		 "event { name = general; id = 3; fields := struct { struct { %s } a[1]; }; };\n"
		 "event { name = bits; id = 2; fields := struct { u1 pad; %s"
		 " integer { size = 7; align = 1; signed = false; } tail; }; };\n",
		 fields, opt, opt, bits);
	/* the same bytes for the fast, variant and general events: every field byte-aligned */
	for (int e = 0; e < 3; e++) {
		data[n++] = (uint8_t)(e == 2 ? 3 : e);
		if (e == 1)
			data[n++] = 3;	/* the tag: option A */
		for (size_t i = 0; i < 4; i++)
			for (int k = 0; k < 4; k++)
				for (unsigned b = 0; b < sizes[i] / 8; b++)
					data[n++] = (uint8_t)((b & 1 ? 0x00 : 0x80) | (b + 1));
	}
	/* the bit fields: one bit of padding, then the little-endian values shifted by one */
	{
		size_t start = n + 1;	/* after the id */
		uint8_t bytes[512] = { 0 };
		size_t nb = 0, bit = 1;

		data[n++] = 2;	/* id */
		for (size_t i = 0; i < 4; i++)
			for (int k = 0; k < 2; k++)
				for (unsigned b = 0; b < sizes[i] / 8; b++) {
					unsigned v = (b & 1 ? 0x00 : 0x80) | (b + 1);

					for (int j = 0; j < 8; j++, bit++)
						if (v >> j & 1)
							bytes[bit / 8] |= (uint8_t)(1u << (bit % 8));
				}
		nb = (bit + 7) / 8;	/* with the tail's 7 bits */
		memcpy(data + start, bytes, nb);
		n = start + nb;
	}
	r = open_mem(meta, data, n, &err);
	if (!r)
		test_fail(__FILE__, __LINE__, "open: %s", err);
	for (int e = 0; e < 4; e++) {
		const struct ltt_value *p;

		ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
		p = ltt_event_scope(ev, LTT_SCOPE_PAYLOAD);
		if (e == 1)
			p = ltt_value_child(ltt_value_member(p, "v"), 0);
		if (e == 2)
			p = ltt_value_child(ltt_value_member(p, "a"), 0);
		for (size_t i = 0; i < 4; i++)
			for (int sg = 0; sg < 2; sg++)
				for (int be = 0; be < (e == 3 ? 1 : 2); be++) {
					char name[16];
					uint64_t want = 0;
					unsigned nbytes = sizes[i] / 8;
					const struct ltt_value *v;

					for (unsigned b = 0; b < nbytes; b++) {
						uint64_t byte = (b & 1 ? 0x00 : 0x80) | (b + 1);

						want |= byte << 8 * (be ? nbytes - 1 - b : b);
					}
					if (sg && sizes[i] < 64 && want >> (sizes[i] - 1))
						want |= ~((UINT64_C(1) << sizes[i]) - 1);
					snprintf(name, sizeof(name), "f%u%c%s", sizes[i], sg ? 's' : 'u', be ? "be" : "le");
					v = ltt_value_member(p, name);
					if (!v)
						test_fail(__FILE__, __LINE__, "event %d: no %s", e, name);
					if (ltt_value_u64(v) != want)
						test_fail(__FILE__, __LINE__, "event %d, %s: got 0x%" PRIx64 ", expected 0x%" PRIx64,
							  e, name, ltt_value_u64(v), want);
					ASSERT_EQ_INT(ltt_value_kind(v), sg ? LTT_VALUE_SIGNED : LTT_VALUE_UNSIGNED);
				}
	}
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_END);
	ASSERT_TRUE(nf == 16);
	ltt_reader_free(r);
	free(err);
}

/* A variant's option is cached by tag range, never across an earlier overlapping mapping. */
TEST(variant_tags_with_overlapping_mappings)
{
	const char meta[] =
		"typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
		"typealias integer { size = 16; align = 8; signed = false; } := u16;\n"
		"event { name = e; fields := struct { enum : u8 { A = 0 ... 10, B = 5 ... 20 } t;"
		" variant <t> { u8 A; u16 B; } v; }; };\n";
	/* 15: B (alone in its range); 7: A (first mapping), not B; 12, 19: B; 3: A */
	const uint8_t data[] = { 15, 1, 1, 7, 2, 12, 3, 0, 19, 4, 0, 3, 5 };
	static const uint64_t want[] = { 0x101, 2, 3, 4, 5 };
	static const char *const label[] = { "B", "A", "B", "B", "A" };
	char *err = NULL;
	struct ltt_reader *r = open_mem(meta, data, sizeof(data), &err);
	const struct ltt_event *ev;

	ASSERT_NOT_NULL(r);
	for (int i = 0; i < 5; i++) {
		const struct ltt_value *v;

		ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
		v = ltt_value_child(ltt_event_field(ev, "v"), 0);
		ASSERT_EQ_U64(ltt_value_u64(v), want[i]);
		ASSERT_EQ_STR(ltt_value_enum_label(ltt_event_field(ev, "t"), 0), label[i]);
	}
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_END);
	ltt_reader_free(r);
	free(err);
}

/* Arrays of structs: each element a block of values; lengths inside elements. */
TEST(arrays_of_structs_with_sequences_inside)
{
	const char meta[] =
		"typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
		"typealias integer { size = 16; align = 8; signed = true; } := s16;\n"
		"event { name = e; fields := struct { u8 n; struct { u8 k; s16 x[k]; string s; } a[n]; u8 z; }; };\n";
	const uint8_t data[] = { 2, 1, 0xff, 0xff, 'a', 0, 2, 1, 0, 2, 0, 'b', 'c', 0, 9 };
	char *err = NULL;
	struct ltt_reader *r = open_mem(meta, data, sizeof(data), &err);
	const struct ltt_event *ev;
	const struct ltt_value *a, *e0, *e1;
	size_t len;

	ASSERT_NOT_NULL(r);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	a = ltt_event_field(ev, "a");
	ASSERT_EQ_INT(ltt_value_count(a), 2);
	e0 = ltt_value_child(a, 0);
	e1 = ltt_value_child(a, 1);
	ASSERT_EQ_INT(ltt_value_count(ltt_value_member(e0, "x")), 1);
	ASSERT_EQ_INT(ltt_value_i64(ltt_value_child(ltt_value_member(e0, "x"), 0)), -1);
	ASSERT_EQ_INT(strncmp(ltt_value_string(ltt_value_member(e0, "s"), &len), "a", 1), 0);
	ASSERT_EQ_INT(ltt_value_count(ltt_value_member(e1, "x")), 2);
	ASSERT_EQ_INT(ltt_value_i64(ltt_value_child(ltt_value_member(e1, "x"), 1)), 2);
	ASSERT_EQ_INT(strncmp(ltt_value_string(ltt_value_member(e1, "s"), &len), "bc", 2), 0);
	ASSERT_EQ_U64(ltt_value_u64(ltt_event_field(ev, "z")), 9);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_END);
	ltt_reader_free(r);
	free(err);
}

TEST(length_decoded_after_its_sequence_is_an_error)
{
	const char meta[] =
		"typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
		"event { name = e; fields := struct { u8 a[event.fields.n]; u8 n; }; };\n";
	const uint8_t data[] = { 1, 1 };
	char *err = NULL;
	struct ltt_reader *r = open_mem(meta, data, sizeof(data), &err);

	ASSERT_NULL(r);
	ASSERT_TRUE(err && strstr(err, "sequence length field not decoded") != NULL);
	free(err);
}

TEST(unknown_event_id_is_an_error)
{
	const char meta[] =
		"typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
		"stream { event.header := struct { u8 id; }; };\n"
		"event { name = a; id = 0; fields := struct { u8 x; }; };\n"
		"event { name = b; id = 1; fields := struct { u8 x; }; };\n";
	const uint8_t data[] = { 1, 5, 7, 5 };
	char *err = NULL;
	struct ltt_reader *r = open_mem(meta, data, sizeof(data), &err);
	const struct ltt_event *ev;

	ASSERT_NOT_NULL(r);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	ASSERT_EQ_STR(ltt_event_name(ev), "b");
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), -EBADMSG);
	ASSERT_TRUE(strstr(ltt_reader_errmsg(r), "offset 2: unknown event id 7") != NULL);
	ltt_reader_free(r);
	free(err);
}

static void append(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > *cap) {
		*cap = 2 * (*len + n + 1);
		*buf = realloc(*buf, *cap);
		ASSERT_NOT_NULL(*buf);
	}
	memcpy(*buf + *len, s, n);
	*len += n;
}

/* The print program of an event class prints what the value printer prints, scope by scope. */
TEST(event_printer_matches_value_printer)
{
	const char meta[] =
		"typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
		"typealias integer { size = 32; align = 8; signed = true; base = 16; } := x32;\n"
		"typealias floating_point { exp_dig = 11; mant_dig = 53; align = 8; } := dbl;\n"
		"event { name = e; context := struct { u8 c; };"
		" fields := struct { u8 _n; struct { x32 h; struct { dbl d; string s; } in; } st;"
		" u8 arr[_n]; enum : u8 { Z, O } en; variant <en> { u8 Z; string O; } v;"
		" integer { size = 8; align = 8; signed = false; encoding = UTF8; } txt[3]; }; };\n";
	const uint8_t data[] = { 4, 2, 0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f,
				 'q', '"', 0, 7, 8, 1, 'o', 0, 'a', 'b', 'c' };
	static const char *const scope_names[] = { "stream.packet.context = ",
		"stream.event.context = ", "event.context = ", "event.fields = " };
	char *err = NULL;
	struct ltt_reader *r = open_mem(meta, data, sizeof(data), &err);
	const struct ltt_event *ev;

	ASSERT_NOT_NULL(r);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	for (unsigned flags = 0; flags < 8; flags++) {
		char *a = NULL, *b = NULL;
		size_t alen = 0, acap = 0, blen = 0, bcap = 0;
		bool first = true;

		/* twice: the program is compiled, then reused */
		for (int again = 0; again < 2; again++) {
			alen = 0;
			ASSERT_EQ_INT(ltt_event_format_pretty(ev, flags, &a, &alen, &acap), 0);
		}
		for (int s = 0; s < 4; s++) {
			const struct ltt_value *v = ltt_event_scope(ev, (enum ltt_scope)s);
			unsigned names = flags & (s == LTT_SCOPE_PAYLOAD ? LTT_FORMAT_PAYLOAD_NAMES
									 : LTT_FORMAT_CONTEXT_NAMES);

			if (!v)
				continue;
			if (!first)
				append(&b, &blen, &bcap, ", ");
			if (flags & LTT_FORMAT_SCOPE_NAMES)
				append(&b, &blen, &bcap, scope_names[s]);
			ASSERT_EQ_INT(ltt_value_format_pretty(v, names != 0, &b, &blen, &bcap), 0);
			first = false;
		}
		if (alen != blen || memcmp(a, b, alen) != 0)
			test_fail(__FILE__, __LINE__, "flags %u: event printer \"%.*s\", value printer \"%.*s\"",
				  flags, (int)alen, a, (int)blen, b);
		if (flags == (LTT_FORMAT_PAYLOAD_NAMES | LTT_FORMAT_CONTEXT_NAMES)) {
			static const char want[] =
				"{ c = 4 }, { n = 2, st = { h = 0xFFFFFFFE, in = { d = 1.5, s = \"q\\\"\" } }, "
				"arr = [ [0] = 7, [1] = 8 ], en = ( \"O\" : container = 1 ), v = { \"o\" }, "
				"txt = \"abc\" }";

			if (alen != strlen(want) || memcmp(a, want, alen) != 0)
				test_fail(__FILE__, __LINE__, "got \"%.*s\"", (int)alen, a);
		}
		free(a);
		free(b);
	}
	ltt_reader_free(r);
	free(err);
}

/* A sequence whose length is in the event header: the header's program says where it is. */
TEST(length_in_the_event_header)
{
	const char meta[] =
		"typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
		"stream { event.header := struct { u8 id; u8 n; }; };\n"
		"event { name = a; id = 0; fields := struct { u8 x[stream.event.header.n]; }; };\n"
		"event { name = b; id = 1; fields := struct { u8 y; }; };\n";
	const uint8_t data[] = { 0, 2, 7, 8, 1, 0, 9, 0, 1, 5 };
	char *err = NULL;
	struct ltt_reader *r = open_mem(meta, data, sizeof(data), &err);
	const struct ltt_event *ev;
	const struct ltt_value *x;

	ASSERT_NOT_NULL(r);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	x = ltt_event_field(ev, "x");
	ASSERT_EQ_INT(ltt_value_count(x), 2);
	ASSERT_EQ_U64(ltt_value_u64(ltt_value_child(x, 1)), 8);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	ASSERT_EQ_U64(ltt_value_u64(ltt_event_field(ev, "y")), 9);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_EVENT);
	ASSERT_EQ_INT(ltt_value_count(ltt_event_field(ev, "x")), 1);
	ASSERT_EQ_INT(ltt_reader_next(r, &ev), LTT_RECORD_END);
	ltt_reader_free(r);
	free(err);
}
