/* commands.c - one handler per control request; see commands.h. */
#include "commands.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "app.h"
#include "chunk.h"
#include "context.h"
#include "proto/context-types.h"
#include "save.h"
#include "snapshot.h"
#include "tracker.h"
#include "kernel-session.h"
#include "ust-session.h"
#include "util/fs.h"
#include "util/macros.h"

/* The consumer daemon, spawned at the first start that needs one. */
static struct consumer *consumer;

struct consumer *commands_consumer(const char **detail)
{
	if (!consumer && consumer_spawn(&consumer) < 0) {
		*detail = "cannot start the consumer daemon (ltt-consumerd)";
		return NULL;
	}
	return consumer;
}

/* A request to the consumer failed with r: drop a consumer that is gone. */
static int consumer_failed(int r, const char **detail)
{
	if (r == -EPIPE || r == -ETIMEDOUT) {
		consumer_free(consumer);
		consumer = NULL;
		*detail = "the consumer daemon stopped answering";
	}
	return r;
}

struct request {
	struct registry *reg;
	const struct proto_attrs *attrs;
	struct proto_builder *reply;	/* results go here; the status is added last */
	const char *detail;
};

/* Reads the session the request names; -LTT_ERR_SESSION_NOT_FOUND if none. */
static int target_session(struct request *rq, struct reg_session **ret)
{
	const char *name;
	struct reg_session *s;

	if (proto_get_str(rq->attrs, CTL_A_SESSION, &name) < 0)
		return -EBADMSG;
	s = registry_find(rq->reg, name);
	if (!s)
		return -LTT_ERR_SESSION_NOT_FOUND;
	*ret = s;
	return 0;
}

/* Whether this daemon traces domain d: 0, or -LTT_ERR_KERNEL_UNAVAILABLE with *detail. */
static int domain_available(uint64_t d, const char **detail)
{
	return d == LTT_DOMAIN_KERNEL ? kernel_session_available(detail) : 0;
}

/* Reads DOMAIN (and the optional CHANNEL); refuses what this daemon cannot trace. */
static int target_domain(struct request *rq, enum ltt_domain *domain, const char **channel)
{
	uint64_t d;
	int r;

	if (proto_get_u64(rq->attrs, CTL_A_DOMAIN, &d) < 0)
		return -EBADMSG;
	if ((r = domain_available(d, &rq->detail)) < 0)
		return r;
	if (d != LTT_DOMAIN_USER && d != LTT_DOMAIN_KERNEL)
		return -EBADMSG;
	*domain = (enum ltt_domain)d;
	*channel = NULL;
	if (proto_get_str(rq->attrs, CTL_A_CHANNEL, channel) == -EBADMSG)
		return -EBADMSG;
	return 0;
}

static int session_create(struct request *rq)
{
	const char *name = NULL, *output = NULL;
	struct reg_session *s;
	uint64_t no_output = 0, snapshot = 0;
	int r;

	if (proto_get_str(rq->attrs, CTL_A_SESSION, &name) == -EBADMSG ||
	    proto_get_str(rq->attrs, CTL_A_OUTPUT, &output) == -EBADMSG ||
	    proto_get_u64(rq->attrs, CTL_A_NO_OUTPUT, &no_output) == -EBADMSG ||
	    proto_get_u64(rq->attrs, CTL_A_SNAPSHOT, &snapshot) == -EBADMSG)
		return -EBADMSG;
	r = registry_session_create(rq->reg, name, output, no_output, snapshot, &s, &rq->detail);
	if (r < 0)
		return r;
	proto_put_str(rq->reply, CTL_A_SESSION, s->name);
	proto_put_str(rq->reply, CTL_A_OUTPUT, s->output);
	return 0;
}

/*
 * Destroys s: what it recorded reaches the trace files; archive gets the
 * path of its last chunk, if it was archived ("" otherwise).
 */
static int destroy(struct registry *reg, struct reg_session *s, char *archive, size_t size,
		   const char **detail)
{
	/* stop first: what was recorded reaches the trace files */
	ust_session_free(s, consumer);
	kernel_session_free(s, consumer);
	if (chunk_session_destroyed(s, archive, size) < 0)
		archive[0] = '\0';
	return registry_session_destroy(reg, s->name, detail);
}

static int session_destroy(struct request *rq)
{
	char archive[PATH_MAX];
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r < 0)
		return r;
	r = destroy(rq->reg, s, archive, sizeof(archive), &rq->detail);
	if (r == 0 && archive[0])
		proto_put_str(rq->reply, CTL_A_OUTPUT, archive);
	return r;
}

int commands_session_start(struct registry *reg, struct reg_session *s, const char **detail)
{
	int r;

	if (s->active)
		return -LTT_ERR_ALREADY_STARTED;
	if (s->output[0] && mkdir_p(s->output, 0750) < 0) {
		*detail = s->output;
		return -LTT_ERR_NO_OUTPUT;
	}
	if (!commands_consumer(detail))
		return -ECHILD;
	r = chunk_session_starting(s, consumer, detail);
	if (r == 0)
		r = ust_session_start(s, consumer, detail);
	if (r == 0)
		r = kernel_session_start(s, consumer, detail);
	if (r == 0)
		r = apps_attach_session(reg, s, detail);
	if (r < 0)
		return consumer_failed(r, detail);
	s->active = true;
	return 0;
}

static int session_start(struct request *rq)
{
	struct reg_session *s;
	int r = target_session(rq, &s);

	return r < 0 ? r : commands_session_start(rq->reg, s, &rq->detail);
}

static int session_stop(struct request *rq)
{
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r < 0)
		return r;
	if (!s->active)
		return -LTT_ERR_ALREADY_STOPPED;
	if ((r = kernel_session_stop(s, consumer, &rq->detail)) < 0)
		return consumer_failed(r, &rq->detail);
	if (consumer && (r = ust_session_flush(s, consumer, &rq->detail)) < 0)
		return consumer_failed(r, &rq->detail);
	s->active = false;
	chunk_session_stopped(s);
	return 0;
}

static void put_session_desc(struct proto_builder *b, struct reg_session *s, bool deep)
{
	proto_nest_begin(b, CTL_A_SESSION_DESC);
	proto_put_str(b, CTL_A_SESSION, s->name);
	proto_put_str(b, CTL_A_OUTPUT, s->output);
	proto_put_u64(b, CTL_A_ACTIVE, s->active);
	proto_put_u64(b, CTL_A_SNAPSHOT, s->snapshot);
	if (s->rotation.timer_us)
		proto_put_u64(b, CTL_A_ROTATE_TIMER, s->rotation.timer_us);
	if (s->rotation.size)
		proto_put_u64(b, CTL_A_ROTATE_SIZE, s->rotation.size);
	for (size_t i = 0; deep && i < s->n_channels; i++) {
		const struct reg_channel *c = &s->channels[i];

		uint64_t recorded, discarded;

		proto_nest_begin(b, CTL_A_CHANNEL_DESC);
		proto_put_str(b, CTL_A_CHANNEL, c->name);
		proto_put_u64(b, CTL_A_DOMAIN, (uint64_t)c->domain);
		ctl_put_channel_attr(b, &c->attr);
		for (size_t k = 0; k < c->n_contexts; k++)
			proto_put_str(b, CTL_A_CONTEXT, proto_context_type(c->contexts[k])->name);
		if (c->domain == LTT_DOMAIN_KERNEL &&
		    kernel_session_stats(s, consumer, &recorded, &discarded) == 0) {
			proto_put_u64(b, CTL_A_RECORDED, recorded);
			proto_put_u64(b, CTL_A_DISCARDED, discarded);
		}
		for (size_t k = 0; k < c->n_rules; k++) {
			const struct reg_rule *r = &c->rules[k];
			struct ltt_event_rule e = {
				.size = sizeof(e),
				.type = r->type,
				.pattern = r->pattern,
				.loglevel_match = r->loglevel_match,
				.loglevel = r->loglevel,
				.exclusions = (const char *const *)r->exclusions,
				.n_exclusions = r->n_exclusions,
				.filter = r->filter,
				.location = r->location,
			};

			proto_nest_begin(b, CTL_A_RULE_DESC);
			ctl_put_event_rule(b, &e);
			proto_put_u64(b, CTL_A_ENABLED, r->enabled);
			proto_nest_end(b);
		}
		proto_nest_end(b);
	}
	for (int d = LTT_DOMAIN_USER; deep && d <= LTT_DOMAIN_KERNEL; d++)
		for (int a = LTT_PROCESS_ATTR_PID; a <= LTT_PROCESS_ATTR_VGID; a++) {
			const struct reg_tracker *t;

			if (!tracker_attr_valid(d, a) || (t = tracker_get(s, d, a))->all)
				continue;
			proto_nest_begin(b, CTL_A_TRACKER_DESC);
			proto_put_u64(b, CTL_A_DOMAIN, (uint64_t)d);
			proto_put_u64(b, CTL_A_PROCESS_ATTR, (uint64_t)a);
			for (size_t k = 0; k < t->n_values; k++)
				proto_put_i64(b, CTL_A_VALUE, t->values[k]);
			proto_nest_end(b);
		}
	proto_nest_end(b);
}

static int session_list(struct request *rq)
{
	for (size_t i = 0; i < rq->reg->n_sessions; i++)
		put_session_desc(rq->reply, rq->reg->sessions[i], false);
	return 0;
}

static int session_get(struct request *rq)
{
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r == 0)
		put_session_desc(rq->reply, s, true);
	return r;
}

/* Adds a channel; a kernel one makes the session's tracefs instance. */
static int channel_add(struct request *rq, struct reg_session *s, enum ltt_domain domain,
		       const char *channel, const struct ltt_channel_attr *attr)
{
	int r = registry_channel_add(s, domain, channel, attr, &rq->detail);

	if (r < 0 || domain != LTT_DOMAIN_KERNEL)
		return r;
	r = kernel_session_add_channel(s, &s->channels[s->n_channels - 1], &rq->detail);
	if (r < 0)
		registry_channel_remove_last(s);
	return r;
}

static int channel_enable(struct request *rq)
{
	struct ltt_channel_attr attr;
	enum ltt_domain domain;
	struct reg_session *s;
	const char *channel;
	int r;

	if ((r = target_session(rq, &s)) < 0 || (r = target_domain(rq, &domain, &channel)) < 0)
		return r;
	if (!channel)
		return -EBADMSG;
	ltt_channel_attr_init(&attr, domain);
	if (ctl_get_channel_attr(rq->attrs, &attr) < 0)
		return -EBADMSG;
	return channel_add(rq, s, domain, channel, &attr);
}

/*
 * The session's kernel channel for a rule: the one named, else the
 * session's (it has one), else channel0, made now with the defaults.
 */
static int kernel_rule_channel(struct request *rq, struct reg_session *s, const char **channel,
			       struct reg_channel **ret)
{
	struct ltt_channel_attr attr;
	int r;

	for (size_t i = 0; !*channel && i < s->n_channels; i++)
		if (s->channels[i].domain == LTT_DOMAIN_KERNEL)
			*channel = s->channels[i].name;
	if (!*channel) {
		ltt_channel_attr_init(&attr, LTT_DOMAIN_KERNEL);
		attr.overwrite = s->snapshot;
		if ((r = channel_add(rq, s, LTT_DOMAIN_KERNEL, "channel0", &attr)) < 0)
			return r;
		*channel = "channel0";
	}
	*ret = registry_channel_find(s, LTT_DOMAIN_KERNEL, *channel);
	return *ret ? 0 : -LTT_ERR_CHANNEL_NOT_FOUND;
}

/* A kernel rule: in the registry, then in tracefs (else taken back). */
static int kernel_event_enable(struct request *rq, struct reg_session *s, const char *channel,
			       const struct ltt_event_rule *rule)
{
	bool is_new, had_channel = s->kernel != NULL;
	struct reg_channel *c;
	int r, index;

	if ((r = kernel_rule_channel(rq, s, &channel, &c)) < 0)
		return r;
	index = registry_rule_enable(s, LTT_DOMAIN_KERNEL, channel, rule, &is_new, &rq->detail);
	if (index < 0) {
		r = index;
		goto err;
	}
	r = kernel_session_rule_changed(s, (size_t)index, consumer, &rq->detail);
	if (r < 0) {
		static char why[600];	/* the daemon is single-threaded */
		const char *ignored;

		snprintf(why, sizeof(why), "%s", rq->detail ? rq->detail : "");
		rq->detail = why[0] ? why : NULL;
		/* tracefs as it was: the rule disabled, applied, then taken back */
		c->rules[index].enabled = false;
		kernel_session_rule_changed(s, (size_t)index, consumer, &ignored);
		registry_rule_undo(c, (size_t)index, is_new);
		goto err;
	}
	return 0;
err:
	if (!had_channel) {	/* the channel made for this rule goes too */
		kernel_session_free(s, consumer);
		registry_channel_remove_last(s);
	}
	return r;
}

/* Disables kernel rules; tracefs follows each rule that was enabled. */
static int kernel_event_disable(struct request *rq, struct reg_session *s, const char *channel,
				const char *pattern, bool all)
{
	struct reg_channel *c = registry_channel_find(s, LTT_DOMAIN_KERNEL,
						      channel ? channel : "channel0");
	bool *was = NULL;
	int n, r = 0;

	for (size_t i = 0; !c && !channel && i < s->n_channels; i++)
		if (s->channels[i].domain == LTT_DOMAIN_KERNEL)
			c = &s->channels[i];
	if (!c)
		return channel ? -LTT_ERR_CHANNEL_NOT_FOUND : -LTT_ERR_EVENT_NOT_FOUND;
	if (c->n_rules && !(was = calloc(c->n_rules, sizeof(*was))))
		return -ENOMEM;
	for (size_t i = 0; i < c->n_rules; i++)
		was[i] = c->rules[i].enabled;
	n = registry_rule_disable(s, LTT_DOMAIN_KERNEL, c->name, pattern, all, &rq->detail);
	for (size_t i = 0; n > 0 && r == 0 && i < c->n_rules; i++)
		if (was[i] && !c->rules[i].enabled)
			r = kernel_session_rule_changed(s, i, consumer, &rq->detail);
	free(was);
	return r < 0 ? r : n;
}

static int event_enable(struct request *rq)
{
	struct ltt_event_rule rule;
	const char **exclusions = NULL, *channel;
	enum ltt_domain domain;
	struct reg_session *s;
	int r;

	if ((r = target_session(rq, &s)) < 0 || (r = target_domain(rq, &domain, &channel)) < 0)
		return r;
	r = ctl_get_event_rule(rq->attrs, &rule, &exclusions);
	if (r < 0)
		return r;
	if (domain == LTT_DOMAIN_KERNEL)
		r = kernel_event_enable(rq, s, channel, &rule);
	else
		r = registry_rule_enable(s, domain, channel, &rule, NULL, &rq->detail);
	free(exclusions);
	return r < 0 ? r : 0;
}

static int event_disable(struct request *rq)
{
	enum ltt_domain domain;
	struct reg_session *s;
	const char *channel, *pattern;
	uint64_t all = 0;
	int r;

	if ((r = target_session(rq, &s)) < 0 || (r = target_domain(rq, &domain, &channel)) < 0)
		return r;
	if (proto_get_str(rq->attrs, CTL_A_PATTERN, &pattern) < 0 ||
	    proto_get_u64(rq->attrs, CTL_A_ALL, &all) < 0)
		return -EBADMSG;
	if (domain == LTT_DOMAIN_KERNEL)
		r = kernel_event_disable(rq, s, channel, pattern, all);
	else
		r = registry_rule_disable(s, domain, channel, pattern, all, &rq->detail);
	if (r > 0)
		proto_put_u64(rq->reply, CTL_A_COUNT, (uint64_t)r);
	return r < 0 ? r : 0;
}

static int list_tracepoints(struct request *rq)
{
	uint64_t d, type = LTT_EVENT_TRACEPOINT;
	int r;

	if (proto_get_u64(rq->attrs, CTL_A_DOMAIN, &d) < 0 ||
	    proto_get_u64(rq->attrs, CTL_A_EVENT_TYPE, &type) == -EBADMSG)
		return -EBADMSG;
	if ((r = domain_available(d, &rq->detail)) < 0)
		return r;
	if (d == LTT_DOMAIN_KERNEL)
		return kernel_session_list(type == LTT_EVENT_SYSCALL, rq->reply, &rq->detail);
	apps_list(rq->reg, rq->reply);
	return 0;
}

static int snapshot_record_request(struct request *rq)
{
	static char dir[PATH_MAX];	/* the daemon is single-threaded */
	struct snapshot_request sr = { 0 };
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r < 0)
		return r;
	if (proto_get_str(rq->attrs, CTL_A_NAME, &sr.name) == -EBADMSG ||
	    proto_get_str(rq->attrs, CTL_A_OUTPUT, &sr.path) == -EBADMSG ||
	    proto_get_u64(rq->attrs, CTL_A_MAX_SIZE, &sr.max_size) == -EBADMSG)
		return -EBADMSG;
	r = snapshot_record(s, consumer, &sr, dir, sizeof(dir), &rq->detail);
	if (r < 0)
		return consumer_failed(r, &rq->detail);
	proto_put_str(rq->reply, CTL_A_OUTPUT, dir);
	return 0;
}

static int context_add_request(struct request *rq)
{
	const char *names[PROTO_CTX_MAX], *channel = NULL;
	enum ltt_domain domain;
	struct reg_channel *c;
	struct reg_session *s;
	struct proto_attr at;
	size_t cur = 0, n = 0;
	int r;

	bool had_kernel;

	if ((r = target_session(rq, &s)) < 0 || (r = target_domain(rq, &domain, &channel)) < 0)
		return r;
	while (proto_attrs_next(rq->attrs, &cur, &at)) {
		if (at.id != CTL_A_CONTEXT || at.kind != PROTO_STR)
			continue;
		if (n == PROTO_CTX_MAX) {
			rq->detail = "at most 64 contexts per channel";
			return -LTT_ERR_INVALID_ATTR;
		}
		names[n++] = (const char *)at.value;
	}
	if (domain == LTT_DOMAIN_USER)
		return context_add(s, domain, channel, names, n, &rq->detail);
	/* the session's kernel channel (made now if it has none, and then taken back on failure) */
	had_kernel = s->kernel != NULL;
	if (!s->chunk.started && (r = kernel_rule_channel(rq, s, &channel, &c)) < 0)
		return r;
	r = context_add(s, domain, channel, names, n, &rq->detail);
	if (r < 0 && !had_kernel && s->kernel) {
		kernel_session_free(s, consumer);
		registry_channel_remove_last(s);
	}
	return r;
}

/*
 * A change of the kernel's pid tracker: in the registry, then in tracefs
 * (the registry's set as it was if tracefs refuses).
 */
static int kernel_tracker_change(struct request *rq, struct reg_session *s, bool track,
				 const int64_t *values, size_t n)
{
	struct reg_tracker *t = &s->trackers[LTT_DOMAIN_KERNEL][LTT_PROCESS_ATTR_PID];
	struct reg_tracker was = *t;
	int r;

	was.values = t->n_values ? malloc(t->n_values * sizeof(*was.values)) : NULL;
	if (t->n_values && !was.values)
		return -ENOMEM;
	if (t->n_values)
		memcpy(was.values, t->values, t->n_values * sizeof(*was.values));
	r = track ? tracker_track(s, LTT_DOMAIN_KERNEL, LTT_PROCESS_ATTR_PID, values, n,
				  &rq->detail)
		  : tracker_untrack(s, LTT_DOMAIN_KERNEL, LTT_PROCESS_ATTR_PID, values, n,
				    &rq->detail);
	if (r == 0 && (r = kernel_session_track(s, &rq->detail)) < 0) {
		free(t->values);
		*t = was;
		return r;
	}
	free(was.values);
	return r;
}

/* TRACK and UNTRACK. */
static int tracker_request(struct request *rq, bool track)
{
	int64_t values[1024];
	enum ltt_domain domain;
	struct reg_session *s;
	struct proto_attr at;
	const char *channel;
	uint64_t attr;
	size_t cur = 0, n = 0;
	int r;

	if ((r = target_session(rq, &s)) < 0 || (r = target_domain(rq, &domain, &channel)) < 0)
		return r;
	if (proto_get_u64(rq->attrs, CTL_A_PROCESS_ATTR, &attr) < 0)
		return -EBADMSG;
	if (!tracker_attr_valid(domain, (enum ltt_process_attr)attr)) {
		rq->detail = domain == LTT_DOMAIN_USER
				     ? "the user space domain tracks --vpid, --vuid and --vgid"
				     : "the kernel domain tracks --pid only: tracefs selects events "
				       "by task (set_event_pid); it has no way to select them by "
				       "virtual pid, user or group";
		return -LTT_ERR_INVALID_ATTR;
	}
	while (proto_attrs_next(rq->attrs, &cur, &at)) {
		if (at.id != CTL_A_VALUE || at.kind != PROTO_I64)
			continue;
		if (n == ARRAY_SIZE(values)) {
			rq->detail = "at most 1024 values per request";
			return -LTT_ERR_INVALID_ATTR;
		}
		memcpy(&values[n++], at.value, sizeof(*values));
	}
	if (domain == LTT_DOMAIN_KERNEL)
		return kernel_tracker_change(rq, s, track, values, n);
	return track ? tracker_track(s, domain, (enum ltt_process_attr)attr, values, n, &rq->detail)
		     : tracker_untrack(s, domain, (enum ltt_process_attr)attr, values, n,
				       &rq->detail);
}

static int track(struct request *rq)
{
	return tracker_request(rq, true);
}

static int untrack(struct request *rq)
{
	return tracker_request(rq, false);
}

static int snapshot_add_output(struct request *rq)
{
	const struct reg_snapshot_output *o;
	const char *name = NULL, *path;
	uint64_t max_size = 0;
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r < 0)
		return r;
	if (proto_get_str(rq->attrs, CTL_A_NAME, &name) == -EBADMSG ||
	    proto_get_str(rq->attrs, CTL_A_OUTPUT, &path) < 0 ||
	    proto_get_u64(rq->attrs, CTL_A_MAX_SIZE, &max_size) == -EBADMSG)
		return -EBADMSG;
	r = registry_snapshot_output_add(s, 0, name, path, max_size, &o, &rq->detail);
	if (r == 0)
		proto_put_u64(rq->reply, CTL_A_ID, o->id);
	return r;
}

static int snapshot_del_output(struct request *rq)
{
	const char *name = NULL;
	uint64_t id = 0;
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r < 0)
		return r;
	if (proto_get_str(rq->attrs, CTL_A_NAME, &name) == -EBADMSG ||
	    proto_get_u64(rq->attrs, CTL_A_ID, &id) == -EBADMSG || (!name && !id) ||
	    id > UINT32_MAX)
		return -EBADMSG;
	return registry_snapshot_output_del(s, (uint32_t)id, name, &rq->detail);
}

static int snapshot_list_outputs(struct request *rq)
{
	const struct reg_snapshot_output *o;
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r < 0)
		return r;
	if (!s->snapshot)
		return -LTT_ERR_NOT_SNAPSHOT;
	if ((o = s->snapshot_output)) {
		proto_nest_begin(rq->reply, CTL_A_SNAPSHOT_OUTPUT_DESC);
		proto_put_u64(rq->reply, CTL_A_ID, o->id);
		proto_put_str(rq->reply, CTL_A_NAME, o->name);
		proto_put_str(rq->reply, CTL_A_OUTPUT, o->path);
		proto_put_u64(rq->reply, CTL_A_MAX_SIZE, o->max_size);
		proto_nest_end(rq->reply);
	}
	return 0;
}

static int rotate(struct request *rq)
{
	static char archive[PATH_MAX];	/* the daemon is single-threaded */
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r < 0)
		return r;
	r = chunk_rotate(s, consumer, archive, sizeof(archive), &rq->detail);
	if (r < 0)
		return consumer_failed(r, &rq->detail);
	proto_put_str(rq->reply, CTL_A_OUTPUT, archive);
	return 0;
}

/* Reads the ROTATE_TIMER and ROTATE_SIZE of a schedule request. */
static int schedule_attrs(struct request *rq, struct reg_session **s, uint64_t *timer,
			  uint64_t *size)
{
	int r = target_session(rq, s);

	*timer = *size = 0;
	if (r < 0)
		return r;
	if (proto_get_u64(rq->attrs, CTL_A_ROTATE_TIMER, timer) == -EBADMSG ||
	    proto_get_u64(rq->attrs, CTL_A_ROTATE_SIZE, size) == -EBADMSG)
		return -EBADMSG;
	return 0;
}

static int rotation_enable(struct request *rq)
{
	struct reg_session *s;
	uint64_t timer, size;
	int r = schedule_attrs(rq, &s, &timer, &size);

	return r < 0 ? r : chunk_schedule_set(s, timer, size, &rq->detail);
}

static int rotation_disable(struct request *rq)
{
	struct reg_session *s;
	uint64_t timer, size;
	int r = schedule_attrs(rq, &s, &timer, &size);

	return r < 0 ? r : chunk_schedule_unset(s, timer != 0, size != 0, &rq->detail);
}

static int session_clear(struct request *rq)
{
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r == 0 && (r = chunk_clear(s, consumer, &rq->detail)) < 0)
		return consumer_failed(r, &rq->detail);
	return r;
}

/* The request's session, which must be tracing (as LTTng's regenerate wants). */
static int tracing_session(struct request *rq, struct reg_session **ret)
{
	int r = target_session(rq, ret);

	return r < 0 ? r : (*ret)->active ? 0 : -LTT_ERR_NOT_STARTED;
}

static int regenerate_metadata(struct request *rq)
{
	struct reg_session *s;
	int r = tracing_session(rq, &s);

	if (r < 0)
		return r;
	for (size_t i = 0; i < s->n_channels; i++)
		if (s->channels[i].attr.buffers == LTT_BUFFERS_PID) {
			rq->detail = "the metadata of per-PID buffers is not regenerated";
			return -LTT_ERR_INVALID_ATTR;
		}
	r = ust_session_regenerate_metadata(s, consumer, &rq->detail);
	if (r == 0)
		r = kernel_session_regenerate_metadata(s, consumer, &rq->detail);
	return r < 0 ? consumer_failed(r, &rq->detail) : 0;
}

static int regenerate_statedump(struct request *rq)
{
	struct reg_session *s;
	int r = tracing_session(rq, &s);

	if (r < 0)
		return r;
	if (!s->kernel) {
		rq->detail = "the state dump is the kernel trace's (ltt's user-space tracer has "
			     "none): the session has no kernel channel";
		return -LTT_ERR_INVALID_ATTR;
	}
	r = kernel_session_statedump(s, consumer, &rq->detail);
	return r < 0 ? consumer_failed(r, &rq->detail) : 0;
}

static int session_save(struct request *rq)
{
	const char *name = NULL, *dir;
	uint64_t force = 0;
	struct reg_session *one = NULL;
	size_t count = 0;
	int r;

	if (proto_get_str(rq->attrs, CTL_A_SESSION, &name) == -EBADMSG ||
	    proto_get_str(rq->attrs, CTL_A_OUTPUT, &dir) < 0 ||
	    proto_get_u64(rq->attrs, CTL_A_FORCE, &force) == -EBADMSG)
		return -EBADMSG;
	if (name && (r = target_session(rq, &one)) < 0)
		return r;
	/* nothing is written unless everything can be */
	for (size_t i = 0; !force && i < rq->reg->n_sessions; i++) {
		struct reg_session *s = rq->reg->sessions[i];

		if ((!one || s == one) && save_exists(dir, s->name)) {
			static char text[REG_NAME_MAX + 64];	/* the daemon is single-threaded */

			snprintf(text, sizeof(text), "%s%s exists: use --force to replace it",
				 s->name, SAVE_SUFFIX);
			rq->detail = text;
			return -LTT_ERR_SESSION_FILE_EXISTS;
		}
	}
	for (size_t i = 0; i < rq->reg->n_sessions; i++) {
		struct reg_session *s = rq->reg->sessions[i];

		if (one && s != one)
			continue;
		if ((r = save_session(s, dir, force, &rq->detail)) < 0)
			return r;
		count++;
	}
	proto_put_u64(rq->reply, CTL_A_COUNT, count);
	return 0;
}

int commands_load(struct registry *reg, const char *const *paths, size_t n_paths,
		  const struct commands_load_request *lr, size_t *ret_count, const char **detail)
{
	struct load_overrides o = { .output = lr->override_url, .name = lr->override_name };
	struct reg_session **built = NULL, **loaded = NULL;
	bool *started = NULL;
	char **files = NULL;
	size_t n = 0, count = 0;
	int r = load_find(paths, n_paths, lr->name, lr->owner_only, &files, &n, detail);

	if (r < 0)
		return r;
	if (o.name && n != 1) {
		*detail = "--override-name names one session: load it by name";
		r = -LTT_ERR_INVALID_ATTR;
		goto out;
	}
	built = calloc(n, sizeof(*built));
	loaded = calloc(n, sizeof(*loaded));
	started = calloc(n, sizeof(*started));
	if (!built || !loaded || !started) {
		r = -ENOMEM;
		goto out;
	}
	/* every file is read and checked before anything changes */
	for (size_t i = 0; i < n && r == 0; i++) {
		r = load_file(files[i], &o, &built[i], &started[i], detail);
		for (size_t k = 0; r == 0 && k < built[i]->n_channels; k++)
			if ((r = domain_available(built[i]->channels[k].domain, detail)) < 0) {
				static char text[PATH_MAX + 300];	/* single-threaded */

				snprintf(text, sizeof(text), "%s: channel '%s': %s", files[i],
					 built[i]->channels[k].name, *detail);
				*detail = text;
			}
		if (r == 0 && lr->name && !o.name && strcmp(built[i]->name, lr->name) != 0) {
			static char text[PATH_MAX + 300];	/* the daemon is single-threaded */

			snprintf(text, sizeof(text), "%s holds session '%s', not '%s'", files[i],
				 built[i]->name, lr->name);
			*detail = text;
			r = -LTT_ERR_SESSION_FILE;
		}
		for (size_t k = 0; r == 0 && k < i; k++)
			if (!strcmp(built[k]->name, built[i]->name)) {
				*detail = files[i];
				r = -LTT_ERR_SESSION_EXISTS;
			}
		if (r == 0 && !lr->force && registry_find(reg, built[i]->name)) {
			*detail = "use --force to replace it";
			r = -LTT_ERR_SESSION_EXISTS;
		}
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		struct reg_session *old = registry_find(reg, built[i]->name);
		char archive[PATH_MAX];

		if (old && (r = destroy(reg, old, archive, sizeof(archive), detail)) < 0)
			break;
		if ((r = registry_session_insert(reg, built[i])) < 0)
			break;
		loaded[i] = built[i];
		built[i] = NULL;
		if ((r = kernel_session_load(loaded[i], detail)) < 0) {
			const char *ignored;

			destroy(reg, loaded[i], archive, sizeof(archive), &ignored);
			loaded[i] = NULL;
			break;
		}
		count++;
	}
	/* the sessions saved while tracing start (a failure leaves them stopped) */
	for (size_t i = 0; i < n && r == 0; i++)
		if (started[i])
			r = commands_session_start(reg, loaded[i], detail);
out:
	for (size_t i = 0; built && i < n; i++)
		registry_session_free(built[i]);
	free(built);
	free(loaded);
	free(started);
	load_files_free(files, n);
	if (r == 0)
		*ret_count = count;
	return r;
}

static int session_load(struct request *rq)
{
	struct commands_load_request lr = { 0 };
	const char *paths[16];
	struct proto_attr at;
	uint64_t force = 0;
	size_t n = 0, cur = 0, count;
	int r;

	if (proto_get_str(rq->attrs, CTL_A_SESSION, &lr.name) == -EBADMSG ||
	    proto_get_u64(rq->attrs, CTL_A_FORCE, &force) == -EBADMSG ||
	    proto_get_str(rq->attrs, CTL_A_OVERRIDE_URL, &lr.override_url) == -EBADMSG ||
	    proto_get_str(rq->attrs, CTL_A_OVERRIDE_NAME, &lr.override_name) == -EBADMSG)
		return -EBADMSG;
	while (proto_attrs_next(rq->attrs, &cur, &at)) {
		if (at.id != CTL_A_OUTPUT)
			continue;
		if (at.kind != PROTO_STR || n == sizeof(paths) / sizeof(paths[0]) ||
		    ((const char *)at.value)[0] != '/')
			return -EBADMSG;
		paths[n++] = (const char *)at.value;
	}
	if (n == 0 || (lr.override_url && !registry_valid_output(lr.override_url)))
		return -EBADMSG;
	lr.force = force;
	r = commands_load(rq->reg, paths, n, &lr, &count, &rq->detail);
	if (r < 0)
		return consumer_failed(r, &rq->detail);
	proto_put_u64(rq->reply, CTL_A_COUNT, count);
	return 0;
}

static int (*const handlers[CTL_MSG_TYPE_END])(struct request *) = {
	[CTL_SESSION_CREATE] = session_create,
	[CTL_SESSION_DESTROY] = session_destroy,
	[CTL_SESSION_START] = session_start,
	[CTL_SESSION_STOP] = session_stop,
	[CTL_SESSION_LIST] = session_list,
	[CTL_SESSION_GET] = session_get,
	[CTL_CHANNEL_ENABLE] = channel_enable,
	[CTL_EVENT_ENABLE] = event_enable,
	[CTL_EVENT_DISABLE] = event_disable,
	[CTL_LIST_TRACEPOINTS] = list_tracepoints,
	[CTL_SNAPSHOT_RECORD] = snapshot_record_request,
	[CTL_CONTEXT_ADD] = context_add_request,
	[CTL_TRACK] = track,
	[CTL_UNTRACK] = untrack,
	[CTL_SNAPSHOT_ADD_OUTPUT] = snapshot_add_output,
	[CTL_SNAPSHOT_DEL_OUTPUT] = snapshot_del_output,
	[CTL_SNAPSHOT_LIST_OUTPUTS] = snapshot_list_outputs,
	[CTL_ROTATE] = rotate,
	[CTL_ROTATION_ENABLE] = rotation_enable,
	[CTL_ROTATION_DISABLE] = rotation_disable,
	[CTL_SESSION_CLEAR] = session_clear,
	[CTL_REGENERATE_METADATA] = regenerate_metadata,
	[CTL_SESSION_SAVE] = session_save,
	[CTL_SESSION_LOAD] = session_load,
	[CTL_REGENERATE_STATEDUMP] = regenerate_statedump,
};

void commands_handle(struct registry *reg, const struct proto_msg *msg,
		     struct proto_builder *reply)
{
	struct request rq = { .reg = reg, .attrs = &msg->attrs, .reply = reply };
	int r = -EBADMSG;

	proto_builder_init(reply, CTL_REPLY, msg->hdr.seq);
	if (msg->hdr.type < CTL_MSG_TYPE_END && handlers[msg->hdr.type])
		r = handlers[msg->hdr.type](&rq);
	if (r == 0 && proto_builder_error(reply) < 0)
		r = proto_builder_error(reply);
	if (r < 0) {
		/* a failed request answers its status alone */
		proto_builder_free(reply);
		proto_builder_init(reply, CTL_REPLY, msg->hdr.seq);
	}
	if (r == -EBADMSG && !rq.detail)
		rq.detail = "malformed request";
	/* what applications record may have changed: tell them before answering */
	if (r == 0 && (msg->hdr.type == CTL_SESSION_START || msg->hdr.type == CTL_SESSION_STOP ||
		       msg->hdr.type == CTL_SESSION_DESTROY || msg->hdr.type == CTL_EVENT_ENABLE ||
		       msg->hdr.type == CTL_EVENT_DISABLE || msg->hdr.type == CTL_TRACK ||
		       msg->hdr.type == CTL_UNTRACK || msg->hdr.type == CTL_SESSION_LOAD))
		apps_push(reg);
	proto_put_i64(reply, CTL_A_STATUS, r);
	if (rq.detail)
		proto_put_str(reply, CTL_A_DETAIL, rq.detail);
}

/* An automatic rotation failed: the daemon's log says so. */
static void report_rotation(const char *session, int error, const char *detail)
{
	fprintf(stderr, "ltt-sessiond: session '%s': automatic rotation failed: %s%s%s\n",
		session, ltt_strerror(error), detail ? ": " : "", detail ? detail : "");
}

int commands_timeout_ms(const struct registry *reg)
{
	return chunk_timeout_ms(reg);
}

void commands_tick(struct registry *reg)
{
	chunk_tick(reg, consumer, report_rotation);
}

void commands_shutdown(struct registry *reg)
{
	apps_free(reg);
	for (size_t i = 0; i < reg->n_sessions; i++) {
		ust_session_free(reg->sessions[i], consumer);
		kernel_session_free(reg->sessions[i], consumer);
	}
	consumer_free(consumer);
	consumer = NULL;
}
