/* registry.c - sessions, channels and rules; see registry.h. */
#include "registry.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "filter/filter.h"
#include "util/macros.h"

bool registry_valid_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > REG_NAME_MAX || name[0] == '.' || name[0] == '-')
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_.-") == n;
}

bool registry_valid_pattern(const char *pattern)
{
	size_t n = strlen(pattern);

	return n > 0 && n <= REG_NAME_MAX &&
	       strspn(pattern, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789_:.-*") == n;
}

bool registry_glob_match(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;

	/* Greedy with one backtrack point: linear in practice, never exponential. */
	while (*s) {
		if (*p == '*') {
			star = p++;
			resume = s;
		} else if (*p == *s) {
			p++;
			s++;
		} else if (star) {
			p = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

static void rule_free(struct reg_rule *r)
{
	free(r->bytecode);
	free(r->pattern);
	for (size_t i = 0; i < r->n_exclusions; i++)
		free(r->exclusions[i]);
	free(r->exclusions);
	free(r->filter);
	free(r->location);
}

static void channel_free(struct reg_channel *c)
{
	for (size_t i = 0; i < c->n_rules; i++)
		rule_free(&c->rules[i]);
	free(c->rules);
	free(c->contexts);
}

void registry_session_free(struct reg_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_channels; i++)
		channel_free(&s->channels[i]);
	free(s->channels);
	for (size_t d = 0; d < REG_DOMAINS; d++)
		for (size_t a = 0; a < REG_PROCESS_ATTRS; a++)
			free(s->trackers[d][a].values);
	if (s->snapshot_output)
		free(s->snapshot_output->path);
	free(s->snapshot_output);
	free(s->chunk.dir);
	free(s->output);
	free(s);
}

void registry_free(struct registry *reg)
{
	if (!reg)
		return;
	for (size_t i = 0; i < reg->n_sessions; i++)
		registry_session_free(reg->sessions[i]);
	free(reg->sessions);
	reg->sessions = NULL;
	reg->n_sessions = 0;
}

/* Index of the session named name, or where it would be inserted (found: false). */
static size_t session_index(const struct registry *reg, const char *name, bool *found)
{
	size_t lo = 0, hi = reg->n_sessions;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(reg->sessions[mid]->name, name);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

struct reg_session *registry_find(const struct registry *reg, const char *name)
{
	bool found;
	size_t i = session_index(reg, name, &found);

	return found ? reg->sessions[i] : NULL;
}

/* $HOME/ltt-traces/NAME-DATE-TIME, or .../NAME for an auto-DATE-TIME name. */
static int default_output(const char *name, bool auto_name, const struct tm *tm, char **ret)
{
	const char *home = getenv("HOME");
	char stamp[32];

	if (!home || !*home)
		home = "/tmp";
	strftime(stamp, sizeof(stamp), "-%Y%m%d-%H%M%S", tm);
	return asprintf(ret, "%s/ltt-traces/%s%s", home, name, auto_name ? "" : stamp) < 0
		       ? -ENOMEM : 0;
}

bool registry_valid_output(const char *path)
{
	return path[0] == '/' && strlen(path) < PATH_MAX / 2 && !strchr(path, '\n');
}

int registry_session_new(const char *name, const char *output, bool no_output, bool snapshot,
			 struct reg_session **ret, const char **detail)
{
	struct reg_session *s = NULL;
	char autoname[32];
	struct tm tm;
	time_t now = time(NULL);
	int r;

	localtime_r(&now, &tm);
	if (!name) {
		strftime(autoname, sizeof(autoname), "auto-%Y%m%d-%H%M%S", &tm);
		name = autoname;
	}
	if (!registry_valid_name(name)) {
		*detail = "a session name is 1 to 255 of A-Z a-z 0-9 _ . - and does not start with . or -";
		return -LTT_ERR_INVALID_NAME;
	}
	if (output && (no_output || !registry_valid_output(output))) {
		*detail = no_output ? "--output and --no-output exclude each other"
				    : "the output must be an absolute path";
		return -LTT_ERR_INVALID_ATTR;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	strcpy(s->name, name);
	s->created = now;
	s->snapshot = snapshot;
	session_clock_describe(&s->clock);
	for (size_t d = 0; d < REG_DOMAINS; d++)
		for (size_t a = 0; a < REG_PROCESS_ATTRS; a++)
			s->trackers[d][a].all = true;
	s->next_output_id = 1;
	if (no_output)
		s->output = strdup("");
	else if (output)
		s->output = strdup(output);
	else if ((r = default_output(name, name == autoname, &tm, &s->output)) < 0)
		goto err;
	r = -ENOMEM;
	if (!s->output || !(s->chunk.dir = strdup(s->output)))
		goto err;
	s->chunk.open = true;
	*ret = s;
	return 0;
err:
	registry_session_free(s);
	return r;
}

int registry_session_insert(struct registry *reg, struct reg_session *s)
{
	struct reg_session **grown;
	bool found;
	size_t at = session_index(reg, s->name, &found);

	if (found)
		return -LTT_ERR_SESSION_EXISTS;
	grown = realloc(reg->sessions, (reg->n_sessions + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	reg->sessions = grown;
	memmove(&grown[at + 1], &grown[at], (reg->n_sessions - at) * sizeof(*grown));
	grown[at] = s;
	reg->n_sessions++;
	return 0;
}

int registry_session_create(struct registry *reg, const char *name, const char *output,
			    bool no_output, bool snapshot, struct reg_session **ret,
			    const char **detail)
{
	struct reg_session *s;
	int r = registry_session_new(name, output, no_output, snapshot, &s, detail);

	if (r < 0)
		return r;
	/* a flight recorder writes its snapshots under its output, as LTTng's */
	if (snapshot && s->output[0])
		r = registry_snapshot_output_add(s, 0, NULL, s->output, 0, NULL, detail);
	if (r == 0)
		r = registry_session_insert(reg, s);
	if (r < 0) {
		registry_session_free(s);
		return r;
	}
	if (ret)
		*ret = s;
	return 0;
}

int registry_snapshot_output_add(struct reg_session *s, uint32_t id, const char *name,
				 const char *path, uint64_t max_size,
				 const struct reg_snapshot_output **ret, const char **detail)
{
	struct reg_snapshot_output *o;

	if (!s->snapshot) {
		*detail = "snapshot outputs belong to snapshot sessions (ltt create --snapshot)";
		return -LTT_ERR_NOT_SNAPSHOT;
	}
	if (s->snapshot_output) {
		*detail = "a session has one snapshot output: delete it first with snapshot del-output";
		return -LTT_ERR_SNAPSHOT_OUTPUT_EXISTS;
	}
	if (name && !registry_valid_name(name)) {
		*detail = "an output name is 1 to 255 of A-Z a-z 0-9 _ . - and does not start with . or -";
		return -LTT_ERR_INVALID_NAME;
	}
	if (!registry_valid_output(path)) {
		*detail = "a snapshot output is an absolute path";
		return -LTT_ERR_INVALID_ATTR;
	}
	o = calloc(1, sizeof(*o));
	if (!o || !(o->path = strdup(path))) {
		free(o);
		return -ENOMEM;
	}
	o->id = id ? id : s->next_output_id;
	if (o->id >= s->next_output_id)
		s->next_output_id = o->id + 1;
	o->max_size = max_size;
	if (name)
		strcpy(o->name, name);
	else
		snprintf(o->name, sizeof(o->name), "snapshot-%u", o->id);
	s->snapshot_output = o;
	if (ret)
		*ret = o;
	return 0;
}

int registry_snapshot_output_del(struct reg_session *s, uint32_t id, const char *name,
				 const char **detail)
{
	struct reg_snapshot_output *o = s->snapshot_output;

	if (!s->snapshot) {
		*detail = "snapshot outputs belong to snapshot sessions (ltt create --snapshot)";
		return -LTT_ERR_NOT_SNAPSHOT;
	}
	if (!o || (name ? strcmp(o->name, name) != 0 : o->id != id))
		return -LTT_ERR_SNAPSHOT_OUTPUT_NOT_FOUND;
	free(o->path);
	free(o);
	s->snapshot_output = NULL;
	return 0;
}

int registry_session_destroy(struct registry *reg, const char *name, const char **detail)
{
	bool found;
	size_t at = session_index(reg, name, &found);

	(void)detail;
	if (!found)
		return -LTT_ERR_SESSION_NOT_FOUND;
	registry_session_free(reg->sessions[at]);
	memmove(&reg->sessions[at], &reg->sessions[at + 1],
		(reg->n_sessions - at - 1) * sizeof(*reg->sessions));
	reg->n_sessions--;
	return 0;
}

struct reg_channel *registry_channel_find(struct reg_session *s, enum ltt_domain domain,
					  const char *name)
{
	for (size_t i = 0; i < s->n_channels; i++)
		if (s->channels[i].domain == domain && strcmp(s->channels[i].name, name) == 0)
			return &s->channels[i];
	return NULL;
}

static int check_channel_attr(enum ltt_domain domain, const struct ltt_channel_attr *a,
			      const char **detail)
{
	if (!is_pow2(a->subbuf_size) || a->subbuf_size < 4096 || a->subbuf_size > (64u << 20)) {
		*detail = "the sub-buffer size must be a power of two from 4 KiB to 64 MiB";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (!is_pow2(a->num_subbuf) || a->num_subbuf < 2 || a->num_subbuf > (1u << 16)) {
		*detail = "the sub-buffer count must be a power of two from 2 to 65536";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (a->blocking_timeout_us < -1) {
		*detail = "the blocking timeout is -1 (for ever), 0 (never) or a duration";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (a->blocking_timeout_us != 0 && (domain != LTT_DOMAIN_USER || a->overwrite)) {
		*detail = "a blocking timeout applies to user-space channels in discard mode";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (domain == LTT_DOMAIN_USER && a->buffers == LTT_BUFFERS_GLOBAL) {
		*detail = "user channels have per-UID or per-PID buffers";
		return -LTT_ERR_INVALID_ATTR;
	}

	if (domain == LTT_DOMAIN_KERNEL && a->buffers != LTT_BUFFERS_GLOBAL) {
		*detail = "kernel channels have global buffers only";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (a->tracefile_count && !a->tracefile_size) {
		*detail = "a trace file count needs a trace file size (--tracefile-size)";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (a->tracefile_size && a->tracefile_size < a->subbuf_size) {
		*detail = "the trace file size must be at least the sub-buffer size";
		return -LTT_ERR_INVALID_ATTR;
	}
	return 0;
}

int registry_channel_add(struct reg_session *s, enum ltt_domain domain, const char *name,
			 const struct ltt_channel_attr *attr, const char **detail)
{
	struct reg_channel *grown;
	int r;

	if (!registry_valid_name(name)) {
		*detail = "a channel name is 1 to 255 of A-Z a-z 0-9 _ . - and does not start with . or -";
		return -LTT_ERR_INVALID_NAME;
	}
	if (registry_channel_find(s, domain, name))
		return -LTT_ERR_CHANNEL_EXISTS;
	if (s->active) {
		*detail = "channels are added before the session starts";
		return -LTT_ERR_SESSION_ACTIVE;
	}
	r = check_channel_attr(domain, attr, detail);
	if (r < 0)
		return r;
	grown = realloc(s->channels, (s->n_channels + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	s->channels = grown;
	grown[s->n_channels] = (struct reg_channel){ .domain = domain, .attr = *attr };
	strcpy(grown[s->n_channels].name, name);
	s->n_channels++;
	return 0;
}

int registry_channel_add_default(struct reg_session *s, enum ltt_domain domain,
				 struct reg_channel **ret, const char **detail)
{
	struct ltt_channel_attr attr;
	int r;

	ltt_channel_attr_init(&attr, domain);
	attr.overwrite = s->snapshot;	/* a flight recorder keeps the newest */
	r = registry_channel_add(s, domain, "channel0", &attr, detail);
	if (r == 0)
		*ret = &s->channels[s->n_channels - 1];
	return r;
}

void registry_channel_remove_last(struct reg_session *s)
{
	if (s->n_channels)
		channel_free(&s->channels[--s->n_channels]);
}

static bool same_strings(char *const *a, size_t na, const char *const *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return true;
}

static bool same_rule(const struct reg_rule *r, const struct ltt_event_rule *e)
{
	return r->type == e->type && strcmp(r->pattern, e->pattern) == 0 &&
	       ((!r->location && !e->location) ||
		(r->location && e->location && !strcmp(r->location, e->location))) &&
	       r->loglevel_match == e->loglevel_match &&
	       (e->loglevel_match == LTT_LOGLEVEL_ALL || r->loglevel == e->loglevel) &&
	       same_strings(r->exclusions, r->n_exclusions, e->exclusions, e->n_exclusions) &&
	       ((!r->filter && !e->filter) || (r->filter && e->filter && !strcmp(r->filter, e->filter)));
}

static int rule_copy(struct reg_rule *r, const struct ltt_event_rule *e)
{
	*r = (struct reg_rule){
		.type = e->type,
		.loglevel_match = e->loglevel_match,
		.loglevel = e->loglevel_match == LTT_LOGLEVEL_ALL ? 0 : e->loglevel,
		.enabled = true,
	};
	r->pattern = strdup(e->pattern);
	r->filter = e->filter ? strdup(e->filter) : NULL;
	r->location = e->location ? strdup(e->location) : NULL;
	r->exclusions = e->n_exclusions ? calloc(e->n_exclusions, sizeof(char *)) : NULL;
	if (!r->pattern || (e->filter && !r->filter) || (e->location && !r->location) ||
	    (e->n_exclusions && !r->exclusions))
		goto err;
	for (; r->n_exclusions < e->n_exclusions; r->n_exclusions++) {
		r->exclusions[r->n_exclusions] = strdup(e->exclusions[r->n_exclusions]);
		if (!r->exclusions[r->n_exclusions])
			goto err;
	}
	return 0;
err:
	rule_free(r);
	return -ENOMEM;
}

/* Compiles the rule's filter into r (NULL filter: none); the error names the column. */
static int compile_filter(struct reg_rule *r, const char *filter, const char **detail)
{
	static char message[256];	/* the daemon is single-threaded */
	struct filter_error err;
	int ret;

	if (!filter)
		return 0;
	ret = filter_compile(filter, &r->bytecode, &r->bytecode_len, &err);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0) {
		snprintf(message, sizeof(message), "filter, column %u: %s", err.column, err.message);
		*detail = message;
		return -LTT_ERR_INVALID_FILTER;
	}
	return 0;
}

static int check_kernel_rule(const struct ltt_event_rule *e, const char **detail)
{
	bool probe = e->type == LTT_EVENT_FUNCTION || e->type == LTT_EVENT_USERSPACE_PROBE;

	if (e->type < LTT_EVENT_TRACEPOINT || e->type > LTT_EVENT_USERSPACE_PROBE) {
		*detail = "unknown kind of kernel event rule";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (e->loglevel_match != LTT_LOGLEVEL_ALL || e->n_exclusions) {
		*detail = "kernel rules take no log level and no exclusion";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (probe != (e->location != NULL) || (e->location && (!*e->location ||
							       strlen(e->location) > 4000))) {
		*detail = probe ? "--function and --userspace-probe rules need a location"
				: "only --function and --userspace-probe rules have a location";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (probe && (strchr(e->pattern, '*') || strchr(e->pattern, ':'))) {
		*detail = "a probe's event name is a name, without '*' or ':'";
		return -LTT_ERR_INVALID_PATTERN;
	}
	if (e->type == LTT_EVENT_FUNCTION && e->filter) {
		*detail = "--function rules take no filter";
		return -LTT_ERR_INVALID_ATTR;
	}
	return 0;
}

static int check_rule(enum ltt_domain domain, const struct ltt_event_rule *e,
		      const char **detail)
{
	if (!registry_valid_pattern(e->pattern)) {
		*detail = "an event name is made of A-Z a-z 0-9 _ : . - with '*' as a wildcard";
		return -LTT_ERR_INVALID_PATTERN;
	}
	for (size_t i = 0; i < e->n_exclusions; i++)
		if (!registry_valid_pattern(e->exclusions[i])) {
			*detail = "an exclusion is an event name or a pattern with '*'";
			return -LTT_ERR_INVALID_PATTERN;
		}
	if (e->n_exclusions && !strchr(e->pattern, '*')) {
		*detail = "exclusions apply to a pattern with '*'";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (e->loglevel_match != LTT_LOGLEVEL_ALL && (e->loglevel < 0 || e->loglevel > 14)) {
		*detail = "log levels go from 0 (EMERG) to 14 (DEBUG)";
		return -LTT_ERR_INVALID_ATTR;
	}
	if (domain == LTT_DOMAIN_KERNEL)
		return check_kernel_rule(e, detail);
	if (e->type != LTT_EVENT_TRACEPOINT || e->location) {
		*detail = "only tracepoint rules are supported in the user domain";
		return -LTT_ERR_INVALID_ATTR;
	}
	return 0;
}

int registry_rule_enable(struct reg_session *s, enum ltt_domain domain, const char *channel,
			 const struct ltt_event_rule *rule, bool *ret_new, const char **detail)
{
	struct reg_channel *c;
	struct reg_rule *grown, copy;
	int r = check_rule(domain, rule, detail);

	if (r < 0)
		return r;
	c = registry_channel_find(s, domain, channel ? channel : "channel0");
	if (!c && channel)
		return -LTT_ERR_CHANNEL_NOT_FOUND;
	for (size_t i = 0; c && i < c->n_rules; i++)
		if (same_rule(&c->rules[i], rule)) {
			if (c->rules[i].enabled)
				return -LTT_ERR_EVENT_EXISTS;
			c->rules[i].enabled = true;
			if (ret_new)
				*ret_new = false;
			return (int)i;
		}
	/* everything that can fail comes before the session changes */
	if ((r = rule_copy(&copy, rule)) < 0)
		return r;
	if ((r = compile_filter(&copy, rule->filter, detail)) < 0)
		goto err;
	if (!c && (r = registry_channel_add_default(s, domain, &c, detail)) < 0)
		goto err;
	grown = realloc(c->rules, (c->n_rules + 1) * sizeof(*grown));
	if (!grown) {
		r = -ENOMEM;
		goto err;
	}
	c->rules = grown;
	grown[c->n_rules++] = copy;
	if (ret_new)
		*ret_new = true;
	return (int)(c->n_rules - 1);
err:
	rule_free(&copy);
	return r;
}

void registry_rule_undo(struct reg_channel *c, size_t index, bool was_new)
{
	if (!was_new) {
		c->rules[index].enabled = false;
		return;
	}
	rule_free(&c->rules[index]);
	memmove(&c->rules[index], &c->rules[index + 1],
		(c->n_rules - index - 1) * sizeof(*c->rules));
	c->n_rules--;
}

int registry_rule_disable(struct reg_session *s, enum ltt_domain domain, const char *channel,
			  const char *pattern, bool all, const char **detail)
{
	struct reg_channel *c = registry_channel_find(s, domain, channel ? channel : "channel0");
	int n = 0;

	(void)detail;
	if (!c)
		return channel ? -LTT_ERR_CHANNEL_NOT_FOUND : -LTT_ERR_EVENT_NOT_FOUND;
	for (size_t i = 0; i < c->n_rules; i++)
		if (c->rules[i].enabled && (all || strcmp(c->rules[i].pattern, pattern) == 0)) {
			c->rules[i].enabled = false;
			n++;
		}
	return n ? n : -LTT_ERR_EVENT_NOT_FOUND;
}
