/* context.c - context types and `add-context` requests, through the daemon. */
#include "ctl-internal.h"

#include <errno.h>

#include "proto/context-types.h"
#include "util/macros.h"

LTT_EXPORT const char *ltt_context_type_name(size_t i, unsigned *ret_domains)
{
	const struct proto_context_type *t = proto_context_type(i);

	if (!t)
		return NULL;
	if (ret_domains)
		*ret_domains = t->domains;	/* the same bits: 1u << enum ltt_domain */
	return t->name;
}

_Static_assert(PROTO_CTX_USER == 1u << LTT_DOMAIN_USER &&
	       PROTO_CTX_KERNEL_DOMAIN == 1u << LTT_DOMAIN_KERNEL,
	       "context type domains are enum ltt_domain bits");

LTT_EXPORT int ltt_context_add(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			       const char *channel, const char *const *types, size_t n_types)
{
	struct proto_builder b;

	if (!session || !types || n_types == 0)
		return -EINVAL;
	for (size_t i = 0; i < n_types; i++)
		if (!types[i])
			return -EINVAL;
	ctl_begin(ctl, &b, CTL_CONTEXT_ADD);
	ctl_put_target(&b, session, domain, channel);
	for (size_t i = 0; i < n_types; i++)
		proto_put_str(&b, CTL_A_CONTEXT, types[i]);
	return ctl_simple_request(ctl, &b);
}
