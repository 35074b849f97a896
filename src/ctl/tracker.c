/* tracker.c - `track` / `untrack` requests, through the daemon. */
#include "ctl-internal.h"

#include <errno.h>

#include "util/macros.h"

static int tracker_request(struct ltt_ctl *ctl, enum ctl_msg_type type, const char *session,
			   enum ltt_domain domain, enum ltt_process_attr attr,
			   const int64_t *values, size_t n_values)
{
	struct proto_builder b;

	if (!session || (n_values && !values))
		return -EINVAL;
	ctl_begin(ctl, &b, type);
	ctl_put_target(&b, session, domain, NULL);
	proto_put_u64(&b, CTL_A_PROCESS_ATTR, (uint64_t)attr);
	for (size_t i = 0; i < n_values; i++)
		proto_put_i64(&b, CTL_A_VALUE, values[i]);
	return ctl_simple_request(ctl, &b);
}

LTT_EXPORT int ltt_tracker_track(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
				 enum ltt_process_attr attr, const int64_t *values,
				 size_t n_values)
{
	return tracker_request(ctl, CTL_TRACK, session, domain, attr, values, n_values);
}

LTT_EXPORT int ltt_tracker_untrack(struct ltt_ctl *ctl, const char *session,
				   enum ltt_domain domain, enum ltt_process_attr attr,
				   const int64_t *values, size_t n_values)
{
	return tracker_request(ctl, CTL_UNTRACK, session, domain, attr, values, n_values);
}
