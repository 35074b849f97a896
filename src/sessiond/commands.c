/* commands.c - one handler per control request; see commands.h. */
#include "commands.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "app.h"
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

/* Reads DOMAIN (and the optional CHANNEL); refuses what this daemon cannot trace. */
static int target_domain(struct request *rq, enum ltt_domain *domain, const char **channel)
{
	uint64_t d;
	int r;

	if (proto_get_u64(rq->attrs, CTL_A_DOMAIN, &d) < 0)
		return -EBADMSG;
	if (d != LTT_DOMAIN_USER && d != LTT_DOMAIN_KERNEL)
		return -EBADMSG;
	if (d == LTT_DOMAIN_KERNEL && (r = kernel_session_available(&rq->detail)) < 0)
		return r;
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

static int session_destroy(struct request *rq)
{
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r < 0)
		return r;
	/* stop first: what was recorded reaches the trace files */
	ust_session_free(s, consumer);
	kernel_session_free(s, consumer);
	return registry_session_destroy(rq->reg, s->name, &rq->detail);
}

static int session_start(struct request *rq)
{
	struct reg_session *s;
	int r = target_session(rq, &s);

	if (r < 0)
		return r;
	if (s->active)
		return -LTT_ERR_ALREADY_STARTED;
	if (s->output[0] && mkdir_p(s->output, 0750) < 0) {
		rq->detail = s->output;
		return -LTT_ERR_NO_OUTPUT;
	}
	if (!commands_consumer(&rq->detail))
		return -ECHILD;
	r = ust_session_start(s, consumer, &rq->detail);
	if (r == 0)
		r = kernel_session_start(s, consumer, &rq->detail);
	if (r == 0)
		r = apps_attach_session(rq->reg, s, &rq->detail);
	if (r < 0)
		return consumer_failed(r, &rq->detail);
	s->active = true;
	return 0;
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
	return 0;
}

static void put_session_desc(struct proto_builder *b, struct reg_session *s, bool deep)
{
	proto_nest_begin(b, CTL_A_SESSION_DESC);
	proto_put_str(b, CTL_A_SESSION, s->name);
	proto_put_str(b, CTL_A_OUTPUT, s->output);
	proto_put_u64(b, CTL_A_ACTIVE, s->active);
	proto_put_u64(b, CTL_A_SNAPSHOT, s->snapshot);
	for (size_t i = 0; deep && i < s->n_channels; i++) {
		const struct reg_channel *c = &s->channels[i];

		uint64_t recorded, discarded;

		proto_nest_begin(b, CTL_A_CHANNEL_DESC);
		proto_put_str(b, CTL_A_CHANNEL, c->name);
		proto_put_u64(b, CTL_A_DOMAIN, (uint64_t)c->domain);
		ctl_put_channel_attr(b, &c->attr);
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
	if (d == LTT_DOMAIN_KERNEL) {
		if ((r = kernel_session_available(&rq->detail)) < 0)
			return r;
		return kernel_session_list(type == LTT_EVENT_SYSCALL, rq->reply, &rq->detail);
	}
	apps_list(rq->reg, rq->reply);
	return 0;
}

static int snapshot_record(struct request *rq)
{
	static char dir[4096];
	const char *name = "snapshot";
	struct reg_session *s;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int r = target_session(rq, &s);

	if (r < 0)
		return r;
	if (proto_get_str(rq->attrs, CTL_A_NAME, &name) == -EBADMSG)
		return -EBADMSG;
	if (!s->snapshot)
		return -LTT_ERR_NOT_SNAPSHOT;
	if (!registry_valid_name(name)) {
		rq->detail = "a snapshot name is made of A-Z a-z 0-9 _ . -";
		return -LTT_ERR_INVALID_NAME;
	}
	if (!s->n_ust || !consumer) {
		rq->detail = "nothing was recorded yet: start the session first";
		return -LTT_ERR_INVALID_ATTR;
	}
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if (snprintf(dir, sizeof(dir), "%s/%s-%s-%u", s->output, name, stamp, s->snapshots) >=
	    (int)sizeof(dir))
		return -ENAMETOOLONG;
	r = ust_session_snapshot(s, consumer, dir, &rq->detail);
	if (r < 0)
		return consumer_failed(r, &rq->detail);
	s->snapshots++;
	proto_put_str(rq->reply, CTL_A_OUTPUT, dir);
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
	[CTL_SNAPSHOT_RECORD] = snapshot_record,
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
		       msg->hdr.type == CTL_EVENT_DISABLE))
		apps_push(reg);
	proto_put_i64(reply, CTL_A_STATUS, r);
	if (rq.detail)
		proto_put_str(reply, CTL_A_DETAIL, rq.detail);
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
