/*
 * app-fields.h - the fields of an event as an application describes them
 * (APP_A_FIELD nests, proto/app-protocol.h), turned into a CTF payload type.
 * Everything is checked: a malformed description is refused, never trusted.
 */
#ifndef LTT_SESSIOND_APP_FIELDS_H
#define LTT_SESSIOND_APP_FIELDS_H

#include "ctf/ctf-types.h"
#include "proto/proto.h"

/*
 * Builds the payload struct from every APP_A_FIELD of a. Returns 0 and
 * *ret (owned by the caller), -EBADMSG with *detail naming the field, or
 * -ENOMEM. The CTF writer checks the rest (names, sequence lengths) when
 * the event class is added.
 */
int app_fields_to_ctf(const struct proto_attrs *a, struct ctf_type **ret, const char **detail);

#endif /* LTT_SESSIOND_APP_FIELDS_H */
