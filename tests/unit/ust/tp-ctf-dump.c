/*
 * tp-ctf-dump DIR - records known events of tp-test.h through the probes
 * into the in-process recorder, then writes them as a minimal CTF 1.8
 * trace in DIR (metadata + one stream of one packet), with metadata
 * generated from the event descriptors alone. tests/e2e/test_tracepoint_ctf.py
 * reads it with babeltrace2: the descriptors declare exactly the layout the
 * probes write.
 *
 * The TSDL here is a test's, not the product's (that is the session
 * daemon's metadata writer): it follows the rules the writer must follow,
 * listed in doc/design/tracepoint.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder-internal.h"
#include "registry-internal.h"
#include "tp-test.h"
#include "tp-test-emit.h"
#include "util/macros.h"
#include "util/strbuf.h"

static void tsdl_integer(struct strbuf *sb, const struct ltt_integer_type *t, int utf8)
{
	strbuf_appendf(sb, "integer { size = %u; align = %u; signed = %s; base = %u; "
		       "byte_order = %s;%s }",
		       t->size, t->alignment, t->is_signed ? "true" : "false", t->base,
		       t->byte_order == LTT_BYTE_ORDER_BE ? "be" : "le",
		       utf8 ? " encoding = UTF8;" : "");
}

static void tsdl_enum_value(struct strbuf *sb, const struct ltt_enum_value *v)
{
	if (v->is_signed)
		strbuf_appendf(sb, "%lld", (long long)v->value);
	else
		strbuf_appendf(sb, "%llu", (unsigned long long)v->value);
}

static void tsdl_field(struct strbuf *sb, const struct ltt_field *f)
{
	const struct ltt_type *t = &f->type;

	strbuf_append(sb, "\t\t");
	switch (t->kind) {
	case LTT_TYPE_INTEGER:
		tsdl_integer(sb, &t->u.integer, 0);
		strbuf_appendf(sb, " _%s;\n", f->name);
		break;
	case LTT_TYPE_FLOAT:
		strbuf_appendf(sb, "floating_point { exp_dig = %u; mant_dig = %u; align = %u; "
			       "byte_order = %s; } _%s;\n",
			       t->u.fp.exp_dig, t->u.fp.mant_dig, t->u.fp.alignment,
			       t->u.fp.byte_order == LTT_BYTE_ORDER_BE ? "be" : "le", f->name);
		break;
	case LTT_TYPE_STRING:
		strbuf_appendf(sb, "string { encoding = UTF8; } _%s;\n", f->name);
		break;
	case LTT_TYPE_ARRAY:
		tsdl_integer(sb, &t->u.integer, t->encoding == LTT_ENCODING_UTF8);
		strbuf_appendf(sb, " _%s[%u];\n", f->name, t->length);
		break;
	case LTT_TYPE_SEQUENCE:
		tsdl_integer(sb, &t->u.integer, t->encoding == LTT_ENCODING_UTF8);
		strbuf_appendf(sb, " _%s[ _%s ];\n", f->name, t->length_name);
		break;
	case LTT_TYPE_ENUM: {
		const struct ltt_enum_desc *e = t->enum_desc;

		strbuf_append(sb, "enum : ");
		tsdl_integer(sb, &t->u.integer, 0);
		strbuf_append(sb, " {");
		for (uint32_t i = 0; i < e->nr_entries; i++) {
			const struct ltt_enum_entry *en = &e->entries[i];

			strbuf_appendf(sb, "%s \"%s\"", i ? "," : "", en->label);
			if (en->flags & LTT_ENUM_ENTRY_AUTO)
				continue;
			strbuf_append(sb, " = ");
			tsdl_enum_value(sb, &en->start);
			if (en->start.value != en->end.value) {
				strbuf_append(sb, " ... ");
				tsdl_enum_value(sb, &en->end);
			}
		}
		strbuf_appendf(sb, " } _%s;\n", f->name);
		break;
	}
	default:
		fprintf(stderr, "unknown field kind %u\n", t->kind);
		exit(1);
	}
}

struct ids {
	const struct ltt_event_desc *desc[64];
	unsigned n;
	struct strbuf *sb;
};

static int add_event(void *arg, const struct ltt_event_desc *d)
{
	struct ids *ids = arg;
	const char *uri = ust_event_model_emf_uri(d);

	if (strncmp(d->name, "ltt_test:", 9) != 0 || ids->n == ARRAY_SIZE(ids->desc))
		return 0;
	strbuf_appendf(ids->sb, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n"
		       "\tloglevel = %d;\n", d->name, ids->n, ust_event_loglevel(d));
	if (uri)
		strbuf_appendf(ids->sb, "\tmodel.emf.uri = \"%s\";\n", uri);
	strbuf_append(ids->sb, "\tfields := struct {\n");
	for (uint32_t i = 0; i < d->nr_fields; i++)
		if (!(ust_event_field(d, i)->flags & LTT_FIELD_NOWRITE))
			tsdl_field(ids->sb, ust_event_field(d, i));
	strbuf_append(ids->sb, "\t};\n};\n\n");
	ids->desc[ids->n++] = d;
	return 0;
}

static unsigned id_of(const struct ids *ids, const struct ltt_event_desc *d)
{
	for (unsigned i = 0; i < ids->n; i++)
		if (ids->desc[i] == d || strcmp(ids->desc[i]->name, d->name) == 0)
			return i;
	fprintf(stderr, "no id for %s\n", d->name);
	exit(1);
}

static void put(unsigned char *pkt, size_t *pos, const void *src, size_t len, size_t align)
{
	while (*pos % align)
		pkt[(*pos)++] = 0;
	memcpy(pkt + *pos, src, len);
	*pos += len;
}

static int write_file(const char *dir, const char *name, const void *buf, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	struct ids ids = { .n = 0, .sb = &sb };
	struct ust_recorder *rec = NULL;
	struct ust_rule_spec spec = { .pattern = "ltt_test:*" };
	struct ust_record r;
	static unsigned char pkt[1 << 16];
	size_t pos = 0, cur = 0;
	uint64_t id, ts = 0, bits;
	uint32_t magic = 0xc1fc1fc1, stream_id = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	if (ust_recorder_create(1 << 20, &rec) < 0 || ust_tracer_attach_recorder(0, rec) < 0 ||
	    ust_rule_add(&spec, &id) < 0) {
		fprintf(stderr, "cannot set up the recorder\n");
		return 1;
	}
	tp_test_emit_all();

	strbuf_append(&sb,
		"/* CTF 1.8 */\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 32; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 64; signed = false; } := uint64_t;\n"
		"typealias integer { size = 64; align = 64; signed = false; map = clock.monotonic.value; }"
		" := uint64_clock_t;\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = le;\n"
		"\tpacket.header := struct { uint32_t magic; uint32_t stream_id; };\n};\n"
		"clock {\n\tname = \"monotonic\";\n\tfreq = 1000000000;\n};\n"
		"stream {\n\tid = 0;\n"
		"\tpacket.context := struct { uint64_t content_size; uint64_t packet_size; };\n"
		"\tevent.header := struct { uint64_clock_t timestamp; uint8_t id; };\n};\n\n");
	ust_events_foreach(add_event, &ids);
	if (strbuf_error(&sb) < 0)
		return 1;

	/* Packet: header, context (sizes patched below), then each event:
	 * its header, which ends 1 past a multiple of 8, then its payload at
	 * the alignment the probe asked for: a reader aligns it to the
	 * largest alignment the metadata declares for its fields, so the two
	 * must agree for any field to decode. */
	put(pkt, &pos, &magic, 4, 4);
	put(pkt, &pos, &stream_id, 4, 4);
	pos += 16;
	while (ust_recorder_next(rec, &cur, &r) == 0) {
		uint8_t eid = (uint8_t)id_of(&ids, r.desc);

		ts++;
		put(pkt, &pos, &ts, 8, 8);
		put(pkt, &pos, &eid, 1, 1);
		put(pkt, &pos, r.payload, r.len, r.align);
	}
	bits = pos * 8;
	memcpy(pkt + 8, &bits, 8);
	memcpy(pkt + 16, &bits, 8);
	if (write_file(argv[1], "metadata", sb.buf, sb.len) < 0 ||
	    write_file(argv[1], "stream_0", pkt, pos) < 0)
		return 1;
	printf("%llu events\n", (unsigned long long)ts);
	free(sb.buf);
	ust_tracer_detach(0);
	ust_recorder_free(rec);
	ust_registry_reset();
	return 0;
}
