/* save.c - saving sessions to files and loading them, through the daemon. */
#include "ctl-internal.h"

#include <errno.h>
#include <stdlib.h>

#include "util/macros.h"

LTT_EXPORT void ltt_load_attr_init(struct ltt_load_attr *attr)
{
	*attr = (struct ltt_load_attr){ .size = sizeof(*attr) };
}

LTT_EXPORT int ltt_session_save(struct ltt_ctl *ctl, const char *session, const char *dir,
				bool force)
{
	struct proto_builder b;

	if (!dir || dir[0] != '/')
		return -EINVAL;
	ctl_begin(ctl, &b, CTL_SESSION_SAVE);
	if (session)
		proto_put_str(&b, CTL_A_SESSION, session);
	proto_put_str(&b, CTL_A_OUTPUT, dir);
	if (force)
		proto_put_u64(&b, CTL_A_FORCE, 1);
	return ctl_request_count(ctl, &b);
}

LTT_EXPORT int ltt_session_load(struct ltt_ctl *ctl, const char *session,
				const struct ltt_load_attr *attr)
{
	struct proto_builder b;

	if (!attr || !attr->n_paths)
		return -EINVAL;
	ctl_begin(ctl, &b, CTL_SESSION_LOAD);
	if (session)
		proto_put_str(&b, CTL_A_SESSION, session);
	for (size_t i = 0; i < attr->n_paths; i++)
		proto_put_str(&b, CTL_A_OUTPUT, attr->paths[i]);
	if (attr->force)
		proto_put_u64(&b, CTL_A_FORCE, 1);
	if (attr->override_url)
		proto_put_str(&b, CTL_A_OVERRIDE_URL, attr->override_url);
	if (attr->override_name)
		proto_put_str(&b, CTL_A_OVERRIDE_NAME, attr->override_name);
	return ctl_request_count(ctl, &b);
}
