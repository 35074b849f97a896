/* session.c - sessions, channels and event rules, through the daemon. */
#include "ctl-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/macros.h"

LTT_EXPORT void ltt_session_attr_init(struct ltt_session_attr *attr)
{
	*attr = (struct ltt_session_attr){ .size = sizeof(*attr) };
}

LTT_EXPORT void ltt_channel_attr_init(struct ltt_channel_attr *attr, enum ltt_domain domain)
{
	*attr = (struct ltt_channel_attr){
		.size = sizeof(*attr),
		/* user space: 4 MiB per CPU, twice lttng-ust's default, so that a consumer
		 * kept off its CPU for ~10 ms at 10 M events/s loses nothing (see
		 * doc/design/userspace-tracing.md, "Default buffers") */
		.subbuf_size = domain == LTT_DOMAIN_KERNEL ? 1u << 20 : 512u << 10,
		.num_subbuf = domain == LTT_DOMAIN_KERNEL ? 4 : 8,
		.overwrite = false,
		.switch_timer_us = 0,
		.read_timer_us = domain == LTT_DOMAIN_KERNEL ? 200000 : 0,
		.blocking_timeout_us = 0,
		.buffers = domain == LTT_DOMAIN_KERNEL ? LTT_BUFFERS_GLOBAL : LTT_BUFFERS_UID,
	};
}

LTT_EXPORT void ltt_event_rule_init(struct ltt_event_rule *rule)
{
	*rule = (struct ltt_event_rule){
		.size = sizeof(*rule),
		.type = LTT_EVENT_TRACEPOINT,
		.loglevel_match = LTT_LOGLEVEL_ALL,
	};
}

LTT_EXPORT int ltt_session_create(struct ltt_ctl *ctl, const char *name,
				  const struct ltt_session_attr *attr, char **ret_name)
{
	struct proto_builder b;
	struct proto_msg reply;
	const char *got;
	int r;

	ctl_begin(ctl, &b, CTL_SESSION_CREATE);
	if (name)
		proto_put_str(&b, CTL_A_SESSION, name);
	if (attr && attr->output)
		proto_put_str(&b, CTL_A_OUTPUT, attr->output);
	if (attr && attr->no_output)
		proto_put_u64(&b, CTL_A_NO_OUTPUT, 1);
	if (attr && attr->size >= offsetof(struct ltt_session_attr, snapshot) + sizeof(bool) &&
	    attr->snapshot)
		proto_put_u64(&b, CTL_A_SNAPSHOT, 1);
	r = ctl_request(ctl, &b, &reply);
	if (r < 0)
		return r;
	if (proto_get_str(&reply.attrs, CTL_A_SESSION, &got) < 0) {
		r = -LTT_ERR_PROTOCOL;
	} else if (ret_name) {
		*ret_name = strdup(got);
		if (!*ret_name)
			r = -ENOMEM;
	}
	proto_msg_free(&reply);
	return r;
}

LTT_EXPORT int ltt_session_destroy(struct ltt_ctl *ctl, const char *name)
{
	return ltt_session_destroy_archive(ctl, name, NULL);
}

LTT_EXPORT int ltt_session_destroy_archive(struct ltt_ctl *ctl, const char *name,
					   char **ret_archive)
{
	struct proto_builder b;

	if (!name)
		return -EINVAL;
	ctl_begin(ctl, &b, CTL_SESSION_DESTROY);
	proto_put_str(&b, CTL_A_SESSION, name);
	return ctl_request_str(ctl, &b, CTL_A_OUTPUT, false, ret_archive);
}

LTT_EXPORT int ltt_session_start(struct ltt_ctl *ctl, const char *name)
{
	return ctl_session_request(ctl, CTL_SESSION_START, name);
}

LTT_EXPORT int ltt_session_stop(struct ltt_ctl *ctl, const char *name)
{
	return ctl_session_request(ctl, CTL_SESSION_STOP, name);
}

void ctl_put_target(struct proto_builder *b, const char *session, enum ltt_domain domain,
		    const char *channel)
{
	proto_put_str(b, CTL_A_SESSION, session);
	proto_put_u64(b, CTL_A_DOMAIN, (uint64_t)domain);
	if (channel)
		proto_put_str(b, CTL_A_CHANNEL, channel);
}

LTT_EXPORT int ltt_channel_enable(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
				  const char *channel, const struct ltt_channel_attr *attr)
{
	struct proto_builder b;

	if (!session || !channel || !attr)
		return -EINVAL;
	ctl_begin(ctl, &b, CTL_CHANNEL_ENABLE);
	ctl_put_target(&b, session, domain, channel);
	ctl_put_channel_attr(&b, attr);
	return ctl_simple_request(ctl, &b);
}

LTT_EXPORT int ltt_event_enable(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
				const char *channel, const struct ltt_event_rule *rule)
{
	struct proto_builder b;

	if (!session || !rule || !rule->pattern)
		return -EINVAL;
	ctl_begin(ctl, &b, CTL_EVENT_ENABLE);
	ctl_put_target(&b, session, domain, channel);
	ctl_put_event_rule(&b, rule);
	return ctl_simple_request(ctl, &b);
}

LTT_EXPORT int ltt_event_disable(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
				 const char *channel, const char *pattern, bool all)
{
	struct proto_builder b;

	if (!session || (!pattern && !all))
		return -EINVAL;
	ctl_begin(ctl, &b, CTL_EVENT_DISABLE);
	ctl_put_target(&b, session, domain, channel);
	proto_put_str(&b, CTL_A_PATTERN, pattern ? pattern : "*");
	proto_put_u64(&b, CTL_A_ALL, all);
	return ctl_request_count(ctl, &b);
}

/* ---- Descriptions -------------------------------------------------------- */

struct rule_desc {
	struct ltt_event_rule rule;
	const char **exclusions;
	bool enabled;
};

struct ltt_channel {
	const char *name;
	enum ltt_domain domain;
	struct ltt_channel_attr attr;
	bool has_stats;
	uint64_t recorded, discarded;
	struct rule_desc *rules;
	size_t n_rules;
	const char **contexts;
	size_t n_contexts;
};

/* A tracker that does not include all values (the others are not described). */
struct tracker_desc {
	enum ltt_domain domain;
	enum ltt_process_attr attr;
	bool all;
	int64_t *values;
	size_t n_values;
};

struct ltt_session {
	uint8_t *buf;		/* a copy of the SESSION_DESC: strings point into it */
	const char *name, *output;
	bool active, snapshot;
	uint64_t rotate_timer_us, rotate_size;
	struct ltt_channel *channels;
	size_t n_channels;
	struct tracker_desc *trackers;
	size_t n_trackers;
};

LTT_EXPORT void ltt_session_free(struct ltt_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_channels; i++) {
		for (size_t k = 0; k < s->channels[i].n_rules; k++)
			free(s->channels[i].rules[k].exclusions);
		free(s->channels[i].rules);
		free(s->channels[i].contexts);
	}
	free(s->channels);
	for (size_t i = 0; i < s->n_trackers; i++)
		free(s->trackers[i].values);
	free(s->trackers);
	free(s->buf);
	free(s);
}

/* Appends one element of size `size` to the array *v of *n elements. */
static void *grow(void *v, size_t n, size_t size)
{
	return realloc(v, (n + 1) * size);
}

static int parse_channel(const struct proto_attrs *a, struct ltt_channel *c)
{
	struct proto_attr at;
	uint64_t domain;
	size_t cur = 0;
	int r;

	if (proto_get_str(a, CTL_A_CHANNEL, &c->name) < 0 ||
	    proto_get_u64(a, CTL_A_DOMAIN, &domain) < 0 ||
	    (domain != LTT_DOMAIN_USER && domain != LTT_DOMAIN_KERNEL))
		return -LTT_ERR_PROTOCOL;
	c->domain = (enum ltt_domain)domain;
	ltt_channel_attr_init(&c->attr, c->domain);
	if (ctl_get_channel_attr(a, &c->attr) < 0)
		return -LTT_ERR_PROTOCOL;
	c->has_stats = proto_get_u64(a, CTL_A_RECORDED, &c->recorded) == 0 &&
		       proto_get_u64(a, CTL_A_DISCARDED, &c->discarded) == 0;
	while (proto_attrs_next(a, &cur, &at)) {
		struct proto_attrs ra = { at.value, at.len };
		struct rule_desc *rules, *rd;
		uint64_t enabled;

		if (at.id == CTL_A_CONTEXT && at.kind == PROTO_STR) {
			const char **contexts = grow(c->contexts, c->n_contexts, sizeof(*contexts));

			if (!contexts)
				return -ENOMEM;
			c->contexts = contexts;
			contexts[c->n_contexts++] = (const char *)at.value;
			continue;
		}
		if (at.id != CTL_A_RULE_DESC || at.kind != PROTO_NEST)
			continue;
		rules = grow(c->rules, c->n_rules, sizeof(*rules));
		if (!rules)
			return -ENOMEM;
		c->rules = rules;
		rd = &rules[c->n_rules];
		r = ctl_get_event_rule(&ra, &rd->rule, &rd->exclusions);
		if (r < 0)
			return r == -ENOMEM ? r : -LTT_ERR_PROTOCOL;
		c->n_rules++;
		if (proto_get_u64(&ra, CTL_A_ENABLED, &enabled) < 0)
			return -LTT_ERR_PROTOCOL;
		rd->enabled = enabled;
	}
	return 0;
}

static int parse_tracker(const struct proto_attrs *a, struct tracker_desc *t)
{
	struct proto_attr at;
	uint64_t domain, attr, all = 0;
	size_t cur = 0;

	if (proto_get_u64(a, CTL_A_DOMAIN, &domain) < 0 ||
	    proto_get_u64(a, CTL_A_PROCESS_ATTR, &attr) < 0 ||
	    proto_get_u64(a, CTL_A_ALL, &all) == -EBADMSG ||
	    (domain != LTT_DOMAIN_USER && domain != LTT_DOMAIN_KERNEL) ||
	    attr < LTT_PROCESS_ATTR_PID || attr > LTT_PROCESS_ATTR_VGID)
		return -LTT_ERR_PROTOCOL;
	t->domain = (enum ltt_domain)domain;
	t->attr = (enum ltt_process_attr)attr;
	t->all = all;
	while (proto_attrs_next(a, &cur, &at)) {
		int64_t *values;

		if (at.id != CTL_A_VALUE || at.kind != PROTO_I64)
			continue;
		values = grow(t->values, t->n_values, sizeof(*values));
		if (!values)
			return -ENOMEM;
		t->values = values;
		memcpy(&values[t->n_values++], at.value, sizeof(int64_t));
	}
	return 0;
}

/* Builds a description from a SESSION_DESC nest (copied). */
static int parse_session(const struct proto_attr *desc, struct ltt_session **ret)
{
	struct ltt_session *s = calloc(1, sizeof(*s));
	struct proto_attrs a;
	struct proto_attr at;
	uint64_t active;
	size_t cur = 0;
	int r = -ENOMEM;

	if (!s || !(s->buf = malloc(desc->len ? desc->len : 1)))
		goto err;
	memcpy(s->buf, desc->value, desc->len);
	a = (struct proto_attrs){ s->buf, desc->len };
	r = -LTT_ERR_PROTOCOL;
	if (proto_get_str(&a, CTL_A_SESSION, &s->name) < 0 ||
	    proto_get_str(&a, CTL_A_OUTPUT, &s->output) < 0 ||
	    proto_get_u64(&a, CTL_A_ACTIVE, &active) < 0)
		goto err;
	s->active = active;
	if (proto_get_u64(&a, CTL_A_SNAPSHOT, &active) == 0)
		s->snapshot = active;
	if (proto_get_u64(&a, CTL_A_ROTATE_TIMER, &s->rotate_timer_us) == -EBADMSG ||
	    proto_get_u64(&a, CTL_A_ROTATE_SIZE, &s->rotate_size) == -EBADMSG)
		goto err;
	while (proto_attrs_next(&a, &cur, &at)) {
		struct proto_attrs ca = { at.value, at.len };
		struct ltt_channel *channels;

		if (at.id == CTL_A_TRACKER_DESC && at.kind == PROTO_NEST) {
			struct tracker_desc *trackers = grow(s->trackers, s->n_trackers,
							     sizeof(*trackers));

			r = -ENOMEM;
			if (!trackers)
				goto err;
			s->trackers = trackers;
			trackers[s->n_trackers] = (struct tracker_desc){ 0 };
			r = parse_tracker(&ca, &trackers[s->n_trackers++]);
			if (r < 0)
				goto err;
			continue;
		}
		if (at.id != CTL_A_CHANNEL_DESC || at.kind != PROTO_NEST)
			continue;
		channels = grow(s->channels, s->n_channels, sizeof(*channels));
		if (!channels) {
			r = -ENOMEM;
			goto err;
		}
		s->channels = channels;
		channels[s->n_channels] = (struct ltt_channel){ 0 };
		r = parse_channel(&ca, &channels[s->n_channels++]);
		if (r < 0)
			goto err;
	}
	*ret = s;
	return 0;
err:
	ltt_session_free(s);
	return r;
}

LTT_EXPORT void ltt_session_list_free(struct ltt_session **list, size_t count)
{
	if (!list)
		return;
	for (size_t i = 0; i < count; i++)
		ltt_session_free(list[i]);
	free(list);
}

/* Sends a LIST or GET request and parses every SESSION_DESC of the reply. */
static int describe(struct ltt_ctl *ctl, const char *name, struct ltt_session ***ret_list,
		    size_t *ret_count)
{
	struct ltt_session **list = NULL;
	struct proto_builder b;
	struct proto_msg reply;
	struct proto_attr at;
	size_t cur = 0, n = 0;
	int r;

	ctl_begin(ctl, &b, name ? CTL_SESSION_GET : CTL_SESSION_LIST);
	if (name)
		proto_put_str(&b, CTL_A_SESSION, name);
	r = ctl_request(ctl, &b, &reply);
	if (r < 0)
		return r;
	while (proto_attrs_next(&reply.attrs, &cur, &at)) {
		struct ltt_session **grown;

		if (at.id != CTL_A_SESSION_DESC || at.kind != PROTO_NEST)
			continue;
		grown = grow(list, n, sizeof(*list));
		if (!grown) {
			r = -ENOMEM;
			break;
		}
		list = grown;
		r = parse_session(&at, &list[n]);
		if (r < 0)
			break;
		n++;
	}
	proto_msg_free(&reply);
	if (r < 0) {
		ltt_session_list_free(list, n);
		return r;
	}
	*ret_list = list;
	*ret_count = n;
	return 0;
}

LTT_EXPORT int ltt_session_list(struct ltt_ctl *ctl, struct ltt_session ***ret_list,
				size_t *ret_count)
{
	return describe(ctl, NULL, ret_list, ret_count);
}

LTT_EXPORT int ltt_session_get(struct ltt_ctl *ctl, const char *name, struct ltt_session **ret)
{
	struct ltt_session **list;
	size_t n;
	int r;

	if (!name)
		return -EINVAL;
	r = describe(ctl, name, &list, &n);
	if (r < 0)
		return r;
	if (n != 1) {
		ltt_session_list_free(list, n);
		return -LTT_ERR_PROTOCOL;
	}
	*ret = list[0];
	free(list);
	return 0;
}

LTT_EXPORT const char *ltt_session_name(const struct ltt_session *s)
{
	return s->name;
}

LTT_EXPORT const char *ltt_session_output(const struct ltt_session *s)
{
	return s->output;
}

LTT_EXPORT bool ltt_session_active(const struct ltt_session *s)
{
	return s->active;
}

LTT_EXPORT bool ltt_session_snapshot(const struct ltt_session *s)
{
	return s->snapshot;
}

LTT_EXPORT void ltt_session_rotation(const struct ltt_session *s, uint64_t *ret_timer_us,
				     uint64_t *ret_size)
{
	*ret_timer_us = s->rotate_timer_us;
	*ret_size = s->rotate_size;
}

LTT_EXPORT size_t ltt_session_channel_count(const struct ltt_session *s)
{
	return s->n_channels;
}

LTT_EXPORT const struct ltt_channel *ltt_session_channel(const struct ltt_session *s, size_t i)
{
	return i < s->n_channels ? &s->channels[i] : NULL;
}

LTT_EXPORT const char *ltt_channel_name(const struct ltt_channel *c)
{
	return c->name;
}

LTT_EXPORT enum ltt_domain ltt_channel_domain(const struct ltt_channel *c)
{
	return c->domain;
}

LTT_EXPORT void ltt_channel_get_attr(const struct ltt_channel *c, struct ltt_channel_attr *attr)
{
	*attr = c->attr;
}

LTT_EXPORT bool ltt_channel_get_stats(const struct ltt_channel *c, uint64_t *ret_recorded,
				      uint64_t *ret_discarded)
{
	if (!c->has_stats)
		return false;
	*ret_recorded = c->recorded;
	*ret_discarded = c->discarded;
	return true;
}

LTT_EXPORT size_t ltt_channel_rule_count(const struct ltt_channel *c)
{
	return c->n_rules;
}

LTT_EXPORT size_t ltt_channel_context_count(const struct ltt_channel *c)
{
	return c->n_contexts;
}

LTT_EXPORT const char *ltt_channel_context(const struct ltt_channel *c, size_t i)
{
	return i < c->n_contexts ? c->contexts[i] : NULL;
}

LTT_EXPORT bool ltt_session_tracker(const struct ltt_session *s, enum ltt_domain domain,
				    enum ltt_process_attr attr, const int64_t **ret_values,
				    size_t *ret_count)
{
	for (size_t i = 0; i < s->n_trackers; i++) {
		const struct tracker_desc *t = &s->trackers[i];

		if (t->domain != domain || t->attr != attr)
			continue;
		if (t->all)
			return true;
		*ret_values = t->values;
		*ret_count = t->n_values;
		return false;
	}
	return true;
}

LTT_EXPORT void ltt_channel_get_rule(const struct ltt_channel *c, size_t i,
				     struct ltt_event_rule *rule, bool *ret_enabled)
{
	*rule = c->rules[i].rule;
	if (ret_enabled)
		*ret_enabled = c->rules[i].enabled;
}
