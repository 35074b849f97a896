/*
 * kernel.c - `ltt analyze syscalls` and `ltt analyze irq`: durations of
 * system calls and interrupt handlers, from LTTng's kernel event names.
 */
#include "analysis.h"
#include "analysis-internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS 4096

/* In-flight entries: a small map from a (kind, id, sub) key to a timestamp. */
struct open_entry {
	uint64_t key, sub;
	int64_t ns;
	int64_t val;		/* process: the thread on the CPU */
	char name[64];
};

struct open_set {
	struct open_entry *e;
	size_t n, cap;
};

static struct open_entry *open_find(struct open_set *s, uint64_t key, uint64_t sub)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->e[i].key == key && s->e[i].sub == sub)
			return &s->e[i];
	return NULL;
}

static struct open_entry *open_add(struct open_set *s, uint64_t key, uint64_t sub)
{
	struct open_entry *e = open_find(s, key, sub);

	if (e)
		return e;	/* a new entry replaces a lost one */
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct open_entry *g = realloc(s->e, cap * sizeof(*g));

		if (!g)
			return NULL;
		s->e = g;
		s->cap = cap;
	}
	e = &s->e[s->n++];
	e->key = key;
	e->sub = sub;
	return e;
}

static void open_del(struct open_set *s, struct open_entry *e)
{
	*e = s->e[--s->n];
}

static int row_add(struct an_kernel *res, const char *name, uint64_t d, bool error)
{
	struct an_latency *row = NULL;

	for (size_t i = 0; i < res->nrows; i++)
		if (!strcmp(res->rows[i].name, name))
			row = &res->rows[i];
	if (!row) {
		struct an_latency *g = realloc(res->rows, (res->nrows + 1) * sizeof(*g));

		if (!g)
			return -ENOMEM;
		res->rows = g;
		row = &g[res->nrows];
		memset(row, 0, sizeof(*row));
		row->name = strdup(name);
		if (!row->name)
			return -ENOMEM;
		row->min = UINT64_MAX;
		res->nrows++;
	}
	row->count++;
	row->errors += error;
	row->total += d;
	if (d < row->min)
		row->min = d;
	if (d > row->max)
		row->max = d;
	return 0;
}

static int by_total(const void *a, const void *b)
{
	const struct an_latency *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void finish(struct an_kernel *res)
{
	for (size_t i = 0; i < res->nrows; i++)
		res->rows[i].mean = (double)res->rows[i].total / (double)res->rows[i].count;
	qsort(res->rows, res->nrows, sizeof(*res->rows), by_total);
}

/* What an analysis does with a timed event: 0, or -ENOMEM. */
typedef int (*on_event_fn)(const struct ltt_event *ev, struct open_set *open,
			   struct an_kernel *res, void *ctx);

/*
 * Reads r to its end, each timed event to fn, then finishes res: 0,
 * -ENOMEM (fn's), or -EBADMSG (the reader's). res is freed on failure.
 */
static int run_events(struct ltt_reader *r, struct an_kernel *res, on_event_fn fn, void *ctx)
{
	struct open_set open = { 0 };
	const struct ltt_event *ev;
	int ret;

	memset(res, 0, sizeof(*res));
	while ((ret = ltt_reader_next(r, &ev)) > 0) {
		if (ret != LTT_RECORD_EVENT || !ltt_event_has_time(ev))
			continue;
		ret = fn(ev, &open, res, ctx);
		if (ret < 0)
			break;
	}
	if (ret == 0)
		finish(res);
	else if (ret != -ENOMEM)
		ret = -EBADMSG;		/* the reader failed */
	free(open.e);
	if (ret < 0)
		an_kernel_free(res);
	return ret;
}

static bool field_int(const struct ltt_event *ev, const char *name, int64_t *out)
{
	const struct ltt_value *v = ltt_event_field(ev, name);

	if (!v)
		return false;
	switch (ltt_value_kind(v)) {
	case LTT_VALUE_SIGNED:
	case LTT_VALUE_ENUM_SIGNED:
		*out = ltt_value_i64(v);
		return true;
	case LTT_VALUE_UNSIGNED:
	case LTT_VALUE_ENUM_UNSIGNED:
		*out = (int64_t)ltt_value_u64(v);
		return true;
	default:
		return false;
	}
}

/* syscalls: ctx is the thread on each CPU (from sched_switch), -1 if unknown */
static int syscall_event(const struct ltt_event *ev, struct open_set *open, struct an_kernel *res,
			 void *ctx)
{
	int64_t *cur_tid = ctx;
	const char *name = ltt_event_name(ev), *sys;
	int64_t cpu = ltt_event_cpu(ev), tid, v, rv = 0;
	bool entry;
	uint64_t who;
	struct open_entry *e;
	int ret;

	if (!strcmp(name, "sched_switch")) {
		if (cpu >= 0 && cpu < MAX_CPUS && field_int(ev, "next_tid", &v))
			cur_tid[cpu] = v;
		return 0;
	}
	if (!strncmp(name, "compat_", 7))
		name += 7;
	if (!strncmp(name, "syscall_entry_", 14)) {
		entry = true;
		sys = name + 14;
	} else if (!strncmp(name, "syscall_exit_", 13)) {
		entry = false;
		sys = name + 13;
	} else {
		return 0;
	}
	if (field_int(ev, "tid", &tid))
		who = (uint64_t)tid;
	else if (cpu >= 0 && cpu < MAX_CPUS && cur_tid[cpu] >= 0)
		who = (uint64_t)cur_tid[cpu];
	else
		who = (UINT64_C(1) << 63) | (uint64_t)cpu;
	if (entry) {
		e = open_add(open, who, an_hash(sys));
		if (!e)
			return -ENOMEM;
		e->ns = ltt_event_ns(ev);
		snprintf(e->name, sizeof(e->name), "%s", sys);
		return 0;
	}
	e = open_find(open, who, an_hash(sys));
	if (!e) {
		res->unmatched++;
		return 0;
	}
	field_int(ev, "ret", &rv);
	ret = row_add(res, e->name, (uint64_t)(ltt_event_ns(ev) - e->ns), rv < 0);
	open_del(open, e);
	return ret;
}

int an_syscalls_run(struct ltt_reader *r, struct an_kernel *res)
{
	int64_t *cur_tid = malloc(MAX_CPUS * sizeof(*cur_tid));
	int ret;

	if (!cur_tid)
		return -ENOMEM;
	for (int i = 0; i < MAX_CPUS; i++)
		cur_tid[i] = -1;
	ret = run_events(r, res, syscall_event, cur_tid);
	free(cur_tid);
	return ret;
}

static int irq_event(const struct ltt_event *ev, struct open_set *open, struct an_kernel *res,
		     void *ctx)
{
	const char *name = ltt_event_name(ev);
	int64_t cpu = ltt_event_cpu(ev), n;
	bool hard, entry;
	struct open_entry *e;
	int ret;

	(void)ctx;
	if (!strcmp(name, "irq_handler_entry") || !strcmp(name, "irq_handler_exit")) {
		hard = true;
		if (!field_int(ev, "irq", &n))
			return 0;
	} else if (!strcmp(name, "irq_softirq_entry") || !strcmp(name, "irq_softirq_exit")) {
		hard = false;
		if (!field_int(ev, "vec", &n))
			return 0;
	} else {
		return 0;
	}
	entry = name[12] == 'e' && name[13] == 'n';
	if (entry) {
		const struct ltt_value *nm = ltt_event_field(ev, "name");
		size_t len = 0;
		const char *s = nm ? ltt_value_string(nm, &len) : NULL;

		e = open_add(open, (uint64_t)cpu, (uint64_t)n << 1 | hard);
		if (!e)
			return -ENOMEM;
		e->ns = ltt_event_ns(ev);
		if (hard && s)
			snprintf(e->name, sizeof(e->name), "irq %" PRId64 " (%.*s)", n, (int)len, s);
		else
			snprintf(e->name, sizeof(e->name), "%s %" PRId64, hard ? "irq" : "softirq", n);
		return 0;
	}
	e = open_find(open, (uint64_t)cpu, (uint64_t)n << 1 | hard);
	if (!e) {
		res->unmatched++;
		return 0;
	}
	ret = row_add(res, e->name, (uint64_t)(ltt_event_ns(ev) - e->ns), false);
	open_del(open, e);
	return ret;
}

int an_irq_run(struct ltt_reader *r, struct an_kernel *res)
{
	return run_events(r, res, irq_event, NULL);
}

static void field_str(const struct ltt_event *ev, const char *name, char *buf, size_t len)
{
	const struct ltt_value *v = ltt_event_field(ev, name);
	size_t sl = 0;
	const char *str = v ? ltt_value_string(v, &sl) : NULL;

	snprintf(buf, len, "%.*s", str ? (int)sl : 1, str ? str : "?");
}

static int sched_latency_event(const struct ltt_event *ev, struct open_set *open,
			       struct an_kernel *res, void *ctx)
{
	const char *name = ltt_event_name(ev);
	struct open_entry *e;
	int64_t tid;
	int ret;

	(void)ctx;
	if (!strcmp(name, "sched_wakeup") || !strcmp(name, "sched_wakeup_new")) {
		if (!field_int(ev, "tid", &tid) || open_find(open, (uint64_t)tid, 0))
			return 0;	/* already runnable: the first wakeup counts */
		e = open_add(open, (uint64_t)tid, 0);
		if (!e)
			return -ENOMEM;
		e->ns = ltt_event_ns(ev);
		field_str(ev, "comm", e->name, sizeof(e->name));
		return 0;
	}
	if (strcmp(name, "sched_switch") || !field_int(ev, "next_tid", &tid))
		return 0;
	e = open_find(open, (uint64_t)tid, 0);
	if (!e)
		return 0;
	ret = row_add(res, e->name, (uint64_t)(ltt_event_ns(ev) - e->ns), false);
	open_del(open, e);
	return ret;
}

int an_sched_latency_run(struct ltt_reader *r, struct an_kernel *res)
{
	return run_events(r, res, sched_latency_event, NULL);
}

static int process_event(const struct ltt_event *ev, struct open_set *open, struct an_kernel *res,
			 void *ctx)
{
	struct open_entry *e;
	int64_t prev, next, cpu = ltt_event_cpu(ev);
	char comm[40];

	(void)ctx;
	if (strcmp(ltt_event_name(ev), "sched_switch") || !field_int(ev, "prev_tid", &prev) ||
	    !field_int(ev, "next_tid", &next))
		return 0;
	e = open_find(open, (uint64_t)cpu, 0);
	if (e && e->val == prev &&
	    row_add(res, e->name, (uint64_t)(ltt_event_ns(ev) - e->ns), true) < 0)
		return -ENOMEM;
	if (e)
		open_del(open, e);
	e = open_add(open, (uint64_t)cpu, 0);
	if (!e)
		return -ENOMEM;
	e->val = next;
	e->ns = ltt_event_ns(ev);
	field_str(ev, "next_comm", comm, sizeof(comm));
	snprintf(e->name, sizeof(e->name), "%s (%" PRId64 ")", comm, next);
	return 0;
}

int an_process_run(struct ltt_reader *r, struct an_kernel *res)
{
	return run_events(r, res, process_event, NULL);
}

void an_kernel_print(const struct an_kernel *res, const char *what, bool json, FILE *out)
{
	if (json) {
		fprintf(out, "{\"%s\": [", what);
		for (size_t i = 0; i < res->nrows; i++) {
			const struct an_latency *l = &res->rows[i];

			fprintf(out, "%s{\"name\": \"%s\", \"count\": %" PRIu64 ", \"errors\": %" PRIu64
				", \"min_ns\": %" PRIu64 ", \"mean_ns\": %.3f, \"max_ns\": %" PRIu64
				", \"total_ns\": %" PRIu64 "}", i ? ", " : "", l->name, l->count,
				l->errors, l->min, l->mean, l->max, l->total);
		}
		fprintf(out, "], \"unmatched\": %" PRIu64 "}\n", res->unmatched);
		return;
	}
	fprintf(out, "%-28s %10s %8s %12s %14s %12s %14s\n", what, "count", "errors",
		"min (ns)", "mean (ns)", "max (ns)", "total (ns)");
	for (size_t i = 0; i < res->nrows; i++) {
		const struct an_latency *l = &res->rows[i];

		fprintf(out, "%-28s %10" PRIu64 " %8" PRIu64 " %12" PRIu64 " %14.3f %12" PRIu64
			" %14" PRIu64 "\n", l->name, l->count, l->errors, l->min, l->mean, l->max,
			l->total);
	}
	if (res->unmatched)
		fprintf(out, "unmatched exits: %" PRIu64 "\n", res->unmatched);
}

void an_kernel_free(struct an_kernel *res)
{
	for (size_t i = 0; i < res->nrows; i++)
		free(res->rows[i].name);
	free(res->rows);
	memset(res, 0, sizeof(*res));
}
