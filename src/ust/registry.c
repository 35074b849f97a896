/*
 * registry.c - providers, tracepoints and enabling rules (registry-internal.h).
 *
 * Contexts: registration from constructors and destructors (the program's
 * before main, a shared object's during dlopen/dlclose, concurrently with
 * the program's threads); rule changes from the control thread (later: the
 * session daemon's command listener); reads by probes in any thread and in
 * signal handlers (ust_event_filter_pass, through ltt_ust_event_reserve).
 *
 * Invariants:
 *  1. Every mutation of the lists below happens under registry_lock, and
 *     ends with publish_all(), which stores the derived per-event and
 *     per-tracepoint words. Nothing on the fast path takes the lock.
 *  2. Derived words are written with __atomic builtins (the public structs
 *     are plain C99 types that the instrumented program allocates, so they
 *     cannot be _Atomic): a probe that sees a channel bit (acquire, in
 *     ltt_ust_event_reserve) sees the filter set published before it
 *     (release, here).
 *  3. With dynamic linkage a tracepoint's probe pointer is stored (release)
 *     before its state word becomes nonzero, and its state word is cleared
 *     before its probe pointer; call sites load the pointer with acquire.
 *  4. A filter set, once published, is never modified and never freed
 *     while probes may run: sets replaced by later rule changes stay on the
 *     retired list (reachable) until ust_registry_reset(). There is no
 *     grace-period mechanism yet; rule changes are rare control-plane
 *     events, so the retired sets are few.
 *  5. A descriptor is registered only after ust_event_desc_check() accepted
 *     it; everything derived trusts it afterwards.
 *
 * Known limit (as in any tracer without RCU): a thread still inside a probe
 * of a shared object at the moment that object is dlclose'd runs unmapped
 * code. lttng-ust closes this with urcu grace periods; ours comes with the
 * ring buffer's quiescence tracking.
 */
#include "registry-internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "glob-internal.h"
#include "util/macros.h"

struct provider_entry {
	const struct ltt_provider_desc *desc;
	unsigned refs;
	struct provider_entry *next;
};

struct module_entry {
	struct ltt_tracepoint *const *tps;
	size_t n;
	unsigned refs;
	struct module_entry *next;
};

struct rule {
	uint64_t id;
	bool enabled;
	char *pattern;
	enum ust_loglevel_type loglevel_type;
	int loglevel;
	char **exclusions;
	size_t nr_exclusions;
	unsigned channel;
	ust_filter_fn filter;
	void *filter_arg;
	ust_filter_bind_fn filter_bind;
	struct rule *next;
};

/* Published in ltt_event_state.tracer; immutable once published (inv. 4). */
struct filter_set {
	uint64_t unfiltered;		/* channels with a matching rule without filter */
	struct filter_set *retired_next;
	size_t n;
	struct {
		unsigned channel;
		ust_filter_fn fn;
		void *arg;
		bool owned;		/* arg from the rule's filter_bind: freed with the set */
	} f[];
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct provider_entry *providers;	/* registration order */
static struct module_entry *modules;
static struct rule *rules;
static uint64_t next_rule_id = 1;
static struct filter_set *retired;

/*
 * fork() while another thread holds registry_lock (a dlopen in progress)
 * would leave the child's copy locked forever: hold it across fork.
 */
static void registry_prefork(void)
{
	pthread_mutex_lock(&registry_lock);
}

static void registry_postfork(void)
{
	pthread_mutex_unlock(&registry_lock);
}

__attribute__((constructor)) static void registry_init(void)
{
	(void)pthread_atfork(registry_prefork, registry_postfork, registry_postfork);
}

/* --- descriptors --- */

int ust_event_loglevel(const struct ltt_event_desc *desc)
{
	const int *level = *desc->loglevel_ref;

	return level ? *level : LTT_LOGLEVEL_DEFAULT;
}

const char *ust_event_model_emf_uri(const struct ltt_event_desc *desc)
{
	const char *const *uri = *desc->model_emf_uri_ref;

	return uri ? *uri : NULL;
}

static bool integer_ok(const struct ltt_integer_type *t)
{
	if (t->size != 8 && t->size != 16 && t->size != 32 && t->size != 64)
		return false;
	if (!is_pow2(t->alignment) || t->alignment < 8 || t->alignment > t->size)
		return false;
	if (t->base != 10 && t->base != 16)
		return false;
	if (t->is_signed > 1)
		return false;
	return t->byte_order == LTT_BYTE_ORDER_LE || t->byte_order == LTT_BYTE_ORDER_BE;
}

static bool enum_ok(const struct ltt_enum_desc *e)
{
	if (!e || e->struct_size < sizeof(*e) || e->entry_size < sizeof(struct ltt_enum_entry))
		return false;
	if (!e->name || !e->provider || !e->entries || e->nr_entries == 0)
		return false;
	for (uint32_t i = 0; i < e->nr_entries; i++) {
		const struct ltt_enum_entry *en = (const void *)((const char *)e->entries +
								  (size_t)i * e->entry_size);
		if (!en->label)
			return false;
	}
	return true;
}

int ust_event_desc_check(const struct ltt_event_desc *d)
{
	const char *colon;

	if (!d || d->struct_size < sizeof(*d) || d->field_size < sizeof(struct ltt_field))
		return -EINVAL;
	if (!d->name || !d->provider || !d->event || !d->signature || !d->loglevel_ref ||
	    !d->model_emf_uri_ref || !d->probe || !d->state)
		return -EINVAL;
	if (strlen(d->name) > UST_MAX_NAME_LEN)
		return -EINVAL;
	colon = strchr(d->name, ':');
	if (!colon || (size_t)(colon - d->name) != strlen(d->provider) ||
	    strncmp(d->name, d->provider, strlen(d->provider)) != 0 ||
	    strcmp(colon + 1, d->event) != 0)
		return -EINVAL;
	if (d->state->struct_size < sizeof(struct ltt_event_state))
		return -EINVAL;
	if (d->nr_fields && !d->fields)
		return -EINVAL;
	for (uint32_t i = 0; i < d->nr_fields; i++) {
		const struct ltt_field *f = ust_event_field(d, i);
		const struct ltt_field *prev = i ? ust_event_field(d, i - 1) : NULL;
		const struct ltt_type *t = &f->type;

		if (!f->name || !f->name[0])
			return -EINVAL;
		if (f->flags & ~(LTT_FIELD_NOWRITE | LTT_FIELD_SEQUENCE_LENGTH))
			return -EINVAL;
		if ((f->flags & LTT_FIELD_SEQUENCE_LENGTH) &&
		    (t->kind != LTT_TYPE_INTEGER || t->u.integer.is_signed))
			return -EINVAL;
		switch (t->kind) {
		case LTT_TYPE_INTEGER:
			if (!integer_ok(&t->u.integer))
				return -EINVAL;
			break;
		case LTT_TYPE_FLOAT:
			if (!is_pow2(t->u.fp.alignment) || t->u.fp.alignment < 8 ||
			    t->u.fp.exp_dig == 0 || t->u.fp.mant_dig == 0)
				return -EINVAL;
			break;
		case LTT_TYPE_STRING:
			if (t->encoding != LTT_ENCODING_UTF8)
				return -EINVAL;
			break;
		case LTT_TYPE_ARRAY:
		case LTT_TYPE_SEQUENCE:
			if (!integer_ok(&t->u.integer) || t->encoding > LTT_ENCODING_UTF8)
				return -EINVAL;
			if (t->encoding == LTT_ENCODING_UTF8 && t->u.integer.size != 8)
				return -EINVAL;
			if (t->kind == LTT_TYPE_SEQUENCE &&
			    (!prev || !t->length_name || !(prev->flags & LTT_FIELD_SEQUENCE_LENGTH) ||
			     strcmp(prev->name, t->length_name) != 0 ||
			     (prev->flags & LTT_FIELD_NOWRITE) != (f->flags & LTT_FIELD_NOWRITE)))
				return -EINVAL;
			break;
		case LTT_TYPE_ENUM:
			if (!integer_ok(&t->u.integer) || !enum_ok(t->enum_desc))
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
		/* A length field is immediately followed by its sequence. */
		if ((f->flags & LTT_FIELD_SEQUENCE_LENGTH) &&
		    (i + 1 >= d->nr_fields || ust_event_field(d, i + 1)->type.kind != LTT_TYPE_SEQUENCE))
			return -EINVAL;
	}
	return 0;
}

/* --- derived state --- */

static bool rule_matches(const struct rule *r, const struct ltt_event_desc *d)
{
	int level;

	if (!r->enabled || !ust_glob_match(r->pattern, d->name))
		return false;
	for (size_t i = 0; i < r->nr_exclusions; i++)
		if (ust_glob_match(r->exclusions[i], d->name))
			return false;
	level = ust_event_loglevel(d);
	switch (r->loglevel_type) {
	case UST_LOGLEVEL_RANGE:
		return level <= r->loglevel;
	case UST_LOGLEVEL_SINGLE:
		return level == r->loglevel;
	case UST_LOGLEVEL_ALL:
	default:
		return true;
	}
}

/* The filter of a channel whose filter could not be bound (no memory). */
static int reject_all(void *arg, const struct ltt_event_desc *desc,
		      const struct ltt_filter_value *values)
{
	(void)arg, (void)desc, (void)values;
	return 0;
}

static void filter_set_free(struct filter_set *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->f[i].owned)
			free(fs->f[i].arg);
	free(fs);
}

/*
 * Computes and publishes one event's channel mask and filter set.
 * Returns 0, or -ENOMEM: then the channels that need a filter do not
 * record the event (fail closed: a filter asked for is never ignored).
 */
static int publish_event(const struct ltt_event_desc *d)
{
	struct ltt_event_state *st = d->state;
	uint64_t mask = 0, unfiltered = 0;
	size_t nf = 0;
	struct filter_set *fs = NULL;
	int r = 0;

	for (const struct rule *ru = rules; ru; ru = ru->next) {
		if (!rule_matches(ru, d))
			continue;
		mask |= UINT64_C(1) << ru->channel;
		if (ru->filter)
			nf++;
		else
			unfiltered |= UINT64_C(1) << ru->channel;
	}
	if (mask & ~unfiltered) {
		fs = calloc(1, sizeof(*fs) + nf * sizeof(fs->f[0]));
		if (!fs) {
			mask = unfiltered;
			r = -ENOMEM;
		} else {
			fs->unfiltered = unfiltered;
			for (const struct rule *ru = rules; ru; ru = ru->next) {
				if (!ru->filter || (unfiltered & (UINT64_C(1) << ru->channel)) ||
				    !rule_matches(ru, d))
					continue;
				fs->f[fs->n].channel = ru->channel;
				fs->f[fs->n].fn = ru->filter;
				fs->f[fs->n].arg = ru->filter_arg;
				if (ru->filter_bind) {
					fs->f[fs->n].arg = ru->filter_bind(ru->filter_arg, d);
					fs->f[fs->n].owned = true;
					if (!fs->f[fs->n].arg) {
						fs->f[fs->n].fn = reject_all;
						r = -ENOMEM;
					}
				}
				fs->n++;
			}
			fs->retired_next = retired;
			retired = fs;
		}
	}
	/* Release: the filter set's contents before its pointer (inv. 4). */
	__atomic_store_n(&st->tracer, (void *)fs, __ATOMIC_RELEASE);
	__atomic_store_n(&st->flags, fs ? LTT_EVENT_STATE_FILTER : 0u, __ATOMIC_RELEASE);
	/* Release: the filter set before the channel bits (inv. 2); pairs with
	 * the acquire load in ltt_ust_event_reserve(). */
	__atomic_store_n(&st->channel_mask, mask, __ATOMIC_RELEASE);
	return r;
}

/* The registered descriptor a tracepoint binds to: same name, same signature. */
static const struct ltt_event_desc *find_desc(const char *name, const char *signature)
{
	for (const struct provider_entry *p = providers; p; p = p->next)
		for (uint32_t i = 0; i < p->desc->nr_events; i++) {
			const struct ltt_event_desc *d = p->desc->events[i];

			if (strcmp(d->name, name) == 0 &&
			    (!signature || strcmp(d->signature, signature) == 0))
				return d;
		}
	return NULL;
}

static void publish_tracepoint(struct ltt_tracepoint *tp)
{
	const struct ltt_event_desc *d = find_desc(tp->name, tp->signature);
	bool on = d && __atomic_load_n(&d->state->channel_mask, __ATOMIC_RELAXED) != 0;

	if (tp->provider) {	/* static linkage: the call site calls its probe directly */
		__atomic_store_n(&tp->state, on ? 1 : 0, __ATOMIC_RELEASE);
		return;
	}
	if (on) {
		/* Release: pairs with the acquire load of the call site (inv. 3). */
		__atomic_store_n(&tp->probe, d->probe, __ATOMIC_RELEASE);
		__atomic_store_n(&tp->state, 1, __ATOMIC_RELEASE);
	} else {
		__atomic_store_n(&tp->state, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&tp->probe, d ? d->probe : NULL, __ATOMIC_RELEASE);
	}
}

/* Inv. 1: called under registry_lock after every change. */
static int publish_all(void)
{
	int r = 0;

	for (const struct provider_entry *p = providers; p; p = p->next)
		for (uint32_t i = 0; i < p->desc->nr_events; i++) {
			int q = publish_event(p->desc->events[i]);

			if (q < 0)
				r = q;
		}
	for (const struct module_entry *m = modules; m; m = m->next)
		for (size_t i = 0; i < m->n; i++)
			if (m->tps[i])
				publish_tracepoint(m->tps[i]);
	return r;
}

/* --- registration (called by generated code) --- */

LTT_EXPORT int ltt_ust_provider_register(const struct ltt_provider_desc *desc)
{
	struct provider_entry *p;
	int r = 0;

	if (!desc || desc->struct_size < sizeof(*desc) || !desc->name || !desc->events)
		return -EINVAL;
	for (uint32_t i = 0; i < desc->nr_events; i++) {
		const struct ltt_event_desc *d = desc->events[i];

		if (ust_event_desc_check(d) < 0 || strcmp(d->provider, desc->name) != 0)
			return -EINVAL;
	}
	pthread_mutex_lock(&registry_lock);
	for (p = providers; p; p = p->next)
		if (p->desc == desc) {
			p->refs++;
			goto out;
		}
	p = calloc(1, sizeof(*p));
	if (!p) {
		r = -ENOMEM;
		goto out;
	}
	p->desc = desc;
	p->refs = 1;
	/* Append: the first registered copy of a name is the one bound. */
	struct provider_entry **tail = &providers;
	while (*tail)
		tail = &(*tail)->next;
	*tail = p;
	(void)publish_all();
out:
	pthread_mutex_unlock(&registry_lock);
	/* its events need ids in the channels that record them (comm.c) */
	if (r == 0)
		ust_comm_wait_events();
	return r;
}

LTT_EXPORT void ltt_ust_provider_unregister(const struct ltt_provider_desc *desc)
{
	struct provider_entry **pp, *p;

	pthread_mutex_lock(&registry_lock);
	for (pp = &providers; (p = *pp); pp = &p->next) {
		if (p->desc != desc)
			continue;
		if (--p->refs)
			break;
		*pp = p->next;
		/* The events go away with their object: disable them first so
		 * that nothing bound to them stays enabled. */
		for (uint32_t i = 0; i < desc->nr_events; i++) {
			struct ltt_event_state *st = desc->events[i]->state;

			__atomic_store_n(&st->channel_mask, 0, __ATOMIC_RELEASE);
		}
		free(p);
		(void)publish_all();
		break;
	}
	pthread_mutex_unlock(&registry_lock);
}

LTT_EXPORT int ltt_ust_tracepoints_register(struct ltt_tracepoint *const *tps, size_t n)
{
	struct module_entry *m;
	int r = 0;

	if (!tps && n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (tps[i] && (tps[i]->struct_size < sizeof(struct ltt_tracepoint) ||
			       !tps[i]->name || !tps[i]->signature))
			return -EINVAL;
	pthread_mutex_lock(&registry_lock);
	for (m = modules; m; m = m->next)
		if (m->tps == tps) {
			m->refs++;
			goto out;
		}
	m = calloc(1, sizeof(*m));
	if (!m) {
		r = -ENOMEM;
		goto out;
	}
	m->tps = tps;
	m->n = n;
	m->refs = 1;
	m->next = modules;
	modules = m;
	(void)publish_all();
out:
	pthread_mutex_unlock(&registry_lock);
	return r;
}

LTT_EXPORT void ltt_ust_tracepoints_unregister(struct ltt_tracepoint *const *tps)
{
	struct module_entry **pp, *m;

	pthread_mutex_lock(&registry_lock);
	for (pp = &modules; (m = *pp); pp = &m->next) {
		if (m->tps != tps)
			continue;
		if (--m->refs)
			break;
		*pp = m->next;
		for (size_t i = 0; i < m->n; i++)
			if (m->tps[i])
				__atomic_store_n(&m->tps[i]->state, 0, __ATOMIC_RELEASE);
		free(m);
		break;
	}
	pthread_mutex_unlock(&registry_lock);
}

/* --- rules --- */

static void rule_free(struct rule *r)
{
	if (!r)
		return;
	free(r->pattern);
	for (size_t i = 0; i < r->nr_exclusions; i++)
		free(r->exclusions[i]);
	free(r->exclusions);
	free(r);
}

int ust_rule_add(const struct ust_rule_spec *spec, uint64_t *ret_id)
{
	struct rule *r = NULL, **tail;
	uint64_t id;

	if (!spec || !spec->pattern || !spec->pattern[0] || spec->channel >= UST_MAX_CHANNELS ||
	    spec->loglevel_type > UST_LOGLEVEL_SINGLE || (spec->nr_exclusions && !spec->exclusions))
		return -EINVAL;
	for (size_t i = 0; i < spec->nr_exclusions; i++)
		if (!spec->exclusions[i] || !spec->exclusions[i][0])
			return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		goto err;
	r->pattern = strdup(spec->pattern);
	if (!r->pattern)
		goto err;
	if (spec->nr_exclusions) {
		r->exclusions = calloc(spec->nr_exclusions, sizeof(*r->exclusions));
		if (!r->exclusions)
			goto err;
		for (; r->nr_exclusions < spec->nr_exclusions; r->nr_exclusions++) {
			r->exclusions[r->nr_exclusions] = strdup(spec->exclusions[r->nr_exclusions]);
			if (!r->exclusions[r->nr_exclusions])
				goto err;
		}
	}
	r->enabled = true;
	r->loglevel_type = spec->loglevel_type;
	r->loglevel = spec->loglevel;
	r->channel = spec->channel;
	r->filter = spec->filter;
	r->filter_arg = spec->filter_arg;
	r->filter_bind = spec->filter_bind;

	pthread_mutex_lock(&registry_lock);
	id = r->id = next_rule_id++;
	for (tail = &rules; *tail; tail = &(*tail)->next)
		;
	*tail = r;
	if (publish_all() < 0) {
		*tail = NULL;
		(void)publish_all();
		pthread_mutex_unlock(&registry_lock);
		rule_free(r);
		return -ENOMEM;
	}
	pthread_mutex_unlock(&registry_lock);
	*ret_id = id;
	return 0;
err:
	rule_free(r);
	return -ENOMEM;
}

int ust_rule_set_enabled(uint64_t id, bool enabled)
{
	int r = -ENOENT;

	pthread_mutex_lock(&registry_lock);
	for (struct rule *ru = rules; ru; ru = ru->next)
		if (ru->id == id) {
			ru->enabled = enabled;
			r = publish_all();
			break;
		}
	pthread_mutex_unlock(&registry_lock);
	return r;
}

int ust_rule_remove(uint64_t id)
{
	struct rule **pp, *ru;
	int r = -ENOENT;

	pthread_mutex_lock(&registry_lock);
	for (pp = &rules; (ru = *pp); pp = &ru->next)
		if (ru->id == id) {
			*pp = ru->next;
			rule_free(ru);
			r = publish_all();
			break;
		}
	pthread_mutex_unlock(&registry_lock);
	return r;
}

void ust_rules_clear(void)
{
	pthread_mutex_lock(&registry_lock);
	while (rules) {
		struct rule *ru = rules;

		rules = ru->next;
		rule_free(ru);
	}
	(void)publish_all();
	pthread_mutex_unlock(&registry_lock);
}

void ust_registry_reset(void)
{
	ust_rules_clear();
	pthread_mutex_lock(&registry_lock);
	while (retired) {
		struct filter_set *fs = retired;

		retired = fs->retired_next;
		filter_set_free(fs);
	}
	pthread_mutex_unlock(&registry_lock);
}

/* --- lookups --- */

const struct ltt_event_desc *ust_event_lookup(const char *name)
{
	const struct ltt_event_desc *d;

	pthread_mutex_lock(&registry_lock);
	d = find_desc(name, NULL);
	pthread_mutex_unlock(&registry_lock);
	return d;
}

struct ltt_tracepoint *ust_tracepoint_lookup(const char *name)
{
	struct ltt_tracepoint *tp = NULL;

	pthread_mutex_lock(&registry_lock);
	for (const struct module_entry *m = modules; m && !tp; m = m->next)
		for (size_t i = 0; i < m->n; i++)
			if (m->tps[i] && strcmp(m->tps[i]->name, name) == 0) {
				tp = m->tps[i];
				break;
			}
	pthread_mutex_unlock(&registry_lock);
	return tp;
}

int ust_events_foreach(int (*fn)(void *arg, const struct ltt_event_desc *desc), void *arg)
{
	int r = 0;

	pthread_mutex_lock(&registry_lock);
	for (const struct provider_entry *p = providers; p && !r; p = p->next)
		for (uint32_t i = 0; i < p->desc->nr_events && !r; i++)
			r = fn(arg, p->desc->events[i]);
	pthread_mutex_unlock(&registry_lock);
	return r;
}

/* --- fast path --- */

bool ust_event_filter_pass(const struct ltt_event_desc *desc, unsigned channel,
			   const struct ltt_filter_value *values)
{
	/* Acquire: pairs with the release store in publish_event(). */
	const struct filter_set *fs = __atomic_load_n(&desc->state->tracer, __ATOMIC_ACQUIRE);

	if (!fs || (fs->unfiltered & (UINT64_C(1) << channel)))
		return true;
	if (!values)	/* the filter was attached after the probe looked */
		return true;
	for (size_t i = 0; i < fs->n; i++)
		if (fs->f[i].channel == channel && fs->f[i].fn(fs->f[i].arg, desc, values))
			return true;
	return false;
}
