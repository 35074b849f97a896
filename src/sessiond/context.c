/* context.c - context fields of channels; see context.h. */
#include "context.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel-session.h"
#include "proto/context-types.h"

/* The detail of an error (the daemon is single-threaded). */
__attribute__((format(printf, 1, 2))) static const char *detail_text(const char *fmt, ...)
{
	static char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return text;
}

/*
 * Whether this machine counts a perf counter: it is opened once for the
 * daemon's own thread. A hardware counter without a PMU (a virtual machine,
 * a container without perf) fails here with ENOENT or EOPNOTSUPP.
 */
static int perf_available(const struct proto_context_type *t, const char **detail)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = t->perf_type,
		.config = t->perf_config,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int err = errno;

	if (fd >= 0) {
		close((int)fd);
		return 0;
	}
	if (t->perf_type == PERF_TYPE_SOFTWARE)
		*detail = detail_text("%s: perf_event_open: %s", t->name, strerror(err));
	else
		*detail = detail_text("%s: no hardware performance counter on this machine "
				      "(perf_event_open: %s)", t->name, strerror(err));
	return -LTT_ERR_CONTEXT_UNAVAILABLE;
}

static bool channel_has(const struct reg_channel *c, unsigned type)
{
	for (size_t i = 0; i < c->n_contexts; i++)
		if (c->contexts[i] == type)
			return true;
	return false;
}

/* Resolves and checks the names into types[]; nothing changes. */
static int resolve(enum ltt_domain domain, const char *const *names, size_t n, unsigned *types,
		   const char **detail)
{
	for (size_t i = 0; i < n; i++) {
		int t = proto_context_type_find(names[i]);
		const struct proto_context_type *ct = t < 0 ? NULL : proto_context_type((size_t)t);
		int r;

		if (!ct) {
			*detail = detail_text("'%s' (see `ltt add-context --list`)", names[i]);
			return -LTT_ERR_CONTEXT_UNKNOWN;
		}
		if (!(ct->domains & (1u << domain))) {
			*detail = detail_text("'%s' is recorded in the %s domain only", names[i],
					      domain == LTT_DOMAIN_USER ? "kernel" : "user space");
			return -LTT_ERR_CONTEXT_UNKNOWN;
		}
		for (size_t k = 0; k < i; k++)
			if (types[k] == (unsigned)t) {
				*detail = detail_text("'%s' is given twice", names[i]);
				return -LTT_ERR_CONTEXT_EXISTS;
			}
		if (domain == LTT_DOMAIN_KERNEL && (r = kernel_session_context((unsigned)t,
										   detail)) < 0)
			return r;
		if (domain == LTT_DOMAIN_USER && ct->kind == PROTO_CTX_PERF &&
		    (r = perf_available(ct, detail)) < 0)
			return r;
		types[i] = (unsigned)t;
	}
	return 0;
}

/* Whether channel c of the domain is a target (channel NULL: all of the domain). */
static bool is_target(const struct reg_channel *c, enum ltt_domain domain, const char *channel)
{
	return c->domain == domain && (!channel || strcmp(c->name, channel) == 0);
}

int context_add(struct reg_session *s, enum ltt_domain domain, const char *channel,
		const char *const *names, size_t n, const char **detail)
{
	unsigned types[PROTO_CTX_MAX];
	struct reg_channel *created = NULL;
	size_t targets = 0;
	int r;

	if (s->chunk.started) {
		*detail = "contexts are added before the session starts, as the metadata "
			  "describes them from the start";
		return -LTT_ERR_STARTED_ONCE;
	}
	if (n == 0 || n > PROTO_CTX_MAX) {
		*detail = "at most 64 contexts per channel";
		return -LTT_ERR_INVALID_ATTR;
	}
	if ((r = resolve(domain, names, n, types, detail)) < 0)
		return r;
	for (size_t i = 0; i < s->n_channels; i++) {
		const struct reg_channel *c = &s->channels[i];

		if (!is_target(c, domain, channel))
			continue;
		targets++;
		if (c->n_contexts + n > PROTO_CTX_MAX) {
			*detail = detail_text("channel '%s': at most 64 contexts per channel",
					      c->name);
			return -LTT_ERR_INVALID_ATTR;
		}
		for (size_t k = 0; k < n; k++)
			if (channel_has(c, types[k])) {
				*detail = detail_text("channel '%s' records '%s' already", c->name,
						      names[k]);
				return -LTT_ERR_CONTEXT_EXISTS;
			}
	}
	if (channel && targets == 0)
		return -LTT_ERR_CHANNEL_NOT_FOUND;
	/* everything that can fail comes before the channels change */
	if (targets == 0 && (r = registry_channel_add_default(s, domain, &created, detail)) < 0)
		return r;
	for (size_t i = 0; i < s->n_channels; i++) {
		struct reg_channel *c = &s->channels[i];
		unsigned *grown;

		if (!is_target(c, domain, channel))
			continue;
		grown = realloc(c->contexts, (c->n_contexts + n) * sizeof(*grown));
		if (!grown)
			goto nomem;
		c->contexts = grown;
	}
	for (size_t i = 0; i < s->n_channels; i++) {
		struct reg_channel *c = &s->channels[i];

		if (!is_target(c, domain, channel))
			continue;
		memcpy(c->contexts + c->n_contexts, types, n * sizeof(*types));
		c->n_contexts += n;
	}
	return 0;
nomem:
	if (created) {	/* the last one: forget it */
		free(created->contexts);
		s->n_channels--;
	}
	return -ENOMEM;
}

static int int_type(const struct proto_context_type *t, struct ctf_type **ret)
{
	struct ctf_int_params p = {
		.size = t->bits,
		.align = t->bits,
		.is_signed = t->is_signed,
		.base = t->base,
	};

	return ctf_type_int_create(&p, ret);
}

/* char[17], UTF-8 text: what LTTng declares for procname. */
static int text_type(struct ctf_type **ret)
{
	struct ctf_int_params p = { .size = 8, .align = 8, .encoding = CTF_ENC_UTF8 };
	struct ctf_type *elem;
	int r = ctf_type_int_create(&p, &elem);

	return r < 0 ? r : ctf_type_array_create(elem, PROTO_CTX_PROCNAME_LEN, ret);
}

int context_ctf_type(const struct reg_channel *c, struct ctf_type **ret)
{
	struct ctf_type *st = NULL;
	int r;

	*ret = NULL;
	if (c->n_contexts == 0)
		return 0;
	if ((r = ctf_type_struct_create(PROTO_CTX_STRUCT_ALIGN * 8, &st)) < 0)
		return r;
	for (size_t i = 0; i < c->n_contexts; i++) {
		const struct proto_context_type *t = proto_context_type(c->contexts[i]);
		struct ctf_type *ft = NULL;

		r = t->kind == PROTO_CTX_PROCNAME ? text_type(&ft) : int_type(t, &ft);
		if (r == 0)
			r = ctf_type_struct_add(st, t->field, ft);
		if (r < 0) {
			ctf_type_free(st);
			return r;
		}
	}
	*ret = st;
	return 0;
}
