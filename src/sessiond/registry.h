/*
 * registry.h - the session daemon's model: sessions, their channels, and the
 * event rules of each channel (as LTTng's: see DESIGN.md, "Data model").
 *
 * Single-threaded: only the daemon's main loop touches it. Every function
 * validates its input and returns 0 or a negative errno / -LTT_ERR_*, with
 * *detail (when not NULL) set to a static or registry-owned text naming
 * what was wrong.
 */
#ifndef LTT_SESSIOND_REGISTRY_H
#define LTT_SESSIOND_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ltt/ctl.h>

#include "ctf/ctf-clock.h"

#define REG_NAME_MAX 255

struct ust_session;
struct kernel_session;

struct reg_rule {
	enum ltt_event_type type;
	char *pattern;
	enum ltt_loglevel_match loglevel_match;
	int loglevel;
	char **exclusions;
	size_t n_exclusions;
	char *filter;		/* NULL: none */
	char *location;		/* kernel FUNCTION / USERSPACE_PROBE rules: where; else NULL */
	uint8_t *bytecode;	/* the filter compiled (filter/filter.h), for the tracers */
	size_t bytecode_len;
	bool enabled;
};

struct reg_channel {
	char name[REG_NAME_MAX + 1];
	enum ltt_domain domain;
	struct ltt_channel_attr attr;
	struct reg_rule *rules;
	size_t n_rules;
	/* its context fields, in the order added: indexes of proto/context-types.h */
	unsigned *contexts;
	size_t n_contexts;
};

/* Indexes of reg_session.trackers: [enum ltt_domain][enum ltt_process_attr]. */
#define REG_DOMAINS 3
#define REG_PROCESS_ATTRS 7

/* An inclusion set of process attribute values (see tracker.h). */
struct reg_tracker {
	bool all;		/* every value (the default) */
	int64_t *values;	/* else exactly these, sorted, no duplicates */
	size_t n_values;
};

/* Where `snapshot record` writes by default (a snapshot session has at most one, as LTTng's). */
struct reg_snapshot_output {
	uint32_t id;		/* unique in the session, from 1 */
	char name[REG_NAME_MAX + 1];
	char *path;		/* absolute */
	uint64_t max_size;	/* bytes of stream data per snapshot; 0: no limit */
};

/* Automatic rotations (enable-rotation); 0: not scheduled. */
struct reg_rotation {
	uint64_t timer_us;	/* every timer_us while tracing */
	uint64_t size;		/* when the current chunk holds size bytes */
};

/*
 * The session's current trace chunk (chunk.h): the output itself until the
 * first rotation, then OUTPUT/BEGIN-INDEX; archived chunks are in
 * OUTPUT/archives/BEGIN-END-INDEX.
 */
struct reg_chunk {
	char *dir;		/* where the trace goes now */
	unsigned index;		/* of the current chunk (or the next one, when closed) */
	time_t begin;		/* when it began */
	bool open;		/* false after a rotation while stopped, until the next start */
	bool rotated;		/* rotated at least once: the current chunk is archived at destroy */
	bool started;		/* the session started at least once (contexts are then fixed) */
	bool rotated_since_stop;
	uint64_t bytes_at_begin;	/* what the consumer had written when it began */
	uint64_t next_timer_ns;	/* monotonic deadline of the next timer rotation */
};

struct reg_session {
	char name[REG_NAME_MAX + 1];
	char *output;		/* "" when the session has no output */
	time_t created;
	struct ctf_clock_info clock;	/* of all its traces (clock.h), set at creation */
	bool active;
	bool snapshot;		/* flight recorder: written only by snapshot record */
	unsigned snapshots;	/* how many were recorded */
	struct reg_snapshot_output *snapshot_output;	/* NULL: none */
	uint32_t next_output_id;
	struct reg_rotation rotation;
	struct reg_chunk chunk;
	struct reg_channel *channels;
	size_t n_channels;
	struct reg_tracker trackers[REG_DOMAINS][REG_PROCESS_ATTRS];
	struct ust_session **ust;	/* its user-space buffer sets once started (ust-session.h) */
	size_t n_ust;
	struct kernel_session *kernel;	/* its tracefs instance, from the first kernel channel */
};

struct registry {
	struct reg_session **sessions;	/* sorted by name */
	size_t n_sessions;
};

void registry_free(struct registry *reg);

/* A valid session or channel name: 1..255 of [A-Za-z0-9_.-], not starting with '.' or '-'. */
bool registry_valid_name(const char *name);
/* A valid event pattern: [A-Za-z0-9_:.-] and '*' (glob), 1..255 bytes. */
bool registry_valid_pattern(const char *pattern);
/* Whether a glob pattern ('*' matches any run, anywhere) matches name. */
bool registry_glob_match(const char *pattern, const char *name);

struct reg_session *registry_find(const struct registry *reg, const char *name);

/*
 * Creates a session. name NULL: auto-YYYYMMDD-HHMMSS (now). output NULL:
 * $HOME/ltt-traces/NAME-YYYYMMDD-HHMMSS; no_output: none. A snapshot
 * session with an output gets it as its snapshot output (snapshot-1, as
 * LTTng's). On success *ret (may be NULL) points to the session, owned by reg.
 */
int registry_session_create(struct registry *reg, const char *name, const char *output,
			    bool no_output, bool snapshot, struct reg_session **ret,
			    const char **detail);
/*
 * The same, detached and without a snapshot output: the session is not in
 * any registry (a session file being loaded builds one, then
 * registry_session_insert() adds it or registry_session_free() drops it).
 */
int registry_session_new(const char *name, const char *output, bool no_output, bool snapshot,
			 struct reg_session **ret, const char **detail);
/* Adds a detached session; -LTT_ERR_SESSION_EXISTS if the name is taken. */
int registry_session_insert(struct registry *reg, struct reg_session *s);
void registry_session_free(struct reg_session *s);
int registry_session_destroy(struct registry *reg, const char *name, const char **detail);

/* A valid output: an absolute path without NUL or newline, shorter than PATH_MAX / 2. */
bool registry_valid_output(const char *path);

/*
 * Sets the session's snapshot output (one at most: -LTT_ERR_SNAPSHOT_OUTPUT_EXISTS)
 * of that id (0: the next one); name NULL: snapshot-ID. *ret (may be NULL) gets it.
 */
int registry_snapshot_output_add(struct reg_session *s, uint32_t id, const char *name,
				 const char *path, uint64_t max_size,
				 const struct reg_snapshot_output **ret, const char **detail);
/* Removes it, by id (name NULL) or by name; -LTT_ERR_SNAPSHOT_OUTPUT_NOT_FOUND. */
int registry_snapshot_output_del(struct reg_session *s, uint32_t id, const char *name,
				 const char **detail);

int registry_channel_add(struct reg_session *s, enum ltt_domain domain, const char *name,
			 const struct ltt_channel_attr *attr, const char **detail);
struct reg_channel *registry_channel_find(struct reg_session *s, enum ltt_domain domain,
					  const char *name);
/*
 * Adds channel0 with the domain's defaults (overwriting in a snapshot
 * session): what enable-event and add-context do when the domain has no
 * channel. *ret points to it (valid until the next channel is added).
 */
int registry_channel_add_default(struct reg_session *s, enum ltt_domain domain,
				 struct reg_channel **ret, const char **detail);
/* Removes the channel added last (its domain could not make it). */
void registry_channel_remove_last(struct reg_session *s);

/*
 * Enables a rule in channel `channel` (NULL: channel0, created with the
 * domain's defaults when missing) of the session: a new one, or one that
 * was disabled. Returns the rule's index in its channel (>= 0), *ret_new
 * (may be NULL) saying whether it is new, or a negative error.
 */
int registry_rule_enable(struct reg_session *s, enum ltt_domain domain, const char *channel,
			 const struct ltt_event_rule *rule, bool *ret_new, const char **detail);
/*
 * Takes back what registry_rule_enable did to rule `index` of channel c (a
 * domain could not apply it): removes it if it was new, else disables it.
 */
void registry_rule_undo(struct reg_channel *c, size_t index, bool was_new);
/* Disables matching rules; returns how many (>= 1) or -LTT_ERR_EVENT_NOT_FOUND. */
int registry_rule_disable(struct reg_session *s, enum ltt_domain domain, const char *channel,
			  const char *pattern, bool all, const char **detail);

#endif /* LTT_SESSIOND_REGISTRY_H */
