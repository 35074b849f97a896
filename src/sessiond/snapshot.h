/*
 * snapshot.h - recording snapshots of a flight-recorder session: where
 * (its snapshot output, or a path given for one snapshot), under which
 * name (NAME-YYYYMMDD-HHMMSS-N, N counting the session's snapshots, as
 * LTTng names them) and how much (a maximum size, shared by the streams as
 * LTTng shares it: the same number of newest sub-buffers each).
 */
#ifndef LTT_SESSIOND_SNAPSHOT_H
#define LTT_SESSIOND_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "consumer.h"
#include "registry.h"

struct snapshot_request {
	const char *name;	/* NULL: the output's name */
	const char *path;	/* NULL: the session's snapshot output */
	uint64_t max_size;	/* 0: the output's limit, if any */
};

/*
 * Writes what the session's buffers hold now into a new directory, whose
 * path goes to dir (size bytes). 0 or a negative errno / -LTT_ERR_* with
 * *detail.
 */
int snapshot_record(struct reg_session *s, struct consumer *c, const struct snapshot_request *rq,
		    char *dir, size_t size, const char **detail);

#endif /* LTT_SESSIOND_SNAPSHOT_H */
