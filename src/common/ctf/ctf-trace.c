/*
 * ctf-trace.c - the trace class (env, clocks, stream and event classes)
 * and its TSDL metadata text, laid out as lttng-sessiond's: see
 * doc/design/ctf-writer.md and ctf-trace.h.
 */
#include "ctf/ctf-trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf-internal.h"
#include "util/macros.h"
#include "util/strbuf.h"

struct env_entry {
	char *key;
	char *str;		/* NULL: integer */
	int64_t num;
};

struct clock {
	char *name;
	char *description;
	uint8_t uuid[16];
	bool has_uuid, absolute;
	uint64_t freq, offset, precision;
	int64_t offset_s;
};

struct ctf_trace {
	uint8_t uuid[16];
	enum ctf_byte_order bo;
	enum ctf_layout layout;
	struct env_entry *env;
	size_t nenv;
	struct clock *clocks;
	size_t nclocks;
	struct ctf_stream_class **streams;
	size_t nstreams;
	bool preamble_done;
	size_t preamble_len;	/* the event classes follow it in meta */
	struct strbuf meta;
};

/* Grows *arr (of elements of size sz) to hold n + 1; 0 or -ENOMEM. */
static int grow(void *arr, size_t n, size_t sz)
{
	void **p = arr;
	void *q;

	/* Capacity is 4, 8, 16...: grow when n reaches it. */
	if (n != 0 && (n < 4 || (n & (n - 1))))
		return 0;
	q = realloc(*p, (n < 4 ? 4 : 2 * n) * sz);
	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

int ctf_trace_create(const uint8_t uuid[16], enum ctf_byte_order bo,
		     struct ctf_trace **ret_trace)
{
	struct ctf_trace *t;

	if (!uuid || (bo != CTF_BO_LE && bo != CTF_BO_BE))
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	memcpy(t->uuid, uuid, 16);
	t->bo = bo;
	*ret_trace = t;
	return 0;
}

int ctf_trace_set_layout(struct ctf_trace *t, enum ctf_layout layout, struct ctf_error *err)
{
	if (layout != CTF_LAYOUT_NATURAL && layout != CTF_LAYOUT_PACKED)
		return ctf_error_set(err, -EINVAL, "unknown layout %d", (int)layout);
	if (t->preamble_done)
		return ctf_error_set(err, -EBUSY, "the layout: the metadata preamble is "
				     "already generated");
	t->layout = layout;
	return 0;
}

enum ctf_layout ctf_trace_layout(const struct ctf_trace *t)
{
	return t->layout;
}

static void stream_class_free(struct ctf_stream_class *sc)
{
	if (!sc)
		return;
	for (size_t i = 0; i < sc->nevents; i++) {
		struct ctf_event_class *ec = sc->events[i];

		free(ec->name);
		free(ec->emf_uri);
		ctf_type_free(ec->payload);
		free(ec);
	}
	free(sc->events);
	ctf_type_free(sc->event_context);
	free(sc);
}

void ctf_trace_free(struct ctf_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nenv; i++) {
		free(t->env[i].key);
		free(t->env[i].str);
	}
	free(t->env);
	for (size_t i = 0; i < t->nclocks; i++) {
		free(t->clocks[i].name);
		free(t->clocks[i].description);
	}
	free(t->clocks);
	for (size_t i = 0; i < t->nstreams; i++)
		stream_class_free(t->streams[i]);
	free(t->streams);
	strbuf_free(&t->meta);
	free(t);
}

const uint8_t *ctf_trace_uuid(const struct ctf_trace *t)
{
	return t->uuid;
}

enum ctf_byte_order ctf_trace_byte_order(const struct ctf_trace *t)
{
	return t->bo;
}

static int env_set(struct ctf_trace *t, const char *key, const char *str, int64_t num,
		   struct ctf_error *err)
{
	struct env_entry *e = NULL;
	char *s = NULL;

	if (t->preamble_done)
		return ctf_error_set(err, -EBUSY, "env '%s': the metadata preamble is "
				     "already written", key ? key : "(null)");
	if (!key || !ctf_is_identifier(key))
		return ctf_error_set(err, -EINVAL, "env key '%s' is not a TSDL identifier",
				     key ? key : "(null)");
	if (str && !(s = strdup(str)))
		return -ENOMEM;
	for (size_t i = 0; i < t->nenv; i++)
		if (strcmp(t->env[i].key, key) == 0)
			e = &t->env[i];
	if (!e) {
		if (grow(&t->env, t->nenv, sizeof(*t->env)) < 0)
			goto oom;
		e = &t->env[t->nenv];
		e->key = strdup(key);
		if (!e->key)
			goto oom;
		e->str = NULL;
		t->nenv++;
	}
	free(e->str);
	e->str = s;
	e->num = num;
	return 0;
oom:
	free(s);
	return -ENOMEM;
}

int ctf_trace_env_set_string(struct ctf_trace *t, const char *key, const char *value,
			     struct ctf_error *err)
{
	if (!value)
		return ctf_error_set(err, -EINVAL, "env '%s': NULL value", key ? key : "");
	return env_set(t, key, value, 0, err);
}

int ctf_trace_env_set_int(struct ctf_trace *t, const char *key, int64_t value,
			  struct ctf_error *err)
{
	return env_set(t, key, NULL, value, err);
}

int ctf_trace_env_lttng(struct ctf_trace *t, const struct ctf_env_lttng *e,
			struct ctf_error *err)
{
	bool kernel;
	int r = 0;

#define S(k, v) do { if ((v) && (r = ctf_trace_env_set_string(t, k, v, err)) < 0) return r; } while (0)
#define I(k, v) do { if ((r = ctf_trace_env_set_int(t, k, v, err)) < 0) return r; } while (0)
	if (!e->domain)
		return ctf_error_set(err, -EINVAL, "env: no domain");
	kernel = strcmp(e->domain, "kernel") == 0;
	if (kernel) {
		S("hostname", e->hostname);
		S("domain", e->domain);
		S("sysname", e->sysname);
		S("kernel_release", e->kernel_release);
		S("kernel_version", e->kernel_version);
		S("tracer_name", e->tracer_name ? e->tracer_name : "lttng-modules");
		I("tracer_major", e->tracer_major);
		I("tracer_minor", e->tracer_minor);
		I("tracer_patchlevel", e->tracer_patchlevel);
		S("trace_buffering_scheme", "global");
	} else {
		S("domain", e->domain);
		S("tracer_name", e->tracer_name ? e->tracer_name : "lttng-ust");
		I("tracer_major", e->tracer_major);
		I("tracer_minor", e->tracer_minor);
		S("tracer_buffering_scheme", e->buffering_scheme);
		if (e->buffering_scheme)
			I("tracer_buffering_id", e->buffering_id);
		if (e->architecture_bit_width)
			I("architecture_bit_width", e->architecture_bit_width);
	}
	S("trace_name", e->trace_name);
	S("trace_creation_datetime", e->trace_creation_datetime);
	if (!kernel) {
		S("hostname", e->hostname);
		if (e->procname) {
			I("tracer_patchlevel", e->tracer_patchlevel);
			I("vpid", e->vpid);
			S("procname", e->procname);
			S("vpid_datetime", e->vpid_datetime);
		}
	}
	S("ltt_tracer", "ltt");
	S("ltt_version", e->ltt_version);
#undef S
#undef I
	return 0;
}

static int find_clock(const struct ctf_trace *t, const char *name)
{
	for (size_t i = 0; i < t->nclocks; i++)
		if (strcmp(t->clocks[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

static bool has_clock(const void *ctx, const char *name)
{
	return find_clock(ctx, name) >= 0;
}

int ctf_trace_add_clock(struct ctf_trace *t, const struct ctf_clock_desc *c,
			struct ctf_error *err)
{
	struct clock *k;

	if (t->preamble_done)
		return ctf_error_set(err, -EBUSY, "clock '%s': the metadata preamble is "
				     "already written", c->name ? c->name : "");
	if (!c->name || !ctf_is_identifier(c->name))
		return ctf_error_set(err, -EINVAL, "clock name '%s' is not a TSDL identifier",
				     c->name ? c->name : "(null)");
	if (find_clock(t, c->name) >= 0)
		return ctf_error_set(err, -EINVAL, "clock '%s' is already declared", c->name);
	if (c->freq == 0)
		return ctf_error_set(err, -EINVAL, "clock '%s': frequency 0", c->name);
	if (grow(&t->clocks, t->nclocks, sizeof(*t->clocks)) < 0)
		return -ENOMEM;
	k = &t->clocks[t->nclocks];
	memset(k, 0, sizeof(*k));
	k->name = strdup(c->name);
	k->description = c->description ? strdup(c->description) : NULL;
	if (!k->name || (c->description && !k->description)) {
		free(k->name);
		free(k->description);
		return -ENOMEM;
	}
	if (c->uuid) {
		memcpy(k->uuid, c->uuid, 16);
		k->has_uuid = true;
	}
	k->freq = c->freq;
	k->offset_s = c->offset_s;
	k->offset = c->offset;
	k->precision = c->precision;
	k->absolute = c->absolute;
	t->nclocks++;
	return 0;
}

const struct ctf_stream_class *ctf_trace_stream_class(const struct ctf_trace *t,
						      uint32_t id)
{
	for (size_t i = 0; i < t->nstreams; i++)
		if (t->streams[i]->id == id)
			return t->streams[i];
	return NULL;
}

const struct ctf_event_class *ctf_trace_event_class(const struct ctf_trace *t,
						    uint32_t stream_id, uint32_t id)
{
	const struct ctf_stream_class *sc = ctf_trace_stream_class(t, stream_id);

	if (!sc)
		return NULL;
	for (size_t i = 0; i < sc->nevents; i++)
		if (sc->events[i]->id == id)
			return sc->events[i];
	return NULL;
}

int ctf_trace_add_stream_class(struct ctf_trace *t, uint32_t id,
			       enum ctf_header_kind header, const char *clock_name,
			       struct ctf_type *event_context, struct ctf_error *err,
			       const struct ctf_stream_class **ret_sc)
{
	struct ctf_stream_class *sc = NULL;
	char where[64];
	int k, r;

	if (t->preamble_done) {
		r = ctf_error_set(err, -EBUSY, "stream class %" PRIu32 ": the metadata "
				  "preamble is already written", id);
		goto err;
	}
	if (ctf_trace_stream_class(t, id)) {
		r = ctf_error_set(err, -EEXIST, "stream class %" PRIu32 " already exists", id);
		goto err;
	}
	if (header != CTF_HEADER_COMPACT && header != CTF_HEADER_LARGE) {
		r = ctf_error_set(err, -EINVAL, "stream class %" PRIu32 ": unknown event "
				  "header kind %d", id, (int)header);
		goto err;
	}
	k = clock_name ? find_clock(t, clock_name) : -ENOENT;
	if (k < 0) {
		r = ctf_error_set(err, -EINVAL, "stream class %" PRIu32 ": clock '%s' is "
				  "not declared", id, clock_name ? clock_name : "(null)");
		goto err;
	}
	snprintf(where, sizeof(where), "stream class %" PRIu32 " event context", id);
	if (event_context &&
	    (r = ctf_type_validate(event_context, where, has_clock, t, err)) < 0)
		goto err;
	r = -ENOMEM;
	if (grow(&t->streams, t->nstreams, sizeof(*t->streams)) < 0)
		goto err;
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		goto err;
	sc->id = id;
	sc->header = header;
	sc->clock = (unsigned)k;
	sc->event_context = event_context;
	t->streams[t->nstreams++] = sc;
	if (ret_sc)
		*ret_sc = sc;
	return 0;
err:
	ctf_type_free(event_context);
	return r;
}

/* ---- metadata text ---- */

static void tsdl_uuid(struct strbuf *sb, const uint8_t u[16])
{
	strbuf_appendf(sb, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		       "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5],
		       u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

static void tsdl_stream_structs(struct strbuf *sb, const char *clock, const char *sfx,
				bool packed)
{
	strbuf_appendf(sb,
		"struct packet_context%s {\n"
		"\tuint64_clock_%s_t timestamp_begin;\n"
		"\tuint64_clock_%s_t timestamp_end;\n"
		"\tuint64_t content_size;\n"
		"\tuint64_t packet_size;\n"
		"\tuint64_t packet_seq_num;\n"
		"\tunsigned long events_discarded;\n"
		"\tuint32_t cpu_id;\n"
		"};\n\n", sfx, clock, clock);
	strbuf_appendf(sb,
		"struct event_header_compact%s {\n"
		"\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
		"\tvariant <id> {\n"
		"\t\tstruct {\n"
		"\t\t\tuint27_clock_%s_t timestamp;\n"
		"\t\t} compact;\n"
		"\t\tstruct {\n"
		"\t\t\tuint32_t id;\n"
		"\t\t\tuint64_clock_%s_t timestamp;\n"
		"\t\t} extended;\n"
		"\t} v;\n"
		"} align(%u);\n\n", sfx, clock, clock, packed ? 8 : 32);
	strbuf_appendf(sb,
		"struct event_header_large%s {\n"
		"\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
		"\tvariant <id> {\n"
		"\t\tstruct {\n"
		"\t\t\tuint32_clock_%s_t timestamp;\n"
		"\t\t} compact;\n"
		"\t\tstruct {\n"
		"\t\t\tuint32_t id;\n"
		"\t\t\tuint64_clock_%s_t timestamp;\n"
		"\t\t} extended;\n"
		"\t} v;\n"
		"} align(%u);\n\n", sfx, clock, clock, packed ? 8 : 16);
}

/* Suffix of the header/context struct names of clock k: "" for the first. */
static const char *clock_sfx(const struct ctf_trace *t, unsigned k, char *buf, size_t n)
{
	if (k == 0)
		return "";
	snprintf(buf, n, "_%s", t->clocks[k].name);
	return buf;
}

static void tsdl_preamble(struct ctf_trace *t)
{
	struct strbuf *sb = &t->meta;
	const unsigned long_bits = 8 * sizeof(long);
	const bool packed = t->layout == CTF_LAYOUT_PACKED;
	char sfx[80];

	strbuf_append(sb, "/* CTF 1.8 */\n\n");
	for (unsigned bits = 8; bits <= 64; bits *= 2)
		strbuf_appendf(sb, "typealias integer { size = %u; align = %u; signed = false; } "
			       ":= uint%u_t;\n", bits, packed ? 8 : bits, bits);
	strbuf_appendf(sb, "typealias integer { size = %u; align = %u; signed = false; } "
		       ":= unsigned long;\n", long_bits, packed ? 8 : long_bits);
	strbuf_append(sb,
		"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
		"typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n\n");
	strbuf_append(sb, "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"");
	tsdl_uuid(sb, t->uuid);
	strbuf_appendf(sb, "\";\n\tbyte_order = %s;\n", t->bo == CTF_BO_BE ? "be" : "le");
	strbuf_append(sb,
		"\tpacket.header := struct {\n"
		"\t\tuint32_t magic;\n"
		"\t\tuint8_t  uuid[16];\n"
		"\t\tuint32_t stream_id;\n"
		"\t\tuint64_t stream_instance_id;\n"
		"\t};\n"
		"};\n\n");
	if (t->nenv) {
		strbuf_append(sb, "env {\n");
		for (size_t i = 0; i < t->nenv; i++) {
			strbuf_appendf(sb, "\t%s = ", t->env[i].key);
			if (t->env[i].str)
				ctf_tsdl_string(sb, t->env[i].str);
			else
				strbuf_appendf(sb, "%" PRId64, t->env[i].num);
			strbuf_append(sb, ";\n");
		}
		strbuf_append(sb, "};\n\n");
	}
	for (size_t i = 0; i < t->nclocks; i++) {
		const struct clock *k = &t->clocks[i];

		strbuf_appendf(sb, "clock {\n\tname = \"%s\";\n", k->name);
		if (k->has_uuid) {
			strbuf_append(sb, "\tuuid = \"");
			tsdl_uuid(sb, k->uuid);
			strbuf_append(sb, "\";\n");
		}
		if (k->description) {
			strbuf_append(sb, "\tdescription = ");
			ctf_tsdl_string(sb, k->description);
			strbuf_append(sb, ";\n");
		}
		strbuf_appendf(sb, "\tfreq = %" PRIu64 "; /* Frequency, in Hz */\n"
			       "\t/* clock value offset from the origin: "
			       "offset_s + offset * (1/freq) */\n"
			       "\toffset_s = %" PRId64 ";\n"
			       "\toffset = %" PRIu64 ";\n"
			       "\tprecision = %" PRIu64 ";\n"
			       "\tabsolute = %s;\n};\n\n",
			       k->freq, k->offset_s, k->offset, k->precision,
			       k->absolute ? "TRUE" : "FALSE");
		for (unsigned bits = 27; bits; bits = bits == 27 ? 32 : bits == 32 ? 64 : 0)
			strbuf_appendf(sb, "typealias integer {\n\tsize = %u; align = %u; "
				       "signed = false;\n\tmap = clock.%s.value;\n} := "
				       "uint%u_clock_%s_t;\n\n", bits,
				       bits == 27 ? 1 : packed ? 8 : bits, k->name, bits, k->name);
	}
	/* Header and context structs for each clock that a stream class uses. */
	for (unsigned k = 0; k < t->nclocks; k++) {
		bool used = false;

		for (size_t i = 0; i < t->nstreams; i++)
			used |= t->streams[i]->clock == k;
		if (used)
			tsdl_stream_structs(sb, t->clocks[k].name,
					    clock_sfx(t, k, sfx, sizeof(sfx)), packed);
	}
	for (size_t i = 0; i < t->nstreams; i++) {
		const struct ctf_stream_class *sc = t->streams[i];
		const char *s = clock_sfx(t, sc->clock, sfx, sizeof(sfx));

		strbuf_appendf(sb, "stream {\n\tid = %" PRIu32 ";\n"
			       "\tevent.header := struct event_header_%s%s;\n"
			       "\tpacket.context := struct packet_context%s;\n",
			       sc->id, sc->header == CTF_HEADER_COMPACT ? "compact" : "large",
			       s, s);
		if (sc->event_context && sc->event_context->st.n) {
			strbuf_append(sb, "\tevent.context := ");
			/* An anonymous struct; its fields carry the underscore. */
			ctf_tsdl_type(sb, sc->event_context, 1);
			strbuf_append(sb, ";\n");
		}
		strbuf_append(sb, "};\n\n");
	}
	t->preamble_done = true;
	t->preamble_len = sb->len;
}

/* Writes the preamble again (its values changed), then the event classes. */
static int tsdl_rewrite(struct ctf_trace *t)
{
	struct strbuf old = t->meta;
	size_t old_preamble = t->preamble_len;
	int r;

	if (!t->preamble_done)
		return 0;	/* generated when first asked for */
	t->meta = (struct strbuf){ 0 };
	tsdl_preamble(t);
	strbuf_append_len(&t->meta, strbuf_str(&old) + old_preamble, old.len - old_preamble);
	r = strbuf_error(&t->meta);
	if (r < 0) {
		strbuf_free(&t->meta);
		t->meta = old;
		t->preamble_len = old_preamble;
		return r;
	}
	strbuf_free(&old);
	return 0;
}

int ctf_trace_set_uuid(struct ctf_trace *t, const uint8_t uuid[16])
{
	uint8_t was[16];
	int r;

	memcpy(was, t->uuid, 16);
	memcpy(t->uuid, uuid, 16);
	r = tsdl_rewrite(t);
	if (r < 0)
		memcpy(t->uuid, was, 16);
	return r;
}

int ctf_trace_set_clock_offset(struct ctf_trace *t, const char *clock, int64_t offset_s,
			       uint64_t offset)
{
	for (size_t i = 0; i < t->nclocks; i++) {
		struct clock *k = &t->clocks[i];
		int64_t was_s = k->offset_s;
		uint64_t was = k->offset;
		int r;

		if (strcmp(k->name, clock) != 0)
			continue;
		k->offset_s = offset_s;
		k->offset = offset;
		r = tsdl_rewrite(t);
		if (r < 0) {
			k->offset_s = was_s;
			k->offset = was;
		}
		return r;
	}
	return -ENOENT;
}

static void tsdl_event(struct strbuf *sb, const struct ctf_event_class *ec)
{
	strbuf_append(sb, "event {\n\tname = ");
	ctf_tsdl_string(sb, ec->name);
	strbuf_appendf(sb, ";\n\tid = %" PRIu32 ";\n\tstream_id = %" PRIu32 ";\n",
		       ec->id, ec->stream_id);
	if (ec->has_loglevel)
		strbuf_appendf(sb, "\tloglevel = %d;\n", ec->loglevel);
	if (ec->emf_uri) {
		strbuf_append(sb, "\tmodel.emf.uri = ");
		ctf_tsdl_string(sb, ec->emf_uri);
		strbuf_append(sb, ";\n");
	}
	strbuf_append(sb, "\tfields := struct {\n");
	for (size_t i = 0; i < ec->payload->st.n; i++) {
		strbuf_append(sb, "\t\t");
		ctf_tsdl_field(sb, ec->payload->st.fields[i].type,
			       ec->payload->st.fields[i].name, 2);
		strbuf_append(sb, ";\n");
	}
	strbuf_append(sb, "\t}");
	if (ec->payload->st.min_align > 1)
		strbuf_appendf(sb, " align(%u)", ec->payload->st.min_align);
	strbuf_append(sb, ";\n};\n\n");
}

int ctf_trace_metadata(struct ctf_trace *t, const char **text, size_t *len)
{
	int r;

	if (!t->preamble_done)
		tsdl_preamble(t);
	if ((r = strbuf_error(&t->meta)) < 0)
		return r;
	*text = strbuf_str(&t->meta);
	*len = t->meta.len;
	return 0;
}

static bool printable_name(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == '"' || *s == '\\' || *s == 0x7f)
			return false;
	return true;
}

int ctf_trace_add_event_class(struct ctf_trace *t, const struct ctf_event_class_desc *d,
			      struct ctf_type *payload, struct ctf_error *err,
			      const struct ctf_event_class **ret_ec)
{
	struct ctf_stream_class *sc = NULL;
	struct ctf_event_class *ec = NULL;
	char where[200];
	size_t mark;
	int r;

	if (!printable_name(d->name)) {
		r = ctf_error_set(err, -EINVAL, "event name '%s' is empty or has quotes, "
				  "backslashes or control characters",
				  d->name ? d->name : "(null)");
		goto err;
	}
	for (size_t i = 0; i < t->nstreams; i++)
		if (t->streams[i]->id == d->stream_id)
			sc = t->streams[i];
	if (!sc) {
		r = ctf_error_set(err, -EINVAL, "event '%s': stream class %" PRIu32
				  " does not exist", d->name, d->stream_id);
		goto err;
	}
	if (ctf_trace_event_class(t, d->stream_id, d->id)) {
		r = ctf_error_set(err, -EEXIST, "event '%s': id %" PRIu32 " is already used "
				  "in stream class %" PRIu32, d->name, d->id, d->stream_id);
		goto err;
	}
	if (d->emf_uri && !printable_name(d->emf_uri)) {
		r = ctf_error_set(err, -EINVAL, "event '%s': bad model.emf.uri", d->name);
		goto err;
	}
	if (!payload && (r = ctf_type_struct_create(0, &payload)) < 0)
		goto err;
	snprintf(where, sizeof(where), "event '%s'", d->name);
	if ((r = ctf_type_validate(payload, where, has_clock, t, err)) < 0)
		goto err;
	r = -ENOMEM;
	ec = calloc(1, sizeof(*ec));
	if (!ec || !(ec->name = strdup(d->name)) ||
	    (d->emf_uri && !(ec->emf_uri = strdup(d->emf_uri))))
		goto err;
	if (grow(&sc->events, sc->nevents, sizeof(*sc->events)) < 0)
		goto err;
	ec->id = d->id;
	ec->stream_id = d->stream_id;
	ec->has_loglevel = d->has_loglevel;
	ec->loglevel = d->loglevel;
	ec->payload = payload;
	ec->stream = sc;
	ec->byte_packed = ctf_type_byte_packed(payload) &&
			  (!sc->event_context || ctf_type_byte_packed(sc->event_context));
	if (!t->preamble_done)
		tsdl_preamble(t);
	mark = t->meta.len;
	tsdl_event(&t->meta, ec);
	if (strbuf_error(&t->meta) < 0) {
		t->meta.error = 0;
		strbuf_truncate(&t->meta, mark);
		ec->payload = NULL;
		goto err;
	}
	sc->events[sc->nevents++] = ec;
	if (ret_ec)
		*ret_ec = ec;
	return 0;
err:
	if (ec) {
		free(ec->name);
		free(ec->emf_uri);
		free(ec);
	}
	ctf_type_free(payload);
	return r;
}
