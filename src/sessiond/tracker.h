/*
 * tracker.h - a session's process attribute trackers (`ltt track`,
 * `ltt untrack`), as LTTng's: per domain, one inclusion set per process
 * attribute (struct reg_tracker in registry.h); a process is recorded only
 * if each of its attributes is in the set for it.
 *
 * The user-space domain tracks vpid, vuid and vgid, and the decision is
 * taken per application by the session daemon when it pushes the
 * application its state (app.c): an application that is not tracked gets
 * none of the session's channels, so a tracker costs nothing per event.
 * The kernel domain tracks pid only: kernel-session.c writes its set into
 * the tracefs instance's set_event_pid (kernel_session_track()).
 */
#ifndef LTT_SESSIOND_TRACKER_H
#define LTT_SESSIOND_TRACKER_H

#include <stdbool.h>
#include <stdint.h>

#include "registry.h"

/* Whether domain can track attr (user space: vpid, vuid, vgid; kernel: pid). */
bool tracker_attr_valid(enum ltt_domain domain, enum ltt_process_attr attr);

/* The inclusion set of attr in domain (both valid: see tracker_attr_valid). */
const struct reg_tracker *tracker_get(const struct reg_session *s, enum ltt_domain domain,
				      enum ltt_process_attr attr);

/*
 * Adds values to the set (a set that included all becomes exactly them);
 * n 0: the set includes all values again. All or none: -LTT_ERR_ID_TRACKED
 * if one is there already or given twice; -ENOMEM.
 */
int tracker_track(struct reg_session *s, enum ltt_domain domain, enum ltt_process_attr attr,
		  const int64_t *values, size_t n, const char **detail);

/*
 * Removes values from the set; n 0: the set becomes empty. All or none:
 * -LTT_ERR_ID_NOT_TRACKED if one is not there (or the set includes all).
 */
int tracker_untrack(struct reg_session *s, enum ltt_domain domain, enum ltt_process_attr attr,
		    const int64_t *values, size_t n, const char **detail);

/* Whether the set of attr in domain includes v. */
bool tracker_includes(const struct reg_session *s, enum ltt_domain domain,
		      enum ltt_process_attr attr, int64_t v);

/* Whether a user-space process with these (virtual) ids is recorded by s. */
bool tracker_tracks_app(const struct reg_session *s, int64_t vpid, int64_t vuid, int64_t vgid);

#endif /* LTT_SESSIOND_TRACKER_H */
