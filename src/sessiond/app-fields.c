/* app-fields.c - application field descriptions to CTF types; see app-fields.h. */
#include "app-fields.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include <ltt/tracepoint-types.h>

#include "proto/app-protocol.h"

static uint64_t get(const struct proto_attrs *a, uint16_t id, uint64_t dflt, bool *ok)
{
	uint64_t v;
	int r = proto_get_u64(a, id, &v);

	if (r == -ENOENT)
		return dflt;
	if (r < 0)
		*ok = false;
	return v;
}

/* The integer part of a description (a field, a container, an element). */
static int integer(const struct proto_attrs *a, enum ctf_encoding enc, struct ctf_type **ret)
{
	bool ok = true;
	uint64_t size = get(a, APP_A_SIZE, 0, &ok), align = get(a, APP_A_ALIGN, 8, &ok);
	uint64_t is_signed = get(a, APP_A_SIGNED, 0, &ok), base = get(a, APP_A_BASE, 10, &ok);
	uint64_t bo = get(a, APP_A_BYTE_ORDER, LTT_BYTE_ORDER_LE, &ok);

	if (!ok || (size != 8 && size != 16 && size != 32 && size != 64) || align > 64 ||
	    is_signed > 1 || (base != 10 && base != 16 && base != 8 && base != 2) ||
	    (bo != LTT_BYTE_ORDER_LE && bo != LTT_BYTE_ORDER_BE))
		return -EBADMSG;
	struct ctf_int_params p = {
		.size = (unsigned)size,
		.align = (unsigned)align,
		.is_signed = is_signed,
		.base = (unsigned)base,
		.byte_order = bo == LTT_BYTE_ORDER_BE ? CTF_BO_BE : CTF_BO_NATIVE,
		.encoding = enc,
	};
	return ctf_type_int_create(&p, ret) < 0 ? -EBADMSG : 0;
}

/* Whether value v (read as int64_t when is_signed) fits an integer container. */
static bool fits(const struct ctf_type *container, uint64_t v, bool is_signed)
{
	unsigned n = container->i.size;
	int64_t x = (int64_t)v;

	if (container->i.is_signed) {
		int64_t lo = n == 64 ? INT64_MIN : -(INT64_C(1) << (n - 1));
		int64_t hi = n == 64 ? INT64_MAX : (INT64_C(1) << (n - 1)) - 1;

		return is_signed ? x >= lo && x <= hi : v <= (uint64_t)hi;
	}
	if (is_signed && x < 0)
		return false;
	return n == 64 || v < (UINT64_C(1) << n);
}

/*
 * An enumeration. A mapping that its container cannot hold (an enum shared
 * by fields of several sizes: -3 for an unsigned char) names a value the
 * field never has: it is left out, as CTF requires mappings to fit.
 */
static int enumeration(const struct proto_attrs *a, struct ctf_type **ret)
{
	struct ctf_type *container, *en;
	struct proto_attr at;
	size_t cur = 0;
	int r = integer(a, CTF_ENC_NONE, &container);

	if (r < 0)
		return r;
	if (ctf_type_enum_create(container, &en) < 0)
		return -ENOMEM;
	while (proto_attrs_next(a, &cur, &at)) {
		struct proto_attrs e = { at.value, at.len };
		uint64_t start, end, sgn = 0;
		const char *label;

		if (at.id != APP_A_ENUM_ENTRY)
			continue;
		if (at.kind != PROTO_NEST || proto_get_str(&e, APP_A_LABEL, &label) < 0 ||
		    proto_get_u64(&e, APP_A_START, &start) < 0 ||
		    proto_get_u64(&e, APP_A_END, &end) < 0 ||
		    proto_get_u64(&e, APP_A_SIGNED, &sgn) == -EBADMSG) {
			ctf_type_free(en);
			return -EBADMSG;
		}
		if (!fits(container, start, sgn) || !fits(container, end, sgn))
			continue;
		if (ctf_type_enum_add(en, label, start, end) < 0) {
			ctf_type_free(en);
			return -EBADMSG;
		}
	}
	*ret = en;
	return 0;
}

static int field_type(const struct proto_attrs *a, struct ctf_type **ret)
{
	bool ok = true;
	uint64_t kind = get(a, APP_A_KIND, 0, &ok), enc = get(a, APP_A_ENCODING, 0, &ok);
	enum ctf_encoding cenc = enc == LTT_ENCODING_UTF8 ? CTF_ENC_UTF8 : CTF_ENC_NONE;
	struct ctf_type *elem;
	const char *length_name;
	uint64_t length;

	if (!ok || enc > LTT_ENCODING_UTF8)
		return -EBADMSG;
	switch (kind) {
	case LTT_TYPE_INTEGER:
		return integer(a, CTF_ENC_NONE, ret);
	case LTT_TYPE_FLOAT: {
		uint64_t exp = get(a, APP_A_EXP_DIG, 0, &ok), mant = get(a, APP_A_MANT_DIG, 0, &ok);
		uint64_t align = get(a, APP_A_ALIGN, 8, &ok);
		uint64_t bo = get(a, APP_A_BYTE_ORDER, LTT_BYTE_ORDER_LE, &ok);

		if (!ok || exp > 64 || mant > 128 || align > 128)
			return -EBADMSG;
		return ctf_type_float_create((unsigned)exp, (unsigned)mant, (unsigned)align,
					     bo == LTT_BYTE_ORDER_BE ? CTF_BO_BE : CTF_BO_NATIVE,
					     ret) < 0 ? -EBADMSG : 0;
	}
	case LTT_TYPE_STRING:
		return ctf_type_string_create(CTF_ENC_UTF8, ret) < 0 ? -ENOMEM : 0;
	case LTT_TYPE_ARRAY:
		length = get(a, APP_A_LENGTH, UINT64_MAX, &ok);
		if (!ok || length > (1u << 20) || integer(a, cenc, &elem) < 0)
			return -EBADMSG;
		return ctf_type_array_create(elem, length, ret) < 0 ? -EBADMSG : 0;
	case LTT_TYPE_SEQUENCE:
		if (proto_get_str(a, APP_A_LENGTH_NAME, &length_name) < 0 ||
		    integer(a, cenc, &elem) < 0)
			return -EBADMSG;
		return ctf_type_sequence_create(elem, length_name, ret) < 0 ? -EBADMSG : 0;
	case LTT_TYPE_ENUM:
		return enumeration(a, ret);
	default:
		return -EBADMSG;
	}
}

int app_fields_to_ctf(const struct proto_attrs *a, struct ctf_type **ret, const char **detail)
{
	static char text[300];	/* the daemon is single-threaded */
	struct ctf_type *st, *t;
	struct proto_attr at;
	size_t cur = 0;
	int r;

	if (ctf_type_struct_create(0, &st) < 0)
		return -ENOMEM;
	while (proto_attrs_next(a, &cur, &at)) {
		struct proto_attrs f = { at.value, at.len };
		const char *name = "?";

		if (at.id != APP_A_FIELD)
			continue;
		if (at.kind != PROTO_NEST || proto_get_str(&f, APP_A_NAME, &name) < 0 ||
		    (r = field_type(&f, &t)) < 0) {
			snprintf(text, sizeof(text), "malformed description of field '%s'", name);
			*detail = text;
			ctf_type_free(st);
			return -EBADMSG;
		}
		if (ctf_type_struct_add(st, name, t) < 0) {
			ctf_type_free(st);
			return -ENOMEM;
		}
	}
	*ret = st;
	return 0;
}
