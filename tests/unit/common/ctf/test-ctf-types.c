/* Tests of the type model, validation and TSDL generation. */
#include <errno.h>

#include "ctf/ctf.h"
#include "ltt-test.h"

static const uint8_t uuid[16] = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
				  0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };

static struct ctf_type *named(const char *n)
{
	struct ctf_type *t = NULL;

	ASSERT_OK(ctf_type_by_name(n, &t));
	return t;
}

static struct ctf_type *st_new(void)
{
	struct ctf_type *t = NULL;

	ASSERT_OK(ctf_type_struct_create(0, &t));
	return t;
}

/* A trace with a clock and stream class 0 (compact headers). */
static struct ctf_trace *trace_new(void)
{
	struct ctf_clock_desc c = { .name = "monotonic", .freq = 1000000000 };
	struct ctf_error err = { { 0 } };
	struct ctf_trace *t = NULL;

	ASSERT_OK(ctf_trace_create(uuid, CTF_BO_LE, &t));
	ASSERT_OK(ctf_trace_add_clock(t, &c, &err));
	ASSERT_OK(ctf_trace_add_stream_class(t, 0, CTF_HEADER_COMPACT, "monotonic", NULL,
					     &err, NULL));
	return t;
}

static const char *metadata(struct ctf_trace *t)
{
	const char *text;
	size_t len;

	ASSERT_OK(ctf_trace_metadata(t, &text, &len));
	ASSERT_EQ_U64(strlen(text), len);
	return text;
}

/* Adds event "ev" with payload p to t; returns the event's TSDL block. */
static char *event_tsdl(struct ctf_trace *t, const char *name, uint32_t id,
			struct ctf_type *p)
{
	struct ctf_event_class_desc d = { .name = name, .id = id };
	struct ctf_error err = { { 0 } };
	size_t before;
	const char *text;

	text = metadata(t);
	before = strlen(text);
	if (ctf_trace_add_event_class(t, &d, p, &err, NULL) < 0)
		test_fail(__FILE__, __LINE__, "add_event_class: %s", err.msg);
	return strdup(metadata(t) + before);
}

/* The TSDL of a one-field payload: the line between "struct {" and "};". */
static char *field_tsdl(struct ctf_type *type)
{
	struct ctf_trace *t = trace_new();
	struct ctf_type *p = st_new();
	char *ev, *s, *e, *out;

	ASSERT_OK(ctf_type_struct_add(p, "f", type));
	ev = event_tsdl(t, "x", 0, p);
	s = strstr(ev, "fields := struct {\n");
	ASSERT_NOT_NULL(s);
	s += strlen("fields := struct {\n");
	e = strstr(s, ";\n\t};\n};");
	ASSERT_NOT_NULL(e);
	out = strndup(s, (size_t)(e - s));
	free(ev);
	ctf_trace_free(t);
	return out;
}

TEST(integer_tsdl)
{
	struct ctf_int_params p = { .size = 13, .align = 1, .is_signed = true, .base = 16 };
	struct ctf_type *t;

	ASSERT_EQ_STR(field_tsdl(named("uint32_t")),
		      "\t\tinteger { size = 32; align = 32; signed = 0; encoding = none; "
		      "base = 10; } _f");
	ASSERT_EQ_STR(field_tsdl(named("int64_t")),
		      "\t\tinteger { size = 64; align = 64; signed = 1; encoding = none; "
		      "base = 10; } _f");
	ASSERT_OK(ctf_type_int_create(&p, &t));
	ASSERT_EQ_STR(field_tsdl(t),
		      "\t\tinteger { size = 13; align = 1; signed = 1; encoding = none; "
		      "base = 16; } _f");
	p = (struct ctf_int_params){ .size = 16, .align = 8, .base = 8,
				     .byte_order = CTF_BO_BE };
	ASSERT_OK(ctf_type_int_create(&p, &t));
	ASSERT_EQ_STR(field_tsdl(t),
		      "\t\tinteger { size = 16; align = 8; signed = 0; encoding = none; "
		      "base = 8; byte_order = be; } _f");
	p = (struct ctf_int_params){ .size = 64, .align = 64, .base = 2,
				     .map_clock = "monotonic" };
	ASSERT_OK(ctf_type_int_create(&p, &t));
	ASSERT_EQ_STR(field_tsdl(t),
		      "\t\tinteger { size = 64; align = 64; signed = 0; encoding = none; "
		      "base = 2; map = clock.monotonic.value; } _f");
	/* Default alignment: 8 for whole bytes, 1 for bitfields. */
	p = (struct ctf_int_params){ .size = 24 };
	ASSERT_OK(ctf_type_int_create(&p, &t));
	ASSERT_EQ_INT(t->i.align, 8);
	ctf_type_free(t);
	p = (struct ctf_int_params){ .size = 3 };
	ASSERT_OK(ctf_type_int_create(&p, &t));
	ASSERT_EQ_INT(t->i.align, 1);
	ctf_type_free(t);
}

TEST(integer_constructor_rejects_impossible_parameters)
{
	struct ctf_type *t = NULL;
	struct ctf_int_params p = { .size = 0 };

	ASSERT_EQ_INT(ctf_type_int_create(&p, &t), -EINVAL);
	p.size = 65;
	ASSERT_EQ_INT(ctf_type_int_create(&p, &t), -EINVAL);
	p.size = 8;
	p.align = 3;
	ASSERT_EQ_INT(ctf_type_int_create(&p, &t), -EINVAL);
	p.align = 8;
	p.base = 7;
	ASSERT_EQ_INT(ctf_type_int_create(&p, &t), -EINVAL);
	ASSERT_NULL(t);
}

TEST(float_string_tsdl)
{
	struct ctf_type *t;

	ASSERT_EQ_STR(field_tsdl(named("float")),
		      "\t\tfloating_point { exp_dig = 8; mant_dig = 24; align = 32; } _f");
	ASSERT_EQ_STR(field_tsdl(named("double")),
		      "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 64; } _f");
	ASSERT_OK(ctf_type_float_create(11, 53, 8, CTF_BO_BE, &t));
	ASSERT_EQ_STR(field_tsdl(t), "\t\tfloating_point { exp_dig = 11; mant_dig = 53; "
		      "align = 8; byte_order = be; } _f");
	ASSERT_EQ_STR(field_tsdl(named("string")), "\t\tstring _f");
	ASSERT_OK(ctf_type_string_create(CTF_ENC_ASCII, &t));
	ASSERT_EQ_STR(field_tsdl(t), "\t\tstring { encoding = ASCII; } _f");
}

TEST(array_sequence_tsdl)
{
	struct ctf_trace *t = trace_new();
	struct ctf_type *p = st_new(), *a;
	char *ev;

	ASSERT_OK(ctf_type_array_create(named("char"), 16, &a));
	ASSERT_OK(ctf_type_struct_add(p, "comm", a));
	ASSERT_OK(ctf_type_struct_add(p, "len", named("uint16_t")));
	ASSERT_OK(ctf_type_sequence_create(named("int32_t"), "len", &a));
	ASSERT_OK(ctf_type_struct_add(p, "vals", a));
	ev = event_tsdl(t, "prov:seq", 7, p);
	ASSERT_EQ_STR(ev,
		"event {\n"
		"\tname = \"prov:seq\";\n"
		"\tid = 7;\n"
		"\tstream_id = 0;\n"
		"\tfields := struct {\n"
		"\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _comm[16];\n"
		"\t\tinteger { size = 16; align = 16; signed = 0; encoding = none; base = 10; } _len;\n"
		"\t\tinteger { size = 32; align = 32; signed = 1; encoding = none; base = 10; } _vals[ _len ];\n"
		"\t};\n"
		"};\n\n");
	free(ev);
	ctf_trace_free(t);
}

TEST(enum_tsdl_with_negative_values_and_ranges)
{
	struct ctf_type *e;

	ASSERT_OK(ctf_type_enum_create(named("int8_t"), &e));
	ASSERT_OK(ctf_type_enum_add(e, "NEG", (uint64_t)-128, (uint64_t)-1));
	ASSERT_OK(ctf_type_enum_add(e, "ZERO", 0, 0));
	ASSERT_OK(ctf_type_enum_add(e, "say \"hi\"", 5, 127));
	ASSERT_EQ_STR(field_tsdl(e),
		"\t\tenum : integer { size = 8; align = 8; signed = 1; encoding = none; base = 10; } {\n"
		"\t\t\t\"NEG\" = -128 ... -1,\n"
		"\t\t\t\"ZERO\" = 0,\n"
		"\t\t\t\"say \\\"hi\\\"\" = 5 ... 127,\n"
		"\t\t} _f");
}

TEST(nested_struct_tsdl)
{
	struct ctf_type *in, *deep;

	ASSERT_OK(ctf_type_struct_create(64, &in));
	ASSERT_OK(ctf_type_struct_add(in, "a", named("uint8_t")));
	deep = st_new();
	ASSERT_OK(ctf_type_struct_add(deep, "s", named("string")));
	ASSERT_OK(ctf_type_struct_add(in, "deep", deep));
	ASSERT_EQ_STR(field_tsdl(in),
		"\t\tstruct {\n"
		"\t\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 10; } _a;\n"
		"\t\t\tstruct {\n"
		"\t\t\t\tstring _s;\n"
		"\t\t\t} _deep;\n"
		"\t\t} align(64) _f");
}

TEST(preamble_is_lttng_shaped)
{
	struct ctf_clock_desc c = {
		.name = "monotonic", .uuid = uuid, .description = "Monotonic Clock",
		.freq = 1000000000, .offset_s = 1700000000, .offset = 42, .absolute = true,
	};
	struct ctf_env_lttng env = {
		.domain = "ust", .tracer_major = 2, .tracer_minor = 13,
		.buffering_scheme = "uid", .buffering_id = 1000,
		.architecture_bit_width = 64, .hostname = "h", .trace_name = "s",
		.trace_creation_datetime = "20260101T000000+0000", .ltt_version = "0.1.0",
	};
	struct ctf_error err = { { 0 } };
	struct ctf_trace *t;
	struct ctf_type *ctx = st_new();
	const char *m;

	ASSERT_OK(ctf_trace_create(uuid, CTF_BO_LE, &t));
	ASSERT_OK(ctf_trace_env_lttng(t, &env, &err));
	ASSERT_OK(ctf_trace_add_clock(t, &c, &err));
	ASSERT_OK(ctf_type_struct_add(ctx, "vpid", named("int32_t")));
	ASSERT_OK(ctf_trace_add_stream_class(t, 3, CTF_HEADER_LARGE, "monotonic", ctx,
					     &err, NULL));
	m = metadata(t);
	ASSERT_TRUE(strncmp(m, "/* CTF 1.8 */\n", 14) == 0);
	ASSERT_CONTAINS(m, "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n");
	ASSERT_CONTAINS(m, "typealias integer { size = 64; align = 64; signed = false; } := unsigned long;\n");
	ASSERT_CONTAINS(m, "trace {\n\tmajor = 1;\n\tminor = 8;\n"
			"\tuuid = \"12345678-9abc-def0-0123-456789abcdef\";\n"
			"\tbyte_order = le;\n"
			"\tpacket.header := struct {\n\t\tuint32_t magic;\n"
			"\t\tuint8_t  uuid[16];\n\t\tuint32_t stream_id;\n"
			"\t\tuint64_t stream_instance_id;\n\t};\n};\n");
	ASSERT_CONTAINS(m, "env {\n\tdomain = \"ust\";\n\ttracer_name = \"lttng-ust\";\n"
			"\ttracer_major = 2;\n\ttracer_minor = 13;\n"
			"\ttracer_buffering_scheme = \"uid\";\n\ttracer_buffering_id = 1000;\n"
			"\tarchitecture_bit_width = 64;\n\ttrace_name = \"s\";\n"
			"\ttrace_creation_datetime = \"20260101T000000+0000\";\n"
			"\thostname = \"h\";\n\tltt_tracer = \"ltt\";\n"
			"\tltt_version = \"0.1.0\";\n};\n");
	ASSERT_CONTAINS(m, "clock {\n\tname = \"monotonic\";\n"
			"\tuuid = \"12345678-9abc-def0-0123-456789abcdef\";\n"
			"\tdescription = \"Monotonic Clock\";\n\tfreq = 1000000000;");
	ASSERT_CONTAINS(m, "\toffset_s = 1700000000;\n\toffset = 42;\n\tprecision = 0;\n"
			"\tabsolute = TRUE;\n};\n");
	ASSERT_CONTAINS(m, "map = clock.monotonic.value;\n} := uint27_clock_monotonic_t;");
	ASSERT_CONTAINS(m, "struct packet_context {\n"
			"\tuint64_clock_monotonic_t timestamp_begin;\n"
			"\tuint64_clock_monotonic_t timestamp_end;\n"
			"\tuint64_t content_size;\n\tuint64_t packet_size;\n"
			"\tuint64_t packet_seq_num;\n\tunsigned long events_discarded;\n"
			"\tuint32_t cpu_id;\n};\n");
	ASSERT_CONTAINS(m, "struct event_header_compact {\n"
			"\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n");
	ASSERT_CONTAINS(m, "} align(32);\n");
	ASSERT_CONTAINS(m, "\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n");
	ASSERT_CONTAINS(m, "stream {\n\tid = 3;\n"
			"\tevent.header := struct event_header_large;\n"
			"\tpacket.context := struct packet_context;\n"
			"\tevent.context := struct {\n"
			"\t\tinteger { size = 32; align = 32; signed = 1; encoding = none; base = 10; } _vpid;\n"
			"\t};\n};\n");
	ctf_trace_free(t);
}

TEST(kernel_env_helper)
{
	struct ctf_env_lttng env = {
		.domain = "kernel", .tracer_major = 2, .tracer_minor = 13,
		.sysname = "Linux", .kernel_release = "6.18.0", .kernel_version = "#1 SMP",
		.hostname = "h",
	};
	struct ctf_error err = { { 0 } };
	struct ctf_trace *t;
	const char *m;

	ASSERT_OK(ctf_trace_create(uuid, CTF_BO_LE, &t));
	ASSERT_OK(ctf_trace_env_lttng(t, &env, &err));
	ASSERT_OK(ctf_trace_env_set_int(t, "extra", -5, &err));
	ASSERT_OK(ctf_trace_env_set_string(t, "hostname", "h2", &err));	/* replaces */
	m = metadata(t);
	ASSERT_CONTAINS(m, "env {\n\thostname = \"h2\";\n\tdomain = \"kernel\";\n"
			"\tsysname = \"Linux\";\n\tkernel_release = \"6.18.0\";\n"
			"\tkernel_version = \"#1 SMP\";\n\ttracer_name = \"lttng-modules\";\n"
			"\ttracer_major = 2;\n\ttracer_minor = 13;\n\ttracer_patchlevel = 0;\n"
			"\ttrace_buffering_scheme = \"global\";\n\tltt_tracer = \"ltt\";\n"
			"\textra = -5;\n};\n");
	/* Frozen once the preamble is out. */
	ASSERT_EQ_INT(ctf_trace_env_set_int(t, "late", 1, &err), -EBUSY);
	ASSERT_CONTAINS(err.msg, "late");
	ctf_trace_free(t);
}

TEST(metadata_grows_by_appending_events)
{
	struct ctf_trace *t = trace_new();
	struct ctf_clock_desc c = { .name = "other", .freq = 1 };
	struct ctf_error err = { { 0 } };
	char *first, *pre;
	const char *now;
	char *ev;

	pre = strdup(metadata(t));
	ev = event_tsdl(t, "a:b", 1, NULL);
	ASSERT_EQ_STR(ev, "event {\n\tname = \"a:b\";\n\tid = 1;\n\tstream_id = 0;\n"
		      "\tfields := struct {\n\t};\n};\n\n");
	free(ev);
	first = strdup(metadata(t));
	ASSERT_TRUE(strncmp(first, pre, strlen(pre)) == 0);
	{
		struct ctf_event_class_desc d = { .name = "c", .id = 2, .has_loglevel = true,
						  .loglevel = 13, .emf_uri = "http://x/y" };
		ASSERT_OK(ctf_trace_add_event_class(t, &d, NULL, &err, NULL));
	}
	now = metadata(t);
	ASSERT_TRUE(strncmp(now, first, strlen(first)) == 0);	/* a prefix: appended */
	ASSERT_CONTAINS(now + strlen(first), "\tloglevel = 13;\n\tmodel.emf.uri = \"http://x/y\";\n");
	/* No more clocks or stream classes once the preamble is written. */
	ASSERT_EQ_INT(ctf_trace_add_clock(t, &c, &err), -EBUSY);
	ASSERT_EQ_INT(ctf_trace_add_stream_class(t, 1, CTF_HEADER_LARGE, "monotonic", NULL,
						 &err, NULL), -EBUSY);
	free(first);
	free(pre);
	ctf_trace_free(t);
}

TEST(new_uuid_and_clock_offset_rewrite_the_preamble_only)
{
	static const uint8_t other[16] = { 0xaa, 0xbb, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0,
					   0, 0x01 };
	struct ctf_trace *t = trace_new();
	struct ctf_event_class_desc d = { .name = "x:y", .id = 7 };
	struct ctf_error err = { { 0 } };
	char *before, *ev;
	const char *now;

	/* before the preamble exists: the values simply change */
	ASSERT_OK(ctf_trace_set_clock_offset(t, "monotonic", 5, 6));
	ASSERT_OK(ctf_trace_add_event_class(t, &d, NULL, &err, NULL));
	before = strdup(metadata(t));
	ASSERT_CONTAINS(before, "\toffset_s = 5;\n\toffset = 6;\n");
	ev = strdup(strstr(before, "event {"));
	ASSERT_OK(ctf_trace_set_uuid(t, other));
	ASSERT_OK(ctf_trace_set_clock_offset(t, "monotonic", -3, 999));
	ASSERT_EQ_INT(ctf_trace_set_clock_offset(t, "nope", 1, 1), -ENOENT);
	now = metadata(t);
	ASSERT_CONTAINS(now, "uuid = \"aabb0000-0000-4000-8000-000000000001\";");
	ASSERT_CONTAINS(now, "\toffset_s = -3;\n\toffset = 999;\n");
	ASSERT_EQ_STR(strstr(now, "event {"), ev);	/* the event classes, unchanged */
	ASSERT_EQ_INT(memcmp(ctf_trace_uuid(t), other, 16), 0);
	free(ev);
	free(before);
	ctf_trace_free(t);
}

/* Adds a one-field event; expects failure r with message containing msg. */
static void expect_rejected(struct ctf_type *p, int r, const char *msg)
{
	struct ctf_trace *t = trace_new();
	struct ctf_event_class_desc d = { .name = "bad:event", .id = 1 };
	struct ctf_error err = { { 0 } };
	char *before = strdup(metadata(t));

	ASSERT_EQ_INT(ctf_trace_add_event_class(t, &d, p, &err, NULL), r);
	ASSERT_CONTAINS(err.msg, msg);
	ASSERT_CONTAINS(err.msg, "event 'bad:event'");
	ASSERT_EQ_STR(metadata(t), before);	/* the metadata did not change */
	ASSERT_NULL(ctf_trace_event_class(t, 0, 1));
	free(before);
	ctf_trace_free(t);
}

TEST(rejects_invalid_identifier)
{
	struct ctf_type *p = st_new();

	ASSERT_OK(ctf_type_struct_add(p, "ok", named("uint8_t")));
	ASSERT_OK(ctf_type_struct_add(p, "9lives", named("uint8_t")));
	expect_rejected(p, -EINVAL, "field '9lives': '9lives' is not a TSDL identifier");
	p = st_new();
	ASSERT_OK(ctf_type_struct_add(p, "a-b", named("uint8_t")));
	expect_rejected(p, -EINVAL, "'a-b' is not a TSDL identifier");
	p = st_new();
	ASSERT_OK(ctf_type_struct_add(p, "", named("uint8_t")));
	expect_rejected(p, -EINVAL, "is not a TSDL identifier");
}

TEST(rejects_keyword_as_name)
{
	static const char *const kw[] = { "int", "struct", "string", "align", "event",
					  "variant", "typealias", "_Bool" };

	for (size_t i = 0; i < ARRAY_SIZE(kw); i++) {
		struct ctf_type *p = st_new();
		char want[64];

		ASSERT_OK(ctf_type_struct_add(p, kw[i], named("uint8_t")));
		snprintf(want, sizeof(want), "'%s' is a TSDL keyword", kw[i]);
		expect_rejected(p, -EINVAL, want);
	}
	ASSERT_TRUE(ctf_is_identifier("integer_"));
	ASSERT_FALSE(ctf_is_identifier("integer"));
}

TEST(rejects_duplicate_field_in_nested_struct)
{
	struct ctf_type *p = st_new(), *in = st_new();

	ASSERT_OK(ctf_type_struct_add(in, "x", named("uint8_t")));
	ASSERT_OK(ctf_type_struct_add(in, "x", named("string")));
	ASSERT_OK(ctf_type_struct_add(p, "outer", in));
	expect_rejected(p, -EINVAL, "field 'outer.x': duplicate field name 'x'");
}

TEST(rejects_bad_sequence_length)
{
	struct ctf_type *p = st_new(), *s;

	/* Unknown name. */
	ASSERT_OK(ctf_type_sequence_create(named("uint8_t"), "nope", &s));
	ASSERT_OK(ctf_type_struct_add(p, "seq", s));
	expect_rejected(p, -EINVAL, "field 'seq': sequence length 'nope' is not an earlier field");
	/* Later field. */
	p = st_new();
	ASSERT_OK(ctf_type_sequence_create(named("uint8_t"), "n", &s));
	ASSERT_OK(ctf_type_struct_add(p, "seq", s));
	ASSERT_OK(ctf_type_struct_add(p, "n", named("uint32_t")));
	expect_rejected(p, -EINVAL, "sequence length 'n' is not an earlier field");
	/* Signed. */
	p = st_new();
	ASSERT_OK(ctf_type_struct_add(p, "n", named("int32_t")));
	ASSERT_OK(ctf_type_sequence_create(named("uint8_t"), "n", &s));
	ASSERT_OK(ctf_type_struct_add(p, "seq", s));
	expect_rejected(p, -EINVAL, "sequence length 'n' is not an unsigned integer");
	/* Not an integer. */
	p = st_new();
	ASSERT_OK(ctf_type_struct_add(p, "n", named("string")));
	ASSERT_OK(ctf_type_sequence_create(named("uint8_t"), "n", &s));
	ASSERT_OK(ctf_type_struct_add(p, "seq", s));
	expect_rejected(p, -EINVAL, "sequence length 'n' is not an unsigned integer");
}

TEST(rejects_enum_out_of_range)
{
	struct ctf_type *p = st_new(), *e;

	ASSERT_OK(ctf_type_enum_create(named("uint8_t"), &e));
	ASSERT_OK(ctf_type_enum_add(e, "OK", 0, 255));
	ASSERT_OK(ctf_type_enum_add(e, "BIG", 256, 256));
	ASSERT_OK(ctf_type_struct_add(p, "state", e));
	expect_rejected(p, -EINVAL, "field 'state': enumeration label 'BIG': 256 ... 256 "
			"does not fit a 8-bit unsigned container");
	p = st_new();
	ASSERT_OK(ctf_type_enum_create(named("int8_t"), &e));
	ASSERT_OK(ctf_type_enum_add(e, "LOW", (uint64_t)-129, 0));
	ASSERT_OK(ctf_type_struct_add(p, "s", e));
	expect_rejected(p, -EINVAL, "label 'LOW': -129 ... 0 does not fit a 8-bit signed");
	p = st_new();
	ASSERT_OK(ctf_type_enum_create(named("int8_t"), &e));
	ASSERT_OK(ctf_type_enum_add(e, "REV", 5, (uint64_t)-5));
	ASSERT_OK(ctf_type_struct_add(p, "s", e));
	expect_rejected(p, -EINVAL, "label 'REV': range start is above its end");
	p = st_new();
	ASSERT_OK(ctf_type_enum_create(named("int8_t"), &e));
	ASSERT_OK(ctf_type_struct_add(p, "s", e));
	expect_rejected(p, -EINVAL, "enumeration has no mapping");
	p = st_new();
	ASSERT_OK(ctf_type_enum_create(named("string"), &e));
	ASSERT_OK(ctf_type_enum_add(e, "A", 0, 0));
	ASSERT_OK(ctf_type_struct_add(p, "s", e));
	expect_rejected(p, -EINVAL, "container must be an integer");
}

TEST(rejects_unknown_type)
{
	struct ctf_type *p = st_new(), *t = NULL;

	ASSERT_EQ_INT(ctf_type_by_name("uint128_t", &t), -ENOENT);
	ASSERT_NULL(t);
	ASSERT_OK(ctf_type_struct_add(p, "wide", t));	/* a failed lookup */
	expect_rejected(p, -EINVAL, "field 'wide': unknown type");
	p = st_new();
	ASSERT_OK(ctf_type_array_create(NULL, 4, &t));
	ASSERT_OK(ctf_type_struct_add(p, "arr", t));
	expect_rejected(p, -EINVAL, "field 'arr': unknown element type");
	p = st_new();
	ASSERT_OK(ctf_type_float_create(5, 10, 16, CTF_BO_NATIVE, &t));
	ASSERT_OK(ctf_type_struct_add(p, "half", t));
	expect_rejected(p, -EINVAL, "unsupported floating point type (exp_dig 5, mant_dig 10)");
}

TEST(rejects_other_bad_declarations)
{
	struct ctf_type *p = st_new(), *a;
	struct ctf_int_params ip = { .size = 12, .align = 1, .byte_order = CTF_BO_BE };
	struct ctf_trace *t = trace_new();
	struct ctf_error err = { { 0 } };
	struct ctf_event_class_desc d = { .name = "ok", .id = 1 };

	ASSERT_OK(ctf_type_array_create(named("uint8_t"), 2, &a));
	ASSERT_OK(ctf_type_array_create(a, 2, &a));
	ASSERT_OK(ctf_type_struct_add(p, "nested", a));
	expect_rejected(p, -EINVAL, "arrays of arrays");
	p = st_new();
	ASSERT_OK(ctf_type_int_create(&ip, &a));
	ASSERT_OK(ctf_type_struct_add(p, "be", a));
	expect_rejected(p, -EINVAL, "explicit byte order must be whole bytes");
	p = st_new();
	ip = (struct ctf_int_params){ .size = 64, .map_clock = "nosuch" };
	ASSERT_OK(ctf_type_int_create(&ip, &a));
	ASSERT_OK(ctf_type_struct_add(p, "ts", a));
	expect_rejected(p, -EINVAL, "maps to clock 'nosuch', which is not declared");

	/* Event-level checks. */
	ASSERT_OK(ctf_trace_add_event_class(t, &d, NULL, &err, NULL));
	ASSERT_EQ_INT(ctf_trace_add_event_class(t, &d, NULL, &err, NULL), -EEXIST);
	ASSERT_CONTAINS(err.msg, "id 1 is already used in stream class 0");
	d = (struct ctf_event_class_desc){ .name = "x", .id = 2, .stream_id = 9 };
	ASSERT_EQ_INT(ctf_trace_add_event_class(t, &d, NULL, &err, NULL), -EINVAL);
	ASSERT_CONTAINS(err.msg, "stream class 9 does not exist");
	d = (struct ctf_event_class_desc){ .name = "quo\"te", .id = 3 };
	ASSERT_EQ_INT(ctf_trace_add_event_class(t, &d, NULL, &err, NULL), -EINVAL);
	ASSERT_CONTAINS(err.msg, "event name");
	d = (struct ctf_event_class_desc){ .name = "", .id = 3 };
	ASSERT_EQ_INT(ctf_trace_add_event_class(t, &d, NULL, &err, NULL), -EINVAL);
	ctf_trace_free(t);
}

TEST(rejects_bad_trace_declarations)
{
	struct ctf_trace *t;
	struct ctf_error err = { { 0 } };
	struct ctf_clock_desc c = { .name = "clock", .freq = 1 };
	struct ctf_type *ctx = st_new();

	ASSERT_EQ_INT(ctf_trace_create(uuid, CTF_BO_NATIVE, &t), -EINVAL);
	ASSERT_OK(ctf_trace_create(uuid, CTF_BO_BE, &t));
	ASSERT_EQ_INT(ctf_trace_add_clock(t, &c, &err), -EINVAL);	/* keyword */
	ASSERT_CONTAINS(err.msg, "clock name 'clock'");
	c.name = "mono";
	c.freq = 0;
	ASSERT_EQ_INT(ctf_trace_add_clock(t, &c, &err), -EINVAL);
	ASSERT_CONTAINS(err.msg, "frequency 0");
	c.freq = 1000;
	ASSERT_OK(ctf_trace_add_clock(t, &c, &err));
	ASSERT_EQ_INT(ctf_trace_add_clock(t, &c, &err), -EINVAL);
	ASSERT_CONTAINS(err.msg, "already declared");
	ASSERT_EQ_INT(ctf_trace_add_stream_class(t, 0, CTF_HEADER_COMPACT, "wall", NULL,
						 &err, NULL), -EINVAL);
	ASSERT_CONTAINS(err.msg, "clock 'wall' is not declared");
	ASSERT_OK(ctf_type_struct_add(ctx, "pid", named("int32_t")));
	ASSERT_OK(ctf_type_struct_add(ctx, "pid", named("int32_t")));
	ASSERT_EQ_INT(ctf_trace_add_stream_class(t, 0, CTF_HEADER_COMPACT, "mono", ctx,
						 &err, NULL), -EINVAL);
	ASSERT_CONTAINS(err.msg, "stream class 0 event context: field 'pid': duplicate");
	ASSERT_OK(ctf_trace_add_stream_class(t, 0, CTF_HEADER_COMPACT, "mono", NULL,
					     &err, NULL));
	ASSERT_EQ_INT(ctf_trace_add_stream_class(t, 0, CTF_HEADER_LARGE, "mono", NULL,
						 &err, NULL), -EEXIST);
	ASSERT_EQ_INT(ctf_trace_env_set_string(t, "bad key", "v", &err), -EINVAL);
	ASSERT_CONTAINS(metadata(t), "byte_order = be;");
	ctf_trace_free(t);
}

TEST(copy_is_deep)
{
	struct ctf_type *e, *c;

	ASSERT_OK(ctf_type_enum_create(named("int16_t"), &e));
	ASSERT_OK(ctf_type_enum_add(e, "A", 1, 2));
	ASSERT_OK(ctf_type_copy(e, &c));
	ctf_type_free(e);
	ASSERT_EQ_STR(c->e.maps[0].label, "A");
	ASSERT_EQ_INT(c->e.container->i.size, 16);
	ctf_type_free(c);
	ctf_type_free(NULL);
	ctf_trace_free(NULL);
}

TEST(aligned_payload_says_so)
{
	struct ctf_trace *t = trace_new();
	struct ctf_type *p;
	char *ev;

	ASSERT_OK(ctf_type_struct_create(32, &p));
	ASSERT_OK(ctf_type_struct_add(p, "c", named("uint8_t")));
	ev = event_tsdl(t, "al", 4, p);
	ASSERT_CONTAINS(ev, "_c;\n\t} align(32);\n};\n");
	free(ev);
	ctf_trace_free(t);
}
