/* snapshot.c - recording snapshots; see snapshot.h. */
#include "snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "ust-session.h"

/*
 * How many of its newest sub-buffers each stream may keep so that all of
 * them fit in max_size (LTTng's rule: one more per stream while it fits,
 * a channel whose buffers are all taken adding nothing more); 0 when not
 * even one each fits.
 */
static uint64_t packets_per_stream(const struct reg_session *s, uint64_t max_size)
{
	uint64_t n = 0;

	while (ust_session_snapshot_size(s, n + 1) <= max_size &&
	       ust_session_snapshot_size(s, n + 1) != ust_session_snapshot_size(s, n))
		n++;
	return n;
}

int snapshot_record(struct reg_session *s, struct consumer *c, const struct snapshot_request *rq,
		    char *dir, size_t size, const char **detail)
{
	const struct reg_snapshot_output *out = s->snapshot_output;
	const char *path = rq->path, *name = rq->name;
	uint64_t max_size = rq->max_size, packets = 0;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int r;

	if (!s->snapshot)
		return -LTT_ERR_NOT_SNAPSHOT;
	if (name && !registry_valid_name(name)) {
		*detail = "a snapshot name is made of A-Z a-z 0-9 _ . -";
		return -LTT_ERR_INVALID_NAME;
	}
	if (path && !registry_valid_output(path)) {
		*detail = "a snapshot is written under an absolute path";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (!path && !out) {
		*detail = "give a path, or add an output (ltt snapshot add-output)";
		return -LTT_ERR_NO_SNAPSHOT_OUTPUT;
	}
	if (!path) {
		path = out->path;
		max_size = max_size ? max_size : out->max_size;
	}
	if (!name)
		name = out && path == out->path ? out->name : "snapshot-0";
	if (!s->n_ust || !c) {
		*detail = "nothing was recorded yet: start the session first";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (max_size && !(packets = packets_per_stream(s, max_size))) {
		static char text[160];	/* the daemon is single-threaded */

		snprintf(text, sizeof(text), "the maximum size holds less than a sub-buffer per "
			 "stream (%llu bytes needed)",
			 (unsigned long long)ust_session_snapshot_size(s, 1));
		*detail = text;
		return -LTT_ERR_INVALID_ATTR;
	}
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if (snprintf(dir, size, "%s/%s-%s-%u", path, name, stamp, s->snapshots) >= (int)size)
		return -ENAMETOOLONG;
	r = ust_session_snapshot(s, c, dir, packets, detail);
	if (r == 0)
		s->snapshots++;
	return r;
}
