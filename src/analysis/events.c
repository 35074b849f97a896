/* events.c - `ltt analyze events`: counts per name, per CPU, per second, losses. */
#include "analysis.h"
#include "analysis-internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NSEC_PER_SEC 1000000000LL
#define MAX_SECONDS (1u << 24)	/* per-second histogram bound: 194 days */

/* A small open-addressing table from a name to its index in an array. */
struct index {
	size_t *slots;		/* index + 1, 0 = empty */
	size_t cap;
};

static int counts_add(struct an_count **arr, size_t *n, struct index *ix, const char *key,
		      int64_t num, uint64_t add)
{
	size_t i, mask;

	if (*n * 2 >= ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 64;
		size_t *slots = calloc(cap, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (size_t k = 0; k < *n; k++) {
			i = an_hash((*arr)[k].key) ^ (uint64_t)(*arr)[k].num;
			while (slots[i & (cap - 1)])
				i++;
			slots[i & (cap - 1)] = k + 1;
		}
		free(ix->slots);
		ix->slots = slots;
		ix->cap = cap;
	}
	mask = ix->cap - 1;
	for (i = an_hash(key) ^ (uint64_t)num; ix->slots[i & mask]; i++) {
		struct an_count *c = &(*arr)[ix->slots[i & mask] - 1];

		if (c->num == num && !strcmp(c->key, key)) {
			c->count = add == UINT64_MAX || c->count == UINT64_MAX ? UINT64_MAX : c->count + add;
			return 0;
		}
	}
	{
		struct an_count *g = realloc(*arr, (*n + 1) * sizeof(*g));

		if (!g)
			return -ENOMEM;
		*arr = g;
		g[*n].key = strdup(key);
		if (!g[*n].key)
			return -ENOMEM;
		g[*n].num = num;
		g[*n].count = add;
		ix->slots[i & mask] = ++*n;
	}
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct an_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->key, y->key);
}

static int by_num(const void *a, const void *b)
{
	const struct an_count *x = a, *y = b;

	return x->num < y->num ? -1 : x->num > y->num;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct an_count *)a)->key, ((const struct an_count *)b)->key);
}

int an_events_run(struct ltt_reader *r, struct an_events *res)
{
	struct index names = { 0 }, cpus = { 0 }, disc = { 0 };
	const struct ltt_event *ev;
	size_t cap_sec = 0;
	int ret;

	memset(res, 0, sizeof(*res));
	res->first_ns = INT64_MAX;
	res->last_ns = INT64_MIN;
	while ((ret = ltt_reader_next(r, &ev)) > 0) {
		if (ret != LTT_RECORD_EVENT) {
			char key[64];
			int64_t b, e;
			int has;
			uint64_t n = ltt_event_discarded(ev, &b, &e, &has);

			if (ret != LTT_RECORD_DISCARDED_EVENTS)
				continue;
			snprintf(key, sizeof(key), "%" PRIu64 "/%" PRIu64,
				 ltt_event_stream_class_id(ev), ltt_event_stream_id(ev));
			ret = counts_add(&res->discarded, &res->ndiscarded, &disc, key, 0, n);
			if (ret < 0)
				goto out;
			continue;
		}
		res->total++;
		ret = counts_add(&res->names, &res->nnames, &names, ltt_event_name(ev), 0, 1);
		if (ret == 0)
			ret = counts_add(&res->cpus, &res->ncpus, &cpus, "", ltt_event_cpu(ev), 1);
		if (ret < 0)
			goto out;
		if (ltt_event_has_time(ev)) {
			int64_t ns = ltt_event_ns(ev);
			uint64_t sec;

			if (res->first_ns == INT64_MAX)
				res->first_ns = ns;
			if (ns > res->last_ns)
				res->last_ns = ns;
			sec = ns >= res->first_ns ? (uint64_t)(ns - res->first_ns) / NSEC_PER_SEC : 0;
			if (sec < MAX_SECONDS) {
				if (sec >= cap_sec) {
					size_t cap = cap_sec ? cap_sec : 64;
					uint64_t *g;

					while (cap <= sec)
						cap *= 2;
					g = realloc(res->per_second, cap * sizeof(*g));
					if (!g) {
						ret = -ENOMEM;
						goto out;
					}
					memset(g + cap_sec, 0, (cap - cap_sec) * sizeof(*g));
					res->per_second = g;
					cap_sec = cap;
				}
				res->per_second[sec]++;
				if (sec + 1 > res->nseconds)
					res->nseconds = sec + 1;
			}
		}
	}
	if (ret < 0) {
		ret = -EBADMSG;
		goto out;
	}
	qsort(res->names, res->nnames, sizeof(*res->names), by_count);
	qsort(res->cpus, res->ncpus, sizeof(*res->cpus), by_num);
	qsort(res->discarded, res->ndiscarded, sizeof(*res->discarded), by_key);
	ret = 0;
out:
	free(names.slots);
	free(cpus.slots);
	free(disc.slots);
	if (ret < 0)
		an_events_free(res);
	return ret;
}

static double duration_s(const struct an_events *res)
{
	return res->last_ns > res->first_ns ? (double)(res->last_ns - res->first_ns) / 1e9 : 0;
}

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void an_events_print(const struct an_events *res, bool json, FILE *out)
{
	double d = duration_s(res);

	if (json) {
		fprintf(out, "{\"total\": %" PRIu64 ", \"duration_s\": %.9f, \"names\": [", res->total, d);
		for (size_t i = 0; i < res->nnames; i++) {
			fprintf(out, "%s{\"name\": ", i ? ", " : "");
			json_str(out, res->names[i].key);
			fprintf(out, ", \"count\": %" PRIu64 ", \"rate\": %.3f}", res->names[i].count,
				d > 0 ? (double)res->names[i].count / d : 0.0);
		}
		fprintf(out, "], \"cpus\": [");
		for (size_t i = 0; i < res->ncpus; i++)
			fprintf(out, "%s{\"cpu\": %" PRId64 ", \"count\": %" PRIu64 "}", i ? ", " : "",
				res->cpus[i].num, res->cpus[i].count);
		fprintf(out, "], \"per_second\": [");
		for (size_t i = 0; i < res->nseconds; i++)
			fprintf(out, "%s%" PRIu64, i ? ", " : "", res->per_second[i]);
		fprintf(out, "], \"discarded\": [");
		for (size_t i = 0; i < res->ndiscarded; i++) {
			fprintf(out, "%s{\"stream\": ", i ? ", " : "");
			json_str(out, res->discarded[i].key);
			if (res->discarded[i].count == UINT64_MAX)
				fprintf(out, ", \"count\": null}");
			else
				fprintf(out, ", \"count\": %" PRIu64 "}", res->discarded[i].count);
		}
		fprintf(out, "]}\n");
		return;
	}
	fprintf(out, "%" PRIu64 " events in %.9f s\n\n", res->total, d);
	fprintf(out, "%-40s %12s %14s\n", "event", "count", "per second");
	for (size_t i = 0; i < res->nnames; i++)
		fprintf(out, "%-40s %12" PRIu64 " %14.3f\n", res->names[i].key, res->names[i].count,
			d > 0 ? (double)res->names[i].count / d : 0.0);
	fprintf(out, "\n%-6s %12s\n", "cpu", "count");
	for (size_t i = 0; i < res->ncpus; i++) {
		if (res->cpus[i].num < 0)
			fprintf(out, "%-6s %12" PRIu64 "\n", "-", res->cpus[i].count);
		else
			fprintf(out, "%-6" PRId64 " %12" PRIu64 "\n", res->cpus[i].num, res->cpus[i].count);
	}
	fprintf(out, "\n%-8s %12s\n", "second", "count");
	for (size_t i = 0; i < res->nseconds; i++)
		fprintf(out, "%-8zu %12" PRIu64 "\n", i, res->per_second[i]);
	fprintf(out, "\n%-24s %12s\n", "stream (class/id)", "discarded");
	if (!res->ndiscarded)
		fprintf(out, "%-24s %12s\n", "(none)", "0");
	for (size_t i = 0; i < res->ndiscarded; i++) {
		if (res->discarded[i].count == UINT64_MAX)
			fprintf(out, "%-24s %12s\n", res->discarded[i].key, "unknown");
		else
			fprintf(out, "%-24s %12" PRIu64 "\n", res->discarded[i].key, res->discarded[i].count);
	}
}

void an_events_free(struct an_events *res)
{
	for (size_t i = 0; i < res->nnames; i++)
		free(res->names[i].key);
	for (size_t i = 0; i < res->ncpus; i++)
		free(res->cpus[i].key);
	for (size_t i = 0; i < res->ndiscarded; i++)
		free(res->discarded[i].key);
	free(res->names);
	free(res->cpus);
	free(res->discarded);
	free(res->per_second);
	memset(res, 0, sizeof(*res));
}
