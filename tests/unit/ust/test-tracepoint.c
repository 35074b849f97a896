/*
 * test-tracepoint.c - the tracepoint macros and libltt-ust's registry.
 *
 * The probes of tp-test.h record into the in-process recorder attached as
 * channel 0; each record is checked byte for byte, by hand for some events
 * and for every event by decode(), a reader driven only by the event's
 * descriptor (CTF 1.8 rules: each field at the alignment its descriptor
 * declares, zero padding, strings NUL-terminated, a sequence's length in
 * the field before it): what the metadata will declare is what is written.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ltt-test.h"
#include "glob-internal.h"
#include "recorder-internal.h"
#include "registry-internal.h"
#include "tp-test.h"
#include "tp-dyn-emit.h"
#include "util/macros.h"

#define NOT_WRITTEN SIZE_MAX

/*
 * Records are packed on x86, as lttng-ust packs them (LTT__TP_ALIGNOF in
 * tracepoint-event.h): every field is byte-aligned and its descriptor says
 * so. The byte-for-byte layouts below are x86's; elsewhere fields are at
 * their natural alignment, which decode() checks for every event.
 */
#if defined(__i386__) || defined(__x86_64__)
#define ALIGN_BITS(natural) 8
#define PACKED_LAYOUT() ((void)0)
#else
#define ALIGN_BITS(natural) (natural)
#define PACKED_LAYOUT() TEST_SKIP("the expected bytes are x86's packed layout")
#endif

static struct ust_recorder *rec;

/*
 * Every case starts from no rule, no backend, an empty recorder: --repeat
 * runs a case several times in one process.
 */
static void reset_all(void)
{
	ust_registry_reset();
	for (unsigned c = 0; c < UST_MAX_CHANNELS; c++)
		ust_tracer_detach(c);
	if (!rec)
		ASSERT_OK(ust_recorder_create(8u << 20, &rec));
	ust_recorder_clear(rec);
}

static void start_recorder(unsigned channel)
{
	ASSERT_OK(ust_tracer_attach_recorder(channel, rec));
}

static uint64_t enable_rule(const char *pattern, enum ust_loglevel_type type, int level,
			    const char *const *excl, size_t nr_excl, unsigned channel)
{
	struct ust_rule_spec spec = {
		.pattern = pattern, .loglevel_type = type, .loglevel = level,
		.exclusions = excl, .nr_exclusions = nr_excl, .channel = channel,
	};
	uint64_t id = 0;

	ASSERT_OK(ust_rule_add(&spec, &id));
	return id;
}

static uint64_t enable(const char *pattern)
{
	return enable_rule(pattern, UST_LOGLEVEL_ALL, 0, NULL, 0, 0);
}

static int tp_state(const char *name)
{
	struct ltt_tracepoint *tp = ust_tracepoint_lookup(name);

	if (!tp)
		test_fail(__FILE__, __LINE__, "no tracepoint %s", name);
	return __atomic_load_n(&tp->state, __ATOMIC_RELAXED);
}

static size_t nr_records(void)
{
	size_t cur = 0, n = 0;
	struct ust_record r;

	while (ust_recorder_next(rec, &cur, &r) == 0)
		n++;
	return n;
}

/* The only record in the recorder; fails unless there is exactly one. */
static struct ust_record only_record(void)
{
	size_t cur = 0;
	struct ust_record r, extra;

	ASSERT_OK(ust_recorder_next(rec, &cur, &r));
	ASSERT_EQ_INT(ust_recorder_next(rec, &cur, &extra), -ENOENT);
	return r;
}

static const struct ltt_field *field(const struct ltt_event_desc *d, const char *name)
{
	for (uint32_t i = 0; i < d->nr_fields; i++)
		if (strcmp(ust_event_field(d, i)->name, name) == 0)
			return ust_event_field(d, i);
	test_fail(__FILE__, __LINE__, "%s has no field %s", d->name, name);
}

static const struct ltt_event_desc *desc_of(const char *name)
{
	const struct ltt_event_desc *d = ust_event_lookup(name);

	if (!d)
		test_fail(__FILE__, __LINE__, "no event %s", name);
	return d;
}

static uint64_t read_uint(const unsigned char *p, unsigned bytes, int byte_order)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++) {
		unsigned shift = byte_order == LTT_BYTE_ORDER_BE ? 8 * (bytes - 1 - i) : 8 * i;

		v |= (uint64_t)p[i] << shift;
	}
	return v;
}

/*
 * Walks the record as its descriptor declares it; off[i] is field i's
 * offset (NOT_WRITTEN for _nowrite fields). Fails on nonzero padding, a
 * string without NUL, a sequence whose length field is not just before it,
 * a record longer or shorter than the fields, a payload whose alignment is
 * not that of its most aligned field.
 */
static void decode(const struct ust_record *r, size_t *off)
{
	const struct ltt_event_desc *d = r->desc;
	size_t pos = 0, max_align = 1;
	uint64_t seq_len = 0;
	const char *seq_len_name = NULL;

	for (uint32_t i = 0; i < d->nr_fields; i++) {
		const struct ltt_field *f = ust_event_field(d, i);
		const struct ltt_type *t = &f->type;
		size_t align, size;

		if (f->flags & LTT_FIELD_NOWRITE) {
			off[i] = NOT_WRITTEN;
			continue;
		}
		switch (t->kind) {
		case LTT_TYPE_FLOAT:
			align = t->u.fp.alignment / 8;
			size = (t->u.fp.exp_dig + t->u.fp.mant_dig) / 8;
			break;
		case LTT_TYPE_STRING:
			align = 1;
			size = 0;
			break;
		default:
			align = t->u.integer.alignment / 8;
			size = t->u.integer.size / 8;
			break;
		}
		if (align > max_align)
			max_align = align;
		while (pos % align) {
			if (pos >= r->len || r->payload[pos] != 0)
				test_fail(__FILE__, __LINE__, "%s: bad padding before %s at %zu",
					  d->name, f->name, pos);
			pos++;
		}
		off[i] = pos;
		switch (t->kind) {
		case LTT_TYPE_STRING: {
			const void *nul = memchr(r->payload + pos, 0, r->len - pos);

			if (!nul)
				test_fail(__FILE__, __LINE__, "%s.%s: no NUL", d->name, f->name);
			pos = (size_t)((const unsigned char *)nul - r->payload) + 1;
			break;
		}
		case LTT_TYPE_ARRAY:
			pos += size * t->length;
			break;
		case LTT_TYPE_SEQUENCE:
			if (!seq_len_name || strcmp(seq_len_name, t->length_name) != 0)
				test_fail(__FILE__, __LINE__, "%s.%s: length field %s not just before",
					  d->name, f->name, t->length_name);
			pos += size * seq_len;
			break;
		default:
			if (pos + size > r->len)
				test_fail(__FILE__, __LINE__, "%s.%s: past the end", d->name, f->name);
			if (f->flags & LTT_FIELD_SEQUENCE_LENGTH)
				seq_len = read_uint(r->payload + pos, size, t->u.integer.byte_order);
			pos += size;
			break;
		}
		seq_len_name = (f->flags & LTT_FIELD_SEQUENCE_LENGTH) ? f->name : NULL;
		if (pos > r->len)
			test_fail(__FILE__, __LINE__, "%s.%s: past the end", d->name, f->name);
	}
	ASSERT_EQ_U64(pos, r->len);
	/* The probe asked for the alignment the metadata will give the payload. */
	ASSERT_EQ_U64(r->align, max_align);
	ASSERT_EQ_U64(r->offset % max_align, 0);
}

static size_t field_index(const struct ltt_event_desc *d, const char *name)
{
	for (uint32_t i = 0; i < d->nr_fields; i++)
		if (strcmp(ust_event_field(d, i)->name, name) == 0)
			return i;
	test_fail(__FILE__, __LINE__, "%s has no field %s", d->name, name);
}

/* Field name's value in record r, read as its descriptor says (integers). */
static uint64_t value_of(const struct ust_record *r, const char *name)
{
	size_t off[64];
	size_t i = field_index(r->desc, name);
	const struct ltt_field *f = ust_event_field(r->desc, (uint32_t)i);

	decode(r, off);
	if (off[i] == NOT_WRITTEN)
		test_fail(__FILE__, __LINE__, "%s not written", name);
	return read_uint(r->payload + off[i], f->type.u.integer.size / 8,
			 f->type.u.integer.byte_order);
}

/* ===== descriptors ===== */

TEST(descriptors_are_registered_from_the_constructor)
{
	reset_all();
	const struct ltt_event_desc *d = desc_of("ltt_test:ints");

	ASSERT_EQ_STR(d->provider, "ltt_test");
	ASSERT_EQ_STR(d->event, "ints");
	ASSERT_EQ_INT(d->struct_size, sizeof(struct ltt_event_desc));
	ASSERT_EQ_INT(d->field_size, sizeof(struct ltt_field));
	ASSERT_EQ_INT(d->nr_fields, 8);
	ASSERT_OK(ust_event_desc_check(d));
	ASSERT_NULL(ust_event_lookup("ltt_test:nope"));
	ASSERT_NOT_NULL(ust_tracepoint_lookup("ltt_test:ints"));
	ASSERT_EQ_STR(d->signature,
		      "int8_t, s8, uint8_t, u8, int16_t, s16, uint16_t, u16, int32_t, s32, "
		      "uint32_t, u32, int64_t, s64, uint64_t, u64");
}

TEST(integer_fields_declare_size_alignment_signedness_base_byte_order)
{
	reset_all();
	const struct ltt_event_desc *d = desc_of("ltt_test:ints");
	static const struct { const char *name; unsigned size; int is_signed; } want[] = {
		{ "s8", 8, 1 }, { "u8", 8, 0 }, { "s16", 16, 1 }, { "u16", 16, 0 },
		{ "s32", 32, 1 }, { "u32", 32, 0 }, { "s64", 64, 1 }, { "u64", 64, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct ltt_field *f = ust_event_field(d, (uint32_t)i);

		ASSERT_EQ_STR(f->name, want[i].name);
		ASSERT_EQ_INT(f->type.kind, LTT_TYPE_INTEGER);
		ASSERT_EQ_INT(f->type.u.integer.size, want[i].size);
		ASSERT_EQ_INT(f->type.u.integer.alignment, ALIGN_BITS(want[i].size));
		ASSERT_EQ_INT(f->type.u.integer.is_signed, want[i].is_signed);
		ASSERT_EQ_INT(f->type.u.integer.base, 10);
		ASSERT_EQ_INT(f->type.u.integer.byte_order, LTT_BYTE_ORDER_LE);
		ASSERT_EQ_INT(f->flags, 0);
	}
	d = desc_of("ltt_test:bases");
	ASSERT_EQ_INT(field(d, "hex")->type.u.integer.base, 16);
	ASSERT_EQ_INT(field(d, "hex")->type.u.integer.byte_order, LTT_BYTE_ORDER_LE);
	ASSERT_EQ_INT(field(d, "port")->type.u.integer.base, 10);
	ASSERT_EQ_INT(field(d, "port")->type.u.integer.byte_order, LTT_BYTE_ORDER_BE);
	ASSERT_EQ_INT(field(d, "addr")->type.u.integer.base, 16);
	ASSERT_EQ_INT(field(d, "addr")->type.u.integer.byte_order, LTT_BYTE_ORDER_BE);
}

TEST(float_string_array_sequence_fields_are_described)
{
	reset_all();
	const struct ltt_event_desc *d = desc_of("ltt_test:floats");
	const struct ltt_field *f;

	f = field(d, "f");
	ASSERT_EQ_INT(f->type.kind, LTT_TYPE_FLOAT);
	ASSERT_EQ_INT(f->type.u.fp.exp_dig, 8);
	ASSERT_EQ_INT(f->type.u.fp.mant_dig, 24);
	ASSERT_EQ_INT(f->type.u.fp.alignment, ALIGN_BITS(32));
	f = field(d, "d");
	ASSERT_EQ_INT(f->type.u.fp.exp_dig, 11);
	ASSERT_EQ_INT(f->type.u.fp.mant_dig, 53);
	ASSERT_EQ_INT(f->type.u.fp.alignment, ALIGN_BITS(64));
	ASSERT_EQ_INT(field(d, "c")->type.u.integer.size, 8);

	d = desc_of("ltt_test:strings");
	ASSERT_EQ_INT(field(d, "a")->type.kind, LTT_TYPE_STRING);
	ASSERT_EQ_INT(field(d, "a")->type.encoding, LTT_ENCODING_UTF8);

	d = desc_of("ltt_test:arrays");
	f = field(d, "arr");
	ASSERT_EQ_INT(f->type.kind, LTT_TYPE_ARRAY);
	ASSERT_EQ_INT(f->type.length, 3);
	ASSERT_EQ_INT(f->type.encoding, LTT_ENCODING_NONE);
	ASSERT_EQ_INT(f->type.u.integer.size, 32);
	ASSERT_EQ_INT(f->type.u.integer.alignment, ALIGN_BITS(32));
	f = field(d, "text");
	ASSERT_EQ_INT(f->type.encoding, LTT_ENCODING_UTF8);
	ASSERT_EQ_INT(f->type.length, 8);
	ASSERT_EQ_INT(f->type.u.integer.size, 8);
	ASSERT_EQ_INT(field(d, "net")->type.u.integer.byte_order, LTT_BYTE_ORDER_BE);
	ASSERT_EQ_INT(field(d, "hexes")->type.u.integer.base, 16);

	d = desc_of("ltt_test:seqs");
	ASSERT_EQ_INT(d->nr_fields, 1 + 2 * 4);
	f = ust_event_field(d, 1);
	ASSERT_EQ_STR(f->name, "_vals_length");
	ASSERT_EQ_INT(f->flags, LTT_FIELD_SEQUENCE_LENGTH);
	ASSERT_EQ_INT(f->type.kind, LTT_TYPE_INTEGER);
	ASSERT_EQ_INT(f->type.u.integer.size, 8);
	ASSERT_EQ_INT(f->type.u.integer.is_signed, 0);
	f = ust_event_field(d, 2);
	ASSERT_EQ_STR(f->name, "vals");
	ASSERT_EQ_INT(f->type.kind, LTT_TYPE_SEQUENCE);
	ASSERT_EQ_STR(f->type.length_name, "_vals_length");
	ASSERT_EQ_INT(f->type.u.integer.size, 64);
	ASSERT_EQ_INT(f->type.encoding, LTT_ENCODING_NONE);
	ASSERT_EQ_INT(ust_event_field(d, 3)->type.u.integer.size, 32);	/* unsigned int */
	ASSERT_EQ_INT(field(d, "text")->type.encoding, LTT_ENCODING_UTF8);
	ASSERT_EQ_INT(field(d, "_n32_length")->type.u.integer.size, 64);	/* size_t */
	ASSERT_EQ_INT(field(d, "n32")->type.u.integer.byte_order, LTT_BYTE_ORDER_BE);
	ASSERT_EQ_INT(field(d, "h16")->type.u.integer.base, 16);
}

TEST(enum_fields_point_at_their_mappings)
{
	reset_all();
	const struct ltt_event_desc *d = desc_of("ltt_test:enums");
	const struct ltt_field *f = field(d, "c");
	const struct ltt_enum_desc *e = f->type.enum_desc;

	ASSERT_EQ_INT(f->type.kind, LTT_TYPE_ENUM);
	ASSERT_EQ_INT(f->type.u.integer.size, 32);
	ASSERT_EQ_INT(f->type.u.integer.is_signed, 1);
	ASSERT_EQ_INT(field(d, "small")->type.u.integer.size, 8);
	ASSERT_EQ_INT(field(d, "small")->type.u.integer.is_signed, 0);
	ASSERT_EQ_PTR(field(d, "small")->type.enum_desc, e);
	ASSERT_EQ_STR(e->provider, "ltt_test");
	ASSERT_EQ_STR(e->name, "color");
	ASSERT_EQ_INT(e->nr_entries, 5);
	ASSERT_EQ_STR(e->entries[0].label, "red");
	ASSERT_EQ_U64(e->entries[0].start.value, 0);
	ASSERT_EQ_U64(e->entries[0].end.value, 0);
	ASSERT_EQ_STR(e->entries[1].label, "greens");
	ASSERT_EQ_U64(e->entries[1].start.value, 1);
	ASSERT_EQ_U64(e->entries[1].end.value, 5);
	ASSERT_EQ_INT(e->entries[1].start.is_signed, 1);
	ASSERT_EQ_STR(e->entries[2].label, "minus");
	ASSERT_EQ_INT((int64_t)e->entries[2].start.value, -3);
	ASSERT_EQ_INT(e->entries[2].start.is_signed, 1);
	ASSERT_EQ_STR(e->entries[3].label, "next");
	ASSERT_EQ_INT(e->entries[3].flags, LTT_ENUM_ENTRY_AUTO);
	ASSERT_EQ_STR(e->entries[4].label, "big");
	ASSERT_EQ_HEX(e->entries[4].start.value, UINT64_C(0xffffffffffffffff));
	ASSERT_EQ_INT(e->entries[4].start.is_signed, 0);
	ASSERT_EQ_INT(e->entries[0].flags, 0);
}

TEST(loglevels_emf_uri_and_classes)
{
	reset_all();
	ASSERT_EQ_INT(ust_event_loglevel(desc_of("ltt_test:ints")), TRACE_INFO);
	ASSERT_EQ_INT(ust_event_loglevel(desc_of("ltt_test:enums")), TRACE_EMERG);
	ASSERT_EQ_INT(ust_event_loglevel(desc_of("ltt_test:floats")), LTT_LOGLEVEL_DEFAULT);
	ASSERT_NULL(*desc_of("ltt_test:floats")->loglevel_ref);
	ASSERT_EQ_INT(ust_event_loglevel(desc_of("ltt_test:inst_err")), TRACE_ERR);
	ASSERT_EQ_INT(ust_event_loglevel(desc_of("ltt_test:inst_debug")), TRACE_DEBUG);
	ASSERT_EQ_STR(ust_event_model_emf_uri(desc_of("ltt_test:noargs")),
		      "http://example.com/model");
	ASSERT_NULL(ust_event_model_emf_uri(desc_of("ltt_test:ints")));
	/* Instances share their class's fields, not its name. */
	ASSERT_EQ_PTR(desc_of("ltt_test:inst_err")->fields, desc_of("ltt_test:inst_debug")->fields);
	ASSERT_EQ_INT(desc_of("ltt_test:inst_err")->nr_fields, 2);
	ASSERT_NULL(ust_event_lookup("ltt_test:cls"));
	ASSERT_EQ_INT(desc_of("ltt_test:noargs")->nr_fields, 0);
	ASSERT_EQ_STR(desc_of("ltt_test:noargs")->signature, "");
}

TEST(nowrite_fields_are_described_but_flagged)
{
	reset_all();
	const struct ltt_event_desc *d = desc_of("ltt_test:nowrite");
	unsigned hidden = 0;

	for (uint32_t i = 0; i < d->nr_fields; i++)
		if (ust_event_field(d, i)->flags & LTT_FIELD_NOWRITE)
			hidden++;
	/* 11 _nowrite macros; the two sequences add their length fields. */
	ASSERT_EQ_INT(hidden, 13);
	ASSERT_EQ_INT(field(d, "shown")->flags, 0);
	ASSERT_EQ_INT(field(d, "last")->flags, 0);
	ASSERT_EQ_INT(field(d, "_hseq_length")->flags,
		      LTT_FIELD_NOWRITE | LTT_FIELD_SEQUENCE_LENGTH);
}

TEST(malformed_descriptors_are_rejected)
{
	reset_all();
	struct ltt_event_desc d = *desc_of("ltt_test:seqs");
	struct ltt_field fields[16];
	struct ltt_provider_desc p = { sizeof(p), "ltt_test", NULL, 1 };
	const struct ltt_event_desc *events[1] = { &d };

	p.events = events;
	memcpy(fields, d.fields, d.nr_fields * sizeof(fields[0]));
	d.fields = fields;
	ASSERT_OK(ust_event_desc_check(&d));
	fields[0].type.u.integer.size = 12;
	ASSERT_EQ_INT(ust_event_desc_check(&d), -EINVAL);
	fields[0].type.u.integer.size = 8;
	fields[1].flags = 0;	/* the sequence loses its length field */
	ASSERT_EQ_INT(ust_event_desc_check(&d), -EINVAL);
	ASSERT_EQ_INT(ltt_ust_provider_register(&p), -EINVAL);
	fields[1].flags = LTT_FIELD_SEQUENCE_LENGTH;
	fields[2].type.kind = 42;
	ASSERT_EQ_INT(ust_event_desc_check(&d), -EINVAL);
	fields[2].type.kind = LTT_TYPE_SEQUENCE;
	d.name = "ltt_test:other";	/* name disagrees with event */
	ASSERT_EQ_INT(ust_event_desc_check(&d), -EINVAL);
	d.name = "ltt_test:seqs";
	d.struct_size = 8;
	ASSERT_EQ_INT(ust_event_desc_check(&d), -EINVAL);
}

/* ===== enabling ===== */

TEST(tracepoints_start_disabled)
{
	reset_all();
	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 0);
	ASSERT_EQ_INT(tp_state("ltt_test:noargs"), 0);
	ASSERT_EQ_INT(desc_of("ltt_test:ints")->state->channel_mask, 0);
}

TEST(glob_patterns)
{
	reset_all();
	ASSERT_TRUE(ust_glob_match("*", "a:b"));
	ASSERT_TRUE(ust_glob_match("ltt_test:*", "ltt_test:ints"));
	ASSERT_FALSE(ust_glob_match("ltt_test:*", "ltt_testx:ints"));
	ASSERT_TRUE(ust_glob_match("*:in*s", "ltt_test:ints"));
	ASSERT_TRUE(ust_glob_match("l*t*t*", "ltt"));
	ASSERT_FALSE(ust_glob_match("ltt_test:int", "ltt_test:ints"));
	ASSERT_TRUE(ust_glob_match("ltt_test:ints", "ltt_test:ints"));
	ASSERT_TRUE(ust_glob_match("a\\*b", "a*b"));
	ASSERT_FALSE(ust_glob_match("a\\*b", "axb"));
	ASSERT_TRUE(ust_glob_match("**a", "a"));
	ASSERT_FALSE(ust_glob_match("", "a"));
	ASSERT_TRUE(ust_glob_match("*b*", "aaabaaa"));
	ASSERT_FALSE(ust_glob_match("*c*", "aaabaaa"));
}

TEST(enable_by_exact_name_and_glob)
{
	reset_all();
	uint64_t id = enable("ltt_test:ints");

	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 1);
	ASSERT_EQ_INT(tp_state("ltt_test:floats"), 0);
	ASSERT_OK(ust_rule_remove(id));
	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 0);

	id = enable("ltt_test:*s");
	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 1);
	ASSERT_EQ_INT(tp_state("ltt_test:floats"), 1);
	ASSERT_EQ_INT(tp_state("ltt_test:nowrite"), 0);
	ASSERT_EQ_INT(tp_state("ltt_test:inst_err"), 0);
	ASSERT_OK(ust_rule_set_enabled(id, false));
	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 0);
	ASSERT_OK(ust_rule_set_enabled(id, true));
	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 1);
	ASSERT_EQ_INT(ust_rule_remove(id + 100), -ENOENT);
	ust_rules_clear();
	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 0);
}

TEST(exclusions)
{
	reset_all();
	static const char *const excl[] = { "ltt_test:inst_*", "ltt_test:ints" };

	enable_rule("ltt_test:*", UST_LOGLEVEL_ALL, 0, excl, 2, 0);
	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 0);
	ASSERT_EQ_INT(tp_state("ltt_test:inst_err"), 0);
	ASSERT_EQ_INT(tp_state("ltt_test:inst_debug"), 0);
	ASSERT_EQ_INT(tp_state("ltt_test:floats"), 1);
	ASSERT_EQ_INT(tp_state("ltt_test:bases"), 1);
	/* Another rule without exclusions enables them again. */
	enable("ltt_test:inst_err");
	ASSERT_EQ_INT(tp_state("ltt_test:inst_err"), 1);
	ASSERT_EQ_INT(tp_state("ltt_test:inst_debug"), 0);
}

TEST(loglevel_range_and_single)
{
	reset_all();
	uint64_t id;

	/* --loglevel TRACE_WARNING: WARNING or more severe. */
	id = enable_rule("ltt_test:*", UST_LOGLEVEL_RANGE, TRACE_WARNING, NULL, 0, 0);
	ASSERT_EQ_INT(tp_state("ltt_test:enums"), 1);		/* EMERG */
	ASSERT_EQ_INT(tp_state("ltt_test:inst_err"), 1);	/* ERR */
	ASSERT_EQ_INT(tp_state("ltt_test:bases"), 1);		/* WARNING */
	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 0);		/* INFO */
	ASSERT_EQ_INT(tp_state("ltt_test:inst_debug"), 0);	/* DEBUG */
	ASSERT_EQ_INT(tp_state("ltt_test:floats"), 0);		/* default: DEBUG_LINE */
	ASSERT_OK(ust_rule_remove(id));

	/* --loglevel-only TRACE_ERR */
	enable_rule("ltt_test:*", UST_LOGLEVEL_SINGLE, TRACE_ERR, NULL, 0, 0);
	ASSERT_EQ_INT(tp_state("ltt_test:inst_err"), 1);
	ASSERT_EQ_INT(tp_state("ltt_test:enums"), 0);
	ASSERT_EQ_INT(tp_state("ltt_test:bases"), 0);
	ust_rules_clear();

	/* Events without a level have lttng-ust's default, DEBUG_LINE. */
	enable_rule("ltt_test:*", UST_LOGLEVEL_SINGLE, TRACE_DEBUG_LINE, NULL, 0, 0);
	ASSERT_EQ_INT(tp_state("ltt_test:floats"), 1);
	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 0);
}

TEST(bad_rules_are_refused)
{
	reset_all();
	struct ust_rule_spec spec = { .pattern = "*", .channel = UST_MAX_CHANNELS };
	uint64_t id = 12345;

	ASSERT_EQ_INT(ust_rule_add(&spec, &id), -EINVAL);
	spec.channel = 0;
	spec.pattern = "";
	ASSERT_EQ_INT(ust_rule_add(&spec, &id), -EINVAL);
	spec.pattern = "*";
	spec.loglevel_type = (enum ust_loglevel_type)7;
	ASSERT_EQ_INT(ust_rule_add(&spec, &id), -EINVAL);
	ASSERT_EQ_U64(id, 12345);	/* ret_ untouched on failure */
}

TEST(channel_masks_follow_rules)
{
	reset_all();
	enable_rule("ltt_test:ints", UST_LOGLEVEL_ALL, 0, NULL, 0, 3);
	enable_rule("ltt_test:*", UST_LOGLEVEL_ALL, 0, NULL, 0, 0);
	ASSERT_EQ_HEX(desc_of("ltt_test:ints")->state->channel_mask, 0x9);
	ASSERT_EQ_HEX(desc_of("ltt_test:floats")->state->channel_mask, 0x1);
}

/* ===== the call site ===== */

static int evaluations;

static int side_effect(int v)
{
	evaluations++;
	return v;
}

TEST(disabled_tracepoint_does_not_evaluate_arguments)
{
	reset_all();
	evaluations = 0;
	start_recorder(0);
	tracepoint(ltt_test, ints, side_effect(1), 2, 3, 4, 5, 6, 7, 8);
	ASSERT_EQ_INT(evaluations, 0);
	ASSERT_FALSE(tracepoint_enabled(ltt_test, ints));
	ASSERT_EQ_INT(nr_records(), 0);

	enable("ltt_test:ints");
	ASSERT_TRUE(tracepoint_enabled(ltt_test, ints));
	tracepoint(ltt_test, ints, side_effect(1), 2, 3, 4, 5, 6, 7, 8);
	ASSERT_EQ_INT(evaluations, 1);
	ASSERT_EQ_INT(nr_records(), 1);
}

TEST(enabled_without_backend_records_nothing)
{
	reset_all();
	/* Enabled in channel 0, which has no backend; channel 1 has one. */
	enable("ltt_test:ints");
	start_recorder(1);
	tracepoint(ltt_test, ints, 1, 2, 3, 4, 5, 6, 7, 8);
	ASSERT_EQ_INT(nr_records(), 0);
	enable_rule("ltt_test:ints", UST_LOGLEVEL_ALL, 0, NULL, 0, 1);
	tracepoint(ltt_test, ints, 1, 2, 3, 4, 5, 6, 7, 8);
	ASSERT_EQ_INT(nr_records(), 1);
}

TEST(do_tracepoint_records_when_guarded_by_enabled)
{
	reset_all();
	start_recorder(0);
	enable("ltt_test:noargs");
	if (tracepoint_enabled(ltt_test, noargs))
		do_tracepoint(ltt_test, noargs);
	struct ust_record r = only_record();
	ASSERT_EQ_STR(r.desc->name, "ltt_test:noargs");
	ASSERT_EQ_U64(r.len, 0);
}

/* ===== record layout ===== */

TEST(integers_packed)
{
	reset_all();
	static const unsigned char want[30] = {
		0xfe,			/* s8 = -2 @0 */
		0xc8,			/* u8 = 200 @1 */
		0x30, 0xf8,		/* s16 = -2000 @2 */
		0x50, 0xc3,		/* u16 = 50000 @4 */
		0x80, 0x7b, 0xe1, 0xff,	/* s32 = -2000000 @6 */
		0x00, 0x5e, 0xd0, 0xb2,	/* u32 = 3000000000 @10 */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* s64 = -1 @14 */
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* u64 @22 */
	};

	PACKED_LAYOUT();
	start_recorder(0);
	enable("ltt_test:ints");
	tracepoint(ltt_test, ints, -2, 200, -2000, 50000, -2000000, 3000000000u, -1,
		   UINT64_C(0x0102030405060708));
	struct ust_record r = only_record();
	ASSERT_EQ_U64(r.len, sizeof(want));
	ASSERT_EQ_MEM(r.payload, want, sizeof(want));
	ASSERT_EQ_U64(r.align, 1);
	size_t off[16];
	decode(&r, off);
	ASSERT_EQ_U64(off[4], 6);
	ASSERT_EQ_U64(off[7], 22);
}

TEST(network_byte_order_and_hex)
{
	reset_all();
	static const unsigned char want[] = {
		0x44, 0x33, 0x22, 0x11,		/* hex, host order */
		0x12, 0x34,			/* port, big-endian */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,	/* addr, big-endian */
		0x45,				/* tail = (uint8_t)(v + 1) */
	};

	PACKED_LAYOUT();
	start_recorder(0);
	enable("ltt_test:bases");
	tracepoint(ltt_test, bases, 0x11223344, 0x1234, UINT64_C(0x0102030405060708));
	struct ust_record r = only_record();
	ASSERT_EQ_U64(r.len, sizeof(want));
	ASSERT_EQ_MEM(r.payload, want, sizeof(want));
	ASSERT_EQ_HEX(value_of(&r, "port"), 0x1234);
	ASSERT_EQ_HEX(value_of(&r, "addr"), UINT64_C(0x0102030405060708));
}

TEST(floats_are_ieee754)
{
	reset_all();
	float f = 1.5f;
	double d = -2.25;
	unsigned char want[13] = { 'x' };

	PACKED_LAYOUT();
	memcpy(want + 1, &f, 4);
	memcpy(want + 5, &d, 8);
	start_recorder(0);
	enable("ltt_test:floats");
	tracepoint(ltt_test, floats, f, d);
	struct ust_record r = only_record();
	ASSERT_EQ_U64(r.len, 13);
	ASSERT_EQ_MEM(r.payload, want, 13);
	size_t off[4];
	decode(&r, off);
}

TEST(strings_with_nul_and_null_pointer)
{
	reset_all();
	static const unsigned char want[] = {
		'a', 'b', 'c', 0,
		0x44, 0x33, 0x22, 0x11,		/* after */
		'(', 'n', 'u', 'l', 'l', ')', 0,
	};

	PACKED_LAYOUT();
	start_recorder(0);
	enable("ltt_test:strings");
	tracepoint(ltt_test, strings, "abc", NULL);
	struct ust_record r = only_record();
	ASSERT_EQ_U64(r.len, sizeof(want));
	ASSERT_EQ_MEM(r.payload, want, sizeof(want));

	/* An empty string is its NUL; the integer follows it at once. */
	ust_recorder_clear(rec);
	tracepoint(ltt_test, strings, "", "z");
	r = only_record();
	static const unsigned char want2[] = { 0, 0x44, 0x33, 0x22, 0x11, 'z', 0 };
	ASSERT_EQ_U64(r.len, sizeof(want2));
	ASSERT_EQ_MEM(r.payload, want2, sizeof(want2));
}

TEST(arrays_of_elements_text_padded_with_nul)
{
	reset_all();
	static const uint32_t arr[3] = { 1, 2, 0xa0b0c0d0 };
	static const uint16_t net[2] = { 0x0102, 0x0304 };
	static const unsigned char want[] = {
		7,					/* first */
		1, 0, 0, 0, 2, 0, 0, 0, 0xd0, 0xc0, 0xb0, 0xa0,	/* arr */
		'h', 'i', 0, 0, 0, 0, 0, 0,		/* text[8]: "hi" then NULs */
		0x01, 0x02, 0x03, 0x04,			/* net, big-endian */
		'h', 'i',				/* hexes: first 2 bytes of text */
	};

	PACKED_LAYOUT();
	start_recorder(0);
	enable("ltt_test:arrays");
	tracepoint(ltt_test, arrays, arr, "hi", net);
	struct ust_record r = only_record();
	ASSERT_EQ_U64(r.len, sizeof(want));
	ASSERT_EQ_MEM(r.payload, want, sizeof(want));
	size_t off[8];
	decode(&r, off);
}

TEST(sequences_carry_their_length_field_first)
{
	reset_all();
	static const uint64_t vals[2] = { 0x1111111111111111, 0x2222222222222222 };
	unsigned char want[64];
	size_t n = 0;

	PACKED_LAYOUT();
	memset(want, 0, sizeof(want));
	want[n++] = 9;				/* first @0 */
	want[n++] = 2;				/* _vals_length (uint8_t) @1 */
	memcpy(want + n, vals, 16);		/* vals @2 */
	n += 16;				/* 18 */
	want[n] = 3;				/* _text_length (unsigned int) @18 */
	n += 4;
	memcpy(want + n, "abc", 3);		/* text, 3 bytes, no NUL, @22 */
	n += 3;					/* 25 */
	want[n] = 1;				/* _h16_length (uint16_t) @25 */
	n += 2;
	want[n] = 0x11;				/* h16[0] = low half of vals[0] @27 */
	want[n + 1] = 0x11;
	n += 2;					/* 29 */
	/* _n32_length (size_t) = 0 @29, no elements */
	n += 8;

	start_recorder(0);
	enable("ltt_test:seqs");
	tracepoint(ltt_test, seqs, vals, 2, "abcdef", 3);
	struct ust_record r = only_record();
	ASSERT_EQ_U64(r.len, n);
	ASSERT_EQ_MEM(r.payload, want, n);
	ASSERT_EQ_U64(value_of(&r, "_vals_length"), 2);
	ASSERT_EQ_U64(value_of(&r, "_text_length"), 3);
}

TEST(sequence_text_shorter_than_length_is_padded_with_nul)
{
	reset_all();
	static const uint64_t vals[1] = { 5 };

	start_recorder(0);
	enable("ltt_test:seqs");
	tracepoint(ltt_test, seqs, vals, 0, "ab", 5);
	struct ust_record r = only_record();
	size_t off[16];
	decode(&r, off);
	ASSERT_EQ_U64(value_of(&r, "_text_length"), 5);
	ASSERT_EQ_MEM(r.payload + off[field_index(r.desc, "text")], "ab\0\0\0", 5);
	ASSERT_EQ_U64(value_of(&r, "_vals_length"), 0);
}

TEST(enums_are_written_as_their_container)
{
	reset_all();
	static const unsigned char want[] = { 0xfd, 0xff, 0xff, 0xff, 4 };

	start_recorder(0);
	enable("ltt_test:enums");
	tracepoint(ltt_test, enums, -3, 4);
	struct ust_record r = only_record();
	ASSERT_EQ_U64(r.len, sizeof(want));
	ASSERT_EQ_MEM(r.payload, want, sizeof(want));
}

TEST(nowrite_fields_are_absent_from_the_record)
{
	reset_all();
	static const int arr[2] = { 10, 20 };
	static const unsigned char want[] = { 6, 0, 0, 0, 's', 't', 'r', 0 };

	start_recorder(0);
	enable("ltt_test:nowrite");
	tracepoint(ltt_test, nowrite, 5, "str", arr, 2);
	struct ust_record r = only_record();
	ASSERT_EQ_U64(r.len, sizeof(want));
	ASSERT_EQ_MEM(r.payload, want, sizeof(want));
	size_t off[32];
	decode(&r, off);
	ASSERT_EQ_U64(off[field_index(r.desc, "hidden")], NOT_WRITTEN);
}

TEST(event_class_instances_record_their_own_name)
{
	reset_all();
	start_recorder(0);
	enable("ltt_test:inst_*");
	tracepoint(ltt_test, inst_err, 1, "disk");
	tracepoint(ltt_test, inst_debug, 2, "net");

	size_t cur = 0;
	struct ust_record r;
	ASSERT_OK(ust_recorder_next(rec, &cur, &r));
	ASSERT_EQ_STR(r.desc->name, "ltt_test:inst_err");
	ASSERT_EQ_U64(value_of(&r, "v"), 1);
	ASSERT_EQ_MEM(r.payload + 4, "disk", 5);
	ASSERT_OK(ust_recorder_next(rec, &cur, &r));
	ASSERT_EQ_STR(r.desc->name, "ltt_test:inst_debug");
	ASSERT_EQ_MEM(r.payload + 4, "net", 4);
}

TEST(every_event_decodes_as_described)
{
	reset_all();
	static const uint32_t arr[3] = { 1, 2, 3 };
	static const uint16_t net[2] = { 1, 2 };
	static const uint64_t vals[3] = { 1, 2, 3 };
	static const int iarr[2] = { 1, 2 };
	size_t cur = 0, n = 0, off[64];
	struct ust_record r;

	start_recorder(0);
	enable("*");
	tracepoint(ltt_test, ints, 1, 2, 3, 4, 5, 6, 7, 8);
	tracepoint(ltt_test, bases, 1, 2, 3);
	tracepoint(ltt_test, floats, 1, 2);
	tracepoint(ltt_test, strings, "x", "yy");
	tracepoint(ltt_test, arrays, arr, "0123456789", net);
	tracepoint(ltt_test, seqs, vals, 3, "text", 2);
	tracepoint(ltt_test, enums, 1, 2);
	tracepoint(ltt_test, nowrite, 1, "s", iarr, 2);
	tracepoint(ltt_test, inst_err, 1, "a");
	tracepoint(ltt_test, inst_debug, 1, NULL);
	tracepoint(ltt_test, noargs);
	tracepoint(ltt_test, counted, 1, 2);
	while (ust_recorder_next(rec, &cur, &r) == 0) {
		decode(&r, off);
		n++;
	}
	ASSERT_EQ_INT(n, 12);
}

/* ===== channels, filters, accounting ===== */

TEST(an_event_is_recorded_once_per_channel)
{
	reset_all();
	struct ust_recorder *other = NULL;

	start_recorder(0);
	ASSERT_OK(ust_recorder_create(4096, &other));
	ASSERT_OK(ust_tracer_attach_recorder(5, other));
	enable_rule("ltt_test:ints", UST_LOGLEVEL_ALL, 0, NULL, 0, 0);
	enable_rule("ltt_test:*", UST_LOGLEVEL_RANGE, TRACE_INFO, NULL, 0, 5);
	tracepoint(ltt_test, ints, 1, 2, 3, 4, 5, 6, 7, 8);
	tracepoint(ltt_test, floats, 1, 2);	/* default level: not in 5 */
	ASSERT_EQ_INT(nr_records(), 1);
	size_t cur = 0;
	struct ust_record a, b;
	ASSERT_OK(ust_recorder_next(rec, &cur, &a));
	cur = 0;
	ASSERT_OK(ust_recorder_next(other, &cur, &b));
	ASSERT_EQ_INT(ust_recorder_next(other, &cur, &b), -ENOENT);
	cur = 0;
	ASSERT_OK(ust_recorder_next(other, &cur, &b));
	ASSERT_EQ_U64(a.len, b.len);
	ASSERT_EQ_MEM(a.payload, b.payload, a.len);
	ust_tracer_detach(5);
	ust_recorder_free(other);
}

struct filter_probe {
	int calls;
	int64_t last_v;
	const char *last_why;
	uint64_t head_at_call;
};

/* Records inst_err events whose v is even; notes what it saw. */
static int even_filter(void *arg, const struct ltt_event_desc *desc,
		       const struct ltt_filter_value *values)
{
	struct filter_probe *fp = arg;
	uint64_t recorded, discarded;

	fp->calls++;
	ASSERT_EQ_STR(desc->name, "ltt_test:inst_err");
	fp->last_v = values[0].v.s;
	fp->last_why = values[1].v.ptr;
	/* Evaluated before reserving: nothing claimed for this event yet. */
	ust_recorder_counts(rec, &recorded, &discarded);
	fp->head_at_call = recorded + discarded;
	return values[0].v.s % 2 == 0;
}

TEST(filters_run_before_reserving_on_the_field_values)
{
	reset_all();
	struct filter_probe fp = { 0 };
	struct ust_rule_spec spec = {
		.pattern = "ltt_test:inst_err", .channel = 0,
		.filter = even_filter, .filter_arg = &fp,
	};
	uint64_t id;

	start_recorder(0);
	ASSERT_OK(ust_rule_add(&spec, &id));
	ASSERT_EQ_INT(desc_of("ltt_test:inst_err")->state->flags, LTT_EVENT_STATE_FILTER);
	tracepoint(ltt_test, inst_err, 3, "odd");
	ASSERT_EQ_INT(fp.calls, 1);
	ASSERT_EQ_INT(fp.last_v, 3);
	ASSERT_EQ_STR(fp.last_why, "odd");
	ASSERT_EQ_INT(nr_records(), 0);
	tracepoint(ltt_test, inst_err, 4, "even");
	ASSERT_EQ_INT(fp.calls, 2);
	ASSERT_EQ_U64(fp.head_at_call, 0);
	ASSERT_EQ_INT(nr_records(), 1);

	/* A rule without filter on the same channel: no more filtering. */
	enable("ltt_test:inst_err");
	ASSERT_EQ_INT(desc_of("ltt_test:inst_err")->state->flags, 0);
	tracepoint(ltt_test, inst_err, 5, "odd");
	ASSERT_EQ_INT(fp.calls, 2);
	ASSERT_EQ_INT(nr_records(), 2);
	ust_registry_reset();
}

static int values_filter(void *arg, const struct ltt_event_desc *desc,
			 const struct ltt_filter_value *values)
{
	int *ok = arg;

	(void)desc;
	/* ltt_test:seqs: first, _vals_length, vals, _text_length, text, ... */
	*ok = values[0].v.u == 9 && values[1].v.u == 2 && values[2].len == 2 &&
	      ((const uint64_t *)values[2].v.ptr)[1] == 77 && values[3].v.u == 3 &&
	      memcmp(values[4].v.ptr, "abc", 3) == 0;
	return 1;
}

TEST(filter_values_follow_descriptor_order)
{
	reset_all();
	static const uint64_t vals[2] = { 66, 77 };
	int ok = 0;
	struct ust_rule_spec spec = {
		.pattern = "ltt_test:seqs", .filter = values_filter, .filter_arg = &ok,
	};
	uint64_t id;

	start_recorder(0);
	ASSERT_OK(ust_rule_add(&spec, &id));
	tracepoint(ltt_test, seqs, vals, 2, "abc", 3);
	ASSERT_EQ_INT(ok, 1);
	ASSERT_EQ_INT(nr_records(), 1);
	ust_registry_reset();
}

TEST(full_recorder_counts_discarded_exactly)
{
	reset_all();
	struct ust_recorder *small = NULL;
	uint64_t recorded, discarded;
	size_t cur = 0;
	struct ust_record r;

	ASSERT_OK(ust_recorder_create(256, &small));
	ASSERT_OK(ust_tracer_attach_recorder(0, small));
	enable("ltt_test:ints");
	for (int i = 0; i < 100; i++)
		tracepoint(ltt_test, ints, 1, 2, 3, 4, 5, 6, 7, i);
	ust_recorder_counts(small, &recorded, &discarded);
	ASSERT_EQ_U64(recorded + discarded, 100);
	ASSERT_GT_INT(recorded, 0);
	ASSERT_GT_INT(discarded, 0);
	for (uint64_t i = 0; i < recorded; i++) {
		ASSERT_OK(ust_recorder_next(small, &cur, &r));
		ASSERT_EQ_U64(value_of(&r, "u64"), i);
	}
	ASSERT_EQ_INT(ust_recorder_next(small, &cur, &r), -ENOENT);
	ust_tracer_detach(0);
	ust_recorder_free(small);
}

#define STRESS_THREADS 4
#define STRESS_EVENTS 5000

static void on_signal(int sig)
{
	(void)sig;
	tracepoint(ltt_test, counted, 99, 0);
}

static void *stress_thread(void *arg)
{
	uint32_t t = (uint32_t)(uintptr_t)arg;

	for (uint32_t i = 0; i < STRESS_EVENTS; i++) {
		tracepoint(ltt_test, counted, t, i);
		if (t == 0 && i % 100 == 0)
			raise(SIGUSR1);
	}
	return NULL;
}

TEST(threads_and_signal_handlers_record_every_event)
{
	reset_all();
	pthread_t th[STRESS_THREADS];
	uint32_t next[STRESS_THREADS] = { 0 };
	unsigned from_signal = 0;
	uint64_t recorded, discarded;
	size_t cur = 0;
	struct ust_record r;

	start_recorder(0);
	signal(SIGUSR1, on_signal);
	enable("ltt_test:counted");
	for (uintptr_t t = 0; t < STRESS_THREADS; t++)
		ASSERT_EQ_INT(pthread_create(&th[t], NULL, stress_thread, (void *)t), 0);
	for (int t = 0; t < STRESS_THREADS; t++)
		pthread_join(th[t], NULL);
	ust_recorder_counts(rec, &recorded, &discarded);
	ASSERT_EQ_U64(discarded, 0);
	ASSERT_EQ_U64(recorded, STRESS_THREADS * STRESS_EVENTS + STRESS_EVENTS / 100);
	while (ust_recorder_next(rec, &cur, &r) == 0) {
		uint32_t v[3];

		ASSERT_EQ_U64(r.len, 12);
		memcpy(v, r.payload, 12);
		ASSERT_EQ_HEX(v[2], v[0] * 2654435761u ^ v[1]);
		if (v[0] == 99) {
			from_signal++;
			continue;
		}
		ASSERT_LT_INT(v[0], STRESS_THREADS);
		ASSERT_EQ_INT(v[1], next[v[0]]);	/* per thread, in order */
		next[v[0]]++;
	}
	for (int t = 0; t < STRESS_THREADS; t++)
		ASSERT_EQ_INT(next[t], STRESS_EVENTS);
	ASSERT_EQ_INT(from_signal, STRESS_EVENTS / 100);
}

/* ===== shared objects ===== */

TEST(provider_in_dlopened_object_registers_and_unregisters)
{
	reset_all();
	void (*emit)(int);
	void *h;

	start_recorder(0);
	enable("ltt_lib:*");
	ASSERT_NULL(ust_event_lookup("ltt_lib:hello"));
	h = dlopen(TP_LIB_PATH, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		test_fail(__FILE__, __LINE__, "dlopen: %s", dlerror());
	ASSERT_NOT_NULL(ust_event_lookup("ltt_lib:hello"));
	ASSERT_EQ_INT(tp_state("ltt_lib:hello"), 1);	/* the rule applies to late comers */
	*(void **)&emit = dlsym(h, "tp_lib_emit");
	ASSERT_NOT_NULL(emit);
	emit(42);
	struct ust_record r = only_record();
	ASSERT_EQ_STR(r.desc->name, "ltt_lib:hello");
	ASSERT_EQ_U64(value_of(&r, "v"), 42);
	ASSERT_EQ_INT(dlclose(h), 0);
	ASSERT_NULL(ust_event_lookup("ltt_lib:hello"));
	ASSERT_NULL(ust_tracepoint_lookup("ltt_lib:hello"));
	/* The program's own provider is untouched. */
	ASSERT_NOT_NULL(ust_event_lookup("ltt_test:ints"));
}

TEST(dynamic_linkage_binds_the_probe_when_its_object_loads)
{
	reset_all();
	struct ltt_tracepoint *tp = ust_tracepoint_lookup("ltt_dyn:ping");
	void *h;

	ASSERT_NOT_NULL(tp);
	ASSERT_NULL(tp->provider);
	start_recorder(0);
	enable("ltt_dyn:*");
	ASSERT_EQ_INT(tp->state, 0);		/* no probe yet */
	ASSERT_NULL(tp->probe);
	tp_dyn_emit(1, "lost");
	ASSERT_EQ_INT(nr_records(), 0);

	h = dlopen(TP_DYN_PROBE_PATH, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		test_fail(__FILE__, __LINE__, "dlopen: %s", dlerror());
	ASSERT_EQ_INT(tp->state, 1);
	ASSERT_NOT_NULL(tp->probe);
	ASSERT_EQ_PTR((void *)tp->probe, (void *)desc_of("ltt_dyn:ping")->probe);
	tp_dyn_emit(2, "kept");
	struct ust_record r = only_record();
	ASSERT_EQ_STR(r.desc->name, "ltt_dyn:ping");
	ASSERT_EQ_MEM(r.payload, "\x02\0\0\0kept", 9);

	ASSERT_EQ_INT(dlclose(h), 0);
	ASSERT_EQ_INT(tp->state, 0);
	ASSERT_NULL(tp->probe);
	tp_dyn_emit(3, "lost");
	ASSERT_EQ_INT(nr_records(), 1);
}

TEST(dynamic_linkage_refuses_a_probe_with_another_signature)
{
	reset_all();
	struct ltt_tracepoint *tp = ust_tracepoint_lookup("ltt_dyn:ping");
	struct ltt_tracepoint fake = *tp;
	struct ltt_tracepoint *tps[1] = { &fake };

	fake.signature = "long, v";
	ASSERT_OK(ltt_ust_tracepoints_register(tps, 1));
	enable("ltt_dyn:*");
	void *h = dlopen(TP_DYN_PROBE_PATH, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		test_fail(__FILE__, __LINE__, "dlopen: %s", dlerror());
	ASSERT_EQ_INT(tp->state, 1);
	ASSERT_EQ_INT(fake.state, 0);
	ASSERT_NULL(fake.probe);
	ASSERT_EQ_INT(dlclose(h), 0);
	ltt_ust_tracepoints_unregister(tps);
}

TEST(registry_works_in_a_forked_child)
{
	pid_t pid;
	int status = -1;

	reset_all();
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		uint64_t id;
		struct ust_rule_spec spec = { .pattern = "ltt_test:ints" };

		_exit(ust_rule_add(&spec, &id) == 0 && tp_state("ltt_test:ints") == 1 ? 0 : 1);
	}
	ASSERT_EQ_INT(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ_INT(WEXITSTATUS(status), 0);
	ASSERT_EQ_INT(tp_state("ltt_test:ints"), 0);	/* the child's rule stayed there */
}

static int count_events(void *arg, const struct ltt_event_desc *desc)
{
	int *n = arg;

	if (strncmp(desc->name, "ltt_test:", 9) == 0)
		(*n)++;
	return strcmp(desc->name, "ltt_test:counted") == 0 ? 7 : 0;
}

TEST(events_are_listed_in_registration_order)
{
	int n = 0;

	reset_all();
	/* 12 events; the walk stops at the last one, whose callback returns 7. */
	ASSERT_EQ_INT(ust_events_foreach(count_events, &n), 7);
	ASSERT_EQ_INT(n, 12);
}
