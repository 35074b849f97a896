/* kernel-channel.c - a kernel channel in the consumer; see kernel-channel.h. */
#include "kernel-channel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "log.h"

#define DEFAULT_READ_NS (200 * 1000000ull)
#define MAX_PACKET_SIZE (1u << 20)

/* What a drain callback needs of one CPU. */
struct cpu {
	struct kernel_channel *k;
	unsigned cpu;
};

struct kernel_channel {
	uint64_t key;
	struct kt_instance *inst;	/* opened: the daemon owns it */
	/*
	 * The trace of the current chunk: made at creation in cfg.dir, closed
	 * and made again in the next chunk's directory at ROTATE (NULL after a
	 * rotation while stopped, until the next one gives a directory), made
	 * again over the same files at CLEAR. cfg's strings are the channel's.
	 */
	struct kt_converter *conv;
	struct kt_converter_config cfg;
	struct ctf_clock_info clock;
	enum kt_context contexts[KT_CONTEXT_MAX];
	char *dir, *channel, *trace_name, *function_name;
	uint8_t *filters;		/* the last KERNEL_FILTERS' attributes, for a new trace */
	size_t filters_len;
	struct kt_converter_stats before;	/* of the chunks' traces closed so far */
	struct kt_cpu_reader **readers;
	struct cpu *cpus;
	unsigned ncpus;
	uint64_t switch_ns, read_ns, next_switch, next_read;
	bool ready;			/* every reader is there: flushed at the end */
	uint64_t unwritten;		/* records the trace could not take (write errors) */
	int write_error;		/* the first one, logged once */
	struct kt_error err;		/* the last error, for *detail */
};

uint64_t kernel_channel_key(const struct kernel_channel *k)
{
	return k->key;
}

static const char *say(struct kernel_channel *k, int r)
{
	if (!k->err.msg[0])
		snprintf(k->err.msg, sizeof(k->err.msg), "%s", strerror(-r));
	return k->err.msg;
}

static int on_record(const struct kt_record *rec, uint64_t lost, void *arg)
{
	struct cpu *c = arg;
	struct kernel_channel *k = c->k;
	struct kt_error err;
	int r;

	if (lost)
		kt_converter_lost(k->conv, c->cpu, lost);
	r = kt_converter_record(k->conv, c->cpu, rec, &err);
	if (r == 0 || r == -ENOENT || r == -EBADMSG)
		return 0;	/* unknown or malformed records are counted by the converter */
	/* a write error: keep draining (the kernel would drop instead), say it once */
	if (!k->write_error) {
		k->write_error = r;
		cons_log("kernel channel %llu: %s", (unsigned long long)k->key, err.msg);
	}
	k->unwritten++;
	return 0;
}

/* A record dropped by CLEAR. */
static int on_record_dropped(const struct kt_record *rec, uint64_t lost, void *arg)
{
	(void)rec;
	(void)lost;
	(void)arg;
	return 0;
}

/* Drains what every CPU's buffer holds now (into the trace, or dropped without one). */
static int drain_with(struct kernel_channel *k, kt_record_cb cb)
{
	for (unsigned i = 0; i < k->ncpus; i++) {
		long n = kt_cpu_reader_drain(k->readers[i], k->conv ? cb : on_record_dropped,
					     &k->cpus[i]);

		if (n < 0) {
			snprintf(k->err.msg, sizeof(k->err.msg), "cannot read the kernel buffer of "
				 "CPU %u: %s", i, strerror((int)-n));
			return (int)n;
		}
	}
	return 0;
}

static int drain(struct kernel_channel *k)
{
	return drain_with(k, on_record);
}

static int declare_enabled(const char *system, const char *name, void *arg)
{
	struct kernel_channel *k = arg;
	struct kt_event_format *fmt = NULL;
	int r = kt_event_format_load(system, name, &fmt);

	if (r < 0)
		return kt_error_set(&k->err, r, "cannot read the format of %s:%s: %s", system,
				    name, strerror(-r));
	r = kt_converter_declare(k->conv, fmt, NULL, &k->err);
	kt_event_format_free(fmt);
	return r;
}

static int count_enabled(const char *system, const char *name, void *arg)
{
	(void)system;
	(void)name;
	(*(unsigned *)arg)++;
	return 0;
}

/* Reads the CLOCK nest into *c. 0 or -EBADMSG. */
static int get_clock(const struct proto_attrs *a, struct ctf_clock_info *c)
{
	struct proto_attrs n;
	const char *name;
	const void *uuid;
	size_t uuid_len;

	memset(c, 0, sizeof(*c));
	if (proto_get_nest(a, CONS_A_CLOCK, &n) < 0 || proto_get_str(&n, CONS_A_NAME, &name) < 0 ||
	    ctf_clock_kind_parse(name, &c->kind) < 0 ||
	    proto_get_u64(&n, CONS_A_FREQ, &c->freq) < 0 ||
	    proto_get_i64(&n, CONS_A_OFFSET_S, &c->offset_s) < 0 ||
	    proto_get_u64(&n, CONS_A_OFFSET, &c->offset) < 0 ||
	    proto_get_bytes(&n, CONS_A_UUID, &uuid, &uuid_len) < 0 || uuid_len != 16 || !c->freq)
		return -EBADMSG;
	memcpy(c->uuid, uuid, 16);
	return 0;
}

/*
 * Every enabled event is in the metadata, fired or not (as LTTng's), the
 * function tracer's under the rule's name.
 */
static int declare_all(struct kernel_channel *k)
{
	int r = kt_instance_for_each_enabled(k->inst, declare_enabled, k);

	if (r == 0 && k->function_name) {
		struct kt_event_format *fmt = NULL;

		r = kt_event_format_load("ftrace", "function", &fmt);
		if (r == 0)
			r = kt_converter_declare(k->conv, fmt, k->function_name, &k->err);
		kt_event_format_free(fmt);
	}
	return r;
}

static int apply_filters(struct kernel_channel *k, const char **detail);

/*
 * The trace of a chunk in dir (k->dir then): a new converter, with the
 * events enabled now declared (as at start) and the consumer's filters.
 * Files there are replaced.
 */
static int open_trace(struct kernel_channel *k, const char *dir)
{
	const char *detail;
	char *copy = strdup(dir);
	int r;

	if (!copy)
		return -ENOMEM;
	free(k->dir);
	k->dir = copy;
	k->cfg.dir = k->dir;
	k->cfg.start_ts = ctf_clock_now(k->clock.kind);
	r = kt_converter_create(&k->cfg, &k->conv, &k->err);
	if (r == 0)
		r = declare_all(k);
	if (r == 0 && k->filters)
		r = apply_filters(k, &detail);
	if (r < 0) {
		kt_converter_free(k->conv);
		k->conv = NULL;
	}
	return r;
}

int kernel_channel_create(const struct proto_msg *m, struct kernel_channel **ret,
			  const char **detail)
{
	struct ctf_clock_info clock;
	const char *dir, *channel, *instance, *trace_name;
	uint64_t key, packet_size, sw = 0, rd = 0;
	struct kernel_channel *k;
	enum kt_context contexts[KT_CONTEXT_MAX];
	struct proto_attr at;
	size_t cur = 0, ncontexts = 0;
	unsigned nevents = 0;
	int r;

	if (proto_get_u64(&m->attrs, CONS_A_KEY, &key) < 0 ||
	    proto_get_str(&m->attrs, CONS_A_DIR, &dir) < 0 || dir[0] != '/' ||
	    proto_get_str(&m->attrs, CONS_A_CHANNEL, &channel) < 0 ||
	    proto_get_str(&m->attrs, CONS_A_INSTANCE, &instance) < 0 ||
	    proto_get_u64(&m->attrs, CONS_A_PACKET_SIZE, &packet_size) < 0 ||
	    proto_get_str(&m->attrs, CONS_A_TRACE_NAME, &trace_name) < 0 ||
	    proto_get_u64(&m->attrs, CONS_A_SWITCH_TIMER, &sw) == -EBADMSG ||
	    proto_get_u64(&m->attrs, CONS_A_READ_TIMER, &rd) == -EBADMSG ||
	    get_clock(&m->attrs, &clock) < 0 || packet_size < 4096) {
		*detail = "malformed ADD_KERNEL_CHANNEL";
		return -EBADMSG;
	}
	while (proto_attrs_next(&m->attrs, &cur, &at)) {
		uint64_t v;

		if (at.id != CONS_A_CONTEXT)
			continue;
		if (at.kind != PROTO_U64 || ncontexts == KT_CONTEXT_MAX) {
			*detail = "malformed ADD_KERNEL_CHANNEL: contexts";
			return -EBADMSG;
		}
		memcpy(&v, at.value, sizeof(v));
		contexts[ncontexts++] = (enum kt_context)v;
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->key = key;
	k->clock = clock;
	memcpy(k->contexts, contexts, sizeof(contexts));
	k->dir = strdup(dir);
	k->channel = strdup(channel);
	k->trace_name = strdup(trace_name);
	if (!k->dir || !k->channel || !k->trace_name) {
		r = -ENOMEM;
		goto err;
	}
	k->switch_ns = sw * 1000;
	k->read_ns = rd ? rd * 1000 : DEFAULT_READ_NS;
	r = kt_instance_open(instance, &k->inst, &k->err);
	if (r < 0)
		goto err;
	k->ncpus = kt_instance_ncpus(k->inst);
	kt_instance_for_each_enabled(k->inst, count_enabled, &nevents);
	k->cfg = (struct kt_converter_config){
		.channel = k->channel,
		.ncpus = k->ncpus,
		.packet_size = packet_size < MAX_PACKET_SIZE ? packet_size : MAX_PACKET_SIZE,
		.trace_name = k->trace_name,
		.nevents_hint = nevents + 5,	/* and the state dump's */
		.clock = &k->clock,
		.growing = true,
		.contexts = k->contexts,
		.ncontexts = ncontexts,
	};
	r = open_trace(k, dir);
	if (r < 0)
		goto err;
	k->readers = calloc(k->ncpus, sizeof(*k->readers));
	k->cpus = calloc(k->ncpus, sizeof(*k->cpus));
	if (!k->readers || !k->cpus) {
		r = -ENOMEM;
		goto err;
	}
	for (unsigned i = 0; i < k->ncpus; i++) {
		k->cpus[i] = (struct cpu){ .k = k, .cpu = i };
		r = kt_cpu_reader_create(k->inst, i, KT_READER_AUTO, &k->readers[i], &k->err);
		if (r < 0)
			goto err;
	}
	k->ready = true;
	*ret = k;
	return 0;
err:
	*detail = say(k, r);
	kernel_channel_free(k);
	return r;
}

int kernel_channel_start(struct kernel_channel *k, const struct proto_attrs *a,
			 const char **detail)
{
	const char *function_name = NULL;
	int r;

	k->err.msg[0] = '\0';
	if (proto_get_str(a, CONS_A_FUNCTION_NAME, &function_name) == -EBADMSG) {
		*detail = "malformed KERNEL_START";
		return -EBADMSG;
	}
	if (!k->conv) {
		*detail = "the kernel channel has no trace to write into (rotated without a "
			  "next chunk)";
		return -EINVAL;
	}
	free(k->function_name);
	k->function_name = function_name ? strdup(function_name) : NULL;
	if (function_name && !k->function_name)
		return -ENOMEM;
	r = declare_all(k);
	/* what the tracing of a previous start left is converted before the dump */
	if (r == 0)
		r = drain(k);
	if (r == 0)
		r = kt_converter_statedump(k->conv, 0, ctf_clock_now(k->clock.kind), &k->err);
	if (r < 0) {
		*detail = say(k, r);
		return r;
	}
	return 0;
}

int kernel_channel_set_filters(struct kernel_channel *k, const struct proto_attrs *a,
			       const char **detail)
{
	uint8_t *copy = malloc(a->len ? a->len : 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, a->p, a->len);
	free(k->filters);
	k->filters = copy;
	k->filters_len = a->len;
	k->err.msg[0] = '\0';
	return k->conv ? apply_filters(k, detail) : 0;
}

/* The filters of the last KERNEL_FILTERS, in the current trace's converter. */
static int apply_filters(struct kernel_channel *k, const char **detail)
{
	const struct proto_attrs attrs = { k->filters, k->filters_len }, *a = &attrs;
	struct proto_attr at;
	size_t cur = 0;
	int r = 0;

	kt_converter_clear_filters(k->conv);
	while (r == 0 && proto_attrs_next(a, &cur, &at)) {
		struct proto_attrs fa = { at.value, at.len };
		const uint8_t *codes[64];
		size_t lens[64], n = 0, fcur = 0;
		struct kt_event_format *fmt = NULL;
		struct proto_attr b;
		const char *event;
		char system[128];
		const char *colon;

		if (at.id != CONS_A_FILTER_DESC)
			continue;
		if (at.kind != PROTO_NEST || proto_get_str(&fa, CONS_A_EVENT, &event) < 0 ||
		    !(colon = strchr(event, ':')) || (size_t)(colon - event) >= sizeof(system)) {
			*detail = "malformed KERNEL_FILTERS";
			return -EBADMSG;
		}
		while (proto_attrs_next(&fa, &fcur, &b))
			if (b.id == CONS_A_BYTECODE && b.kind == PROTO_BYTES && n < 64) {
				codes[n] = b.value;
				lens[n++] = b.len;
			}
		snprintf(system, sizeof(system), "%.*s", (int)(colon - event), event);
		r = kt_event_format_load(system, colon + 1, &fmt);
		if (r < 0) {
			kt_error_set(&k->err, r, "no kernel event %s", event);
			break;
		}
		r = kt_converter_set_filter(k->conv, fmt, codes, lens, n, &k->err);
		kt_event_format_free(fmt);
	}
	if (r < 0)
		*detail = say(k, r);
	return r;
}

unsigned kernel_channel_pollfds(const struct kernel_channel *k, struct pollfd *fds,
				unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < k->ncpus && n < max; i++)
		fds[n++] = (struct pollfd){ .fd = kt_cpu_reader_fd(k->readers[i]), .events = POLLIN };
	return n;
}

uint64_t kernel_channel_service(struct kernel_channel *k, uint64_t now, bool readable)
{
	uint64_t next;

	if (readable || now >= k->next_read) {
		if (drain(k) < 0)
			cons_log("kernel channel %llu: %s", (unsigned long long)k->key, k->err.msg);
		k->next_read = now + k->read_ns;
	}
	if (k->switch_ns && now >= k->next_switch) {
		if (k->conv && kt_converter_sync(k->conv, &k->err) < 0)
			cons_log("kernel channel %llu: %s", (unsigned long long)k->key, k->err.msg);
		k->next_switch = now + k->switch_ns;
	}
	next = k->next_read;
	if (k->switch_ns && k->next_switch < next)
		next = k->next_switch;
	return next;
}

int kernel_channel_flush(struct kernel_channel *k, const char **detail)
{
	int r;

	k->err.msg[0] = '\0';
	r = drain(k);
	for (unsigned i = 0; r == 0 && k->conv && i < k->ncpus; i++) {
		long long lost = kt_cpu_reader_lost_pending(k->readers[i]);

		if (lost > 0)
			kt_converter_lost(k->conv, i, (uint64_t)lost);
	}
	if (r == 0 && k->conv)
		r = kt_converter_sync(k->conv, &k->err);
	if (r < 0)
		*detail = say(k, r);
	return r;
}

/* Closes the current trace (written to the end), its counts kept. */
static int close_trace(struct kernel_channel *k)
{
	struct kt_converter_stats st;
	int r;

	if (!k->conv)
		return 0;
	kt_converter_stats(k->conv, &st);
	r = kt_converter_close(k->conv, &k->err);
	kt_converter_free(k->conv);
	k->conv = NULL;
	k->before.events += st.events;
	k->before.filtered += st.filtered;
	return r;
}

int kernel_channel_rotate(struct kernel_channel *k, const char *dir, const char **detail)
{
	int r;

	/* everything consumed so far ends the current trace; what follows, the next */
	if ((r = kernel_channel_flush(k, detail)) < 0)
		return r;
	if ((r = close_trace(k)) == 0 && dir)
		r = open_trace(k, dir);
	if (r < 0)
		*detail = say(k, r);
	return r;
}

int kernel_channel_clear(struct kernel_channel *k, const char **detail)
{
	int r;

	k->err.msg[0] = '\0';
	if (!k->conv)
		return 0;	/* rotated while stopped: the next chunk has nothing yet */
	/* what the buffers hold is dropped, the files made again, empty */
	if ((r = drain_with(k, on_record_dropped)) == 0) {
		kt_converter_free(k->conv);
		k->conv = NULL;
		r = open_trace(k, k->dir);
	}
	if (r < 0)
		*detail = say(k, r);
	return r;
}

int kernel_channel_set_clock(struct kernel_channel *k, const struct proto_attrs *a,
			     const char **detail)
{
	struct ctf_clock_info clock;
	int r;

	k->err.msg[0] = '\0';
	if (get_clock(a, &clock) < 0 || clock.kind != k->clock.kind) {
		*detail = "malformed KERNEL_CLOCK";
		return -EBADMSG;
	}
	k->clock = clock;
	if (k->conv && (r = kt_converter_set_clock_offset(k->conv, &clock, &k->err)) < 0) {
		*detail = say(k, r);
		return r;
	}
	return 0;
}

void kernel_channel_stats(const struct kernel_channel *k, struct proto_builder *reply)
{
	struct kt_converter_stats st;
	uint64_t lost = 0;

	st = k->before;
	if (k->conv) {
		struct kt_converter_stats now;

		kt_converter_stats(k->conv, &now);
		st.events += now.events;
		st.filtered += now.filtered;
	}
	for (unsigned i = 0; i < k->ncpus; i++) {
		struct kt_reader_stats rs;

		kt_cpu_reader_stats(k->readers[i], &rs);
		lost += rs.lost;
	}
	proto_put_u64(reply, CONS_A_EVENTS, st.events);
	proto_put_u64(reply, CONS_A_LOST, lost);
	proto_put_u64(reply, CONS_A_FILTERED, st.filtered);
}

void kernel_channel_free(struct kernel_channel *k)
{
	const char *detail;

	if (!k)
		return;
	if (k->ready) {
		if (kernel_channel_flush(k, &detail) < 0)
			cons_log("kernel channel %llu: %s", (unsigned long long)k->key, detail);
		if (close_trace(k) < 0)
			cons_log("kernel channel %llu: %s", (unsigned long long)k->key, k->err.msg);
	}
	for (unsigned i = 0; k->readers && i < k->ncpus; i++)
		kt_cpu_reader_free(k->readers[i]);
	kt_converter_free(k->conv);
	kt_instance_close(k->inst);
	free(k->readers);
	free(k->cpus);
	free(k->dir);
	free(k->channel);
	free(k->trace_name);
	free(k->function_name);
	free(k->filters);
	free(k);
}
