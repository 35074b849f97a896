/*
 * save.c - session files: each kind of section, its writer and its reader
 * (the table `sections` below), and the files around them; see save.h.
 */
#include "save.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chunk.h"
#include "context.h"
#include "proto/context-types.h"
#include "tracker.h"
#include "session-file.h"
#include "util/fs.h"

/* What the readers share while a file is loaded. */
struct loader {
	struct reg_session *s;		/* NULL until [session] was read */
	const struct load_overrides *o;
	bool started;
	struct sf_error *err;
};

/* ---- reading values ---- */

/* The pair of key in sec (NULL if absent); a key given twice is an error. */
static int find(struct loader *ld, struct sf_section *sec, const char *key, bool required,
		struct sf_pair **ret)
{
	struct sf_pair *found = NULL;

	for (size_t i = 0; i < sec->n_pairs; i++) {
		struct sf_pair *p = &sec->pairs[i];

		if (strcmp(p->key, key) != 0)
			continue;
		if (found)
			return sf_fail(ld->err, p->line, p->column, "'%s' is given twice in [%s]",
				       key, sec->name);
		found = p;
		p->used = true;
	}
	if (!found && required)
		return sf_fail(ld->err, sec->line, sec->column, "[%s] needs a '%s'", sec->name, key);
	*ret = found;
	return 0;
}

static int get_str(struct loader *ld, struct sf_section *sec, const char *key, bool required,
		   const char **ret)
{
	struct sf_pair *p;
	int r = find(ld, sec, key, required, &p);

	if (r == 0 && p)
		*ret = p->value;
	return r;
}

/* The value of p as an unsigned decimal integer <= max. */
static int pair_u64(struct loader *ld, const struct sf_pair *p, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;

	for (const char *c = p->value; *c; c++) {
		if (*c < '0' || *c > '9' || v > (UINT64_MAX - 9) / 10)
			return sf_fail(ld->err, p->line, p->value_column, "'%s' is a number of "
				       "decimal digits, not '%s'", p->key, p->value);
		v = v * 10 + (uint64_t)(*c - '0');
	}
	if (v > max)
		return sf_fail(ld->err, p->line, p->value_column, "'%s' is at most %" PRIu64,
			       p->key, max);
	*ret = v;
	return 0;
}

/* An unsigned decimal integer <= max; absent keeps *ret. */
static int get_u64(struct loader *ld, struct sf_section *sec, const char *key, uint64_t max,
		   uint64_t *ret)
{
	struct sf_pair *p;
	int r = find(ld, sec, key, false, &p);

	return r < 0 || !p ? r : pair_u64(ld, p, max, ret);
}

/*
 * One of the words of names (NULL-terminated): its index plus base in
 * *ret; absent keeps *ret (or is an error, if required).
 */
static int get_word(struct loader *ld, struct sf_section *sec, const char *key, bool required,
		    const char *const *names, int base, int *ret)
{
	struct sf_pair *p;
	int r = find(ld, sec, key, required, &p);
	char known[160] = "";

	if (r < 0 || !p)
		return r;
	for (int i = 0; names[i]; i++) {
		if (strcmp(p->value, names[i]) == 0) {
			*ret = base + i;
			return 0;
		}
		snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
			 i ? ", " : "", names[i]);
	}
	return sf_fail(ld->err, p->line, p->value_column, "'%s' is one of %s, not '%s'", key,
		       known, p->value);
}

static const char *const yes_no[] = { "no", "yes", NULL };

static int get_bool(struct loader *ld, struct sf_section *sec, const char *key, bool *ret)
{
	int v = *ret;
	int r = get_word(ld, sec, key, false, yes_no, 0, &v);

	*ret = v;
	return r;
}

/* The values of every `key` of sec, in order (into *ret, malloc'd; the strings are sec's). */
static int get_repeated(struct sf_section *sec, const char *key, const char ***ret, size_t *n)
{
	const char **list = calloc(sec->n_pairs + 1, sizeof(*list));

	if (!list)
		return -ENOMEM;
	*n = 0;
	for (size_t i = 0; i < sec->n_pairs; i++)
		if (strcmp(sec->pairs[i].key, key) == 0) {
			sec->pairs[i].used = true;
			list[(*n)++] = sec->pairs[i].value;
		}
	*ret = list;
	return 0;
}

/* A registry function refused what sec describes: say so at its line. */
static int refused(struct loader *ld, const struct sf_section *sec, int r, const char *detail)
{
	if (r == -ENOMEM)
		return r;
	return sf_fail(ld->err, sec->line, sec->column, "[%s]: %s%s%s", sec->name,
		       ltt_strerror(r), detail ? ": " : "", detail ? detail : "");
}

/* ---- [session] name output mode started ---- */

static const char *const modes[] = { "normal", "snapshot", NULL };

static void write_session(const struct reg_session *s, struct strbuf *sb)
{
	sf_write_section(sb, "session");
	sf_write_str(sb, "name", s->name);
	sf_write_str(sb, "output", s->output[0] ? s->output : "none");
	sf_write_str(sb, "mode", modes[s->snapshot]);
	sf_write_bool(sb, "started", s->active);
}

static int read_session(struct loader *ld, struct sf_section *sec)
{
	const char *name = NULL, *output = NULL, *detail = NULL;
	int mode = 0, r;

	if ((r = get_str(ld, sec, "name", true, &name)) < 0 ||
	    (r = get_str(ld, sec, "output", false, &output)) < 0 ||
	    (r = get_word(ld, sec, "mode", false, modes, 0, &mode)) < 0 ||
	    (r = get_bool(ld, sec, "started", &ld->started)) < 0)
		return r;
	if (ld->o->name)
		name = ld->o->name;
	if (ld->o->output)
		output = ld->o->output;
	r = registry_session_new(name, output && strcmp(output, "none") ? output : NULL,
				 output && !strcmp(output, "none"), mode == 1, &ld->s, &detail);
	return r < 0 ? refused(ld, sec, r, detail) : 0;
}

/* ---- [snapshot-output] id name path max-size ---- */

static void write_snapshot_output(const struct reg_session *s, struct strbuf *sb)
{
	const struct reg_snapshot_output *o = s->snapshot_output;

	if (!o)
		return;
	sf_write_section(sb, "snapshot-output");
	sf_write_u64(sb, "id", o->id);
	sf_write_str(sb, "name", o->name);
	sf_write_str(sb, "path", o->path);
	sf_write_u64(sb, "max-size", o->max_size);
}

static int read_snapshot_output(struct loader *ld, struct sf_section *sec)
{
	const char *name = NULL, *path = NULL, *detail = NULL;
	uint64_t id = 0, max_size = 0;
	int r;

	if ((r = get_u64(ld, sec, "id", UINT32_MAX - 1, &id)) < 0 ||
	    (r = get_str(ld, sec, "name", false, &name)) < 0 ||
	    (r = get_str(ld, sec, "path", true, &path)) < 0 ||
	    (r = get_u64(ld, sec, "max-size", UINT64_MAX, &max_size)) < 0)
		return r;
	r = registry_snapshot_output_add(ld->s, (uint32_t)id, name,
					 ld->o->output ? ld->o->output : path, max_size, NULL,
					 &detail);
	return r < 0 ? refused(ld, sec, r, detail) : 0;
}

/* ---- [rotation] timer-us size ---- */

static void write_rotation(const struct reg_session *s, struct strbuf *sb)
{
	if (!s->rotation.timer_us && !s->rotation.size)
		return;
	sf_write_section(sb, "rotation");
	sf_write_u64(sb, "timer-us", s->rotation.timer_us);
	sf_write_u64(sb, "size", s->rotation.size);
}

static int read_rotation(struct loader *ld, struct sf_section *sec)
{
	uint64_t timer = 0, size = 0;
	const char *detail = NULL;
	int r;

	if ((r = get_u64(ld, sec, "timer-us", UINT64_MAX / 1000, &timer)) < 0 ||
	    (r = get_u64(ld, sec, "size", UINT64_MAX, &size)) < 0)
		return r;
	r = chunk_schedule_set(ld->s, timer, size, &detail);
	return r < 0 ? refused(ld, sec, r, detail) : 0;
}

/* ---- [channel] domain name and every attribute ---- */

/* Words for enum values from 1 (word i is value i + 1). */
static const char *const domains[] = { "user", "kernel", NULL };
static const char *const buffer_schemes[] = { "per-uid", "per-pid", "global", NULL };
static const char *const loss_modes[] = { "discard", "overwrite", NULL };

static void write_channel(const struct reg_session *s, struct strbuf *sb)
{
	for (size_t i = 0; i < s->n_channels; i++) {
		const struct reg_channel *c = &s->channels[i];
		const struct ltt_channel_attr *a = &c->attr;

		sf_write_section(sb, "channel");
		sf_write_str(sb, "domain", domains[c->domain - 1]);
		sf_write_str(sb, "name", c->name);
		sf_write_str(sb, "event-loss-mode", loss_modes[a->overwrite]);
		sf_write_u64(sb, "subbuf-size", a->subbuf_size);
		sf_write_u64(sb, "num-subbuf", a->num_subbuf);
		sf_write_u64(sb, "switch-timer-us", a->switch_timer_us);
		sf_write_u64(sb, "read-timer-us", a->read_timer_us);
		if (a->blocking_timeout_us < 0)
			sf_write_str(sb, "blocking-timeout-us", "infinite");
		else
			sf_write_u64(sb, "blocking-timeout-us", (uint64_t)a->blocking_timeout_us);
		sf_write_str(sb, "buffers", buffer_schemes[a->buffers - 1]);
		sf_write_u64(sb, "tracefile-size", a->tracefile_size);
		sf_write_u64(sb, "tracefile-count", a->tracefile_count);
	}
}

/* blocking-timeout-us: "infinite" or a number of microseconds; absent keeps *ret. */
static int get_blocking(struct loader *ld, struct sf_section *sec, int64_t *ret)
{
	struct sf_pair *p;
	uint64_t v;
	int r = find(ld, sec, "blocking-timeout-us", false, &p);

	if (r < 0 || !p)
		return r;
	if (strcmp(p->value, "infinite") == 0)
		v = (uint64_t)-1;
	else if ((r = pair_u64(ld, p, INT64_MAX, &v)) < 0)
		return r;
	*ret = (int64_t)v;
	return 0;
}

static int read_channel(struct loader *ld, struct sf_section *sec)
{
	struct ltt_channel_attr a;
	const char *name = NULL, *detail = NULL;
	uint64_t num, count;
	int domain = 0, overwrite, buffers, r;

	if ((r = get_word(ld, sec, "domain", true, domains, 1, &domain)) < 0 ||
	    (r = get_str(ld, sec, "name", true, &name)) < 0)
		return r;
	ltt_channel_attr_init(&a, (enum ltt_domain)domain);
	overwrite = ld->s->snapshot;	/* the default, as enable-channel's */
	buffers = (int)a.buffers;
	num = a.num_subbuf;
	count = a.tracefile_count;
	if ((r = get_word(ld, sec, "event-loss-mode", false, loss_modes, 0, &overwrite)) < 0 ||
	    (r = get_u64(ld, sec, "subbuf-size", UINT64_MAX, &a.subbuf_size)) < 0 ||
	    (r = get_u64(ld, sec, "num-subbuf", UINT32_MAX, &num)) < 0 ||
	    (r = get_u64(ld, sec, "switch-timer-us", UINT64_MAX, &a.switch_timer_us)) < 0 ||
	    (r = get_u64(ld, sec, "read-timer-us", UINT64_MAX, &a.read_timer_us)) < 0 ||
	    (r = get_blocking(ld, sec, &a.blocking_timeout_us)) < 0 ||
	    (r = get_word(ld, sec, "buffers", false, buffer_schemes, 1, &buffers)) < 0 ||
	    (r = get_u64(ld, sec, "tracefile-size", UINT64_MAX, &a.tracefile_size)) < 0 ||
	    (r = get_u64(ld, sec, "tracefile-count", UINT32_MAX, &count)) < 0)
		return r;
	a.overwrite = overwrite;
	a.num_subbuf = (uint32_t)num;
	a.tracefile_count = (uint32_t)count;
	a.buffers = (enum ltt_buffers)buffers;
	r = registry_channel_add(ld->s, (enum ltt_domain)domain, name, &a, &detail);
	return r < 0 ? refused(ld, sec, r, detail) : 0;
}

/* ---- [event-rule] domain channel type pattern location loglevel exclude* filter enabled */

/* indexed by enum ltt_event_type - 1 */
static const char *const rule_types[] = { "tracepoint", "syscall", "function",
					   "userspace-probe", NULL };
static const char *const level_matches[] = { "all", "range", "single", NULL };

static void write_event_rule(const struct reg_session *s, struct strbuf *sb)
{
	for (size_t i = 0; i < s->n_channels; i++) {
		const struct reg_channel *c = &s->channels[i];

		for (size_t k = 0; k < c->n_rules; k++) {
			const struct reg_rule *r = &c->rules[k];

			sf_write_section(sb, "event-rule");
			sf_write_str(sb, "domain", domains[c->domain - 1]);
			sf_write_str(sb, "channel", c->name);
			sf_write_str(sb, "type", rule_types[r->type - 1]);
			sf_write_str(sb, "pattern", r->pattern);
			if (r->location)
				sf_write_str(sb, "location", r->location);
			sf_write_str(sb, "loglevel-match", level_matches[r->loglevel_match]);
			if (r->loglevel_match != LTT_LOGLEVEL_ALL)
				sf_write_u64(sb, "loglevel", (uint64_t)r->loglevel);
			for (size_t e = 0; e < r->n_exclusions; e++)
				sf_write_str(sb, "exclude", r->exclusions[e]);
			if (r->filter)
				sf_write_str(sb, "filter", r->filter);
			sf_write_bool(sb, "enabled", r->enabled);
		}
	}
}

/* The filter of sec does not compile: say so where it is written. */
static int refused_at_filter(struct loader *ld, struct sf_section *sec, int r, const char *detail)
{
	struct sf_pair *p = NULL;

	find(ld, sec, "filter", false, &p);
	return sf_fail(ld->err, p->line, p->value_column, "%s: %s", ltt_strerror(r), detail);
}

static int read_event_rule(struct loader *ld, struct sf_section *sec)
{
	struct ltt_event_rule e;
	const char *channel = NULL, *detail = NULL, **exclusions = NULL;
	struct reg_channel *c;
	bool enabled = true;
	uint64_t level = 0;
	int domain = 0, type = LTT_EVENT_TRACEPOINT, match = LTT_LOGLEVEL_ALL, r;

	ltt_event_rule_init(&e);
	if ((r = get_word(ld, sec, "domain", true, domains, 1, &domain)) < 0 ||
	    (r = get_str(ld, sec, "channel", true, &channel)) < 0 ||
	    (r = get_word(ld, sec, "type", false, rule_types, 1, &type)) < 0 ||
	    (r = get_str(ld, sec, "pattern", true, &e.pattern)) < 0 ||
	    (r = get_str(ld, sec, "location", false, &e.location)) < 0 ||
	    (r = get_word(ld, sec, "loglevel-match", false, level_matches, 0, &match)) < 0 ||
	    (r = get_u64(ld, sec, "loglevel", 14, &level)) < 0 ||
	    (r = get_str(ld, sec, "filter", false, &e.filter)) < 0 ||
	    (r = get_bool(ld, sec, "enabled", &enabled)) < 0 ||
	    (r = get_repeated(sec, "exclude", &exclusions, &e.n_exclusions)) < 0)
		return r;
	e.type = (enum ltt_event_type)type;
	e.loglevel_match = (enum ltt_loglevel_match)match;
	e.loglevel = (int)level;
	e.exclusions = exclusions;
	if (!(c = registry_channel_find(ld->s, (enum ltt_domain)domain, channel)))
		r = sf_fail(ld->err, sec->line, sec->column, "[event-rule]: no [channel] named "
			    "'%s' in the %s domain above", channel, domains[domain - 1]);
	else if ((r = registry_rule_enable(ld->s, (enum ltt_domain)domain, channel, &e, NULL,
					   &detail)) == -LTT_ERR_INVALID_FILTER)
		r = refused_at_filter(ld, sec, r, detail);
	else if (r < 0)
		r = refused(ld, sec, r, detail);
	else {
		c->rules[r].enabled = enabled;	/* r: the rule's index */
		r = 0;
	}
	free(exclusions);
	return r;
}

/* ---- [context] domain channel type+ ---- */

static void write_context(const struct reg_session *s, struct strbuf *sb)
{
	for (size_t i = 0; i < s->n_channels; i++) {
		const struct reg_channel *c = &s->channels[i];

		if (!c->n_contexts)
			continue;
		sf_write_section(sb, "context");
		sf_write_str(sb, "domain", domains[c->domain - 1]);
		sf_write_str(sb, "channel", c->name);
		for (size_t k = 0; k < c->n_contexts; k++)
			sf_write_str(sb, "type", proto_context_type(c->contexts[k])->name);
	}
}

static int read_context(struct loader *ld, struct sf_section *sec)
{
	const char *channel = NULL, *detail = NULL, **types = NULL;
	size_t n = 0;
	int domain = 0, r;

	if ((r = get_word(ld, sec, "domain", true, domains, 1, &domain)) < 0 ||
	    (r = get_str(ld, sec, "channel", true, &channel)) < 0 ||
	    (r = get_repeated(sec, "type", &types, &n)) < 0)
		return r;
	if (!registry_channel_find(ld->s, (enum ltt_domain)domain, channel))
		r = sf_fail(ld->err, sec->line, sec->column, "[context]: no [channel] named '%s' "
			    "in the %s domain above", channel, domains[domain - 1]);
	else if (n == 0)
		r = sf_fail(ld->err, sec->line, sec->column, "[context] needs a 'type'");
	else if ((r = context_add(ld->s, (enum ltt_domain)domain, channel, types, n,
				  &detail)) < 0)
		r = refused(ld, sec, r, detail);
	free(types);
	return r;
}

/* ---- [tracker] domain attribute (all = yes | value*) ---- */

/* Words for enum ltt_process_attr from 1. */
static const char *const process_attrs[] = { "pid", "vpid", "uid", "vuid", "gid", "vgid", NULL };

static void write_tracker(const struct reg_session *s, struct strbuf *sb)
{
	for (int d = LTT_DOMAIN_USER; d <= LTT_DOMAIN_KERNEL; d++)
		for (int a = LTT_PROCESS_ATTR_PID; a <= LTT_PROCESS_ATTR_VGID; a++) {
			const struct reg_tracker *t = &s->trackers[d][a];
			char v[24];

			if (t->all)
				continue;	/* the default */
			sf_write_section(sb, "tracker");
			sf_write_str(sb, "domain", domains[d - 1]);
			sf_write_str(sb, "attribute", process_attrs[a - 1]);
			for (size_t i = 0; i < t->n_values; i++) {
				snprintf(v, sizeof(v), "%" PRId64, t->values[i]);
				sf_write_str(sb, "value", v);
			}
		}
}

static int read_tracker(struct loader *ld, struct sf_section *sec)
{
	const char *detail = NULL, **texts = NULL;
	int64_t *values = NULL;
	size_t n = 0;
	int domain = 0, attr = 0, r;

	if ((r = get_word(ld, sec, "domain", true, domains, 1, &domain)) < 0 ||
	    (r = get_word(ld, sec, "attribute", true, process_attrs, 1, &attr)) < 0 ||
	    (r = get_repeated(sec, "value", &texts, &n)) < 0)
		return r;
	if (!tracker_attr_valid((enum ltt_domain)domain, (enum ltt_process_attr)attr)) {
		r = sf_fail(ld->err, sec->line, sec->column, "[tracker]: the %s domain does not "
			    "track '%s'", domains[domain - 1], process_attrs[attr - 1]);
		goto out;
	}
	if (n && !(values = calloc(n, sizeof(*values)))) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		char *end;

		values[i] = strtoll(texts[i], &end, 10);
		if (!texts[i][0] || *end) {
			r = sf_fail(ld->err, sec->line, sec->column, "[tracker]: 'value' is a "
				    "number, not '%s'", texts[i]);
			goto out;
		}
	}
	/* the section is the whole set: empty first, then its values */
	r = tracker_untrack(ld->s, (enum ltt_domain)domain, (enum ltt_process_attr)attr, NULL, 0,
			    &detail);
	if (r == 0 && n)
		r = tracker_track(ld->s, (enum ltt_domain)domain, (enum ltt_process_attr)attr,
				  values, n, &detail);
	if (r < 0)
		r = refused(ld, sec, r, detail);
out:
	free(values);
	free(texts);
	return r;
}

/*
 * Every kind of section, in the order they are written: one writer (writes
 * zero or more sections of its kind) and one reader (builds what one
 * section says into ld->s).
 */
static const struct {
	const char *name;
	bool repeatable;
	void (*write)(const struct reg_session *s, struct strbuf *sb);
	int (*read)(struct loader *ld, struct sf_section *sec);
} sections[] = {
	{ "session", false, write_session, read_session },
	{ "snapshot-output", false, write_snapshot_output, read_snapshot_output },
	{ "rotation", false, write_rotation, read_rotation },
	{ "channel", true, write_channel, read_channel },
	{ "event-rule", true, write_event_rule, read_event_rule },
	{ "context", true, write_context, read_context },
	{ "tracker", true, write_tracker, read_tracker },
};

#define N_SECTIONS (sizeof(sections) / sizeof(sections[0]))

/* ---- saving ---- */

int save_text(const struct reg_session *s, struct strbuf *sb)
{
	sf_write_header(sb, "ltt session configuration (ltt load); format: ltt-load(1)");
	for (size_t i = 0; i < N_SECTIONS; i++)
		sections[i].write(s, sb);
	return strbuf_error(sb);
}

/* DIR/NAME.ltt-session into buf. */
static int file_name(const char *dir, const char *name, char *buf, size_t size)
{
	return snprintf(buf, size, "%s/%s%s", dir, name, SAVE_SUFFIX) >= (int)size ? -ENAMETOOLONG
										    : 0;
}

bool save_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return file_name(dir, name, path, sizeof(path)) == 0 && access(path, F_OK) == 0;
}

int save_session(const struct reg_session *s, const char *dir, bool force, const char **detail)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	struct strbuf sb = { 0 };
	int fd, r;

	if (dir[0] != '/') {
		*detail = "the directory must be an absolute path";
		return -EINVAL;
	}
	if ((r = file_name(dir, s->name, path, sizeof(path))) < 0)
		return r;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!force && access(path, F_OK) == 0) {
		*detail = "use --force to replace it";
		return -LTT_ERR_SESSION_FILE_EXISTS;
	}
	if ((r = mkdir_p(dir, 0700)) < 0) {
		*detail = "cannot create the directory";
		return r;
	}
	if ((r = save_text(s, &sb)) < 0)
		goto out;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (fd < 0) {
		r = -errno;
		*detail = "cannot write the session file";
		goto out;
	}
	r = write_all(fd, strbuf_str(&sb), sb.len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		*detail = "cannot write the session file";
	}
out:
	strbuf_free(&sb);
	return r;
}

/* ---- loading ---- */

static int section_index(const char *name)
{
	for (size_t i = 0; i < N_SECTIONS; i++)
		if (strcmp(sections[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Reads every section of f in order into ld. */
static int build(struct loader *ld, struct sf_file *f)
{
	bool seen[N_SECTIONS] = { false };

	for (size_t i = 0; i < f->n_sections; i++) {
		struct sf_section *sec = &f->sections[i];
		int k = section_index(sec->name), r;

		if (k < 0)
			return sf_fail(ld->err, sec->line, sec->column + 1, "unknown section [%s] "
				       "(known: session, snapshot-output, rotation, channel, "
				       "event-rule)", sec->name);
		if (!ld->s && k != 0)
			return sf_fail(ld->err, sec->line, sec->column, "the first section is "
				       "[session]");
		if (seen[k] && !sections[k].repeatable)
			return sf_fail(ld->err, sec->line, sec->column, "[%s] is given twice",
				       sec->name);
		seen[k] = true;
		if ((r = sections[k].read(ld, sec)) < 0)
			return r;
		for (size_t p = 0; p < sec->n_pairs; p++)
			if (!sec->pairs[p].used)
				return sf_fail(ld->err, sec->pairs[p].line, sec->pairs[p].column,
					       "unknown key '%s' in [%s]", sec->pairs[p].key,
					       sec->name);
	}
	if (!ld->s)
		return sf_fail(ld->err, 0, 0, "no [session] section");
	return 0;
}

/* "ORIGIN:LINE:COLUMN: message" (or "ORIGIN: message") in a static buffer. */
static const char *where(const char *origin, const struct sf_error *e)
{
	static char text[PATH_MAX + 256];	/* the daemon is single-threaded */

	if (e->line)
		snprintf(text, sizeof(text), "%s:%u:%u: %s", origin, e->line, e->column, e->message);
	else
		snprintf(text, sizeof(text), "%s: %s", origin, e->message);
	return text;
}

int load_text(const char *text, size_t len, const char *origin, const struct load_overrides *o,
	      struct reg_session **ret, bool *started, const char **detail)
{
	static const struct load_overrides none = { 0 };
	struct sf_error err = { 0 };
	struct loader ld = { .o = o ? o : &none, .err = &err };
	struct sf_file f;
	int r = sf_parse(text, len, &f, &err);

	if (r == 0) {
		r = build(&ld, &f);
		sf_file_free(&f);
	}
	if (r == -ENOMEM) {
		registry_session_free(ld.s);
		return r;
	}
	if (r < 0) {
		registry_session_free(ld.s);
		*detail = where(origin, &err);
		return -LTT_ERR_SESSION_FILE;
	}
	*ret = ld.s;
	*started = ld.started;
	return 0;
}

int load_file(const char *path, const struct load_overrides *o, struct reg_session **ret,
	      bool *started, const char **detail)
{
	static char text[PATH_MAX + 64];	/* the daemon is single-threaded */
	struct stat st;
	char *buf = NULL;
	ssize_t got = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= SF_MAX_SIZE &&
	    (buf = malloc((size_t)st.st_size + 1)))
		got = read(fd, buf, (size_t)st.st_size + 1);
	if (got < 0 || got > st.st_size) {
		snprintf(text, sizeof(text), "%s: cannot read it: %s", path,
			 fd < 0 || got < 0 ? strerror(errno) : "not a small regular file");
		*detail = text;
		r = -LTT_ERR_SESSION_FILE;
	} else {
		r = load_text(buf, (size_t)got, path, o, ret, started, detail);
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return r;
}

void load_files_free(char **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

static int add_file(char ***files, size_t *n, const char *dir, const char *name)
{
	char **grown = realloc(*files, (*n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	*files = grown;
	if (name ? asprintf(&grown[*n], "%s/%s", dir, name) < 0
		 : !(grown[*n] = strdup(dir)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* Whether one of files already is a NAME.ltt-session file of the same NAME. */
static bool hidden(char **files, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(files[i], '/');

		if (strcmp(base ? base + 1 : files[i], name) == 0)
			return true;
	}
	return false;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every NAME.ltt-session of dir not hidden by an earlier one (owned by us, if owner_only). */
static int add_dir(char ***files, size_t *n, const char *dir, bool owner_only)
{
	struct dirent **entries;
	int count = scandir(dir, &entries, NULL, by_name), r = 0;

	if (count < 0)
		return 0;	/* a missing directory has no sessions */
	for (int i = 0; i < count; i++) {
		const char *name = entries[i]->d_name;
		size_t len = strlen(name), sfx = strlen(SAVE_SUFFIX);
		char path[PATH_MAX];
		struct stat st;

		if (r == 0 && len > sfx && strcmp(name + len - sfx, SAVE_SUFFIX) == 0 &&
		    !hidden(*files, *n, name) &&
		    snprintf(path, sizeof(path), "%s/%s", dir, name) < (int)sizeof(path) &&
		    stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    (!owner_only || st.st_uid == geteuid()))
			r = add_file(files, n, dir, name);
		free(entries[i]);
	}
	free(entries);
	return r;
}

int load_find(const char *const *paths, size_t n_paths, const char *name, bool owner_only,
	      char ***ret_files, size_t *ret_n, const char **detail)
{
	static char text[512];	/* the daemon is single-threaded */
	char **files = NULL, file[NAME_MAX + 1];
	size_t n = 0;
	int r = 0;

	if (name && snprintf(file, sizeof(file), "%s%s", name, SAVE_SUFFIX) >= (int)sizeof(file))
		return -ENAMETOOLONG;
	for (size_t i = 0; i < n_paths && r == 0 && !(name && n); i++) {
		struct stat st;

		if (stat(paths[i], &st) < 0)
			continue;
		if (!S_ISDIR(st.st_mode)) {
			r = add_file(&files, &n, paths[i], NULL);
		} else if (name) {
			char path[PATH_MAX];

			if (snprintf(path, sizeof(path), "%s/%s", paths[i], file) < (int)sizeof(path) &&
			    stat(path, &st) == 0 && S_ISREG(st.st_mode))
				r = add_file(&files, &n, paths[i], file);
		} else {
			r = add_dir(&files, &n, paths[i], owner_only);
		}
	}
	if (r == 0 && n == 0) {
		size_t len = (size_t)snprintf(text, sizeof(text), "no %s in", name ? file
										: "session file");

		for (size_t i = 0; i < n_paths && len < sizeof(text); i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s %s",
						i ? "," : "", paths[i]);
		*detail = text;
		r = -LTT_ERR_SESSION_FILE_NOT_FOUND;
	}
	if (r < 0) {
		load_files_free(files, n);
		return r;
	}
	*ret_files = files;
	*ret_n = n;
	return 0;
}
