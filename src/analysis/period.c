/* period.c - `ltt analyze period`: durations between begin and end events. */
#include "analysis.h"
#include "analysis-internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Open begins: a key (text) to its timestamp; open addressing, tombstones. */
struct open_tab {
	struct slot { char *key; int64_t ns; bool used, dead; } *s;
	size_t cap, n, dead;
};

static struct slot *tab_find(struct open_tab *t, const char *key, bool *found)
{
	struct slot *tomb = NULL;

	*found = false;
	for (uint64_t i = an_hash(key);; i++) {
		struct slot *s = &t->s[i & (t->cap - 1)];

		if (!s->used)
			return tomb ? tomb : s;
		if (s->dead) {
			if (!tomb)
				tomb = s;
			continue;
		}
		if (!strcmp(s->key, key)) {
			*found = true;
			return s;
		}
	}
}

static int tab_grow(struct open_tab *t)
{
	struct open_tab nt = { .cap = t->cap ? t->cap * 2 : 64 };

	if (t->cap && (t->n + 1) * 2 < t->cap)
		nt.cap = t->cap;	/* only tombstones to drop */
	nt.s = calloc(nt.cap, sizeof(*nt.s));
	if (!nt.s)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		bool f;

		if (t->s[i].used && !t->s[i].dead) {
			struct slot *d = tab_find(&nt, t->s[i].key, &f);

			*d = t->s[i];
			nt.n++;
		}
	}
	free(t->s);
	*t = nt;
	return 0;
}

static void tab_free(struct open_tab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		if (t->s[i].used && !t->s[i].dead)
			free(t->s[i].key);
	free(t->s);
}

/* The key field's value as text, or false if the event has no such field. */
static bool key_text(const struct ltt_event *ev, const char *field, char *buf, size_t len)
{
	const struct ltt_value *v = ltt_event_field(ev, field);
	size_t sl;
	const char *s;

	if (!v)
		return false;
	switch (ltt_value_kind(v)) {
	case LTT_VALUE_SIGNED:
	case LTT_VALUE_ENUM_SIGNED:
		snprintf(buf, len, "i%" PRId64, ltt_value_i64(v));
		return true;
	case LTT_VALUE_UNSIGNED:
	case LTT_VALUE_ENUM_UNSIGNED:
		snprintf(buf, len, "i%" PRIu64, ltt_value_u64(v));
		return true;
	case LTT_VALUE_STRING:
		s = ltt_value_string(v, &sl);
		snprintf(buf, len, "s%.*s", (int)(sl < len - 2 ? sl : len - 2), s);
		return true;
	default:
		return false;
	}
}

/* Adds a pair's duration d to res->durations (n of cap) and to *sum; 0 or -ENOMEM. */
static int add_duration(struct an_period *res, size_t *n, size_t *cap, long double *sum, uint64_t d)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		uint64_t *g = realloc(res->durations, c * sizeof(*g));

		if (!g)
			return -ENOMEM;
		res->durations = g;
		*cap = c;
	}
	res->durations[(*n)++] = d;
	*sum += d;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted d[n]. */
static uint64_t pct(const uint64_t *d, size_t n, unsigned p)
{
	size_t rank = (size_t)(((unsigned __int128)n * p + 99) / 100);

	return d[rank ? rank - 1 : 0];
}

int an_period_run(struct ltt_reader *r, const char *begin, const char *end,
		  const char *key_field, struct an_period *res)
{
	struct open_tab tab = { 0 };
	int64_t *stack = NULL;
	size_t nstack = 0, capstack = 0, n = 0, cap = 0;
	const struct ltt_event *ev;
	long double sum = 0;
	int ret;

	memset(res, 0, sizeof(*res));
	while ((ret = ltt_reader_next(r, &ev)) > 0) {
		const char *name;
		bool is_begin, is_end;
		char key[256];

		if (ret != LTT_RECORD_EVENT || !ltt_event_has_time(ev))
			continue;
		name = ltt_event_name(ev);
		is_begin = !strcmp(name, begin);
		is_end = !strcmp(name, end);
		if (!is_begin && !is_end)
			continue;
		if (key_field) {
			if (!key_text(ev, key_field, key, sizeof(key))) {
				if (is_begin)
					res->unmatched_begin++;
				else
					res->unmatched_end++;
				continue;
			}
			if ((tab.n + tab.dead + 1) * 2 > tab.cap && tab_grow(&tab) < 0) {
				ret = -ENOMEM;
				goto out;
			}
		}
		if (is_end) {
			/* the begin it closes: the open one of its key, or the latest */
			bool matched = false;
			uint64_t d = 0;

			if (key_field) {
				bool found;
				struct slot *s = tab_find(&tab, key, &found);

				if (found) {
					d = (uint64_t)(ltt_event_ns(ev) - s->ns);
					free(s->key);
					s->key = NULL;
					s->dead = true;
					tab.n--;
					tab.dead++;
					matched = true;
				}
			} else if (nstack) {
				d = (uint64_t)(ltt_event_ns(ev) - stack[--nstack]);
				matched = true;
			}
			if (matched && add_duration(res, &n, &cap, &sum, d) < 0) {
				ret = -ENOMEM;
				goto out;
			}
			if (!matched && !is_begin)
				res->unmatched_end++;
			if (!is_begin)
				continue;
		}
		/* a begin (an event both begin and end opens the next period) */
		if (key_field) {
			bool found;
			struct slot *s = tab_find(&tab, key, &found);

			if (found) {
				/* a second begin for an open key: the first is lost */
				res->unmatched_begin++;
				s->ns = ltt_event_ns(ev);
				continue;
			}
			if (s->dead)
				tab.dead--;
			s->key = strdup(key);
			if (!s->key) {
				s->used = s->dead = false;
				ret = -ENOMEM;
				goto out;
			}
			s->used = true;
			s->dead = false;
			s->ns = ltt_event_ns(ev);
			tab.n++;
			continue;
		}
		if (nstack == capstack) {
			size_t c = capstack ? capstack * 2 : 64;
			int64_t *g = realloc(stack, c * sizeof(*g));

			if (!g) {
				ret = -ENOMEM;
				goto out;
			}
			stack = g;
			capstack = c;
		}
		stack[nstack++] = ltt_event_ns(ev);
	}
	if (ret < 0) {
		ret = -EBADMSG;
		goto out;
	}
	res->unmatched_begin += key_field ? tab.n : nstack;
	res->count = n;
	if (n) {
		qsort(res->durations, n, sizeof(*res->durations), cmp_u64);
		res->min = res->durations[0];
		res->max = res->durations[n - 1];
		res->p50 = pct(res->durations, n, 50);
		res->p90 = pct(res->durations, n, 90);
		res->p99 = pct(res->durations, n, 99);
		res->mean = (double)(sum / n);
	}
	ret = 0;
out:
	tab_free(&tab);
	free(stack);
	if (ret < 0)
		an_period_free(res);
	return ret;
}

void an_period_print(const struct an_period *res, const char *begin, const char *end,
		     const char *key_field, bool json, FILE *out)
{
	if (json) {
		fprintf(out, "{\"begin\": \"%s\", \"end\": \"%s\", \"key\": %s%s%s, \"count\": %" PRIu64
			", \"min_ns\": %" PRIu64 ", \"mean_ns\": %.3f, \"p50_ns\": %" PRIu64
			", \"p90_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64
			", \"unmatched_begin\": %" PRIu64 ", \"unmatched_end\": %" PRIu64 "}\n",
			begin, end, key_field ? "\"" : "", key_field ? key_field : "null",
			key_field ? "\"" : "", res->count, res->min, res->mean, res->p50, res->p90,
			res->p99, res->max, res->unmatched_begin, res->unmatched_end);
		return;
	}
	fprintf(out, "period %s -> %s%s%s\n", begin, end, key_field ? " by " : "",
		key_field ? key_field : "");
	fprintf(out, "%10s %14s %16s %14s %14s %14s %14s\n", "count", "min (ns)", "mean (ns)",
		"p50 (ns)", "p90 (ns)", "p99 (ns)", "max (ns)");
	fprintf(out, "%10" PRIu64 " %14" PRIu64 " %16.3f %14" PRIu64 " %14" PRIu64 " %14" PRIu64
		" %14" PRIu64 "\n", res->count, res->min, res->mean, res->p50, res->p90, res->p99,
		res->max);
	if (res->unmatched_begin || res->unmatched_end)
		fprintf(out, "unmatched: %" PRIu64 " begin, %" PRIu64 " end\n", res->unmatched_begin,
			res->unmatched_end);
}

void an_period_free(struct an_period *res)
{
	free(res->durations);
	memset(res, 0, sizeof(*res));
}
