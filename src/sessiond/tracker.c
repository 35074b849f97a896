/* tracker.c - process attribute inclusion sets; see tracker.h. */
#include "tracker.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool tracker_attr_valid(enum ltt_domain domain, enum ltt_process_attr attr)
{
	if (attr < LTT_PROCESS_ATTR_PID || attr > LTT_PROCESS_ATTR_VGID)
		return false;
	if (domain == LTT_DOMAIN_KERNEL)
		return attr == LTT_PROCESS_ATTR_PID;	/* tracefs' set_event_pid */
	return domain == LTT_DOMAIN_USER &&
	       (attr == LTT_PROCESS_ATTR_VPID || attr == LTT_PROCESS_ATTR_VUID ||
		attr == LTT_PROCESS_ATTR_VGID);
}

const struct reg_tracker *tracker_get(const struct reg_session *s, enum ltt_domain domain,
				      enum ltt_process_attr attr)
{
	return &s->trackers[domain][attr];
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static bool set_has(const struct reg_tracker *t, int64_t v)
{
	return t->n_values && bsearch(&v, t->values, t->n_values, sizeof(v), cmp_i64);
}

/* The first value given twice in values[0..n), or NULL. */
static const int64_t *first_duplicate(const int64_t *values, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < i; k++)
			if (values[k] == values[i])
				return &values[i];
	return NULL;
}

/* "value 42": the detail of an error about one value (the daemon is single-threaded). */
static const char *value_detail(const char *what, int64_t v)
{
	static char text[96];

	snprintf(text, sizeof(text), "%s %lld", what, (long long)v);
	return text;
}

int tracker_track(struct reg_session *s, enum ltt_domain domain, enum ltt_process_attr attr,
		  const int64_t *values, size_t n, const char **detail)
{
	struct reg_tracker *t = &s->trackers[domain][attr];
	const int64_t *dup = first_duplicate(values, n);
	size_t base = t->all ? 0 : t->n_values;
	int64_t *grown;

	if (n == 0) {
		free(t->values);
		*t = (struct reg_tracker){ .all = true };
		return 0;
	}
	if (dup) {
		*detail = value_detail("given twice:", *dup);
		return -LTT_ERR_ID_TRACKED;
	}
	for (size_t i = 0; !t->all && i < n; i++)
		if (set_has(t, values[i])) {
			*detail = value_detail("already tracked:", values[i]);
			return -LTT_ERR_ID_TRACKED;
		}
	grown = realloc(t->all ? NULL : t->values, (base + n) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	if (t->all)
		free(t->values);
	memcpy(grown + base, values, n * sizeof(*values));
	qsort(grown, base + n, sizeof(*grown), cmp_i64);
	*t = (struct reg_tracker){ .values = grown, .n_values = base + n };
	return 0;
}

int tracker_untrack(struct reg_session *s, enum ltt_domain domain, enum ltt_process_attr attr,
		    const int64_t *values, size_t n, const char **detail)
{
	struct reg_tracker *t = &s->trackers[domain][attr];
	const int64_t *dup = first_duplicate(values, n);
	size_t kept = 0;

	if (n == 0) {
		free(t->values);
		*t = (struct reg_tracker){ .all = false };
		return 0;
	}
	if (t->all) {
		*detail = "the set includes every value: untrack --all first, or track values";
		return -LTT_ERR_ID_NOT_TRACKED;
	}
	if (dup) {
		*detail = value_detail("given twice:", *dup);
		return -LTT_ERR_ID_NOT_TRACKED;
	}
	for (size_t i = 0; i < n; i++)
		if (!set_has(t, values[i])) {
			*detail = value_detail("not tracked:", values[i]);
			return -LTT_ERR_ID_NOT_TRACKED;
		}
	for (size_t i = 0; i < t->n_values; i++) {
		bool removed = false;

		for (size_t k = 0; k < n && !removed; k++)
			removed = t->values[i] == values[k];
		if (!removed)
			t->values[kept++] = t->values[i];
	}
	t->n_values = kept;
	return 0;
}

bool tracker_includes(const struct reg_session *s, enum ltt_domain domain,
		      enum ltt_process_attr attr, int64_t v)
{
	const struct reg_tracker *t = &s->trackers[domain][attr];

	return t->all || set_has(t, v);
}

bool tracker_tracks_app(const struct reg_session *s, int64_t vpid, int64_t vuid, int64_t vgid)
{
	return tracker_includes(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VPID, vpid) &&
	       tracker_includes(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VUID, vuid) &&
	       tracker_includes(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VGID, vgid);
}
