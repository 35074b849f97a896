/*
 * context.h - the context fields of a session's channels (`ltt
 * add-context`): validation against the table of types
 * (proto/context-types.h) and the machine, storage in struct reg_channel
 * (contexts[], type indexes in the order added), and their description as
 * the CTF stream event context.
 */
#ifndef LTT_SESSIOND_CONTEXT_H
#define LTT_SESSIOND_CONTEXT_H

#include "ctf/ctf-types.h"
#include "registry.h"

/*
 * Adds the n types named names to the channel (NULL: every channel of the
 * domain; channel0 is created when the domain has none) of a session never
 * started. All or none: -LTT_ERR_STARTED_ONCE, -LTT_ERR_CONTEXT_UNKNOWN
 * (no such type in the domain), -LTT_ERR_CONTEXT_EXISTS (a type is given
 * twice or a channel has it), -LTT_ERR_CONTEXT_UNAVAILABLE (this machine
 * cannot count it), -LTT_ERR_CHANNEL_NOT_FOUND, -LTT_ERR_INVALID_ATTR (too
 * many), -ENOMEM; *detail names the type or channel at fault.
 */
int context_add(struct reg_session *s, enum ltt_domain domain, const char *channel,
		const char *const *names, size_t n, const char **detail);

/*
 * The CTF event context of a channel: NULL without contexts, else a struct
 * aligned to PROTO_CTX_STRUCT_ALIGN with one field per context, named and
 * typed as LTTng writes them. 0 or -ENOMEM.
 */
int context_ctf_type(const struct reg_channel *c, struct ctf_type **ret);

#endif /* LTT_SESSIOND_CONTEXT_H */
