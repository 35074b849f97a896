/* chunks.c - rotation, clear and metadata regeneration, through the daemon. */
#include "ctl-internal.h"

#include <errno.h>

#include "util/macros.h"

LTT_EXPORT int ltt_session_rotate(struct ltt_ctl *ctl, const char *session, char **ret_archive)
{
	struct proto_builder b;

	if (!session)
		return -EINVAL;
	ctl_begin(ctl, &b, CTL_ROTATE);
	proto_put_str(&b, CTL_A_SESSION, session);
	return ctl_request_str(ctl, &b, CTL_A_OUTPUT, true, ret_archive);
}

/* A ROTATION_ENABLE or _DISABLE request: non-zero values name the schedules. */
static int schedule_request(struct ltt_ctl *ctl, enum ctl_msg_type type, const char *session,
			    uint64_t timer, uint64_t size)
{
	struct proto_builder b;

	if (!session || (!timer && !size))
		return -EINVAL;
	ctl_begin(ctl, &b, type);
	proto_put_str(&b, CTL_A_SESSION, session);
	if (timer)
		proto_put_u64(&b, CTL_A_ROTATE_TIMER, timer);
	if (size)
		proto_put_u64(&b, CTL_A_ROTATE_SIZE, size);
	return ctl_simple_request(ctl, &b);
}

LTT_EXPORT int ltt_rotation_enable(struct ltt_ctl *ctl, const char *session, uint64_t timer_us,
				   uint64_t size)
{
	return schedule_request(ctl, CTL_ROTATION_ENABLE, session, timer_us, size);
}

LTT_EXPORT int ltt_rotation_disable(struct ltt_ctl *ctl, const char *session, bool timer,
				    bool size)
{
	return schedule_request(ctl, CTL_ROTATION_DISABLE, session, timer, size);
}

LTT_EXPORT int ltt_session_clear(struct ltt_ctl *ctl, const char *session)
{
	return ctl_session_request(ctl, CTL_SESSION_CLEAR, session);
}

LTT_EXPORT int ltt_regenerate_metadata(struct ltt_ctl *ctl, const char *session)
{
	return ctl_session_request(ctl, CTL_REGENERATE_METADATA, session);
}

LTT_EXPORT int ltt_regenerate_statedump(struct ltt_ctl *ctl, const char *session)
{
	return ctl_session_request(ctl, CTL_REGENERATE_STATEDUMP, session);
}
