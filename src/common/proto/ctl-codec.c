/* ctl-codec.c - channel settings and event rules on the wire; see ctl-protocol.h. */
#include "ctl-protocol.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

void ctl_put_channel_attr(struct proto_builder *b, const struct ltt_channel_attr *attr)
{
	proto_put_u64(b, CTL_A_SUBBUF_SIZE, attr->subbuf_size);
	proto_put_u64(b, CTL_A_NUM_SUBBUF, attr->num_subbuf);
	proto_put_u64(b, CTL_A_OVERWRITE, attr->overwrite);
	proto_put_u64(b, CTL_A_SWITCH_TIMER, attr->switch_timer_us);
	proto_put_u64(b, CTL_A_READ_TIMER, attr->read_timer_us);
	proto_put_i64(b, CTL_A_BLOCKING_TIMEOUT, attr->blocking_timeout_us);
	proto_put_u64(b, CTL_A_BUFFERS, (uint64_t)attr->buffers);
	if (attr->size >= offsetof(struct ltt_channel_attr, tracefile_count) + sizeof(uint32_t)) {
		proto_put_u64(b, CTL_A_TRACEFILE_SIZE, attr->tracefile_size);
		proto_put_u64(b, CTL_A_TRACEFILE_COUNT, attr->tracefile_count);
	}
}

/* Reads an optional u64: absent keeps *v; 0 or -EBADMSG. */
static int opt_u64(const struct proto_attrs *a, uint16_t id, uint64_t *v)
{
	int r = proto_get_u64(a, id, v);

	return r == -ENOENT ? 0 : r;
}

int ctl_get_channel_attr(const struct proto_attrs *a, struct ltt_channel_attr *attr)
{
	uint64_t num = attr->num_subbuf, ow = attr->overwrite, buffers = (uint64_t)attr->buffers;
	uint64_t tf_count = attr->tracefile_count;
	int64_t blocking = attr->blocking_timeout_us;
	int r;

	if ((r = opt_u64(a, CTL_A_SUBBUF_SIZE, &attr->subbuf_size)) < 0 ||
	    (r = opt_u64(a, CTL_A_TRACEFILE_SIZE, &attr->tracefile_size)) < 0 ||
	    (r = opt_u64(a, CTL_A_TRACEFILE_COUNT, &tf_count)) < 0 ||
	    (r = opt_u64(a, CTL_A_NUM_SUBBUF, &num)) < 0 ||
	    (r = opt_u64(a, CTL_A_OVERWRITE, &ow)) < 0 ||
	    (r = opt_u64(a, CTL_A_SWITCH_TIMER, &attr->switch_timer_us)) < 0 ||
	    (r = opt_u64(a, CTL_A_READ_TIMER, &attr->read_timer_us)) < 0 ||
	    (r = opt_u64(a, CTL_A_BUFFERS, &buffers)) < 0)
		return -EBADMSG;
	r = proto_get_i64(a, CTL_A_BLOCKING_TIMEOUT, &blocking);
	if (r < 0 && r != -ENOENT)
		return -EBADMSG;
	if (num > UINT32_MAX || ow > 1 || buffers < LTT_BUFFERS_UID ||
	    buffers > LTT_BUFFERS_GLOBAL || tf_count > UINT32_MAX)
		return -EBADMSG;
	attr->tracefile_count = (uint32_t)tf_count;
	attr->num_subbuf = (uint32_t)num;
	attr->overwrite = ow;
	attr->buffers = (enum ltt_buffers)buffers;
	attr->blocking_timeout_us = blocking;
	return 0;
}

void ctl_put_event_rule(struct proto_builder *b, const struct ltt_event_rule *rule)
{
	proto_put_u64(b, CTL_A_EVENT_TYPE, (uint64_t)rule->type);
	proto_put_str(b, CTL_A_PATTERN, rule->pattern ? rule->pattern : "");
	proto_put_u64(b, CTL_A_LOGLEVEL_MATCH, (uint64_t)rule->loglevel_match);
	proto_put_i64(b, CTL_A_LOGLEVEL, rule->loglevel);
	for (size_t i = 0; i < rule->n_exclusions; i++)
		proto_put_str(b, CTL_A_EXCLUSION, rule->exclusions[i]);
	if (rule->filter)
		proto_put_str(b, CTL_A_FILTER, rule->filter);
	if (rule->size >= offsetof(struct ltt_event_rule, location) + sizeof(rule->location) &&
	    rule->location)
		proto_put_str(b, CTL_A_LOCATION, rule->location);
}

int ctl_get_event_rule(const struct proto_attrs *a, struct ltt_event_rule *rule,
		       const char ***ret_exclusions)
{
	uint64_t type, match;
	int64_t level;
	const char **excl = NULL;
	struct proto_attr at;
	size_t cur = 0, n = 0;
	int r;

	*rule = (struct ltt_event_rule){ .size = sizeof(*rule) };
	if (proto_get_u64(a, CTL_A_EVENT_TYPE, &type) < 0 ||
	    proto_get_str(a, CTL_A_PATTERN, &rule->pattern) < 0 ||
	    proto_get_u64(a, CTL_A_LOGLEVEL_MATCH, &match) < 0 ||
	    proto_get_i64(a, CTL_A_LOGLEVEL, &level) < 0)
		return -EBADMSG;
	if (type < LTT_EVENT_TRACEPOINT || type > LTT_EVENT_USERSPACE_PROBE ||
	    match > LTT_LOGLEVEL_SINGLE || level < INT32_MIN || level > INT32_MAX)
		return -EBADMSG;
	r = proto_get_str(a, CTL_A_FILTER, &rule->filter);
	if (r < 0 && r != -ENOENT)
		return -EBADMSG;
	r = proto_get_str(a, CTL_A_LOCATION, &rule->location);
	if (r < 0 && r != -ENOENT)
		return -EBADMSG;
	while (proto_attrs_next(a, &cur, &at)) {
		const char **grown;

		if (at.id != CTL_A_EXCLUSION)
			continue;
		if (at.kind != PROTO_STR)
			goto bad;
		grown = realloc(excl, (n + 1) * sizeof(*excl));
		if (!grown) {
			free(excl);
			return -ENOMEM;
		}
		excl = grown;
		excl[n++] = (const char *)at.value;
	}
	rule->type = (enum ltt_event_type)type;
	rule->loglevel_match = (enum ltt_loglevel_match)match;
	rule->loglevel = (int)level;
	rule->exclusions = excl;
	rule->n_exclusions = n;
	*ret_exclusions = excl;
	return 0;
bad:
	free(excl);
	return -EBADMSG;
}
