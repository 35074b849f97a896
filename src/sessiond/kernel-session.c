/* kernel-session.c - a session's kernel domain on tracefs; see kernel-session.h. */
#include "kernel-session.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "proto/context-types.h"
#include "tracker.h"
#include "proto/ctl-protocol.h"
#include "util/strbuf.h"

/*
 * The consumer, poll()ing a CPU's buffer, is woken when it is this full:
 * three quarters of the buffer are left for the time it takes to be
 * scheduled and drain (the kernel's default, 50, lost events when other
 * work kept the consumer off the CPUs for tens of milliseconds).
 */
#define WAKEUP_PERCENT 25

/* A tracefs event some rule of the channel matched. */
struct kevent {
	char *id;		/* "system:name", the sort key */
	size_t split;		/* where ':' is */
	bool enabled;		/* in the instance */
	bool kernel_filter;	/* its filter file holds ours */
	bool consumer_filter;	/* the consumer filters its records */
};

/* The uprobe made for a --userspace-probe rule. */
struct kuprobe {
	char *pattern, *location;	/* the rule's */
	char system[64], name[192];	/* the event: ltt_PID/NAME */
};

struct kernel_session {
	struct kt_instance *inst;
	char channel[REG_NAME_MAX + 1];	/* the session's one kernel channel */
	uint64_t key;			/* in the consumer; 0: not added yet */
	pid_t consumer;			/* the consumer it was added to */
	bool function;			/* the instance's function tracer is on */
	struct kevent *events;		/* sorted by id */
	size_t nevents;
	struct kuprobe *uprobes;
	size_t nuprobes;
};

static struct kt_error kerr;	/* the daemon is single-threaded: details point here */

static int fail(const char **detail, int r)
{
	*detail = kerr.msg;
	return r;
}

int kernel_session_available(const char **detail)
{
	static char text[600];
	char path[PATH_MAX];
	const char *root;
	int r = kt_tracefs_open(&root, &kerr);

	if (r < 0) {
		snprintf(text, sizeof(text), "kernel tracing needs root, or the 'tracing' group "
			 "with tracefs mounted: %s", kerr.msg);
		*detail = text;
		return -LTT_ERR_KERNEL_UNAVAILABLE;
	}
	snprintf(path, sizeof(path), "%s/instances", root);
	if (access(path, W_OK) < 0) {
		snprintf(text, sizeof(text), "kernel tracing needs root, or membership of the "
			 "'tracing' group with write access to %s (this session daemon runs as "
			 "uid %u: %s)", root, (unsigned)geteuid(), strerror(errno));
		*detail = text;
		return -LTT_ERR_KERNEL_UNAVAILABLE;
	}
	return 0;
}

/* ---- contexts ---- */

int kernel_session_context(unsigned type, const char **detail)
{
	static char text[300];
	const struct proto_context_type *t = proto_context_type(type);

	switch (t->kind) {
	case PROTO_CTX_TID:
		return 0;
	case PROTO_CTX_PID:
		return KT_CTX_PID;
	case PROTO_CTX_PROCNAME:
		return KT_CTX_PROCNAME;
	case PROTO_CTX_CPU_ID:
		return KT_CTX_CPU_ID;
	default:
		if (strcmp(t->name, "prio") == 0)
			return KT_CTX_PRIO;
		snprintf(text, sizeof(text), "kernel context '%s' is not recorded by ltt: tracefs "
			 "records carry only their thread and CPU, from which ltt derives tid, pid, "
			 "procname, prio and cpu_id", t->name);
		*detail = text;
		return -LTT_ERR_CONTEXT_UNAVAILABLE;
	}
}

/* ---- the instance ---- */

int kernel_session_add_channel(struct reg_session *s, const struct reg_channel *c,
			       const char **detail)
{
	static unsigned counter;
	struct kt_instance_config cfg = {
		.subbuf_size = c->attr.subbuf_size,
		.num_subbuf = c->attr.num_subbuf,
		.overwrite = c->attr.overwrite,
		.clock = kt_trace_clock(s->clock.kind),
		.wakeup_percent = WAKEUP_PERCENT,
	};
	char name[80];
	struct kernel_session *ks;
	int r;

	if (s->kernel) {
		static char text[REG_NAME_MAX + 200];

		snprintf(text, sizeof(text), "a session has one kernel channel (tracefs gives its "
			 "instance one ring buffer): '%s' is it", s->kernel->channel);
		*detail = text;
		return -LTT_ERR_INVALID_ATTR;
	}
	if (s->snapshot) {
		*detail = "snapshot sessions record user space only: reading a kernel buffer "
			  "consumes it, so a flight recorder's snapshots could not overlap as LTTng's do";
		return -LTT_ERR_INVALID_ATTR;
	}
	/* instance names are short: a long session name is cut and numbered */
	if (strlen(s->name) <= 64)
		snprintf(name, sizeof(name), "%s", s->name);
	else
		snprintf(name, sizeof(name), "%.55s.%u", s->name, ++counter);
	cfg.session = name;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	kerr.msg[0] = '\0';
	r = kt_instance_create(&cfg, &ks->inst, &kerr);
	if (r < 0) {
		free(ks);
		return fail(detail, r);
	}
	snprintf(ks->channel, sizeof(ks->channel), "%s", c->name);
	s->kernel = ks;
	if (!tracker_get(s, LTT_DOMAIN_KERNEL, LTT_PROCESS_ATTR_PID)->all &&
	    (r = kernel_session_track(s, detail)) < 0) {
		kernel_session_free(s, NULL);
		return r;
	}
	return 0;
}

int kernel_session_track(struct reg_session *s, const char **detail)
{
	const struct reg_tracker *t = tracker_get(s, LTT_DOMAIN_KERNEL, LTT_PROCESS_ATTR_PID);
	int r;

	if (!s->kernel)
		return 0;	/* applied when the instance is made */
	kerr.msg[0] = '\0';
	r = kt_instance_track_pids(s->kernel->inst, t->values, t->n_values, t->all, &kerr);
	return r < 0 ? fail(detail, r) : 0;
}

void kernel_session_free(struct reg_session *s, struct consumer *c)
{
	struct kernel_session *ks = s->kernel;
	const char *detail;

	if (!ks)
		return;
	kt_instance_stop(ks->inst, NULL);
	if (ks->key && c && ks->consumer == consumer_pid(c)) {
		struct proto_builder b;

		/* the consumer writes what is left and unmaps the buffers: then rmdir works */
		consumer_begin(c, &b, CONS_DEL_CHANNEL);
		proto_put_u64(&b, CONS_A_KEY, ks->key);
		consumer_request(c, &b, NULL, 0, &detail);
	}
	kt_instance_destroy(ks->inst);
	for (size_t i = 0; i < ks->nevents; i++)
		free(ks->events[i].id);
	for (size_t i = 0; i < ks->nuprobes; i++) {
		free(ks->uprobes[i].pattern);
		free(ks->uprobes[i].location);
	}
	free(ks->events);
	free(ks->uprobes);
	free(ks);
	s->kernel = NULL;
}

/* ---- which events the rules enable ---- */

static struct reg_channel *kernel_channel(struct reg_session *s)
{
	return registry_channel_find(s, LTT_DOMAIN_KERNEL, s->kernel->channel);
}

static struct kuprobe *uprobe_of(const struct kernel_session *ks, const struct reg_rule *r)
{
	for (size_t i = 0; i < ks->nuprobes; i++)
		if (!strcmp(ks->uprobes[i].pattern, r->pattern) &&
		    !strcmp(ks->uprobes[i].location, r->location))
			return &ks->uprobes[i];
	return NULL;
}

/* The tracefs patterns of a syscall rule: its entry and exit events. */
static void syscall_patterns(const struct reg_rule *r, char enter[300], char exit_[300])
{
	snprintf(enter, 300, "syscalls:sys_enter_%s", r->pattern);
	snprintf(exit_, 300, "syscalls:sys_exit_%s", r->pattern);
}

static bool rule_matches(const struct kernel_session *ks, const struct reg_rule *r,
			 const char *system, const char *name)
{
	char enter[300], exit_[300];
	const struct kuprobe *u;

	switch (r->type) {
	case LTT_EVENT_TRACEPOINT:
		return kt_event_matches(r->pattern, system, name);
	case LTT_EVENT_SYSCALL:
		syscall_patterns(r, enter, exit_);
		return kt_event_matches(enter, system, name) || kt_event_matches(exit_, system, name);
	case LTT_EVENT_USERSPACE_PROBE:
		u = uprobe_of(ks, r);
		return u && !strcmp(u->system, system) && !strcmp(u->name, name);
	default:
		return false;
	}
}

struct event_list {
	char **ids;		/* "system:name" */
	size_t n;
};

static int list_add(const char *system, const char *name, void *arg)
{
	struct event_list *l = arg;
	char **grown = realloc(l->ids, (l->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	l->ids = grown;
	if (asprintf(&grown[l->n], "%s:%s", system, name) < 0)
		return -ENOMEM;
	l->n++;
	return 0;
}

static void list_free(struct event_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->ids[i]);
	free(l->ids);
}

/* The tracefs events rule r names (whether it is enabled or not). */
static int rule_events(struct kernel_session *ks, const struct reg_rule *r, struct event_list *l)
{
	char enter[300], exit_[300];
	const struct kuprobe *u;
	int a, b;

	switch (r->type) {
	case LTT_EVENT_TRACEPOINT:
		a = kt_instance_for_each_event(ks->inst, r->pattern, list_add, l, &kerr);
		return a < 0 ? a : 0;
	case LTT_EVENT_SYSCALL:
		syscall_patterns(r, enter, exit_);
		a = kt_instance_for_each_event(ks->inst, enter, list_add, l, &kerr);
		if (a < 0 && a != -ENOENT)
			return a;
		b = kt_instance_for_each_event(ks->inst, exit_, list_add, l, &kerr);
		if (b < 0 && b != -ENOENT)
			return b;
		if (a < 0 && b < 0)
			return kt_error_set(&kerr, -ENOENT, "no syscall matches '%s'", r->pattern);
		return 0;
	case LTT_EVENT_USERSPACE_PROBE:
		u = uprobe_of(ks, r);
		return u ? list_add(u->system, u->name, l) : 0;
	default:
		return 0;
	}
}

static int cmp_kevent(const void *key, const void *elem)
{
	return strcmp(key, ((const struct kevent *)elem)->id);
}

/* The state of event id, added (disabled, unfiltered) if it is not known yet. */
static struct kevent *kevent_get(struct kernel_session *ks, const char *id)
{
	struct kevent *e = bsearch(id, ks->events, ks->nevents, sizeof(*e), cmp_kevent), *grown;
	size_t at = 0;

	if (e)
		return e;
	while (at < ks->nevents && strcmp(ks->events[at].id, id) < 0)
		at++;
	grown = realloc(ks->events, (ks->nevents + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	ks->events = grown;
	memmove(&grown[at + 1], &grown[at], (ks->nevents - at) * sizeof(*grown));
	grown[at] = (struct kevent){ .id = strdup(id), .split = strcspn(id, ":") };
	if (!grown[at].id) {
		memmove(&grown[at], &grown[at + 1], (ks->nevents - at) * sizeof(*grown));
		return NULL;
	}
	ks->nevents++;
	return &grown[at];
}

/* "system" and "name" of an event, in two buffers. */
static void kevent_names(const struct kevent *e, char *system, size_t ssz, char *name,
			 size_t nsz)
{
	snprintf(system, ssz, "%.*s", (int)e->split, e->id);
	snprintf(name, nsz, "%s", e->id + e->split + 1);
}

/*
 * Sets the filter of event e from the enabled rules of c matching it (all
 * filtered: their filters OR'ed; else none): in the kernel when it takes
 * it, else for the consumer (which must be able to evaluate it).
 * *changed says whether the consumer's part changed.
 */
static int apply_filter(struct kernel_session *ks, const struct reg_channel *c,
			struct kevent *e, bool *changed)
{
	char system[64], name[192];
	struct strbuf expr = STRBUF_INIT;
	bool any = false, all_filtered = true, was = e->consumer_filter;
	const char *last = NULL;
	struct kt_error kernel_refusal;
	size_t n = 0;
	int r;

	kevent_names(e, system, sizeof(system), name, sizeof(name));
	for (size_t i = 0; i < c->n_rules; i++) {
		const struct reg_rule *rule = &c->rules[i];

		if (!rule->enabled || !rule_matches(ks, rule, system, name))
			continue;
		all_filtered &= rule->filter != NULL;
		if (rule->filter && n++)
			strbuf_appendf(&expr, " || (%s)", rule->filter);
		else if (rule->filter)
			strbuf_appendf(&expr, "(%s)", rule->filter);
		last = rule->filter;
		any = true;
	}
	if (n == 1) {		/* one filter: as it was written */
		strbuf_truncate(&expr, 0);
		strbuf_append(&expr, last);
	}
	if (!any || !all_filtered) {
		r = 0;
		if (e->kernel_filter)
			r = kt_instance_event_filter(ks->inst, system, name, NULL, &kerr);
		e->kernel_filter = e->consumer_filter = false;
		goto out;
	}
	if (strbuf_error(&expr) < 0) {
		r = -ENOMEM;
		goto out;
	}
	r = kt_instance_event_filter(ks->inst, system, name, strbuf_str(&expr), &kernel_refusal);
	if (r == 0) {
		e->kernel_filter = true;
		e->consumer_filter = false;
		goto out;
	}
	if (r != -EOPNOTSUPP && r != -EINVAL) {
		kerr = kernel_refusal;
		goto out;
	}
	/* for the consumer: every rule's program must be one it can evaluate */
	for (size_t i = 0; i < c->n_rules; i++) {
		const struct reg_rule *rule = &c->rules[i];
		struct kt_error why;

		if (!rule->enabled || !rule_matches(ks, rule, system, name))
			continue;
		r = kt_filter_check(rule->bytecode, rule->bytecode_len, &why);
		if (r < 0) {
			kt_error_set(&kerr, r, "filter '%s' on kernel event %s: the kernel does not "
				     "take it (%s) and the consumer cannot evaluate it (%s)",
				     rule->filter, e->id, kernel_refusal.msg, why.msg);
			goto out;
		}
	}
	if (e->kernel_filter && (r = kt_instance_event_filter(ks->inst, system, name, NULL,
							      &kerr)) < 0)
		goto out;
	e->kernel_filter = false;
	e->consumer_filter = true;
	r = 0;
out:
	strbuf_free(&expr);
	*changed |= was != e->consumer_filter || e->consumer_filter;
	return r;
}

/* Sends the filters the consumer evaluates (all of them) to the consumer. */
static int send_filters(struct reg_session *s, struct consumer *cons, const char **detail)
{
	struct kernel_session *ks = s->kernel;
	const struct reg_channel *c = kernel_channel(s);
	struct proto_builder b;

	consumer_begin(cons, &b, CONS_KERNEL_FILTERS);
	proto_put_u64(&b, CONS_A_KEY, ks->key);
	for (size_t k = 0; k < ks->nevents; k++) {
		const struct kevent *e = &ks->events[k];
		char system[64], name[192];

		if (!e->consumer_filter)
			continue;
		kevent_names(e, system, sizeof(system), name, sizeof(name));
		proto_nest_begin(&b, CONS_A_FILTER_DESC);
		proto_put_str(&b, CONS_A_EVENT, e->id);
		for (size_t i = 0; i < c->n_rules; i++)
			if (c->rules[i].enabled && rule_matches(ks, &c->rules[i], system, name))
				proto_put_bytes(&b, CONS_A_BYTECODE, c->rules[i].bytecode,
						c->rules[i].bytecode_len);
		proto_nest_end(&b);
	}
	return consumer_request(cons, &b, NULL, 0, detail);
}

/* Makes the uprobe of a new --userspace-probe rule. */
static int add_uprobe(struct kernel_session *ks, const struct reg_rule *r)
{
	struct kuprobe *grown, *u;
	char event[256], *slash;
	int e;

	if (uprobe_of(ks, r))
		return 0;
	e = kt_instance_add_uprobe(ks->inst, r->location, r->pattern, NULL, event, sizeof(event),
				   &kerr);
	if (e < 0)
		return e;
	grown = realloc(ks->uprobes, (ks->nuprobes + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	ks->uprobes = grown;
	u = &grown[ks->nuprobes];
	*u = (struct kuprobe){ .pattern = strdup(r->pattern), .location = strdup(r->location) };
	slash = strchr(event, '/');
	if (!u->pattern || !u->location || !slash) {
		free(u->pattern);
		free(u->location);
		return -ENOMEM;
	}
	snprintf(u->system, sizeof(u->system), "%.*s", (int)(slash - event), event);
	snprintf(u->name, sizeof(u->name), "%s", slash + 1);
	ks->nuprobes++;
	return 0;
}

/* The function tracer follows the enabled --function rule (one per session). */
static int apply_function(struct kernel_session *ks, const struct reg_channel *c)
{
	const struct reg_rule *on = NULL;
	int r;

	for (size_t i = 0; i < c->n_rules; i++)
		if (c->rules[i].type == LTT_EVENT_FUNCTION && c->rules[i].enabled) {
			if (on)
				return kt_error_set(&kerr, -LTT_ERR_INVALID_ATTR,
						    "a session traces one function: tracefs has one "
						    "function tracer per instance ('%s' is traced)",
						    on->location);
			on = &c->rules[i];
		}
	if (on) {
		r = kt_instance_enable_function(ks->inst, on->location, &kerr);
		ks->function = r == 0;
		return r;
	}
	if (ks->function) {
		r = kt_instance_disable_function(ks->inst, &kerr);
		ks->function = false;
		return r;
	}
	return 0;
}

int kernel_session_rule_changed(struct reg_session *s, size_t index, struct consumer *cons,
				const char **detail)
{
	struct kernel_session *ks = s->kernel;
	struct reg_channel *c = kernel_channel(s);
	const struct reg_rule *rule = &c->rules[index];
	struct event_list l = { 0 };
	bool changed = false;
	int r;

	kerr.msg[0] = '\0';
	if (rule->type == LTT_EVENT_FUNCTION) {
		r = apply_function(ks, c);
		return r < 0 ? fail(detail, r) : 0;
	}
	if (rule->type == LTT_EVENT_USERSPACE_PROBE && rule->enabled &&
	    (r = add_uprobe(ks, rule)) < 0)
		return fail(detail, r);
	r = rule_events(ks, rule, &l);
	/* filters first, so that no record of a newly enabled event escapes them */
	for (size_t i = 0; r == 0 && i < l.n; i++) {
		struct kevent *e = kevent_get(ks, l.ids[i]);

		r = e ? apply_filter(ks, c, e, &changed) : -ENOMEM;
	}
	if (r == 0 && changed && ks->key && cons && ks->consumer == consumer_pid(cons))
		r = send_filters(s, cons, detail);
	for (size_t i = 0; r == 0 && i < l.n; i++) {
		struct kevent *e = kevent_get(ks, l.ids[i]);
		char system[64], name[192];
		bool want = false;

		if (!e) {
			r = -ENOMEM;
			break;
		}
		kevent_names(e, system, sizeof(system), name, sizeof(name));
		for (size_t k = 0; k < c->n_rules && !want; k++)
			want = c->rules[k].enabled && rule_matches(ks, &c->rules[k], system, name);
		if (want != e->enabled) {
			r = kt_instance_event_enable(ks->inst, system, name, want, &kerr);
			if (r == 0)
				e->enabled = want;
		}
	}
	list_free(&l);
	return r < 0 ? fail(detail, r) : 0;
}

int kernel_session_load(struct reg_session *s, const char **detail)
{
	struct reg_channel *c = NULL;
	int r;

	for (size_t i = 0; i < s->n_channels; i++) {
		if (s->channels[i].domain != LTT_DOMAIN_KERNEL)
			continue;
		c = &s->channels[i];
		if ((r = kernel_session_add_channel(s, c, detail)) < 0)
			return r;	/* a second kernel channel included */
	}
	for (size_t i = 0; c && i < c->n_rules; i++)
		if ((r = kernel_session_rule_changed(s, i, NULL, detail)) < 0)
			return r;
	return 0;
}

/* ---- start, stop ---- */

/* Whether the session's kernel channel is in the running consumer cons. */
static bool in_consumer(const struct kernel_session *ks, struct consumer *cons)
{
	return ks && ks->key && cons && ks->consumer == consumer_pid(cons);
}

/*
 * Begins request `type` on the session's kernel channel (KEY put): false,
 * with nothing begun, when the channel is not in the running consumer.
 */
static bool begin_request(const struct kernel_session *ks, struct consumer *cons,
			  enum cons_msg_type type, struct proto_builder *b)
{
	if (!in_consumer(ks, cons))
		return false;
	consumer_begin(cons, b, type);
	proto_put_u64(b, CONS_A_KEY, ks->key);
	return true;
}

/* The session's clock, as the consumer's converter describes it. */
static void put_clock(struct proto_builder *b, const struct reg_session *s)
{
	proto_nest_begin(b, CONS_A_CLOCK);
	proto_put_str(b, CONS_A_NAME, ctf_clock_kind_name(s->clock.kind));
	proto_put_u64(b, CONS_A_FREQ, s->clock.freq);
	proto_put_i64(b, CONS_A_OFFSET_S, s->clock.offset_s);
	proto_put_u64(b, CONS_A_OFFSET, s->clock.offset);
	proto_put_bytes(b, CONS_A_UUID, s->clock.uuid, sizeof(s->clock.uuid));
	proto_nest_end(b);
}

static int add_to_consumer(struct reg_session *s, struct consumer *cons, const char **detail)
{
	struct kernel_session *ks = s->kernel;
	const struct reg_channel *c = kernel_channel(s);
	char dir[PATH_MAX];
	struct proto_builder b;
	uint64_t key = consumer_new_key();
	int r;

	if (snprintf(dir, sizeof(dir), "%s/kernel", s->chunk.dir) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	consumer_begin(cons, &b, CONS_ADD_KERNEL_CHANNEL);
	proto_put_u64(&b, CONS_A_KEY, key);
	proto_put_str(&b, CONS_A_DIR, dir);
	proto_put_str(&b, CONS_A_CHANNEL, c->name);
	proto_put_str(&b, CONS_A_INSTANCE, kt_instance_name(ks->inst));
	proto_put_u64(&b, CONS_A_PACKET_SIZE, c->attr.subbuf_size);
	proto_put_u64(&b, CONS_A_SWITCH_TIMER, c->attr.switch_timer_us);
	proto_put_u64(&b, CONS_A_READ_TIMER, c->attr.read_timer_us);
	proto_put_str(&b, CONS_A_TRACE_NAME, s->name);
	put_clock(&b, s);
	for (size_t i = 0; i < c->n_contexts; i++) {
		int k = kernel_session_context(c->contexts[i], detail);

		if (k > 0)
			proto_put_u64(&b, CONS_A_CONTEXT, (uint64_t)k);
	}
	r = consumer_request(cons, &b, NULL, 0, detail);
	if (r < 0)
		return r;
	ks->key = key;
	ks->consumer = consumer_pid(cons);
	/* its own reads and writes would feed the buffers it drains */
	r = kt_instance_exclude_pid(ks->inst, consumer_pid(cons), &kerr);
	return r < 0 ? fail(detail, r) : 0;
}

int kernel_session_statedump(struct reg_session *s, struct consumer *cons, const char **detail)
{
	const struct reg_channel *c = kernel_channel(s);
	struct proto_builder b;

	/* KERNEL_START: the events enabled now declared, the buffers drained, the dump */
	if (!begin_request(s->kernel, cons, CONS_KERNEL_START, &b))
		return 0;
	for (size_t i = 0; i < c->n_rules; i++)
		if (c->rules[i].type == LTT_EVENT_FUNCTION && c->rules[i].enabled)
			proto_put_str(&b, CONS_A_FUNCTION_NAME, c->rules[i].pattern);
	return consumer_request(cons, &b, NULL, 0, detail);
}

int kernel_session_start(struct reg_session *s, struct consumer *cons, const char **detail)
{
	struct kernel_session *ks = s->kernel;
	int r;

	if (!ks || !s->output[0])
		return 0;	/* no output: nothing to record into */
	kerr.msg[0] = '\0';
	if (ks->key && ks->consumer != consumer_pid(cons)) {
		*detail = "the consumer daemon that wrote this session's kernel trace died: its trace "
			  "ends there; destroy the session and make another";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (!ks->key && (r = add_to_consumer(s, cons, detail)) < 0)
		return r;
	if ((r = send_filters(s, cons, detail)) < 0)
		return r;
	if ((r = kernel_session_statedump(s, cons, detail)) < 0)
		return r;
	r = kt_instance_start(ks->inst, &kerr);
	return r < 0 ? fail(detail, r) : 0;
}

int kernel_session_stop(struct reg_session *s, struct consumer *cons, const char **detail)
{
	struct kernel_session *ks = s->kernel;
	struct proto_builder b;
	int r;

	if (!ks)
		return 0;
	kerr.msg[0] = '\0';
	r = kt_instance_stop(ks->inst, &kerr);
	if (r < 0)
		return fail(detail, r);
	if (!ks->key || !cons || ks->consumer != consumer_pid(cons))
		return 0;
	consumer_begin(cons, &b, CONS_FLUSH);
	proto_put_u64(&b, CONS_A_KEY, ks->key);
	return consumer_request(cons, &b, NULL, 0, detail);
}

int kernel_session_rotate(struct reg_session *s, struct consumer *cons, const char *dir,
			  const char **detail)
{
	struct proto_builder b;
	char kdir[PATH_MAX];

	if (dir && snprintf(kdir, sizeof(kdir), "%s/kernel", dir) >= (int)sizeof(kdir))
		return -ENAMETOOLONG;
	if (!begin_request(s->kernel, cons, CONS_ROTATE, &b))
		return 0;	/* not started yet (or its consumer died): nothing written */
	if (dir)
		proto_put_str(&b, CONS_A_DIR, kdir);
	return consumer_request(cons, &b, NULL, 0, detail);
}

int kernel_session_regenerate_metadata(struct reg_session *s, struct consumer *cons,
				       const char **detail)
{
	struct proto_builder b;

	if (!begin_request(s->kernel, cons, CONS_KERNEL_CLOCK, &b))
		return 0;
	put_clock(&b, s);
	return consumer_request(cons, &b, NULL, 0, detail);
}

int kernel_session_clear(struct reg_session *s, struct consumer *cons, const char **detail)
{
	struct proto_builder b;

	if (!begin_request(s->kernel, cons, CONS_CLEAR, &b))
		return 0;
	return consumer_request(cons, &b, NULL, 0, detail);
}

int kernel_session_stats(struct reg_session *s, struct consumer *cons, uint64_t *ret_recorded,
			 uint64_t *ret_discarded)
{
	struct kernel_session *ks = s->kernel;
	struct proto_builder b;
	struct proto_msg reply;
	uint64_t recorded, lost;
	int r;

	if (!in_consumer(ks, cons))
		return -ENOENT;
	consumer_begin(cons, &b, CONS_STATS);
	proto_put_u64(&b, CONS_A_KEY, ks->key);
	r = consumer_call(cons, &b, NULL, 0, &reply, NULL);
	if (r < 0)
		return r;
	if (proto_get_u64(&reply.attrs, CONS_A_EVENTS, &recorded) < 0 ||
	    proto_get_u64(&reply.attrs, CONS_A_LOST, &lost) < 0)
		r = -EPROTO;
	proto_msg_free(&reply);
	if (r == 0) {
		*ret_recorded = recorded;
		*ret_discarded = lost;
	}
	return r;
}

/* ---- listing, cleanup ---- */

struct list_arg {
	struct proto_builder *reply;
	bool syscalls;
};

static int list_one(const char *id, void *arg)
{
	struct list_arg *la = arg;
	const char *colon = strchr(id, ':');
	char system[64], lname[256];

	if (la->syscalls) {
		proto_nest_begin(la->reply, CTL_A_TRACEPOINT_DESC);
		proto_put_str(la->reply, CTL_A_PATTERN, id);
		proto_put_i64(la->reply, CTL_A_LOGLEVEL, 0);
		proto_nest_end(la->reply);
		return 0;
	}
	if (!colon)
		return 0;
	snprintf(system, sizeof(system), "%.*s", (int)(colon - id), id);
	if (!kt_event_matches("*", system, colon + 1))
		return 0;	/* syscalls (--syscall lists them), dynamic events */
	proto_nest_begin(la->reply, CTL_A_TRACEPOINT_DESC);
	proto_put_str(la->reply, CTL_A_PATTERN,
		      kt_lttng_event_name(system, colon + 1, lname, sizeof(lname)));
	proto_put_str(la->reply, CTL_A_NAME, id);
	proto_put_i64(la->reply, CTL_A_LOGLEVEL, 0);
	proto_nest_end(la->reply);
	return 0;
}

int kernel_session_list(bool syscalls, struct proto_builder *reply, const char **detail)
{
	struct list_arg la = { reply, syscalls };
	int r;

	kerr.msg[0] = '\0';
	r = kt_list_events(syscalls, list_one, &la, &kerr);
	return r < 0 ? fail(detail, r) : 0;
}

void kernel_session_cleanup_stale(void)
{
	kt_instance_cleanup_stale(NULL, NULL);
}
