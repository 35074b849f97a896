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

struct reg_rule {
	enum ltt_event_type type;
	char *pattern;
	enum ltt_loglevel_match loglevel_match;
	int loglevel;
	char **exclusions;
	size_t n_exclusions;
	char *filter;		/* NULL: none */
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

struct reg_session {
	char name[REG_NAME_MAX + 1];
	char *output;		/* "" when the session has no output */
	time_t created;
	struct ctf_clock_info clock;	/* of all its traces (clock.h), set at creation */
	bool active;
	bool started_once;	/* contexts can no longer be added */
	bool snapshot;		/* flight recorder: written only by snapshot record */
	unsigned snapshots;	/* how many were recorded */
	struct reg_channel *channels;
	size_t n_channels;
	struct reg_tracker trackers[REG_DOMAINS][REG_PROCESS_ATTRS];
	struct ust_session **ust;	/* its user-space buffer sets once started (ust-session.h) */
	size_t n_ust;
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
 * $HOME/ltt-traces/NAME-YYYYMMDD-HHMMSS; no_output: none.
 * On success *ret (may be NULL) points to the session, owned by reg.
 */
int registry_session_create(struct registry *reg, const char *name, const char *output,
			    bool no_output, bool snapshot, struct reg_session **ret,
			    const char **detail);
int registry_session_destroy(struct registry *reg, const char *name, const char **detail);

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

/*
 * Enables a rule in channel `channel` (NULL: channel0, created with the
 * domain's defaults when missing) of the session.
 */
int registry_rule_enable(struct reg_session *s, enum ltt_domain domain, const char *channel,
			 const struct ltt_event_rule *rule, const char **detail);
/* Disables matching rules; returns how many (>= 1) or -LTT_ERR_EVENT_NOT_FOUND. */
int registry_rule_disable(struct reg_session *s, enum ltt_domain domain, const char *channel,
			  const char *pattern, bool all, const char **detail);

#endif /* LTT_SESSIOND_REGISTRY_H */
