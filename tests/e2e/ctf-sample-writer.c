/*
 * ctf-sample-writer - writes a CTF trace with every field type the writer
 * supports, and prints on stdout, as JSON, what a reader must find in it:
 *
 *   ctf-sample-writer DIR [text|packetized] [nodiscard] [be]
 *
 * (be: a big-endian trace, to check the model does not assume little-endian.)
 *
 * {"events": [{"name", "stream_id", "cpu_id", "cycles", "ns",
 *              "events_discarded", "context", "fields"}...],
 *  "discarded": {"STREAM_ID/CPU": total}}
 *
 * Events are in time order (timestamps are unique across streams). Two
 * compact-header streams (channel0 on CPUs 0 and 1, with an event context)
 * and one large-header stream (channel1_0); small packets so that each
 * stream spans several; discarded events on some packets; ids that need
 * the extended header; gaps that need the 64-bit timestamp, and a 27-bit
 * wrap that does not.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/ctf.h"

#define OFFSET_S 1700000000LL
#define OFFSET_CYCLES 123456789ULL

static void die(const char *what, int r, const struct ctf_error *err)
{
	fprintf(stderr, "ctf-sample-writer: %s: %s%s%s\n", what, strerror(-r),
		err && err->msg[0] ? ": " : "", err ? err->msg : "");
	exit(1);
}

#define CHECK(call)                                           \
	do {                                                  \
		int r_ = (call);                              \
		if (r_ < 0)                                   \
			die(#call, r_, &err);                 \
	} while (0)

static struct ctf_error err;

/* ---- type builders (exit on error: this is a test program) ---- */

static struct ctf_type *int_t(unsigned size, unsigned align, bool sgn, unsigned base,
			      enum ctf_byte_order bo, enum ctf_encoding enc)
{
	struct ctf_int_params p = { .size = size, .align = align, .is_signed = sgn,
				    .base = base, .byte_order = bo, .encoding = enc };
	struct ctf_type *t;

	CHECK(ctf_type_int_create(&p, &t));
	return t;
}

static struct ctf_type *named(const char *name)
{
	struct ctf_type *t;

	CHECK(ctf_type_by_name(name, &t));
	return t;
}

static struct ctf_type *st_new(void)
{
	struct ctf_type *t;

	CHECK(ctf_type_struct_create(0, &t));
	return t;
}

static void add(struct ctf_type *st, const char *name, struct ctf_type *t)
{
	CHECK(ctf_type_struct_add(st, name, t));
}

static struct ctf_type *array_t(struct ctf_type *e, uint64_t n)
{
	struct ctf_type *t;

	CHECK(ctf_type_array_create(e, n, &t));
	return t;
}

static struct ctf_type *seq_t(struct ctf_type *e, const char *len)
{
	struct ctf_type *t;

	CHECK(ctf_type_sequence_create(e, len, &t));
	return t;
}

/* ---- JSON of the expected values ---- */

static void json_str(const char *s, size_t n)
{
	putchar('"');
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_double(double d)
{
	if (isnan(d))
		printf("NaN");
	else if (isinf(d))
		printf(d > 0 ? "Infinity" : "-Infinity");
	else if (d == 0 && signbit(d))
		printf("-0.0");
	else
		printf("%.17g", d);
}

static void json_value(const struct ctf_type *t, const struct ctf_value *v);

static void json_struct(const struct ctf_type *st, const struct ctf_value *v, size_t n)
{
	putchar('{');
	for (size_t i = 0; i < n; i++) {
		printf("%s\"%s\": ", i ? ", " : "", st->st.fields[i].name);
		json_value(st->st.fields[i].type, &v[i]);
	}
	putchar('}');
}

static void json_int(const struct ctf_type *t, const struct ctf_value *v)
{
	if (v->kind == CTF_VALUE_S64)
		printf("%" PRId64, v->s64);
	else
		printf("%" PRIu64, v->u64);
	(void)t;
}

static void json_value(const struct ctf_type *t, const struct ctf_value *v)
{
	switch (t->kind) {
	case CTF_TYPE_INT:
		json_int(t, v);
		break;
	case CTF_TYPE_ENUM: {
		bool sgn = t->e.container->i.is_signed, first = true;

		putchar('[');
		json_int(t, v);
		printf(", [");
		for (size_t i = 0; i < t->e.n; i++) {
			const struct ctf_enum_mapping *m = &t->e.maps[i];
			bool in = sgn ? v->s64 >= (int64_t)m->start && v->s64 <= (int64_t)m->end
				      : v->u64 >= m->start && v->u64 <= m->end;

			if (in) {
				printf("%s", first ? "" : ", ");
				json_str(m->label, SIZE_MAX);
				first = false;
			}
		}
		printf("]]");
		break;
	}
	case CTF_TYPE_FLOAT:
		json_double(t->f.mant_dig == 24 ? (double)(float)v->d : v->d);
		break;
	case CTF_TYPE_STRING:
		json_str(v->str, SIZE_MAX);
		break;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE: {
		const struct ctf_type *e = t->a.elem;

		if (e->kind == CTF_TYPE_INT && e->i.encoding != CTF_ENC_NONE) {
			/* Text arrays read back as strings (up to the first NUL). */
			json_str(v->kind == CTF_VALUE_STRING ? v->str : v->bytes,
				 v->kind == CTF_VALUE_STRING ? strlen(v->str) : v->count);
			break;
		}
		putchar('[');
		for (uint32_t i = 0; i < v->count; i++) {
			if (i)
				printf(", ");
			if (v->kind == CTF_VALUE_BYTES)
				printf("%u", ((const uint8_t *)v->bytes)[i]);
			else
				json_value(e, &v->list[i]);
		}
		putchar(']');
		break;
	}
	case CTF_TYPE_STRUCT:
		json_struct(t, v->list, v->count);
		break;
	}
}

/* ---- the trace ---- */

struct stream {
	struct ctf_fs_stream *fs;
	uint32_t sc, cpu;
	uint64_t discarded;
	bool has_ctx;
};

static uint64_t now = 1000;	/* cycles; unique across streams */
static bool first_event = true;

static void emit(struct stream *s, const struct ctf_event_class *ec, uint64_t ts,
		 const struct ctf_value *payload, size_t n)
{
	char procname[16];
	struct ctf_value ctx[2];
	int r;

	snprintf(procname, sizeof(procname), "proc-cpu%u", s->cpu);
	ctx[0] = CTF_S64(-(int64_t)(1000 + s->cpu));
	ctx[1] = CTF_STR(procname);
	r = ctf_fs_stream_event(s->fs, ec, ts, s->has_ctx ? ctx : NULL, s->has_ctx ? 2 : 0,
				payload, n);
	if (r < 0)
		die(ec->name, r, NULL);
	printf("%s\n  {\"name\": ", first_event ? "" : ",");
	first_event = false;
	json_str(ec->name, SIZE_MAX);
	printf(", \"stream_id\": %u, \"cpu_id\": %u, \"cycles\": %" PRIu64
	       ", \"ns\": %" PRIu64 ", \"events_discarded\": %" PRIu64 ", \"context\": ",
	       s->sc, s->cpu, ts, (uint64_t)(OFFSET_S * 1000000000ULL + OFFSET_CYCLES + ts),
	       s->discarded);
	if (s->has_ctx)
		printf("{\"vtid\": %" PRId64 ", \"procname\": \"%s\"}", ctx[0].s64, procname);
	else
		printf("null");
	printf(", \"fields\": ");
	json_struct(ec->payload, payload, n);
	putchar('}');
}

static bool no_discard;

static void discard(struct stream *s, uint64_t n)
{
	/* Close the open packet first, so that the events written so far are
	 * reported with the previous count and the next ones with the new. */
	CHECK(ctf_fs_stream_flush(s->fs, 0));
	if (no_discard)
		return;
	ctf_fs_stream_add_discarded(s->fs, n);
	s->discarded += n;
}

static const struct ctf_event_class *event(struct ctf_trace *t, const char *name,
					   uint32_t id, uint32_t sid, struct ctf_type *payload)
{
	struct ctf_event_class_desc d = { .name = name, .id = id, .stream_id = sid,
					  .has_loglevel = true, .loglevel = 13 };
	const struct ctf_event_class *ec;

	if (id == 9)
		d.emf_uri = "https://example.com/ltt/arrays";
	CHECK(ctf_trace_add_event_class(t, &d, payload, &err, &ec));
	return ec;
}

int main(int argc, char **argv)
{
	static const uint8_t uuid[16] = { 0x4c, 0x54, 0x54, 0x2d, 0x63, 0x74, 0x66, 0x2d,
					  0x73, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x00, 0x01 };
	static const uint8_t clock_uuid[16] = { 0xb0, 0x07, 0x1d, 0x00, 1, 2, 3, 4,
						5, 6, 7, 8, 9, 10, 11, 12 };
	struct ctf_clock_desc clk = {
		.name = "monotonic", .uuid = clock_uuid, .description = "Monotonic Clock",
		.freq = 1000000000, .offset_s = OFFSET_S, .offset = OFFSET_CYCLES,
		.precision = 0, .absolute = false,
	};
	struct ctf_env_lttng env = {
		.domain = "ust", .tracer_name = "lttng-ust", .tracer_major = 2,
		.tracer_minor = 13, .hostname = "ltt-test", .trace_name = "sample",
		.trace_creation_datetime = "20261202T140000+0000",
		.buffering_scheme = "uid", .buffering_id = 0,
		.architecture_bit_width = 64, .ltt_version = "0.1.0",
	};
	enum ctf_metadata_form form = CTF_METADATA_TEXT;
	enum ctf_byte_order bo = CTF_BO_LE;
	struct ctf_trace *t;
	struct ctf_fs_trace *ft;
	struct ctf_type *ctx, *p, *e, *inner;
	const struct ctf_event_class *ev_ints, *ev_hex, *ev_bits, *ev_net, *ev_floats,
		*ev_strings, *ev_seq, *ev_enums, *ev_nested, *ev_arrays, *ev_high,
		*ev_gap, *ev_large, *ev_large_high;
	struct stream s[3] = { { .sc = 0, .cpu = 0, .has_ctx = true },
			       { .sc = 0, .cpu = 1, .has_ctx = true },
			       { .sc = 1, .cpu = 0, .has_ctx = false } };

	if (argc < 2) {
		fprintf(stderr, "usage: ctf-sample-writer DIR [text|packetized] [nodiscard] [be]\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "packetized") == 0)
			form = CTF_METADATA_PACKETIZED;
		else if (strcmp(argv[i], "nodiscard") == 0)
			no_discard = true;
		else if (strcmp(argv[i], "be") == 0)
			bo = CTF_BO_BE;
	}

	CHECK(ctf_trace_create(uuid, bo, &t));
	CHECK(ctf_trace_env_lttng(t, &env, &err));
	CHECK(ctf_trace_add_clock(t, &clk, &err));
	ctx = st_new();
	add(ctx, "vtid", named("int32_t"));
	add(ctx, "procname", array_t(named("char"), 16));
	CHECK(ctf_trace_add_stream_class(t, 0, CTF_HEADER_COMPACT, "monotonic", ctx, &err, NULL));
	CHECK(ctf_trace_add_stream_class(t, 1, CTF_HEADER_LARGE, "monotonic", NULL, &err, NULL));

	p = st_new();
	add(p, "s8", named("int8_t"));
	add(p, "s16", named("int16_t"));
	add(p, "s32", named("int32_t"));
	add(p, "s64_min", named("int64_t"));
	add(p, "s64_max", named("int64_t"));
	add(p, "u8", named("uint8_t"));
	add(p, "u16", named("uint16_t"));
	add(p, "u32", named("uint32_t"));
	add(p, "u64_max", named("uint64_t"));
	add(p, "zero", named("uint64_t"));
	add(p, "ulong", named("unsigned long"));
	ev_ints = event(t, "sample:ints", 0, 0, p);

	p = st_new();
	add(p, "hex32", int_t(32, 32, false, 16, CTF_BO_NATIVE, CTF_ENC_NONE));
	add(p, "hex64", int_t(64, 64, false, 16, CTF_BO_NATIVE, CTF_ENC_NONE));
	add(p, "oct", int_t(16, 8, false, 8, CTF_BO_NATIVE, CTF_ENC_NONE));
	add(p, "bin", int_t(8, 8, false, 2, CTF_BO_NATIVE, CTF_ENC_NONE));
	add(p, "shex", int_t(32, 8, true, 16, CTF_BO_NATIVE, CTF_ENC_NONE));
	ev_hex = event(t, "sample:hex", 1, 0, p);

	p = st_new();
	add(p, "b3", int_t(3, 1, false, 10, CTF_BO_NATIVE, CTF_ENC_NONE));
	add(p, "b5s", int_t(5, 1, true, 10, CTF_BO_NATIVE, CTF_ENC_NONE));
	add(p, "b1", int_t(1, 1, false, 10, CTF_BO_NATIVE, CTF_ENC_NONE));
	add(p, "b27", int_t(27, 1, false, 16, CTF_BO_NATIVE, CTF_ENC_NONE));
	add(p, "b61s", int_t(61, 1, true, 10, CTF_BO_NATIVE, CTF_ENC_NONE));
	add(p, "after", named("uint8_t"));
	ev_bits = event(t, "sample:bitfields", 2, 0, p);

	p = st_new();
	add(p, "port", int_t(16, 8, false, 10, CTF_BO_BE, CTF_ENC_NONE));
	add(p, "addr", int_t(32, 8, false, 16, CTF_BO_BE, CTF_ENC_NONE));
	add(p, "neg", int_t(64, 8, true, 10, CTF_BO_BE, CTF_ENC_NONE));
	add(p, "le", int_t(32, 8, false, 10, CTF_BO_LE, CTF_ENC_NONE));
	ev_net = event(t, "sample:network", 3, 0, p);

	p = st_new();
	add(p, "f", named("float"));
	add(p, "f_inf", named("float"));
	add(p, "d_nan", named("double"));
	add(p, "d_pinf", named("double"));
	add(p, "d_ninf", named("double"));
	add(p, "d_negzero", named("double"));
	add(p, "d_pi", named("double"));
	add(p, "d_tiny", named("double"));
	ev_floats = event(t, "sample:floats", 4, 0, p);

	p = st_new();
	add(p, "empty", named("string"));
	add(p, "lengthy", named("string"));
	add(p, "utf8", named("string"));
	ev_strings = event(t, "sample:strings", 5, 0, p);

	p = st_new();
	add(p, "n0", named("uint32_t"));
	add(p, "s0", seq_t(named("uint16_t"), "n0"));
	add(p, "n3", named("uint8_t"));
	add(p, "s3", seq_t(named("int32_t"), "n3"));
	add(p, "tlen", named("uint64_t"));
	add(p, "text", seq_t(named("char"), "tlen"));
	ev_seq = event(t, "sample:sequences", 6, 0, p);

	p = st_new();
	CHECK(ctf_type_enum_create(named("int8_t"), &e));
	CHECK(ctf_type_enum_add(e, "NEG", (uint64_t)-100, (uint64_t)-1));
	CHECK(ctf_type_enum_add(e, "ZERO", 0, 0));
	CHECK(ctf_type_enum_add(e, "POS", 1, 127));
	CHECK(ctf_type_enum_add(e, "MIN", (uint64_t)-128, (uint64_t)-128));
	add(p, "sen", e);
	CHECK(ctf_type_copy(e, &inner));
	add(p, "sen_min", inner);
	CHECK(ctf_type_enum_create(named("uint32_t"), &e));
	CHECK(ctf_type_enum_add(e, "RUNNING", 0, 0));
	CHECK(ctf_type_enum_add(e, "WAITING \"on\" C:\\disk", 1, 9));
	CHECK(ctf_type_enum_add(e, "HIGH", 4000000000u, 4294967295u));
	add(p, "uen", e);
	ev_enums = event(t, "sample:enums", 7, 0, p);

	p = st_new();
	add(p, "a", named("uint8_t"));
	inner = st_new();
	add(inner, "s", named("string"));
	add(inner, "d", named("double"));
	e = st_new();
	add(e, "deep", named("int64_t"));
	add(inner, "innermost", e);
	add(p, "inner", inner);
	add(p, "b", named("uint16_t"));
	e = st_new();
	add(e, "k", named("uint8_t"));
	add(e, "v", named("string"));
	add(p, "pairs", array_t(e, 2));
	add(p, "npts", named("uint16_t"));
	e = st_new();
	add(e, "x", named("int16_t"));
	add(e, "y", named("double"));
	add(p, "points", seq_t(e, "npts"));
	ev_nested = event(t, "sample:nested", 8, 0, p);

	p = st_new();
	add(p, "ints", array_t(named("int32_t"), 4));
	add(p, "text", array_t(named("char"), 8));
	add(p, "bytes", array_t(named("uint8_t"), 5));
	add(p, "empty", array_t(named("uint64_t"), 0));
	add(p, "tail", named("uint8_t"));
	ev_arrays = event(t, "sample:arrays", 9, 0, p);

	/* An explicitly aligned payload: align(64) on the fields struct. */
	CHECK(ctf_type_struct_create(64, &p));
	add(p, "v", named("uint32_t"));
	ev_high = event(t, "sample:id_above_30", 40, 0, p);
	p = st_new();
	add(p, "v", named("uint64_t"));
	ev_gap = event(t, "sample:after_gap", 10, 0, p);

	p = st_new();
	add(p, "msg", named("string"));
	add(p, "n", named("int64_t"));
	ev_large = event(t, "large:event", 0, 1, p);
	p = st_new();
	add(p, "msg", named("string"));
	ev_large_high = event(t, "large:id_70000", 70000, 1, p);

	CHECK(ctf_fs_trace_create(argv[1], t, form, &ft));
	CHECK(ctf_fs_stream_create(ft, "channel0", 0, 0, 2048, &s[0].fs));
	CHECK(ctf_fs_stream_create(ft, "channel0", 1, 0, 2048, &s[1].fs));
	CHECK(ctf_fs_stream_create(ft, "channel1", 0, 1, 512, &s[2].fs));

	printf("{\"events\": [");
	char longstr[1501];
	memset(longstr, 'x', 1500);
	for (int i = 0; i < 1500; i += 100)
		longstr[i] = (char)('A' + i / 100);
	longstr[1500] = '\0';

	for (int round = 0; round < 6; round++) {
		for (int k = 0; k < 2; k++) {
			struct stream *st = &s[k];
			int64_t sgn = k ? -1 : 1;

			{
				struct ctf_value v[] = {
					CTF_S64(round % 2 ? INT8_MIN : INT8_MAX),
					CTF_S64(round % 2 ? INT16_MIN : INT16_MAX),
					CTF_S64(round % 2 ? INT32_MIN : INT32_MAX),
					CTF_S64(INT64_MIN), CTF_S64(INT64_MAX),
					CTF_U64(UINT8_MAX), CTF_U64(UINT16_MAX),
					CTF_U64(UINT32_MAX), CTF_U64(UINT64_MAX), CTF_U64(0),
					CTF_U64(ULONG_MAX - (uint64_t)round),
				};
				emit(st, ev_ints, now += 7, v, ARRAY_SIZE(v));
			}
			{
				struct ctf_value v[] = {
					CTF_U64(0xdeadbeef), CTF_U64(0x0123456789abcdefULL),
					CTF_U64(0755), CTF_U64(0xa5), CTF_S64(-0x1234 * sgn),
				};
				emit(st, ev_hex, now += 11, v, ARRAY_SIZE(v));
			}
			{
				struct ctf_value v[] = {
					CTF_U64(5), CTF_S64(-16 + round), CTF_U64(1),
					CTF_U64(0x5abcdef), CTF_S64(-((int64_t)1 << 60)),
					CTF_U64(0xee),
				};
				emit(st, ev_bits, now += 3, v, ARRAY_SIZE(v));
			}
			{
				struct ctf_value v[] = {
					CTF_U64(8080), CTF_U64(0xc0a80001), CTF_S64(-2 * sgn),
					CTF_U64(0x01020304),
				};
				emit(st, ev_net, now += 5, v, ARRAY_SIZE(v));
			}
			{
				struct ctf_value v[] = {
					CTF_DOUBLE(3.25 + round), CTF_DOUBLE(-INFINITY),
					CTF_DOUBLE(NAN), CTF_DOUBLE(INFINITY),
					CTF_DOUBLE(-INFINITY), CTF_DOUBLE(-0.0),
					CTF_DOUBLE(3.141592653589793), CTF_DOUBLE(5e-324),
				};
				emit(st, ev_floats, now += 13, v, ARRAY_SIZE(v));
			}
			{
				struct ctf_value v[] = {
					CTF_STR(""), CTF_STR(round == 2 ? longstr : "short"),
					CTF_STR("h\xc3\xa9llo \"w\\orld\""),
				};
				emit(st, ev_strings, now += 2, v, ARRAY_SIZE(v));
			}
			{
				struct ctf_value three[] = { CTF_S64(-1), CTF_S64(0),
							     CTF_S64(INT32_MAX) };
				struct ctf_value v[] = {
					CTF_U64(0), CTF_LIST(NULL, 0),
					CTF_U64(3), CTF_LIST(three, 3),
					CTF_U64(5), CTF_STR("abcde"),
				};
				emit(st, ev_seq, now += 17, v, ARRAY_SIZE(v));
			}
			{
				struct ctf_value v[] = {
					CTF_S64(round % 2 ? -3 : 42), CTF_S64(-128),
					CTF_U64(round % 2 ? 4123456789u : 5),
				};
				emit(st, ev_enums, now += 19, v, ARRAY_SIZE(v));
			}
			{
				struct ctf_value innermost[] = { CTF_S64(-77) };
				struct ctf_value in[] = { CTF_STR("inside"), CTF_DOUBLE(-2.5),
							  CTF_LIST(innermost, 1) };
				struct ctf_value p0[] = { CTF_U64(1), CTF_STR("one") };
				struct ctf_value p1[] = { CTF_U64(2), CTF_STR("") };
				struct ctf_value pairs[] = { CTF_LIST(p0, 2), CTF_LIST(p1, 2) };
				struct ctf_value q0[] = { CTF_S64(-3), CTF_DOUBLE(0.5) };
				struct ctf_value q1[] = { CTF_S64(7), CTF_DOUBLE(-1e300) };
				struct ctf_value pts[] = { CTF_LIST(q0, 2), CTF_LIST(q1, 2) };
				struct ctf_value v[] = { CTF_U64(9), CTF_LIST(in, 3), CTF_U64(65000),
							 CTF_LIST(pairs, 2), CTF_U64(round % 3),
							 CTF_LIST(pts, (uint32_t)(round % 3)) };

				emit(st, ev_nested, now += 23, v, ARRAY_SIZE(v));
			}
			{
				static const uint8_t bytes[5] = { 0, 1, 127, 128, 255 };
				struct ctf_value ints[] = { CTF_S64(INT32_MIN), CTF_S64(-1),
							    CTF_S64(0), CTF_S64(INT32_MAX) };
				struct ctf_value v[] = {
					CTF_LIST(ints, 4), CTF_STR(k ? "12345678" : "abc"),
					CTF_BYTES(bytes, 5), CTF_LIST(NULL, 0), CTF_U64(0x42),
				};
				emit(st, ev_arrays, now += 29, v, ARRAY_SIZE(v));
			}
			{
				struct ctf_value v[] = { CTF_U64(31 + (uint64_t)round) };

				emit(st, ev_high, now += 1, v, ARRAY_SIZE(v));
			}
			{
				struct ctf_value v[] = { CTF_STR("large header"), CTF_S64(round) };

				emit(&s[2], ev_large, now += 31, v, ARRAY_SIZE(v));
			}
		}
		if (round == 1) {
			discard(&s[0], 5);
			discard(&s[2], 2);
		}
		if (round == 3)
			discard(&s[1], 1000000);
	}
	{
		/* 27-bit wrap without a gap: now crosses a multiple of 2^27 by a
		 * few cycles (compact header, exact). */
		uint64_t wrap = ((now >> 27) + 1) << 27;
		struct ctf_value v[] = { CTF_U64(1) };

		emit(&s[0], ev_gap, wrap - 3, v, 1);
		v[0] = CTF_U64(2);
		emit(&s[0], ev_gap, wrap + 4, v, 1);
		now = wrap + 4;
	}
	{
		/* Long gaps: 3 s (> 2^27 and 2^32 cycles), then 2^40 + 5. */
		struct ctf_value v[] = { CTF_U64(3) };
		struct ctf_value m[] = { CTF_STR("after a 2^32 gap") };

		emit(&s[0], ev_gap, now += 3000000000ULL, v, 1);
		emit(&s[1], ev_gap, now += 1, v, 1);
		emit(&s[2], ev_large_high, now += 5000000000ULL, m, 1);
		v[0] = CTF_U64(4);
		emit(&s[0], ev_gap, now += (1ULL << 40) + 5, v, 1);
		emit(&s[2], ev_large, now += 1,
		     (struct ctf_value[]){ CTF_STR("end"), CTF_S64(INT64_MIN) }, 2);
		emit(&s[1], ev_high, now += 1, (struct ctf_value[]){ CTF_U64(UINT32_MAX) }, 1);
	}
	/* Discarded after the last event: reported by an empty final packet. */
	discard(&s[1], 7);
	CHECK(ctf_fs_trace_close(ft));
	printf("\n], \"discarded\": {");
	for (int k = 0; k < 3; k++)
		printf("%s\"%u/%u\": %" PRIu64, k ? ", " : "", s[k].sc, s[k].cpu,
		       s[k].discarded);
	printf("}}\n");
	ctf_fs_trace_free(ft);
	ctf_trace_free(t);
	return 0;
}
