/*
 * fuzz-proto.c - control messages as a daemon receives them: a header,
 * then a payload that must validate before any attribute is read.
 */
#include <stdint.h>
#include <string.h>

#include "proto/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const struct proto_attrs *a, unsigned depth)
{
	struct proto_attr at;
	size_t cur = 0;
	uint64_t u;
	const char *s;

	while (proto_attrs_next(a, &cur, &at)) {
		if (at.kind == PROTO_NEST && depth < PROTO_MAX_DEPTH) {
			struct proto_attrs sub = { at.value, at.len };

			walk(&sub, depth + 1);
		}
		if (proto_get_u64(a, at.id, &u) == 0)
			(void)u;
		if (proto_get_str(a, at.id, &s) == 0)
			(void)strlen(s);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_header h;
	struct proto_attrs a;

	if (size < PROTO_HEADER_SIZE)
		return 0;
	memcpy(&h, data, sizeof(h));
	if (proto_header_check(&h) < 0 || h.payload_len > size - PROTO_HEADER_SIZE)
		return 0;
	if (proto_attrs_parse(data + PROTO_HEADER_SIZE, h.payload_len, &a) == 0)
		walk(&a, 1);
	return 0;
}
