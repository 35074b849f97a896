/*
 * registry-internal.h - libltt-ust's registry of providers, tracepoints and
 * enabling rules.
 *
 * Providers (probe objects: event descriptors) and tracepoints (call sites'
 * state words, one array per module) register from constructors, including
 * those of shared objects dlopen'ed later, and unregister from destructors.
 * Rules say which events each tracer channel records: an event name glob,
 * a log level condition, exclusions, an optional filter. This is what the
 * session daemon's commands (enable-event, disable-event) end up calling.
 *
 * After every change the registry recomputes, for every event descriptor,
 * the mask of channels it is enabled in, its filters, and for every
 * tracepoint its state word (and, with dynamic linkage, its probe). Those
 * are read lock-free by call sites and probes; everything else happens
 * under one mutex and never on the fast path.
 */
#ifndef LTT_UST_REGISTRY_INTERNAL_H
#define LTT_UST_REGISTRY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/tracepoint.h>

/* Channels are numbered 0..UST_MAX_CHANNELS-1 (bits of ltt_event_state.channel_mask). */
#define UST_MAX_CHANNELS 64
/* Longest "provider:event", NUL excluded (LTTng's limit is 255 too). */
#define UST_MAX_NAME_LEN 255

enum ust_loglevel_type {
	UST_LOGLEVEL_ALL = 0,	/* any level */
	UST_LOGLEVEL_RANGE,	/* --loglevel: this level or more severe (<=) */
	UST_LOGLEVEL_SINGLE,	/* --loglevel-only: exactly this level */
};

/*
 * A filter: returns nonzero to record the event. Called by
 * ltt_ust_event_reserve() in the probe's context (any thread, signal
 * handlers): must not block or allocate. values has one entry per field of
 * desc, in order (struct ltt_filter_value).
 */
typedef int (*ust_filter_fn)(void *arg, const struct ltt_event_desc *desc,
			     const struct ltt_filter_value *values);

/*
 * Binds a rule's filter argument to one event that the rule matches, so
 * that the work that depends only on the event (finding fields by name) is
 * done once: called when the rules or the registered events change, with
 * the registry mutex held (may allocate). Returns the argument the filter
 * gets for that event, from malloc() (the registry frees it with the filter
 * set that holds it), or NULL when out of memory (the channel then records
 * nothing of the event: a filter asked for is never ignored).
 */
typedef void *(*ust_filter_bind_fn)(void *filter_arg, const struct ltt_event_desc *desc);

struct ust_rule_spec {
	const char *pattern;		/* glob on "provider:event" */
	enum ust_loglevel_type loglevel_type;
	int loglevel;			/* enum ltt_loglevel; ignored for ALL */
	const char *const *exclusions;	/* globs; events matching one are left out */
	size_t nr_exclusions;
	unsigned channel;		/* < UST_MAX_CHANNELS */
	ust_filter_fn filter;		/* NULL: none */
	void *filter_arg;		/* must outlive the rule */
	ust_filter_bind_fn filter_bind;	/* NULL: filter gets filter_arg itself */
};

/*
 * ust_rule_add - add an enabled rule (the spec's strings are copied).
 * Context: control thread; takes the registry mutex.
 * Returns 0 and *ret_id (for ust_rule_remove), -EINVAL (bad channel,
 * level type, empty pattern), -ENOMEM.
 */
int ust_rule_add(const struct ust_rule_spec *spec, uint64_t *ret_id);

/* Enables or disables a rule (disable-event). Returns 0 or -ENOENT. */
int ust_rule_set_enabled(uint64_t id, bool enabled);

/* Removes a rule. Returns 0 or -ENOENT. */
int ust_rule_remove(uint64_t id);

/* Removes every rule: every tracepoint is then disabled. */
void ust_rules_clear(void);

/*
 * ust_event_lookup - the descriptor of the event named name
 * ("provider:event"), the first registered if several modules carry it.
 * The pointer is valid until its provider unregisters (e.g. dlclose): use
 * it from the control thread only. Returns NULL if none.
 */
const struct ltt_event_desc *ust_event_lookup(const char *name);

/*
 * ust_tracepoint_lookup - the first registered tracepoint named name, or
 * NULL; valid until its module unregisters.
 */
struct ltt_tracepoint *ust_tracepoint_lookup(const char *name);

/*
 * ust_events_foreach - calls fn for every registered event descriptor (in
 * registration order; what `ltt list -u` shows), under the registry mutex:
 * fn must not call the registry. Stops when fn returns nonzero and returns
 * that value; else 0.
 */
int ust_events_foreach(int (*fn)(void *arg, const struct ltt_event_desc *desc), void *arg);

/* The level of an event: its TRACEPOINT_LOGLEVEL, or LTT_LOGLEVEL_DEFAULT. */
int ust_event_loglevel(const struct ltt_event_desc *desc);

/* Its TRACEPOINT_MODEL_EMF_URI, or NULL. */
const char *ust_event_model_emf_uri(const struct ltt_event_desc *desc);

/* Field i (< desc->nr_fields) of desc, honouring the descriptor's stride. */
static inline const struct ltt_field *ust_event_field(const struct ltt_event_desc *desc,
						      uint32_t i)
{
	return (const struct ltt_field *)(const void *)((const char *)desc->fields +
							 (size_t)i * desc->field_size);
}

/*
 * ust_event_desc_check - whether desc is complete and consistent: sizes
 * this library knows, a "provider:event" name of at most UST_MAX_NAME_LEN,
 * known kinds, integer sizes 8/16/32/64 with power-of-two alignments, each
 * sequence's length field present just before it, enums with mappings.
 * Returns 0 or -EINVAL.
 */
int ust_event_desc_check(const struct ltt_event_desc *desc);

/*
 * ust_event_filter_pass - whether the event passes the filters of channel
 * for these values (true if the channel has a rule without filter).
 * Context: probe (any thread, signal handlers); lock-free.
 */
bool ust_event_filter_pass(const struct ltt_event_desc *desc, unsigned channel,
			   const struct ltt_filter_value *values);

/*
 * ust_registry_reset - forget every rule and free what earlier rule sets
 * left for in-flight probes. Context: tests and library teardown, when no
 * probe can run.
 */
void ust_registry_reset(void);

/*
 * ust_comm_wait_events - have the listener thread (comm.c) get the ids of
 * newly registered events from the session daemon, and wait for it at most
 * LTT_UST_REGISTER_TIMEOUT ms. Context: a provider's registration.
 */
void ust_comm_wait_events(void);

#endif /* LTT_UST_REGISTRY_INTERNAL_H */
