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
};

struct reg_session {
	char name[REG_NAME_MAX + 1];
	char *output;		/* "" when the session has no output */
	time_t created;
	bool active;
	bool snapshot;		/* flight recorder: written only by snapshot record */
	unsigned snapshots;	/* how many were recorded */
	struct ctf_trace_clock clock;	/* every trace of the session declares it */
	struct reg_channel *channels;
	size_t n_channels;
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
