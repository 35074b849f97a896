/*
 * comm.c - libltt-ust's link with the session daemon (proto/app-protocol.h).
 *
 * A listener thread, started by the library's constructor (and again in a
 * forked child), connects the command and notification connections to the
 * daemon of this user (its socket in the runtime directory), says hello,
 * and applies each state the daemon pushes: it maps the channels' shared
 * memory into tracer slots (tracer.c), replaces the enabling rules
 * (registry.c), asks the daemon an id for each event a slot now records,
 * and acknowledges. When the daemon goes away, tracing stops and the thread
 * waits for the next one (it retries every RETRY_MS).
 *
 * With LTT_UST_DISABLE=1 in the environment no thread starts: the process
 * is never traced (the unit tests use it: they fork each case, and the
 * tracer under test needs no daemon).
 *
 * The constructor, and each provider registered later (a dlopen'ed probe
 * object, a program's own constructors), waits for the listener at most
 * LTT_UST_REGISTER_TIMEOUT ms (default DEFAULT_TIMEOUT_MS): without a
 * daemon the program runs at once, with tracepoints disabled.
 *
 * Threads: the listener owns the connections and every slot change; the
 * waiting threads share with it only the counters under comm_lock.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "context-internal.h"
#include "ctf/ctf-rb-client.h"
#include "filter/filter.h"
#include "proto/app-protocol.h"
#include "proto/context-types.h"
#include "recorder-internal.h"
#include "registry-internal.h"
#include "util/macros.h"

#define DEFAULT_TIMEOUT_MS 10
#define RETRY_MS 1000
#define REPLY_TIMEOUT_MS 5000

static pthread_mutex_t comm_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t comm_cond = PTHREAD_COND_INITIALIZER;
static bool first_done;			/* the first connection attempt is over */
static bool connected;			/* a daemon's state is applied */
static uint64_t events_asked, events_done;	/* new providers vs handled */
static int wake_fd = -1;		/* eventfd: the listener has work */

/* Listener-only state. */
static int notify_fd = -1;
static uint32_t notify_seq;
static char procname[17];
static pid_t my_pid;

static int register_timeout_ms(void)
{
	const char *env = getenv("LTT_UST_REGISTER_TIMEOUT");

	return env && *env ? atoi(env) : DEFAULT_TIMEOUT_MS;
}

/* Waits until cond() holds or timeout_ms passed; called with comm_lock held. */
static void wait_locked(bool (*cond)(uint64_t), uint64_t arg, int timeout_ms)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	while (!cond(arg))
		if (pthread_cond_timedwait(&comm_cond, &comm_lock, &deadline) == ETIMEDOUT)
			break;
}

static bool is_first_done(uint64_t unused)
{
	(void)unused;
	return first_done;
}

static bool is_events_done(uint64_t gen)
{
	return events_done >= gen;
}

static void set_connected(bool yes)
{
	pthread_mutex_lock(&comm_lock);
	first_done = true;
	connected = yes;
	pthread_cond_broadcast(&comm_cond);
	pthread_mutex_unlock(&comm_lock);
}

/* ---- filters ---- */

/*
 * A filter program bound to one event (registry-internal.h,
 * ust_filter_bind_fn): each of its references resolved, once, to where its
 * value comes from, so that running it is a few loads and the program.
 */
enum ref_source {
	REF_NONE,		/* the event has no such field: the expression is false */
	REF_INT,		/* field `field`, integer or enum */
	REF_FLOAT,
	REF_STRING,		/* a NUL-terminated string */
	REF_TEXT,		/* a text array or sequence: up to its length */
	REF_PID,		/* $ctx.vpid, $ctx.pid */
	REF_TID,		/* $ctx.vtid, $ctx.tid */
	REF_PROCNAME,		/* $ctx.procname */
};

struct bound_filter {
	const struct filter_program *prog;
	bool never;		/* a reference the event lacks */
	unsigned n;
	struct {
		uint8_t source;	/* enum ref_source */
		uint32_t field;	/* index in the event's values */
	} refs[FILTER_MAX_REFS];
};

static uint8_t ref_source(const struct filter_ref *ref, const struct ltt_event_desc *desc,
			  uint32_t *ret_field)
{
	const char *name = ref->elems[0].name;

	if (ref->n_elems != 1)
		return REF_NONE;
	if (ref->root == FILTER_ROOT_CONTEXT)
		return !strcmp(name, "vpid") || !strcmp(name, "pid") ? REF_PID :
		       !strcmp(name, "vtid") || !strcmp(name, "tid") ? REF_TID :
		       !strcmp(name, "procname") ? REF_PROCNAME : REF_NONE;
	for (uint32_t i = 0; i < desc->nr_fields; i++) {
		const struct ltt_type *t = &ust_event_field(desc, i)->type;

		if (strcmp(ust_event_field(desc, i)->name, name) != 0)
			continue;
		*ret_field = i;
		switch (t->kind) {
		case LTT_TYPE_INTEGER:
		case LTT_TYPE_ENUM:
			return REF_INT;
		case LTT_TYPE_FLOAT:
			return REF_FLOAT;
		case LTT_TYPE_STRING:
			return REF_STRING;
		case LTT_TYPE_ARRAY:
		case LTT_TYPE_SEQUENCE:
			return t->encoding == LTT_ENCODING_UTF8 && t->u.integer.size == 8 ? REF_TEXT
											   : REF_NONE;
		default:
			return REF_NONE;
		}
	}
	return REF_NONE;
}

/* The registry's bind hook: resolves the program's references for desc. */
static void *bind_filter(void *arg, const struct ltt_event_desc *desc)
{
	const struct filter_program *prog = arg;
	struct bound_filter *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->prog = prog;
	b->n = filter_program_ref_count(prog);
	for (unsigned i = 0; i < b->n; i++) {
		b->refs[i].source = ref_source(filter_program_ref(prog, i), desc, &b->refs[i].field);
		b->never |= b->refs[i].source == REF_NONE;
	}
	return b;
}

/* The registry's filter hook: runs a bound filter on the event's values. */
static int run_filter(void *arg, const struct ltt_event_desc *desc,
		      const struct ltt_filter_value *values)
{
	const struct bound_filter *b = arg;
	struct filter_value refs[FILTER_MAX_REFS];

	(void)desc;
	if (b->never)
		return 0;
	for (unsigned i = 0; i < b->n; i++) {
		const struct ltt_filter_value *v = &values[b->refs[i].field];
		struct filter_value *r = &refs[i];

		switch (b->refs[i].source) {
		case REF_INT:
			*r = (struct filter_value){ .kind = FILTER_VALUE_S64, .s64 = v->v.s };
			break;
		case REF_FLOAT:
			*r = (struct filter_value){ .kind = FILTER_VALUE_DOUBLE, .d = v->v.d };
			break;
		case REF_STRING:
			*r = (struct filter_value){ .kind = FILTER_VALUE_STRING, .str = {
				v->v.ptr, v->v.ptr ? strlen(v->v.ptr) : 0 } };
			break;
		case REF_TEXT:
			*r = (struct filter_value){ .kind = FILTER_VALUE_STRING, .str = {
				v->v.ptr, strnlen(v->v.ptr, (size_t)v->len) } };
			break;
		/* $ctx: the values the context fields record (context.c's
		 * per-thread cache) */
		case REF_PID:
			*r = (struct filter_value){ .kind = FILTER_VALUE_S64,
						    .s64 = ust_context_vpid() };
			break;
		case REF_TID:
			*r = (struct filter_value){ .kind = FILTER_VALUE_S64,
						    .s64 = ust_context_vtid() };
			break;
		default: {	/* REF_PROCNAME */
			const char *p = ust_context_procname();

			*r = (struct filter_value){ .kind = FILTER_VALUE_STRING,
						    .str = { p, strlen(p) } };
			break;
		}
		}
	}
	return filter_eval(b->prog, refs, b->n);
}

/* ---- event ids ---- */

static void put_integer(struct proto_builder *b, const struct ltt_integer_type *it)
{
	proto_put_u64(b, APP_A_SIZE, it->size);
	proto_put_u64(b, APP_A_ALIGN, it->alignment);
	proto_put_u64(b, APP_A_SIGNED, it->is_signed);
	proto_put_u64(b, APP_A_BASE, it->base);
	proto_put_u64(b, APP_A_BYTE_ORDER, it->byte_order);
}

static void put_enum(struct proto_builder *b, const struct ltt_enum_desc *e)
{
	uint64_t next = 0;

	for (uint32_t i = 0; i < e->nr_entries; i++) {
		const struct ltt_enum_entry *en = (const struct ltt_enum_entry *)(const void *)(
			(const char *)e->entries + (size_t)i * e->entry_size);
		uint64_t start = en->start.value, end = en->end.value;

		if (en->flags & LTT_ENUM_ENTRY_AUTO)
			start = end = next;
		next = end + 1;
		proto_nest_begin(b, APP_A_ENUM_ENTRY);
		proto_put_str(b, APP_A_LABEL, en->label);
		proto_put_u64(b, APP_A_START, start);
		proto_put_u64(b, APP_A_END, end);
		proto_put_u64(b, APP_A_SIGNED, en->flags & LTT_ENUM_ENTRY_AUTO ? 0 : en->start.is_signed);
		proto_nest_end(b);
	}
}

/* Describes desc's recorded fields, in record order (nowrite ones left out). */
static void put_fields(struct proto_builder *b, const struct ltt_event_desc *desc)
{
	for (uint32_t i = 0; i < desc->nr_fields; i++) {
		const struct ltt_field *f = ust_event_field(desc, i);
		const struct ltt_type *t = &f->type;

		if (f->flags & LTT_FIELD_NOWRITE)
			continue;
		proto_nest_begin(b, APP_A_FIELD);
		proto_put_str(b, APP_A_NAME, f->name);
		proto_put_u64(b, APP_A_KIND, t->kind);
		proto_put_u64(b, APP_A_ENCODING, t->encoding);
		if (t->kind == LTT_TYPE_FLOAT) {
			proto_put_u64(b, APP_A_EXP_DIG, t->u.fp.exp_dig);
			proto_put_u64(b, APP_A_MANT_DIG, t->u.fp.mant_dig);
			proto_put_u64(b, APP_A_ALIGN, t->u.fp.alignment);
			proto_put_u64(b, APP_A_BYTE_ORDER, t->u.fp.byte_order);
		} else if (t->kind != LTT_TYPE_STRING) {
			put_integer(b, &t->u.integer);
		}
		if (t->kind == LTT_TYPE_ARRAY)
			proto_put_u64(b, APP_A_LENGTH, t->length);
		if (t->kind == LTT_TYPE_SEQUENCE)
			proto_put_str(b, APP_A_LENGTH_NAME, t->length_name);
		if (t->kind == LTT_TYPE_ENUM)
			put_enum(b, t->enum_desc);
		proto_nest_end(b);
	}
}

/* Asks the daemon the id of desc in the channel of slot c (named key). */
static int ask_id(const struct ltt_event_desc *desc, unsigned c, uint64_t key)
{
	struct proto_builder b;
	struct proto_msg reply;
	const char *emf = ust_event_model_emf_uri(desc);
	int64_t status;
	uint64_t id;
	int r;

	proto_builder_init(&b, APP_EVENT_REGISTER, ++notify_seq);
	proto_put_u64(&b, APP_A_SLOT, c);
	proto_put_str(&b, APP_A_NAME, desc->name);
	proto_put_i64(&b, APP_A_LOGLEVEL, ust_event_loglevel(desc));
	if (emf)
		proto_put_str(&b, APP_A_EMF_URI, emf);
	put_fields(&b, desc);
	r = proto_send(notify_fd, &b, NULL, 0, REPLY_TIMEOUT_MS);
	proto_builder_free(&b);
	if (r < 0)
		return r;
	r = proto_recv(notify_fd, &reply, REPLY_TIMEOUT_MS);
	if (r < 0)
		return r;
	if (reply.hdr.type != APP_EVENT_ID || reply.hdr.seq != notify_seq ||
	    proto_get_i64(&reply.attrs, APP_A_STATUS, &status) < 0)
		r = -EBADMSG;
	else if (status < 0)
		r = 0;	/* the daemon refused this event (it logs why): left unrecorded */
	else if (proto_get_u64(&reply.attrs, APP_A_ID, &id) < 0 || id > UST_EVENT_ID_MAX)
		r = -EBADMSG;
	else
		r = ust_event_ids_set(desc, c, key, (uint32_t)id);
	proto_msg_free(&reply);
	return r;
}

struct pending {
	const struct ltt_event_desc **descs;
	size_t n, cap;
};

static int collect(void *arg, const struct ltt_event_desc *desc)
{
	struct pending *p = arg;

	if (!__atomic_load_n(&desc->state->channel_mask, __ATOMIC_ACQUIRE))
		return 0;
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		const struct ltt_event_desc **d = realloc(p->descs, cap * sizeof(*d));

		if (!d)
			return -ENOMEM;
		p->descs = d;
		p->cap = cap;
	}
	p->descs[p->n++] = desc;
	return 0;
}

/* Gets an id for every (enabled event, ring-buffer slot) pair that lacks one. */
static int ask_missing_ids(void)
{
	struct pending p = { 0 };
	int r = ust_events_foreach(collect, &p);

	for (size_t i = 0; r == 0 && i < p.n; i++) {
		uint64_t mask = __atomic_load_n(&p.descs[i]->state->channel_mask, __ATOMIC_ACQUIRE);

		while (mask && r == 0) {
			unsigned c = (unsigned)__builtin_ctzll(mask);
			uint64_t key = ust_tracer_slot_key(c);

			mask &= mask - 1;
			if (key && !ust_event_has_id(p.descs[i], c, key))
				r = ask_id(p.descs[i], c, key);
		}
	}
	free(p.descs);
	return r;
}

/* ---- applying a state ---- */

/* Whether the program allows blocking channels to make its tracepoints wait. */
static bool blocking_allowed(void)
{
	const char *v = getenv("LTT_UST_ALLOW_BLOCKING");

	if (!v || !*v)
		v = getenv("LTTNG_UST_ALLOW_BLOCKING");	/* LTTng's spelling */
	return v && *v && strcmp(v, "0") != 0;
}

/* The context fields of a channel of the state; 0 (*ret NULL: none) or -errno. */
static int channel_context(const struct proto_attrs *ch, struct ust_context **ret)
{
	uint64_t types[PROTO_CTX_MAX];
	struct proto_attr at;
	size_t cur = 0, n = 0;

	*ret = NULL;
	while (proto_attrs_next(ch, &cur, &at)) {
		if (at.id != APP_A_CONTEXT || at.kind != PROTO_U64)
			continue;
		if (n == PROTO_CTX_MAX)
			return -EINVAL;
		memcpy(&types[n++], at.value, sizeof(*types));
	}
	return n ? ust_context_create(types, n, ret) : 0;
}

static void apply_channels(struct proto_msg *m, uint64_t keys[APP_MAX_SLOTS])
{
	struct proto_attr at;
	size_t cur = 0;

	while (proto_attrs_next(&m->attrs, &cur, &at)) {
		struct proto_attrs ch = { at.value, at.len };
		uint64_t slot, key, idx;
		int64_t blocking_us = 0;
		struct ust_context *context;
		struct rb_channel *rb;

		if (at.id != APP_A_CHANNEL || at.kind != PROTO_NEST ||
		    proto_get_u64(&ch, APP_A_SLOT, &slot) < 0 || slot >= APP_MAX_SLOTS ||
		    proto_get_u64(&ch, APP_A_KEY, &key) < 0 || key == 0 || key >> 48 ||
		    proto_get_u64(&ch, APP_A_FD_INDEX, &idx) < 0 || idx + 1 >= m->n_fds ||
		    proto_get_i64(&ch, APP_A_BLOCKING_TIMEOUT, &blocking_us) == -EBADMSG ||
		    blocking_us < -1)
			continue;
		keys[slot] = key;
		if (ust_tracer_slot_key((unsigned)slot) == key)
			continue;	/* mapped already; the descriptors received are closed */
		if (channel_context(&ch, &context) < 0 ||
		    rb_channel_map(m->fds[idx], &ctf_rb_client_large, &rb) < 0) {
			free(context);	/* never published */
			keys[slot] = 0;
			continue;
		}
		/* the wake-up eventfd stays open for the mapping's life (tracer.c inv. 6) */
		rb_channel_set_wakeup_fd(rb, m->fds[idx + 1]);
		m->fds[idx + 1] = -1;
		if (ust_tracer_attach_rb((unsigned)slot, rb, key, context,
					 blocking_allowed() ? blocking_us : 0) < 0)
			keys[slot] = 0;
	}
	for (unsigned c = 0; c < APP_MAX_SLOTS; c++)
		if (!keys[c] && ust_tracer_slot_key(c))
			ust_tracer_detach(c);
}

/* The rules of the last state applied (listener-only), to replace them. */
static uint64_t *rule_ids;
static size_t n_rule_ids;

/*
 * Replaces the rules by those of the state: the new ones are added before
 * the old ones are removed, so that an event enabled by both is recorded
 * throughout (no window where a re-pushed rule is missing).
 */
static void apply_rules(const struct proto_msg *m)
{
	uint64_t *old = rule_ids, *fresh = NULL;
	size_t n_old = n_rule_ids, n_fresh = 0;
	struct proto_attr at;
	size_t cur = 0;

	while (proto_attrs_next(&m->attrs, &cur, &at)) {
		struct proto_attrs ra = { at.value, at.len };
		const char *excl[64];
		struct ust_rule_spec spec = { 0 };
		struct proto_attr x;
		uint64_t slot, match, id;
		int64_t level;
		const void *code;
		size_t code_len, xc = 0;

		if (at.id != APP_A_RULE || at.kind != PROTO_NEST ||
		    proto_get_u64(&ra, APP_A_SLOT, &slot) < 0 || slot >= APP_MAX_SLOTS ||
		    proto_get_str(&ra, APP_A_PATTERN, &spec.pattern) < 0 ||
		    proto_get_u64(&ra, APP_A_LOGLEVEL_MATCH, &match) < 0 || match > 2 ||
		    proto_get_i64(&ra, APP_A_LOGLEVEL, &level) < 0)
			continue;
		while (proto_attrs_next(&ra, &xc, &x))
			if (x.id == APP_A_EXCLUSION && x.kind == PROTO_STR &&
			    spec.nr_exclusions < ARRAY_SIZE(excl))
				excl[spec.nr_exclusions++] = (const char *)x.value;
		spec.exclusions = excl;
		spec.loglevel_type = (enum ust_loglevel_type)match;
		spec.loglevel = (int)level;
		spec.channel = (unsigned)slot;
		if (proto_get_bytes(&ra, APP_A_FILTER, &code, &code_len) == 0) {
			/* the program and its bytes live as long as the process: the
			 * registry keeps replaced filters for in-flight probes too */
			uint8_t *copy = malloc(code_len);
			struct filter_program *prog;

			if (!copy)
				continue;
			memcpy(copy, code, code_len);
			if (filter_load(copy, code_len, &prog) < 0) {
				free(copy);
				continue;	/* invalid bytecode: the rule records nothing */
			}
			spec.filter = run_filter;
			spec.filter_arg = prog;
			spec.filter_bind = bind_filter;
		}
		uint64_t *grown = realloc(fresh, (n_fresh + 1) * sizeof(*fresh));

		if (!grown)
			continue;
		fresh = grown;
		if (ust_rule_add(&spec, &id) == 0)
			fresh[n_fresh++] = id;
	}
	for (size_t i = 0; i < n_old; i++)
		ust_rule_remove(old[i]);
	free(old);
	rule_ids = fresh;
	n_rule_ids = n_fresh;
}

/* ---- the listener ---- */

static int say_hello(int fd, enum app_role role)
{
	struct proto_builder b;
	int r;

	proto_builder_init(&b, APP_HELLO, 0);
	proto_put_u64(&b, APP_A_ROLE, role);
	proto_put_u64(&b, APP_A_PID, (uint64_t)my_pid);
	proto_put_str(&b, APP_A_PROCNAME, procname);
	proto_put_u64(&b, APP_A_BITS, sizeof(void *) * 8);
	proto_put_u64(&b, APP_A_UID, getuid());	/* the ids trackers match */
	proto_put_u64(&b, APP_A_GID, getgid());
	r = proto_send(fd, &b, NULL, 0, REPLY_TIMEOUT_MS);
	proto_builder_free(&b);
	return r;
}

static int ack(int fd, uint32_t seq, int status)
{
	struct proto_builder b;
	int r;

	proto_builder_init(&b, APP_ACK, seq);
	proto_put_i64(&b, APP_A_STATUS, status);
	r = proto_send(fd, &b, NULL, 0, REPLY_TIMEOUT_MS);
	proto_builder_free(&b);
	return r;
}

static void mark_events_done(uint64_t gen)
{
	pthread_mutex_lock(&comm_lock);
	if (gen > events_done)
		events_done = gen;
	pthread_cond_broadcast(&comm_cond);
	pthread_mutex_unlock(&comm_lock);
}

static int list_event(void *arg, const struct ltt_event_desc *desc)
{
	struct proto_builder *b = arg;

	proto_nest_begin(b, APP_A_EVENT);
	proto_put_str(b, APP_A_NAME, desc->name);
	proto_put_i64(b, APP_A_LOGLEVEL, ust_event_loglevel(desc));
	proto_nest_end(b);
	return 0;
}

/* Answers APP_LIST_EVENTS: every registered event (what `ltt list -u` shows). */
static int list_events(int fd, uint32_t seq)
{
	struct proto_builder b;
	int r;

	proto_builder_init(&b, APP_EVENTS, seq);
	ust_events_foreach(list_event, &b);
	r = proto_send(fd, &b, NULL, 0, REPLY_TIMEOUT_MS);
	proto_builder_free(&b);
	return r;
}

/* One connection to a daemon, until it breaks. */
static int serve_daemon(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	int cmd_fd = -1, r;

	if ((r = proto_runtime_dir_path(dir, sizeof(dir))) < 0)
		return r;
	snprintf(path, sizeof(path), "%s/sessiond.sock", dir);
	if ((r = proto_connect(path, &cmd_fd)) < 0)
		return r;
	if ((r = proto_connect(path, &notify_fd)) < 0 || (r = say_hello(cmd_fd, APP_ROLE_COMMAND)) < 0 ||
	    (r = say_hello(notify_fd, APP_ROLE_NOTIFY)) < 0)
		goto out;
	for (;;) {
		struct pollfd pfd[2] = { { .fd = cmd_fd, .events = POLLIN },
					 { .fd = wake_fd, .events = POLLIN } };
		struct proto_msg m;
		uint64_t keys[APP_MAX_SLOTS] = { 0 }, gen;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (pfd[1].revents) {
			if (read(wake_fd, &gen, sizeof(gen)) < 0 && errno != EAGAIN)
				break;
			pthread_mutex_lock(&comm_lock);
			gen = events_asked;
			pthread_mutex_unlock(&comm_lock);
			if ((r = ask_missing_ids()) < 0)
				break;
			mark_events_done(gen);
		}
		if (!pfd[0].revents)
			continue;
		if ((r = proto_recv(cmd_fd, &m, REPLY_TIMEOUT_MS)) < 0)
			break;
		if (m.hdr.type == APP_LIST_EVENTS) {
			r = list_events(cmd_fd, m.hdr.seq);
			proto_msg_free(&m);
			if (r < 0)
				break;
			continue;
		}
		if (m.hdr.type != APP_STATE) {
			proto_msg_free(&m);
			r = -EBADMSG;
			break;
		}
		uint32_t seq = m.hdr.seq;

		ust_context_refresh();	/* threads re-read their names, namespaces, ids */
		apply_channels(&m, keys);
		apply_rules(&m);
		r = ask_missing_ids();
		proto_msg_free(&m);
		if (r < 0 || (r = ack(cmd_fd, seq, 0)) < 0)
			break;
		set_connected(true);
	}
out:
	close(cmd_fd);
	if (notify_fd >= 0)
		close(notify_fd);
	notify_fd = -1;
	return r;
}

static void *listener(void *arg)
{
	(void)arg;
	for (;;) {
		serve_daemon();
		/* no daemon, or it went away: record nothing until the next one */
		ust_rules_clear();
		free(rule_ids);
		rule_ids = NULL;
		n_rule_ids = 0;
		for (unsigned c = 0; c < APP_MAX_SLOTS; c++)
			if (ust_tracer_slot_key(c))
				ust_tracer_detach(c);
		set_connected(false);
		/* a retry period, not a race: a daemon may start any time */
		poll(NULL, 0, RETRY_MS);
	}
	return NULL;
}

static void start_listener(void)
{
	sigset_t all, old;
	pthread_t t;

	my_pid = getpid();
	prctl(PR_GET_NAME, procname, 0, 0, 0);
	wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (wake_fd < 0)
		return;
	/* the thread takes no signal meant for the program */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&t, NULL, listener, NULL) == 0)
		pthread_detach(t);
	else
		first_done = true;	/* no listener: run untraced */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void after_fork_child(void)
{
	ust_context_after_fork();
	/* the parent's connections and thread are not ours */
	if (wake_fd >= 0)
		close(wake_fd);
	wake_fd = -1;
	notify_fd = -1;
	first_done = connected = false;
	events_asked = events_done = 0;
	pthread_mutex_init(&comm_lock, NULL);
	pthread_cond_init(&comm_cond, NULL);
	start_listener();
}

void ust_comm_wait_events(void)
{
	uint64_t gen, one = 1;

	pthread_mutex_lock(&comm_lock);
	gen = ++events_asked;
	if (!connected || wake_fd < 0) {
		pthread_mutex_unlock(&comm_lock);
		return;	/* no daemon: nothing to ask */
	}
	pthread_mutex_unlock(&comm_lock);
	if (write(wake_fd, &one, sizeof(one)) < 0)
		return;
	pthread_mutex_lock(&comm_lock);
	wait_locked(is_events_done, gen, register_timeout_ms());
	pthread_mutex_unlock(&comm_lock);
}

__attribute__((constructor)) static void comm_init(void)
{
	const char *off = getenv("LTT_UST_DISABLE");

	if (off && !strcmp(off, "1"))
		return;
	start_listener();
	pthread_atfork(NULL, NULL, after_fork_child);
	pthread_mutex_lock(&comm_lock);
	wait_locked(is_first_done, 0, register_timeout_ms());
	pthread_mutex_unlock(&comm_lock);
}
