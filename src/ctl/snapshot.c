/* snapshot.c - snapshots and snapshot outputs, through the daemon. */
#include "ctl-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/macros.h"

LTT_EXPORT void ltt_snapshot_attr_init(struct ltt_snapshot_attr *attr)
{
	*attr = (struct ltt_snapshot_attr){ .size = sizeof(*attr) };
}

LTT_EXPORT int ltt_snapshot_record(struct ltt_ctl *ctl, const char *session,
				   const struct ltt_snapshot_attr *attr, char **ret_path)
{
	struct proto_builder b;

	if (!session)
		return -EINVAL;
	ctl_begin(ctl, &b, CTL_SNAPSHOT_RECORD);
	proto_put_str(&b, CTL_A_SESSION, session);
	if (attr && attr->name)
		proto_put_str(&b, CTL_A_NAME, attr->name);
	if (attr && attr->path)
		proto_put_str(&b, CTL_A_OUTPUT, attr->path);
	if (attr && attr->max_size)
		proto_put_u64(&b, CTL_A_MAX_SIZE, attr->max_size);
	return ctl_request_str(ctl, &b, CTL_A_OUTPUT, true, ret_path);
}

LTT_EXPORT int ltt_snapshot_output_add(struct ltt_ctl *ctl, const char *session,
				       const char *name, const char *path, uint64_t max_size,
				       uint32_t *ret_id)
{
	struct proto_builder b;
	struct proto_msg reply;
	uint64_t id;
	int r;

	if (!session || !path)
		return -EINVAL;
	ctl_begin(ctl, &b, CTL_SNAPSHOT_ADD_OUTPUT);
	proto_put_str(&b, CTL_A_SESSION, session);
	if (name)
		proto_put_str(&b, CTL_A_NAME, name);
	proto_put_str(&b, CTL_A_OUTPUT, path);
	if (max_size)
		proto_put_u64(&b, CTL_A_MAX_SIZE, max_size);
	r = ctl_request(ctl, &b, &reply);
	if (r < 0)
		return r;
	if (proto_get_u64(&reply.attrs, CTL_A_ID, &id) < 0 || id > UINT32_MAX)
		r = -LTT_ERR_PROTOCOL;
	else if (ret_id)
		*ret_id = (uint32_t)id;
	proto_msg_free(&reply);
	return r;
}

LTT_EXPORT int ltt_snapshot_output_del(struct ltt_ctl *ctl, const char *session, uint32_t id,
				       const char *name)
{
	struct proto_builder b;

	if (!session || (!name && !id))
		return -EINVAL;
	ctl_begin(ctl, &b, CTL_SNAPSHOT_DEL_OUTPUT);
	proto_put_str(&b, CTL_A_SESSION, session);
	if (name)
		proto_put_str(&b, CTL_A_NAME, name);
	else
		proto_put_u64(&b, CTL_A_ID, id);
	return ctl_simple_request(ctl, &b);
}

struct output_desc {
	uint32_t id;
	const char *name, *path;
	uint64_t max_size;
};

struct ltt_snapshot_output_list {
	struct proto_msg reply;	/* the strings point into it */
	struct output_desc *outputs;
	size_t n;
};

LTT_EXPORT void ltt_snapshot_output_list_free(struct ltt_snapshot_output_list *l)
{
	if (!l)
		return;
	proto_msg_free(&l->reply);
	free(l->outputs);
	free(l);
}

LTT_EXPORT int ltt_snapshot_output_list_get(struct ltt_ctl *ctl, const char *session,
					    struct ltt_snapshot_output_list **ret)
{
	struct ltt_snapshot_output_list *l;
	struct proto_builder b;
	struct proto_attr at;
	size_t cur = 0;
	int r;

	if (!session)
		return -EINVAL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	ctl_begin(ctl, &b, CTL_SNAPSHOT_LIST_OUTPUTS);
	proto_put_str(&b, CTL_A_SESSION, session);
	r = ctl_request(ctl, &b, &l->reply);
	if (r < 0) {
		free(l);
		return r;
	}
	while (r == 0 && proto_attrs_next(&l->reply.attrs, &cur, &at)) {
		struct proto_attrs a = { at.value, at.len };
		struct output_desc *grown, *o;
		uint64_t id;

		if (at.id != CTL_A_SNAPSHOT_OUTPUT_DESC || at.kind != PROTO_NEST)
			continue;
		grown = realloc(l->outputs, (l->n + 1) * sizeof(*grown));
		if (!grown) {
			r = -ENOMEM;
			break;
		}
		l->outputs = grown;
		o = &grown[l->n];
		if (proto_get_u64(&a, CTL_A_ID, &id) < 0 || id > UINT32_MAX ||
		    proto_get_str(&a, CTL_A_NAME, &o->name) < 0 ||
		    proto_get_str(&a, CTL_A_OUTPUT, &o->path) < 0 ||
		    proto_get_u64(&a, CTL_A_MAX_SIZE, &o->max_size) < 0)
			r = -LTT_ERR_PROTOCOL;
		o->id = (uint32_t)id;
		l->n += r == 0;
	}
	if (r < 0) {
		ltt_snapshot_output_list_free(l);
		return r;
	}
	*ret = l;
	return 0;
}

LTT_EXPORT size_t ltt_snapshot_output_list_count(const struct ltt_snapshot_output_list *l)
{
	return l->n;
}

LTT_EXPORT void ltt_snapshot_output_list_entry(const struct ltt_snapshot_output_list *l,
					       size_t i, uint32_t *ret_id, const char **ret_name,
					       const char **ret_path, uint64_t *ret_max_size)
{
	*ret_id = l->outputs[i].id;
	*ret_name = l->outputs[i].name;
	*ret_path = l->outputs[i].path;
	*ret_max_size = l->outputs[i].max_size;
}
