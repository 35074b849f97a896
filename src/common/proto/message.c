/* message.c - building and validating protocol messages; see proto.h. */
#include "proto.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/macros.h"

#define ATTR_HEADER_SIZE 8

static int builder_reserve(struct proto_builder *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->error)
		return b->error;
	if (b->len + n - PROTO_HEADER_SIZE > PROTO_MAX_PAYLOAD) {
		b->error = -EMSGSIZE;
		return b->error;
	}
	if (b->len + n <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->buf, cap);
	if (!p) {
		b->error = -ENOMEM;
		return b->error;
	}
	b->buf = p;
	b->cap = cap;
	return 0;
}

static struct proto_header *builder_header(const struct proto_builder *b)
{
	return (struct proto_header *)b->buf;
}

void proto_builder_init(struct proto_builder *b, uint16_t type, uint32_t seq)
{
	*b = (struct proto_builder){ 0 };
	if (builder_reserve(b, PROTO_HEADER_SIZE) < 0)
		return;
	b->len = PROTO_HEADER_SIZE;
	*builder_header(b) = (struct proto_header){
		.magic = PROTO_MAGIC,
		.version = PROTO_VERSION,
		.type = type,
		.payload_len = 0,
		.seq = seq,
	};
}

/* Appends an attribute header and n value bytes (zero padding to 8). */
static void put_attr(struct proto_builder *b, uint16_t id, uint16_t kind,
		     const void *value, size_t n)
{
	size_t total = ATTR_HEADER_SIZE + align_up(n, 8);
	uint32_t len32 = (uint32_t)n;
	uint8_t *p;

	if (n > PROTO_MAX_PAYLOAD) {
		b->error = b->error ? b->error : -EMSGSIZE;
		return;
	}
	if (builder_reserve(b, total) < 0)
		return;
	p = b->buf + b->len;
	memcpy(p, &id, 2);
	memcpy(p + 2, &kind, 2);
	memcpy(p + 4, &len32, 4);
	if (n)
		memcpy(p + ATTR_HEADER_SIZE, value, n);
	memset(p + ATTR_HEADER_SIZE + n, 0, total - ATTR_HEADER_SIZE - n);
	b->len += total;
	builder_header(b)->payload_len = (uint32_t)(b->len - PROTO_HEADER_SIZE);
}

void proto_put_u64(struct proto_builder *b, uint16_t id, uint64_t v)
{
	put_attr(b, id, PROTO_U64, &v, 8);
}

void proto_put_i64(struct proto_builder *b, uint16_t id, int64_t v)
{
	put_attr(b, id, PROTO_I64, &v, 8);
}

void proto_put_str(struct proto_builder *b, uint16_t id, const char *s)
{
	put_attr(b, id, PROTO_STR, s, strlen(s) + 1);
}

void proto_put_bytes(struct proto_builder *b, uint16_t id, const void *p, size_t n)
{
	put_attr(b, id, PROTO_BYTES, p, n);
}

void proto_nest_begin(struct proto_builder *b, uint16_t id)
{
	if (b->error)
		return;
	if (b->depth == PROTO_MAX_DEPTH) {
		b->error = -EINVAL;
		return;
	}
	b->nest[b->depth] = b->len;
	put_attr(b, id, PROTO_NEST, NULL, 0);
	if (!b->error)
		b->depth++;
}

void proto_nest_end(struct proto_builder *b)
{
	uint32_t len32;

	if (b->error)
		return;
	if (b->depth == 0) {
		b->error = -EINVAL;
		return;
	}
	b->depth--;
	len32 = (uint32_t)(b->len - b->nest[b->depth] - ATTR_HEADER_SIZE);
	memcpy(b->buf + b->nest[b->depth] + 4, &len32, 4);
}

int proto_builder_error(const struct proto_builder *b)
{
	if (b->error)
		return b->error;
	return b->depth ? -EINVAL : 0;
}

const uint8_t *proto_builder_data(const struct proto_builder *b, size_t *ret_len)
{
	*ret_len = b->len;
	return b->buf;
}

void proto_builder_free(struct proto_builder *b)
{
	if (!b)
		return;
	free(b->buf);
	*b = (struct proto_builder){ 0 };
}

int proto_header_check(const struct proto_header *h)
{
	if (h->magic != PROTO_MAGIC || h->version != PROTO_VERSION)
		return -EBADMSG;
	if (h->payload_len > PROTO_MAX_PAYLOAD)
		return -EMSGSIZE;
	return 0;
}

/* Reads the attribute at offset off of a list already known to be well formed. */
static void attr_at(const uint8_t *p, size_t off, struct proto_attr *a)
{
	memcpy(&a->id, p + off, 2);
	memcpy(&a->kind, p + off + 2, 2);
	memcpy(&a->len, p + off + 4, 4);
	a->value = p + off + ATTR_HEADER_SIZE;
}

static int validate(const uint8_t *p, size_t len, unsigned depth)
{
	size_t off = 0;

	if (depth > PROTO_MAX_DEPTH)
		return -EBADMSG;
	while (off < len) {
		struct proto_attr a;
		size_t room;

		if (len - off < ATTR_HEADER_SIZE)
			return -EBADMSG;
		attr_at(p, off, &a);
		room = len - off - ATTR_HEADER_SIZE;
		if (a.len > room || align_up(a.len, 8) > room)
			return -EBADMSG;
		switch (a.kind) {
		case PROTO_U64:
		case PROTO_I64:
			if (a.len != 8)
				return -EBADMSG;
			break;
		case PROTO_STR:
			/* exactly one NUL, the last byte */
			if (a.len == 0 || a.value[a.len - 1] != '\0' ||
			    memchr(a.value, '\0', a.len) != a.value + a.len - 1)
				return -EBADMSG;
			break;
		case PROTO_BYTES:
			break;
		case PROTO_NEST:
			if (validate(a.value, a.len, depth + 1) < 0)
				return -EBADMSG;
			break;
		default:
			return -EBADMSG;
		}
		off += ATTR_HEADER_SIZE + align_up(a.len, 8);
	}
	return 0;
}

int proto_attrs_parse(const void *payload, size_t payload_len, struct proto_attrs *ret)
{
	if (payload_len > PROTO_MAX_PAYLOAD || (payload_len && !payload))
		return -EBADMSG;
	if (validate(payload, payload_len, 0) < 0)
		return -EBADMSG;
	*ret = (struct proto_attrs){ payload, payload_len };
	return 0;
}

int proto_attrs_next(const struct proto_attrs *a, size_t *cursor, struct proto_attr *ret_attr)
{
	if (*cursor >= a->len)
		return 0;
	attr_at(a->p, *cursor, ret_attr);
	*cursor += ATTR_HEADER_SIZE + align_up(ret_attr->len, 8);
	return 1;
}

static int find(const struct proto_attrs *a, uint16_t id, uint16_t kind, struct proto_attr *ret)
{
	struct proto_attr at;
	size_t cur = 0;

	while (proto_attrs_next(a, &cur, &at))
		if (at.id == id) {
			if (at.kind != kind)
				return -EBADMSG;
			*ret = at;
			return 0;
		}
	return -ENOENT;
}

int proto_get_u64(const struct proto_attrs *a, uint16_t id, uint64_t *ret)
{
	struct proto_attr at;
	int r = find(a, id, PROTO_U64, &at);

	if (r == 0)
		memcpy(ret, at.value, 8);
	return r;
}

int proto_get_i64(const struct proto_attrs *a, uint16_t id, int64_t *ret)
{
	struct proto_attr at;
	int r = find(a, id, PROTO_I64, &at);

	if (r == 0)
		memcpy(ret, at.value, 8);
	return r;
}

int proto_get_str(const struct proto_attrs *a, uint16_t id, const char **ret)
{
	struct proto_attr at;
	int r = find(a, id, PROTO_STR, &at);

	if (r == 0)
		*ret = (const char *)at.value;
	return r;
}

int proto_get_bytes(const struct proto_attrs *a, uint16_t id, const void **ret, size_t *ret_len)
{
	struct proto_attr at;
	int r = find(a, id, PROTO_BYTES, &at);

	if (r == 0) {
		*ret = at.value;
		*ret_len = at.len;
	}
	return r;
}

int proto_get_nest(const struct proto_attrs *a, uint16_t id, struct proto_attrs *ret)
{
	struct proto_attr at;
	int r = find(a, id, PROTO_NEST, &at);

	if (r == 0)
		*ret = (struct proto_attrs){ at.value, at.len };
	return r;
}
